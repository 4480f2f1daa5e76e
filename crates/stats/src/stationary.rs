//! The stationary bootstrap (Politis & Romano 1994) over a sequence of groups — e.g. the
//! requests of consecutive time windows — for quantiles and means of the pooled values.
//!
//! A resample is a run of circular blocks of whole groups with geometric lengths (mean `b`),
//! until as many groups as the original were drawn, so dependence within and between nearby
//! groups is kept. Quantiles of a resample are found without touching individual values: the
//! values are ranked once; around each target rank a range of ranks is split into bins; prefix
//! counts per group and bin make each block's contribution O(1), so a resample costs
//! O(blocks · log bins) instead of O(n). Inside a bin the resample's order statistic is read off
//! the original ranks by interpolation; bins are single ranks whenever the range allows, and
//! the range spans ±8 dependent standard errors of the rank, so clamping is rare and counted.
//! Outside the binned ranges only each value's group is counted, so the values there need not
//! be in order, only below or above the range (`rank::PartialRanking`).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::quantile::quantile_sorted;
use super::rank::Ranked;
use super::resample::parallel_resamples;

/// Circular blocks (start group, length) covering `k` groups in total.
pub fn stationary_blocks(k: usize, mean_block: f64, rng: &mut ChaCha8Rng, out: &mut Vec<(usize, usize)>) {
    out.clear();
    if k == 0 {
        return;
    }
    let p = 1.0 / mean_block.max(1.0);
    let log_stay = (1.0 - p).ln();
    let mut left = k;
    while left > 0 {
        let start = rng.random_range(0..k);
        let len = if p >= 1.0 {
            1
        } else {
            let u: f64 = 1.0 - rng.random::<f64>();
            // ln(u)/ln(1-p) >= 0, so the cast's truncation is the floor (without a libm call
            // per block on baseline x86-64, which has no rounding instruction).
            1 + (u.ln() / log_stay) as usize
        };
        let len = len.min(left);
        out.push((start, len));
        left -= len;
    }
}

/// Pooled values by rank, with the group each belongs to (in `0..groups`).
pub struct Grouped<'a, R: Ranked> {
    pub ranked: &'a R,
    pub groups: usize,
}

/// Bootstrap distributions of the requested quantiles (type 7) and of the mean.
pub struct GroupedBootstrap {
    pub quantiles: Vec<Vec<f64>>,
    pub mean: Vec<f64>,
    /// Resample quantiles that fell outside their binned range and were clamped.
    pub clamped: usize,
}

const MAX_BINS: usize = 2048;

/// Binned prefix counts around one target quantile.
struct RankBins {
    /// Rank at each bin edge (len bins + 1); bin i covers ranks [edge[i], edge[i+1]).
    edges: Vec<usize>,
    /// `prefix[j * rows + g]`: values in groups < g with bin index < j, where bin 0 means
    /// "below the range" and bin `bins + 1` "above"; j runs 0..=bins + 2. Bin-major, so the
    /// per-block lookups of one binary-search step stay within one cache-friendly row.
    prefix: Vec<u32>,
    rows: usize,
    /// Values in all groups, to guess where a resample's order statistic falls.
    values: usize,
    /// How many bins a resample's order statistic typically strays from that guess (one
    /// standard error of its rank): the first step of the search around the guess.
    step: usize,
}

impl RankBins {
    fn new(data: &impl Ranked, groups: usize, lo: usize, hi: usize, rank_sd: f64) -> RankBins {
        let span = hi - lo + 1;
        let bins = span.min(MAX_BINS);
        let step = ((rank_sd * bins as f64 / span as f64).round() as usize).clamp(1, bins);
        let edges: Vec<usize> = (0..=bins).map(|i| lo + i * span / bins).collect();
        let stride = bins + 3;
        let mut counts = vec![0u32; groups * stride];
        // Below and above the range (most ranks) in plain counting loops.
        let n = data.len();
        data.for_each_in(0, lo, |_, g| counts[g as usize * stride] += 1);
        data.for_each_in(hi + 1, n, |_, g| counts[g as usize * stride + bins + 1] += 1);
        let mut r = lo;
        data.for_each_in(lo, hi + 1, |_, g| {
            // Invert edges[i] = lo + i·span/bins in O(1), then settle rounding.
            let mut i = ((r - lo) * bins / span).min(bins - 1);
            while i > 0 && edges[i] > r {
                i -= 1;
            }
            while i + 1 < bins && edges[i + 1] <= r {
                i += 1;
            }
            counts[g as usize * stride + 1 + i] += 1;
            r += 1;
        });
        // Cumulative over bins within each group, then over groups.
        let rows = groups + 1;
        let mut prefix = vec![0u32; rows * stride];
        for g in 0..groups {
            let mut running = 0u32;
            for j in 0..stride {
                prefix[j * rows + g + 1] = prefix[j * rows + g] + running;
                if j < stride - 1 {
                    running += counts[g * stride + j];
                }
            }
        }
        RankBins { edges, prefix, rows, values: n, step }
    }

