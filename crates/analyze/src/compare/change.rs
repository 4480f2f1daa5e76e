//! The relative change of one metric between two arms, with its bootstrap distribution.
//!
//! Each run's statistic gets a stationary block bootstrap over 5-second groups of its steady
//! window (wider past an hour; the same resampler and groups as `analyze`). One run per arm: resample r of the candidate is
//! paired with resample r of the base and the change is taken on the log scale. Several runs
//! per arm: a hierarchical bootstrap draws runs with replacement, then one within-run
//! replicate for each drawn run, and averages (the Kalibera–Jones ratio of means).

use credence_stats::quantile::quantile_sorted;
use credence_stats::resample::resample_rng;
use rand::Rng;

/// A run's estimate of a statistic and its within-run bootstrap replicates.
#[derive(Debug, Clone)]
pub struct RunStatistic {
    pub estimate: f64,
    /// Observations behind the estimate (requests for latency, windows for throughput).
    pub n: u64,
    pub replicates: Vec<f64>,
    /// Degrees of freedom of the replicates' variance as an estimate of the run's sampling
    /// variance (`intervals::one_run_df`); infinite when it was not estimated from the run.
    pub variance_df: f64,
    /// Resampling groups behind the replicates (windows for throughput); None when the
    /// replicates were not resampled from the run's requests (history draws them from its
    /// reported interval). Below `MIN_WINDOWS_FOR_DEPENDENCE` their spread cannot be trusted.
    pub groups: Option<usize>,
}

/// An arm's replicate `r`: the statistic averaged over runs drawn with replacement.
pub fn arm_replicate(runs: &[RunStatistic], r: usize, seed: u64, id: u64) -> f64 {
    if runs.len() == 1 {
        return runs[0].replicates[r % runs[0].replicates.len()];
    }
    let mut rng = resample_rng(seed, id, r as u64);
    let k = runs.len();
    let mut sum = 0.0;
    for _ in 0..k {
        let run = &runs[rng.random_range(0..k)];
        sum += run.replicates[rng.random_range(0..run.replicates.len())];
    }
    sum / k as f64
}

fn arm_estimate(runs: &[RunStatistic]) -> f64 {
    runs.iter().map(|r| r.estimate).sum::<f64>() / runs.len() as f64
}

/// Relative change `cand/base − 1`: the estimate and the bootstrap distribution of log ratios,
/// with each arm's own replicates (sorted) for the arms' intervals.
pub struct RelativeChange {
    pub estimate: f64,
    log_ratios: Vec<f64>,
    base_replicates: Vec<f64>,
    cand_replicates: Vec<f64>,
}

impl RelativeChange {
    pub fn new(base: &[RunStatistic], cand: &[RunStatistic], resamples: usize, seed: u64, id: u64) -> Option<RelativeChange> {
        if base.is_empty() || cand.is_empty() {
            return None;
        }
        let (b, c) = (arm_estimate(base), arm_estimate(cand));
        if !(b > 0.0 && c > 0.0) {
            return None;
        }
        let (mut log_ratios, mut base_replicates, mut cand_replicates) = (Vec::new(), Vec::new(), Vec::new());
        for r in 0..resamples {
            let (rb, rc) = (arm_replicate(base, r, seed, id ^ 0xB), arm_replicate(cand, r, seed, id ^ 0xC));
            let log_ratio = (rc / rb).ln();
            if log_ratio.is_finite() {
                log_ratios.push(log_ratio);
                base_replicates.push(rb);
                cand_replicates.push(rc);
            }
        }
        for v in [&mut log_ratios, &mut base_replicates, &mut cand_replicates] {
            v.sort_by(f64::total_cmp);
        }
        (!log_ratios.is_empty()).then_some(RelativeChange { estimate: c / b - 1.0, log_ratios, base_replicates, cand_replicates })
    }

    /// Percentile intervals at `cl` of the base arm's and the candidate arm's statistic, from
    /// the same resamples as the change, so that the three intervals of a row agree.
    pub fn arm_intervals(&self, cl: f64) -> ((f64, f64), (f64, f64)) {
        let a = (1.0 - cl) / 2.0;
        let interval = |sorted: &[f64]| (quantile_sorted(sorted, a).unwrap_or(f64::NAN), quantile_sorted(sorted, 1.0 - a).unwrap_or(f64::NAN));
        (interval(&self.base_replicates), interval(&self.cand_replicates))
    }

