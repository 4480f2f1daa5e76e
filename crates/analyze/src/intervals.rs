//! Confidence intervals for one metric inside the steady window.
//!
//! Percentiles (type 7) get the exact order-statistic interval when requests are close to
//! independent. Dependence is measured per percentile as the design effect of the indicator
//! `1{x ≤ q̂}` over time windows (batch means with the Politis–White flat-top long-run
//! variance): `τ = LRV·K / (n·p(1 − p))`, `n_eff = n/τ`. When `τ > 1.25` for any percentile or
//! the mean (dependence is a property of the series; one percentile's `τ` is a noisy estimate),
//! the interval comes from the stationary block bootstrap over windows (twice the Politis–White
//! block length, percentile interval, widened for few blocks and for the block bootstrap's
//! first-order variance bias), or, with fewer than 20 windows, from the order-statistic
//! interval at `n_eff`.
//! A percentile with fewer than 10 effective observations beyond it is `insufficient_data`
//! and keeps only its one-sided lower bound. Means use BCa (i.i.d.) or the block bootstrap when
//! dependent; the median also gets a BCa interval (`p50_bca`) when affordable.
//! A metric with right-censored values (timed-out requests) gets Kaplan–Meier percentiles and
//! bounds beyond the censoring level (`censored`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::censored::{self, CensoredValues};
use super::estimate::{Censoring, Estimate, Method};
use credence_stats::block_length::dependence;
use credence_stats::bootstrap::{IidStatistic, bca_interval, iid_bootstrap, percentile_interval};
use credence_stats::order_ci::{Alternative, order_statistic_indices};
use credence_stats::product_limit::ProductLimit;
use credence_stats::quantile::quantile_ranks;
use credence_stats::rank::PartialRanking;
use credence_stats::resample::stat_id;
use credence_stats::stationary::{Grouped, GroupedBootstrap, binned_rank_range, grouped_bootstrap, percentile_of};

/// Design effect above which requests count as dependent.
pub const DEPENDENCE_THRESHOLD: f64 = 1.25;
/// Observations needed beyond a percentile for a two-sided interval (rule of thumb).
pub const TAIL_MINIMUM: f64 = 10.0;
/// Windows needed for a block bootstrap.
const MIN_WINDOWS_FOR_BLOCKS: usize = 20;
/// Windows needed to measure dependence at all (the flat-top window's minimum): below it an
/// interval could only assume independent requests, which concurrent serving rarely gives
/// (design effects of 10 and more are common), so none is given.
pub const MIN_WINDOWS_FOR_DEPENDENCE: usize = 8;
/// i.i.d. bootstraps are skipped above this many value draws (n × resamples).
const IID_BUDGET: f64 = 2e8;

/// The percentiles reported for every latency metric.
pub const PERCENTILES: [(&str, f64); 4] = [("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p999", 0.999)];

#[derive(Debug, Clone)]
pub struct IntervalOptions {
    pub confidence: f64,
    pub seed: u64,
    pub resamples: usize,
    /// Percentiles (fractions) estimated beside `PERCENTILES`, e.g. those a tool's claims
    /// state; keyed by `percentile_key`.
    pub extra_percentiles: Vec<f64>,
    /// The percentiles alone, without the mean and the median's BCa (their i.i.d. bootstraps
    /// are most of the cost on a subset whose median is all that is read: a turn, an adapter).
    pub percentiles_only: bool,
}

/// The key of percentile `p` (a fraction) in a metric's estimates: `p50`, `p99`, `p999` for
/// 99.9 % (the reported set), else the percent as written: `p95`, `p99.5`, `p0.1`.
pub fn percentile_key(p: f64) -> String {
    if let Some((k, _)) = PERCENTILES.iter().find(|(_, q)| (q - p).abs() < 1e-12) {
        return k.to_string();
    }
    let percent = format!("{:.6}", p * 100.0);
    format!("p{}", percent.trim_end_matches('0').trim_end_matches('.'))
}

/// Measured dependence of one metric.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Dependence {
    /// Design effect of the mean (variance inflation from correlated requests).
    pub design_effect: f64,
    pub n_eff: f64,
    /// Politis–White mean block length, in windows.
    pub block_length_windows: f64,
    pub dependent: bool,
}

/// Values of one metric in the steady window, with the window each belongs to.
pub struct MetricSample<'a> {
    pub name: &'a str,
    pub values: &'a [f64],
    pub window: &'a [u32],
    pub windows: usize,
    /// Whether to describe the distribution (quantile grid and histogram) too.
    pub with_distribution: bool,
    /// The values that are right-censored (their entries in `values` are ignored); `None`
    /// when the metric has none.
    pub censored: Option<CensoredValues<'a>>,
}

/// The dependence of one score's per-window sums.
struct ScoreDependence {
    /// Design effect.
    tau: f64,
    /// Politis–White stationary block length, in windows.
    block: f64,
    /// `G / σ²∞` of the sums: a block bootstrap's variance is low by `bias_ratio / block`.
    bias_ratio: f64,
}

/// Design effect of a per-value score (already centred) from its per-window sums `d`.
fn design_effect(d: &[f64], n: usize, unit_variance: f64) -> ScoreDependence {
    let windows = d.len();
    let Some(dep) = dependence(d) else { return ScoreDependence { tau: 1.0, block: 1.0, bias_ratio: 0.0 } };
    let tau = if unit_variance > 0.0 { (dep.long_run_variance * windows as f64 / (n as f64 * unit_variance)).max(1.0) } else { 1.0 };
    ScoreDependence { tau, block: dep.stationary_block, bias_ratio: dep.bias_ratio }
}

