//! Automatic block length for block bootstraps: Politis & White (2004) with the
//! Patton–Politis–White (2009) correction, in the variant of `arch`'s `optimal_block_length`
//! (autocovariances divided by n, `kn = max(5, ⌊log10 n⌋)`), and the long-run variance with
//! the same flat-top window.

/// Optimal mean block lengths for the stationary and the circular block bootstrap.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BlockLength {
    pub stationary: f64,
    pub circular: f64,
}

struct FlatTop {
    acv: Vec<f64>,
    m: usize,
}

fn flat_top(x: &[f64]) -> Option<FlatTop> {
    let n = x.len();
    if n < 8 {
        return None;
    }
    let nf = n as f64;
    let mean = x.iter().sum::<f64>() / nf;
    let eps: Vec<f64> = x.iter().map(|v| v - mean).collect();
    let kn = 5usize.max(nf.log10() as usize);
    let m_max = (nf.sqrt().ceil() as usize + kn).min(n - 1);
    let cv = 2.0 * (nf.log10() / nf).sqrt();
    let mut acv = vec![0.0; m_max + 1];
    let mut abs_acorr = vec![0.0; m_max + 1];
    let mut opt_m: Option<usize> = None;
    for i in 0..=m_max {
        let (a, b) = (&eps[i..], &eps[..n - i]);
        let cross: f64 = a.iter().zip(b).map(|(p, q)| p * q).sum();
        acv[i] = cross / nf;
        let (v1, v2): (f64, f64) = (a.iter().map(|v| v * v).sum(), b.iter().map(|v| v * v).sum());
        abs_acorr[i] = if v1 > 0.0 && v2 > 0.0 { cross.abs() / (v1 * v2).sqrt() } else { 0.0 };
        if i >= kn && opt_m.is_none() && abs_acorr[i - kn..i].iter().all(|&r| r < cv) {
            opt_m = Some(i - kn);
        }
    }
    let m = match opt_m {
        Some(m) => (2 * m.max(1)).min(m_max),
        None => m_max,
    };
    Some(FlatTop { acv, m })
}

fn lambda(t: f64) -> f64 {
    if t <= 0.5 { 1.0 } else { 2.0 * (1.0 - t) }
}

/// `G = Σ_k |k| γ_k` and the long-run variance `Σ_k γ_k`, both over the flat-top window.
fn flat_top_sums(ft: &FlatTop) -> (f64, f64) {
    let (mut g, mut lr) = (0.0, ft.acv[0]);
    for k in 1..=ft.m {
        let w = lambda(k as f64 / ft.m as f64);
        g += 2.0 * w * k as f64 * ft.acv[k];
        lr += 2.0 * w * ft.acv[k];
    }
    (g, lr)
}

/// Politis–White block lengths, capped at `ceil(min(3√n, n/3))`. `None` for fewer than 8
/// observations; a series with no variance gets length 1.
pub fn politis_white(x: &[f64]) -> Option<BlockLength> {
    Some(block_lengths(&flat_top(x)?, x.len() as f64))
}

fn block_lengths(ft: &FlatTop, n: f64) -> BlockLength {
    let (g, lr) = flat_top_sums(ft);
    if lr <= 0.0 || ft.acv[0] <= 0.0 {
        return BlockLength { stationary: 1.0, circular: 1.0 };
    }
    let b_max = (3.0 * n.sqrt()).min(n / 3.0).ceil();
    let sb = (2.0 * g * g / (2.0 * lr * lr)).powf(1.0 / 3.0) * n.powf(1.0 / 3.0);
    let cb = (2.0 * g * g / ((4.0 / 3.0) * lr * lr)).powf(1.0 / 3.0) * n.powf(1.0 / 3.0);
    BlockLength { stationary: sb.min(b_max).max(1.0), circular: cb.min(b_max).max(1.0) }
}

/// Long-run variance `γ0 + 2 Σ λ(k/m) γ_k` with the flat-top window, floored at `γ0 / n`.
pub fn long_run_variance(x: &[f64]) -> Option<f64> {
    let ft = flat_top(x)?;
    Some(flat_top_sums(&ft).1.max(ft.acv[0] / x.len() as f64))
}

/// A series' long-run variance, stationary block length and `G / σ²∞` from one pass of the
/// flat-top window: the same numbers as `long_run_variance` and `politis_white` give, plus
/// `G / σ²∞`, without computing the autocovariances three times.
pub struct Dependence {
    pub long_run_variance: f64,
    pub stationary_block: f64,
    pub bias_ratio: f64,
}

pub fn dependence(x: &[f64]) -> Option<Dependence> {
    let n = x.len() as f64;
    let ft = flat_top(x)?;
    let (g, lr) = flat_top_sums(&ft);
    // `G / σ²∞`: a block bootstrap with mean block length `b` underestimates the long-run
    // variance by `G / b` to first order (Politis & White 2004, the bias term of their MSE), so
    // its variance is low by the fraction `bias_ratio / b`; 0 without positive dependence.
    let bias_ratio = if lr > 0.0 && g > 0.0 { g / lr } else { 0.0 };
    Some(Dependence { long_run_variance: lr.max(ft.acv[0] / n), stationary_block: block_lengths(&ft, n).stationary, bias_ratio })
}

#[cfg(test)]
mod tests {
    use super::*;

    // arch test_block_length: numpy RandomState(0) standard normals, AR(1) with φ = 0.3, first
    // 100 dropped (stored as tests/data/ar1_politis_white.txt): stationary 13.635665,
    // circular 15.60894 (rtol 1e-4).
    #[test]
    fn arch_reference_vector() {
        let text = include_str!("../../../tests/data/ar1_politis_white.txt");
        let x: Vec<f64> = text.lines().map(|l| l.trim().parse().unwrap()).collect();
        assert_eq!(x.len(), 10_000);
        let b = politis_white(&x).unwrap();
        assert!((b.stationary / 13.635665 - 1.0).abs() < 1e-4, "{}", b.stationary);
        assert!((b.circular / 15.60894 - 1.0).abs() < 1e-4, "{}", b.circular);
    }

    // AR(1) with φ: G/σ²∞ = 2φ/(1 − φ²) (γ_k = γ0 φ^k); the arch vector has φ = 0.3 (0.659).
    // The flat-top taper weighs the lags past m/2 down, which shortens G: 0.504 here.
    #[test]
    fn bias_ratio_of_an_ar1_series() {
        let text = include_str!("../../../tests/data/ar1_politis_white.txt");
        let x: Vec<f64> = text.lines().map(|l| l.trim().parse().unwrap()).collect();
        let r = dependence(&x).unwrap().bias_ratio;
        assert!((0.45..=0.6593).contains(&r), "{r}");
        assert_eq!(dependence(&[2.0; 50]).unwrap().bias_ratio, 0.0, "no variance: no correction");
    }

    #[test]
    fn constant_series_has_unit_blocks() {
        assert_eq!(politis_white(&[3.0; 50]).unwrap().stationary, 1.0);
        assert!(politis_white(&[1.0, 2.0]).is_none());
    }
}
