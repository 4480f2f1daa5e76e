//! Attribution: ties each anomaly of the request timeline to a cause, with evidence.
//!
//! 1. Telemetry becomes per-device series on the request timeline (`signals`).
//! 2. Anomaly episodes are found on the request side (`anomalies`): robust z-scores of
//!    per-window latency, throughput and errors against the steady baseline.
//! 3. Each cause detector (`detectors`) reports its episodes, or `not_checked` when its
//!    evidence is absent.
//! 4. Every detected cause becomes a finding: its episodes, the metric inside versus outside
//!    them with an interval (`effect`), how strongly it is linked to the anomalies (overlap
//!    and lagged correlation), and what to do. Symptoms (server queueing) fold into the root
//!    cause they overlap. Anomalies no cause explains are listed as unexplained.

pub mod anomalies;
pub mod cache_warming;
pub mod detectors;
pub mod effect;
pub mod episodes;
pub mod signals;
pub mod timeline;

use std::collections::BTreeMap;

use credence_messages::{Lang, Message, Sep};
use serde::{Deserialize, Serialize};

use super::requests::RequestView;
use crate::cause::Cause;
use super::steady::{Classification, SteadyState};
use anomalies::{Anomaly, WindowSeries, anomalies, window_series};
use detectors::{CauseEpisode, Detection};
use effect::{Effect, EffectMetric, effect, lagged_correlation, on_windows};
use episodes::{Span, merge};
use signals::ALIGN_TOLERANCE_S;
pub use signals::{Telemetry, TelemetrySeries};

/// Window length of the anomaly search and of the correlation, seconds.
pub const ANOMALY_WINDOW_S: f64 = 5.0;

/// One episode of a finding.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FindingEpisode {
    pub start_s: f64,
    pub end_s: f64,
    /// `source_message` in English.
    pub source: String,
    /// Which device or series showed it, as data (empty in an analysis saved before it was).
    #[serde(default, skip_serializing_if = "Message::is_empty")]
    pub source_message: Message,
    /// Peak evidence values in the episode (units in the names).
    pub peak: BTreeMap<String, f64>,
}

/// How strongly a cause is tied to the anomalies.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Strength {
    /// `strong`, `moderate` or `weak`.
    #[serde(deserialize_with = "crate::saved::leak_str")]
    pub label: crate::saved::StaticText,
    /// Share of the cause's episode time that overlaps a latency, throughput or error anomaly
    /// (with the alignment tolerance).
    pub anomaly_overlap: f64,
    /// Strongest Pearson correlation between the cause signal and the effect metric per
    /// window, over lags of up to ±3 windows.
    pub correlation: Option<f64>,
    /// Lag of that correlation, seconds (positive: the metric follows the signal).
    pub lag_s: Option<f64>,
    /// Whether the effect's interval lies entirely on the harmful side of zero.
    pub effect_significant: bool,
}

/// A cause with its episodes, effect, evidence, link strength and recommended action.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finding {
    pub cause: Cause,
    pub title: String,
    pub episodes: Vec<FindingEpisode>,
    pub effect: Option<Effect>,
    /// `evidence_messages` in English.
    pub evidence: Vec<String>,
    /// The evidence as data: every language renders the same lines (empty in an analysis saved
    /// before they were messages).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence_messages: Vec<Message>,
    /// Symptoms (server queueing) that overlap this cause's episodes, kept as its evidence.
    #[serde(default)]
    pub consequences: Vec<FindingEpisode>,
    pub strength: Strength,
    pub action: String,
    /// Whether any episode overlaps the steady (measured) window.
    pub in_steady_window: bool,
}

/// Whether a detector could run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DetectorStatus {
    pub cause: Cause,
    /// `checked` or `not_checked`.
    #[serde(deserialize_with = "crate::saved::leak_str")]
    pub status: crate::saved::StaticText,
    pub episodes: usize,
    /// In English, for the JSON's readers: `message` rendered by the English catalog.
    pub reason: String,
    #[serde(default, skip_serializing_if = "Message::is_empty")]
    pub message: Message,
}

