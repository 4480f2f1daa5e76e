//! `credence compare`: is the difference between two configurations real, and does it matter?
//!
//! Inputs are analyzed runs (each with its steady window). For every metric: the relative
//! change with a 95 % interval that carries every source of noise (each run's block-bootstrap
//! variance, and the between-run variance pooled over both arms with a weak prior: see
//! `pooled`), secondary rank statistics, and a verdict against the user's tolerance τ, which
//! the spread of the runs never moves. Validity gates (same workload, what changed, steady
//! state, replication, run spread, drift) are checked first. With several runs per arm, a run
//! without steady state is left out of its arm and named.

pub mod adapters;
mod censoring;
pub mod change;
pub mod clean;
pub mod decision;
pub mod gate_reason;
pub mod gates;
pub mod pooled;
pub mod verdict;

use std::collections::BTreeMap;

use serde::Serialize;

use super::intervals::{MIN_WINDOWS_FOR_DEPENDENCE, change_df, few_blocks_factor, one_run_df};
pub use super::plan::advice::MoreData;
use super::plan::advice::more_data_plan;
use super::requests::RequestView;
use super::{Analysis, resampling_group_s};
use credence_stats::block_length::politis_white;
use credence_stats::effect_size::{CliffOptions, CliffsDelta, cliffs_delta, hodges_lehmann};
use credence_stats::mann_whitney::{Alternative, p_asymptotic};
use credence_stats::rank::SortedGroups;
use credence_stats::resample::stat_id;
use credence_stats::stationary::{Grouped, grouped_bootstrap, series_mean_bootstrap};
pub use change::RunStatistic;
pub use change::VarianceComponents;
pub use gates::Gate;
use pooled::{BetweenRunPrior, DEFAULT_PRIOR, PooledChange};
use verdict::{Better, Verdict, decide, more_data_factor};

/// One analyzed run, as compare needs it.
#[derive(Clone)]
pub struct ArmRun<'a> {
    pub name: String,
    pub manifest: &'a credence_run::Manifest,
    pub view: &'a RequestView,
    pub analysis: &'a Analysis,
}

#[derive(Debug, Clone)]
pub struct CompareOptions {
    pub tolerance: f64,
    pub per_metric_tolerance: BTreeMap<String, f64>,
    pub resamples: usize,
    pub seed: u64,
    pub allow_workload_mismatch: bool,
    /// Run names in execution order (e.g. base1, cand1, base2), for the drift check.
    pub order: Option<Vec<String>>,
    /// What is assumed of run-to-run noise before several runs show it.
    pub prior: BetweenRunPrior,
}

