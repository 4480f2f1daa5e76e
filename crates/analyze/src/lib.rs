//! Analysis of a loaded run: pure functions from typed columns to one serializable `Analysis`,
//! the single input of every renderer.
//!
//! `analyze` → per-request metrics (`requests`) → time series (`windows`) → steady window
//! (`steady`) → intervals inside it (`intervals`, `rates`) → warnings. `credence_stats` is the
//! statistics library underneath; it knows nothing about requests. A GPU capture without
//! requests has its own audit (`telemetry_audit`), outside the `Analysis`.

pub mod adapters;
mod aiperf_facts;
pub mod attribute;
pub mod audit;
pub mod cache;
pub mod capacity;
pub mod cause;
pub mod censored;
pub mod compare;
pub mod conditions;
pub mod credibility;
pub mod distribution;
pub mod estimate;
pub mod fact_reason;
pub mod history;
pub mod intervals;
pub mod overload;
pub mod plan;
pub mod prompt_lengths;
pub mod rates;
pub mod requests;
pub mod saved;
pub mod scatter;
pub mod slo;
pub mod steady;
pub mod telemetry_audit;
pub mod until;
pub mod warnings;
pub mod windows;

use std::borrow::Cow;
use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use censored::CensoredValues;
use credence_run::Run;
use credence_run::manifest::{SystemConfig, TimestampQuality};
pub use credence_stats::pelt::Penalty;
pub use estimate::{CensoredBefore, Censoring, Estimate, Method, Status};
use intervals::{Dependence, IntervalOptions, MetricSample, metric_estimates};
use rates::{ErrorRates, Throughput, error_rates, throughput};
use requests::RequestView;
use steady::{Classification, Detector, SteadyOptions, SteadyState, steady_state_excluding};
pub use warnings::Warning;
use windows::{TimeSeries, time_series};

/// Shortest time group used for dependence estimates and block resampling.
pub const GROUP_MIN_S: f64 = 5.0;

/// Most resampling groups of a steady window: an hour of 5-second groups. A block bootstrap
/// resample costs the number of blocks, and its rank bins hold a count per group and bin, so
/// a 93-hour soak run at 5-second groups (67 000 of them) took minutes and gigabytes per
/// metric; longer windows widen their groups instead, and cost what an hour costs.
pub const MAX_RESAMPLING_GROUPS: usize = 720;

/// Width of the resampling groups of a steady window `span_s` long: the analysis window, at
/// least `GROUP_MIN_S`, times the smallest whole factor that leaves at most
/// `MAX_RESAMPLING_GROUPS` groups.
pub fn resampling_group_s(window_s: f64, span_s: f64) -> f64 {
    let base = window_s.max(GROUP_MIN_S);
    let factor = (span_s / (base * MAX_RESAMPLING_GROUPS as f64)).ceil().max(1.0);
    base * factor
}

/// Options of `credence analyze`, already validated.
#[derive(Debug, Clone)]
pub struct AnalyzeOptions {
    pub window_s: f64,
    pub confidence: f64,
    pub seed: u64,
    pub resamples: usize,
    pub penalty: Penalty,
    /// Relative change treated as "the same level" by the steady-state detector.
    pub delta: f64,
    pub steady_from: Option<f64>,
    pub steady_to: Option<f64>,
    /// Percentiles (fractions) to estimate beside the reported ones (an audit asks for those
    /// the tool's claims state).
    pub extra_percentiles: Vec<f64>,
    /// Points of the per-request scatter to keep in the analysis (the HTML report asks for
    /// `scatter::DEFAULT_MAX_POINTS`); none: no scatter.
    pub scatter_points: Option<usize>,
    /// Service-level objectives to judge (`--slo`); their percentiles must be among those
    /// estimated (the reported ones and `extra_percentiles`).
    pub slo: Vec<slo::ObjectiveSpec>,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            window_s: 1.0,
            confidence: 0.95,
            seed: 0x00C0_FFEE,
            resamples: 9999,
            penalty: Penalty::Mbic,
            delta: 0.05,
            steady_from: None,
            steady_to: None,
            extra_percentiles: Vec::new(),
            scatter_points: None,
            slo: Vec::new(),
        }
    }
}