impl DetectorStatus {
    fn of(cause: Cause, status: &'static str, episodes: usize, message: Message) -> DetectorStatus {
        DetectorStatus { cause, status, episodes, reason: message.render(Lang::En), message }
    }
}

/// Everything attribution found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Attribution {
    pub window_s: f64,
    pub alignment_tolerance_s: f64,
    pub alignment: String,
    pub detectors: Vec<DetectorStatus>,
    pub anomalies: Vec<Anomaly>,
    /// Anomalies that no finding overlaps: said so rather than guessed at.
    pub unexplained: Vec<Anomaly>,
}

impl Attribution {
    /// A source without per-request timestamps: nothing can be placed on a timeline.
    pub fn without_timestamps() -> Attribution {
        Attribution {
            window_s: ANOMALY_WINDOW_S,
            alignment_tolerance_s: ALIGN_TOLERANCE_S,
            alignment: "not possible: the source has no per-request timestamps".into(),
            detectors: Cause::ALL
                .into_iter()
                .map(|c| DetectorStatus::of(c, "not_checked", 0, Message::new("detector-no-timestamps")))
                .collect(),
            anomalies: Vec::new(),
            unexplained: Vec::new(),
        }
    }
}

/// The peak values `peak_message` words (`errors_timeout` stands for every `errors_<kind>`);
/// every language words them from the `peak` message.
pub const PEAK_KEYS: [&str; 24] = [
    "sm_clock_drop_share",
    "temp_max_c",
    "thermal_violation_s",
    "power_share_of_limit_max",
    "memory_used_share_max",
    "preemptions",
    "foreign_processes_max",
    "foreign_memory_gib_max",
    "lg_cpu_pct_max",
    "lg_thread_pct_max",
    "send_lag_p99_ms_max",
    "send_lag_gaps_max",
    "achieved_share_min",
    "retransmit_ratio_max",
    "interface_errors",
    "interface_drops",
    "listen_overflows",
    "cpu_steal_pct_max",
    "samples_not_performance_governor",
    "waiting_requests_max",
    "kv_cache_used_share_max",
    "error_share_max",
    "send_rate_share_min",
    "errors_timeout",
];

/// A peak value in words (None for one not worth showing: not finite, or zero where only a
/// positive count means something), as a message (`peak` in `locales/*/evidence.ftl`): shares
/// as percentages, each key with the decimals its precision supports.
pub fn peak_message(key: &str, v: f64) -> Option<Message> {
    if !v.is_finite() {
        return None;
    }
    let (value, decimals) = match key {
        "sm_clock_drop_share" | "power_share_of_limit_max" | "memory_used_share_max" | "achieved_share_min" | "kv_cache_used_share_max" | "error_share_max"
        | "send_rate_share_min" => (v * 100.0, 0),
        "retransmit_ratio_max" if v > 0.0 => (v * 100.0, 2),
        "temp_max_c" | "send_lag_p99_ms_max" | "send_lag_gaps_max" => (v, 1),
        "foreign_memory_gib_max" if v > 0.0 => (v, 1),
        "thermal_violation_s" | "interface_errors" | "interface_drops" | "listen_overflows" | "cpu_steal_pct_max" | "samples_not_performance_governor"
            if v > 0.0 =>
        {
            (v, 0)
        }
        "preemptions" | "foreign_processes_max" | "lg_cpu_pct_max" | "lg_thread_pct_max" | "waiting_requests_max" => (v, 0),
        k if k.starts_with("errors_") && v > 0.0 => return Some(Message::new("peak").text("key", "errors").text("kind", &k[7..]).num("v", v, 0)),
        _ => return None,
    };
    Some(Message::new("peak").text("key", key).text("kind", "").num("v", value, decimals))
}

