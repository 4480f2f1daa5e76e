//! Analysis of a loaded run: pure functions from typed columns to one serializable `Analysis`.

pub mod stats;
