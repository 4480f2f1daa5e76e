//! Audit of a source tool's own claims: each summary number the tool printed is recomputed
//! from its raw per-request values with the tool's definition (does the summary match its own
//! data?) and set beside credence's steady-state estimate (what an honest analysis says), with
//! the likely reason for any difference. Run-level facts (MLPerf's validity) are rechecked.

use serde::Serialize;
use credence_messages::{Lang, Message, Sep};

use super::fact_reason::FactReason;
use super::intervals::percentile_key;
use super::{Analysis, Status};
use credence_run::claims::{Claim, Definition, RawValues, percentile_of_stat};

/// Relative difference under which two numbers count as the same (the tools print ~6
/// significant digits).
const SAME: f64 = 0.005;

#[derive(Debug, Clone, Serialize)]
pub struct ClaimCheck {
    pub key: String,
    pub metric: String,
    pub stat: String,
    pub unit: String,
    pub tool_value: f64,
    /// Recomputed from the tool's raw values with its definition (type-7 percentiles), or, for
    /// sources without raw values, the same number as another file of the tool states it.
    pub recomputed: Option<f64>,
    /// `raw` (recomputed from per-request values) or `summary` (cross-checked against the
    /// tool's summary file).
    pub recomputed_from: Option<&'static str>,
    /// `reproduced`, `differs` or `not_recomputable`.
    pub verdict: &'static str,
    /// credence's estimate over the steady window, where it has the same statistic.
    pub credence: Option<f64>,
    pub credence_ci: Option<(f64, f64)>,
    /// credence's metric the claim is compared with, where its name differs from the claim's
    /// (guidellm's `scheduled_e2e` is credence's `service`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credence_metric: Option<&'static str>,
    /// What credence's value is (descriptive, without an interval, or another metric of the
    /// same meaning) or why there is none.
    pub credence_note: Option<String>,
    /// `credence_note` as data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credence_note_message: Option<Message>,
    /// credence's value relative to the tool's, minus one, when they differ by more than 2 %.
    pub credence_differs_by: Option<f64>,
    /// The tool's own definition of the number, where it differs from credence's.
    pub definition: Option<String>,
    /// `reason_message` in English.
    pub reason: String,
    pub reason_message: Message,
}

#[derive(Debug, Clone, Serialize)]
pub struct FactCheck {
    pub name: String,
    /// PASS, WARN, FAIL or NOT_CHECKED.
    pub status: &'static str,
    /// `reason_message` in English.
    pub reason: String,
    /// The reason as data: every language renders it from its catalog.
    pub reason_message: Message,
}

impl FactCheck {
    pub fn new(name: &str, status: &'static str, why: FactReason) -> FactCheck {
        let reason_message = why.message();
        FactCheck { name: name.to_string(), status, reason: reason_message.render(Lang::En), reason_message }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Audit {
    /// The files as one line, "a.json (llmperf), b.json (llmperf-summary)".
    pub source: String,
    /// The same files one by one, for a renderer to word in its language.
    pub files: Vec<AuditedFile>,
    pub claims: Vec<ClaimCheck>,
    pub facts: Vec<FactCheck>,
    pub reproduced: usize,
    pub differing: usize,
}

fn rel(a: f64, b: f64) -> f64 {
    if a == b { 0.0 } else { (a - b).abs() / a.abs().max(b.abs()).max(1e-12) }
}

/// credence's metric for a claim's `metric`, where credence estimates the same quantity under
/// another name: the latency from the scheduled send (guidellm's `request_scheduled_latency`)
/// is `service`; a dispatch or schedule delay (start − scheduled) is `send_lag`; the wait for
/// the first answer token is `ttfot`; an ITL from a source without chunk times (guidellm's
/// per-request mean gap) is credence's TPOT, the same per-request mean gap.
pub fn mapped_metric(a: &Analysis, metric: &str) -> Option<&'static str> {
    match metric {
        "scheduled_e2e" => Some("service"),
        "dispatch_delay" | "schedule_delay" => Some("send_lag"),
        "time_to_first_content_token" => Some("ttfot"),
        "itl" if !a.run.has_chunks => Some("tpot"),
        _ => None,
    }
}

/// The metric credence compares a claim of `metric` with: its own name, or `mapped_metric`.
fn credence_metric<'m>(a: &Analysis, metric: &'m str) -> &'m str {
    mapped_metric(a, metric).unwrap_or(metric)
}

