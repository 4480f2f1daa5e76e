//! `credence schema TABLE`: prints a run-directory table's layout as JSON.

use crate::cli::io::{json_text, print_stdout};
use crate::error::{CliError, ExitCode};
use crate::run::schema::{TableKind, describe};

#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// Table name.
    table: String,
}

pub fn run(a: SchemaArgs) -> Result<ExitCode, CliError> {
    let kind = TableKind::ALL
        .into_iter()
        .find(|k| k.name() == a.table)
        .ok_or_else(|| CliError::bad_input(format!("{:?} is not a table", a.table)).hint("choose one of: requests, gpu, host, server"))?;
    print_stdout(&json_text(&describe(kind)))?;
    Ok(ExitCode::Success)
}
