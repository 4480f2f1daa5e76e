//! `bench --repeat auto --until SPEC`: repetitions go on until the interval of the
//! configuration's mean, across runs, meets every target too.
//!
//! Each run stops on its own with its targets met, so each run's estimate is precise; what is
//! left is the run-to-run part. The spread of the runs' estimates holds both parts (their
//! variance is the between-run variance plus each run's own sampling variance), so the
//! interval is the random-effects one over the runs' estimates: mean ± t(k−1) · s / √k, as
//! `compare` pools replicated runs. It needs `MIN_RUNS` runs before it can say anything.

use super::Target;
use crate::compare::pooled::t_quantile;
use serde::Serialize;

/// Runs before the between-run interval is judged (two give one degree of freedom).
pub const MIN_RUNS: usize = 3;

/// One target across the runs so far.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BetweenRuns {
    pub key: String,
    pub goal: f64,
    /// Runs with an estimate for this target.
    pub runs: usize,
    pub mean: Option<f64>,
    /// The 95 % interval's half-width relative to the mean; none below `MIN_RUNS`.
    pub half_width: Option<f64>,
    pub met: bool,
}

/// Each target's between-run interval from the runs' estimates (`estimates[run][target]`,
/// in the order of `targets`).
pub fn between_runs(targets: &[Target], estimates: &[Vec<Option<f64>>]) -> Vec<BetweenRuns> {
    targets
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let xs: Vec<f64> = estimates.iter().filter_map(|run| run.get(k).copied().flatten()).filter(|x| x.is_finite()).collect();
            let n = xs.len();
            let mean = (n > 0).then(|| xs.iter().sum::<f64>() / n as f64);
            let half_width = mean.filter(|m| n >= MIN_RUNS && *m > 0.0).map(|m| {
                let sd = (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
                t_quantile((n - 1) as f64, 0.95) * sd / (n as f64).sqrt() / m
            });
            BetweenRuns { key: t.key.clone(), goal: t.goal, runs: n, mean, half_width, met: half_width.is_some_and(|h| h <= t.goal) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::until::spec::parse;

    #[test]
    fn needs_three_runs_then_uses_the_t_interval() {
        let targets = parse("throughput=2%").unwrap();
        let two = between_runs(&targets, &[vec![Some(10.0)], vec![Some(10.2)]]);
        assert_eq!((two[0].half_width, two[0].met), (None, false));
        // 10, 10.1, 10.2: mean 10.1, s = 0.1, t(2) = 4.3027: ±0.2484, 2.46 % of the mean.
        let three = between_runs(&targets, &[vec![Some(10.0)], vec![Some(10.1)], vec![Some(10.2)]]);
        let h = three[0].half_width.unwrap();
        assert!((h - 4.302_652_729_911_275 * 0.1 / 3f64.sqrt() / 10.1).abs() < 1e-9, "{h}");
        assert!(!three[0].met);
        let four = between_runs(&targets, &[vec![Some(10.0)], vec![Some(10.05)], vec![Some(10.1)], vec![Some(10.05)]]);
        assert!(four[0].met, "{:?}", four[0]);
    }

    #[test]
    fn a_run_without_an_estimate_is_not_counted() {
        let targets = parse("ttft_p99=5%").unwrap();
        let b = between_runs(&targets, &[vec![Some(100.0)], vec![None], vec![Some(101.0)], vec![Some(99.0)]]);
        assert_eq!(b[0].runs, 3);
        assert!(b[0].met);
    }
}
