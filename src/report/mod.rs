//! Renderers: they read only the `Analysis` value and return bytes or text, so every number
//! they show traces to a JSON field.

pub mod compare_summary;
pub mod format;
pub mod summary;
