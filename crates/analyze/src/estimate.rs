//! One statistic with its uncertainty, exactly as written to `analysis.json`.
//!
//! Build estimates only through the constructors here; they keep the invariants
//! `ci_low <= estimate <= ci_high`, a confidence in (0, 1), finite numbers only, and a status
//! that matches the bounds. One shape has no estimate but a status other than
//! `not_applicable`: a statistic beyond the censoring level (`Estimate::beyond_censoring`), of
//! which only a lower bound is known.

use serde::{Deserialize, Serialize};

/// How an interval was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Exact distribution-free binomial interval from order statistics (i.i.d. requests).
    OrderStatistic,
    /// Order-statistic interval with n replaced by the effective sample size (dependent
    /// requests, too few windows for a block bootstrap).
    OrderStatisticNeff,
    /// Stationary block bootstrap over time windows, percentile interval.
    StationaryBootstrap,
    /// i.i.d. bootstrap, bias-corrected and accelerated interval.
    Bca,
    /// Wilson score interval for a proportion.
    Wilson,
    /// A rate from the least-squares slope of a count over time, with a heteroscedasticity-
    /// and autocorrelation-consistent standard error (plus any Poisson counts), normal interval.
    HacSlope,
    /// A ratio of per-window counts, its interval by the delta method with a heteroscedasticity-
    /// and autocorrelation-consistent (flat-top long-run) variance, normal interval.
    HacRatio,
    /// A load where a latency–load curve crosses a threshold (a capacity): each step's
    /// percentile interval interpolated in log load, the point where the estimates cross, the
    /// bounds where the upper and lower bands do.
    CurveInversion,
    /// A ratio of two independent estimates, its interval from theirs on the log scale (each
    /// half-width over the normal quantile taken as its standard error).
    LogRatio,
    /// Kaplan–Meier (product-limit) quantile of right-censored latencies (requests that timed
    /// out or were cancelled count as longer than their elapsed time), with the order-statistic
    /// interval read on the product-limit ranks at an effective sample size the Greenwood
    /// variance (and any measured dependence) lowers (`intervals`).
    KaplanMeier,
    /// A lower bound of a mean over right-censored values: the mean with every censored value
    /// at its censoring time, less a one-sided normal margin with the variance inflated by the
    /// measured design effect.
    RestrictedMean,
    /// No interval: the statistic, or its interval, could not be computed.
    None,
}

/// What a right-censored observation did not reach before it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CensoredBefore {
    /// Its first token (TTFT).
    FirstToken,
    /// Its end (E2E).
    End,
}

/// The right-censored observations among an estimate's `n`: requests that timed out or were
/// cancelled before the metric could be observed, known only to exceed their elapsed time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Censoring {
    pub count: u64,
    /// `count / n`, a fraction.
    pub share: f64,
    pub before: CensoredBefore,
}

/// Whether the data support the statistic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    /// Too few observations for a two-sided interval: the point estimate and any one-sided
    /// bound are kept; do not read the number as precise.
    InsufficientData,
    /// The statistic does not apply to this run (e.g. no scheduled times).
    NotApplicable,
}

/// A point estimate with its confidence interval and how it was obtained.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub estimate: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub confidence: f64,
    pub method: Method,
    pub n: u64,
    /// Effective sample size when dependence was estimated.
    pub n_eff: Option<f64>,
    /// Seed of the resampling, for resampling methods.
    pub seed: Option<u64>,
    /// Resamples drawn, for resampling methods.
    pub resamples: Option<u64>,
    /// Mean block length (in windows) for block bootstraps.
    pub block_length: Option<f64>,
    pub status: Status,
    /// Why the status is not `ok`, or a caveat.
    pub note: Option<String>,
    /// Right-censored observations counted in `n` (absent when there are none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub censored: Option<Censoring>,
}

fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
}

impl Estimate {
    /// Decimals to show this estimate with, its values times `scale`: two significant digits of
    /// its interval's half-width when it has an interval (`ok`), else of 5 % of the value, so
    /// that no sentence or table prints more precision than the data support.
    pub fn decimals(&self, scale: f64) -> usize {
        // A bound beyond the censoring level has no estimate: its digits follow the bound.
        let v = self.estimate.or(self.ci_low).unwrap_or(f64::NAN) * scale;
        match self.status {
            Status::Ok => {
                let (lo, hi) = (self.ci_low.map_or(v, |x| x * scale), self.ci_high.map_or(v, |x| x * scale));
                credence_run::text::decimals_for((hi - lo) / 2.0)
            }
            _ => credence_run::text::decimals_for(v.abs() * 0.05),
        }
    }

    /// The empty shell every constructor fills in.
    fn base(confidence: f64, method: Method, n: u64, status: Status) -> Estimate {
        Estimate {
            estimate: None,
            ci_low: None,
            ci_high: None,
            confidence,
            method,
            n,
            n_eff: None,
            seed: None,
            resamples: None,
            block_length: None,
            status,
            note: None,
            censored: None,
        }
    }