/// What was analyzed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunInfo {
    pub run_id: String,
    pub source_kind: String,
    pub source_name: String,
    pub labels: BTreeMap<String, String>,
    pub config: SystemConfig,
    pub arrival: String,
    pub rate_per_s: Option<f64>,
    pub concurrency: Option<u32>,
    pub timestamps: String,
    /// The pre-run environment checklist, as the manifest records it.
    pub environment: credence_run::manifest::Environment,
    /// Whether requests carry scheduled send times (open loop), so send lag is measurable.
    pub has_schedule: bool,
    /// Whether requests carry per-chunk times, so ITL is measurable.
    pub has_chunks: bool,
    /// Who wrote the run directory, and from which files.
    pub creator: credence_run::manifest::Creator,
    pub source_tool_version: Option<String>,
    pub source_files: Vec<credence_run::manifest::SourceFile>,
    pub format_version: u32,
    /// How `bench --until` ended the run (absent for a run of fixed length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<credence_run::manifest::RunStop>,
    /// How the scrapes of the server's metrics went (absent when none were asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_scrapes: Option<credence_run::manifest::ServerScrapes>,
}

/// The options in force, recorded next to the results.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OptionsUsed {
    pub window_s: f64,
    pub confidence: f64,
    pub seed: u64,
    pub resamples: usize,
    pub penalty: Penalty,
    pub steady_delta: f64,
    #[serde(deserialize_with = "saved::leak_str")]
    pub quantile_definition: saved::StaticText,
    pub steady_override: Option<(Option<f64>, Option<f64>)>,
}

/// Request counts, over the run and in the steady window.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RequestCounts {
    pub total: usize,
    pub ok: usize,
    /// Failed requests, those the load generator cancelled itself not among them.
    pub errors: usize,
    /// Requests the load generator cancelled (in flight when its run ended, or stopped by the user).
    pub cancelled: usize,
    pub declared_warmup: usize,
    /// Imported records that broke the requests contract, kept as failed rows of kind
    /// `invalid_source_row` (anywhere in the run, steady window or not).
    pub invalid_source: usize,
    pub in_steady_window: usize,
    /// Requests in the steady window lacking what a metric needs, per metric.
    pub missing: BTreeMap<String, usize>,
}

/// What a metric measures, in words.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MetricDefinition {
    #[serde(deserialize_with = "saved::leak_str")]
    pub unit: saved::StaticText,
    #[serde(deserialize_with = "saved::leak_str")]
    pub definition: saved::StaticText,
}

/// The complete result of analyzing one run. Documented in `schemas/analysis.schema.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Analysis {
    pub credence_version: String,
    pub run: RunInfo,
    pub options: OptionsUsed,
    pub requests: RequestCounts,
    pub steady_state: SteadyState,
    /// `metrics.<metric>.<stat>`; stats are p50, p90, p99, p999, mean (and p50_bca).
    pub metrics: BTreeMap<String, BTreeMap<String, Estimate>>,
    pub metric_definitions: BTreeMap<String, MetricDefinition>,
    pub dependence: BTreeMap<String, Dependence>,
    /// Steady-window distributions of TTFT, TPOT, E2E and ITL (for the CDF and histograms).
    pub distributions: BTreeMap<String, distribution::Distribution>,
    pub throughput: Throughput,
    /// The numbers in clean windows and inside each environmental cause's episodes; empty when
    /// no such episode touches the steady window.
    pub conditions: Vec<conditions::Condition>,
    pub errors: ErrorRates,
    pub timeseries: TimeSeries,
    /// Causes tied to anomalies, ranked; see `attribution` for what was checked.
    pub findings: Vec<attribute::Finding>,
    /// GPU and host telemetry on the request timeline, for the report's panels.
    pub telemetry: attribute::timeline::TelemetryTimeline,
    pub attribution: attribute::Attribution,
    pub credibility: credibility::Credibility,
    pub warnings: Vec<Warning>,
    /// The per-request scatter of the HTML report (`scatter::scatter`); absent unless asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scatter: Option<scatter::Scatter>,
    /// Whether the server kept up with the offered load (`overload::load`); absent in an
    /// analysis saved before it was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<overload::Load>,
    /// The service-level objectives judged, attainment and goodput; absent without `--slo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slo: Option<slo::Slo>,
    /// The server's prefix cache: hit rate with its interval, the server's counters, and in
    /// conversations each turn's TTFT; absent when nothing reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<cache::CacheState>,
    /// The steady window split by the LoRA adapter each request named; empty without `--lora`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adapters: Vec<adapters::AdapterSplit>,
    /// The server's prompt counts against the lengths `bench` built; absent where the run
    /// records no built lengths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_lengths: Option<prompt_lengths::PromptLengths>,
}