/// The run's telemetry and request-side series, on the request timeline.
struct Timelines<'a> {
    telemetry: &'a TelemetrySeries,
    windows: Vec<WindowSeries>,
    load: Option<&'a crate::overload::Load>,
}

/// What building a finding reads: the run, its request-side series and its anomalies.
struct FindingContext<'a> {
    r: &'a RequestView,
    windows: &'a [WindowSeries],
    /// The anomaly episodes, merged.
    anomaly_spans: Vec<Span>,
    steady: &'a SteadyState,
    run_end: f64,
    /// Whether the load kept up (the overload finding's evidence).
    load: Option<&'a crate::overload::Load>,
    seed: u64,
}

/// Where the offered load ended, as the run records it: the detectors that look at the run's
/// end (a ramp-down, a drift) measure up to there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LoadEnd {
    /// The load was planned to run this long (`workload.duration_s`): sends that stop earlier
    /// are a ramp-down.
    Planned(f64),
    /// The load generator stopped the sends on purpose (`bench --until`'s stop, a signal): the
    /// run ends at the last send, and the plan says nothing of a ramp-down.
    Stopped,
    /// Nothing recorded: the run ends at the last completion.
    Unknown,
}

impl LoadEnd {
    /// The horizon of the request-side series.
    fn horizon_s(self) -> f64 {
        match self {
            LoadEnd::Planned(s) => s,
            LoadEnd::Stopped | LoadEnd::Unknown => 0.0,
        }
    }
}

/// The end of the run: the last completion, the last send or the planned end, whichever is
/// latest; the last send when the load generator stopped on purpose (the requests in flight
/// then drain without new sends, which is no ramp-down).
fn run_end(r: &RequestView, load_end: LoadEnd) -> f64 {
    let last_send = r.sent_s.iter().copied().filter(|x| x.is_finite()).fold(0.0, f64::max);
    let latest = |from: f64| r.end_s.iter().copied().filter(|x| x.is_finite()).fold(from, f64::max);
    match load_end {
        LoadEnd::Planned(p) => latest(last_send.max(p)),
        LoadEnd::Stopped => last_send,
        LoadEnd::Unknown => latest(last_send),
    }
}

/// Where the offered load ended, for the ramp-down: the last send, or the planned end when
/// later. The last requests draining after it are no ramp-down.
fn load_until(r: &RequestView, load_end: LoadEnd) -> f64 {
    let last_send = r.sent_s.iter().copied().filter(|x| x.is_finite()).fold(0.0, f64::max);
    match load_end {
        LoadEnd::Planned(p) => p.max(last_send),
        LoadEnd::Stopped | LoadEnd::Unknown => last_send,
    }
}

/// Failed requests that ended inside `span`, by error kind (`errors_<kind>`).
fn errors_by_kind(r: &RequestView, span: &Span) -> BTreeMap<String, f64> {
    let mut kinds: BTreeMap<String, f64> = BTreeMap::new();
    for i in 0..r.len() {
        if !r.ok[i] && span.contains(r.end_s[i]) {
            *kinds.entry(format!("errors_{}", r.error_kind[i].map_or("other", RequestView::kind_name))).or_default() += 1.0;
        }
    }
    kinds
}

/// Runs every cause detector, in `Cause::ALL` order.
fn detect_causes(r: &RequestView, tl: &Timelines, steady: &SteadyState, (run_end, load_until): (f64, f64), mean_interarrival_ms: Option<f64>) -> Vec<Detection> {
    let steady_span = Span { start_s: steady.start_s, end_s: steady.end_s };
    let t = tl.telemetry;
    let mut detections = vec![detectors::overload(tl.load)];
    detections.extend(detectors::gpu_detectors(&t.gpus, &t.server));
    detections.push(detectors::client_saturation(&t.hosts, &tl.windows, mean_interarrival_ms));
    detections.push(detectors::network(&t.hosts));
    detections.push(detectors::host(&t.hosts));
    detections.push(detectors::server_queueing(&t.server));
    // Under overload, timeouts and a latency that keeps rising are the queue's consequences:
    // kept as its evidence.
    let overloaded = !detections[0].episodes.is_empty();
    detections.push(Detection { symptom: overloaded, ..detectors::error_burst(&tl.windows, &steady_span, |span| errors_by_kind(r, span)) });
    detections.push(Detection { symptom: overloaded, ..drift(steady, run_end) });
    detections.push(detectors::ramp_down(&tl.windows, &steady_span, load_until));
    detections.push(cache_warming::cache_warming(r));
    detections
}