    /// Values with bin index < j in a resample's group ranges.
    fn count_blocks(&self, ranges: &[(u32, u32)], j: usize) -> u64 {
        let row = &self.prefix[j * self.rows..(j + 1) * self.rows];
        ranges.iter().map(|&(a, b)| u64::from(row[b as usize] - row[a as usize])).sum()
    }

    /// The bin of the resample's order statistic `k` (0-based): the smallest j in 1..=bins+2
    /// with count(bin < j) > k. Each count costs a pass over the blocks, so the search first
    /// brackets the answer around where a resample like the original would put it (a resample
    /// of `total` values: rank k·n/total), stepping out by one standard error and doubling;
    /// then it guesses j by interpolating the counts at the ends of its bracket (they grow
    /// nearly linearly across the equal-width bins) and bisects whenever a guess fails to halve
    /// the bracket. Usually three or four passes.
    fn find_bin(&self, ranges: &[(u32, u32)], k: u64, total: u64) -> Bin {
        let bins = self.edges.len() - 1;
        let count = |j: usize| self.count_blocks(ranges, j);
        let Some(((mut a, mut ca), (mut b, mut cb))) = self.bracket(&count, k, total) else {
            return Bin { j: bins + 2, before: 0, through: u64::MAX };
        };
        if a == 0 {
            // Clamped below the binned range.
            return Bin { j: 1, before: 0, through: cb };
        }
        // Invariant: count(a) <= k < count(b); the answer lies in a + 1..=b.
        let mut interpolate = true;
        while b - a > 1 {
            let width = b - a;
            let j = if interpolate {
                let share = (k - ca) as f64 + 0.5;
                a + ((share / (cb - ca) as f64 * width as f64) as usize).clamp(1, width - 1)
            } else {
                a + width / 2
            };
            let c = count(j);
            if c > k {
                (b, cb) = (j, c)
            } else {
                (a, ca) = (j, c)
            }
            interpolate = 2 * (b - a) <= width;
        }
        Bin { j: b, before: ca, through: cb }
    }

    /// Bin indices a < b (with their counts) such that count(a) <= k < count(b), found by
    /// galloping from the guessed bin. `a == 0` when even count(1) exceeds k (the statistic
    /// lies below the range); None when count(bins + 1) does not (above it).
    #[allow(clippy::type_complexity)]
    fn bracket(&self, count: &impl Fn(usize) -> u64, k: u64, total: u64) -> Option<((usize, u64), (usize, u64))> {
        let bins = self.edges.len() - 1;
        let rank = ((k as f64 + 0.5) * self.values as f64 / total as f64) as usize;
        // Bin index of that rank within the range (1-based, as in `prefix`), clipped to 1..=bins+1.
        let guess = self.edges.partition_point(|&e| e <= rank).clamp(1, bins + 1);
        let c = count(guess);
        let mut step = self.step;
        if c <= k {
            let (mut a, mut ca) = (guess, c);
            loop {
                if a == bins + 1 {
                    return None;
                }
                let b = (a + step).min(bins + 1);
                let cb = count(b);
                if cb > k {
                    return Some(((a, ca), (b, cb)));
                }
                (a, ca, step) = (b, cb, step * 2);
            }
        }
        let (mut b, mut cb) = (guess, c);
        loop {
            if b == 1 {
                return Some(((0, 0), (1, cb)));
            }
            let a = b.saturating_sub(step).max(1);
            let ca = count(a);
            if ca <= k {
                return Some(((a, ca), (b, cb)));
            }
            (b, cb, step) = (a, ca, step * 2);
        }
    }

