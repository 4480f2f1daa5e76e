//! Reading back an analysis that `credence analyze --out` saved, so that `report` renders it
//! without analyzing the run again (10 million requests: seconds of analysis, once).
//!
//! The JSON is the `Analysis` itself; serde_json's float round trip is exact, so a report
//! rendered from the saved file is byte-identical to one rendered from the run.

use std::path::Path;

use crate::analyze::Analysis;

/// Why a saved analysis cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SavedError {
    #[error("{file}: cannot read: {source}")]
    Io { file: String, source: std::io::Error },
    #[error("{file}: not an analysis saved by `credence analyze --out` ({source})")]
    Format { file: String, source: serde_json::Error },
}

/// The keys a saved analysis is recognised by: its `run` object (skipped over, not built).
#[derive(serde::Deserialize)]
struct Probe {
    #[serde(default)]
    run: Option<std::collections::BTreeMap<String, serde::de::IgnoredAny>>,
}

/// The bytes of `path` when it is meant as an analysis that `credence analyze --out` wrote: a
/// JSON object with its `run` object (no benchmark tool's file has one). The file is read
/// once; the caller parses the bytes, and a damaged analysis is refused as such, never imported
/// as a tool's output. None for anything else.
pub fn saved_bytes(path: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice::<Probe>(&bytes).ok()?.run.map(|_| bytes)
}

/// The analysis saved at `path`, from its `bytes`.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<Analysis, SavedError> {
    serde_json::from_slice(bytes).map_err(|source| SavedError::Format { file: path.display().to_string(), source })
}

/// Reads the analysis saved at `path`.
pub fn read(path: &Path) -> Result<Analysis, SavedError> {
    let bytes = std::fs::read(path).map_err(|source| SavedError::Io { file: path.display().to_string(), source })?;
    parse(path, &bytes)
}