const DEFINITIONS: [(&str, &str, &str); 8] = [
    ("ttft", "ms", "Time to first token: first token minus sent."),
    (
        "ttfot",
        "ms",
        "Time to first output token: the first answer token (text, content or tool calls, after any reasoning) minus sent. Only for runs that record first_content_ns.",
    ),
    ("tpot", "ms", "Time per output token after the first: (end − first token) / (output tokens − 1)."),
    ("itl", "ms", "Inter-token latency: every gap between consecutive streamed chunks (a chunk may carry several tokens)."),
    ("e2e", "ms", "End-to-end latency from the actual send: end minus sent. Hides any delay of the send itself."),
    (
        "service",
        "ms",
        "Latency from the *scheduled* send time: end minus scheduled. Includes the client's own send lag, so coordinated omission shows here and not in e2e.",
    ),
    ("send_lag", "ms", "Queue or schedule delay at the client: sent minus scheduled."),
    ("request_tokens_per_s", "tokens/s", "Output tokens per second of one request: output tokens / e2e."),
];

/// The definition of every metric the run measures (`ttfot` only where it was recorded).
fn metric_definitions(r: &RequestView) -> BTreeMap<String, MetricDefinition> {
    DEFINITIONS
        .iter()
        .filter(|(k, _, _)| *k != "ttfot" || !r.ttfot_ms.is_empty())
        .map(|(k, unit, definition)| (k.to_string(), MetricDefinition { unit, definition }))
        .collect()
}

/// Analyzes a run. Pure: the same run and options give the same `Analysis`.
pub fn analyze(run: &Run, opts: &AnalyzeOptions) -> Analysis {
    let mut a = analyze_view(&run.manifest, &RequestView::from_table(&run.requests), &attribute::Telemetry::of(run), opts);
    a.errors.examples = rates::error_examples(&run.requests);
    a
}

/// Analyzes a run whose requests were already turned into a `RequestView` (lets the caller
/// free the Arrow table first: on 10-million-request runs that halves peak memory).
pub fn analyze_view(m: &credence_run::Manifest, r: &RequestView, telemetry: &attribute::Telemetry<'_>, opts: &AnalyzeOptions) -> Analysis {
    analyze_series(m, r, &attribute::TelemetrySeries::of(telemetry, r.t0_ns), opts)
}

