//! credence: an offline trace analyzer and report generator for LLM inference load tests.
//!
//! The workspace's crates follow the data flow, and each one compiles against the ones
//! upstream only (README, Architecture):
//! - `credence-stats`: statistics over slices, knowing nothing of requests.
//! - `credence-run`: the run directory (Parquet tables described by `schemas/`, and `run.json`):
//!   load, validate, write.
//! - producers of run directories: `credence-simulate` (known ground truth), `credence-import`
//!   (other tools' outputs) and `credence-loadgen` (the load generator, the mock server and
//!   the telemetry collectors).
//! - `credence-analyze`: pure functions from a loaded run to one serializable `Analysis`.
//! - `credence-report`: renderers of the `Analysis` (PDF, Markdown, JSON); no statistics.
//!
//! This crate is the top: `cli` (one file per subcommand: arguments → options → one `ops`
//! call → print) over `ops` (the steps the commands share: the analysis pipeline, the history
//! store, sweeps and series). It re-exports the crates under their old module names, so
//! `credence::run::load` still reads a run.

pub mod cli;
pub mod error;
pub mod ops;

pub use credence_analyze as analyze;
pub use credence_import as import;
pub use credence_loadgen as bench;
pub use credence_loadgen::collect;
pub use credence_messages as messages;
pub use credence_report as report;
pub use credence_run as run;
pub use credence_run::{text, timing};
pub use credence_simulate as simulate;
pub use credence_stats as stats;

/// Fuzz targets over every parser, for `fuzz/` and the corpus replay test (the `fuzzing`
/// feature, on by default).
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
