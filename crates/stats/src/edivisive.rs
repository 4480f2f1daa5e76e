//! E-divisive means (Matteson & James 2014, `ecp::e.divisive`) with its permutation test, for
//! change points in a short univariate series such as one estimate per nightly run.
//!
//! Variant: distance exponent α = 1; each candidate split compares the values before τ with
//! those from τ to an end κ, and both τ and κ are searched (as Matteson and James, and Apache
//! Otava, do), so a step that is undone later (a regression, then its fix) is found at both
//! ends; the best split over all current segments is kept when a permutation test (values
//! shuffled within each segment, the statistic maximised again) gives
//! p = (#{permuted ≥ observed} + 1) / (R + 1) at most the significance level. Apache Otava
//! replaces the permutations with a t-test; the permutation test needs no normality and its
//! p-value is exact for exchangeable data. Each end κ costs O(n log n) (Fenwick trees over
//! ranks); a long segment searches a grid of `GRID_ENDS` ends.

use rand::seq::SliceRandom;
use rayon::prelude::*;

use super::resample::resample_rng;

/// Settings of the search and of its permutation test.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct EDivisiveOptions {
    /// A split is kept when its permutation p-value is at most this.
    pub significance: f64,
    /// Permutations per test (R).
    pub permutations: usize,
    /// Fewest values on either side of a split.
    pub min_size: usize,
    /// Seed of the permutations; test `k` draws from stream (seed, k, r).
    pub seed: u64,
}

/// One change point: `index` is the first value after the change.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct ChangePoint {
    pub index: usize,
    /// The scaled energy statistic Q̂ of the split.
    pub statistic: f64,
    /// Permutation p-value of the split when it was found.
    pub p_value: f64,
}

/// Change points of `x`, in index order. Values must be finite.
pub fn e_divisive(x: &[f64], o: &EDivisiveOptions) -> Vec<ChangePoint> {
    let min_size = o.min_size.max(1);
    let mut bounds = vec![0, x.len()];
    let mut found = Vec::new();
    for test in 0u64.. {
        let segments: Vec<(usize, usize)> = bounds.windows(2).map(|w| (w[0], w[1])).collect();
        let Some((tau, q)) = best_split_of_segments(x, &segments, min_size) else { break };
        let Some(p_value) = permutation_p(x, &segments, q, test, o, min_size) else { break };
        found.push(ChangePoint { index: tau, statistic: q, p_value });
        let at = bounds.partition_point(|&b| b < tau);
        bounds.insert(at, tau);
    }
    found.sort_by_key(|c| c.index);
    found
}

/// Permutations run in chunks, so that a test whose p-value already exceeds the significance
/// level stops early (the chunks are fixed, so the answer does not depend on the thread count).
const CHUNK: usize = 64;

/// The permutation p-value of a split with statistic `q`, or None once it must exceed the
/// significance level.
fn permutation_p(x: &[f64], segments: &[(usize, usize)], q: f64, test: u64, o: &EDivisiveOptions, min_size: usize) -> Option<f64> {
    let allowed = o.significance * (o.permutations + 1) as f64;
    let mut exceed = 0;
    for start in (0..o.permutations).step_by(CHUNK) {
        exceed += (start..(start + CHUNK).min(o.permutations))
            .into_par_iter()
            .filter(|&r| {
                let mut rng = resample_rng(o.seed, test, r as u64);
                let mut permuted = x.to_vec();
                for &(a, b) in segments {
                    permuted[a..b].shuffle(&mut rng);
                }
                best_split_of_segments(&permuted, segments, min_size).is_some_and(|(_, qp)| qp >= q)
            })
            .count();
        if (exceed + 1) as f64 > allowed {
            return None;
        }
    }
    Some((exceed + 1) as f64 / (o.permutations + 1) as f64)
}

/// The best split over all segments: its absolute index and statistic.
fn best_split_of_segments(x: &[f64], segments: &[(usize, usize)], min_size: usize) -> Option<(usize, f64)> {
    segments
        .iter()
        .filter_map(|&(a, b)| best_split(&x[a..b], min_size).map(|(t, q)| (a + t, q)))
        .fold(None, |best: Option<(usize, f64)>, c| if best.is_none_or(|b| c.1 > b.1) { Some(c) } else { best })
}

/// A segment with at most this many possible right-sample ends κ searches them all (a series of
/// up to 69 runs at the default three runs per segment); a longer one searches `GRID_ENDS` of
/// them, evenly spaced and its own end among them, so that one statistic costs
/// O(GRID_ENDS · n log n) and a 1,000-run history stays within seconds.
const EXHAUSTIVE_ENDS: usize = 64;
const GRID_ENDS: usize = 24;

