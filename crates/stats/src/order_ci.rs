//! Exact distribution-free confidence interval for a quantile from order statistics
//! (the binomial method; scipy `quantile_test(...).confidence_interval`).
//!
//! For sorted `x[0..n)` and `B ~ Binomial(n, p)`, two-sided at level `cl` with `a = (1 − cl)/2`:
//! `lo = x[ppf(a) − 1]`, `hi = x[isf(a)]`, where `ppf(a)` is the smallest k with CDF(k) ≥ a and
//! `isf(a)` the smallest k with P(B > k) ≤ a. An index outside `0..n` means that side has no
//! finite bound. Coverage is at least `cl` for continuous i.i.d. data.

use statrs::distribution::{Binomial, DiscreteCDF};

/// 0-based order-statistic indices of the interval; `None` where the bound is not finite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrderIndices {
    pub lo: Option<usize>,
    pub hi: Option<usize>,
}

/// Which bounds to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alternative {
    TwoSided,
    /// Upper bound only ("less" in scipy).
    Less,
    /// Lower bound only ("greater" in scipy).
    Greater,
}

/// Smallest k in 0..=n with `pred(k)`, for a monotone predicate (binary search).
fn smallest(n: u64, pred: impl Fn(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (0u64, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) { hi = mid } else { lo = mid + 1 }
    }
    lo
}

/// Order-statistic indices for quantile `p` of `n` observations at confidence `cl`.
/// Returns `None` when the inputs are out of range (n = 0, p or cl outside (0, 1)).
pub fn order_statistic_indices(n: usize, p: f64, cl: f64, alt: Alternative) -> Option<OrderIndices> {
    if n == 0 || !(p > 0.0 && p < 1.0) || !(cl > 0.0 && cl < 1.0) {
        return None;
    }
    let b = Binomial::new(p, n as u64).ok()?;
    let a = match alt {
        Alternative::TwoSided => (1.0 - cl) / 2.0,
        _ => 1.0 - cl,
    };
    let ppf = smallest(n as u64, |k| b.cdf(k) >= a);
    let isf = smallest(n as u64, |k| b.sf(k) <= a);
    let lo = (ppf as i64 - 1).try_into().ok().filter(|&i: &usize| i < n);
    let hi = Some(isf as usize).filter(|&i| i < n);
    Some(match alt {
        Alternative::TwoSided => OrderIndices { lo, hi },
        Alternative::Less => OrderIndices { lo: None, hi },
        Alternative::Greater => OrderIndices { lo, hi: None },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> Vec<f64> {
        (0..=100).map(|k| (k as f64 / 100.0).exp()).collect()
    }

    fn interval(p: f64, cl: f64, alt: Alternative) -> (Option<f64>, Option<f64>) {
        let x = x();
        let i = order_statistic_indices(x.len(), p, cl, alt).unwrap();
        (i.lo.map(|i| x[i]), i.hi.map(|i| x[i]))
    }

    // scipy test_stats.py TestQuantileTest.test_R_ci_quantile and the confidence_interval
    // docstring: x = exp(arange(0, 1.01, 0.01)).
    #[test]
    fn scipy_reference_vectors() {
        let close = |a: Option<f64>, b: f64| (a.unwrap() - b).abs() <= 1e-15 * b;
        let (lo, hi) = interval(0.30, 0.95, Alternative::TwoSided);
        assert!(close(lo, 1.22140275816017) && close(hi, 1.476980793882643));
        let (lo, hi) = interval(0.50, 0.90, Alternative::TwoSided);
        assert!(close(lo, 1.506817785112854) && close(hi, 1.803988415397857));
        let (lo, hi) = interval(0.25, 0.95, Alternative::Less);
        assert!(lo.is_none() && close(hi, 1.39096812846378));
        let (lo, hi) = interval(0.80, 0.90, Alternative::Greater);
        assert!(close(lo, 2.117000016612675) && hi.is_none());
        let (_, hi) = interval(0.75, 0.95, Alternative::Less);
        assert!(close(hi, 2.293318740264183));
        let (lo, hi) = interval(0.75, 0.90, Alternative::TwoSided);
        assert!(close(lo, 1.9542373206359396) && close(hi, 2.293318740264183));
    }

    #[test]
    fn indices_match_the_derived_table() {
        let i = order_statistic_indices(101, 0.30, 0.95, Alternative::TwoSided).unwrap();
        assert_eq!((i.lo, i.hi), (Some(20), Some(39)));
        let i = order_statistic_indices(101, 0.50, 0.90, Alternative::TwoSided).unwrap();
        assert_eq!((i.lo, i.hi), (Some(41), Some(59)));
    }

    // statistics.md §2.6: the upper index exists iff p^n <= 0.025 (two-sided 95 %).
    #[test]
    fn minimum_n_for_a_finite_upper_bound() {
        for (p, n_min) in [(0.5, 6), (0.9, 36), (0.99, 368), (0.999, 3688)] {
            let at = order_statistic_indices(n_min, p, 0.95, Alternative::TwoSided).unwrap();
            let below = order_statistic_indices(n_min - 1, p, 0.95, Alternative::TwoSided).unwrap();
            assert_eq!(at.hi, Some(n_min - 1), "p={p}");
            assert_eq!(below.hi, None, "p={p}");
        }
    }
}