/// The ranks (of `n`) bounding the order-statistic interval of `p` at `n_eff` observations:
/// the binomial indices among `n_eff`, mapped onto the `n` values.
fn order_statistic_ranks(n: usize, p: f64, n_eff: f64, cl: f64, alt: Alternative) -> (Option<usize>, Option<usize>) {
    let m = (n_eff.round() as usize).clamp(1, n);
    let Some(idx) = order_statistic_indices(m, p, cl, alt) else {
        return (None, None);
    };
    let map = |i: usize| -> usize { (((i as f64 + 0.5) * n as f64 / m as f64) as usize).min(n - 1) };
    (idx.lo.map(map), idx.hi.map(map))
}

/// Degrees of freedom of one run's block-bootstrap variance over `windows` groups with mean
/// block length `block` (at least 2). The stationary bootstrap's own variance has
/// `Var(σ̂²)/σ⁴ ≈ 2b/n` (Politis & White 2004), about `n/b` degrees of freedom, but the block
/// length is itself estimated from the same short series, and a run whose autocorrelations
/// happen to look short gets a short block and a narrow interval too. On simulated 5-minute
/// runs of one process (`tests/it/conditions_sim.rs`, 240 seeds) the half-widths varied by 28–39 %
/// (coefficient of variation) from seed to seed, against 21 % at `n/b`: about half the degrees of
/// freedom, as used here.
pub fn one_run_df(windows: usize, block: f64) -> f64 {
    (windows as f64 / (2.0 * block.max(1.0)) - 1.0).max(2.0)
}

/// Degrees of freedom of a change between two runs, each with `one_run_df`: the change's
/// variance sums two such estimates (Welch–Satterthwaite, equal variances: twice as many).
pub fn change_df(windows: usize, block: f64) -> f64 {
    2.0 * one_run_df(windows, block)
}

/// `t_{df}/z` at confidence `cl`: how much wider an interval gets for a variance known only
/// to `df` degrees of freedom.
pub fn few_blocks_factor(df: f64, cl: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal, StudentsT};
    let a = 1.0 - (1.0 - cl) / 2.0;
    let z = Normal::standard().inverse_cdf(a);
    StudentsT::new(0.0, 1.0, df).map_or(1.0, |d| d.inverse_cdf(a) / z)
}

/// Widens a block-bootstrap interval for the two ways a short series makes it too narrow:
/// - by `t_{df}/z` with `df` from `one_run_df`: with a few dozen blocks the bootstrap's own
///   variance estimate is uncertain, which a percentile interval ignores;
/// - by `√(1 + bias_ratio/block)`: blocks of finite length cut the dependence across their
///   edges, so the bootstrap variance is low by `G/(block·σ²∞)` to first order (`bias_ratio` =
///   `G/σ²∞` of the statistic's influence series, from the same flat-top window).
///
/// The coverage study (`tests/it/coverage.rs`) measured the under-coverage each one removes.
fn few_blocks_widening(estimate: f64, (lo, hi): (f64, f64), windows: usize, block: f64, bias_ratio: f64, cl: f64) -> (f64, f64) {
    let c = few_blocks_factor(one_run_df(windows, block), cl) * (1.0 + bias_ratio.max(0.0) / block.max(1.0)).sqrt();
    if estimate > 0.0 && lo > 0.0 {
        // Positive, skewed quantities (latencies) widen on the log scale and stay positive.
        (estimate * (lo / estimate).powf(c), estimate * (hi / estimate).powf(c))
    } else {
        (estimate - (estimate - lo) * c, estimate + (hi - estimate) * c)
    }
}

/// Per percentile: point, dependence, and which method applies.
struct Plan {
    key: String,
    p: f64,
    /// The point; +infinity beyond the censoring level.
    q: f64,
    /// Observed rank of the point (the last observed one beyond the censoring level), where
    /// the Greenwood inflation is read.
    rank: usize,
    tau: f64,
    block: f64,
    bias_ratio: f64,
}

impl Plan {
    /// Effective observations beyond the percentile (in its tail).
    fn beyond(&self, n: usize) -> f64 {
        n as f64 / self.tau * (1.0 - self.p)
    }

    /// Whether the percentile is treated as dependent: its own design effect, or its series'.
    fn dependent(&self, series_dependent: bool) -> bool {
        self.tau > DEPENDENCE_THRESHOLD || series_dependent
    }

    /// Whether its interval comes from the block bootstrap (`MetricIntervals::percentile`), so
    /// the bootstrap must resample it.
    fn reads_block_bootstrap(&self, n: usize, series_dependent: bool) -> bool {
        self.beyond(n) >= TAIL_MINIMUM && self.dependent(series_dependent)
    }
}

impl MetricSample<'_> {
    /// The values with their windows, in time order, as they are ranked: the finite ones, and
    /// each censored one as +infinity (the product-limit ranking when every censoring time is
    /// above the values a statistic reads).
    fn pairs(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.with_censored(f64::INFINITY)
    }

    /// The values with their windows, each censored one at its censoring time: the restricted
    /// values, a lower bound of each (the mean of a censored sample is bounded with them).
    fn restricted_pairs(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.with_censored(f64::NAN)
    }

    /// The pairs with each censored value as `censored_as`, or at its censoring time when NaN.
    fn with_censored(&self, censored_as: f64) -> impl Iterator<Item = (u32, f64)> + '_ {
        let at = self.censored.map(|c| c.at_ms);
        self.values.iter().zip(self.window).enumerate().filter_map(move |(i, (v, w))| match at.map(|c| c[i]).filter(|c| c.is_finite()) {
            Some(c) => Some((*w, if censored_as.is_nan() { c } else { censored_as })),
            None => v.is_finite().then_some((*w, *v)),
        })
    }

    /// The product-limit map of the sample (the identity without censored values).
    fn product_limit(&self) -> ProductLimit {
        let Some(c) = self.censored else { return ProductLimit::uncensored(self.pairs().count()) };
        let observed = self.values.iter().zip(c.at_ms).filter(|(v, c)| v.is_finite() && !c.is_finite()).map(|(v, _)| *v);
        ProductLimit::new(observed, c.at_ms.iter().copied().filter(|c| c.is_finite()).collect())
    }
}