/// The split τ of `x` that maximises, over τ and the right sample's end κ
/// (min_size ≤ τ, τ + min_size ≤ κ ≤ n),
/// Q̂(τ, κ) = m·k/(m+k) · (2/(m·k)·Σ|xᵢ − yⱼ| − 2/(m(m−1))·Σ|xᵢ − xᵢ'| − 2/(k(k−1))·Σ|yⱼ − yⱼ'|),
/// with X = x[..τ] (m values) and Y = x[τ..κ] (k values), as Matteson and James (and Apache
/// Otava) search it: a step that is later undone leaves Y a mixture when κ is fixed at the end.
/// `None` when no split fits.
pub fn best_split(x: &[f64], min_size: usize) -> Option<(usize, f64)> {
    let n = x.len();
    let min_size = min_size.max(2);
    if n < 2 * min_size {
        return None;
    }
    let left = prefix_within_sums(x);
    let mut best: Option<(usize, f64)> = None;
    for kappa in right_ends(n, min_size) {
        let reversed: Vec<f64> = x[..kappa].iter().rev().copied().collect();
        let right_rev = prefix_within_sums(&reversed);
        for tau in min_size..=kappa - min_size {
            let (m, k) = (tau as f64, (kappa - tau) as f64);
            let (a, b) = (left[tau], right_rev[kappa - tau]);
            let cross = left[kappa] - a - b;
            let e = 2.0 * cross / (m * k) - 2.0 * a / (m * (m - 1.0)) - 2.0 * b / (k * (k - 1.0));
            let q = m * k / (m + k) * e;
            if best.is_none_or(|(_, bq)| q > bq) {
                best = Some((tau, q));
            }
        }
    }
    best
}

/// The right-sample ends searched in a segment of `n` values: every one from 2·min_size to n,
/// or `GRID_ENDS` of them evenly spaced (n always among them) in a long segment.
fn right_ends(n: usize, min_size: usize) -> Vec<usize> {
    let first = 2 * min_size;
    let count = n + 1 - first;
    if count <= EXHAUSTIVE_ENDS {
        return (first..=n).collect();
    }
    let mut ends: Vec<usize> = (0..GRID_ENDS).map(|i| first + i * (count - 1) / (GRID_ENDS - 1)).collect();
    ends.dedup();
    ends
}

/// `s[t]` = Σ_{i<j<t} |xᵢ − xⱼ| for t = 0..=n, from prefix counts and sums over ranks.
fn prefix_within_sums(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
    let mut rank = vec![0; n];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let (mut count, mut sum) = (Fenwick::new(n), Fenwick::new(n));
    let mut out = Vec::with_capacity(n + 1);
    out.push(0.0);
    let (mut acc, mut inserted_sum) = (0.0, 0.0);
    for (t, &v) in x.iter().enumerate() {
        // Values inserted so far with a lower rank lie at or below v; the rest at or above it.
        let (below_n, below_sum) = (count.prefix(rank[t]), sum.prefix(rank[t]));
        let (above_n, above_sum) = (t as f64 - below_n, inserted_sum - below_sum);
        acc += below_n * v - below_sum + above_sum - above_n * v;
        out.push(acc);
        count.add(rank[t], 1.0);
        sum.add(rank[t], v);
        inserted_sum += v;
    }
    out
}

/// A Fenwick (binary indexed) tree of prefix sums over ranks 0..n.
struct Fenwick(Vec<f64>);

impl Fenwick {
    fn new(n: usize) -> Fenwick {
        Fenwick(vec![0.0; n + 1])
    }

    fn add(&mut self, rank: usize, v: f64) {
        let mut i = rank + 1;
        while i < self.0.len() {
            self.0[i] += v;
            i += i & i.wrapping_neg();
        }
    }

