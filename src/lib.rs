//! credence: an offline trace analyzer and report generator for LLM inference load tests.
//!
//! Data flows one way:
//! producers (`simulate`, later `import` and `collect`) → a run directory (`run`, described by
//! `schemas/`) → `analyze` → one serializable `Analysis` → renderers.
//! I/O happens at the edges; analysis functions are pure.

pub mod cli;
pub mod error;
pub mod json_schema;
pub mod options;
pub mod text;

pub mod simulate;

pub mod run;

pub mod stats;

pub mod analyze;

pub mod report;

pub mod baseline;
pub mod bench;
pub mod bench_command;
pub mod collect;
pub mod collect_command;
pub mod commands;
pub mod import;
pub mod import_command;
pub mod report_command;