/// Samples at least this large, whose i.i.d. bootstraps are unaffordable, rank only the
/// ranges that the percentiles, their intervals and the distribution read (see
/// `PartialRanking`); smaller ones are sorted whole. Only the summation order of the mean and
/// the standard deviation differs between the two, in the last bits.
const PARTIAL_RANKING_MIN: usize = 1 << 18;

/// Settles the ranks read before the percentiles' dependence is known: each percentile's and
/// each distribution grid point's two quantile ranks, the minimum and the maximum.
fn settle_points(ranking: &mut PartialRanking, extra: &[f64], with_distribution: bool) {
    // Censored samples are sorted whole (`metric_estimates`): the ranks here are the plain ones.
    let n = ranking.len();
    let grid = if with_distribution { &super::distribution::QUANTILE_GRID[..] } else { &[] };
    let ps = all_percentiles(extra).into_iter().map(|(_, p)| p).chain(grid.iter().copied());
    let mut ranges: Vec<(usize, usize)> = ps.filter_map(|p| quantile_ranks(n, p)).map(|(lo, hi)| (lo, hi + 1)).collect();
    ranges.extend([(0, 1), (n - 1, n)]);
    ranking.settle(&ranges);
}

/// Settles the ranks each percentile's interval reads: its order-statistic bounds at `n_eff`
/// (two-sided and lower only) and, when a block bootstrap runs, its binned rank range.
fn settle_intervals(ranking: &mut PartialRanking, plans: &[Plan], cl: f64, with_blocks: &[bool]) {
    let n = ranking.len();
    let mut ranges = Vec::new();
    for (pl, &with_blocks) in plans.iter().zip(with_blocks) {
        let n_eff = n as f64 / pl.tau;
        let (lo, hi) = order_statistic_ranks(n, pl.p, n_eff, cl, Alternative::TwoSided);
        let (lower, _) = order_statistic_ranks(n, pl.p, n_eff, cl, Alternative::Greater);
        ranges.extend([lo, hi, lower].into_iter().flatten().map(|r| (r, r + 1)));
        if with_blocks {
            let (a, b) = binned_rank_range(n, pl.p, bootstrap_rank_halfwidth(n, pl));
            ranges.push((a, b + 1));
        }
    }
    ranking.settle(&ranges);
}

/// Estimates for a metric with no values in the steady window.
fn no_values(name: &str, o: &IntervalOptions) -> BTreeMap<String, Estimate> {
    let cl = o.confidence;
    let mut out = BTreeMap::new();
    for (k, _) in all_percentiles(&o.extra_percentiles) {
        out.insert(k, Estimate::not_applicable(cl, 0, format!("no {} values in the steady window", name)));
    }
    out.insert("mean".into(), Estimate::not_applicable(cl, 0, format!("no {} values in the steady window", name)));
    out
}

/// The point and design effect of every reported percentile (product-limit quantiles: the
/// type-7 ones without censoring).
fn percentile_plans(ranking: &PartialRanking, km: &ProductLimit, s: &MetricSample<'_>, extra: &[f64]) -> Vec<Plan> {
    let n = ranking.len();
    let last = km.observed().saturating_sub(1);
    let points: Vec<(String, f64, f64)> =
        all_percentiles(extra).into_iter().map(|(key, p)| (key, p, censored::quantile(km, p, |k| ranking.value(k)).unwrap_or(f64::INFINITY))).collect();
    // Beyond the censoring level the indicator is "observed at all", centred on its share: how
    // timeouts cluster in time sets the dependence of the bound's rank.
    let observed_share = km.observed() as f64 / n as f64;
    let indicated: Vec<(String, f64, f64)> = points
        .iter()
        .map(|(k, p, q)| match (q.is_finite(), km.observed()) {
            (false, observed) if observed > 0 => (k.clone(), observed_share, ranking.value(last)),
            _ => (k.clone(), *p, *q),
        })
        .collect();
    let sums = indicator_window_sums(s, &indicated);
    points
        .into_iter()
        .zip(&sums)
        .map(|((key, p, q), d)| {
            // The indicator's own variance: beyond the censoring level it is that of "observed".
            let f = if q.is_finite() { p } else { observed_share };
            let d = design_effect(d, n, f * (1.0 - f));
            let rank = if q.is_finite() { km.locate((n - 1) as f64 * p).map_or(last, |(k, _)| k) } else { last };
            Plan { key, p, q, rank, tau: d.tau, block: d.block, bias_ratio: d.bias_ratio }
        })
        .collect()
}

/// Per window, the sum of each percentile's centred indicator `1{x ≤ q} − p`: one pass over
/// the values for all of them.
fn indicator_window_sums(s: &MetricSample<'_>, points: &[(String, f64, f64)]) -> Vec<Vec<f64>> {
    let mut sums = vec![vec![0.0; s.windows]; points.len()];
    for (w, v) in s.pairs() {
        for (d, (_, p, q)) in sums.iter_mut().zip(points) {
            d[w as usize] += f64::from(u8::from(v <= *q)) - p;
        }
    }
    sums
}

/// Per window, the sum of the (restricted) values' deviations from `mean`.
fn deviation_window_sums(s: &MetricSample<'_>, mean: f64) -> Vec<f64> {
    let mut d = vec![0.0; s.windows];
    for (w, v) in s.restricted_pairs() {
        d[w as usize] += v - mean;
    }
    d
}

