//! What pilot runs say about each metric: within-run sampling variance and, with two or more
//! runs, between-run variance, from the same per-run statistics `compare` computes.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::compare::{ArmRun, CompareOptions, VarianceComponents, run_statistics};
use crate::steady::Classification;

/// One metric's variance in the pilot, relative to its mean (0.0004 is a 2 % CV).
#[derive(Debug, Clone, PartialEq)]
pub struct MetricPilot {
    /// Sampling variance of one pilot run's statistic (its block bootstrap), mean over runs.
    pub within: f64,
    /// Kalibera–Jones between-run variance, clamped at 0; None with one pilot run.
    pub between: Option<f64>,
    /// Degrees of freedom of `within`: the sum over runs of each run's (a mean of independent
    /// variance estimates); infinite when no run's was estimated.
    pub within_df: f64,
}

/// The pilot runs as the planner reads them.
#[derive(Debug, Clone)]
pub struct Pilot {
    pub runs: usize,
    /// Requests in the steady windows, all runs together.
    pub steady_requests: u64,
    /// Mean steady-window length of one run, seconds.
    pub steady_s: f64,
    /// Mean time before the steady window (warm-up), seconds.
    pub warmup_s: f64,
    pub metrics: BTreeMap<String, MetricPilot>,
}

/// The pilot, as the plan's JSON records it.
#[derive(Debug, Clone, Serialize)]
pub struct PilotSummary {
    pub runs: usize,
    pub steady_requests: u64,
    pub steady_s_per_run: f64,
    pub warmup_s_per_run: f64,
    pub requests_per_s: f64,
}

impl Pilot {
    pub fn steady_requests_per_run(&self) -> f64 {
        self.steady_requests as f64 / self.runs.max(1) as f64
    }

    pub fn summary(&self) -> PilotSummary {
        PilotSummary {
            runs: self.runs,
            steady_requests: self.steady_requests,
            steady_s_per_run: self.steady_s,
            warmup_s_per_run: self.warmup_s,
            requests_per_s: if self.steady_s > 0.0 { self.steady_requests_per_run() / self.steady_s } else { 0.0 },
        }
    }
}

/// Why a run cannot serve as a pilot: no successful requests, or no steady state.
fn unusable(run: &ArmRun<'_>) -> Option<String> {
    let a = run.analysis;
    if a.requests.ok == 0 {
        return Some(format!("{}: no successful requests ({} sent): a pilot needs successful requests to measure their noise", run.name, a.requests.total));
    }
    (a.steady_state.classification == Classification::NoSteadyState).then(|| {
        format!(
            "{}: no steady state: the planner needs a steady window to measure run noise; run the pilot longer or fix what keeps it from settling",
            run.name
        )
    })
}

/// The pilot from analyzed runs of one configuration, for the `metrics` named (compare's
/// names: ttft_p50, ..., output_tokens_per_s, requests_per_s).
pub fn pilot_from_runs(runs: &[ArmRun<'_>], metrics: &[String], o: &CompareOptions) -> Result<Pilot, String> {
    if let Some(why) = runs.iter().find_map(unusable) {
        return Err(why);
    }
    let mut stats = run_statistics(runs, o);
    let mut out = BTreeMap::new();
    for name in metrics {
        let per_run = stats.remove(name).ok_or_else(|| format!("--metric {name:?} is not a compared metric (known: {})", known_metrics().join(", ")))?;
        let mut present = Vec::new();
        for (run, s) in runs.iter().zip(per_run) {
            present.push(s.ok_or_else(|| {
                format!(
                    "{}: too few observations of {name} in the steady window to estimate its noise (at least 20 requests, or 4 windows for throughput)",
                    run.name
                )
            })?);
        }
        let vc = VarianceComponents::of(&present);
        let within_df = present.iter().map(|s| s.variance_df).sum();
        out.insert(name.clone(), MetricPilot { within: vc.within, between: vc.between, within_df });
    }
    let n = runs.len().max(1) as f64;
    Ok(Pilot {
        runs: runs.len(),
        steady_requests: runs.iter().map(|r| r.analysis.steady_state.requests_in_window as u64).sum(),
        steady_s: runs.iter().map(|r| r.analysis.steady_state.end_s - r.analysis.steady_state.start_s).sum::<f64>() / n,
        warmup_s: runs.iter().map(|r| r.analysis.steady_state.start_s).sum::<f64>() / n,
        metrics: out,
    })
}

/// The metric names the planner can plan for.
pub fn known_metrics() -> Vec<String> {
    crate::compare::metric_names()
}
