//! Reading back a saved analysis (`credence analyze --out`): serde's derive takes a literal
//! `&'static str` field as borrowed from the input, which a file read into a buffer cannot
//! lend, so those fields are read owned and leaked (`ops::saved` reads the file).

use serde::{Deserialize, Deserializer};

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