    /// Percentile interval of the relative change at `cl`.
    pub fn interval(&self, cl: f64) -> (f64, f64) {
        let a = (1.0 - cl) / 2.0;
        let q = |p| quantile_sorted(&self.log_ratios, p).map_or(f64::NAN, |x| x.exp() - 1.0);
        (q(a), q(1.0 - a))
    }
}

/// Between-run and within-run variance of one arm's statistic, relative to its mean (so that
/// 0.0004 reads as a 2 % standard deviation).
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct VarianceComponents {
    pub runs: usize,
    /// Kalibera–Jones between-run component T²_run (clamped at 0); null with one run, where
    /// run-to-run noise cannot be measured.
    pub between: Option<f64>,
    /// Sampling variance of one run's statistic (from its block bootstrap).
    pub within: f64,
    /// `between / (between + within)`: near 1, more runs help and longer runs do not.
    pub between_share: Option<f64>,
}

impl VarianceComponents {
    pub fn of(runs: &[RunStatistic]) -> VarianceComponents {
        let (between, within) = variance_components(runs);
        let between_share = between.map(|b| if b + within > 0.0 { b / (b + within) } else { 0.0 });
        VarianceComponents { runs: runs.len(), between, within, between_share }
    }
}

/// Between-run and within-run variance of an arm's statistic (relative to its mean).
pub fn variance_components(runs: &[RunStatistic]) -> (Option<f64>, f64) {
    let m = arm_estimate(runs);
    let within = runs
        .iter()
        .map(|r| {
            let n = r.replicates.len() as f64;
            let mean = r.replicates.iter().sum::<f64>() / n;
            r.replicates.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)
        })
        .sum::<f64>()
        / runs.len() as f64;
    let between = (runs.len() >= 2).then(|| {
        let s2 = runs.iter().map(|r| (r.estimate - m).powi(2)).sum::<f64>() / (runs.len() - 1) as f64;
        // Kalibera–Jones: the spread of run estimates less what within-run noise explains.
        (s2 - within).max(0.0) / (m * m)
    });
    (between, within / (m * m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(estimate: f64, spread: f64) -> RunStatistic {
        RunStatistic {
            estimate,
            n: 400,
            replicates: (0..400).map(|i| estimate * (1.0 + spread * ((i as f64 * 0.618).fract() - 0.5))).collect(),
            variance_df: f64::INFINITY,
            groups: Some(80),
        }
    }

    #[test]
    fn single_runs_pair_replicates() {
        let change = RelativeChange::new(&[run(100.0, 0.02)], &[run(110.0, 0.02)], 400, 1, 2).unwrap();
        assert!((change.estimate - 0.10).abs() < 1e-12);
        let (lo, hi) = change.interval(0.95);
        assert!(lo < 0.10 && hi > 0.10 && lo > 0.05 && hi < 0.15, "({lo}, {hi})");
        let ((bl, bh), (cl, ch)) = change.arm_intervals(0.95);
        assert!(bl < 100.0 && bh > 100.0 && bh - bl < 2.0, "base ({bl}, {bh})");
        assert!(cl < 110.0 && ch > 110.0 && ch - cl < 2.2, "candidate ({cl}, {ch})");
    }

    #[test]
    fn between_run_spread_widens_the_interval() {
        let tight = RelativeChange::new(&[run(100.0, 0.02), run(100.0, 0.02)], &[run(100.0, 0.02), run(100.0, 0.02)], 2000, 1, 2).unwrap();
        let loose = RelativeChange::new(&[run(90.0, 0.02), run(110.0, 0.02)], &[run(90.0, 0.02), run(110.0, 0.02)], 2000, 1, 2).unwrap();
        let w = |c: &RelativeChange| {
            let (a, b) = c.interval(0.95);
            b - a
        };
        assert!(w(&loose) > 3.0 * w(&tight));
        let (between, _) = variance_components(&[run(90.0, 0.02), run(110.0, 0.02)]);
        assert!(between.unwrap() > 0.01);
    }
}