/// Symptoms overlapping a root cause become its evidence; the rest stand on their own.
fn fold_symptom(d: &Detection, findings: &mut Vec<Finding>, ctx: &FindingContext<'_>) {
    let mut alone: Vec<CauseEpisode> = Vec::new();
    for e in &d.episodes {
        let root =
            findings.iter_mut().find(|f| f.episodes.iter().any(|x| Span { start_s: x.start_s, end_s: x.end_s }.overlap(&e.span, ALIGN_TOLERANCE_S) > 0.0));
        match root {
            Some(f) => {
                let consequence = Message::new("evidence-consequence")
                    .msg("cause", d.cause.title())
                    .num("start", e.span.start_s, 0)
                    .num("end", e.span.end_s, 0)
                    .list("items", peaks(e), Sep::Comma);
                f.evidence.push(consequence.render(Lang::En));
                f.evidence_messages.push(consequence);
                f.consequences.push(finding_episode(e));
            }
            None => alone.push(e.clone()),
        }
    }
    if !alone.is_empty() {
        findings.push(finding(d, &alone, ctx));
    }
}

/// One finding per detected root cause, then the symptoms folded in; strongest first.
fn findings(detections: &[Detection], ctx: &FindingContext<'_>) -> Vec<Finding> {
    let mut findings: Vec<Finding> = Vec::new();
    let mut symptoms: Vec<&Detection> = Vec::new();
    for d in detections.iter().filter(|d| !d.episodes.is_empty()) {
        if d.symptom {
            symptoms.push(d);
            continue;
        }
        findings.push(finding(d, &d.episodes, ctx));
    }
    for d in symptoms {
        fold_symptom(d, &mut findings, ctx);
    }
    findings.sort_by(|a, b| rank(b).total_cmp(&rank(a)).then_with(|| a.cause.cmp(&b.cause)));
    findings
}

/// Anomalies that no finding overlaps and that lie mostly inside the measured window. Those
/// mostly in the dropped warmup or the dropped tail (the last requests draining after the
/// sends stop) are explained by the steady-state cut, not by a cause.
fn unexplained(found: &[Anomaly], findings: &[Finding], measured: Span) -> Vec<Anomaly> {
    let explained: Vec<Span> = findings.iter().flat_map(|f| f.episodes.iter().map(|e| Span { start_s: e.start_s, end_s: e.end_s })).collect();
    let measured_mostly = |a: &Anomaly| a.span().overlap(&measured, 0.0) > 0.5 * a.span().duration();
    found.iter().filter(|a| measured_mostly(a) && !explained.iter().any(|s| a.span().overlap(s, ALIGN_TOLERANCE_S) > 0.0)).cloned().collect()
}

/// Whether each detector ran, and how many episodes it found.
fn detector_statuses(detections: &[Detection]) -> Vec<DetectorStatus> {
    detections
        .iter()
        .map(|d| match &d.not_checked {
            Some(why) => DetectorStatus::of(d.cause, "not_checked", d.episodes.len(), why.clone()),
            None => DetectorStatus::of(d.cause, "checked", d.episodes.len(), Message::new("detector-checked").int("episodes", d.episodes.len())),
        })
        .collect()
}

