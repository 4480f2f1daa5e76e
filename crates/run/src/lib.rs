//! Run directories: their layout (`schema`), manifest, loading, writing and validation.
//!
//! A run directory holds `run.json` and `requests.parquet`, plus optional `gpu.parquet`,
//! `host.parquet` and `server.parquet`. Any table may instead be a folder of the same stem
//! (`gpu/`) holding `*.parquet` segments, read in name order as one table.

pub mod claims;
pub mod distribution;
pub mod env_notes;
pub mod footer;
pub mod json_schema;
pub mod logical;
pub mod manifest;
pub mod problem;
pub mod read;
pub mod rows;
pub mod schema;
pub mod table;
pub mod text;
pub mod timing;
pub mod validate;
pub mod write;

use std::path::{Path, PathBuf};

pub use manifest::Manifest;
pub use problem::{Problem, Severity};
pub use schema::TableKind;
pub use table::{Column, Table, TableError, TimestampLists};

/// Name of the manifest file.
pub const MANIFEST_FILE: &str = "run.json";

/// A loaded run directory.
#[derive(Debug, Clone)]
pub struct Run {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub requests: Table,
    pub gpu: Option<Table>,
    pub host: Option<Table>,
    pub server: Option<Table>,
    /// Schema warnings met while loading (extra columns, missing units).
    pub warnings: Vec<Problem>,
}

/// Why a run directory could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{dir}: not a run directory ({reason})")]
    NotARun { dir: String, reason: String },
    #[error("run.json: {0}")]
    Manifest(String),
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Where a table lives in `dir`: the `.parquet` file, else a segment folder, else nothing.
pub fn table_path(dir: &Path, kind: TableKind) -> Option<PathBuf> {
    let file = dir.join(kind.file_name());
    if file.is_file() {
        return Some(file);
    }
    let folder = dir.join(kind.name());
    folder.is_dir().then_some(folder)
}

/// Reads and parses `run.json`.
pub fn read_manifest(dir: &Path) -> Result<Manifest, LoadError> {
    let path = dir.join(MANIFEST_FILE);
    if !dir.is_dir() {
        return Err(LoadError::NotARun { dir: dir.display().to_string(), reason: "no such directory".into() });
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| LoadError::NotARun { dir: dir.display().to_string(), reason: format!("cannot read {MANIFEST_FILE}: {e}") })?;
    let manifest = Manifest::from_json(&text).map_err(|e| LoadError::Manifest(format!("line {}, column {}: {e}", e.line(), e.column())))?;
    if manifest.format_version != schema::FORMAT_VERSION {
        return Err(LoadError::Manifest(format!("format_version {} is not supported (expected {})", manifest.format_version, schema::FORMAT_VERSION)));
    }
    Ok(manifest)
}

/// Loads a run directory. Schema errors fail the load; use `validate` for a full report.
pub fn load(dir: &Path) -> Result<Run, LoadError> {
    let manifest = read_manifest(dir)?;
    let (requests, warnings) = Table::read(&requests_path(dir)?, TableKind::Requests)?;
    Ok(Run { requests, ..with_telemetry(dir, manifest, warnings, None)? })
}

/// The columns a reader needs from each table; the others are not decoded (`Table::column`
/// gives None for them, as for a column the schema lacks).
#[derive(Debug, Clone, Copy)]
pub struct Projection<'a> {
    pub requests: &'a [&'a str],
    pub gpu: &'a [&'a str],
    pub host: &'a [&'a str],
    pub server: &'a [&'a str],
}

/// Loads a run directory but hands `requests.parquet` to `each` in batches (`read::read_batches`);
/// the returned `Run`'s `requests` is empty. Only the columns in `only` are decoded. For runs
/// too large to hold both as a table and as the analysis's columns.
pub fn load_in_batches(dir: &Path, only: &Projection<'_>, each: impl FnMut(Table)) -> Result<Run, LoadError> {
    let manifest = read_manifest(dir)?;
    let warnings = read::read_batches(&requests_path(dir)?, TableKind::Requests, Some(only.requests), each)?;
    with_telemetry(dir, manifest, warnings, Some(only))
}

fn requests_path(dir: &Path) -> Result<PathBuf, LoadError> {
    table_path(dir, TableKind::Requests)
        .ok_or_else(|| LoadError::NotARun { dir: dir.display().to_string(), reason: format!("{} is missing", TableKind::Requests.file_name()) })
}

/// A run with its telemetry tables read (only the projection's columns, with one) and no
/// requests yet.
fn with_telemetry(dir: &Path, manifest: Manifest, mut warnings: Vec<Problem>, only: Option<&Projection<'_>>) -> Result<Run, LoadError> {
    let mut read = |kind: TableKind| -> Result<Option<Table>, LoadError> {
        let Some(path) = table_path(dir, kind) else { return Ok(None) };
        let columns = only.map(|p| match kind {
            TableKind::Gpu => p.gpu,
            TableKind::Host => p.host,
            TableKind::Server => p.server,
            TableKind::Requests => p.requests,
        });
        let (table, w) = Table::read_columns(&path, kind, columns)?;
        warnings.extend(w);
        Ok(Some(table))
    };
    let (gpu, host, server) = (read(TableKind::Gpu)?, read(TableKind::Host)?, read(TableKind::Server)?);
    Ok(Run { dir: dir.to_path_buf(), manifest, requests: Table::empty(TableKind::Requests), gpu, host, server, warnings })
}