/// `analyze_view` with the telemetry already turned into series (lets the caller free the
/// telemetry tables first: a long run's tables outweigh its series threefold).
pub fn analyze_series(m: &credence_run::Manifest, r: &RequestView, telemetry: &attribute::TelemetrySeries, opts: &AnalyzeOptions) -> Analysis {
    let timestamps_absent = m.clock.timestamps == TimestampQuality::Absent;
    // The objectives' percentiles are estimated too (P95 is not among the reported ones).
    let mut extra_percentiles = opts.extra_percentiles.clone();
    for o in &opts.slo {
        if !extra_percentiles.contains(&o.percentile) && !intervals::PERCENTILES.iter().any(|(_, p)| *p == o.percentile) {
            extra_percentiles.push(o.percentile);
        }
    }
    let iopts = IntervalOptions { confidence: opts.confidence, seed: opts.seed, resamples: opts.resamples, extra_percentiles, percentiles_only: false };
    let override_window = (opts.steady_from.is_some() || opts.steady_to.is_some()).then_some((opts.steady_from, opts.steady_to));
    let timing = credence_run::timing::Timing::new();
    // The time series reads only the requests: it is built while steady state and attribution
    // run, whose serial stretches leave a core idle.
    let load = (!timestamps_absent).then(|| overload::load(r, open_loop(m, r), m.workload.rate_per_s, opts.window_s, opts.confidence));
    let ((mut steady, findings, attribution, telemetry_timeline), series) =
        rayon::join(|| steady_and_attribution(m, r, telemetry, (opts, load.as_ref()), &timing), || time_series(r, opts.window_s));
    if load.as_ref().is_some_and(overload::Load::overloaded) {
        steady.classification = Classification::NoSteadyState;
    }
    let (first, last) = (steady.start_request, steady.end_request);
    let groups = ResamplingGroups::of(r, &steady, opts.window_s);
    let mut tables = MetricTables::default();
    // Throughput's bootstrap runs beside the six metrics' (seven tasks balance two cores).
    let (thr, errors) = rayon::join(
        || tables.add_columns(r, &groups, &iopts),
        || (measured_throughput(r, &steady, opts, &iopts, timestamps_absent), error_rates(r, first, last, opts.confidence)),
    )
    .1;
    timing.mark("per-request metrics, intervals and throughput");
    tables.add_itl(r, &groups, &iopts);
    timing.mark("inter-token latency");
    let conditions = conditions::conditions(r, &steady, &findings, opts.window_s, &iopts);
    timing.mark("conditions");
    let slo = (!opts.slo.is_empty() && !timestamps_absent)
        .then(|| slo::evaluate(r, &opts.slo, (first..last, steady.start_s, steady.end_s), &tables.metrics, (opts.window_s, &iopts)));
    let median = |column: &[f64], keep: &dyn Fn(usize) -> bool, name: &str| groups.median_of(column, keep, name, &iopts);
    let cache = cache::cache_state(r, first..last, (steady.start_s, steady.end_s), &telemetry.server, (opts.window_s, opts.confidence), &median);
    let series = if timestamps_absent { TimeSeries { windows: Vec::new(), ..series } } else { series };
    let mut analysis = Analysis {
        credence_version: env!("CARGO_PKG_VERSION").to_string(),
        run: run_info(m, r),
        options: options_used(opts, override_window),
        requests: request_counts(r, last - first, tables.missing),
        steady_state: steady,
        metrics: tables.metrics,
        metric_definitions: metric_definitions(r),
        dependence: tables.dependence,
        distributions: tables.distributions,
        throughput: thr,
        conditions,
        errors,
        timeseries: series,
        findings,
        telemetry: telemetry_timeline,
        attribution,
        credibility: credibility::Credibility::placeholder(),
        warnings: Vec::new(),
        scatter: None,
        load,
        slo,
        cache,
        adapters: adapters::split(r, first..last, &median),
        prompt_lengths: prompt_lengths::compare(r, m.config.extra.get("prompt_lengths").is_some_and(|v| v == "exact")),
    };
    analysis.credibility = credibility::assess(&[&analysis]);
    analysis.warnings = warnings::warnings(&analysis);
    timing.mark("credibility and warnings");
    analysis.scatter = opts.scatter_points.map(|n| scatter::scatter(r, &analysis, n));
    analysis
}

/// Where the run's load ended: its planned duration, unless the load generator stopped the
/// sends on purpose first (`bench --until`'s stop for any reason but `--max-duration`, or a
/// signal), when the run ends where the sends ended.
fn load_end(m: &credence_run::Manifest) -> attribute::LoadEnd {
    let until_stopped = m.phases.stop.as_ref().is_some_and(|s| s.reason != "max_duration");
    match m.workload.duration_s {
        _ if until_stopped || m.config.extra.contains_key("stopped_early") => attribute::LoadEnd::Stopped,
        Some(d) => attribute::LoadEnd::Planned(d),
        None => attribute::LoadEnd::Unknown,
    }
}

/// Whether the run's load was an open loop (requests offered whatever the server did), a
/// closed one, or unknown: by its arrival process, else by whether it has an offered rate or
/// scheduled sends.
fn open_loop(m: &credence_run::Manifest, r: &RequestView) -> Option<bool> {
    use credence_run::manifest::Arrival;
    match m.workload.arrival {
        Arrival::Poisson | Arrival::Constant | Arrival::TraceReplay => Some(true),
        Arrival::ClosedLoop => Some(false),
        Arrival::Unknown => (m.workload.rate_per_s.is_some() || r.scheduled_s.iter().any(|t| t.is_finite())).then_some(true),
    }
}