    /// A two-sided estimate. Falls back to `insufficient` when a bound is missing or not finite,
    /// and widens a bound that does not contain the estimate (rounding in resampling).
    pub fn two_sided(estimate: f64, ci: (f64, f64), confidence: f64, method: Method, n: u64) -> Estimate {
        let (lo, hi) = ci;
        if !estimate.is_finite() {
            return Estimate::not_applicable(confidence, n, "the estimate is not a finite number");
        }
        if !(lo.is_finite() && hi.is_finite()) {
            return Estimate::insufficient(estimate, finite(Some(lo)), finite(Some(hi)), confidence, method, n, "the interval is not finite");
        }
        Estimate {
            estimate: Some(estimate),
            ci_low: Some(lo.min(estimate)),
            ci_high: Some(hi.max(estimate)),
            ..Estimate::base(confidence, method, n, Status::Ok)
        }
    }

    /// Too few data for a two-sided interval: keeps the point estimate and a one-sided bound.
    pub fn insufficient(estimate: f64, ci_low: Option<f64>, ci_high: Option<f64>, confidence: f64, method: Method, n: u64, why: impl Into<String>) -> Estimate {
        let est = finite(Some(estimate));
        Estimate {
            estimate: est,
            ci_low: finite(ci_low).map(|l| est.map_or(l, |e| l.min(e))),
            ci_high: finite(ci_high).map(|h| est.map_or(h, |e| h.max(e))),
            note: Some(why.into()),
            ..Estimate::base(confidence, method, n, Status::InsufficientData)
        }
    }

    /// A statistic beyond the censoring level: no number, only that it exceeds `ci_low` (with
    /// confidence `confidence`), and how many observations were censored.
    pub fn beyond_censoring(ci_low: Option<f64>, confidence: f64, method: Method, n: u64, censored: Censoring, why: impl Into<String>) -> Estimate {
        Estimate { ci_low: finite(ci_low), note: Some(why.into()), censored: Some(censored), ..Estimate::base(confidence, method, n, Status::InsufficientData) }
    }

    /// Whether this is a lower bound beyond the censoring level, not a number.
    pub fn is_censored_bound(&self) -> bool {
        self.estimate.is_none() && self.censored.is_some() && self.status == Status::InsufficientData
    }

    /// Records the right-censored observations among `n`.
    pub fn with_censoring(mut self, censored: Option<Censoring>) -> Estimate {
        self.censored = censored;
        self
    }

    /// The statistic does not apply (no data of that kind).
    pub fn not_applicable(confidence: f64, n: u64, why: impl Into<String>) -> Estimate {
        Estimate { note: Some(why.into()), ..Estimate::base(confidence, Method::None, n, Status::NotApplicable) }
    }

    /// Records the resampling behind the interval.
    pub fn resampled(mut self, seed: u64, resamples: usize, block_length: Option<f64>) -> Estimate {
        self.seed = Some(seed);
        self.resamples = Some(resamples as u64);
        self.block_length = block_length;
        self
    }

    pub fn with_n_eff(mut self, n_eff: Option<f64>) -> Estimate {
        self.n_eff = n_eff.filter(|v| v.is_finite());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Estimate {
        self.note = Some(note.into());
        self
    }

    /// Relative half-width of the interval, when two-sided and the estimate is non-zero.
    pub fn relative_half_width(&self) -> Option<f64> {
        let (e, lo, hi) = (self.estimate?, self.ci_low?, self.ci_high?);
        (e != 0.0 && self.status == Status::Ok).then(|| (hi - lo) / 2.0 / e.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_keep_invariants() {
        let e = Estimate::two_sided(5.0, (5.5, 7.0), 0.95, Method::Bca, 10);
        assert_eq!((e.ci_low, e.ci_high), (Some(5.0), Some(7.0)));
        let e = Estimate::two_sided(5.0, (4.0, f64::INFINITY), 0.95, Method::OrderStatistic, 10);
        assert_eq!(e.status, Status::InsufficientData);
        assert_eq!((e.ci_low, e.ci_high), (Some(4.0), None));
        let e = Estimate::two_sided(f64::NAN, (1.0, 2.0), 0.95, Method::Bca, 0);
        assert_eq!(e.status, Status::NotApplicable);
        let json = serde_json::to_string(&Estimate::two_sided(1.0, (0.5, 2.0), 0.95, Method::OrderStatistic, 3)).unwrap();
        assert!(json.contains("\"method\":\"order_statistic\"") && json.contains("\"status\":\"ok\""));
    }

    #[test]
    fn a_bound_beyond_censoring_has_no_estimate_and_no_upper_bound() {
        let c = Censoring { count: 83, share: 0.83, before: CensoredBefore::FirstToken };
        let e = Estimate::beyond_censoring(Some(20_000.0), 0.95, Method::KaplanMeier, 100, c, "beyond");
        assert_eq!((e.estimate, e.ci_low, e.ci_high, e.status), (None, Some(20_000.0), None, Status::InsufficientData));
        assert!(e.is_censored_bound());
        assert_eq!(e.decimals(1.0), 0, "digits follow the bound");
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.contains("\"method\":\"kaplan_meier\"") && json.contains("\"before\":\"first_token\""), "{json}");
        let plain = serde_json::to_string(&Estimate::two_sided(1.0, (0.5, 2.0), 0.95, Method::OrderStatistic, 3)).unwrap();
        assert!(!plain.contains("censored"), "absent when nothing is censored: {plain}");
    }

    #[test]
    fn relative_half_width() {
        let e = Estimate::two_sided(100.0, (95.0, 105.0), 0.95, Method::Bca, 10);
        assert_eq!(e.relative_half_width(), Some(0.05));
    }
}
