//! Reading back an analysis that `credence analyze --out` saved, so that `report` renders it
//! without analyzing the run again (10 million requests: seconds of analysis, once).
//!
//! The JSON is the `Analysis` itself; serde_json's float round trip is exact, so a report
//! rendered from the saved file is byte-identical to one rendered from the run.

use std::path::Path;

use serde::{Deserialize, Deserializer};

use super::Analysis;

/// Why a saved analysis cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SavedError {
    #[error("{file}: cannot read: {source}")]
    Io { file: String, source: std::io::Error },
    #[error("{file}: not an analysis saved by `credence analyze --out` ({source})")]
    Format { file: String, source: serde_json::Error },
}

/// Reads the analysis saved at `path`.
pub fn read(path: &Path) -> Result<Analysis, SavedError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| SavedError::Io { file: file.clone(), source })?;
    serde_json::from_slice(&bytes).map_err(|source| SavedError::Format { file, source })
}

/// A `&'static str` field of the analysis that serde reads owned (through `leak_str`): spelled
/// as an alias because serde's derive takes a literal `&'static str` field as borrowed from
/// the input, which a file read into a buffer cannot lend.
pub type StaticText = &'static str;

/// Deserializes a text field that the analysis holds as `&'static str` (method names, units,
/// kinds: literals when computed). A saved analysis is read once per process and rendered, so
/// its few such strings are leaked rather than every consumer taking an owned type.
pub fn leak_str<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    Ok(Box::leak(String::deserialize(d)?.into_boxed_str()))
}