/// What attribution returns: findings, what was checked, and the telemetry timeline.
type Attributed = (Vec<attribute::Finding>, attribute::Attribution, attribute::timeline::TelemetryTimeline);

/// The steady window and attribution against it. Steady state is judged on the clean series:
/// when attribution finds episodes with an environmental cause, they are cut out of the
/// detection series and attribution runs again against the window found there.
fn steady_and_attribution(
    m: &credence_run::Manifest,
    r: &RequestView,
    telemetry: &attribute::TelemetrySeries,
    (opts, load): (&AnalyzeOptions, Option<&overload::Load>),
    timing: &credence_run::timing::Timing,
) -> (SteadyState, Vec<attribute::Finding>, attribute::Attribution, attribute::timeline::TelemetryTimeline) {
    let timestamps_absent = m.clock.timestamps == TimestampQuality::Absent;
    let override_window = (opts.steady_from.is_some() || opts.steady_to.is_some()).then_some((opts.steady_from, opts.steady_to));
    let steady = steady_window(r, opts, override_window, timestamps_absent, &[]);
    timing.mark("steady state");
    let mean_interarrival_ms = m.workload.rate_per_s.filter(|r| *r > 0.0).map(|r| 1000.0 / r);
    let attribute_in = |steady: &SteadyState| -> Attributed {
        if timestamps_absent {
            (Vec::new(), attribute::Attribution::without_timestamps(), Default::default())
        } else {
            attribute::attribute(r, steady, telemetry, attribute::RunContext { mean_interarrival_ms, load_end: load_end(m), load, seed: opts.seed })
        }
    };
    let (findings, attribution, timeline) = attribute_in(&steady);
    timing.mark("attribution");
    let excluded = conditions::excluded_spans(&findings, opts.window_s);
    if excluded.is_empty() || override_window.is_some() || timestamps_absent {
        return (steady, findings, attribution, timeline);
    }
    let clean = steady_window(r, opts, override_window, timestamps_absent, &excluded);
    // Episodes that cover (nearly) the whole run leave no clean series to judge: the window
    // stays the one found as measured (a starved load generator still has a steady window),
    // and the clean condition reports that it has too little data.
    if clean.end_request <= clean.start_request && steady.end_request > steady.start_request {
        return (steady, findings, attribution, timeline);
    }
    let (findings, attribution, timeline) = attribute_in(&clean);
    timing.mark("steady state and attribution on the clean series");
    (clean, findings, attribution, timeline)
}

/// The steady window, judged without the `excluded` episodes; a source without timestamps cannot
/// have one.
fn steady_window(
    r: &RequestView,
    opts: &AnalyzeOptions,
    override_window: Option<(Option<f64>, Option<f64>)>,
    timestamps_absent: bool,
    excluded: &[attribute::episodes::Span],
) -> SteadyState {
    let mut steady = steady_state_excluding(r, &SteadyOptions { window_s: opts.window_s, penalty: opts.penalty, delta: opts.delta, override_window }, excluded);
    if timestamps_absent {
        steady.classification = Classification::NoSteadyState;
        steady.detectors.push(Detector {
            name: "timestamps".into(),
            verdict: "not_run".into(),
            start_s: None,
            reason: "the source has no per-request timestamps: steady state cannot be checked".into(),
            message: Default::default(),
        });
    }
    steady
}

/// The requests of the steady window and the resampling group of each.
struct ResamplingGroups {
    /// Request indices in the steady window, or in a condition's windows.
    idx: RequestSet,
    /// Group of each of them.
    win: Vec<u32>,
    groups: usize,
}

impl ResamplingGroups {
    /// Groups of the analysis window, widened to at least `GROUP_MIN_S` so each group holds
    /// enough requests for its correlation with neighbours to be measurable, and on windows
    /// over an hour until there are at most `MAX_RESAMPLING_GROUPS`.
    fn of(r: &RequestView, steady: &SteadyState, window_s: f64) -> ResamplingGroups {
        ResamplingGroups::over(r, (steady.start_s, steady.end_s), steady.start_request..steady.end_request, window_s)
    }

