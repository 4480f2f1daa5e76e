//! `credence history`'s steps: each input read or analyzed into one point, the store (when
//! given) read and appended to, the points ordered, and the history computed.

pub mod store;

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::analyze::AnalyzeOptions;
use crate::analyze::history::{History, HistoryOptions, RunPoint, history, run_point, series};
use crate::error::CliError;
use crate::import::ImportOptions;
use crate::ops::inputs::analyze_path;
use crate::timing::Timing;

/// What a history store took in: `added` of the `given` runs were new.
pub struct StoreUpdate {
    pub dir: PathBuf,
    pub added: usize,
    pub given: usize,
}

/// Where a history's runs come from: the inputs (run folders, saved analyses, or tools'
/// outputs imported with `import`), and the store that keeps them (`--dir`) when given.
pub struct HistoryInputs<'a> {
    pub inputs: &'a [PathBuf],
    pub store_dir: Option<&'a Path>,
    pub import: &'a ImportOptions,
}

/// The history of the inputs, after the runs of the store when given (the new ones are
/// appended to it).
pub fn history_of(from: &HistoryInputs<'_>, resamples: usize, seed: u64, opts: &HistoryOptions) -> Result<(History, Option<StoreUpdate>), CliError> {
    let timing = Timing::new();
    let given = load_points(from.inputs, resamples, seed, from.import)?;
    let store_dir = from.store_dir;
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

/// Each input's summaries, in the order given (a series or a tool's folder gives one per run);
/// run folders without an analysis are analyzed in parallel.
pub fn load_points(inputs: &[PathBuf], resamples: usize, seed: u64, import: &ImportOptions) -> Result<Vec<RunPoint>, CliError> {
    let opts = AnalyzeOptions { resamples: resamples.min(1999), seed, ..Default::default() };
    let points: Vec<Vec<RunPoint>> = inputs.par_iter().map(|p| load_point(p, &opts, import)).collect::<Result<_, _>>()?;
    Ok(points.into_iter().flatten().collect())
}

/// The summaries of one input: its saved analysis (a file, or `analysis.json` in its folder)
/// read back, else each run it holds analyzed.
fn load_point(path: &Path, opts: &AnalyzeOptions, import: &ImportOptions) -> Result<Vec<RunPoint>, CliError> {
    let saved = if path.is_dir() { path.join("analysis.json") } else { path.to_path_buf() };
    if let Some(bytes) = crate::ops::saved::saved_bytes(&saved) {
        let value: Value = serde_json::from_slice(&bytes).map_err(|e| CliError::bad_input(format!("{}: not JSON: {e}", saved.display())))?;
        return Ok(vec![point_of(&value, &saved.display().to_string())?]);
    }
    analyze_path(path, opts, import, "history")?
        .into_iter()
        .map(|run| point_of(&serde_json::to_value(&run.analysis).map_err(|e| CliError::failure(e.to_string()))?, &path.display().to_string()))
        .collect()
}

/// One run's summary from its analysis JSON.
fn point_of(value: &Value, label: &str) -> Result<RunPoint, CliError> {
    run_point(value).map_err(|e| CliError::bad_input(format!("{label}: {e}")).hint("give run folders, or analysis JSON written by `credence analyze --out`"))
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
