//! The interval of a change between two arms of runs, with every source of noise inside it.
//!
//! Each run's statistic varies from run to run (`between`, the same in both arms: one
//! configuration's runs differ as much as the other's) and within its run (`within`, each run's
//! block-bootstrap variance, already widened for few blocks). On the log scale the change
//! `L = ln(c̄ / b̄)` has variance `V = (B + w_b)/k_b + (B + w_c)/k_c`.
//!
//! The between-run variance `B` is estimated from the runs' spread around their arm's mean,
//! less what within-run noise explains (Kalibera–Jones), pooled over both arms and shrunk
//! towards a weak prior: `B = (ν₀·ln(1+cv₀)² + Σ(spread) − Σ(k−1)·w) / (ν₀ + Σ(k−1))`, a
//! scaled-inverse-χ² update with `ν₀ + Σ(k−1)` degrees of freedom. One run per arm then still
//! carries run-to-run noise (the prior's), and every run added sharpens `B` and shrinks `V`:
//! more data never widens the interval in expectation, and the tolerance is never moved.
//! The interval is `L ± t_df · √V`, `df` by Welch–Satterthwaite (the within-run part known).
//!
//! One new run judged against a baseline of `k` runs is the same formula with `k_c = 1`: the
//! prediction interval of one more run of the baseline's configuration.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};

use super::change::RunStatistic;

/// What compare assumes about run-to-run noise before it sees several runs: a coefficient of
/// variation, and how many degrees of freedom that belief is worth.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BetweenRunPrior {
    pub cv: f64,
    pub df: f64,
}

/// The default prior: runs of one configuration vary by 1.2 %, held as firmly as the spread
/// of 6 runs in each of 2 arms (10 degrees of freedom). One run per arm then gets a 95 %
/// interval of about ±3.8 % even when its requests pin the level exactly: with a true 3 %
/// run-to-run noise under 5 % of A/A pairs are called a change against a 5 % tolerance, and a
/// +10 % change in two 20-minute runs is still called (`tests/it/compare_study.rs`, the
/// conditions study). Weaker priors let one run per arm call noise a change; stronger ones
/// make single runs unable to decide.
pub const DEFAULT_PRIOR: BetweenRunPrior = BetweenRunPrior { cv: 0.012, df: 10.0 };

/// The change's estimate and the normal-theory pieces its intervals are built from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PooledChange {
    /// `c̄ / b̄ − 1`.
    pub estimate: f64,
    /// `ln(c̄ / b̄)`.
    #[serde(skip)]
    log_estimate: f64,
    /// Pooled between-run variance `B` (log scale), prior included.
    pub between: f64,
    /// Degrees of freedom of `B`: the prior's plus `Σ(k − 1)`.
    pub between_df: f64,
    /// Mean within-run variance of one run of each arm (log scale).
    #[serde(skip)]
    within: (f64, f64),
    #[serde(skip)]
    runs: (usize, usize),
    /// Welch–Satterthwaite degrees of freedom of `V`.
    pub df: f64,
}

/// Mean of the run estimates.
fn mean_estimate(runs: &[RunStatistic]) -> f64 {
    runs.iter().map(|r| r.estimate).sum::<f64>() / runs.len() as f64
}

/// Variance of a run's replicates on the log scale (its within-run sampling variance).
fn log_replicate_variance(r: &RunStatistic) -> f64 {
    let logs: Vec<f64> = r.replicates.iter().filter(|x| **x > 0.0).map(|x| x.ln()).collect();
    if logs.len() < 2 {
        return 0.0;
    }
    let mean = logs.iter().sum::<f64>() / logs.len() as f64;
    logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (logs.len() - 1) as f64
}

/// An arm's sum of squared log deviations from its mean and its mean within-run variance.
fn arm_spread(runs: &[RunStatistic]) -> (f64, f64) {
    let logs: Vec<f64> = runs.iter().map(|r| r.estimate.ln()).collect();
    let mean = logs.iter().sum::<f64>() / logs.len() as f64;
    let squares = logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    let within = runs.iter().map(log_replicate_variance).sum::<f64>() / runs.len() as f64;
    (squares, within)
}

impl PooledChange {
    pub fn new(base: &[RunStatistic], cand: &[RunStatistic], prior: BetweenRunPrior) -> Option<PooledChange> {
        if base.is_empty() || cand.is_empty() {
            return None;
        }
        let (b, c) = (mean_estimate(base), mean_estimate(cand));
        // (NaN fails `> 0.0` too.)
        let positive = |x: f64| x > 0.0;
        if !positive(b) || !positive(c) || !base.iter().chain(cand).all(|r| positive(r.estimate)) {
            return None;
        }
        let ((ss_b, w_b), (ss_c, w_c)) = (arm_spread(base), arm_spread(cand));
        let (kb, kc) = (base.len(), cand.len());
        let data_df = (kb - 1 + kc - 1) as f64;
        // The spread less what within-run noise explains, pooled; never below zero.
        let spread = (ss_b + ss_c - (kb - 1) as f64 * w_b - (kc - 1) as f64 * w_c).max(0.0);
        let between_df = prior.df + data_df;
        let between = (prior.df * (1.0 + prior.cv).ln().powi(2) + spread) / between_df;
        let v_between = between * (1.0 / kb as f64 + 1.0 / kc as f64);
        let v = v_between + w_b / kb as f64 + w_c / kc as f64;
        let df = if v_between > 0.0 { (v * v / (v_between * v_between / between_df)).min(1e6) } else { 1e6 };
        Some(PooledChange { estimate: c / b - 1.0, log_estimate: (c / b).ln(), between, between_df, within: (w_b, w_c), runs: (kb, kc), df })
    }