    /// The groups of the requests `idx` (send order), sent in `[from, to)`.
    fn over(r: &RequestView, (from, to): (f64, f64), idx: std::ops::Range<usize>, window_s: f64) -> ResamplingGroups {
        let group_s = resampling_group_s(window_s, to - from);
        let k = (((to - from) / group_s).ceil() as usize).max(1);
        // Truncating a value clamped at 0 is its floor; `floor` is a libm call per request on
        // baseline x86-64.
        let window_of = |i: usize| -> u32 { (((r.sent_s[i] - from) / group_s).max(0.0) as usize).min(k - 1) as u32 };
        let win: Vec<u32> = idx.clone().map(window_of).collect();
        ResamplingGroups { idx: RequestSet::Range(idx), win, groups: k }
    }

    /// The median of `column` over the requests `keep` selects, with the interval the metrics
    /// get (by their groups, the block bootstrap when dependent): a turn's or an adapter's
    /// requests share the window's autocorrelation, which an i.i.d. interval would ignore
    /// (`tests/it/conversations_sim.rs`: 83 % coverage for a nominal 95 %).
    fn median_of(&self, column: &[f64], keep: &dyn Fn(usize) -> bool, name: &str, iopts: &IntervalOptions) -> Estimate {
        let sub = self.filtered(keep);
        let values = sub.idx.gather(column);
        let sample = MetricSample { name, values: &values, window: &sub.win, windows: sub.groups, with_distribution: false, censored: None };
        let iopts = IntervalOptions { extra_percentiles: Vec::new(), percentiles_only: true, ..iopts.clone() };
        metric_estimates(&sample, &iopts).0.remove("p50").unwrap_or_else(|| Estimate::not_applicable(iopts.confidence, 0, "no successful request"))
    }

    /// The requests for which `keep` holds, their groups renumbered in time order: the block
    /// bootstrap of a condition runs over that condition's groups only.
    fn filtered(&self, keep: impl Fn(usize) -> bool) -> ResamplingGroups {
        let mut renumbered = vec![u32::MAX; self.groups];
        let mut next = 0u32;
        let (mut idx, mut win) = (Vec::new(), Vec::new());
        for (i, w) in self.idx.iter().zip(self.win.iter().copied()) {
            if keep(i) {
                let g = &mut renumbered[w as usize];
                if *g == u32::MAX {
                    *g = next;
                    next += 1;
                }
                idx.push(i);
                win.push(*g);
            }
        }
        ResamplingGroups { idx: RequestSet::List(idx), win, groups: (next as usize).max(1) }
    }
}

/// A set of requests in send order: the steady window is one range of the view, a condition's
/// windows a list. The range is read in place, which matters on runs of millions of requests.
enum RequestSet {
    Range(std::ops::Range<usize>),
    List(Vec<usize>),
}

impl RequestSet {
    fn len(&self) -> usize {
        match self {
            RequestSet::Range(r) => r.len(),
            RequestSet::List(v) => v.len(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let (range, list) = match self {
            RequestSet::Range(r) => (Some(r.clone()), None),
            RequestSet::List(v) => (None, Some(v.iter().copied())),
        };
        range.into_iter().flatten().chain(list.into_iter().flatten())
    }

    /// The set's values of a per-request column.
    fn gather<'a>(&self, col: &'a [f64]) -> Cow<'a, [f64]> {
        match self {
            RequestSet::Range(r) => Cow::Borrowed(&col[r.clone()]),
            RequestSet::List(v) => Cow::Owned(v.iter().map(|&i| col[i]).collect()),
        }
    }

    /// Per request of the set, where its `family` latency is right-censored (ms; NaN where it
    /// is not): TTFT of requests that timed out or were cancelled before their first token, E2E
    /// of every such request. `None` when no request of the set is censored (or the family has
    /// no censoring).
    fn censored(&self, r: &RequestView, family: &str) -> Option<(Vec<f64>, CensoredBefore)> {
        let (at, before): (fn(&RequestView, usize) -> Option<f64>, _) = match family {
            "ttft" => (RequestView::ttft_censored_ms, CensoredBefore::FirstToken),
            "e2e" => (RequestView::e2e_censored_ms, CensoredBefore::End),
            _ => return None,
        };
        // Most runs have none: look before filling a column.
        self.iter().any(|i| at(r, i).is_some()).then(|| (self.iter().map(|i| at(r, i).unwrap_or(f64::NAN)).collect(), before))
    }

