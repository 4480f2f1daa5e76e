//! Quantiles of right-censored data: the Kaplan–Meier (product-limit) estimator expressed as
//! a map between the ranks of the whole sample and those of its observed values.
//!
//! A sample holds `n` values: `observed` exact ones and some right-censored ones, each known
//! only to exceed its censoring time `c`. Sorted with events before censorings at ties (Efron's
//! redistribute-to-the-right), the product-limit survival after the `j`-th of a stretch of
//! events that starts with `N` values at risk and survival `S` is `S·(N − j)/N`. An observed
//! value `x_k` then sits at the *product-limit rank* `r_k = n·F̂(x_k) − 1`, where `F̂ = 1 − Ŝ`.
//! With no censoring below `x_k` this is exactly `k`, so a type-7 quantile read at
//! `h = (n − 1)·p` through this map is the ordinary type-7 quantile of the sample with every
//! censored value ranked above every observed one (the usual case: one client timeout above
//! every latency it let through). A censoring time below some observed values moves their
//! ranks up: its mass goes to the values to its right.
//!
//! - `locate(h)`: the two observed ranks and the fraction a type-7 quantile interpolates
//!   between; `None` when `h` lies beyond the last observed value, in the mass the censored
//!   values carry: the quantile is then only known to exceed the censoring level.
//! - `inflation(k)`: the Greenwood variance of `F̂(x_k)` over the binomial one, `F(1 − F)/n`
//!   (1 with no censoring below `x_k`); the order-statistic interval runs at `n / inflation`.
//! - `union_value(r)`: the order statistic `r` of the sample with each censored value at its
//!   censoring time. A censoring time is below the value it hides, so this is below the
//!   uncensored order statistic: a valid (conservative) lower confidence bound whatever the
//!   censoring.
//!
//! Reference: Kaplan & Meier (1958); Efron (1967) for the redistribution; Greenwood (1926).
//! Cost: `O(m log m + n log m)` to build for `m` censored values (`O(n)` when every censoring
//! time is at or above every observed value); each look-up `O(log n · log s)` for `s`
//! stretches of observed values between censoring times.

/// A run of observed values (by rank) with no censoring time between them.
#[derive(Debug, Clone, Copy)]
struct Stretch {
    /// Observed rank of the stretch's first value.
    first: usize,
    len: usize,
    /// Censored values below the stretch.
    censored_before: usize,
    /// Values at risk when the stretch starts.
    at_risk: f64,
    /// Product-limit survival when the stretch starts.
    survival: f64,
    /// Greenwood's sum `Σ d/(N(N − d))` when the stretch starts.
    greenwood: f64,
}

/// The product-limit map of one sample (see the module docs).
#[derive(Debug, Clone)]
pub struct ProductLimit {
    n: usize,
    observed: usize,
    /// Censoring times, ascending.
    censoring: Vec<f64>,
    stretches: Vec<Stretch>,
}

impl ProductLimit {
    /// A sample of `observed` values none of which is censored: the identity map.
    pub fn uncensored(observed: usize) -> ProductLimit {
        ProductLimit::with_counts(observed, Vec::new(), &[observed])
    }

    /// The map of a sample whose observed values are `observed` (any order, finite) and whose
    /// censored values have the censoring times `censoring` (any order, finite).
    pub fn new(observed: impl Iterator<Item = f64> + Clone, mut censoring: Vec<f64>) -> ProductLimit {
        censoring.sort_unstable_by(f64::total_cmp);
        let max = observed.clone().fold(f64::NEG_INFINITY, f64::max);
        let count = observed.clone().count();
        if censoring.first().is_none_or(|c| *c >= max) {
            // Every censoring time at or above every observed value: one stretch, no search.
            return ProductLimit::with_counts(count, censoring, &[count]);
        }
        // Events per gap between censoring times: gap g has g censoring times below it (events
        // tied with a censoring time come first).
        let mut counts = vec![0usize; censoring.len() + 1];
        for x in observed {
            counts[censoring.partition_point(|c| *c < x)] += 1;
        }
        ProductLimit::with_counts(count, censoring, &counts)
    }

    /// Builds the stretches from the events per gap (`counts[g]` events above `g` censoring
    /// times), walking the product-limit survival and Greenwood's sum.
    fn with_counts(observed: usize, censoring: Vec<f64>, counts: &[usize]) -> ProductLimit {
        let n = observed + censoring.len();
        let (mut at_risk, mut survival, mut greenwood, mut first) = (n as f64, 1.0, 0.0, 0);
        let mut stretches = Vec::new();
        for (g, &e) in counts.iter().enumerate() {
            if e > 0 {
                stretches.push(Stretch { first, len: e, censored_before: g, at_risk, survival, greenwood });
                let left = at_risk - e as f64;
                survival *= left / at_risk;
                greenwood += if left > 0.0 { 1.0 / left - 1.0 / at_risk } else { 0.0 };
                at_risk = left;
                first += e;
            }
            if g < censoring.len() {
                // The censored value leaves the risk set without an event.
                at_risk -= 1.0;
            }
        }
        ProductLimit { n, observed, censoring, stretches }
    }

