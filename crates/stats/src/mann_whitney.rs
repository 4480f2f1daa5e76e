//! Mann–Whitney U (Wilcoxon rank-sum), scipy conventions: `U` is the statistic of `x`,
//! `U_x = #{x_i > y_j} + ½ #{ties}`; asymptotic p-values with the tie-corrected variance and
//! an optional ±½ continuity correction, or the exact null distribution for small samples
//! without ties.

use statrs::distribution::{ContinuousCDF, Normal};

use super::acf::{average_ranks, tie_runs};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alternative {
    TwoSided,
    /// x tends to be smaller than y.
    Less,
    /// x tends to be larger than y.
    Greater,
}

/// `U_x` from pooled average ranks, O(n log n).
pub fn u_statistic(x: &[f64], y: &[f64]) -> f64 {
    let pooled: Vec<f64> = x.iter().chain(y).copied().collect();
    let ranks = average_ranks(&pooled);
    let r1: f64 = ranks[..x.len()].iter().sum();
    let n1 = x.len() as f64;
    r1 - n1 * (n1 + 1.0) / 2.0
}

/// Asymptotic p-value with tie correction; `continuity` applies the ±½ correction.
pub fn p_asymptotic(x: &[f64], y: &[f64], alt: Alternative, continuity: bool) -> Option<f64> {
    let (n1, n2) = (x.len() as f64, y.len() as f64);
    if x.is_empty() || y.is_empty() {
        return None;
    }
    let u1 = u_statistic(x, y);
    let u2 = n1 * n2 - u1;
    let n = n1 + n2;
    let pooled: Vec<f64> = {
        let mut v: Vec<f64> = x.iter().chain(y).copied().collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let tie_term: f64 = tie_runs(&pooled).into_iter().map(|t| t as f64).map(|t| t * t * t - t).sum();
    let sigma = (n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)))).sqrt();
    if sigma <= 0.0 {
        return Some(1.0);
    }
    let mu = n1 * n2 / 2.0;
    let u = match alt {
        Alternative::TwoSided => u1.max(u2),
        Alternative::Greater => u1,
        Alternative::Less => u2,
    };
    let cc = if continuity { 0.5 } else { 0.0 };
    let z = (u - mu - cc) / sigma;
    let sf = 1.0 - Normal::standard().cdf(z);
    Some(match alt {
        Alternative::TwoSided => (2.0 * sf).min(1.0),
        _ => sf,
    })
}

/// Exact p-value from the null distribution of U (no ties; small samples).
pub fn p_exact(x: &[f64], y: &[f64], alt: Alternative) -> Option<f64> {
    let (m, n) = (x.len(), y.len());
    if m == 0 || n == 0 || m * n > 250_000 {
        return None;
    }
    let u1 = u_statistic(x, y).round() as usize;
    // counts[u] for samples of sizes (i, j), built up by the recursion
    // N(i, j, u) = N(i − 1, j, u − j) + N(i, j − 1, u).
    let max_u = m * n;
    let mut table: Vec<Vec<f64>> = vec![vec![0.0; max_u + 1]; n + 1];
    for row in table.iter_mut() {
        row[0] = 1.0;
    }
    for i in 1..=m {
        let mut next: Vec<Vec<f64>> = vec![vec![0.0; max_u + 1]; n + 1];
        next[0][0] = 1.0;
        for j in 1..=n {
            for u in 0..=i * j {
                let a = if u >= j { table[j][u - j] } else { 0.0 };
                next[j][u] = a + next[j - 1][u];
            }
        }
        table = next;
    }
    let counts = &table[n];
    let total: f64 = counts.iter().sum();
    let cdf = |k: usize| counts[..=k.min(max_u)].iter().sum::<f64>() / total;
    let le = cdf(u1);
    let ge = 1.0 - if u1 == 0 { 0.0 } else { cdf(u1 - 1) };
    Some(match alt {
        Alternative::Less => le,
        Alternative::Greater => ge,
        Alternative::TwoSided => (2.0 * le.min(ge)).min(1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // scipy test_gh_9184 (checked against R wilcox.test).
    const X: [f64; 10] = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
    const Y: [f64; 5] = [1.15, 0.88, 0.90, 0.74, 1.21];

    #[test]
    fn scipy_gh_9184() {
        assert_eq!(u_statistic(&X, &Y), 35.0);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-10;
        use Alternative::*;
        assert!(close(p_asymptotic(&X, &Y, Less, true).unwrap(), 0.900775348204));
        assert!(close(p_asymptotic(&X, &Y, Greater, true).unwrap(), 0.1223118025635));
        assert!(close(p_asymptotic(&X, &Y, TwoSided, true).unwrap(), 0.244623605127));
        assert!(close(p_asymptotic(&X, &Y, Less, false).unwrap(), 0.8896643190401));
        assert!(close(p_asymptotic(&X, &Y, Greater, false).unwrap(), 0.1103356809599));
        assert!(close(p_asymptotic(&X, &Y, TwoSided, false).unwrap(), 0.2206713619198));
        assert!(close(p_exact(&X, &Y, Less).unwrap(), 0.8967698967699));
        assert!(close(p_exact(&X, &Y, Greater).unwrap(), 0.1272061272061));
        assert!(close(p_exact(&X, &Y, TwoSided).unwrap(), 0.2544122544123));
    }

    // R `sleep` data with ties: W = 25.5, p = 0.06933 (normal approximation, continuity).
    #[test]
    fn r_sleep_data_with_ties() {
        let g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
        let g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];
        assert_eq!(u_statistic(&g1, &g2), 25.5);
        assert!((p_asymptotic(&g1, &g2, Alternative::TwoSided, true).unwrap() - 0.06933).abs() < 1e-5);
    }

    // Mann & Whitney (1947) table, n = m = 3: CDF 0.05, 0.1, 0.2, 0.35, 0.5 for U = 0..4.
    #[test]
    fn exact_distribution_table() {
        let x = [1.0, 2.0, 3.0];
        for (k, expect) in [0.05, 0.1, 0.2, 0.35, 0.5].into_iter().enumerate() {
            // Choose y so that U_x = k: shift the largest values of x above y.
            let y: Vec<f64> = match k {
                0 => vec![4.0, 5.0, 6.0],
                1 => vec![2.5, 4.0, 5.0],
                2 => vec![1.5, 4.0, 5.0],
                3 => vec![0.5, 4.0, 5.0],
                _ => vec![0.5, 2.5, 5.0],
            };
            assert_eq!(u_statistic(&x, &y), k as f64);
            assert!((p_exact(&x, &y, Alternative::Less).unwrap() - expect).abs() < 1e-3, "U = {k}");
        }
    }
}
