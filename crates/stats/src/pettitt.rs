//! Pettitt's change-point test (Pettitt 1979) in its rank form.
//!
//! `U_t = 2·Σ_{i≤t} r_i − t·(n + 1)` (average ranks), `K = max |U_t|` over t = 1..n−1, change
//! point `t*` = argmax (last index of the first regime, 1-based), and the approximate two-sided
//! p-value `2·exp(−6K² / (n³ + n²))`, capped at 1. Serial correlation is ignored, so apply it
//! to window aggregates rather than raw requests.

use super::acf::average_ranks;

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Pettitt {
    pub k: f64,
    /// Number of observations in the first regime.
    pub change_after: usize,
    pub p: f64,
}

pub fn pettitt(x: &[f64]) -> Option<Pettitt> {
    let n = x.len();
    if n < 3 {
        return None;
    }
    let r = average_ranks(x);
    let mut u = 0.0_f64;
    let (mut k, mut at) = (0.0_f64, 1);
    for (t, ri) in r.iter().enumerate().take(n - 1) {
        u += 2.0 * ri - (n as f64 + 1.0);
        if u.abs() > k {
            k = u.abs();
            at = t + 1;
        }
    }
    let nf = n as f64;
    let p = (2.0 * (-6.0 * k * k / (nf.powi(3) + nf.powi(2))).exp()).min(1.0);
    Some(Pettitt { k, change_after: at, p })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pairwise definition U_t = Σ_{i≤t} Σ_{j>t} sgn(x_i − x_j), for cross-checking.
    fn pairwise(x: &[f64]) -> Vec<f64> {
        (1..x.len())
            .map(|t| {
                let mut u = 0.0;
                for i in 0..t {
                    for j in t..x.len() {
                        u += (x[i] - x[j]).signum() * f64::from(x[i] != x[j]);
                    }
                }
                u
            })
            .collect()
    }

    #[test]
    fn rank_form_equals_pairwise_form() {
        let x = [3.1, 2.0, 4.4, 2.0, 5.5, 6.1, 7.3, 6.1, 8.0, 7.7];
        let k_pairwise = pairwise(&x).iter().fold(0.0_f64, |m, u| m.max(u.abs()));
        assert_eq!(pettitt(&x).unwrap().k, k_pairwise);
    }

    #[test]
    fn finds_a_level_shift() {
        let x: Vec<f64> = (0..40).map(|i| if i < 17 { 1.0 + 0.01 * (i % 5) as f64 } else { 2.0 + 0.01 * (i % 3) as f64 }).collect();
        let r = pettitt(&x).unwrap();
        assert_eq!(r.change_after, 17);
        // K = 17·23 (every pair across the shift): p = 2·exp(−6K²/(n³+n²)).
        assert_eq!(r.k, 391.0);
        assert!((r.p - 2.0 * (-6.0 * 391.0f64.powi(2) / (64000.0 + 1600.0)).exp()).abs() < 1e-15);
        assert!(r.p < 1e-5);
    }
}
