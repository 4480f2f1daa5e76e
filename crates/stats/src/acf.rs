//! Autocovariance and autocorrelation (statsmodels `acf(adjusted=False)` convention: every lag
//! divides by n), plus average ranks.

/// Autocorrelations at lags 0..=max_lag.
pub fn acf(x: &[f64], max_lag: usize) -> Vec<f64> {
    let n = x.len();
    if n == 0 {
        return Vec::new();
    }
    let mean = x.iter().sum::<f64>() / n as f64;
    let y: Vec<f64> = x.iter().map(|v| v - mean).collect();
    let c0: f64 = y.iter().map(|v| v * v).sum::<f64>();
    (0..=max_lag.min(n - 1))
        .map(|k| {
            let ck: f64 = y[k..].iter().zip(&y[..n - k]).map(|(a, b)| a * b).sum();
            if c0 > 0.0 {
                ck / c0
            } else if k == 0 {
                1.0
            } else {
                0.0
            }
        })
        .collect()
}

/// Average ranks (1-based, ties share their mean rank), as scipy `rankdata`.
pub fn average_ranks(x: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut ranks = vec![0.0; x.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
            j += 1;
        }
        let r = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            ranks[k] = r;
        }
        i = j + 1;
    }
    ranks
}

/// Sizes of the runs of equal values in an ascending slice (ties), in order.
pub fn tie_runs(sorted: &[f64]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[i] {
            j += 1;
        }
        out.push(j - i + 1);
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tie_run_sizes() {
        assert_eq!(tie_runs(&[1.0, 1.0, 2.0, 3.0, 3.0, 3.0]), vec![2, 1, 3]);
    }

    #[test]
    fn ranks_with_ties() {
        assert_eq!(average_ranks(&[10.0, 20.0, 10.0, 30.0]), vec![1.5, 3.0, 1.5, 4.0]);
    }

    #[test]
    fn acf_of_alternating_series() {
        // numpy: x = [1, -1, 1, -1]; acf lag1 = -3/4, lag2 = 2/4
        let r = acf(&[1.0, -1.0, 1.0, -1.0], 2);
        assert!((r[1] + 0.75).abs() < 1e-12 && (r[2] - 0.5).abs() < 1e-12);
    }
}