impl Default for CompareOptions {
    fn default() -> CompareOptions {
        CompareOptions {
            tolerance: 0.05,
            per_metric_tolerance: BTreeMap::new(),
            resamples: 9999,
            seed: 0x00C0_FFEE,
            allow_workload_mismatch: false,
            order: None,
            prior: DEFAULT_PRIOR,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ChangeInterval {
    pub estimate: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub confidence: f64,
    pub method: &'static str,
    pub seed: u64,
    pub resamples: usize,
    /// Degrees of freedom of the t quantile behind the interval; null where none is used.
    pub df: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Secondary {
    /// Hodges–Lehmann shift of log latency, as a relative change.
    pub hodges_lehmann: Option<f64>,
    pub cliffs_delta: Option<CliffsDelta>,
    pub mann_whitney_p: Option<f64>,
    pub note: &'static str,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct ArmVariance {
    pub base: VarianceComponents,
    pub cand: VarianceComponents,
}

#[derive(Debug, Clone, Serialize)]
pub struct MetricComparison {
    pub change: ChangeInterval,
    /// The 90 % interval used for equivalence (TOST).
    pub change_90: (f64, f64),
    /// The user's tolerance τ for this metric (never raised by the spread of the runs).
    pub tolerance: f64,
    pub verdict: Verdict,
    pub better: Better,
    pub base: f64,
    pub cand: f64,
    /// 95 % intervals of `base` and `cand` (percentile intervals of the resamples behind the
    /// change; Wilson intervals for the error rate).
    pub base_ci: (f64, f64),
    pub cand_ci: (f64, f64),
    /// Observations per arm (requests for latency and error rate, windows for throughput).
    pub n_base: u64,
    pub n_cand: u64,
    /// Variance components of each arm's statistic.
    pub variance: ArmVariance,
    /// The pooled between-run variance behind the interval (null for the error rate).
    pub pooled: Option<PooledChange>,
    /// The largest relative difference between two runs of one arm (the seed's A/A check: it
    /// informs, it does not move τ); null with one run per arm.
    pub run_spread: Option<f64>,
    /// For inconclusive verdicts: how many more runs, or requests per run, would decide.
    pub more_data: Option<MoreData>,
    pub reason: Option<String>,
    /// The fewest resampling groups (windows for throughput) in a run's steady window, when
    /// under `MIN_WINDOWS_FOR_DEPENDENCE`: that run's dependence cannot be measured, so the
    /// verdict is inconclusive and no more-data advice is given. Null otherwise.
    pub too_few_groups: Option<usize>,
    pub secondary: Option<Secondary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub valid: bool,
    pub gates: Vec<Gate>,
    pub base_runs: Vec<String>,
    pub cand_runs: Vec<String>,
    /// Runs left out of their arm for want of a steady state (only from arms of several runs).
    pub left_out: Vec<String>,
    /// The run-to-run noise assumed before the runs show it (see `pooled`).
    pub between_run_prior: BetweenRunPrior,
    pub metrics: BTreeMap<String, MetricComparison>,
    /// Latency metrics left out of `metrics` because a run's percentile is beyond the censoring
    /// level (timed-out requests), or its interval reaches it: no change can be computed from a
    /// bound. Metric → reason; absent when none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub not_compared: BTreeMap<String, String>,
    /// Configuration that differs between the arms: labels, config, workload, software versions.
    pub what_changed: Vec<gates::Difference>,
    /// Measured environment values that differ (temperatures, memory in use, ...): context for
    /// the reader, never a switch.
    pub environment_changed: Vec<gates::Difference>,
    /// Per LoRA adapter both arms served: P50 TTFT and P50 TPOT compared; absent without.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub adapters: Vec<adapters::AdapterComparison>,
    pub replication: String,
    /// The verdicts on clean windows, when either arm has episodes with an environmental
    /// cause (see `analyze::conditions`); null otherwise.
    pub clean: Option<clean::CleanComparison>,
    /// Which verdicts decide (the exit code and the headline), and why.
    pub decision: decision::Decision,
    /// The first sentence every renderer shows, in English (the report fills it in; null in
    /// a comparison not yet rendered).
    pub headline: Option<String>,
    /// The same sentence as a message (`locales/*/compare.ftl`), which every report language
    /// renders.
    pub headline_message: Option<credence_messages::Message>,
}

const LATENCY: [(&str, &str, f64); 6] = [
    ("ttft_p50", "ttft", 0.5),
    ("ttft_p99", "ttft", 0.99),
    ("tpot_p50", "tpot", 0.5),
    ("tpot_p99", "tpot", 0.99),
    ("e2e_p50", "e2e", 0.5),
    ("e2e_p99", "e2e", 0.99),
];

/// Request `i`'s `metric` value as a percentile ranks it: a timed-out or cancelled request's
/// censored latency counts as +infinity (above every observed one, as `analyze` ranks it);
/// NaN where the request has none.
fn ranked_value(v: &RequestView, col: &[f64], metric: &str, i: usize) -> f64 {
    let censored = match metric {
        "ttft" => v.ttft_censored_ms(i),
        "e2e" => v.e2e_censored_ms(i),
        _ => None,
    };
    if censored.is_some() { f64::INFINITY } else { col[i] }
}

fn column<'v>(v: &'v RequestView, metric: &str) -> &'v [f64] {
    match metric {
        "ttft" => &v.ttft_ms,
        "tpot" => &v.tpot_ms,
        _ => &v.e2e_ms,
    }
}

/// Steady-window values of one latency metric, sorted, with their resampling groups (5 s, wider
/// on windows over an hour).
struct Sample {
    sorted: Vec<f64>,
    group_of_rank: Vec<u32>,
    groups: usize,
}

/// Builds each latency metric's sample of a run once; every statistic reads from it. With
/// `clean`, only the requests sent in the run's clean windows, their groups renumbered in time
/// order (the blocks of the clean condition only).
fn samples(run: &ArmRun<'_>, clean: bool) -> BTreeMap<&'static str, Sample> {
    let s = &run.analysis.steady_state;
    let keep = clean::sent_filter(run, clean);
    // The groups `analyze` resampled, so the change's interval agrees with each run's own.
    let group_s = resampling_group_s(run.analysis.options.window_s, s.end_s - s.start_s);
    let k = (((s.end_s - s.start_s) / group_s).ceil() as usize).max(1);
    ["ttft", "tpot", "e2e"]
        .into_iter()
        .map(|metric| {
            let col = column(run.view, metric);
            let mut pairs: Vec<(f64, u32)> = (s.start_request..s.end_request)
                .map(|i| (i, ranked_value(run.view, col, metric, i)))
                .filter(|&(i, v)| !v.is_nan() && keep(run.view.sent_s[i]))
                .map(|(i, v)| (v, (((run.view.sent_s[i] - s.start_s) / group_s).max(0.0) as usize).min(k - 1) as u32))
                .collect();
            // The clean blocks are that condition's only; the whole window keeps its groups.
            let groups = if clean { clean::renumber_groups(&mut pairs, k) } else { k };
            let (sorted, group_of_rank) = credence_stats::rank::sort_by_value(pairs.into_iter());
            (metric, Sample { sorted, group_of_rank, groups })
        })
        .collect()
}

fn percentile_statistic(run: &ArmRun<'_>, sample: &Sample, metric: &str, p: f64, o: &CompareOptions, salt: &str, clean: bool) -> Option<RunStatistic> {
    let sorted = &sample.sorted;
    let key = if p == 0.5 { "p50" } else { "p99" };
    // No change from a bound: see `censoring` (the comparison lists the metric and why).
    if sorted.len() < 20 || censoring::censored_reason(run, metric, key, clean).is_some() {
        return None;
    }
    let estimate = credence_stats::quantile::quantile_sorted(sorted, p).filter(|q| q.is_finite())?;
    let half = 8.0 * (sorted.len() as f64 * p * (1.0 - p)).sqrt() * 4.0 + 50.0;
    // The block length `analyze` chose for this run's intervals, so that the change's interval
    // agrees with the intervals each run's own report shows.
    let (metrics, dependence) = clean::estimates(run, clean);
    let block = metrics
        .get(metric)
        .and_then(|m| m.get(key))
        .and_then(|e| e.block_length)
        .unwrap_or_else(|| 2.0 * dependence.get(metric).map_or(1.0, |d| d.block_length_windows.max(1.0)));
    let data = Grouped { ranked: &SortedGroups { sorted, group_of_rank: &sample.group_of_rank }, groups: sample.groups };
    let boot = grouped_bootstrap(&data, &[p], &[half], block, o.resamples, o.seed, stat_id(&format!("{salt}{}{metric}{p}", run.name)))?;
    let widen = few_blocks_factor(change_df(sample.groups, block), 0.95);
    let replicates = widened(estimate, boot.quantiles.into_iter().next()?, widen);
    // A resample that reached the censored values has no finite quantile: the run's own
    // interval reached them too, and was refused above; this guards the rest.
    if replicates.iter().any(|x| x.is_infinite()) {
        return None;
    }
    Some(RunStatistic { estimate, n: sorted.len() as u64, replicates, variance_df: one_run_df(sample.groups, block), groups: Some(sample.groups) })
}

/// Stretches bootstrap replicates away from the estimate by `factor` on the log scale: the same
/// few-blocks correction `analyze` applies to its intervals, so that a change's interval is as
/// wide as the two runs' calibrated intervals imply (without it, A/B intervals under-cover).
fn widened(estimate: f64, replicates: Vec<f64>, factor: f64) -> Vec<f64> {
    if estimate.is_nan() || estimate <= 0.0 {
        return replicates;
    }
    replicates.into_iter().map(|x| if x > 0.0 { estimate * (x / estimate).powf(factor) } else { x }).collect()
}

fn throughput_statistic(run: &ArmRun<'_>, tokens: bool, o: &CompareOptions, salt: &str, clean: bool) -> Option<RunStatistic> {
    let s = &run.analysis.steady_state;
    let w = run.analysis.options.window_s;
    let k = ((s.end_s - s.start_s) / w).floor() as usize;
    if k < 4 {
        return None;
    }
    let mut per = vec![0.0; k];
    for i in 0..run.view.len() {
        let e = run.view.end_s[i];
        if run.view.ok[i] && e >= s.start_s {
            let b = ((e - s.start_s) / w) as usize;
            if b < k {
                per[b] += if tokens { f64::from(run.view.output_tokens[i]).max(0.0) } else { 1.0 };
            }
        }
    }
    let per = clean::clean_windows(run, per, clean);
    let k = per.len();
    if k < 4 {
        return None;
    }
    let block = politis_white(&per).map_or(1.0, |b| b.stationary);
    let reps = series_mean_bootstrap(&per, block, o.resamples, o.seed, stat_id(&format!("{salt}{}{tokens}", run.name)));
    let estimate = per.iter().sum::<f64>() / k as f64 / w;
    let widen = few_blocks_factor(change_df(k, block), 0.95);
    let replicates = widened(estimate, reps.into_iter().map(|x| x / w).collect(), widen);
    Some(RunStatistic { estimate, n: k as u64, replicates, variance_df: one_run_df(k, block), groups: Some(k) })
}

fn secondary(base: &[BTreeMap<&'static str, Sample>], cand: &[BTreeMap<&'static str, Sample>], metric: &str) -> Secondary {
    let pool = |arm: &[BTreeMap<&'static str, Sample>]| -> Vec<f64> {
        arm.iter().flat_map(|s| s[metric].sorted.iter().copied()).filter(|v| *v > 0.0 && v.is_finite()).map(f64::ln).collect()
    };
    let (b, c) = (pool(base), pool(cand));
    Secondary {
        hodges_lehmann: hodges_lehmann(&c, &b, 20_000_000).map(|d| d.exp() - 1.0),
        cliffs_delta: cliffs_delta(&c, &b, CliffOptions { unbiased: true, normal: false, confidence: 0.95 }),
        mann_whitney_p: p_asymptotic(&c, &b, Alternative::TwoSided, true),
        note: "requests within one run are not independent replicates of a configuration: these rank statistics overstate certainty and do not decide the verdict",
    }
}

/// How one run's statistic of a metric is computed from the run and its samples.
type Stat<'s> = Box<dyn Fn(&ArmRun<'_>, &BTreeMap<&'static str, Sample>, &str) -> Option<RunStatistic> + 's>;

/// Every compared metric except the error rate, in order: name, better direction, statistic
/// (on the clean windows with `clean`).
fn metric_specs(o: &CompareOptions, clean: bool) -> Vec<(String, Better, Stat<'_>)> {
    let mut specs: Vec<(String, Better, Stat<'_>)> = Vec::new();
    for (name, metric, p) in LATENCY {
        specs.push((name.to_string(), Better::Lower, Box::new(move |r, s, salt| percentile_statistic(r, &s[metric], metric, p, o, salt, clean))));
    }
    specs.push(("output_tokens_per_s".into(), Better::Higher, Box::new(move |r, _, salt| throughput_statistic(r, true, o, salt, clean))));
    specs.push(("requests_per_s".into(), Better::Higher, Box::new(move |r, _, salt| throughput_statistic(r, false, o, salt, clean))));
    specs
}

/// The names of the relative metrics compare computes, in order (the error rate aside).
pub fn metric_names() -> Vec<String> {
    LATENCY.iter().map(|(name, _, _)| name.to_string()).chain(["output_tokens_per_s".to_string(), "requests_per_s".to_string()]).collect()
}

/// Each metric's statistic of every run of one arm, in run order (None where a run lacks it),
/// computed as `compare` computes them as measured: the planner reads its variance from these.
pub fn run_statistics(runs: &[ArmRun<'_>], o: &CompareOptions) -> BTreeMap<String, Vec<Option<RunStatistic>>> {
    let run_samples: Vec<_> = runs.iter().map(|r| samples(r, false)).collect();
    metric_specs(o, false).iter().map(|(name, _, stat)| (name.clone(), runs.iter().zip(&run_samples).map(|(r, s)| stat(r, s, "base")).collect())).collect()
}

/// The user's tolerance for a metric: its own, its family's (`ttft`), or the global one.
fn tolerance_for(o: &CompareOptions, name: &str) -> f64 {
    o.per_metric_tolerance.get(name).or_else(|| o.per_metric_tolerance.get(name.split('_').next().unwrap_or(""))).copied().unwrap_or(o.tolerance)
}

/// The seed's A/A check: the largest relative difference between two runs of one arm; None
/// when neither arm has two runs.
fn run_spread(b: &[RunStatistic], c: &[RunStatistic]) -> Option<f64> {
    let within = |arm: &[RunStatistic]| arm.iter().flat_map(|x| arm.iter().map(move |y| (x.estimate / y.estimate - 1.0).abs())).fold(0.0, f64::max);
    (b.len() >= 2 || c.len() >= 2).then(|| within(b).max(within(c)))
}

/// Both arms with their latency samples, and what overrides every metric's verdict.
struct Arms<'a, 'r> {
    base: &'a [ArmRun<'r>],
    cand: &'a [ArmRun<'r>],
    base_samples: Vec<BTreeMap<&'static str, Sample>>,
    cand_samples: Vec<BTreeMap<&'static str, Sample>>,
    o: &'a CompareOptions,
    /// Whether an arm is left without a run in steady state to compare.
    no_steady: bool,
    /// With `--order`, the drift between consecutive base runs.
    drift: Option<f64>,
    /// Whether to add the rank statistics (not for the clean verdicts, which only need the change).
    secondary: bool,
}

/// The fewest resampling groups of a run that is alone in its arm, when under
/// `MIN_WINDOWS_FOR_DEPENDENCE`. An arm of several runs shows its own spread, whatever each
/// run's within-run interval misses; a lone run's interval is all its arm has.
fn lone_run_too_few_groups(b: &[RunStatistic], c: &[RunStatistic]) -> Option<usize> {
    [b, c].into_iter().filter(|arm| arm.len() == 1).flat_map(|arm| arm.iter().filter_map(|r| r.groups)).min().filter(|&g| g < MIN_WINDOWS_FOR_DEPENDENCE)
}

impl Arms<'_, '_> {
    /// The verdict against the tolerance `tol`, overridden by missing steady state, a lone run
    /// too short to measure its dependence (`too_few_groups` resampling groups) or drift, with
    /// the reason.
    fn verdict(&self, ci95: (f64, f64), ci90: (f64, f64), tol: f64, better: Better, too_few_groups: Option<usize>) -> (Verdict, Option<String>) {
        let mut verdict = decide(ci95, ci90, tol, better);
        let mut reason = None;
        // Whatever the interval says: a run that never settled measured no configuration's
        // level, and more data of the same kind would not settle it either.
        if self.no_steady {
            verdict = Verdict::Inconclusive;
            reason = Some("a run has no steady state".to_string());
        }
        // As in `analyze`, which gives such a run's estimates no interval: the bootstrap could
        // only treat its requests as independent, and the change's interval would be too narrow.
        if let Some(g) = too_few_groups.filter(|_| !self.no_steady) {
            verdict = Verdict::Inconclusive;
            reason = Some(format!(
                "a run's steady window holds {g} resampling group(s) and at least {MIN_WINDOWS_FOR_DEPENDENCE} are needed to measure how dependent its requests are, so the interval of the change cannot be trusted"
            ));
        }
        if let Some(d) = self.drift.filter(|d| *d > tol) {
            verdict = Verdict::Inconclusive;
            reason = Some(format!("the base runs drifted {:.1} % apart (more than the {:.1} % tolerance)", d * 100.0, tol * 100.0));
        }
        if self.base.len() == 1 && self.cand.len() == 1 && reason.is_none() {
            reason = Some("single-run: cannot separate the configuration effect from run-to-run noise".into());
        }
        (verdict, reason)
    }

    /// One metric's change, interval and verdict; None when a run lacks the statistic.
    fn metric(&self, name: &str, better: Better, stat: &Stat<'_>) -> Option<MetricComparison> {
        let o = self.o;
        let tol = tolerance_for(o, name);
        let b: Vec<RunStatistic> = self.base.iter().zip(&self.base_samples).filter_map(|(r, s)| stat(r, s, "base")).collect();
        let c: Vec<RunStatistic> = self.cand.iter().zip(&self.cand_samples).filter_map(|(r, s)| stat(r, s, "cand")).collect();
        if b.len() != self.base.len() || c.len() != self.cand.len() {
            return None;
        }
        let (pooled, ci95, ci90) = pooled_intervals(&b, &c, o.prior)?;
        let too_few_groups = lone_run_too_few_groups(&b, &c);
        let (verdict, reason) = self.verdict(ci95, ci90, tol, better, too_few_groups);
        let variance = ArmVariance { base: VarianceComponents::of(&b), cand: VarianceComponents::of(&c) };
        let secondary =
            name.split_once('_').filter(|_| better == Better::Lower && self.secondary).map(|(m, _)| secondary(&self.base_samples, &self.cand_samples, m));
        let mean = |v: &[RunStatistic]| v.iter().map(|x| x.estimate).sum::<f64>() / v.len() as f64;
        Some(MetricComparison {
            change: ChangeInterval {
                estimate: pooled.estimate,
                ci_low: ci95.0,
                ci_high: ci95.1,
                confidence: 0.95,
                method: METHOD,
                seed: o.seed,
                resamples: o.resamples,
                df: Some(pooled.df),
            },
            change_90: ci90,
            tolerance: tol,
            verdict,
            better,
            base: mean(&b),
            cand: mean(&c),
            base_ci: pooled.arm_interval(&b, 0.95),
            cand_ci: pooled.arm_interval(&c, 0.95),
            n_base: b.iter().map(|x| x.n).sum(),
            n_cand: c.iter().map(|x| x.n).sum(),
            variance,
            pooled: Some(pooled),
            run_spread: run_spread(&b, &c),
            // Every override (no steady state, too few groups, drift) leaves a reason, so advice
            // comes only from a verdict the interval itself left open.
            more_data: (verdict == Verdict::Inconclusive && reason.as_deref().is_none_or(|r| r.starts_with("single-run")))
                .then(|| more_data_factor(pooled.estimate, ci90, tol))
                .flatten()
                .map(|f| more_data_plan(f, &variance.base, &variance.cand, pooled.between, steady_requests(self.base).min(steady_requests(self.cand)))),
            reason,
            too_few_groups,
            secondary,
        })
    }
}

/// A change with its 95 % and 90 % intervals.
type Intervals = (PooledChange, (f64, f64), (f64, f64));

/// The change between two arms' statistics with its 95 % and 90 % intervals.
fn pooled_intervals(b: &[RunStatistic], c: &[RunStatistic], prior: BetweenRunPrior) -> Option<Intervals> {
    let pooled = PooledChange::new(b, c, prior)?;
    Some((pooled, pooled.interval(0.95), pooled.interval(0.90)))
}

/// The verdict the interval alone gives (no gate overrides) on two arms' statistics, as
/// `compare` reaches it: for studies that draw many arms from the same runs.
pub fn interval_verdict(b: &[RunStatistic], c: &[RunStatistic], tolerance: f64, better: Better, prior: BetweenRunPrior) -> Option<(Verdict, PooledChange)> {
    let (pooled, ci95, ci90) = pooled_intervals(b, c, prior)?;
    Some((decide(ci95, ci90, tolerance, better), pooled))
}

/// The interval's method, as the JSON records it.
pub const METHOD: &str = "t_over_runs_pooled_between_run_variance_block_bootstrap_within";

/// Requests in the steady windows of an arm's runs.
fn steady_requests(arm: &[ArmRun<'_>]) -> u64 {
    arm.iter().map(|r| r.analysis.steady_state.requests_in_window as u64).sum()
}

/// The drift gate: FAIL when drift made a metric inconclusive.
fn drift_gate(d: f64, metrics: &BTreeMap<String, MetricComparison>) -> Gate {
    let drifted = metrics.values().any(|m| m.reason.as_deref().is_some_and(|r| r.contains("drifted")));
    Gate::new("drift", if drifted { "FAIL" } else { "PASS" }, gate_reason::GateReason::Drift(d))
}

/// Whether a run reached a steady state.
fn is_steady(r: &ArmRun<'_>) -> bool {
    r.analysis.steady_state.classification != super::steady::Classification::NoSteadyState
}

/// The runs of an arm that enter its statistics, and the names of those left out. An arm of
/// several runs sets aside a run without steady state (one doubtful run should not veto the
/// comparison) while at least two remain; a lone run stays, and vetoes, as before.
fn usable_runs<'r>(arm: &[ArmRun<'r>]) -> (Vec<ArmRun<'r>>, Vec<String>) {
    let steady: Vec<ArmRun<'r>> = arm.iter().filter(|r| is_steady(r)).cloned().collect();
    if arm.len() >= 2 && steady.len() >= 2 {
        (steady, arm.iter().filter(|r| !is_steady(r)).map(|r| r.name.clone()).collect())
    } else {
        (arm.to_vec(), Vec::new())
    }
}

/// Compares two arms of analyzed runs.
pub fn compare(base: &[ArmRun<'_>], cand: &[ArmRun<'_>], o: &CompareOptions) -> Comparison {
    let ((usable_base, left_b), (usable_cand, left_c)) = (usable_runs(base), usable_runs(cand));
    let left_out: Vec<String> = left_b.into_iter().chain(left_c).collect();
    let gates::Checked { gates: mut gate_list, what_changed, environment_changed, workload_ok } = gates::check(base, cand, &left_out);
    let (base, cand) = (usable_base.as_slice(), usable_cand.as_slice());
    let (base_samples, cand_samples): (Vec<_>, Vec<_>) = (base.iter().map(|r| samples(r, false)).collect(), cand.iter().map(|r| samples(r, false)).collect());
    let base_ttft: Vec<Option<f64>> =
        base_samples.iter().map(|s| credence_stats::quantile::quantile_sorted(&s["ttft"].sorted, 0.5).filter(|q| q.is_finite())).collect();
    let drift = gates::drift(base, o, &|r: &ArmRun<'_>| base.iter().position(|x| x.name == r.name).and_then(|i| base_ttft[i]));
    let no_steady = !base.iter().chain(cand).all(is_steady);
    let arms = Arms { base, cand, base_samples, cand_samples, o, no_steady, drift, secondary: true };
    let mut metrics = BTreeMap::new();
    for (name, better, stat) in &metric_specs(o, false) {
        if let Some(m) = arms.metric(name, *better, stat) {
            metrics.insert(name.clone(), m);
        }
    }
    metrics.insert("error_rate".into(), gates::error_rate_change(base, cand, o.tolerance));
    if let Some(g) = gates::run_spread_gate(&metrics) {
        gate_list.push(g);
    }
    if let Some(d) = drift {
        gate_list.push(drift_gate(d, &metrics));
    }
    let replication = if base.len() == 1 && cand.len() == 1 {
        "single-run: cannot separate the configuration effect from run-to-run noise".to_string()
    } else {
        format!("{} base and {} candidate runs", base.len(), cand.len())
    };
    let valid = workload_ok || o.allow_workload_mismatch;
    let clean = clean::clean_comparison(base, cand, o, valid, (no_steady, drift), &metrics);
    let decision = decision::decide(&metrics, clean.as_ref());
    Comparison {
        valid,
        gates: gate_list,
        base_runs: base.iter().map(|r| r.name.clone()).collect(),
        cand_runs: cand.iter().map(|r| r.name.clone()).collect(),
        left_out,
        between_run_prior: o.prior,
        metrics,
        not_compared: censoring::not_compared(base, cand, false),
        what_changed,
        environment_changed,
        adapters: adapters::by_adapter(base, cand, o),
        replication,
        clean,
        decision,
        headline: None,
        headline_message: None,
    }
}
