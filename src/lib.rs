//! credence: an offline trace analyzer and report generator for LLM inference load tests.
//!
//! Data flows one way, and the modules are listed in that order:
//! - `cli`: one file per subcommand; parses what the user typed into options and calls the
//!   library. Only `cli` writes files and prints.
//! - producers of run directories: `simulate` (known ground truth), `import` (other tools'
//!   outputs), `collect` (GPU, host and server telemetry) and `bench` (the load generator).
//! - `run`: the run directory (Parquet tables described by `schemas/`, and `run.json`):
//!   load, validate, write.
//! - `stats`: statistics over slices, knowing nothing of requests.
//! - `analyze`: pure functions from a loaded run to one serializable `Analysis` (steady state,
//!   metrics with intervals, comparison, change points across a history of runs, attribution,
//!   credibility, audit).
//! - `timing`: stage timings on stderr under `CREDENCE_TIMING` (a diagnostic, the one
//!   printer outside `cli`).
//! - `report`: renderers of the `Analysis` (PDF, Markdown, JSON); they compute no statistics.

pub mod cli;
pub mod error;
pub mod text;
pub mod timing;

pub mod bench;
pub mod collect;
pub mod import;
pub mod simulate;

pub mod run;

pub mod stats;

pub mod analyze;

pub mod report;

/// Fuzz targets over every parser, for `fuzz/` and the corpus replay test (the `fuzzing`
/// feature, on by default).
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
