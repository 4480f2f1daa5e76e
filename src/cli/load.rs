//! Run folders loaded and analyzed, for the commands that read them (analyze, compare, report,
//! baseline): `run::load`, the request view, then `analyze::analyze_view`.

use std::path::{Path, PathBuf};

use crate::analyze::attribute::Telemetry;
use crate::analyze::compare::ArmRun;
use crate::analyze::rates::ErrorExampleCounter;
use crate::analyze::requests::{RequestView, RequestViewBuilder, VIEW_COLUMNS};
use crate::analyze::{Analysis, AnalyzeOptions, analyze_view};
use crate::cli::io::{Progress, Timing};
use crate::error::CliError;
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
    // The requests are read in batches of the columns the analysis uses, straight into the
    // view: a large run is never held twice (as a table and as the view).
    let (mut builder, mut examples) = (RequestViewBuilder::default(), ErrorExampleCounter::default());
    let crate::run::Run { manifest, gpu, host, server, .. } = crate::run::load_in_batches(dir, &VIEW_COLUMNS, |batch| {
        builder.push(&batch);
        examples.push(&batch);
    })?;
    timing.mark("loaded");
    let view = builder.finish();
    timing.mark("request view built");
    if let Some(p) = progress {
        p.stage("steady state and intervals");
    }
    let telemetry = Telemetry { gpu: gpu.as_ref(), host: host.as_ref(), server: server.as_ref() };
    let mut analysis = analyze_view(&manifest, &view, &telemetry, opts);
    analysis.errors.examples = examples.finish();
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