    /// All values, observed and censored.
    pub fn n(&self) -> usize {
        self.n
    }

    pub fn observed(&self) -> usize {
        self.observed
    }

    pub fn censored(&self) -> usize {
        self.censoring.len()
    }

    /// The censoring times, ascending.
    pub fn censoring_times(&self) -> &[f64] {
        &self.censoring
    }

    /// The stretch holding observed rank `k` (which must be below `observed`).
    fn stretch(&self, k: usize) -> &Stretch {
        let i = self.stretches.partition_point(|s| s.first + s.len <= k);
        &self.stretches[i.min(self.stretches.len() - 1)]
    }

    /// Product-limit survival just after observed rank `k`, with its stretch.
    fn survival_after(&self, k: usize) -> (f64, &Stretch) {
        let s = self.stretch(k);
        let j = (k - s.first + 1) as f64;
        (s.survival * (s.at_risk - j) / s.at_risk, s)
    }

    /// The product-limit rank `n·F̂(x_k) − 1` of observed rank `k`; exactly `k` when no
    /// censoring time lies below it.
    pub fn rank_of(&self, k: usize) -> f64 {
        let (survival, s) = self.survival_after(k);
        if s.censored_before == 0 { k as f64 } else { self.n as f64 * (1.0 - survival) - 1.0 }
    }

    /// Where the type-7 position `h` (in `0..=n − 1`) falls among the observed values: the
    /// lower observed rank and the fraction of the way to the next one, as a type-7 quantile
    /// interpolates; `None` beyond the last observed value (the censored values' mass).
    pub fn locate(&self, h: f64) -> Option<(usize, f64)> {
        let last = self.observed.checked_sub(1)?;
        let below = self.at_or_below(h);
        let Some(lo) = below else { return Some((0, 0.0)) };
        let r_lo = self.rank_of(lo);
        if lo == last {
            // Exactly on the last observed value is still a number; past it is not.
            return (h <= r_lo).then_some((lo, 0.0));
        }
        let r_hi = self.rank_of(lo + 1);
        let frac = if r_hi - r_lo == 1.0 && r_lo == lo as f64 { h - lo as f64 } else { (h - r_lo) / (r_hi - r_lo) };
        Some((lo, frac))
    }

    /// The largest observed rank whose product-limit rank is at most `u`.
    pub fn at_or_below(&self, u: f64) -> Option<usize> {
        let count = partition(self.observed, |k| self.rank_of(k) <= u);
        count.checked_sub(1)
    }

    /// The smallest observed rank whose product-limit rank is at least `u`; `None` when every
    /// observed value lies below it (the bound is in the censored mass).
    pub fn at_or_above(&self, u: f64) -> Option<usize> {
        let k = partition(self.observed, |k| self.rank_of(k) < u);
        (k < self.observed).then_some(k)
    }

    /// Greenwood's variance of `F̂(x_k)` over `F(1 − F)/n`, at least 1; exactly 1 with no
    /// censoring time below `x_k`.
    pub fn inflation(&self, k: usize) -> f64 {
        if self.observed == 0 {
            return 1.0;
        }
        let (survival, s) = self.survival_after(k.min(self.observed.saturating_sub(1)));
        if s.censored_before == 0 || survival <= 0.0 {
            return 1.0;
        }
        let j = (k - s.first + 1) as f64;
        let left = s.at_risk - j;
        let greenwood = s.greenwood + 1.0 / left - 1.0 / s.at_risk;
        let f = 1.0 - survival;
        (self.n as f64 * survival * greenwood / f).max(1.0)
    }

    /// Order statistic `r` (0-based) of the sample with each censored value at its censoring
    /// time, reading observed rank `k` through `at`.
    pub fn union_value(&self, r: usize, at: impl Fn(usize) -> f64) -> f64 {
        let position = |k: usize| k + self.stretch(k).censored_before;
        let below = partition(self.observed, |k| position(k) <= r);
        match below.checked_sub(1) {
            Some(k) if position(k) == r => at(k),
            Some(k) => self.censoring[(r - (k + 1)).min(self.censoring.len() - 1)],
            None => self.censoring[r.min(self.censoring.len() - 1)],
        }
    }

    /// The censoring level: the smallest censoring time at or above the last observed value
    /// (a quantile beyond every observed value is known to exceed it); `None` without one.
    pub fn censoring_level(&self) -> Option<f64> {
        let after = match self.observed.checked_sub(1) {
            Some(last) => self.stretch(last).censored_before,
            None => 0,
        };
        self.censoring.get(after).copied()
    }
}

