//! Verdicts are data: only this module decides regression, improvement, equivalence.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Regression,
    Improvement,
    Equivalent,
    Inconclusive,
}

/// Which direction of change is good for a metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Better {
    Lower,
    Higher,
}

/// Regression / improvement when the 95 % interval lies entirely beyond ±τ; equivalent when
/// the 90 % interval lies inside ±τ (TOST); inconclusive otherwise.
pub fn decide(ci95: (f64, f64), ci90: (f64, f64), tau: f64, better: Better) -> Verdict {
    let (lo, hi) = ci95;
    let worse_up = better == Better::Lower;
    if lo > tau {
        return if worse_up { Verdict::Regression } else { Verdict::Improvement };
    }
    if hi < -tau {
        return if worse_up { Verdict::Improvement } else { Verdict::Regression };
    }
    if ci90.0 > -tau && ci90.1 < tau {
        return Verdict::Equivalent;
    }
    Verdict::Inconclusive
}

/// For an inconclusive result: how many times more data (runs, or requests per run) would
/// shrink the interval enough to decide, assuming the width falls with the square root.
pub fn more_data_factor(estimate: f64, ci90: (f64, f64), tau: f64) -> Option<f64> {
    let half = (ci90.1 - ci90.0) / 2.0;
    let gap = (estimate.abs() - tau).abs();
    (half > 0.0 && gap > 0.0).then(|| (half / gap).powi(2).max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_follow_the_tolerance_band() {
        assert_eq!(decide((0.06, 0.12), (0.07, 0.11), 0.05, Better::Lower), Verdict::Regression);
        assert_eq!(decide((0.06, 0.12), (0.07, 0.11), 0.05, Better::Higher), Verdict::Improvement);
        assert_eq!(decide((-0.12, -0.06), (-0.11, -0.07), 0.05, Better::Lower), Verdict::Improvement);
        assert_eq!(decide((-0.03, 0.04), (-0.02, 0.03), 0.05, Better::Lower), Verdict::Equivalent);
        assert_eq!(decide((-0.02, 0.09), (-0.01, 0.08), 0.05, Better::Lower), Verdict::Inconclusive);
        assert!(more_data_factor(0.035, (-0.01, 0.08), 0.05).unwrap() > 1.0);
    }
}