/// The reported percentiles, then each extra one not among them (p50 first: `median_bca`
/// reads it), with their keys.
fn all_percentiles(extra: &[f64]) -> Vec<(String, f64)> {
    let mut all: Vec<(String, f64)> = PERCENTILES.iter().map(|&(k, p)| (k.to_string(), p)).collect();
    for &p in extra.iter().filter(|p| **p > 0.0 && **p < 1.0) {
        let key = percentile_key(p);
        if !all.iter().any(|(k, _)| *k == key) {
            all.push((key, p));
        }
    }
    all
}

/// What every interval of one metric reads.
struct MetricIntervals<'a> {
    /// The values by rank: sorted whole, or on large samples exact at every rank read here
    /// (`settle_points`, `settle_intervals`) and only partitioned between. Censored values
    /// rank last, as +infinity (and the sample is then sorted whole).
    sorted: Vec<f64>,
    /// Every value, censored ones included.
    n: usize,
    /// The product-limit ranks (the identity without censoring).
    km: ProductLimit,
    /// The censored values, when any.
    censoring: Option<Censoring>,
    /// Per-value variance of the (restricted) values, for the censored mean's bound.
    var: f64,
    windows: usize,
    o: &'a IntervalOptions,
    id: u64,
    mean: f64,
    dependence: Dependence,
    /// The mean's `G/σ²∞` (see `few_blocks_widening`).
    mean_bias_ratio: f64,
    /// Whether any statistic of the metric measured as dependent: each percentile's own design
    /// effect is a noisy estimate (an unlucky flat-top window can put a dependent median at 1),
    /// so dependence is judged for the series, not percentile by percentile.
    series_dependent: bool,
    /// Whether an i.i.d. bootstrap of every value fits the budget.
    affordable: bool,
    /// Block length of the block bootstrap, in windows.
    block: f64,
    boot: Option<GroupedBootstrap>,
}

