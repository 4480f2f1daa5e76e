//! Effect sizes for two samples: Cliff's δ with the Feng & Cliff interval (effsize
//! conventions), its magnitude label, and the Hodges–Lehmann shift. δ is computed in
//! O(n log n) from sorted samples, never from the n₁·n₂ dominance matrix.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// Cliff's δ with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct CliffsDelta {
    pub delta: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub magnitude: &'static str,
}

/// Which variance estimator and critical value to use (effsize's `use.unbiased`, `use.normal`).
#[derive(Debug, Clone, Copy)]
pub struct CliffOptions {
    pub unbiased: bool,
    pub normal: bool,
    pub confidence: f64,
}

/// Hess & Kromrey (2004) thresholds on |δ|.
pub fn magnitude(delta: f64) -> &'static str {
    match delta.abs() {
        d if d < 0.147 => "negligible",
        d if d < 0.33 => "small",
        d if d < 0.474 => "medium",
        _ => "large",
    }
}

fn count_below_above(sorted: &[f64], v: f64) -> (f64, f64) {
    let below = sorted.partition_point(|&s| s < v);
    let not_above = sorted.partition_point(|&s| s <= v);
    (below as f64, (sorted.len() - not_above) as f64)
}

/// δ = P(x > y) − P(x < y), with the Feng & Cliff (2004) asymmetric interval.
pub fn cliffs_delta(x: &[f64], y: &[f64], o: CliffOptions) -> Option<CliffsDelta> {
    let (n1, n2) = (x.len(), y.len());
    if n1 < 2 || n2 < 2 {
        return None;
    }
    let (f1, f2) = (n1 as f64, n2 as f64);
    let mut xs = x.to_vec();
    let mut ys = y.to_vec();
    xs.sort_by(f64::total_cmp);
    ys.sort_by(f64::total_cmp);
    // Row means d_i. over y, column means d_.j over x, ties for Σ d_ij².
    let mut rows = Vec::with_capacity(n1);
    let mut ties = 0.0;
    for &v in &xs {
        let (below, above) = count_below_above(&ys, v);
        rows.push((below - above) / f2);
        ties += f2 - below - above;
    }
    let cols: Vec<f64> = ys
        .iter()
        .map(|&v| {
            let (below, above) = count_below_above(&xs, v);
            (above - below) / f1
        })
        .collect();
    let delta = rows.iter().sum::<f64>() / f1;
    let ssr = (f1 * f2 - ties) - f1 * f2 * delta * delta;
    let sr: f64 = rows.iter().map(|d| (d - delta).powi(2)).sum();
    let sc: f64 = cols.iter().map(|d| (d - delta).powi(2)).sum();
    let var = if o.unbiased {
        (f2 * f2 * sr + f1 * f1 * sc - ssr) / (f1 * f2 * (f1 - 1.0) * (f2 - 1.0))
    } else {
        let (si, sj, sij) = (sr / (f1 - 1.0), sc / (f2 - 1.0), ssr / ((f1 - 1.0) * (f2 - 1.0)));
        ((f2 - 1.0) * si + (f1 - 1.0) * sj + sij) / (f1 * f2)
    };
    let var = var.max(0.0);
    let a = 1.0 - (1.0 - o.confidence) / 2.0;
    let z = if o.normal { Normal::standard().inverse_cdf(a) } else { StudentsT::new(0.0, 1.0, f1 + f2 - 2.0).ok()?.inverse_cdf(a) };
    let extreme = delta.abs() == 1.0;
    let d = if extreme { delta * (f1 * f2 - 1.0) / (f1 * f2) } else { delta };
    let root = z * var.sqrt() * ((1.0 - d * d).powi(2) + z * z * var).sqrt();
    let denom = 1.0 - d * d + z * z * var;
    let (mut lo, mut hi) = ((d - d.powi(3) - root) / denom, (d - d.powi(3) + root) / denom);
    if extreme {
        if delta > 0.0 { hi = 1.0 } else { lo = -1.0 }
    }
    Some(CliffsDelta { delta, ci_low: lo, ci_high: hi, magnitude: magnitude(delta) })
}

/// Hodges–Lehmann shift: the median of all pairwise differences x_i − y_j. `None` when the
/// samples are empty or the pairs exceed `max_pairs` (the caller then reports it as skipped).
pub fn hodges_lehmann(x: &[f64], y: &[f64], max_pairs: usize) -> Option<f64> {
    if x.is_empty() || y.is_empty() || x.len().saturating_mul(y.len()) > max_pairs {
        return None;
    }
    let diffs: Vec<f64> = x.iter().flat_map(|a| y.iter().map(move |b| a - b)).collect();
    super::quantile::quantile_unsorted(&diffs, 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    // effsize tests/testCliff.Rout.save.
    #[test]
    fn effsize_consistent_normal() {
        let treatment = [10.0, 10.0, 20.0, 20.0, 20.0, 30.0, 30.0, 30.0, 40.0, 50.0];
        let control = [10.0, 20.0, 30.0, 40.0, 40.0, 50.0];
        let d = cliffs_delta(&treatment, &control, CliffOptions { unbiased: false, normal: true, confidence: 0.95 }).unwrap();
        assert!((d.delta - -0.25).abs() < 1e-12);
        assert!((d.ci_low - -0.7125351).abs() < 1e-6 && (d.ci_high - 0.3639999).abs() < 1e-6, "{d:?}");
        assert_eq!(d.magnitude, "small");
    }

    #[test]
    fn effsize_unbiased_student_t() {
        let x1 = [10.0, 20.0, 20.0, 20.0, 30.0, 30.0, 30.0, 40.0, 50.0, 100.0];
        let x2 = [10.0, 20.0, 30.0, 40.0, 40.0, 50.0];
        let d = cliffs_delta(&x1, &x2, CliffOptions { unbiased: true, normal: false, confidence: 0.95 }).unwrap();
        assert!((d.delta - -0.06666667).abs() < 1e-7);
        assert!((d.ci_low - -0.6082254).abs() < 1e-6 && (d.ci_high - 0.5172431).abs() < 1e-6, "{d:?}");
        assert_eq!(d.magnitude, "negligible");
    }

    #[test]
    fn complete_separation() {
        let d = cliffs_delta(&[5.0, 6.0, 7.0], &[1.0, 2.0, 3.0], CliffOptions { unbiased: true, normal: false, confidence: 0.95 }).unwrap();
        assert_eq!(d.delta, 1.0);
        assert_eq!(d.ci_high, 1.0);
        assert!(d.ci_low < 1.0);
    }

    #[test]
    fn hodges_lehmann_reference() {
        assert_eq!(hodges_lehmann(&[1.0, 2.0, 3.0], &[0.0, 0.5], 100), Some(1.75));
        assert_eq!(hodges_lehmann(&[1.0; 20], &[0.0; 20], 100), None);
    }
}