/// credence's value for a claim's statistic over the steady window: a percentile or mean with
/// its interval (any percentile the claims state is estimated: see `claimed_percentiles`), a
/// throughput with its interval, or a descriptive min, max or SD without one.
fn credence_value(a: &Analysis, c: &Claim) -> Option<(f64, Option<(f64, f64)>)> {
    let metric = credence_metric(a, &c.metric);
    if c.stat == "value" {
        let e = match metric {
            "requests_per_s" => &a.throughput.requests_per_s,
            "output_tokens_per_s" => &a.throughput.output_tokens_per_s,
            "input_tokens_per_s" => &a.throughput.input_tokens_per_s,
            "goodput_per_s" => &a.slo.as_ref()?.goodput_per_s,
            _ => return None,
        };
        return e.estimate.map(|x| (x, e.ci_low.zip(e.ci_high)));
    }
    if let Some(d) = a.distributions.get(metric) {
        match c.stat.as_str() {
            "min" => return Some((d.min, None)),
            "max" => return Some((d.max, None)),
            "std" | "std_sample" => return Some((d.std, None)),
            _ => {}
        }
    }
    let key = if c.stat == "mean" { "mean".to_string() } else { percentile_key(percentile_of_stat(&c.stat)?) };
    let e = a.metrics.get(metric)?.get(&key)?;
    let ci = (e.status == Status::Ok).then(|| e.ci_low.zip(e.ci_high)).flatten();
    e.estimate.map(|x| (x, ci))
}

/// Why credence's value has no interval, or why there is no value (`english` words it; the
/// report's Chinese words it from the same variants).
#[derive(Debug, Clone, PartialEq)]
pub enum CredenceNote {
    /// A min, max or SD of the steady window: descriptive, without an interval.
    Descriptive,
    /// credence estimates the claim's quantity under another name (`mapped_metric`).
    EstimatedAs(&'static str),
    /// The source saves no chunk times (its name): credence cannot compute a per-token ITL;
    /// the tool's ITL is a per-request mean gap, compared with credence's TPOT.
    NoChunkTimes(String),
    /// The source records no scheduled send times: no send lag, no latency from the schedule.
    NoSchedule,
    /// credence estimates latencies and token counts of successful requests only.
    SuccessfulOnly,
    /// credence has no estimate of this metric.
    NotEstimated,
    /// A count or total, which depends on the window.
    WindowDependent,
    /// A statistic of a distribution of instantaneous rates: credence's rate is one number.
    OneRate,
    /// A min, max or SD of a metric whose distribution credence does not describe.
    NotDescribed,
    /// A statistic credence does not compute (a variance, a mode, a tool's confidence bound).
    StatNotComputed,
    /// A goodput, audited without objectives: credence's needs them (`--slo`).
    NeedsSlo,
    NoSteadyValue,
}

impl CredenceNote {
    /// The note as a message (`audit-note`, `locales/*/audit.ftl`).
    pub fn message(&self, metric: &str, stat: &str) -> Message {
        let (note, as_metric, source) = match self {
            CredenceNote::Descriptive => ("descriptive", "", ""),
            CredenceNote::EstimatedAs(m) => ("estimated-as", *m, ""),
            CredenceNote::NoChunkTimes(source) => ("no-chunk-times", "", source.as_str()),
            CredenceNote::NoSchedule => ("no-schedule", "", ""),
            CredenceNote::SuccessfulOnly => ("successful-only", "", ""),
            CredenceNote::NotEstimated => ("not-estimated", "", ""),
            CredenceNote::WindowDependent => ("window-dependent", "", ""),
            CredenceNote::OneRate => ("one-rate", "", ""),
            CredenceNote::NotDescribed => ("not-described", "", ""),
            CredenceNote::StatNotComputed => ("stat-not-computed", "", ""),
            CredenceNote::NeedsSlo => ("needs-slo", "", ""),
            CredenceNote::NoSteadyValue => ("no-steady-value", "", ""),
        };
        let shown_metric = if *self == CredenceNote::SuccessfulOnly { metric.split('.').next().unwrap_or(metric) } else { metric };
        // A metric in running text: its identifier in English, words where a language has them.
        let metric = |m: &str| Message::new("audit-claim-metric").text("metric", m);
        Message::new("audit-note")
            .text("note", note)
            .msg("metric", metric(shown_metric))
            .text("stat", stat)
            .msg("stat_word", Message::new("audit-stat").text("stat", if stat.starts_with("std") { "std" } else { stat }))
            .msg("as", metric(as_metric))
            .msg("words", Message::new("audit-metric-words").text("metric", as_metric))
            .text("source", source)
    }
}

/// The metric of a tool's other request group (`e2e.errored`, `ttft.all`) without its
/// suffix: credence's latencies and rates are of successful requests.
fn other_status(metric: &str) -> Option<&str> {
    [".errored", ".incomplete", ".all"].iter().find_map(|s| metric.strip_suffix(s))
}

/// Whether credence estimates `metric` (under its own name or `mapped_metric`'s).
fn estimated(a: &Analysis, metric: &str) -> bool {
    let m = credence_metric(a, metric);
    a.metrics.contains_key(m) || matches!(m, "requests_per_s" | "output_tokens_per_s" | "input_tokens_per_s") || (m == "goodput_per_s" && a.slo.is_some())
}

/// The note on credence's value for a claim of `metric` `stat`, when one is due.
pub fn credence_note(a: &Analysis, metric: &str, stat: &str, has_value: bool) -> Option<CredenceNote> {
    let as_metric = mapped_metric(a, metric);
    let mapped = as_metric.unwrap_or(metric);
    let descriptive = matches!(stat, "min" | "max" | "std" | "std_sample");
    if has_value {
        return match as_metric {
            Some("tpot") if metric == "itl" => Some(CredenceNote::NoChunkTimes(a.run.source_name.clone())),
            _ if descriptive => Some(CredenceNote::Descriptive),
            Some(m) => Some(CredenceNote::EstimatedAs(m)),
            None => None,
        };
    }
    let rate = matches!(mapped, "requests_per_s" | "output_tokens_per_s" | "input_tokens_per_s");
    Some(match stat {
        _ if mapped == "goodput_per_s" && a.slo.is_none() => CredenceNote::NeedsSlo,
        "count" | "count_all" | "sum" => CredenceNote::WindowDependent,
        _ if rate && stat != "value" => CredenceNote::OneRate,
        _ if matches!(mapped, "service" | "send_lag") && !a.run.has_schedule => CredenceNote::NoSchedule,
        _ if other_status(metric).is_some_and(|m| estimated(a, m)) => CredenceNote::SuccessfulOnly,
        _ if !estimated(a, metric) => CredenceNote::NotEstimated,
        _ if descriptive => CredenceNote::NotDescribed,
        _ if stat != "mean" && percentile_of_stat(stat).is_none() => CredenceNote::StatNotComputed,
        _ => CredenceNote::NoSteadyValue,
    })
}

/// The percentiles (fractions) the claims state, for the analysis to estimate beside its own.
pub fn claimed_percentiles(claims: &[Claim]) -> Vec<f64> {
    let mut ps: Vec<f64> = claims.iter().filter_map(|c| percentile_of_stat(&c.stat)).collect();
    ps.sort_by(f64::total_cmp);
    ps.dedup();
    ps
}

/// Why credence's steady-state number may differ from the tool's (`english` words it; the
/// report's Chinese words it from the same variants).
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    /// The tool's own definition of the number, where it differs.
    Definition(Definition),
    Dropped {
        warmup: usize,
        ramp_down: usize,
    },
    PulledByTail,
    ItlPerChunk,
    TpotDefinitions,
    NotAnchored,
    FewTailSamples,
}