impl MetricIntervals<'_> {
    /// The block-bootstrap interval of `estimate` from its bootstrap distribution, widened for
    /// few blocks.
    fn block_interval(&self, estimate: f64, dist: &[f64], bias_ratio: f64) -> Estimate {
        let (cl, n) = (self.o.confidence, self.n as u64);
        // Censored resample quantiles are +infinity: kept, they leave the upper end open.
        let ci = if self.censoring.is_some() { censored::percentile_keeping_infinity(dist, cl) } else { percentile_of(dist, cl) };
        match (ci.map(|ci| few_blocks_widening(estimate, ci, self.windows, self.block, bias_ratio, cl)), self.censoring) {
            (Some((lo, hi)), Some(c)) if hi.is_infinite() => {
                Estimate::insufficient(estimate, Some(lo), None, cl, Method::StationaryBootstrap, n, censored::open_upper_note(&c)).resampled(
                    self.o.seed,
                    self.o.resamples,
                    Some(self.block),
                )
            }
            (Some(ci), _) => Estimate::two_sided(estimate, ci, cl, Method::StationaryBootstrap, n).resampled(self.o.seed, self.o.resamples, Some(self.block)),
            (None, _) => Estimate::insufficient(estimate, None, None, cl, Method::StationaryBootstrap, n, "the bootstrap distribution is empty"),
        }
    }

    /// The order-statistic bounds of `p` at `n_eff` (`alt` picks them): the lower one is the
    /// order statistic of the sample with censored values at their censoring times, the upper
    /// one read through the product-limit ranks, `None` among the censored values. Without
    /// censoring both are the plain order statistics.
    fn order_bounds(&self, p: f64, n_eff: f64, alt: Alternative) -> ((Option<usize>, Option<usize>), (Option<f64>, Option<f64>)) {
        let ranks = order_statistic_ranks(self.n, p, n_eff, self.o.confidence, alt);
        let lo = ranks.0.map(|r| self.km.union_value(r, |k| self.sorted[k]));
        let hi = ranks.1.and_then(|r| self.km.at_or_above(r as f64)).map(|k| self.sorted[k]);
        (ranks, (lo, hi))
    }

    /// The order-statistic interval at `n_eff`, or `insufficient` with `why` when not finite
    /// (or with the censoring's note when its upper bound falls among censored values).
    fn order_statistic_interval(&self, pl: &Plan, n_eff: f64, method: Method, why: &str) -> Estimate {
        let (cl, n) = (self.o.confidence, self.n as u64);
        let ((_, hi_rank), (lo, hi)) = self.order_bounds(pl.p, n_eff, Alternative::TwoSided);
        // An upper rank that exists but reads no observed value lies among the censored ones.
        match (lo, hi, hi_rank.and(self.censoring)) {
            (Some(lo), Some(hi), _) => Estimate::two_sided(pl.q, (lo, hi), cl, method, n),
            (lo, None, Some(c)) => Estimate::insufficient(pl.q, lo, None, cl, method, n, censored::open_upper_note(&c)),
            (lo, hi, _) => Estimate::insufficient(pl.q, lo, hi, cl, method, n, why),
        }
    }

    /// The order-statistic method: Kaplan–Meier over a censored sample.
    fn order_method(&self, dependent: bool) -> Method {
        match (self.censoring, dependent) {
            (Some(_), _) => Method::KaplanMeier,
            (None, true) => Method::OrderStatisticNeff,
            (None, false) => Method::OrderStatistic,
        }
    }

    /// A percentile beyond the censoring level: only a lower bound (`censored::beyond`), at
    /// the effective sample size the dependence and the Greenwood variance leave.
    fn beyond_censoring(&self, pl: &Plan, n_eff: f64, c: Censoring) -> Estimate {
        let m = n_eff / self.km.inflation(pl.rank);
        // Without a measurable dependence no confidence bound holds: the level alone is known.
        let lower = if self.dependence_unmeasurable() { None } else { self.order_bounds(pl.p, m, Alternative::Greater).1.0 };
        censored::beyond(&self.km, lower, c, (self.o.confidence, self.n as u64))
    }

    /// A percentile with too few effective observations beyond it: the point and a one-sided
    /// lower bound.
    fn insufficient_tail(&self, pl: &Plan, n_eff: f64, beyond: f64, dependent: bool) -> Estimate {
        let cl = self.o.confidence;
        let longer = TAIL_MINIMUM / beyond.max(1e-9);
        Estimate::insufficient(
            pl.q,
            self.order_bounds(pl.p, n_eff, Alternative::Greater).1.0,
            None,
            cl,
            self.order_method(dependent),
            self.n as u64,
            format!(
                "{:.1} effective observations lie beyond this percentile; about {TAIL_MINIMUM:.0} are needed for a two-sided interval. Reported: the point estimate and a one-sided lower bound. A run about {longer:.1}x longer would resolve it.",
                beyond
            ),
        )
    }

    /// Whether too few windows hold values to measure dependence (see
    /// `MIN_WINDOWS_FOR_DEPENDENCE`).
    fn dependence_unmeasurable(&self) -> bool {
        self.windows < MIN_WINDOWS_FOR_DEPENDENCE
    }

    /// The point without an interval (so without a method), for a sample whose dependence
    /// cannot be measured.
    fn unmeasured_dependence(&self, estimate: f64) -> Estimate {
        Estimate::insufficient(
            estimate,
            None,
            None,
            self.o.confidence,
            Method::None,
            self.n as u64,
            format!(
                "the steady window holds {} resampling group(s) and at least {MIN_WINDOWS_FOR_DEPENDENCE} are needed to measure how dependent the requests are; an interval assuming independent requests can be several times too narrow, so none is given (a longer steady window would resolve it)",
                self.windows
            ),
        )
    }

    /// The interval of percentile `i`, by the method its dependence and tail call for.
    fn percentile(&self, i: usize, pl: &Plan) -> Estimate {
        let n_eff = self.n as f64 / pl.tau;
        if let (false, Some(c)) = (pl.q.is_finite(), self.censoring) {
            return self.beyond_censoring(pl, n_eff, c).with_n_eff(Some(n_eff));
        }
        // Censoring below the point moves the product-limit ranks off the plain ones: the block
        // bootstrap (which ranks censored values last) no longer applies, and the Greenwood
        // variance lowers the effective sample size (it is 1 with no censoring below).
        let censored_below = self.km.censoring_times().first().is_some_and(|c| *c < pl.q);
        let n_eff = n_eff / self.km.inflation(pl.rank);
        let (beyond, dependent) = (pl.beyond(self.n), pl.dependent(self.series_dependent));
        let est = if beyond < TAIL_MINIMUM {
            self.insufficient_tail(pl, n_eff, beyond, dependent)
        } else if self.dependence_unmeasurable() {
            self.unmeasured_dependence(pl.q)
        } else if !dependent {
            // Mild dependence still counts: the binomial runs at n_eff (= n when τ = 1).
            let method = self.order_method(pl.tau >= 1.05);
            self.order_statistic_interval(pl, n_eff, method, "the order-statistic interval is not finite at this sample size")
        } else if let Some(b) = self.boot.as_ref().filter(|_| !censored_below) {
            self.block_interval(pl.q, &b.quantiles[i], pl.bias_ratio)
        } else {
            self.order_statistic_interval(pl, n_eff, self.order_method(true), "the interval at the effective sample size is not finite")
        };
        est.with_n_eff(Some(n_eff))
    }

    /// The BCa interval of the mean from an i.i.d. bootstrap (percentile interval when BCa is
    /// undefined).
    fn iid_mean(&self) -> Estimate {
        let (cl, n, o, mean) = (self.o.confidence, self.n as u64, self.o, self.mean);
        match iid_bootstrap(&self.sorted, IidStatistic::Mean, o.resamples, o.seed, self.id ^ 1) {
            Some(ib) => match bca_interval(&ib.distribution, mean, ib.acceleration, cl) {
                Some(ci) => Estimate::two_sided(mean, ci, cl, Method::Bca, n).resampled(o.seed, o.resamples, None),
                None => {
                    let ci = percentile_interval(&ib.distribution, cl).unwrap_or((mean, mean));
                    Estimate::two_sided(mean, ci, cl, Method::Bca, n)
                        .resampled(o.seed, o.resamples, None)
                        .with_note("BCa undefined (degenerate bootstrap distribution); percentile interval shown")
                }
            },
            None => Estimate::insufficient(mean, None, None, cl, Method::Bca, n, "too few values"),
        }
    }

    /// The mean's interval: block bootstrap when dependent or too large for i.i.d., else BCa.
    fn mean(&self) -> Estimate {
        if let Some(c) = self.censoring {
            let bound = censored::restricted_mean(self.mean, self.var, self.dependence.design_effect, c, (self.o.confidence, self.n as u64));
            return bound.with_n_eff(Some(self.dependence.n_eff));
        }
        let mean_est = match (&self.boot, self.dependence.dependent || !self.affordable, self.affordable) {
            _ if self.dependence_unmeasurable() && self.n >= 2 => self.unmeasured_dependence(self.mean),
            (Some(b), true, _) => self.block_interval(self.mean, &b.mean, self.mean_bias_ratio),
            (_, _, true) if self.n >= 2 => self.iid_mean(),
            _ => Estimate::insufficient(self.mean, None, None, self.o.confidence, Method::None, self.n as u64, "too few values or windows for an interval"),
        };
        let mean_est = if self.dependence.dependent && self.boot.is_none() && mean_est.method == Method::Bca {
            mean_est.with_note("requests are dependent but there are too few windows for a block bootstrap: this i.i.d. interval is optimistic")
        } else {
            mean_est
        };
        mean_est.with_n_eff(Some(self.dependence.n_eff))
    }

    /// The median's BCa interval (`p50_bca`), when an i.i.d. bootstrap is affordable.
    fn median_bca(&self, q: f64) -> Option<Estimate> {
        let (cl, n, o) = (self.o.confidence, self.n as u64, self.o);
        // An i.i.d. bootstrap of a censored sample would resample +infinities: p50 (Kaplan–Meier)
        // stands alone there.
        if !(self.affordable && self.n >= 2) || self.censoring.is_some() {
            return None;
        }
        if self.dependence_unmeasurable() {
            return Some(self.unmeasured_dependence(q));
        }
        let ib = iid_bootstrap(&self.sorted, IidStatistic::Median, o.resamples, o.seed, self.id ^ 2)?;
        let est = match bca_interval(&ib.distribution, q, ib.acceleration, cl) {
            Some(ci) => Estimate::two_sided(q, ci, cl, Method::Bca, n),
            None => Estimate::insufficient(q, None, None, cl, Method::Bca, n, "BCa is undefined for this bootstrap distribution (too discrete)"),
        };
        let est = est.resampled(o.seed, o.resamples, None);
        Some(if self.dependence.dependent { est.with_note("i.i.d. resampling ignores the measured dependence: prefer p50") } else { est })
    }
}

