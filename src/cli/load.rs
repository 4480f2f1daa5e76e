//! Run folders loaded and analyzed, for the commands that read them (analyze, compare, report,
//! baseline): `run::load`, the request view, then `analyze::analyze_view`.

use std::path::{Path, PathBuf};

use crate::analyze::attribute::Telemetry;
use crate::analyze::compare::{ArmRun, Comparison};
use crate::analyze::rates::error_examples;
use crate::analyze::requests::RequestView;
use crate::analyze::{Analysis, AnalyzeOptions, analyze_view};
use crate::cli::io::{Progress, Timing};
use crate::error::CliError;
use crate::report::Report;
use crate::run::Manifest;

/// One run folder, loaded and analyzed; the request view is kept for comparisons.
pub struct AnalyzedRun {
    /// The folder's name, which names the run in comparisons.
    pub name: String,
    pub manifest: Manifest,
    pub view: RequestView,
    pub analysis: Analysis,
}

/// Loads `dir` and analyzes it with `opts`, marking the stages on `progress` when given.
pub fn analyze_dir(dir: &Path, opts: &AnalyzeOptions, progress: Option<&Progress>) -> Result<AnalyzedRun, CliError> {
    let timing = Timing::new();
    if let Some(p) = progress {
        p.stage("loading the run");
    }
    let crate::run::Run { manifest, requests, gpu, host, server, .. } = crate::run::load(dir)?;
    timing.mark("loaded");
    let view = RequestView::from_table(&requests);
    timing.mark("request view built");
    let examples = error_examples(&requests);
    // The view holds what the analysis needs; the table's memory goes back before it runs.
    drop(requests);
    if let Some(p) = progress {
        p.stage("steady state and intervals");
    }
    let telemetry = Telemetry { gpu: gpu.as_ref(), host: host.as_ref(), server: server.as_ref() };
    let mut analysis = analyze_view(&manifest, &view, &telemetry, opts);
    analysis.errors.examples = examples;
    let name = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into());
    Ok(AnalyzedRun { name, manifest, view, analysis })
}

/// Loads and analyzes the runs of one arm of a comparison (at most 999 resamples per run:
/// the comparison does its own resampling).
pub fn analyze_arm(dirs: &[PathBuf], resamples: usize, seed: u64) -> Result<Vec<AnalyzedRun>, CliError> {
    let opts = AnalyzeOptions { resamples: resamples.min(999), seed, ..Default::default() };
    dirs.iter().map(|d| analyze_dir(d, &opts, None)).collect()
}

/// The runs of an arm as the comparison reads them.
pub fn arm_runs(runs: &[AnalyzedRun]) -> Vec<ArmRun<'_>> {
    runs.iter().map(|r| ArmRun { name: r.name.clone(), manifest: &r.manifest, view: &r.view, analysis: &r.analysis }).collect()
}

/// The report on a comparison of two analyzed arms (`compare` and `baseline check` print its
/// top part; `report --base --cand` renders all of it).
pub fn comparison_report(base: Vec<AnalyzedRun>, cand: Vec<AnalyzedRun>, cmp: Comparison, title: Option<String>, date: Option<String>) -> Report {
    let analyses = |runs: Vec<AnalyzedRun>| runs.into_iter().map(|r| r.analysis).collect();
    Report::for_comparison(analyses(base), analyses(cand), cmp, title, date)
}
