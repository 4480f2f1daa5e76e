//! `credence validate RUN`: checks a run directory and prints what it found.

use std::path::PathBuf;

use crate::cli::io::{json_text, print_stdout};
use crate::error::{CliError, ExitCode};
use crate::run::validate::{ValidationReport, validate};

#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The run directory.
    run: PathBuf,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: ValidateArgs) -> Result<ExitCode, CliError> {
    let report = validate(&a.run);
    print_stdout(&if a.json { json_text(&report) } else { validation_text(&report) })?;
    Ok(if report.valid { ExitCode::Success } else { ExitCode::BadInput })
}

fn validation_text(r: &ValidationReport) -> String {
    let mut s = String::new();
    for t in &r.tables {
        match (t.present, t.rows) {
            (true, Some(n)) => s.push_str(&format!("{:<9} {n} rows\n", t.table)),
            (true, None) => s.push_str(&format!("{:<9} unreadable\n", t.table)),
            (false, _) => s.push_str(&format!("{:<9} absent\n", t.table)),
        }
    }
    for p in &r.problems {
        let tag = if p.is_error() { "error" } else { "warning" };
        s.push_str(&format!("{tag}: {p}\n"));
    }
    let verdict = if r.valid { "valid" } else { "INVALID" };
    s.push_str(&format!("{}: {verdict} ({} errors, {} warnings)\n", r.run, r.errors, r.warnings));
    s
}