    /// The set's chunk gaps, request after request.
    fn itl<'a>(&self, r: &'a RequestView) -> Cow<'a, [f64]> {
        match self {
            RequestSet::Range(x) => Cow::Borrowed(&r.itl_ms[r.itl_start(x.start)..r.itl_start(x.end)]),
            RequestSet::List(v) => Cow::Owned(v.iter().flat_map(|&i| r.itl_ms[r.itl_start(i)..r.itl_start(i + 1)].iter().copied()).collect()),
        }
    }
}

/// The per-metric results of the steady window, as `Analysis` keys them.
#[derive(Default)]
struct MetricTables {
    metrics: BTreeMap<String, BTreeMap<String, Estimate>>,
    dependence: BTreeMap<String, Dependence>,
    distributions: BTreeMap<String, distribution::Distribution>,
    missing: BTreeMap<String, usize>,
}

impl MetricTables {
    /// Files one metric's estimates, dependence and distribution (when described).
    fn insert(&mut self, name: String, result: MetricResult) {
        let (est, dep, dist) = result;
        if let Some(d) = dist {
            self.distributions.insert(name.clone(), d);
        }
        if let Some(d) = dep {
            self.dependence.insert(name.clone(), d);
        }
        self.metrics.insert(name, est);
    }

    /// The per-request metrics, one value per request.
    fn add_columns(&mut self, r: &RequestView, g: &ResamplingGroups, iopts: &IntervalOptions) {
        let mut columns: Vec<(&str, MetricColumn)> = vec![
            ("ttft", MetricColumn::Stored(&r.ttft_ms)),
            ("tpot", MetricColumn::Stored(&r.tpot_ms)),
            ("e2e", MetricColumn::Stored(&r.e2e_ms)),
            ("service", MetricColumn::Derived(RequestView::service_ms)),
            ("send_lag", MetricColumn::Derived(RequestView::send_lag_ms)),
            ("request_tokens_per_s", MetricColumn::Derived(RequestView::tokens_per_s)),
        ];
        // Reasoning models: the wait for the answer, beside the wait for the first thought.
        if !r.ttfot_ms.is_empty() {
            columns.push(("ttfot", MetricColumn::Stored(&r.ttfot_ms)));
        }
        // Metrics are independent (each resamples from its own seeded streams), so they run in
        // parallel and are collected in a fixed order: the JSON does not depend on scheduling.
        let results: Vec<_> = columns
            .par_iter()
            .map(|(name, column)| {
                let values = match column {
                    MetricColumn::Stored(col) => g.idx.gather(col),
                    MetricColumn::Derived(value) => Cow::Owned(g.idx.iter().map(|i| value(r, i)).collect()),
                };
                let censored = g.idx.censored(r, name);
                let censored_view = censored.as_ref().map(|(at_ms, before)| CensoredValues { at_ms, before: *before });
                // A censored value is not missing: it is known to exceed its elapsed time.
                let is_censored = |i: usize| censored_view.is_some_and(|c| c.at_ms[i].is_finite());
                let missing = values.iter().enumerate().filter(|(i, v)| !v.is_finite() && !is_censored(*i)).count();
                // The report draws the distributions of these three (and of ITL).
                let with_distribution = matches!(*name, "ttft" | "tpot" | "e2e");
                let sample = MetricSample { name, values: &values, window: &g.win, windows: g.groups, with_distribution, censored: censored_view };
                let result = metric_estimates(&sample, iopts);
                (name.to_string(), result, missing)
            })
            .collect();
        for (name, result, miss) in results {
            self.missing.insert(name.clone(), miss);
            self.insert(name, result);
        }
    }

