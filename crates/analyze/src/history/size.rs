//! The size of each change point: the runs of the segment before it against those of the
//! segment after it, with compare's hierarchical bootstrap, and a verdict against the tolerance.
//!
//! A history has each run's estimate and interval, not its requests, so a run's within-run
//! replicates are drawn from its interval: normal on the log scale around the estimate, each
//! side with the spread its own half-width implies. The bootstrap then draws runs with
//! replacement within each segment, one replicate per drawn run (`compare`'s Kalibera–Jones
//! ratio of means), so both run-to-run and within-run noise widen the change's interval.

use rand::Rng;
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

use super::HistoryOptions;
use super::detect::Found;
use super::metric::{HistoryMetric, RunPoint, RunValue};
use super::series::utc_text;
use crate::compare::ChangeInterval;
use crate::compare::change::{RelativeChange, RunStatistic, arm_replicate};
use crate::compare::verdict::{Verdict, decide};
use credence_stats::quantile::quantile_sorted;
use credence_stats::resample::{resample_rng, stat_id};

/// Replicates drawn for each run from its interval.
const RUN_REPLICATES: usize = 400;

/// A segment's level: the mean of its runs' estimates with a hierarchical-bootstrap interval.
#[derive(Debug, Clone, Serialize)]
pub struct SegmentEstimate {
    pub estimate: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Trusted runs in the segment.
    pub runs: usize,
    pub first_index: usize,
    pub last_index: usize,
}

/// One change point, as `history.json` reports it.
#[derive(Debug, Clone, Serialize)]
pub struct ChangePointReport {
    pub metric: HistoryMetric,
    pub fingerprint: String,
    /// Position in the ordered series of the first (trusted) run after the change.
    pub index: usize,
    pub run_id: String,
    pub start_time: Option<String>,
    pub before: SegmentEstimate,
    pub after: SegmentEstimate,
    /// `after / before − 1` with its interval (as `compare` reports a change); null when a
    /// segment's level is zero, so that no relative change exists.
    pub change: Option<ChangeInterval>,
    pub tolerance: f64,
    pub verdict: Verdict,
    /// Permutation p-value of the split.
    pub p_value: f64,
    pub statistic: f64,
    pub reason: Option<String>,
}

/// The reports of the change points `found` in one configuration's series of `m`.
pub fn change_points(points: &[RunPoint], found: &Found, m: HistoryMetric, o: &HistoryOptions) -> Vec<ChangePointReport> {
    if found.change_points.is_empty() {
        return Vec::new();
    }
    let n = found.trusted.len();
    let bounds: Vec<usize> = std::iter::once(0).chain(found.change_points.iter().map(|c| c.index)).chain(std::iter::once(n)).collect();
    let stats: Vec<RunStatistic> = found.trusted.iter().map(|&i| run_statistic(&points[i], m, o.seed)).collect();
    found
        .change_points
        .iter()
        .enumerate()
        .map(|(j, cp)| {
            let (before, after) = (bounds[j]..cp.index, cp.index..bounds[j + 2]);
            let id = stat_id(&format!("{m}{}{}", found.fingerprint, cp.index));
            let tolerance = o.tolerance_for(m);
            let change = RelativeChange::new(&stats[before.clone()], &stats[after.clone()], o.resamples, o.seed, id);
            let (verdict, reason, change) = match change {
                Some(c) => {
                    let (ci95, ci90) = (c.interval(0.95), c.interval(0.90));
                    let est = ChangeInterval {
                        estimate: c.estimate,
                        ci_low: ci95.0,
                        ci_high: ci95.1,
                        confidence: 0.95,
                        method: "hierarchical_bootstrap",
                        seed: o.seed,
                        resamples: o.resamples,
                        df: None,
                    };
                    (decide(ci95, ci90, tolerance, m.better()), None, Some(est))
                }
                None => (Verdict::Inconclusive, Some("a segment's level is zero: no relative change".to_string()), None),
            };
            let first_after = found.trusted[cp.index];
            ChangePointReport {
                metric: m,
                fingerprint: found.fingerprint.clone(),
                index: first_after,
                run_id: points[first_after].run_id.clone(),
                start_time: points[first_after].start_ns.map(utc_text),
                before: segment(&stats, &found.trusted, before, o, id ^ 0xB),
                after: segment(&stats, &found.trusted, after, o, id ^ 0xC),
                change,
                tolerance,
                verdict,
                p_value: cp.p_value,
                statistic: cp.statistic,
                reason,
            }
        })
        .collect()
}

