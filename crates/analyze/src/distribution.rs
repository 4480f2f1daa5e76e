//! A compact picture of a metric's distribution in the steady window: quantiles on a fixed
//! grid (for the CDF chart) and a log-spaced histogram. Built from the already sorted values.

use serde::{Deserialize, Serialize};

use credence_stats::quantile::quantile_sorted;

/// Probabilities of the quantile grid: dense in the tails, where latency questions live.
pub const QUANTILE_GRID: [f64; 27] = [
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

/// The distribution of finite values by rank: `ranked` is ascending when `fully_sorted`, else
/// exact at the minimum, the maximum and the grid's quantile ranks (`rank::PartialRanking`) and
/// only partitioned elsewhere; `std` is the population standard deviation, computed by the
/// caller in time order. None when empty.
pub fn distribution(ranked: &[f64], fully_sorted: bool, std: f64) -> Option<Distribution> {
    let (&min, &max) = (ranked.first()?, ranked.last()?);
    let quantiles = QUANTILE_GRID.iter().filter_map(|&p| quantile_sorted(ranked, p).map(|q| [p, q])).collect();
    // Log bins need a positive floor: the smallest positive value.
    let mut positive = ranked.iter().copied().filter(|v| *v > 0.0);
    let lo = if fully_sorted { positive.next() } else { positive.reduce(f64::min) }.unwrap_or(1e-9);
    let hi = max.max(lo * 1.0001);
    let (a, b) = (lo.ln(), hi.ln());
    let edges: Vec<f64> = (0..=BINS).map(|i| (a + (b - a) * i as f64 / BINS as f64).exp()).collect();
    let bin = |v: f64| -> usize { if v <= lo { 0 } else { ((((v.ln() - a) / (b - a)) * BINS as f64) as usize).min(BINS - 1) } };
    let mut counts = vec![0u64; BINS];
    if fully_sorted {
        // `bin` never decreases along sorted values, so each bin's end is found by bisection:
        // 40 × log n logarithms instead of one per value.
        let mut start = 0;
        for (i, count) in counts.iter_mut().enumerate() {
            let end = start + ranked[start..].partition_point(|&v| bin(v) <= i);
            *count = (end - start) as u64;
            start = end;
        }
    } else {
        let starts = bin_starts(lo, hi, bin);
        ranked.iter().for_each(|&v| counts[starts.partition_point(|s| *s <= v)] += 1);
    }
    Some(Distribution { quantiles, min, max, std, edges, counts })
}

/// The smallest value at which `bin` reaches each of bins 1..BINS (infinity where it never
/// does), by bisection over the positive floats in `lo..=hi`, whose bit patterns are ordered
/// like the values. `bin` never decreases, so a value's bin is the number of starts at or
/// below it: counting unsorted values takes a search among 39 floats, not a logarithm each.
fn bin_starts(lo: f64, hi: f64, bin: impl Fn(f64) -> usize) -> Vec<f64> {
    (1..BINS)
        .map(|i| {
            let (mut a, mut b) = (lo.to_bits(), hi.to_bits() + 1);
            while a < b {
                let mid = a + (b - a) / 2;
                if bin(f64::from_bits(mid)) >= i { b = mid } else { a = mid + 1 }
            }
            if a > hi.to_bits() { f64::INFINITY } else { f64::from_bits(a) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_value_once() {
        let v: Vec<f64> = (1..=1000).map(f64::from).collect();
        let d = distribution(&v, true, 1.0).unwrap();
        assert_eq!(d.counts.iter().sum::<u64>(), 1000);
        assert_eq!(d.quantiles.iter().find(|q| q[0] == 0.5).unwrap()[1], 500.5);
        assert!(distribution(&[], true, 0.0).is_none());
        // Partitioned only (exact at the ends): the same bins and counts, here and on values
        // spread over many decades with exact powers of two and bin edges among them.
        let mut w: Vec<f64> = (0..20_000).map(|i| (i as f64 * 0.618_034 % 1.0 * 30.0 - 12.0).exp2()).collect();
        w.extend(d.edges.iter().copied().chain([0.0, -1.0]));
        w.sort_by(f64::total_cmp);
        let sorted = distribution(&w, true, 1.0).unwrap();
        let end = w.len() - 1;
        let (first, last) = (w[0], w[end]);
        w[1..end].reverse();
        assert_eq!((w[0], w[end]), (first, last));
        assert_eq!(distribution(&w, false, 1.0).unwrap().counts, sorted.counts);
        let mut p = v.clone();
        p[1..999].reverse();
        let q = distribution(&p, false, 1.0).unwrap();
        assert_eq!((q.edges.clone(), q.counts.clone(), q.min, q.max), (d.edges, d.counts, d.min, d.max));
    }
}