/// How far (in ranks) a resample's quantile can plausibly move: ±8 dependent standard errors
/// of the rank, plus a margin.
fn bootstrap_rank_halfwidth(n: usize, pl: &Plan) -> f64 {
    8.0 * (n as f64 * pl.p * (1.0 - pl.p) * pl.tau).sqrt() + 50.0
}

/// The block bootstrap over windows of the mean and of the percentiles in `resampled`. The
/// distributions come back one per plan, empty for the percentiles not resampled; a
/// resample's blocks are drawn before any statistic is read, so which percentiles are
/// resampled never changes another's distribution.
fn block_bootstrap(
    ranking: &PartialRanking,
    groups: usize,
    plans: &[Plan],
    resampled: &[bool],
    block: f64,
    o: &IntervalOptions,
    id: u64,
) -> Option<GroupedBootstrap> {
    let n = ranking.len();
    let chosen: Vec<&Plan> = plans.iter().zip(resampled).filter(|(_, r)| **r).map(|(pl, _)| pl).collect();
    let half: Vec<f64> = chosen.iter().map(|pl| bootstrap_rank_halfwidth(n, pl)).collect();
    let ps: Vec<f64> = chosen.iter().map(|pl| pl.p).collect();
    let mut boot = grouped_bootstrap(&Grouped { ranked: ranking, groups }, &ps, &half, block, o.resamples, o.seed, id)?;
    let mut dists = std::mem::take(&mut boot.quantiles).into_iter();
    boot.quantiles = resampled.iter().map(|&r| if r { dists.next().unwrap_or_default() } else { Vec::new() }).collect();
    Some(boot)
}

/// All statistics of one metric: p50, p90, p99, p999, mean and p50_bca.
pub fn metric_estimates(
    s: &MetricSample<'_>,
    o: &IntervalOptions,
) -> (BTreeMap<String, Estimate>, Option<Dependence>, Option<super::distribution::Distribution>) {
    let mut ranking = PartialRanking::new(s.pairs().map(|(w, v)| (v, w)));
    let n = ranking.len();
    if n == 0 {
        return (no_values(s.name, o), None, None);
    }
    let affordable = n as f64 * o.resamples as f64 <= IID_BUDGET;
    let km = s.product_limit();
    let censoring = s.censored.and_then(|c| censored::censoring(&km, c.before));
    // The i.i.d. bootstraps and small samples read every rank; so do the product-limit ranks
    // (a censored sample is sorted whole: its look-ups search the observed ranks).
    let whole = affordable || n < PARTIAL_RANKING_MIN || censoring.is_some();
    if whole {
        ranking.settle(&[(0, n)]);
    } else {
        settle_points(&mut ranking, &o.extra_percentiles, s.with_distribution);
    }
    let (mean, var, mean_dependence) = moments(s, n);
    let (tau_mean, block_mean) = (mean_dependence.tau, mean_dependence.block);
    let dependence =
        Dependence { design_effect: tau_mean, n_eff: n as f64 / tau_mean, block_length_windows: block_mean, dependent: tau_mean > DEPENDENCE_THRESHOLD };
    let plans = percentile_plans(&ranking, &km, s, &o.extra_percentiles);
    // The block bootstrap also serves large independent samples, where an i.i.d. bootstrap
    // of every value would cost n × resamples draws.
    let series_dependent = plans.iter().any(|pl| pl.tau > DEPENDENCE_THRESHOLD) || dependence.dependent;
    let need_blocks = s.windows >= MIN_WINDOWS_FOR_BLOCKS && (series_dependent || !affordable);
    // Twice the Politis–White length: the automatic length targets the variance of a mean and
    // runs short for percentile coverage in runs of a few hundred windows (coverage study).
    let block = 2.0 * plans.iter().map(|p| p.block).chain([block_mean]).fold(1.0, f64::max);
    let id = stat_id(s.name);
    let resampled: Vec<bool> = plans.iter().map(|pl| need_blocks && pl.reads_block_bootstrap(n, series_dependent)).collect();
    if !whole {
        settle_intervals(&mut ranking, &plans, o.confidence, &resampled);
    }
    // The bootstrap reads the groups from the ranking; then the values are written over it.
    let boot = need_blocks.then(|| block_bootstrap(&ranking, s.windows, &plans, &resampled, block, o, id)).flatten();
    let sorted = ranking.into_values();
    let mean_bias_ratio = mean_dependence.bias_ratio;
    let (windows, with_distribution) = (s.windows, s.with_distribution);
    let m = MetricIntervals { sorted, n, km, censoring, var, windows, o, id, mean, dependence, mean_bias_ratio, series_dependent, affordable, block, boot };
    let (out, dist) = m.estimates(&plans, with_distribution.then_some(whole));
    (out, Some(m.dependence), dist)
}

