//! What the analysis commands (`analyze`, `report`, `compare`, `history`, `plan`, `baseline`)
//! take as a run: a run directory, a series folder (`bench --repeat`), or a benchmark tool's
//! result file or output folder (a vLLM `--save-result` JSON, an AIPerf artifacts folder, …),
//! detected as `import auto` detects it and imported in memory, nothing written. A path that
//! is none of these gets one error naming what it looks like and the command that takes it.

use std::path::{Path, PathBuf};

use crate::analyze::AnalyzeOptions;
use crate::analyze::attribute::Telemetry;
use crate::analyze::requests::RequestView;
use crate::error::CliError;
use crate::import::folder::gather;
use crate::import::{Format, ImportOptions, import_run};
use crate::ops::pipeline::{AnalyzedRun, analyze_dir, series_runs};
use crate::run::write::RunData;

/// What a path holds, as the analysis commands read it.
pub enum Input {
    /// A run directory (its `run.json`).
    Run(PathBuf),
    /// The runs of a series folder, in order.
    Series(Vec<PathBuf>),
    /// A benchmark tool's file or folder.
    Peer(PathBuf),
}

/// What `path` holds: a run directory, a series, or else a tool's output (checked when read).
pub fn classify(path: &Path) -> Result<Input, CliError> {
    if path.join(crate::run::MANIFEST_FILE).is_file() {
        return Ok(Input::Run(path.to_path_buf()));
    }
    if let Some(runs) = series_runs(path)? {
        return Ok(Input::Series(runs));
    }
    if !path.exists() {
        return Err(CliError::bad_input(format!("{}: not a run directory (no such file or folder)", path.display())));
    }
    Ok(Input::Peer(path.to_path_buf()))
}

/// Every run `path` holds, analyzed with `opts`; a tool's output imported with `import` (the
/// `--tz` and `--start` its format may need). `command` names the command in errors.
pub fn analyze_path(path: &Path, opts: &AnalyzeOptions, import: &ImportOptions, command: &str) -> Result<Vec<AnalyzedRun>, CliError> {
    match classify(path)? {
        Input::Run(dir) => Ok(vec![analyze_dir(&dir, opts)?]),
        Input::Series(dirs) => dirs.iter().map(|d| analyze_dir(d, opts)).collect(),
        Input::Peer(p) => analyze_peer(&p, opts, import, command),
    }
}

/// A tool's file or folder, imported in memory and analyzed: one run per request file found
/// (a folder of three vLLM result files is three replicated runs).
pub fn analyze_peer(path: &Path, opts: &AnalyzeOptions, import: &ImportOptions, command: &str) -> Result<Vec<AnalyzedRun>, CliError> {
    let imported = import_runs(path, import, command)?;
    Ok(imported
        .into_iter()
        .map(|(name, data)| {
            let view = RequestView::from_table(&data.requests);
            let telemetry = Telemetry { gpu: data.gpu.as_ref(), host: data.host.as_ref(), server: data.server.as_ref() };
            let mut analysis = crate::analyze::analyze_view(&data.manifest, &view, &telemetry, opts);
            analysis.errors.examples = crate::analyze::rates::error_examples(&data.requests);
            AnalyzedRun { name, manifest: data.manifest, view, analysis }
        })
        .collect())
}

/// The runs of a tool's file or folder, imported in memory, each with its name (the file's
/// stem for one run, its place in the folder for several).
pub fn import_runs(path: &Path, import: &ImportOptions, command: &str) -> Result<Vec<(String, RunData)>, CliError> {
    let gathered = gather(&[path.to_path_buf()], Format::Auto).map_err(|e| not_an_input(path, command, &looks_like(&e)))?;
    print_skipped(&gathered.skipped, import.lang);
    let single = gathered.runs.len() == 1;
    gathered
        .runs
        .into_iter()
        .map(|files| {
            let name = if single { file_stem(path) } else { files.name.clone() };
            let result = import_run(files, import, false).map_err(|e| peer_error(path, command, e))?;
            Ok((name, result.data))
        })
        .collect()
}

/// The files an import set aside, one line each on stderr.
pub fn print_skipped(skipped: &[crate::import::folder::Skipped], lang: crate::report::i18n::Lang) {
    for s in skipped {
        let line = crate::messages::Message::new("cli-skipped").text("path", s.path.display().to_string()).msg("why", s.why.clone());
        eprintln!("{}", crate::text::sanitize(&line.render(lang)));
    }
}

/// A path's name without its extension (`vllm-base.json` → `vllm-base`), which names the run.
fn file_stem(path: &Path) -> String {
    let stem = if path.is_dir() { path.file_name() } else { path.file_stem() };
    stem.map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// A tool's file that could not be imported: the importer's own error, and what takes the
/// file when it holds no requests (a summary, a GPU capture: `audit`).
fn peer_error(path: &Path, command: &str, e: crate::import::ImportError) -> CliError {
    let hint = e.hint.clone();
    let err = CliError::bad_input(format!("credence {command} {}: read as a benchmark tool's output: {e}", path.display()));
    match hint {
        Some(h) => err.hint(h),
        None => err.hint("`credence audit PATH -o report.pdf` checks a summary or a GPU capture on its own"),
    }
}

/// What detection made of a path it could not read: `unknown` when no format matched.
fn looks_like(e: &crate::import::ImportError) -> String {
    if e.message.contains("could not be recognised") { "unknown".into() } else { crate::text::sanitize(&e.message) }
}

/// A path that is none of the things the command takes: what it looks like, and what takes it.
pub fn not_an_input(path: &Path, command: &str, looks_like: &str) -> CliError {
    let saved = if command == "report" || command == "history" { ", an analysis saved by `credence analyze --out`" } else { "" };
    CliError::bad_input(format!(
        "credence {command} {}: not a run directory, a series folder{saved} or a benchmark tool's output (looks like: {looks_like})",
        path.display()
    ))
    .hint(format!(
        "{command} takes a run directory (`credence bench` and `credence import` write one), a `bench --repeat` series folder{saved}, or a result file or folder of {}",
        PEERS
    ))
}

/// The tools whose outputs the analysis commands read directly.
const PEERS: &str = "vLLM, SGLang, AIPerf/GenAI-Perf, llmperf, guidellm, inference-perf, MLPerf LoadGen or perf_analyzer";