impl Why {
    /// The reason as a message (`audit-why`; a tool's definition as `audit-definition`).
    pub fn message(&self) -> Message {
        let why = |key: &str| Message::new("audit-why").text("why", key);
        match self {
            Why::Definition(d) => Message::new("audit-definition").msg("definition", d.0.clone()),
            Why::Dropped { warmup, ramp_down } => why("dropped").int("warmup", *warmup).int("ramp_down", *ramp_down),
            Why::PulledByTail => why("tail"),
            Why::ItlPerChunk => why("itl-chunk"),
            Why::TpotDefinitions => why("tpot-definitions"),
            Why::NotAnchored => why("not-anchored"),
            Why::FewTailSamples => why("few-tail"),
        }
    }
}

/// Why credence's number for `metric` `stat` may differ from the tool's.
pub fn reasons(a: &Analysis, metric: &str, stat: &str, definition: Option<&Definition>) -> Vec<Why> {
    let mut r: Vec<Why> = definition.map(|d| Why::Definition(d.clone())).into_iter().collect();
    let metric = credence_metric(a, metric);
    let s = &a.steady_state;
    if s.dropped_start_requests + s.dropped_end_requests > 0 {
        r.push(Why::Dropped { warmup: s.dropped_start_requests, ramp_down: s.dropped_end_requests });
    }
    if stat == "mean" || stat.starts_with("std") {
        r.push(Why::PulledByTail);
    }
    match (definition, metric) {
        (None, "itl") => r.push(Why::ItlPerChunk),
        (None, "tpot") => r.push(Why::TpotDefinitions),
        _ => {}
    }
    if a.run.timestamps != "absolute" {
        r.push(Why::NotAnchored);
    }
    if stat.starts_with('p') && a.metrics.get(metric).is_some_and(|m| m.values().any(|e| e.status == Status::InsufficientData)) {
        r.push(Why::FewTailSamples);
    }
    r
}

