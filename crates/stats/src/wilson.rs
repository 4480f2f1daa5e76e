//! Wilson score interval for a binomial proportion (error rates).

use statrs::distribution::{ContinuousCDF, Normal};

/// Two-sided Wilson interval for `k` successes in `n` trials; `None` when n = 0.
pub fn wilson_interval(k: u64, n: u64, cl: f64) -> Option<(f64, f64)> {
    if n == 0 || k > n || !(cl > 0.0 && cl < 1.0) {
        return None;
    }
    let z = Normal::standard().inverse_cdf(1.0 - (1.0 - cl) / 2.0);
    let (n, p) = (n as f64, k as f64 / n as f64);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    let lo = if p == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if p == 1.0 { 1.0 } else { (centre + half).min(1.0) };
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::wilson_interval;

    #[test]
    fn matches_statsmodels() {
        // statsmodels proportion_confint(7, 50, alpha=0.05, method='wilson')
        // = (0.06950833427016288, 0.26186193710585537)
        let (lo, hi) = wilson_interval(7, 50, 0.95).unwrap();
        assert!((lo - 0.06950833427016288).abs() < 1e-9 && (hi - 0.26186193710585537).abs() < 1e-9, "{lo} {hi}");
        // Zero events still give a finite upper bound: 0/20 -> (0, 0.16112)
        let (lo, hi) = wilson_interval(0, 20, 0.95).unwrap();
        assert_eq!(lo, 0.0);
        assert!((hi - 0.1611251580528194).abs() < 1e-9, "{hi}");
        assert!(wilson_interval(0, 0, 0.95).is_none());
    }
}
