//! Mann–Kendall trend test, with the Hamed–Rao (1998) autocorrelation correction, and the
//! Theil–Sen slope (pyMannKendall conventions).

use statrs::distribution::{ContinuousCDF, Normal};

use super::acf::{acf, average_ranks, tie_runs};

/// Result of a Mann–Kendall test.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct MannKendall {
    pub s: f64,
    pub var_s: f64,
    pub z: f64,
    /// Two-sided p-value.
    pub p: f64,
    pub tau: f64,
}

fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// S = Σ_{i<j} sign(x_j − x_i).
fn s_statistic(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            s += sign(x[j] - x[i]);
        }
    }
    s
}

/// Var(S) with the tie correction.
fn variance(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mut sorted = x.to_vec();
    sorted.sort_by(f64::total_cmp);
    let ties: f64 = tie_runs(&sorted).into_iter().map(|t| t as f64).map(|t| t * (t - 1.0) * (2.0 * t + 5.0)).sum();
    (n * (n - 1.0) * (2.0 * n + 5.0) - ties) / 18.0
}

fn finish(s: f64, var_s: f64, n: usize) -> MannKendall {
    let z = if s > 0.0 {
        (s - 1.0) / var_s.sqrt()
    } else if s < 0.0 {
        (s + 1.0) / var_s.sqrt()
    } else {
        0.0
    };
    let p = 2.0 * (1.0 - Normal::standard().cdf(z.abs()));
    let tau = s / (0.5 * n as f64 * (n as f64 - 1.0));
    MannKendall { s, var_s, z, p, tau }
}

/// The plain test (assumes independent observations). `None` for fewer than 3 values.
pub fn mann_kendall(x: &[f64]) -> Option<MannKendall> {
    (x.len() >= 3).then(|| finish(s_statistic(x), variance(x), x.len()))
}

/// Theil–Sen slope: the median of pairwise slopes over `(t, value)` points.
pub fn sen_slope(points: &[(f64, f64)]) -> Option<f64> {
    let mut slopes = Vec::with_capacity(points.len() * points.len().saturating_sub(1) / 2);
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let dt = points[j].0 - points[i].0;
            if dt != 0.0 {
                slopes.push((points[j].1 - points[i].1) / dt);
            }
        }
    }
    super::quantile::quantile_unsorted(&slopes, 0.5)
}

/// Hamed–Rao: inflates Var(S) by the autocorrelation of the ranks of the Sen-detrended series,
/// using only lags significant at level `alpha`. `slope` is the Sen slope per index step.
pub fn hamed_rao(x: &[f64], slope: f64, alpha: f64) -> Option<MannKendall> {
    let n = x.len();
    if n < 3 {
        return None;
    }
    let detrended: Vec<f64> = x.iter().enumerate().map(|(i, v)| v - (i + 1) as f64 * slope).collect();
    let ranks = average_ranks(&detrended);
    let r = acf(&ranks, n - 1);
    let bound = Normal::standard().inverse_cdf(1.0 - alpha / 2.0) / (n as f64).sqrt();
    let nf = n as f64;
    let mut sni = 0.0;
    for (i, &ri) in r.iter().enumerate().skip(1) {
        if ri.abs() > bound {
            let i = i as f64;
            sni += (nf - i) * (nf - i - 1.0) * (nf - i - 2.0) * ri;
        }
    }
    let factor = 1.0 + 2.0 / (nf * (nf - 1.0) * (nf - 2.0)) * sni;
    Some(finish(s_statistic(x), variance(x) * factor, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    // "A Mann-Kendall Example (By Hand)": S = 54, Var(S) = 332.667, Z = 2.9058.
    #[test]
    fn hand_worked_example() {
        let x = [12.9, 14.8, 13.2, 15.7, 13.8, 15.6, 12.9, 11.0, 17.3, 15.9, 19.0, 18.3, 20.1, 21.7];
        let r = mann_kendall(&x).unwrap();
        assert_eq!(r.s, 54.0);
        assert!((r.var_s - 332.6667).abs() < 1e-3);
        assert!((r.z - 2.9058).abs() < 1e-4);
        assert!((r.p - 0.00366).abs() < 1e-5, "two-sided p {}", r.p);
    }

    /// pyMannKendall's test data: Monthly Rainfall, column Bogra, blanks dropped before the
    /// test (so the Sen slope uses consecutive positions).
    fn bogra() -> (Vec<f64>, Vec<(f64, f64)>) {
        let text = include_str!("../../../tests/data/monthly_rainfall.csv");
        let mut values = Vec::new();
        let mut points = Vec::new();
        for line in text.lines().skip(1) {
            let cell = line.split(',').nth(2).unwrap_or("");
            if let Ok(v) = cell.parse::<f64>() {
                points.push((values.len() as f64, v));
                values.push(v);
            }
        }
        (values, points)
    }

    #[test]
    fn pymannkendall_original_test() {
        let (x, points) = bogra();
        let r = mann_kendall(&x).unwrap();
        assert_eq!(r.s, -1959.0);
        assert!((r.var_s - 4889800.333333333).abs() < 1e-6);
        assert!((r.z - -0.8854562842589916).abs() < 1e-12);
        assert!((r.p - 0.37591058740506833).abs() < 1e-9, "{}", r.p);
        assert!((r.tau - -0.03153167653875869).abs() < 1e-14);
        assert!((sen_slope(&points).unwrap() - -0.0064516129032258064).abs() < 1e-15);
    }

    #[test]
    fn pymannkendall_hamed_rao_test() {
        let (x, points) = bogra();
        let r = hamed_rao(&x, sen_slope(&points).unwrap(), 0.05).unwrap();
        assert!((r.var_s - 257403.38678462413).abs() < 1e-6, "{}", r.var_s);
        assert!((r.z - -3.859273515045842).abs() < 1e-9);
        assert!((r.p - 0.00011372459883540742).abs() < 1e-11, "{}", r.p);
    }
}
