//! `credence import [FORMAT] PATH... --out RUN`: another tool's output (files, or its output
//! folder) as a run directory; a folder of several runs as a series folder.

use std::path::{Path, PathBuf};

use crate::cli::args::{format_and_paths, import_options};
use crate::cli::io::{print_skipped, write_json};
use crate::error::{CliError, ExitCode};
use crate::import::folder::gather;
use crate::import::{ImportResult, import_run};

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// [FORMAT] PATH...
    #[arg(required = true, num_args = 1..)]
    args: Vec<String>,
    /// The run directory to create (must not exist).
    #[arg(long)]
    out: PathBuf,
    /// UTC offset of the machine that wrote zone-less local times, e.g. +02:00.
    #[arg(long)]
    tz: Option<String>,
    /// When the first request was sent (RFC 3339, e.g. 2026-11-30T22:27:52.5Z): anchors files
    /// whose times carry no date when nothing else does (inference-perf without its
    /// inference-perf.partial.stage_0.yaml). Marked as assumed in the run.
    #[arg(long)]
    start: Option<String>,
    /// A label for the run, k=v (repeatable).
    #[arg(long)]
    label: Vec<String>,
}

pub fn run(a: ImportArgs) -> Result<ExitCode, CliError> {
    let (format, paths) = format_and_paths(&a.args)?;
    let opts = import_options(a.tz.as_deref(), a.start.as_deref(), &a.label)?;
    if a.out.exists() {
        return Err(CliError::bad_input(format!("{}: already exists; remove it or choose another --out", a.out.display())));
    }
    let gathered = gather(&paths, format)?;
    print_skipped(&gathered.skipped, crate::report::i18n::Lang::En);
    let mut imported = Vec::new();
    for run in gathered.runs {
        let name = run.name.clone();
        imported.push((name, import_run(run, &opts, false)?));
    }
    if let [(_, result)] = imported.as_slice() {
        crate::run::write::write_run(&a.out, &result.data)?;
        eprintln!("wrote {} ({} requests) from {}", a.out.display(), result.data.requests.num_rows(), detected(result));
        warn_invalid_rows("", result);
    } else {
        write_series(&a.out, &imported)?;
    }
    Ok(ExitCode::Success)
}

/// "file (format), …": the files read.
fn detected(result: &ImportResult) -> String {
    result.formats.iter().map(|(p, f)| format!("{} ({})", p.display(), f.name())).collect::<Vec<_>>().join(", ")
}

fn warn_invalid_rows(run: &str, result: &ImportResult) {
    if let Some((n, first)) = &result.invalid_rows {
        eprintln!(
            "warning{run}: {n} source records break the requests contract; they are kept as failed requests of kind invalid_source_row (first: {})",
            crate::text::sanitize(first)
        );
    }
}

/// Several runs (a folder of vLLM results, or of several tools' output folders): each into
/// `OUT/NAME`, and `OUT/series.json` linking them, as `bench --repeat` writes a series. Written
/// in a temporary sibling and renamed: no half-written series.
fn write_series(out: &Path, runs: &[(String, ImportResult)]) -> Result<(), CliError> {
    let tmp = out.with_extension(format!("partial-{}", std::process::id()));
    let written = (|| -> Result<(), CliError> {
        std::fs::create_dir_all(&tmp).map_err(|e| CliError::failure(format!("{}: cannot create: {e}", tmp.display())))?;
        for (name, result) in runs {
            crate::run::write::write_run(&tmp.join(name), &result.data)?;
        }
        let entries: Vec<serde_json::Value> = runs
            .iter()
            .map(|(name, r)| {
                let files: Vec<String> = r.formats.iter().map(|(p, _)| p.display().to_string()).collect();
                serde_json::json!({"run": name, "requests": r.data.requests.num_rows(), "files": files})
            })
            .collect();
        let series = serde_json::json!({"kind": "credence series", "credence_version": env!("CARGO_PKG_VERSION"), "imported": true, "runs": entries});
        write_json(&tmp.join("series.json"), &series)?;
        std::fs::rename(&tmp, out).map_err(|e| CliError::failure(format!("{}: cannot write: {e}", out.display())))
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    written?;
    for (name, result) in runs {
        eprintln!("wrote {} ({} requests) from {}", out.join(name).display(), result.data.requests.num_rows(), detected(result));
        warn_invalid_rows(&format!(" ({name})"), result);
    }
    eprintln!("wrote {} ({} runs, series.json links them)", out.display(), runs.len());
    Ok(())
}