/// The run-level facts a source recorded, by name.
#[derive(Clone, Copy)]
struct Facts<'a>(&'a [(String, String)]);

impl<'a> Facts<'a> {
    /// The value of fact `k`, when recorded.
    fn get(&self, k: &str) -> Option<&'a str> {
        self.0.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
    }

    /// The value of fact `k` as a number, when recorded and numeric.
    fn number(&self, k: &str) -> Option<f64> {
        self.get(k).and_then(|x| x.parse::<f64>().ok())
    }
}

/// The claim recomputed from the tool's raw values, or else from its summary file, and from which.
fn recompute(c: &Claim, raw: &RawValues, facts: Facts<'_>) -> (Option<f64>, Option<&'static str>) {
    // Raw values filed under the claim's own key (one population per summary file, e.g. one
    // inference-perf stage) win over those of its metric.
    let population = if raw.contains_key(&c.key) { &c.key } else { &c.metric };
    let from_raw = credence_run::claims::recompute(raw, population, &c.stat);
    // MLPerf logs have no raw values: cross-check the detail log against the summary file.
    let from_summary =
        credence_run::claims::mlperf_summary_line_for(&c.key).and_then(|(line, scale)| facts.number(&format!("summary.{line}")).map(|v| v * scale));
    match (from_raw, from_summary) {
        (Some(x), _) => (Some(x), Some("raw")),
        (None, Some(x)) => (Some(x), Some("summary")),
        _ => (None, None),
    }
}

/// Why the recomputed number agrees with the claim or not.
fn recompute_reason(verdict: &str, recomputed_from: Option<&str>, recomputed: Option<f64>, definition: Option<&Definition>) -> Message {
    match (verdict, recomputed_from, recomputed) {
        ("reproduced", Some("summary"), _) => Message::new("audit-reproduced-summary"),
        ("reproduced", _, _) => Message::new("audit-reproduced-raw"),
        ("differs", Some("summary"), Some(x)) => Message::new("audit-differs-summary").text("value", fmt(x)),
        ("differs", _, Some(x)) => Message::new("audit-differs-raw").text("value", fmt(x)),
        _ => {
            let definition = definition.map_or(Message::new("empty"), |d| Message::new("audit-no-raw-definition").msg("definition", Why::Definition(d.clone()).message()));
            Message::new("audit-no-raw").msg("definition", definition)
        }
    }
}

/// Checks one claim against the raw values and, when given, credence's steady-state estimate.
fn check_claim(c: &Claim, raw: &RawValues, facts: Facts<'_>, analysis: Option<&Analysis>) -> ClaimCheck {
    let (recomputed, recomputed_from) = recompute(c, raw, facts);
    let verdict = match recomputed {
        Some(x) if rel(x, c.value) <= SAME => "reproduced",
        Some(_) => "differs",
        None => "not_recomputable",
    };
    let cred = analysis.and_then(|a| credence_value(a, c));
    let mut reason_message = recompute_reason(verdict, recomputed_from, recomputed, c.definition.as_ref());
    let credence_differs_by = cred.map(|(v, _)| v).filter(|v| rel(*v, c.value) > 0.02).map(|v| v / c.value - 1.0);
    if let (Some(a), Some(d)) = (analysis, credence_differs_by) {
        let why: Vec<Message> = reasons(a, &c.metric, &c.stat, c.definition.as_ref()).iter().map(Why::message).collect();
        let why = if why.is_empty() { Message::new("empty") } else { Message::new("audit-why-list").list("items", why, Sep::Semicolon) };
        reason_message = Message::new("audit-credence-differs").msg("reason", reason_message).text("by", format!("{:+.1}", d * 100.0)).msg("why", why);
    }
    let credence_note_message = analysis.and_then(|a| credence_note(a, &c.metric, &c.stat, cred.is_some())).map(|n| n.message(&c.metric, &c.stat));
    ClaimCheck {
        key: c.key.clone(),
        metric: c.metric.clone(),
        stat: c.stat.clone(),
        unit: c.unit.clone(),
        tool_value: c.value,
        recomputed,
        recomputed_from,
        verdict,
        credence: cred.map(|x| x.0),
        credence_ci: cred.and_then(|x| x.1),
        credence_metric: analysis.and_then(|a| mapped_metric(a, &c.metric)),
        credence_note: credence_note_message.as_ref().map(|m| m.render(Lang::En)),
        credence_note_message,
        credence_differs_by,
        definition: c.definition.as_ref().map(Definition::english),
        reason: reason_message.render(Lang::En),
        reason_message,
    }
}

