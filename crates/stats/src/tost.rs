//! Two one-sided tests (TOST) for equivalence of means, Welch or pooled (statsmodels / R
//! `equivalence::tost` conventions): equivalent at level α when both one-sided tests reject,
//! i.e. when the (1 − 2α) interval of the difference lies inside (−ε, ε).

use statrs::distribution::{ContinuousCDF, StudentsT};

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Tost {
    pub mean_diff: f64,
    pub se: f64,
    pub df: f64,
    /// The (1 − 2α) interval of the difference.
    pub ci_low: f64,
    pub ci_high: f64,
    /// max of the two one-sided p-values.
    pub p: f64,
}

fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    (m, x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0))
}

/// TOST of mean(x) − mean(y) against the margin ±`eps`; `alpha` 0.05 gives a 90 % interval.
pub fn tost(x: &[f64], y: &[f64], eps: f64, alpha: f64, pooled: bool) -> Option<Tost> {
    if x.len() < 2 || y.len() < 2 || eps <= 0.0 {
        return None;
    }
    let (n1, n2) = (x.len() as f64, y.len() as f64);
    let ((m1, v1), (m2, v2)) = (mean_var(x), mean_var(y));
    let (se, df) = if pooled {
        let sp = ((n1 - 1.0) * v1 + (n2 - 1.0) * v2) / (n1 + n2 - 2.0);
        ((sp * (1.0 / n1 + 1.0 / n2)).sqrt(), n1 + n2 - 2.0)
    } else {
        let (a, b) = (v1 / n1, v2 / n2);
        ((a + b).sqrt(), (a + b).powi(2) / (a * a / (n1 - 1.0) + b * b / (n2 - 1.0)))
    };
    let t = StudentsT::new(0.0, 1.0, df).ok()?;
    let diff = m1 - m2;
    let p_lower = 1.0 - t.cdf((diff + eps) / se);
    let p_upper = t.cdf((diff - eps) / se);
    let crit = t.inverse_cdf(1.0 - alpha);
    Some(Tost { mean_diff: diff, se, df, ci_low: diff - crit * se, ci_high: diff + crit * se, p: p_lower.max(p_upper) })
}

#[cfg(test)]
mod tests {
    use super::*;

    // statsmodels test_weightstats.py, values from R equivalence::tost (clinic data, var1).
    #[allow(clippy::approx_constant)] // 3.14 is a measurement, not π
    const G1: [f64; 15] = [2.84, 2.51, 2.41, 2.95, 3.14, 3.79, 4.14, 3.85, 3.02, 3.45, 5.37, 3.81, 4.19, 3.16, 3.84];
    const G2: [f64; 15] = [2.60, 2.82, 2.18, 3.46, 4.01, 3.04, 3.47, 4.06, 2.91, 3.59, 4.51, 3.16, 3.86, 3.31, 3.02];

    #[test]
    fn welch() {
        let r = tost(&G1, &G2, 0.6, 0.05, false).unwrap();
        let close = |a: f64, b: f64, tol: f64| (a - b).abs() < tol;
        assert!(close(r.mean_diff, 0.1646666666666667, 1e-12));
        assert!(close(r.se, 0.2531625991083627, 1e-12));
        assert!(close(r.df, 26.7484787582315, 1e-9));
        assert!(close(r.ci_low, -0.2666862980722534, 1e-9) && close(r.ci_high, 0.596019631405587, 1e-9), "{r:?}");
        assert!(close(r.p, 0.04853083976236974, 1e-9), "{}", r.p);
    }

    #[test]
    fn pooled() {
        let r = tost(&G1, &G2, 0.6, 0.05, true).unwrap();
        assert_eq!(r.df, 28.0);
        assert!((r.p - 0.04827315100761467).abs() < 1e-9);
        assert!((r.ci_low - -0.2659960620757337).abs() < 1e-9 && (r.ci_high - 0.595329395409067).abs() < 1e-9);
    }

    #[test]
    fn ratio_on_the_log_scale() {
        let (l1, l2): (Vec<f64>, Vec<f64>) = (G1.iter().map(|v| v.ln()).collect(), G2.iter().map(|v| v.ln()).collect());
        let r = tost(&l1, &l2, 1.25f64.ln(), 0.05, false).unwrap();
        assert!((r.mean_diff - 0.04312233182252334).abs() < 1e-12);
        assert!((r.se - 0.073508371131806).abs() < 1e-12);
        assert!((r.df - 27.61177037646526).abs() < 1e-8);
        assert!((r.p - 0.01047085593138891).abs() < 1e-9);
    }
}