    /// ITL: every chunk gap of the requests in the window, in the request's window.
    fn add_itl(&mut self, r: &RequestView, g: &ResamplingGroups, iopts: &IntervalOptions) {
        let mut itl_win = Vec::new();
        let mut no_chunks = 0;
        for (i, &w) in g.idx.iter().zip(&g.win) {
            let gaps = r.itl_start(i + 1) - r.itl_start(i);
            if gaps == 0 && r.ok[i] {
                no_chunks += 1;
            }
            itl_win.extend(std::iter::repeat_n(w, gaps));
        }
        self.missing.insert("itl".to_string(), no_chunks);
        let itl = g.idx.itl(r);
        let result =
            metric_estimates(&MetricSample { name: "itl", values: &itl, window: &itl_win, windows: g.groups, with_distribution: true, censored: None }, iopts);
        self.insert("itl".to_string(), result);
    }
}

/// Where a per-request metric's values come from: a column of the view, or computed from it
/// request by request (for the steady window only, while the metric is estimated).
enum MetricColumn<'a> {
    Stored(&'a [f64]),
    Derived(fn(&RequestView, usize) -> f64),
}

/// What `metric_estimates` returns for one metric.
type MetricResult = (BTreeMap<String, Estimate>, Option<Dependence>, Option<distribution::Distribution>);

/// Throughput over the steady window; not applicable without timestamps.
fn measured_throughput(r: &RequestView, steady: &SteadyState, opts: &AnalyzeOptions, iopts: &IntervalOptions, timestamps_absent: bool) -> Throughput {
    let mut thr = throughput(r, steady.start_s, steady.end_s, opts.window_s, iopts);
    if timestamps_absent {
        let na = |n| Estimate::not_applicable(opts.confidence, n, "the source has no per-request timestamps");
        thr.requests_per_s = na(0);
        thr.output_tokens_per_s = na(0);
        thr.input_tokens_per_s = na(0);
    }
    thr
}

/// The manifest's description of the run, and what the request columns make measurable.
fn run_info(m: &credence_run::Manifest, r: &RequestView) -> RunInfo {
    RunInfo {
        run_id: m.run_id.clone(),
        source_kind: format!("{:?}", m.source.kind).to_lowercase(),
        source_name: m.source.name.clone(),
        labels: m.labels.clone(),
        config: m.config.clone(),
        arrival: m.workload.arrival.name().to_string(),
        rate_per_s: m.workload.rate_per_s,
        concurrency: m.workload.concurrency,
        timestamps: serde_json::to_value(m.clock.timestamps).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
        environment: m.environment.clone(),
        has_schedule: r.scheduled_s.iter().any(|x| x.is_finite()),
        has_chunks: !r.itl_ms.is_empty(),
        creator: m.creator.clone(),
        source_tool_version: m.source.tool_version.clone(),
        source_files: m.source.files.clone(),
        format_version: m.format_version,
        stop: m.phases.stop.clone(),
        server_scrapes: m.server_scrapes.clone(),
    }
}

/// The options in force, as recorded next to the results.
fn options_used(opts: &AnalyzeOptions, steady_override: Option<(Option<f64>, Option<f64>)>) -> OptionsUsed {
    OptionsUsed {
        window_s: opts.window_s,
        confidence: opts.confidence,
        seed: opts.seed,
        resamples: opts.resamples,
        penalty: opts.penalty,
        steady_delta: opts.delta,
        quantile_definition: "Hyndman-Fan type 7 (linear interpolation, numpy default)",
        steady_override,
    }
}

/// Whether request `i` failed as cancelled by the load generator.
fn is_cancelled(r: &RequestView, i: usize) -> bool {
    r.error_kind[i].is_some_and(|k| RequestView::kind_name(k) == "cancelled")
}

/// Request counts over the run, with `in_steady_window` and the per-metric missing counts.
fn request_counts(r: &RequestView, in_steady_window: usize, missing: BTreeMap<String, usize>) -> RequestCounts {
    RequestCounts {
        total: r.len(),
        ok: r.ok.iter().filter(|x| **x).count(),
        errors: (0..r.len()).filter(|&i| !r.ok[i] && !is_cancelled(r, i)).count(),
        cancelled: (0..r.len()).filter(|&i| !r.ok[i] && is_cancelled(r, i)).count(),
        declared_warmup: r.warmup_declared.iter().filter(|x| **x).count(),
        invalid_source: r.error_kind.iter().filter(|k| k.is_some_and(|k| RequestView::kind_name(k) == "invalid_source_row")).count(),
        in_steady_window,
        missing,
    }
}