/// The mean, the (population) variance and the mean's dependence, summed in time order: how
/// the ranks were settled must not move the last digits. Censored values count at their
/// censoring times (the mean is then only bounded below).
fn moments(s: &MetricSample<'_>, n: usize) -> (f64, f64, ScoreDependence) {
    let mean = s.restricted_pairs().map(|(_, v)| v).sum::<f64>() / n as f64;
    let var = s.restricted_pairs().map(|(_, v)| (v - mean).powi(2)).sum::<f64>() / n as f64;
    (mean, var, design_effect(&deviation_window_sums(s, mean), n, var))
}

impl MetricIntervals<'_> {
    /// Every statistic of the metric, and its distribution when asked for (`whole`: whether
    /// the values were sorted whole).
    fn estimates(&self, plans: &[Plan], whole: Option<bool>) -> (BTreeMap<String, Estimate>, Option<super::distribution::Distribution>) {
        let percentile = |(i, pl): (usize, &Plan)| (pl.key.clone(), self.percentile(i, pl).with_censoring(self.censoring));
        let mut out: BTreeMap<String, Estimate> = plans.iter().enumerate().map(percentile).collect();
        if self.o.percentiles_only {
            return (out, whole.and_then(|whole| self.distribution(whole)));
        }
        out.insert("mean".into(), self.mean());
        if let Some(e) = self.median_bca(plans[0].q) {
            out.insert("p50_bca".into(), e);
        }
        (out, whole.and_then(|whole| self.distribution(whole)))
    }

    /// The distribution of the observed values (the censored ones rank last, as +infinity),
    /// its quantile grid through the product-limit ranks.
    fn distribution(&self, whole: bool) -> Option<super::distribution::Distribution> {
        let observed = &self.sorted[..self.km.observed()];
        let mut d = super::distribution::distribution(observed, whole, self.var.sqrt())?;
        if self.censoring.is_some() {
            d.quantiles = censored::quantile_grid(&self.km, observed, &super::distribution::QUANTILE_GRID);
        }
        Some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use credence_stats::quantile::quantile_sorted;

    fn sample(n: usize, windows: usize) -> (Vec<f64>, Vec<u32>) {
        // Deterministic, independent-looking values: a Weyl sequence through a log-normal map.
        let values = (0..n).map(|i| (((i as f64 * 0.618_033_988_75) % 1.0) * 4.0 - 2.0).exp()).collect();
        let window = (0..n).map(|i| (i * windows / n) as u32).collect();
        (values, window)
    }

    #[test]
    fn one_runs_interval_widens_for_half_its_blocks_and_a_change_for_both_runs() {
        // 60 groups in blocks of 5: 12 blocks; one run's variance is known to 5 degrees of
        // freedom, a change's (two runs' variances summed) to 10.
        assert_eq!(one_run_df(60, 5.0), 5.0);
        assert_eq!(change_df(60, 5.0), 10.0);
        assert_eq!(one_run_df(6, 5.0), 2.0, "floored at 2");
        // t quantiles from scipy.stats.t.ppf(0.975, df): 2.570582 (5), 2.228139 (10).
        let z = 1.959_964;
        assert!((few_blocks_factor(5.0, 0.95) - 2.570_582 / z).abs() < 1e-5);
        assert!((few_blocks_factor(10.0, 0.95) - 2.228_139 / z).abs() < 1e-5);
    }

    #[test]
    fn large_independent_samples_still_get_a_mean_interval() {
        let (values, window) = sample(30_000, 60);
        let o = IntervalOptions { confidence: 0.95, seed: 1, resamples: 9_999, extra_percentiles: Vec::new(), percentiles_only: false };
        let (est, _, _) =
            metric_estimates(&MetricSample { name: "x", values: &values, window: &window, windows: 60, with_distribution: true, censored: None }, &o);
        assert_eq!(est["mean"].status, super::super::Status::Ok, "{:?}", est["mean"]);
        assert!(!est.contains_key("p50_bca"), "the i.i.d. BCa is skipped above the budget");
    }

    #[test]
    fn a_window_too_short_to_measure_dependence_gets_no_interval() {
        // 500 values in 5 groups: the dependence needs 8 groups to be measured.
        let (values, window) = sample(500, 5);
        let o = IntervalOptions { confidence: 0.95, seed: 1, resamples: 999, extra_percentiles: Vec::new(), percentiles_only: false };
        let (est, _, _) =
            metric_estimates(&MetricSample { name: "x", values: &values, window: &window, windows: 5, with_distribution: false, censored: None }, &o);
        for key in ["p50", "p90", "mean", "p50_bca"] {
            let e = &est[key];
            assert_eq!(e.status, super::super::Status::InsufficientData, "{key}: {e:?}");
            assert!(e.estimate.is_some() && e.ci_low.is_none() && e.ci_high.is_none(), "{key}: {e:?}");
            assert!(e.note.as_deref().unwrap_or("").contains("5 resampling group(s)"), "{key}: {e:?}");
        }
        // Eight groups measure it: the same values get an interval.
        let window: Vec<u32> = (0..500).map(|i| (i * 8 / 500) as u32).collect();
        let (est, _, _) =
            metric_estimates(&MetricSample { name: "x", values: &values, window: &window, windows: 8, with_distribution: false, censored: None }, &o);
        assert_eq!(est["p50"].status, super::super::Status::Ok, "{:?}", est["p50"]);
    }

    #[test]
    fn percentiles_alone_are_the_full_estimators_percentiles() {
        let (values, window) = sample(3_000, 40);
        let full = IntervalOptions { confidence: 0.95, seed: 1, resamples: 999, extra_percentiles: Vec::new(), percentiles_only: false };
        let sample = MetricSample { name: "x", values: &values, window: &window, windows: 40, with_distribution: false, censored: None };
        let (all, _, _) = metric_estimates(&sample, &full);
        let (alone, _, _) = metric_estimates(&sample, &IntervalOptions { percentiles_only: true, ..full });
        assert!(all.contains_key("mean") && all.contains_key("p50_bca"));
        assert_eq!(alone.keys().collect::<Vec<_>>(), ["p50", "p90", "p99", "p999"]);
        for (k, e) in &alone {
            assert_eq!(e, &all[k], "{k}");
        }
    }

    #[test]
    fn small_samples_report_insufficient_tails() {
        let (values, window) = sample(500, 25);
        let o = IntervalOptions { confidence: 0.95, seed: 1, resamples: 999, extra_percentiles: Vec::new(), percentiles_only: false };
        let (est, _, _) =
            metric_estimates(&MetricSample { name: "x", values: &values, window: &window, windows: 25, with_distribution: true, censored: None }, &o);
        assert_eq!(est["p50"].status, super::super::Status::Ok);
        let p999 = &est["p999"];
        assert_eq!(p999.status, super::super::Status::InsufficientData);
        assert!(p999.estimate.is_some() && p999.ci_high.is_none());
        assert!(p999.note.as_deref().unwrap_or("").contains("longer would resolve it"));
    }

    /// A sample of `n` values of which those at `censored` positions timed out at `timeout_ms`.
    fn censored_estimates(values: &[f64], at_ms: &[f64], windows: usize) -> BTreeMap<String, Estimate> {
        let n = values.len();
        let window: Vec<u32> = (0..n).map(|i| (i * windows / n) as u32).collect();
        let o = IntervalOptions { confidence: 0.95, seed: 1, resamples: 999, extra_percentiles: Vec::new(), percentiles_only: false };
        let censored = Some(CensoredValues { at_ms, before: crate::estimate::CensoredBefore::FirstToken });
        metric_estimates(&MetricSample { name: "ttft", values, window: &window, windows, with_distribution: true, censored }, &o).0
    }

    /// One timeout above every observed value: the percentiles are the type-7 ones of the
    /// sample with the timed-out requests ranked last, and those among them are bounds.
    #[test]
    fn timed_out_requests_rank_last_and_bound_the_percentiles_among_them() {
        let (values, _) = sample(2_000, 40);
        // Every 5th request timed out at 20 s: 20 % censored.
        let at_ms: Vec<f64> = (0..2_000).map(|i| if i % 5 == 0 { 20_000.0 + i as f64 * 1e-3 } else { f64::NAN }).collect();
        let est = censored_estimates(&values, &at_ms, 40);
        let mut all: Vec<f64> = values.iter().zip(&at_ms).map(|(v, c)| if c.is_finite() { f64::INFINITY } else { *v }).collect();
        all.sort_by(f64::total_cmp);
        assert_eq!(est["p50"].estimate, quantile_sorted(&all, 0.5), "the median of all 2000, not of the 1600 survivors");
        assert_eq!(est["p50"].method, Method::KaplanMeier);
        assert_eq!(est["p50"].n, 2_000);
        let p90 = &est["p90"];
        assert!(p90.is_censored_bound(), "{p90:?}");
        assert_eq!((p90.ci_low, p90.ci_high), (Some(20_000.0), None), "the censoring level: the smallest timeout");
        assert!(p90.note.as_deref().unwrap().contains("20 % of requests timed out or were cancelled before their first token"), "{p90:?}");
        let mean = &est["mean"];
        assert!(mean.is_censored_bound() && mean.method == Method::RestrictedMean, "{mean:?}");
        assert!(!est.contains_key("p50_bca"));
    }

    /// Censoring below observed values (cancellations early in the tail): the product-limit
    /// point, and an interval from the order statistics, never a block bootstrap.
    #[test]
    fn censoring_below_the_percentile_uses_the_product_limit_ranks() {
        let (values, _) = sample(2_000, 40);
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        let median = quantile_sorted(&sorted, 0.5).unwrap();
        // Every 10th request cancelled at a tenth of its latency: censoring below the median.
        let at_ms: Vec<f64> = values.iter().enumerate().map(|(i, v)| if i % 10 == 0 { v * 0.1 } else { f64::NAN }).collect();
        let est = censored_estimates(&values, &at_ms, 40);
        let p50 = &est["p50"];
        assert_eq!((p50.status, p50.method), (super::super::Status::Ok, Method::KaplanMeier), "{p50:?}");
        // The survivors' median would be biased only by chance here (censoring unrelated to the
        // value); the product-limit one stays near the full sample's.
        assert!((p50.estimate.unwrap() / median - 1.0).abs() < 0.05, "{p50:?} vs {median}");
        assert!(p50.ci_low.unwrap() <= median && median <= p50.ci_high.unwrap(), "{p50:?} vs {median}");
    }

    #[test]
    fn claimed_percentiles_are_estimated_beside_the_reported_ones() {
        let (values, window) = sample(2_000, 40);
        let o = IntervalOptions { confidence: 0.95, seed: 1, resamples: 999, extra_percentiles: vec![0.95, 0.999, 0.005, 0.25], percentiles_only: false };
        let (est, _, _) =
            metric_estimates(&MetricSample { name: "x", values: &values, window: &window, windows: 40, with_distribution: true, censored: None }, &o);
        let keys: Vec<&str> = est.keys().map(String::as_str).collect();
        assert_eq!(keys, ["mean", "p0.5", "p25", "p50", "p50_bca", "p90", "p95", "p99", "p999"], "99.9 % keeps its reported key");
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(est["p95"].estimate, quantile_sorted(&sorted, 0.95));
        assert_eq!(est["p95"].status, super::super::Status::Ok);
        assert_eq!(percentile_key(0.999_000_000_000_000_1), "p999");
        assert_eq!(percentile_key(0.995), "p99.5");
    }
}