/// The level of the runs `range` (positions in `trusted`) with a 95 % interval.
fn segment(stats: &[RunStatistic], trusted: &[usize], range: std::ops::Range<usize>, o: &HistoryOptions, id: u64) -> SegmentEstimate {
    let runs = &stats[range.clone()];
    let mut reps: Vec<f64> = (0..o.resamples).map(|r| arm_replicate(runs, r, o.seed, id)).filter(|x| x.is_finite()).collect();
    reps.sort_by(f64::total_cmp);
    SegmentEstimate {
        estimate: runs.iter().map(|r| r.estimate).sum::<f64>() / runs.len() as f64,
        ci_low: quantile_sorted(&reps, 0.025),
        ci_high: quantile_sorted(&reps, 0.975),
        runs: runs.len(),
        first_index: trusted[range.start],
        last_index: trusted[range.end - 1],
    }
}

/// A run's estimate of `m` with replicates drawn from its interval (see the module docs).
fn run_statistic(p: &RunPoint, m: HistoryMetric, seed: u64) -> RunStatistic {
    interval_statistic(&p.values[&m], seed, stat_id(&format!("{}{m}", p.run_id)))
}

/// An estimate with replicates drawn from its interval, from the stream `id` of `seed`: how a
/// statistic known only by its interval (a history's run, an adapter's median) enters
/// compare's hierarchical bootstrap.
pub(crate) fn interval_statistic(v: &RunValue, seed: u64, id: u64) -> RunStatistic {
    let v = *v;
    let mut rng = resample_rng(seed, id, 0);
    let (lo_spread, hi_spread, log) = spreads(&v);
    let replicates = (0..RUN_REPLICATES)
        .map(|_| {
            // Box–Muller: a standard normal draw from two uniforms.
            let (u1, u2) = (1.0 - rng.random::<f64>(), rng.random::<f64>());
            let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            let s = if z < 0.0 { lo_spread } else { hi_spread };
            if log { v.estimate * (s * z).exp() } else { v.estimate + s * z }
        })
        .collect();
    RunStatistic { estimate: v.estimate, n: 1, replicates, variance_df: f64::INFINITY, groups: None }
}

/// The standard deviation below and above the estimate that its interval implies, and whether
/// it is on the log scale (positive estimate and bounds). A missing side mirrors the other;
/// with neither, the run adds no within-run noise.
fn spreads(v: &RunValue) -> (f64, f64, bool) {
    let z = Normal::standard().inverse_cdf(0.5 + v.confidence / 2.0);
    let log = v.estimate > 0.0 && v.ci_low.is_none_or(|l| l > 0.0) && v.ci_high.is_none_or(|h| h > 0.0);
    let side =
        |bound: Option<f64>| bound.map(|b| if log { (b.ln() - v.estimate.ln()).abs() / z } else { (b - v.estimate).abs() / z }).filter(|s| s.is_finite());
    let (lo, hi) = (side(v.ci_low), side(v.ci_high));
    (lo.or(hi).unwrap_or(0.0), hi.or(lo).unwrap_or(0.0), log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreads_follow_each_side_of_the_interval() {
        let v = RunValue { estimate: 100.0, ci_low: Some(100.0 * (-0.0196f64).exp()), ci_high: Some(100.0 * 0.0392f64.exp()), confidence: 0.95 };
        let (lo, hi, log) = spreads(&v);
        assert!(log);
        assert!((lo - 0.01).abs() < 1e-4 && (hi - 0.02).abs() < 1e-4, "{lo} {hi}");
        let one_sided = RunValue { ci_high: None, ..v };
        let (lo, hi, _) = spreads(&one_sided);
        assert_eq!(lo, hi);
    }
}
