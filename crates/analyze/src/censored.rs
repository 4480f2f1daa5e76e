//! Right-censored latencies: a request that timed out or was cancelled before its first token
//! has a TTFT longer than its elapsed time (sent → failure), not no TTFT; the same for E2E.
//! Dropping such requests describes the survivors: an overloaded run where 40 % of requests
//! timed out at 20 s reported a P50 TTFT of 20.4 s.
//!
//! The percentiles of a metric with censored values are Kaplan–Meier (product-limit)
//! quantiles (`credence_stats::product_limit`): type 7 read through the product-limit ranks, so
//! with every censoring time above every observed value (one client timeout) they are the
//! type-7 quantiles of the sample with the censored values ranked last. Their intervals:
//! - order statistics: the binomial ranks at an effective sample size lowered by the Greenwood
//!   variance, the upper bound read through the product-limit ranks (`None` when it falls
//!   among the censored values), the lower bound as the order statistic of the sample with
//!   each censored value at its censoring time (below the latency it hides, so valid whatever
//!   the censoring);
//! - block bootstrap: only where no censoring time lies below the percentile (censored values
//!   ranked at +infinity are then exactly the product-limit ranking); a resample quantile among
//!   them is +infinity, and an upper bound there is none. Elsewhere the order-statistic
//!   interval at the dependent effective sample size is used.
//!
//! A percentile that falls among the censored values is no number: `Estimate::beyond_censoring`
//! with the smaller of the censoring level and its lower confidence bound. The mean of a
//! censored sample is bounded below the same way (`restricted_mean`).

use credence_stats::product_limit::ProductLimit;
use statrs::distribution::{ContinuousCDF, Normal};

use super::estimate::{CensoredBefore, Censoring, Estimate, Method};

/// The right-censored values of one metric's sample.
#[derive(Debug, Clone, Copy)]
pub struct CensoredValues<'a> {
    /// Per value of the sample, its censoring time (ms), NaN when the value is not censored.
    pub at_ms: &'a [f64],
    pub before: CensoredBefore,
}

/// What the censored requests did not reach, in words.
fn before_words(before: CensoredBefore) -> &'static str {
    match before {
        CensoredBefore::FirstToken => "before their first token",
        CensoredBefore::End => "before completing",
    }
}

/// The censoring of a sample, for its estimates; `None` without censored values.
pub fn censoring(km: &ProductLimit, before: CensoredBefore) -> Option<Censoring> {
    let count = km.censored();
    (count > 0).then(|| Censoring { count: count as u64, share: count as f64 / km.n() as f64, before })
}

/// The type-7 quantile `p` through the product-limit ranks, reading observed rank `k` through
/// `at`; `None` beyond the censoring level.
pub fn quantile(km: &ProductLimit, p: f64, at: impl Fn(usize) -> f64) -> Option<f64> {
    let (lo, frac) = km.locate((km.n() - 1) as f64 * p)?;
    let (a, b) = (at(lo), at((lo + 1).min(km.observed() - 1)));
    // As `quantile_by_rank` computes it, so an uncensored sample's quantile is unchanged.
    Some(a + frac * (b - a))
}

/// The note of a percentile beyond the censoring level.
pub fn beyond_note(c: &Censoring, bound_ms: Option<f64>) -> String {
    let known = bound_ms.map_or(String::new(), |b| format!("; it is only known to exceed {}", ms(b)));
    format!("beyond the censoring level: {:.0} % of requests timed out or were cancelled {}{known}", c.share * 100.0, before_words(c.before))
}

/// The note of a percentile whose upper bound falls among the censored values.
pub fn open_upper_note(c: &Censoring) -> String {
    format!(
        "the upper bound lies beyond the censoring level ({:.0} % of requests timed out or were cancelled {}): only a lower bound is given",
        c.share * 100.0,
        before_words(c.before)
    )
}

fn ms(v: f64) -> String {
    format!("{} ms", credence_run::text::significant(v, 3))
}

/// A percentile beyond the censoring level: the lower confidence bound `lower` (the order
/// statistic with censored values at their censoring times), capped at the censoring level
/// (what the point estimate says: the quantile exceeds it).
pub fn beyond(km: &ProductLimit, lower: Option<f64>, c: Censoring, (cl, n): (f64, u64)) -> Estimate {
    let level = km.censoring_level();
    let bound = match (lower, level) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Estimate::beyond_censoring(bound, cl, Method::KaplanMeier, n, c, beyond_note(&c, bound))
}

