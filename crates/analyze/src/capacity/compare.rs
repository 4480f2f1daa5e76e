//! Two capacity searches at the same objectives, compared: the candidate's capacity relative to
//! the base's, with its interval, and a verdict against the tolerance. The two searches are
//! independent, so the change's interval combines their intervals on the log scale (each
//! capacity's interval read as a normal one there: its half-width over the normal quantile is
//! its standard error); the capacity is the higher the better.

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use super::{Capacity, Finding};
use crate::estimate::{Estimate, Method};

/// A capacity comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CapacityComparison {
    pub slo: String,
    pub base: Capacity,
    pub cand: Capacity,
    /// cand / base − 1, with its interval (method `log_ratio`).
    pub change: Estimate,
    pub tolerance: f64,
    /// `improvement` (the interval lies above +tolerance), `regression` (below −tolerance),
    /// `equivalent` (inside ±tolerance), `undecided`, or `not_comparable` (different
    /// objectives, or a search without a capacity).
    pub verdict: String,
    /// Why the verdict is `not_comparable`.
    pub reason: Option<String>,
}

/// A capacity's standard error on the log scale, from its interval.
fn log_se(c: &Estimate, z: f64) -> Option<f64> {
    let (lo, hi) = (c.ci_low?, c.ci_high?);
    (lo > 0.0).then(|| (hi.ln() - lo.ln()) / (2.0 * z))
}

pub fn compare(base: Capacity, cand: Capacity, tolerance: f64, confidence: f64) -> CapacityComparison {
    let z = Normal::standard().inverse_cdf(0.5 + confidence / 2.0);
    let mut out = CapacityComparison {
        slo: base.slo.clone(),
        change: Estimate::not_applicable(confidence, 2, "no capacity to compare"),
        tolerance,
        verdict: "not_comparable".into(),
        reason: None,
        base,
        cand,
    };
    if out.base.slo != out.cand.slo || out.base.parameter != out.cand.parameter {
        out.reason = Some(format!("the searches differ: {} {} against {} {}", out.base.parameter, out.base.slo, out.cand.parameter, out.cand.slo));
        return out;
    }
    let found = |c: &Capacity| c.finding == Finding::Found;
    let (Some(b), Some(c)) = (out.base.capacity.estimate.filter(|_| found(&out.base)), out.cand.capacity.estimate.filter(|_| found(&out.cand))) else {
        out.reason = Some("a search found no capacity (below its lowest load, above its highest, or undecided)".into());
        return out;
    };
    let ratio = (c / b).ln();
    let Some(se) = log_se(&out.base.capacity, z).zip(log_se(&out.cand.capacity, z)).map(|(x, y)| x.hypot(y)) else {
        out.change = Estimate::insufficient(c / b - 1.0, None, None, confidence, Method::LogRatio, 2, "a capacity has a one-sided interval");
        out.verdict = "undecided".into();
        return out;
    };
    let (lo, hi) = ((ratio - z * se).exp() - 1.0, (ratio + z * se).exp() - 1.0);
    out.change = Estimate::two_sided(c / b - 1.0, (lo, hi), confidence, Method::LogRatio, 2);
    out.verdict = if lo > tolerance {
        "improvement"
    } else if hi < -tolerance {
        "regression"
    } else if lo >= -tolerance && hi <= tolerance {
        "equivalent"
    } else {
        "undecided"
    }
    .into();
    out
}
