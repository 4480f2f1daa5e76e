//! Writing a run directory atomically: everything goes to a temporary sibling folder, which is
//! renamed into place only when complete, so a failure never leaves a half-written run.

use std::path::{Path, PathBuf};

use super::MANIFEST_FILE;
use super::manifest::Manifest;
use super::table::Table;

/// Everything a producer (simulator, importer, collector) hands over to be written.
#[derive(Debug, Clone)]
pub struct RunData {
    pub manifest: Manifest,
    pub requests: Table,
    pub gpu: Option<Table>,
    pub host: Option<Table>,
    pub server: Option<Table>,
    /// Extra files written beside the tables, e.g. the simulator's `truth.json`.
    pub extra_files: Vec<(String, Vec<u8>)>,
}

/// A loaded run, to be written again (a test's edited copy, say).
impl From<crate::Run> for RunData {
    fn from(r: crate::Run) -> RunData {
        RunData { manifest: r.manifest, requests: r.requests, gpu: r.gpu, host: r.host, server: r.server, extra_files: Vec::new() }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{path}: already exists; remove it or choose another --out")]
    Exists { path: String },
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error(transparent)]
    Table(#[from] super::table::TableError),
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> WriteError + '_ {
    move |e| WriteError::Io { path: path.display().to_string(), message: e.to_string() }
}

/// Writes `data` as the run directory `out`, which must not exist yet.
pub fn write_run(out: &Path, data: &RunData) -> Result<(), WriteError> {
    if out.exists() {
        return Err(WriteError::Exists { path: out.display().to_string() });
    }
    let tmp = temp_sibling(out);
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(io_err(&tmp))?;
    }
    std::fs::create_dir_all(&tmp).map_err(io_err(&tmp))?;
    let result = write_contents(&tmp, data).and_then(|()| std::fs::rename(&tmp, out).map_err(io_err(out)));
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

fn write_contents(dir: &Path, data: &RunData) -> Result<(), WriteError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    std::fs::write(&manifest_path, data.manifest.to_json()).map_err(io_err(&manifest_path))?;
    let tables = [Some(&data.requests), data.gpu.as_ref(), data.host.as_ref(), data.server.as_ref()];
    for table in tables.into_iter().flatten() {
        table.write_parquet(&dir.join(table.kind.file_name()))?;
    }
    for (name, bytes) in &data.extra_files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(io_err(&path))?;
    }
    Ok(())
}

fn temp_sibling(out: &Path) -> PathBuf {
    let name = out.file_name().map_or_else(|| "run".into(), |n| n.to_string_lossy().to_string());
    out.with_file_name(format!(".{name}.partial-{}", std::process::id()))
}