/// What attribution reads besides the requests, the steady window and the telemetry: the mean
/// gap between scheduled sends, where the load ended (`LoadEnd`), whether it kept up
/// (`overload::load`), and the seed of the effects' resampling.
#[derive(Debug, Clone, Copy)]
pub struct RunContext<'a> {
    pub mean_interarrival_ms: Option<f64>,
    pub load_end: LoadEnd,
    pub load: Option<&'a crate::overload::Load>,
    pub seed: u64,
}

/// Attribution over a run's request view and telemetry.
pub fn attribute(r: &RequestView, steady: &SteadyState, telemetry: &TelemetrySeries, run: RunContext<'_>) -> (Vec<Finding>, Attribution, timeline::TelemetryTimeline) {
    let tl = Timelines { telemetry, windows: window_series(r, ANOMALY_WINDOW_S, run.load_end.horizon_s()), load: run.load };
    let found = anomalies(&tl.windows, &Span { start_s: steady.start_s, end_s: steady.end_s });
    let run_end = run_end(r, run.load_end);
    let detections = detect_causes(r, &tl, steady, (run_end, load_until(r, run.load_end)), run.mean_interarrival_ms);
    let anomaly_spans = merge(found.iter().map(Anomaly::span).collect(), 0.0);
    let ctx = FindingContext { r, windows: &tl.windows, anomaly_spans, steady, run_end, load: run.load, seed: run.seed };
    let findings = findings(&detections, &ctx);
    let unexplained = unexplained(&found, &findings, Span { start_s: steady.start_s, end_s: steady.end_s });
    let attribution = Attribution {
        window_s: ANOMALY_WINDOW_S,
        alignment_tolerance_s: ALIGN_TOLERANCE_S,
        alignment: "telemetry joined to the request timeline on epoch ns, per GPU and per host; episodes match anomalies within ±2 s (1 Hz polls drift and host clocks differ)".into(),
        detectors: detector_statuses(&detections),
        anomalies: found,
        unexplained,
    };
    (findings, attribution, timeline::timeline(&telemetry.gpus, &telemetry.hosts))
}

/// Drift: the steady-state detector found no steady state because the level keeps moving.
fn drift(steady: &SteadyState, run_end: f64) -> Detection {
    let mut d = Detection { cause: Cause::Drift, not_checked: None, episodes: Vec::new(), signal: Default::default(), symptom: false };
    if steady.detectors.iter().any(|x| x.verdict == "not_run" && x.name == "timestamps") {
        d.not_checked = Some(Message::new("detector-no-timestamps-short"));
        return d;
    }
    if steady.classification == Classification::NoSteadyState {
        let mut peak = BTreeMap::new();
        if let Some(s) = steady.series.iter().filter_map(|s| s.segments.first().map(|x| x.relative_to_last.abs())).reduce(f64::max) {
            peak.insert("level_change_share".into(), s);
        }
        d.episodes.push(CauseEpisode {
            span: Span { start_s: 0.0, end_s: run_end },
            source: drift_source(steady),
            peak,
        });
    }
    d
}

/// A finding's place in the list: overload first (every other number of the run is the
/// queue's), then by strength and effect size.
fn rank(f: &Finding) -> f64 {
    if f.cause == Cause::Overload {
        return f64::INFINITY;
    }
    let s = match f.strength.label {
        "strong" => 3.0,
        "moderate" => 2.0,
        _ => 1.0,
    };
    let size = f.effect.as_ref().map_or(0.0, |e| e.change.abs().min(10.0));
    s * 10.0 + size + if f.in_steady_window { 0.5 } else { 0.0 }
}

/// The strength of a finding decided by its own interval (overload): strong.
fn decided_strength() -> Strength {
    Strength { label: "strong", anomaly_overlap: 1.0, correlation: None, lag_s: None, effect_significant: true }
}

