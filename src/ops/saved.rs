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

/// Whether `path` is meant as an analysis that `credence analyze --out` wrote: a JSON object
/// with its `run` (no benchmark tool's file has one). It is read back as an analysis, and a
/// damaged one is refused as such, never imported as a tool's output.
pub fn is_saved_analysis(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else { return false };
    serde_json::from_slice::<serde_json::Value>(&bytes).is_ok_and(|v| v.get("run").is_some_and(serde_json::Value::is_object))
}

/// Reads the analysis saved at `path`.
pub fn read(path: &Path) -> Result<Analysis, SavedError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| SavedError::Io { file: file.clone(), source })?;
    serde_json::from_slice(&bytes).map_err(|source| SavedError::Format { file, source })
}