/// The number of `k` in `0..n` for which the monotone predicate holds (true, then false).
fn partition(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) { lo = mid + 1 } else { hi = mid }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The type-7 quantile `p` through the map, over sorted observed values.
    fn quantile(pl: &ProductLimit, x: &[f64], p: f64) -> Option<f64> {
        let (lo, frac) = pl.locate((pl.n() - 1) as f64 * p)?;
        let (a, b) = (x[lo], x[(lo + 1).min(x.len() - 1)]);
        Some(a + frac * (b - a))
    }

    #[test]
    fn without_censoring_it_is_type_7() {
        let x = [1.0, 2.0, 3.0, 4.0, 10.0];
        let pl = ProductLimit::new(x.iter().copied(), Vec::new());
        // numpy.quantile([1, 2, 3, 4, 10], [0, 0.25, 0.5, 0.9, 1]) = [1, 2, 3, 7.6, 10]
        for (p, q) in [(0.0, 1.0), (0.25, 2.0), (0.5, 3.0), (0.9, 7.6), (1.0, 10.0)] {
            assert!((quantile(&pl, &x, p).unwrap() - q).abs() < 1e-12, "p {p}");
        }
        assert_eq!(pl.inflation(2), 1.0);
        assert_eq!(pl.union_value(3, |k| x[k]), 4.0);
    }

    /// Censored values above every observed one rank as +infinity: type 7 of the whole
    /// sample while both ranks read are observed, a bound once one is censored.
    #[test]
    fn censoring_above_every_value_ranks_it_last() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let pl = ProductLimit::new(x.iter().copied(), vec![20.0, 20.5, 20.1, 20.2]);
        assert_eq!(pl.n(), 10);
        // h = 9·0.5 = 4.5: between x_4 = 5 and x_5 = 6.
        assert_eq!(quantile(&pl, &x, 0.5), Some(5.5));
        // h = 5 exactly: the last observed value.
        assert_eq!(pl.locate(5.0), Some((5, 0.0)));
        // h = 9·0.6 = 5.4: past the last observed value.
        assert_eq!(quantile(&pl, &x, 0.6), None);
        assert_eq!(pl.censoring_level(), Some(20.0));
        assert_eq!(pl.union_value(7, |k| x[k]), 20.1);
    }

    /// A censoring time below observed values: the hand-computed product-limit estimate.
    /// Times 1, 2, 3+, 4, 5, 6+, 7, 8 (n = 8, "+" censored). At risk and survival:
    /// 1: 8 → 7/8; 2: 7 → 6/8; 3+ leaves; 4: 5 → 6/8·4/5 = 0.6; 5: 4 → 0.45; 6+ leaves;
    /// 7: 2 → 0.225; 8: 1 → 0. (R: `survfit(Surv(c(1,2,3,4,5,6,7,8), c(1,1,0,1,1,0,1,1)) ~ 1)`
    /// gives survival 0.875 0.750 0.600 0.450 0.225 0 at 1 2 4 5 7 8.)
    #[test]
    fn censoring_below_observed_values_moves_their_mass_up() {
        let x = [1.0, 2.0, 4.0, 5.0, 7.0, 8.0];
        let pl = ProductLimit::new(x.iter().copied(), vec![6.0, 3.0]);
        let f: Vec<f64> = (0..6).map(|k| (pl.rank_of(k) + 1.0) / 8.0).collect();
        for (got, want) in f.iter().zip([0.125, 0.25, 0.4, 0.55, 0.775, 1.0]) {
            assert!((got - want).abs() < 1e-12, "{f:?}");
        }
        // Median: h = 7·0.5 = 3.5 lies between the product-limit ranks of 5 (3.4) and of 7
        // (5.2): 5 + (3.5 − 3.4)/(5.2 − 3.4)·(7 − 5).
        let q = quantile(&pl, &x, 0.5).unwrap();
        assert!((q - (5.0 + 0.1 / 1.8 * 2.0)).abs() < 1e-12, "{q}");
        // Greenwood at 4: S = 0.6, Σ = 1/(8·7) + 1/(7·6) + 1/(5·4) = 0.0916667;
        // Var = 0.36·0.0916667 = 0.033, against F(1 − F)/n = 0.4·0.6/8 = 0.03: 1.1.
        assert!((pl.inflation(2) - 1.1).abs() < 1e-12);
        // The union order: 1 2 3 4 5 6 7 8.
        let union: Vec<f64> = (0..8).map(|r| pl.union_value(r, |k| x[k])).collect();
        assert_eq!(union, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        assert_eq!(pl.censoring_level(), None, "the largest value is observed");
        assert_eq!(pl.at_or_above(7.5), None);
        assert_eq!(pl.at_or_above(3.0), Some(3));
    }

    /// Every value censored: every quantile is beyond the censoring level.
    #[test]
    fn nothing_observed() {
        let pl = ProductLimit::new(std::iter::empty(), vec![3.0, 1.0, 2.0]);
        assert_eq!((pl.n(), pl.observed(), pl.locate(0.0)), (3, 0, None));
        assert_eq!((pl.inflation(0), pl.censoring_level(), pl.union_value(1, |_| f64::NAN)), (1.0, Some(1.0), 2.0));
    }

    /// A tie between an event and a censoring time: the event comes first (it was at risk).
    #[test]
    fn events_come_before_censorings_at_ties() {
        let x = [1.0, 2.0, 2.0];
        let pl = ProductLimit::new(x.iter().copied(), vec![2.0, 2.0]);
        assert_eq!((pl.rank_of(1), pl.rank_of(2)), (1.0, 2.0));
        assert_eq!(pl.censoring_level(), Some(2.0));
        assert_eq!(pl.locate(2.5), None);
    }
}