/// How strongly a cause's episodes are tied to the anomalies: overlap, lagged correlation of
/// its signal with the effect metric, and the effect's significance.
fn strength(d: &Detection, spans: &[Span], metric: EffectMetric, eff: Option<&Effect>, ctx: &FindingContext<'_>) -> Strength {
    let duration: f64 = spans.iter().map(Span::duration).sum();
    let overlap: f64 = spans.iter().map(|s| ctx.anomaly_spans.iter().map(|a| s.overlap(a, ALIGN_TOLERANCE_S)).sum::<f64>().min(s.duration())).sum();
    let anomaly_overlap = if duration > 0.0 { overlap / duration } else { 0.0 };
    let metric_series = match metric {
        EffectMetric::Quantile { name: "ttft", .. } => "ttft_p50",
        EffectMetric::Quantile { name: "service", .. } => "send_lag_p99",
        EffectMetric::ErrorRate => "error_fraction",
        _ => "tpot_p50",
    };
    let corr = ctx.windows.iter().find(|w| w.name == metric_series).filter(|_| !d.signal.t_s.is_empty()).and_then(|w| {
        let sig = on_windows(&d.signal.t_s, &d.signal.values, &w.t_s, ANOMALY_WINDOW_S);
        lagged_correlation(&sig, &w.values, 3)
    });
    let significant = eff.is_some_and(|e| e.ci_low.is_some_and(|lo| lo > 0.0));
    let score = usize::from(anomaly_overlap >= 0.5) + usize::from(corr.is_some_and(|(c, _)| c.abs() >= 0.5)) + usize::from(significant);
    Strength {
        label: match score {
            3 => "strong",
            2 => "moderate",
            _ => "weak",
        },
        anomaly_overlap,
        correlation: corr.map(|c| c.0),
        lag_s: corr.map(|c| c.1 as f64 * ANOMALY_WINDOW_S),
        effect_significant: significant,
    }
}

/// The effect in words: its change and interval inside the episodes.
fn effect_evidence(e: &Effect) -> Message {
    let (unit, value, bound): (&str, f64, fn(f64) -> String) = if e.kind == "relative" {
        ("percent", e.change * 100.0, |x| format!("{:+.1} %", x * 100.0))
    } else if e.metric == "error_rate" {
        ("points", e.change * 100.0, |x| format!("{:+.1}", x * 100.0))
    } else {
        (&*e.unit, e.change, |_| String::new())
    };
    let decimals = if unit == "percent" || unit == "points" { 1 } else { 2 };
    let change = Message::new("evidence-change").text("unit", unit).text("value", format!("{value:+.decimals$}"));
    let interval = match (e.ci_low, e.ci_high) {
        (Some(lo), Some(hi)) if unit == "percent" || unit == "points" => Message::new("evidence-interval").text("low", bound(lo)).text("high", bound(hi)),
        _ => Message::new("empty"),
    };
    Message::new("evidence-effect").msg("metric", credence_messages::metric_label(&e.metric)).msg("change", change).msg("interval", interval)
}

/// An episode's finite peak values worth showing, as messages.
fn peaks(e: &CauseEpisode) -> Vec<Message> {
    e.peak.iter().filter_map(|(k, v)| peak_message(k, *v)).collect()
}

/// Where a drift was seen: the steady-state detector, with the trend test it names (the first
/// detector whose verdict is `trend`), when that test's reason is a message.
pub fn drift_source(steady: &SteadyState) -> Message {
    let trend = steady.detectors.iter().find(|x| x.verdict == "trend").filter(|t| !t.message.is_empty());
    trend.map_or(Message::new("evidence-drift-source-bare"), |t| Message::new("evidence-drift-source").msg("trend", t.message.clone()))
}

/// One line of evidence per episode (source, time, peak values), then the effect.
fn evidence(episodes: &[CauseEpisode], eff: Option<&Effect>, drift: Option<Message>) -> Vec<Message> {
    let mut evidence: Vec<Message> = episodes
        .iter()
        .map(|e| {
            let items = peaks(e);
            let peaks = if items.is_empty() { Message::new("empty") } else { Message::new("evidence-peaks").list("items", items, Sep::Comma) };
            let source = drift.clone().unwrap_or_else(|| e.source.clone());
            Message::new("evidence-episode").msg("source", source).num("start", e.span.start_s, 0).num("end", e.span.end_s, 0).msg("peaks", peaks)
        })
        .collect();
    evidence.extend(eff.map(effect_evidence));
    evidence
}

