//! `credence history`'s steps: each input read or analyzed into one point, the store (when
//! given) read and appended to, the points ordered, and the history computed.

pub mod store;

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::analyze::AnalyzeOptions;
use crate::analyze::history::{History, HistoryOptions, RunPoint, history, run_point, series};
use crate::error::CliError;
use crate::ops::pipeline::analyze_dir;
use crate::timing::Timing;

/// What a history store took in: `added` of the `given` runs were new.
pub struct StoreUpdate {
    pub dir: PathBuf,
    pub added: usize,
    pub given: usize,
}

/// The history of `inputs` (run folders or saved analyses), after the runs of the store in
/// `store_dir` when given (the new ones are appended to it).
pub fn history_of(inputs: &[PathBuf], store_dir: Option<&Path>, resamples: usize, seed: u64, opts: &HistoryOptions) -> Result<(History, Option<StoreUpdate>), CliError> {
    let timing = Timing::new();
    let given = load_points(inputs, resamples, seed)?;
    timing.mark("inputs read and analyzed");
    let (points, update) = match store_dir {
        Some(dir) => {
            let (points, update) = with_store(dir, given, &timing)?;
            (points, Some(update))
        }
        None => (unique(given), None),
    };
    let points = series::order(points, opts.order).map_err(|e| CliError::bad_input(e).hint("use --order given to keep the order of the inputs"))?;
    let h = history(&points, opts);
    timing.mark("change points, sizes and drift");
    Ok((h, update))
}

/// Each input's summary, in the order given; run folders without an analysis are analyzed
/// in parallel.
pub fn load_points(inputs: &[PathBuf], resamples: usize, seed: u64) -> Result<Vec<RunPoint>, CliError> {
    let opts = AnalyzeOptions { resamples: resamples.min(1999), seed, ..Default::default() };
    inputs.par_iter().map(|p| load_point(p, &opts)).collect()
}

fn load_point(path: &Path, opts: &AnalyzeOptions) -> Result<RunPoint, CliError> {
    let saved = path.join("analysis.json");
    let (value, label) = if path.is_dir() && !saved.is_file() {
        let run = analyze_dir(path, opts)?;
        (serde_json::to_value(&run.analysis).map_err(|e| CliError::failure(e.to_string()))?, path.display().to_string())
    } else {
        let file = if path.is_dir() { saved } else { path.to_path_buf() };
        let text = std::fs::read_to_string(&file).map_err(|e| CliError::bad_input(format!("{}: cannot read: {e}", file.display())))?;
        let value: Value = serde_json::from_str(&text).map_err(|e| CliError::bad_input(format!("{}: not JSON: {e}", file.display())))?;
        (value, file.display().to_string())
    };
    run_point(&value).map_err(|e| CliError::bad_input(format!("{label}: {e}")).hint("give run folders, or analysis JSON written by `credence analyze --out`"))
}

/// The store's runs followed by the new ones, after appending those it lacked.
fn with_store(dir: &Path, given: Vec<RunPoint>, timing: &Timing) -> Result<(Vec<RunPoint>, StoreUpdate), CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::bad_input(format!("--dir {}: not a folder", dir.display())));
    }
    let stored = store::read(dir)?;
    timing.mark("store read");
    let added = store::append(dir, &stored, &given)?;
    timing.mark("store appended");
    let update = StoreUpdate { dir: dir.to_path_buf(), added, given: given.len() };
    Ok((unique(stored.into_iter().chain(given).collect()), update))
}

/// The first run of each run id.
fn unique(points: Vec<RunPoint>) -> Vec<RunPoint> {
    let mut seen = std::collections::BTreeSet::new();
    points.into_iter().filter(|p| seen.insert(p.run_id.clone())).collect()
}
