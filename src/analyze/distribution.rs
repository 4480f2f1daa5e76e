//! A compact picture of a metric's distribution in the steady window: quantiles on a fixed
//! grid (for the CDF chart) and a log-spaced histogram. Built from the already sorted values.

use serde::{Deserialize, Serialize};

use crate::stats::quantile::quantile_sorted;

/// Probabilities of the quantile grid: dense in the tails, where latency questions live.
const GRID: [f64; 27] = [
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.975, 0.99, 0.995,
    0.999,
];
const BINS: usize = 40;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Distribution {
    /// `[p, value]` pairs (type-7 quantiles), p ascending.
    pub quantiles: Vec<[f64; 2]>,
    pub min: f64,
    pub max: f64,
    /// Population standard deviation (descriptive: no interval).
    pub std: f64,
    /// Log-spaced bin edges (`BINS + 1` of them) and counts per bin.
    pub edges: Vec<f64>,
    pub counts: Vec<u64>,
}

/// The distribution of ascending, finite `sorted` values; None when empty.
pub fn distribution(sorted: &[f64]) -> Option<Distribution> {
    let (&min, &max) = (sorted.first()?, sorted.last()?);
    let quantiles = GRID.iter().filter_map(|&p| quantile_sorted(sorted, p).map(|q| [p, q])).collect();
    // Log bins need a positive floor: the smallest positive value.
    let lo = sorted.iter().copied().find(|v| *v > 0.0).unwrap_or(1e-9);
    let hi = max.max(lo * 1.0001);
    let (a, b) = (lo.ln(), hi.ln());
    let edges: Vec<f64> = (0..=BINS).map(|i| (a + (b - a) * i as f64 / BINS as f64).exp()).collect();
    let bin = |v: f64| -> usize { if v <= lo { 0 } else { ((((v.ln() - a) / (b - a)) * BINS as f64) as usize).min(BINS - 1) } };
    // `bin` never decreases along the sorted values, so each bin's end is found by bisection:
    // 40 × log n logarithms instead of one per value (10 million on a large run).
    let mut counts = vec![0u64; BINS];
    let mut start = 0;
    for (i, count) in counts.iter_mut().enumerate() {
        let end = start + sorted[start..].partition_point(|&v| bin(v) <= i);
        *count = (end - start) as u64;
        start = end;
    }
    let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
    let std = (sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / sorted.len() as f64).sqrt();
    Some(Distribution { quantiles, min, max, std, edges, counts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_value_once() {
        let v: Vec<f64> = (1..=1000).map(f64::from).collect();
        let d = distribution(&v).unwrap();
        assert_eq!(d.counts.iter().sum::<u64>(), 1000);
        assert_eq!(d.quantiles.iter().find(|q| q[0] == 0.5).unwrap()[1], 500.5);
        assert!(distribution(&[]).is_none());
    }
}