/// The mean of a censored sample, bounded below: the mean with each censored value at its
/// censoring time (`restricted`, below the true mean), less a one-sided normal margin whose
/// variance `var` (per value) is inflated by the design effect `tau`.
pub fn restricted_mean(restricted: f64, var: f64, tau: f64, c: Censoring, (cl, n): (f64, u64)) -> Estimate {
    let z = Normal::standard().inverse_cdf(cl);
    let bound = restricted - z * (var * tau / n as f64).sqrt();
    let why = format!(
        "the mean is beyond the censoring level ({:.0} % of requests timed out or were cancelled {}); reported: a lower bound, from the mean with each of them at its elapsed time",
        c.share * 100.0,
        before_words(c.before)
    );
    Estimate::beyond_censoring(Some(bound.max(0.0)), cl, Method::RestrictedMean, n, c, why)
}

/// The percentile interval of a bootstrap distribution whose resample quantiles may be
/// +infinity (censored): NaNs (empty resamples) dropped, infinities kept, so an upper end among
/// them is infinite.
pub fn percentile_keeping_infinity(dist: &[f64], cl: f64) -> Option<(f64, f64)> {
    let mut d: Vec<f64> = dist.iter().copied().filter(|x| !x.is_nan()).collect();
    d.sort_unstable_by(f64::total_cmp);
    let at = |p: f64| -> Option<f64> {
        let (lo, hi) = credence_stats::quantile::quantile_ranks(d.len(), p)?;
        let frac = (d.len() - 1) as f64 * p - lo as f64;
        let (a, b) = (d[lo], d[hi]);
        Some(if frac == 0.0 || a == b { a } else { a + frac * (b - a) })
    };
    let a = (1.0 - cl) / 2.0;
    Some((at(a)?, at(1.0 - a)?))
}

/// The distribution grid's quantiles through the product-limit ranks, those beyond the
/// censoring level left out (the CDF stops where the data stop).
pub fn quantile_grid(km: &ProductLimit, sorted: &[f64], grid: &[f64]) -> Vec<[f64; 2]> {
    grid.iter().filter_map(|&p| quantile(km, p, |k| sorted[k]).map(|q| [p, q])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percentile_beyond_the_timeout_is_a_bound_at_the_censoring_level() {
        // 6 observed, 4 timed out at about 20 s.
        let x = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0];
        let km = ProductLimit::new(x.iter().copied(), vec![20_000.4, 20_001.0, 20_000.1, 20_002.0]);
        assert_eq!(quantile(&km, 0.5, |k| x[k]), Some(550.0));
        assert_eq!(quantile(&km, 0.9, |k| x[k]), None);
        let c = censoring(&km, CensoredBefore::FirstToken).unwrap();
        assert_eq!((c.count, c.share), (4, 0.4));
        // A lower confidence bound above the level is capped at it.
        let e = beyond(&km, Some(20_001.0), c, (0.95, 10));
        assert_eq!((e.estimate, e.ci_low, e.ci_high), (None, Some(20_000.1), None));
        assert_eq!(
            e.note.as_deref(),
            Some("beyond the censoring level: 40 % of requests timed out or were cancelled before their first token; it is only known to exceed 20000 ms")
        );
        // One below it is kept: the data support no more.
        assert_eq!(beyond(&km, Some(500.0), c, (0.95, 10)).ci_low, Some(500.0));
    }

    #[test]
    fn infinite_resample_quantiles_leave_the_upper_end_open() {
        let mut dist: Vec<f64> = (0..95).map(f64::from).collect();
        dist.extend([f64::INFINITY; 5]);
        dist.push(f64::NAN);
        let (lo, hi) = percentile_keeping_infinity(&dist, 0.9).unwrap();
        assert!((lo - 4.95).abs() < 1e-12, "{lo}");
        assert!(hi.is_infinite());
        // Without infinities: the ordinary percentile interval.
        let finite: Vec<f64> = (0..100).map(f64::from).collect();
        assert_eq!(percentile_keeping_infinity(&finite, 0.9), credence_stats::stationary::percentile_of(&finite, 0.9));
    }
}