/// MLPerf: VALID ⇔ min duration ∧ min queries ∧ performance constraints ∧ early stopping.
fn mlperf_validity(validity: &str, facts: Facts<'_>) -> FactCheck {
    let parts = ["detail.result_min_duration_met", "detail.result_min_queries_met", "detail.result_perf_constraints_met", "detail.early_stopping_met"];
    let known: Vec<(&str, bool)> = parts.iter().filter_map(|k| facts.get(k).map(|v| (*k, v == "true"))).collect();
    let validity = validity.to_string();
    if known.is_empty() {
        return FactCheck::new("mlperf.validity", "NOT_CHECKED", FactReason::MlperfConditionsUnrecorded { validity });
    }
    let all = known.iter().all(|k| k.1);
    let expected = if all && known.len() == parts.len() {
        "VALID"
    } else if !all {
        "INVALID"
    } else {
        validity.as_str()
    }
    .to_string();
    let failed: Vec<String> = known.iter().filter(|k| !k.1).map(|k| k.0[7..].to_string()).collect();
    let status = if expected == validity { "PASS" } else { "FAIL" };
    FactCheck::new("mlperf.validity", status, FactReason::MlperfValidity { validity, expected, failed })
}

/// The tool's own error rate: its percentiles leave the failed requests out.
fn llmperf_error_rate(rate: f64) -> FactCheck {
    let status = if rate >= 0.05 {
        "FAIL"
    } else if rate >= 0.01 {
        "WARN"
    } else {
        "PASS"
    };
    FactCheck::new("llmperf.error_rate", status, FactReason::LlmperfErrorRate { rate })
}

/// Rechecks the run-level facts: MLPerf's validity, query count and completeness, and the
/// tool's own error rate.
fn fact_checks(facts: Facts<'_>) -> Vec<FactCheck> {
    let mut fc = Vec::new();
    if let Some(validity) = facts.get("detail.result_validity") {
        fc.push(mlperf_validity(validity, facts));
        if let (Some(q), Some(min)) = (facts.number("detail.result_query_count"), facts.number("detail.effective_min_query_count")) {
            let met = q >= min || facts.get("detail.result_min_queries_met") == Some("true");
            fc.push(FactCheck::new("mlperf.min_queries", if met { "PASS" } else { "FAIL" }, FactReason::MlperfMinQueries { queries: q, min }));
        }
    }
    if let Some(why) = facts.get("detail.incomplete") {
        fc.push(FactCheck::new("mlperf.complete", "FAIL", FactReason::MlperfIncomplete(why.to_string())));
    }
    if let (Some(s), Some(d)) = (facts.get("summary.Result is"), facts.get("detail.result_validity")) {
        let why = FactReason::MlperfSummaryMatchesDetail { summary: s.to_string(), detail: d.to_string() };
        fc.push(FactCheck::new("mlperf.summary_matches_detail", if s == d { "PASS" } else { "FAIL" }, why));
    }
    fc.extend(super::aiperf_facts::checks(facts.0));
    fc.extend(facts.number("results_error_rate").map(llmperf_error_rate));
    fc
}

/// The files audited as one line: "a.json (llmperf), b.json (llmperf-summary)".
pub fn source_line(files: &[(String, String)]) -> String {
    files.iter().map(|(file, format)| format!("{file} ({format})")).collect::<Vec<_>>().join(", ")
}

/// A file audited and the format it was read as.
#[derive(Debug, Clone, Serialize)]
pub struct AuditedFile {
    pub file: String,
    pub format: String,
}

/// Checks every claim of `files` (each a name and its format) against the raw values and the
/// analysis.
pub fn audit(files: &[(String, String)], claims: &[Claim], raw: &RawValues, facts: &[(String, String)], analysis: Option<&Analysis>) -> Audit {
    let facts = Facts(facts);
    let checks: Vec<ClaimCheck> = claims.iter().map(|c| check_claim(c, raw, facts, analysis)).collect();
    let fc = fact_checks(facts);
    let reproduced = checks.iter().filter(|c| c.verdict == "reproduced").count();
    let differing = checks.iter().filter(|c| c.verdict == "differs").count();
    let source = source_line(files);
    let files = files.iter().map(|(file, format)| AuditedFile { file: file.clone(), format: format.clone() }).collect();
    Audit { source, files, claims: checks, facts: fc, reproduced, differing }
}

fn fmt(x: f64) -> String {
    credence_run::text::significant(x, 4)
}