    /// The original rank standing for order statistic `k` of a resample, given its bin, and
    /// whether it had to be clamped to the range.
    fn rank_in_bin(&self, bin: &Bin, k: u64) -> (usize, bool) {
        let bins = self.edges.len() - 1;
        if bin.j == 1 {
            return (self.edges[0], true);
        }
        if bin.j == bins + 2 {
            return (self.edges[bins] - 1, true);
        }
        let in_bin = bin.through - bin.before;
        let (e0, e1) = (self.edges[bin.j - 2], self.edges[bin.j - 1]);
        // Exact for single-rank bins; for wider bins, spread the resample's values evenly.
        let offset = if in_bin > 0 { ((k - bin.before) as usize * (e1 - e0)) / in_bin as usize } else { 0 };
        (e0 + offset.min(e1 - e0 - 1), false)
    }
}

/// Where a resample's order statistic lies: bin index j of `RankBins::find_bin`, and the
/// resample's counts below bin j - 1 and below bin j (so order statistics `before..through`
/// share it).
#[derive(Clone, Copy)]
struct Bin {
    j: usize,
    before: u64,
    through: u64,
}

/// The circular blocks (start, length) over `k` groups as plain ranges [a, b) of groups: a
/// block that wraps past the last group becomes two. Built once per resample, so that each of
/// the several counting passes per percentile is a branch-free sum of prefix differences.
fn group_ranges(blocks: &[(usize, usize)], k: usize) -> Vec<(u32, u32)> {
    let mut ranges = Vec::with_capacity(blocks.len() + 1);
    for &(s, l) in blocks {
        let e = s + l;
        if e <= k {
            ranges.push((s as u32, e as u32));
        } else {
            ranges.extend([(s as u32, k as u32), (0, (e - k) as u32)]);
        }
    }
    ranges
}

/// Sums `pre` (a prefix sum over `k` groups) over the circular block of `l` groups from `s`.
fn circular_range<T: Copy + std::ops::Add<Output = T> + std::ops::Sub<Output = T>>(pre: &[T], k: usize, s: usize, l: usize) -> T {
    let e = s + l;
    if e <= k { pre[e] - pre[s] } else { pre[k] - pre[s] + pre[e - k] }
}

/// The ranks `lo..=hi` binned around quantile `p` of `n` values: `±rank_halfwidth` (and a
/// margin for interpolation), clipped to the data. Only these ranks' order is read.
pub fn binned_rank_range(n: usize, p: f64, rank_halfwidth: f64) -> (usize, usize) {
    let c = p * (n - 1) as f64;
    let lo = (c - rank_halfwidth - 2.0).floor().max(0.0) as usize;
    let hi = ((c + rank_halfwidth + 2.0).ceil() as usize).min(n - 1);
    (lo, hi)
}

/// Binned rank counts around each target quantile, its range `±rank_halfwidth` clipped to the data.
fn quantile_bins<R: Ranked>(data: &Grouped<'_, R>, ps: &[f64], rank_halfwidth: &[f64]) -> Vec<RankBins> {
    let n = data.ranked.len();
    ps.iter()
        .zip(rank_halfwidth)
        .map(|(&p, &h)| {
            let (lo, hi) = binned_rank_range(n, p, h);
            // The half-width spans about ±8 standard errors of the rank (`grouped_bootstrap`).
            RankBins::new(data.ranked, data.groups, lo, hi, h / 8.0)
        })
        .collect()
}

/// Prefix sums and counts of the values per group, so a block's sum and size are O(1).
struct GroupPrefix {
    sum: Vec<f64>,
    n: Vec<u64>,
}

impl GroupPrefix {
    /// Accumulates per-group totals in rank order, then cumulates them over groups.
    fn new<R: Ranked>(data: &Grouped<'_, R>) -> GroupPrefix {
        let mut sum = vec![0.0; data.groups + 1];
        let mut n = vec![0u64; data.groups + 1];
        data.ranked.for_each_in(0, data.ranked.len(), |v, g| {
            sum[g as usize + 1] += v;
            n[g as usize + 1] += 1;
        });
        for g in 0..data.groups {
            sum[g + 1] += sum[g];
            n[g + 1] += n[g];
        }
        GroupPrefix { sum, n }
    }
}

