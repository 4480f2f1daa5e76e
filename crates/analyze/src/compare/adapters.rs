//! `compare` split by LoRA adapter: each adapter both arms served gets its P50 TTFT and P50
//! TPOT compared, with an interval and a verdict against the tolerance, as the whole arms are.
//!
//! An adapter's median in each run is known by its estimate and interval (`analyze`'s split,
//! an order-statistic interval), so the run enters the comparison as a history's run does:
//! replicates drawn from its interval, then compare's pooled t over runs. One adapter can
//! regress while the others hide it in the arms' medians.

use serde::Serialize;

use super::verdict::{Better, Verdict};
use super::{ArmRun, CompareOptions, interval_verdict, tolerance_for};
use crate::Estimate;
use crate::history::metric::RunValue;
use crate::history::size::interval_statistic;
use credence_stats::resample::stat_id;

/// How each adapter's change and its interval are computed.
pub const ADAPTER_METHOD: &str = "t_over_runs_pooled_between_run_variance_within_from_each_runs_interval";

/// One adapter in both arms.
#[derive(Debug, Clone, Serialize)]
pub struct AdapterComparison {
    pub adapter: String,
    /// Successful requests of this adapter in the arms' steady windows.
    pub base_requests: u64,
    pub cand_requests: u64,
    /// None where a run's median has no interval (too few requests of the adapter).
    pub ttft_p50: Option<AdapterChange>,
    pub tpot_p50: Option<AdapterChange>,
}

/// One metric of one adapter: the arms' means, the relative change with its 95 % interval,
/// and the verdict against the metric's tolerance.
#[derive(Debug, Clone, Serialize)]
pub struct AdapterChange {
    pub base: f64,
    pub cand: f64,
    pub change: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub tolerance: f64,
    pub verdict: Verdict,
    pub method: &'static str,
    pub seed: u64,
}

/// Every adapter named in both arms, in the base arm's order; empty without adapters.
pub fn by_adapter(base: &[ArmRun<'_>], cand: &[ArmRun<'_>], o: &CompareOptions) -> Vec<AdapterComparison> {
    let mut names: Vec<&str> = Vec::new();
    for a in base.iter().flat_map(|r| &r.analysis.adapters) {
        if !names.contains(&a.adapter.as_str()) {
            names.push(&a.adapter);
        }
    }
    names
        .into_iter()
        .filter(|n| cand.iter().any(|r| r.analysis.adapters.iter().any(|a| a.adapter == *n)))
        .map(|n| AdapterComparison {
            adapter: n.to_string(),
            base_requests: requests(base, n),
            cand_requests: requests(cand, n),
            ttft_p50: change(base, cand, n, "ttft_p50", o),
            tpot_p50: change(base, cand, n, "tpot_p50", o),
        })
        .collect()
}

fn requests(arm: &[ArmRun<'_>], adapter: &str) -> u64 {
    arm.iter().flat_map(|r| r.analysis.adapters.iter().filter(|a| a.adapter == adapter)).map(|a| a.requests).sum()
}

/// The adapter's `metric` in one arm: each run's median as a statistic with replicates, or
/// None when any run lacks a bounded interval (the change would rest on a guess).
fn arm_statistics(arm: &[ArmRun<'_>], adapter: &str, metric: &str, o: &CompareOptions) -> Option<Vec<super::change::RunStatistic>> {
    arm.iter()
        .map(|r| {
            let a = r.analysis.adapters.iter().find(|a| a.adapter == adapter)?;
            let e: &Estimate = if metric == "ttft_p50" { &a.ttft_p50 } else { &a.tpot_p50 };
            let (estimate, lo, hi) = (e.estimate?, e.ci_low?, e.ci_high?);
            let v = RunValue { estimate, ci_low: Some(lo), ci_high: Some(hi), confidence: e.confidence };
            Some(interval_statistic(&v, o.seed, stat_id(&format!("adapter{adapter}{metric}{}", r.name))))
        })
        .collect()
}

fn change(base: &[ArmRun<'_>], cand: &[ArmRun<'_>], adapter: &str, metric: &str, o: &CompareOptions) -> Option<AdapterChange> {
    let (b, c) = (arm_statistics(base, adapter, metric, o)?, arm_statistics(cand, adapter, metric, o)?);
    let tolerance = tolerance_for(o, metric);
    let (verdict, pooled) = interval_verdict(&b, &c, tolerance, Better::Lower, o.prior)?;
    let (ci_low, ci_high) = pooled.interval(0.95);
    let mean = |x: &[super::change::RunStatistic]| x.iter().map(|r| r.estimate).sum::<f64>() / x.len() as f64;
    Some(AdapterChange { base: mean(&b), cand: mean(&c), change: pooled.estimate, ci_low, ci_high, tolerance, verdict, method: ADAPTER_METHOD, seed: o.seed })
}
