//! The steps the commands share, as library functions: `cli` parses what the user typed into
//! options, calls one of these and prints what it returns.

pub mod bench;
pub mod capacity_sim;
pub mod compare;
pub mod files;
pub mod history;
pub mod inputs;
pub mod pipeline;
pub mod saved;