/// An episode as a finding shows it: its span, source and finite peak values.
fn finding_episode(e: &CauseEpisode) -> FindingEpisode {
    FindingEpisode {
        start_s: e.span.start_s,
        end_s: e.span.end_s,
        source: e.source.render(Lang::En),
        source_message: e.source.clone(),
        peak: e.peak.iter().filter(|(_, v)| v.is_finite()).map(|(k, v)| (k.clone(), *v)).collect(),
    }
}

/// An overloaded run's numbers in words: offered, completed and unserved (with its interval),
/// how the excess showed (the queue's growth, timeouts), and the rate to stay below.
fn overload_evidence(l: &crate::overload::Load) -> Message {
    let n = |x: Option<f64>| x.map_or("?".to_string(), |v| credence_run::text::significant(v, 3));
    let u = &l.unserved_per_s;
    Message::new("evidence-overload")
        .text("offered", n(l.offered_per_s))
        .text("completed", n(l.completed_per_s))
        .text("unserved", n(u.estimate))
        .text("low", n(u.ci_low))
        .text("high", n(u.ci_high))
        .text("growth", n(l.in_flight_growth_per_s))
        .text("shed", n(l.timed_out_per_s))
        .int("max", l.in_flight_max)
}

/// A detected cause as a finding: its episodes, effect, evidence, strength and action.
fn finding(d: &Detection, episodes: &[CauseEpisode], ctx: &FindingContext<'_>) -> Finding {
    let metric = d.cause.effect_metric();
    let (steady, run_end) = (ctx.steady, ctx.run_end);
    let spans = merge(episodes.iter().map(|e| e.span).collect(), 0.0);
    // Outside = the measured part of the run (after the dropped warmup); drift compares the
    // last quarter with the rest.
    let from = steady.start_s.min(spans.first().map_or(steady.start_s, |s| s.start_s));
    let effect_spans = if d.cause == Cause::Drift { vec![Span { start_s: from + 0.75 * (run_end - from), end_s: run_end }] } else { spans.clone() };
    // Overload spans the run: there is no "outside" to compare with. It was decided by the
    // unserved rate's own interval, which leads its evidence, and is strong by that decision.
    let decided = ctx.load.filter(|_| d.cause == Cause::Overload).map(overload_evidence);
    let eff = if decided.is_some() { None } else { effect(ctx.r, metric, &effect_spans, from, run_end + 1.0, ctx.seed) };
    let drift = (d.cause == Cause::Drift).then(|| drift_source(ctx.steady));
    let evidence_messages: Vec<Message> = decided.iter().cloned().chain(evidence(episodes, eff.as_ref(), drift)).collect();
    Finding {
        cause: d.cause,
        title: d.cause.title().render(Lang::En),
        episodes: episodes.iter().map(finding_episode).collect(),
        consequences: Vec::new(),
        strength: if decided.is_some() { decided_strength() } else { strength(d, &spans, metric, eff.as_ref(), ctx) },
        evidence: evidence_messages.iter().map(|m| m.render(Lang::En)).collect(),
        evidence_messages,
        effect: eff,
        action: d.cause.action().render(Lang::En),
        in_steady_window: spans.iter().any(|s| s.overlap(&Span { start_s: steady.start_s, end_s: steady.end_s }, 0.0) > 0.0),
    }
}

#[cfg(test)]
mod peak_tests {
    use super::{PEAK_KEYS, peak_message};
    use credence_messages::Lang;