    /// Sum over ranks `0..rank`.
    fn prefix(&self, rank: usize) -> f64 {
        let (mut i, mut s) = (rank, 0.0);
        while i > 0 {
            s += self.0[i];
            i -= i & i.wrapping_neg();
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statistic by its definition, O(n²), to pin the fast version.
    fn q_direct(x: &[f64], tau: usize) -> f64 {
        let (l, r) = x.split_at(tau);
        let (m, k) = (l.len() as f64, r.len() as f64);
        let pairs = |v: &[f64]| -> f64 { (0..v.len()).flat_map(|i| (i + 1..v.len()).map(move |j| (v[i] - v[j]).abs())).sum() };
        let cross: f64 = l.iter().flat_map(|a| r.iter().map(move |b| (a - b).abs())).sum();
        m * k / (m + k) * (2.0 * cross / (m * k) - 2.0 * pairs(l) / (m * (m - 1.0)) - 2.0 * pairs(r) / (k * (k - 1.0)))
    }

    #[test]
    fn fast_statistic_matches_the_definition() {
        let x = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0, 8.0, 9.0, 7.0, 9.0, 2.0, 1.0, 3.0];
        let (tau, q) = best_split(&x, 2).unwrap();
        // Every split τ and every end κ of the right sample.
        let direct = (4..=x.len())
            .flat_map(|kappa| (2..=kappa - 2).map(move |t| (t, kappa)))
            .map(|(t, kappa)| (t, q_direct(&x[..kappa], t)))
            .fold((0, f64::MIN), |b, c| if c.1 > b.1 { c } else { b });
        assert_eq!(tau, direct.0);
        assert!((q - direct.1).abs() < 1e-9, "{q} vs {}", direct.1);
    }

    fn noise(n: usize, seed: u64) -> Vec<f64> {
        use rand::Rng;
        let mut rng = resample_rng(seed, 99, 0);
        (0..n).map(|_| (0..12).map(|_| rng.random::<f64>()).sum::<f64>() - 6.0).collect()
    }

    #[test]
    fn finds_a_step_and_nothing_in_noise() {
        let o = EDivisiveOptions { significance: 0.01, permutations: 199, min_size: 3, seed: 7 };
        let mut x = noise(30, 1);
        for v in &mut x[20..] {
            *v += 4.0;
        }
        let cps = e_divisive(&x, &o);
        assert_eq!(cps.len(), 1, "{cps:?}");
        assert_eq!(cps[0].index, 20);
        assert!(cps[0].p_value <= 0.01);
        assert!(e_divisive(&noise(30, 2), &o).is_empty());
        // Deterministic for a seed.
        assert_eq!(e_divisive(&x, &o), cps);
    }

    #[test]
    fn finds_two_steps() {
        let o = EDivisiveOptions { significance: 0.01, permutations: 199, min_size: 3, seed: 7 };
        let mut x = noise(45, 3);
        for (i, v) in x.iter_mut().enumerate() {
            *v += if i >= 30 {
                8.0
            } else if i >= 15 {
                4.0
            } else {
                0.0
            };
        }
        let idx: Vec<usize> = e_divisive(&x, &o).iter().map(|c| c.index).collect();
        assert_eq!(idx, vec![15, 30]);
    }

    #[test]
    fn finds_a_large_bump() {
        let o = EDivisiveOptions { significance: 0.01, permutations: 199, min_size: 3, seed: 7 };
        let mut x = noise(45, 3);
        for v in &mut x[15..30] {
            *v += 8.0;
        }
        let idx: Vec<usize> = e_divisive(&x, &o).iter().map(|c| c.index).collect();
        assert_eq!(idx, vec![15, 30]);
    }

    /// A regression fixed ten runs later (+2.5 noise SD from run 10 to run 19): the right
    /// sample running to the segment's end sees a mixture and misses it; searching its end κ
    /// finds both the regression and its fix.
    #[test]
    fn finds_a_step_that_is_undone() {
        let o = EDivisiveOptions { significance: 0.01, permutations: 199, min_size: 3, seed: 7 };
        let mut x = noise(30, 4);
        for v in &mut x[10..20] {
            *v += 2.5;
        }
        let idx: Vec<usize> = e_divisive(&x, &o).iter().map(|c| c.index).collect();
        assert_eq!(idx, vec![10, 20]);
    }

    #[test]
    fn long_segments_search_a_bounded_set_of_ends() {
        assert_eq!(right_ends(30, 3), (6..=30).collect::<Vec<_>>());
        let ends = right_ends(1000, 3);
        assert_eq!(ends.len(), GRID_ENDS);
        assert_eq!((ends[0], *ends.last().unwrap()), (6, 1000));
    }

    #[test]
    fn too_short_series_have_no_split() {
        assert!(best_split(&[1.0, 2.0, 3.0, 4.0, 5.0], 3).is_none());
        assert!(e_divisive(&[], &EDivisiveOptions { significance: 0.05, permutations: 99, min_size: 2, seed: 1 }).is_empty());
    }
}