    /// The variance of `ln(c̄ / b̄)`.
    fn variance(&self) -> f64 {
        let (kb, kc) = (self.runs.0 as f64, self.runs.1 as f64);
        (self.between + self.within.0) / kb + (self.between + self.within.1) / kc
    }

    /// Two-sided interval of the relative change at confidence `cl`.
    pub fn interval(&self, cl: f64) -> (f64, f64) {
        let half = t_quantile(self.df, cl) * self.variance().sqrt();
        ((self.log_estimate - half).exp() - 1.0, (self.log_estimate + half).exp() - 1.0)
    }

    /// Each arm's mean statistic with its interval at `cl` (same variance model and df).
    pub fn arm_interval(&self, arm: &[RunStatistic], cl: f64) -> (f64, f64) {
        let m = mean_estimate(arm);
        let (_, w) = arm_spread(arm);
        let half = t_quantile(self.df, cl) * ((self.between + w) / arm.len() as f64).sqrt();
        (m * (-half).exp(), m * half.exp())
    }
}

/// `t_{df}` at the two-sided confidence `cl`.
pub fn t_quantile(df: f64, cl: f64) -> f64 {
    let p = 1.0 - (1.0 - cl) / 2.0;
    StudentsT::new(0.0, 1.0, df).map_or(1.959_963_984_540_054, |t| t.inverse_cdf(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run whose replicates spread by `sd` (relative) around `estimate`.
    fn run(estimate: f64, sd: f64) -> RunStatistic {
        let replicates = (0..2000).map(|i| estimate * (sd * probit((i as f64 + 0.5) / 2000.0)).exp()).collect();
        RunStatistic { estimate, n: 1000, replicates, variance_df: f64::INFINITY, groups: Some(60) }
    }

    fn probit(p: f64) -> f64 {
        use statrs::distribution::Normal;
        Normal::standard().inverse_cdf(p)
    }

    fn half_width(c: &PooledChange) -> f64 {
        let (lo, hi) = c.interval(0.95);
        (hi - lo) / 2.0
    }

    #[test]
    fn one_run_per_arm_carries_the_priors_run_to_run_noise() {
        let c = PooledChange::new(&[run(100.0, 0.0)], &[run(110.0, 0.0)], DEFAULT_PRIOR).unwrap();
        assert!((c.estimate - 0.10).abs() < 1e-12);
        assert_eq!(c.between_df, 10.0);
        // Without within-run noise: ±t₁₀ · √(2 · ln(1.012)²) ≈ ±3.8 % on the log scale.
        let want = t_quantile(10.0, 0.95) * (2.0f64).sqrt() * (1.012f64).ln();
        let (lo, hi) = c.interval(0.95);
        assert!(((1.1f64.ln() - (1.0 + lo).ln()) - want).abs() < 1e-9, "{lo} {want}");
        assert!((((1.0 + hi).ln() - 1.1f64.ln()) - want).abs() < 1e-9);
    }

    #[test]
    fn the_within_run_noise_adds_to_the_between_run_noise() {
        let quiet = PooledChange::new(&[run(100.0, 0.0)], &[run(100.0, 0.0)], DEFAULT_PRIOR).unwrap();
        let noisy = PooledChange::new(&[run(100.0, 0.02)], &[run(100.0, 0.02)], DEFAULT_PRIOR).unwrap();
        assert!(half_width(&noisy) > 1.5 * half_width(&quiet));
    }

    #[test]
    fn more_runs_of_the_same_spread_narrow_the_interval() {
        // Runs spread by about the prior's 1 %: every run added narrows the interval.
        let arm =
            |k: usize, level: f64| -> Vec<RunStatistic> { (0..k).map(|i| run(level * (1.0 + 0.01 * probit((i as f64 + 0.5) / k as f64)), 0.003)).collect() };
        let widths: Vec<f64> =
            [1, 2, 3, 5, 10].iter().map(|&k| half_width(&PooledChange::new(&arm(k, 100.0), &arm(k, 110.0), DEFAULT_PRIOR).unwrap())).collect();
        assert!(widths.windows(2).all(|w| w[1] < w[0]), "{widths:?}");
    }

    #[test]
    fn a_wide_spread_of_runs_widens_the_interval_instead_of_moving_the_tolerance() {
        let tight = PooledChange::new(&[run(100.0, 0.002), run(100.5, 0.002)], &[run(110.0, 0.002), run(110.5, 0.002)], DEFAULT_PRIOR).unwrap();
        let loose = PooledChange::new(&[run(92.0, 0.002), run(108.0, 0.002)], &[run(101.0, 0.002), run(119.0, 0.002)], DEFAULT_PRIOR).unwrap();
        assert!((tight.estimate - loose.estimate).abs() < 0.01);
        assert!(half_width(&loose) > 2.0 * half_width(&tight));
        assert!(loose.between > 10.0 * tight.between);
    }

    #[test]
    fn a_baseline_check_is_a_prediction_interval_for_one_more_run() {
        // k base runs and one new run: V = (B + w)(1/k + 1).
        let base: Vec<RunStatistic> = [99.0, 100.0, 101.0].iter().map(|&e| run(e, 0.0)).collect();
        let c = PooledChange::new(&base, &[run(100.0, 0.0)], DEFAULT_PRIOR).unwrap();
        let v = c.variance();
        assert!((v - c.between * (1.0 / 3.0 + 1.0)).abs() < 1e-15);
    }
}