    #[test]
    fn every_peak_is_worded_in_every_language_with_the_same_number() {
        for key in PEAK_KEYS {
            let m = peak_message(key, 1.0).unwrap_or_else(|| panic!("{key}: no message"));
            let (en, zh) = (m.render(Lang::En), m.render(Lang::Zh));
            assert!(!en.contains('{') && !zh.contains('{'), "{key}: {en} / {zh}");
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{key}: {zh}");
            let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
            assert_eq!(digits(&en), digits(&zh), "{key}: {en} / {zh}");
        }
        assert!(peak_message("temp_max_c", f64::NAN).is_none());
        assert!(peak_message("interface_errors", 0.0).is_none(), "a zero count is not evidence");
    }
}

#[cfg(test)]
mod unexplained_tests {
    use super::{Anomaly, Span, unexplained};

    fn anomaly(start_s: f64, end_s: f64) -> Anomaly {
        Anomaly { start_s, end_s, series: "requests_per_s".into(), peak_z: 9.0, peak_relative: Some(-0.8), baseline: 10.0 }
    }

    /// The bug: a run measured to 300 s listed an anomaly at 300–310 s (the last requests
    /// draining after the sends stopped) as unexplained. What the steady-state cut dropped, at
    /// either end, is not reported; an anomaly inside the measured window still is.
    #[test]
    fn anomalies_in_the_dropped_warmup_or_tail_are_not_unexplained() {
        let measured = Span { start_s: 11.0, end_s: 300.0 };
        let found = [anomaly(0.0, 10.0), anomaly(300.0, 310.0), anomaly(295.0, 310.0), anomaly(140.0, 150.0), anomaly(290.0, 302.0)];
        let left: Vec<(f64, f64)> = unexplained(&found, &[], measured).iter().map(|a| (a.start_s, a.end_s)).collect();
        assert_eq!(left, vec![(140.0, 150.0), (290.0, 302.0)]);
    }
}

#[cfg(test)]
mod load_end_tests {
    use super::{LoadEnd, RunContext, attribute};
    use crate::attribute::TelemetrySeries;
    use crate::cause::Cause;
    use crate::steady::{SteadyOptions, steady_state_excluding};
    use crate::until::{Finished, view_of};
    use crate::AnalyzeOptions;

    /// 10 requests/s whose sends end at 160 s, each taking 1 s (the last ones still finishing
    /// after the sends end).
    fn stopped_at_160() -> crate::requests::RequestView {
        let done: Vec<Finished> = (0..1600)
            .map(|i| {
                let sent_s = f64::from(i) * 0.1;
                Finished { sent_s, end_s: sent_s + 1.0, ok: true, ttft_ms: 50.0 + f64::from(i % 7), tpot_ms: 5.0, e2e_ms: 1000.0, output_tokens: 128.0 }
            })
            .collect();
        view_of(&done, f64::INFINITY, 0.0)
    }

    /// The edges issue's first bug: `bench --until` stopped at 160 s of a 300-s bound, and the
    /// analysis took the bound as the run's end and found a ramp-down from 160 s to 300 s. A load
    /// stopped on purpose ends at its last send; the same sends under a 300-s plan still show the
    /// ramp-down.
    #[test]
    fn a_load_stopped_on_purpose_is_no_ramp_down() {
        let view = stopped_at_160();
        let d = AnalyzeOptions::default();
        let steady = steady_state_excluding(&view, &SteadyOptions { window_s: d.window_s, penalty: d.penalty, delta: d.delta, override_window: None }, &[]);
        let run = |load_end| RunContext { mean_interarrival_ms: Some(100.0), load_end, load: None, seed: 1 };
        let ramp_down = |end| attribute(&view, &steady, &TelemetrySeries::default(), run(end)).0.iter().any(|f| f.cause == Cause::RampDown);
        assert!(!ramp_down(LoadEnd::Stopped));
        assert!(!ramp_down(LoadEnd::Unknown));
        assert!(ramp_down(LoadEnd::Planned(300.0)), "sends that end before the plan are a ramp-down");
    }
}
