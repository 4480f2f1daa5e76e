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

/// Whether `path` is a file that `credence analyze --out` wrote (JSON with the analysis's
/// `steady_state` and `metrics`): read back as it is, not imported as a tool's output.
pub fn is_saved_analysis(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else { return false };
    // An analysis opens with its run; a peek at the keys suffices, the read checks the rest.
    serde_json::from_slice::<serde_json::Value>(&bytes).is_ok_and(|v| v.get("steady_state").is_some() && v.get("metrics").is_some())
}

/// Reads the analysis saved at `path`.
pub fn read(path: &Path) -> Result<Analysis, SavedError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| SavedError::Io { file: file.clone(), source })?;
    serde_json::from_slice(&bytes).map_err(|source| SavedError::Format { file, source })
}
