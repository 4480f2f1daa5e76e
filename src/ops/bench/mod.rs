//! `credence bench`'s steps above one run: a sweep of offered rates, each step analyzed as it
//! ends, a series of repetitions, and a run that stops when its numbers are good enough
//! (`until`; the load generator itself is `credence-loadgen`).

pub mod capacity;
pub mod overload;
pub mod series;
pub mod sweep;
pub mod until;
