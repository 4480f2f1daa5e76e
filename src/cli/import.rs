//! `credence import [FORMAT] PATH... --out RUN`: another tool's output as a run directory.

use std::path::PathBuf;

use crate::cli::args::{format_and_paths, import_options};
use crate::error::{CliError, ExitCode};
use crate::import::import;

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
    let result = import(&paths, format, &opts, false)?;
    crate::run::write::write_run(&a.out, &result.data)?;
    let detected: Vec<String> = result.formats.iter().map(|(p, f)| format!("{} ({})", p.display(), f.name())).collect();
    eprintln!("wrote {} ({} requests) from {}", a.out.display(), result.data.requests.num_rows(), detected.join(", "));
    if let Some((n, first)) = &result.invalid_rows {
        eprintln!(
            "warning: {n} source records break the requests contract; they are kept as failed requests of kind invalid_source_row (first: {})",
            crate::text::sanitize(first)
        );
    }
    Ok(ExitCode::Success)
}