/// What one resample of `grouped_bootstrap` reads; shared by all resampling threads.
struct GroupedResampler<'a, R: Ranked> {
    ranked: &'a R,
    ps: &'a [f64],
    bins: Vec<RankBins>,
    prefix: GroupPrefix,
    groups: usize,
    mean_block: f64,
    /// Counts resample quantiles clamped to their binned range.
    clamped: std::sync::atomic::AtomicUsize,
}

impl<R: Ranked> GroupedResampler<'_, R> {
    /// Draws one resample's blocks and pushes its quantiles, then its mean (NaNs if it is empty).
    fn resample(&self, rng: &mut ChaCha8Rng, out: &mut Vec<f64>) {
        let k = self.groups;
        let mut blocks = Vec::new();
        stationary_blocks(k, self.mean_block, rng, &mut blocks);
        let total: u64 = blocks.iter().map(|&(s, l)| circular_range(&self.prefix.n, k, s, l)).sum();
        if total == 0 {
            out.extend(std::iter::repeat_n(f64::NAN, self.ps.len() + 1));
            return;
        }
        let ranges = group_ranges(&blocks, k);
        for (b, &p) in self.bins.iter().zip(self.ps) {
            out.push(self.quantile(b, p, &ranges, total));
        }
        let sum: f64 = blocks.iter().map(|&(s, l)| circular_range(&self.prefix.sum, k, s, l)).sum();
        out.push(sum / total as f64);
    }

    /// The type-7 quantile `p` of a resample of `total` values, read off the original ranks.
    fn quantile(&self, b: &RankBins, p: f64, ranges: &[(u32, u32)], total: u64) -> f64 {
        let h = p * (total - 1) as f64;
        let k0 = h as u64; // h >= 0: truncation is the floor
        let bin0 = b.find_bin(ranges, k0, total);
        let (r0, c0) = b.rank_in_bin(&bin0, k0);
        let value = if k0 + 1 < total && h > k0 as f64 {
            // The next order statistic nearly always shares the bin: no second bisection.
            let bin1 = if k0 + 1 < bin0.through { bin0 } else { b.find_bin(ranges, k0 + 1, total) };
            let (r1, c1) = b.rank_in_bin(&bin1, k0 + 1);
            if c1 {
                self.clamped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            let (v0, v1) = (self.value_at(r0), self.value_at(r1));
            // Equal neighbours give their value: two right-censored values ranked at +infinity
            // would otherwise give NaN (a censored resample quantile is +infinity).
            if v1 == v0 { v0 } else { v0 + (h - k0 as f64) * (v1 - v0) }
        } else {
            self.value_at(r0)
        };
        if c0 {
            self.clamped.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        value
    }

    /// The original value at rank `r`, clipped to the data.
    fn value_at(&self, r: usize) -> f64 {
        self.ranked.value_at(r.min(self.ranked.len() - 1))
    }
}

/// Runs the stationary bootstrap over groups. `rank_halfwidth[i]` bounds how far (in ranks)
/// the resample quantile `ps[i]` can plausibly move (about 8 standard errors of its rank; a
/// search step is taken from it, so a poor guess costs time, never a different result); ranges
/// are clipped to the data.
pub fn grouped_bootstrap<R: Ranked>(
    data: &Grouped<'_, R>,
    ps: &[f64],
    rank_halfwidth: &[f64],
    mean_block: f64,
    resamples: usize,
    seed: u64,
    id: u64,
) -> Option<GroupedBootstrap> {
    let n = data.ranked.len();
    // Group ranges are u32, as the groups of the ranks are.
    if n < 2 || data.groups == 0 || data.groups > u32::MAX as usize {
        return None;
    }
    let resampler = GroupedResampler {
        ranked: data.ranked,
        ps,
        bins: quantile_bins(data, ps, rank_halfwidth),
        prefix: GroupPrefix::new(data),
        groups: data.groups,
        mean_block,
        clamped: std::sync::atomic::AtomicUsize::new(0),
    };
    let mut dists = parallel_resamples(resamples, seed, id, ps.len() + 1, |rng, out| resampler.resample(rng, out));
    let mean = dists.pop()?;
    Some(GroupedBootstrap { quantiles: dists, mean, clamped: resampler.clamped.into_inner() })
}

/// The stationary bootstrap of the mean of a series (e.g. per-window counts).
pub fn series_mean_bootstrap(x: &[f64], mean_block: f64, resamples: usize, seed: u64, id: u64) -> Vec<f64> {
    let k = x.len();
    let mut pre = vec![0.0; k + 1];
    for (i, v) in x.iter().enumerate() {
        pre[i + 1] = pre[i] + v;
    }
    parallel_resamples(resamples, seed, id, 1, |rng, out| {
        let mut blocks = Vec::new();
        stationary_blocks(k, mean_block, rng, &mut blocks);
        let sum: f64 = blocks.iter().map(|&(s, l)| circular_range(&pre, k, s, l)).sum();
        out.push(sum / k as f64);
    })
    .remove(0)
}

/// Type-7 quantile of a bootstrap distribution ignoring NaNs (empty resamples).
pub fn finite_sorted(dist: &[f64]) -> Vec<f64> {
    let mut d: Vec<f64> = dist.iter().copied().filter(|x| x.is_finite()).collect();
    d.sort_unstable_by(f64::total_cmp);
    d
}

/// Convenience: the percentile interval of a distribution with NaNs dropped.
pub fn percentile_of(dist: &[f64], cl: f64) -> Option<(f64, f64)> {
    let d = finite_sorted(dist);
    let a = (1.0 - cl) / 2.0;
    Some((quantile_sorted(&d, a)?, quantile_sorted(&d, 1.0 - a)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::SortedGroups;
    use crate::resample::resample_rng;

    #[test]
    fn blocks_cover_exactly_k_groups() {
        let mut rng = resample_rng(1, 2, 3);
        let mut blocks = Vec::new();
        for b in [1.0, 2.5, 10.0, 1000.0] {
            stationary_blocks(37, b, &mut rng, &mut blocks);
            assert_eq!(blocks.iter().map(|x| x.1).sum::<usize>(), 37);
            assert!(blocks.iter().all(|&(s, l)| s < 37 && l >= 1));
        }
    }

    /// With one value per group and block length 1, the binned quantile of every resample
    /// must equal the brute-force type-7 quantile of the same resample.
    #[test]
    fn binned_quantiles_equal_brute_force() {
        let values: Vec<f64> = (0..400).map(|i| ((i * 7919) % 1009) as f64 / 10.0).collect();
        let mut pairs: Vec<(f64, u32)> = values.iter().enumerate().map(|(i, v)| (*v, (i / 4) as u32)).collect();
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let sorted: Vec<f64> = pairs.iter().map(|p| p.0).collect();
        let group_of_rank: Vec<u32> = pairs.iter().map(|p| p.1).collect();
        let data = Grouped { ranked: &SortedGroups { sorted: &sorted, group_of_rank: &group_of_rank }, groups: 100 };
        let ps = [0.5, 0.9, 0.99];
        // A wide range (the search's first step spans it) and a narrow one (it gallops).
        for half in [1e9, 120.0] {
            brute_force_matches(&values, &grouped_bootstrap(&data, &ps, &[half; 3], 1.0, 64, 5, 6).unwrap(), &ps);
        }
    }

    fn brute_force_matches(values: &[f64], boot: &GroupedBootstrap, ps: &[f64]) {
        assert_eq!(boot.clamped, 0);
        for r in 0..64 {
            let mut rng = resample_rng(5, 6, r as u64);
            let mut blocks = Vec::new();
            stationary_blocks(100, 1.0, &mut rng, &mut blocks);
            let mut pooled: Vec<f64> = blocks.iter().flat_map(|&(s, l)| (s..s + l).flat_map(|g| values[(g % 100) * 4..(g % 100) * 4 + 4].to_vec())).collect();
            pooled.sort_by(f64::total_cmp);
            for (i, &p) in ps.iter().enumerate() {
                let expect = quantile_sorted(&pooled, p).unwrap();
                assert!((boot.quantiles[i][r] - expect).abs() < 1e-9, "resample {r}, p {p}");
            }
            let mean = pooled.iter().sum::<f64>() / pooled.len() as f64;
            assert!((boot.mean[r] - mean).abs() < 1e-9);
        }
    }
}
