//! `credence bench`'s steps above one run: a sweep of offered rates, each step analyzed as it
//! ends, and a series of repetitions (the load generator itself is `credence-loadgen`).

pub mod series;
pub mod sweep;
