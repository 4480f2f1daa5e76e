//! The report's content as display strings, built from the `Report` value alone: the PDF
//! template lays these out and the Markdown exporter prints them, so both show the same
//! numbers, formatted once (`format.rs`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::comparison_view::{ComparisonView, comparison};
use super::document::{Report, Sweep, SweepStep};
use super::format::{estimate, estimate_in, not_available, significant};
use super::i18n::Lang;
use credence_messages::{Message, Sep};
use super::telemetry_view::{TelemetryView, telemetry_view};
use credence_analyze::Analysis;
use credence_analyze::audit::ClaimCheck;
use credence_analyze::credibility::Credibility;
use credence_analyze::estimate::Estimate;
use credence_run::claims::percentile_of_stat;

#[derive(Debug, Clone, Serialize)]
pub struct CheckSet {
    pub title: String,
    /// The arm's own statement (a comparison's arms); empty when the report's statement covers it.
    pub statement: String,
    pub checks: Vec<[String; 3]>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MetricTable {
    pub title: String,
    pub rows: Vec<[String; 6]>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FindingView {
    pub title: String,
    pub cause: String,
    pub strength: String,
    pub episodes: String,
    pub effect: String,
    pub evidence: Vec<String>,
    pub action: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct AuditView {
    pub summary: String,
    pub claims: Vec<[String; 6]>,
    pub facts: Vec<[String; 3]>,
}

/// A load sweep: one row per step, and what the curve says.
#[derive(Debug, Clone, Serialize)]
pub struct SweepView {
    pub summary: String,
    /// offered, achieved req/s, TTFT P50, TTFT P99, TPOT P50, E2E P99, errors %, grade (with
    /// " (client)" when the load generator was near its own limit).
    pub rows: Vec<[String; 8]>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EnvironmentView {
    pub title: String,
    pub rows: Vec<[String; 2]>,
}

#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The report's language (`en`, `zh`) and the template's fixed words in it (`i18n`).
    pub lang: &'static str,
    pub words: BTreeMap<String, String>,
    pub title: String,
    pub subtitle: String,
    pub footer: String,
    pub grade: String,
    pub grade_rule: String,
    pub statement: String,
    pub headline: Vec<[String; 2]>,
    pub check_sets: Vec<CheckSet>,
    pub metrics_note: String,
    pub metric_tables: Vec<MetricTable>,
    /// Runs with episodes of an environmental cause: clean and per-cause numbers.
    pub conditions: Vec<super::conditions_view::ConditionsView>,
    pub rates: Vec<[String; 2]>,
    pub timeline_note: String,
    /// Chart names, in order; filled in by the PDF exporter from the charts it drew.
    pub timelines: Vec<String>,
    pub distributions: Vec<[String; 2]>,
    pub findings: Vec<FindingView>,
    pub findings_none: String,
    pub unexplained: Vec<String>,
    pub not_checked: String,
    /// A comparison or a sweep: its verdict and table lead, the credibility checks follow the metrics.
    pub verdict_first: bool,
    pub comparison: Option<ComparisonView>,
    pub audit: Option<AuditView>,
    pub sweep: Option<SweepView>,
    /// A GPU capture audited without request records.
    pub telemetry: Option<TelemetryView>,
    pub environment: Vec<EnvironmentView>,
    pub provenance: Vec<[String; 2]>,
    pub files: Vec<[String; 4]>,
    pub methodology: Vec<[String; 2]>,
}

/// The key metrics' rows; a metric the analysis lacks (`ttfot` outside reasoning-model runs) has no row.
const METRICS: [(&str, &str); 6] =
    [("ttft", "TTFT"), ("ttfot", "Time to first output token"), ("tpot", "TPOT"), ("itl", "ITL"), ("e2e", "E2E"), ("service", "E2E from scheduled")];

fn checks(title: String, statement: String, c: &Credibility) -> CheckSet {
    CheckSet { title, statement, checks: c.checks.iter().map(|k| [k.name.clone(), k.status.label().to_string(), k.reason.clone()]).collect() }
}

fn metric_table(a: &Analysis, title: String) -> MetricTable {
    let rows = METRICS
        .iter()
        .filter_map(|(key, label)| {
            let m = a.metrics.get(*key)?;
            let cell = |p: &str| m.get(p).map_or("n/a".to_string(), |e| estimate(e, 1.0));
            let n = m.get("p50").map_or(0, |e| e.n);
            Some([format!("{label} (ms)"), cell("p50"), cell("p90"), cell("p99"), cell("p999"), n.to_string()])
        })
        .collect();
    MetricTable { title, rows }
}

fn sut(a: &Analysis, sweep: Option<&crate::document::Sweep>) -> String {
    let c = &a.run.config;
    let parts: Vec<String> = [
        c.model.as_ref().map(|m| format!("model {m}")),
        c.engine.as_ref().map(|e| format!("{e} {}", c.engine_version.clone().unwrap_or_default()).trim().to_string()),
        c.hardware.clone(),
        c.parallelism.as_ref().map(|p| format!("parallelism {p}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    let offered = |s: &crate::document::Sweep| s.steps.iter().map(|x| x.offered_per_s).collect::<Vec<_>>();
    let load = match (a.run.rate_per_s, a.run.concurrency, sweep.map(offered)) {
        (_, _, Some(o)) if !o.is_empty() => format!(
            "{} arrivals swept from {} to {} requests/s",
            a.run.arrival,
            significant(o.iter().copied().fold(f64::INFINITY, f64::min), 3),
            significant(o.iter().copied().fold(0.0, f64::max), 3)
        ),
        (Some(r), _, _) => format!("{} arrivals at {} requests/s", a.run.arrival, significant(r, 3)),
        (None, Some(c), _) => format!("concurrency {c}"),
        _ => a.run.arrival.clone(),
    };
    format!("{} · {load}", if parts.is_empty() { "system under test not recorded".to_string() } else { parts.join(", ") })
}

fn headline(a: &Analysis) -> Vec<[String; 2]> {
    let e = |m: &str, p: &str| a.metrics.get(m).and_then(|x| x.get(p)).map_or("n/a".to_string(), |x| estimate(x, 1.0));
    let p50_p99 = |m: &str| format!("P50 {} ms · P99 {} ms", e(m, "p50"), e(m, "p99"));
    let mut rows = vec![
        [
            "Throughput".into(),
            format!("{} requests/s, {} output tokens/s", estimate(&a.throughput.requests_per_s, 1.0), estimate(&a.throughput.output_tokens_per_s, 1.0)),
        ],
        ["TTFT".into(), p50_p99("ttft")],
    ];
    // A reasoning model's first token is a thought; the answer begins later.
    if a.metrics.contains_key("ttfot") {
        rows.push(["Time to first output token".into(), p50_p99("ttfot")]);
    }
    rows.push(["TPOT".into(), p50_p99("tpot")]);
    rows.push(["Errors".into(), errors_line(a)]);
    super::conditions_view::headline(a, rows, super::i18n::Lang::En)
}

/// The error rate, then each kind's share (largest first), e.g. `12 of 120 requests: 10 [6, 17] %
/// (http_5xx 5.0 %, timeout 5.0 %)`.
fn errors_line(a: &Analysis) -> String {
    let mut total = format!("{} of {} requests: {} %", a.errors.errors, a.errors.requests, estimate(&a.errors.rate, 100.0));
    if a.errors.cancelled > 0 {
        total += &format!("; {} more cancelled by the load generator, not counted", a.errors.cancelled);
    }
    let parts = error_kind_shares(a);
    if parts.is_empty() {
        return total;
    }
    format!("{total} ({})", parts.join(", "))
}

/// An attribution effect's value in its own terms: a relative change in %, the error rate in
/// percentage points, else the metric's unit.
pub(crate) fn effect_value(e: &credence_analyze::attribute::effect::Effect, x: f64) -> String {
    if e.kind == "relative" {
        format!("{:+.1} %", x * 100.0)
    } else if e.metric == "error_rate" {
        format!("{:+.1} pp", x * 100.0)
    } else {
        format!("{x:+.2} {}", e.unit)
    }
}

/// Each error kind's share of the requests, largest first (`timeout 1.2 %`).
pub(crate) fn error_kind_shares(a: &Analysis) -> Vec<String> {
    let mut kinds: Vec<(&String, f64)> = a.errors.by_kind.iter().filter_map(|(k, e)| Some((k, e.estimate?))).collect();
    kinds.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(y.0)));
    kinds.iter().map(|(k, r)| format!("{k} {:.1} %", r * 100.0)).collect()
}

fn findings(a: &Analysis) -> Vec<FindingView> {
    a.findings
        .iter()
        .map(|f| FindingView {
            title: f.title.clone(),
            cause: f.cause.clone(),
            strength: format!(
                "{}: {:.0} % of the episode time overlaps a latency, throughput or error anomaly; correlation {}{}",
                f.strength.label,
                f.strength.anomaly_overlap * 100.0,
                f.strength.correlation.map_or("n/a".into(), |c| format!("{c:.2}")),
                f.strength.lag_s.map_or(String::new(), |l| format!(" at lag {l:+.0} s")),
            ),
            episodes: f.episodes.iter().map(|e| format!("{:.0}–{:.0} s ({})", e.start_s, e.end_s, e.source)).collect::<Vec<_>>().join("; "),
            effect: f.effect.as_ref().map_or("not measurable".into(), |e| {
                let fmt = |x: f64| effect_value(e, x);
                let ci = match (e.ci_low, e.ci_high) {
                    (Some(lo), Some(hi)) => format!(" [{}, {}] (95 %, {}, seed {}, {} resamples)", fmt(lo), fmt(hi), e.method, e.seed, e.resamples),
                    _ => format!(" ({})", e.note.clone().unwrap_or_else(|| "no interval".into())),
                };
                format!("{} inside versus outside: {}{ci}; n = {} inside, {} outside", e.metric, fmt(e.change), e.n_inside, e.n_outside)
            }),
            evidence: f.evidence.clone(),
            action: f.action.clone(),
        })
        .collect()
}

fn environment(a: &Analysis) -> EnvironmentView {
    let v = serde_json::to_value(&a.run.environment).unwrap_or_default();
    let rows = v
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, o)| {
                    let value = match (&o["value"], o["note"].as_str()) {
                        (serde_json::Value::Null, Some(n)) => format!("unknown: {n}"),
                        (serde_json::Value::Null, None) => "unknown".to_string(),
                        (serde_json::Value::String(s), _) => s.clone(),
                        (x, _) => x.to_string(),
                    };
                    [k.clone(), value]
                })
                .collect()
        })
        .unwrap_or_default();
    EnvironmentView { title: format!("run {}", a.run.run_id), rows }
}

pub(crate) fn audit(r: &Report, lang: Lang) -> Option<AuditView> {
    let a = r.audit.as_ref()?;
    let whole = a.claims.len() <= AUDIT_ROWS;
    let mut shown: Vec<&ClaimCheck> = a.claims.iter().filter(|c| whole || in_audit_table(c)).collect();
    // Differences first, so that a cut never hides one.
    shown.sort_by_key(|c| c.verdict != "differs");
    shown.truncate(AUDIT_ROWS);
    let reproduced_from = |from: &str| a.claims.iter().filter(|c| c.verdict == "reproduced" && c.recomputed_from == Some(from)).count();
    let mut summary = Message::new("audit-summary")
        .int("claims", a.claims.len())
        .text("source", &a.source)
        .int("reproduced", a.reproduced)
        .int("raw", reproduced_from("raw"))
        .int("summary", reproduced_from("summary"))
        .int("differ", a.differing)
        .int("unchecked", a.claims.len() - a.reproduced - a.differing)
        .render(lang);
    if shown.len() < a.claims.len() {
        summary += &Message::new("audit-summary-cut").int("shown", shown.len()).int("claims", a.claims.len()).render(lang);
    }
    Some(AuditView {
        summary,
        claims: shown.into_iter().map(|c| claim_row(c, lang)).collect(),
        facts: a.facts.iter().map(|x| [x.name.clone(), x.status.to_string(), x.reason_message.render(lang)]).collect(),
    })
}

/// At most this many claims are tabled (AIPerf states over a thousand); the JSON has them all.
const AUDIT_ROWS: usize = 80;

/// Whether a claim belongs in the report's table: every difference, and the headline numbers
/// (latency means and medians, P90 and P99; throughputs).
fn in_audit_table(c: &ClaimCheck) -> bool {
    let headline_metric = matches!(c.metric.as_str(), "ttft" | "tpot" | "itl" | "e2e" | "ttfot" | "requests_per_s" | "output_tokens_per_s");
    let headline_stat =
        c.stat == "mean" || c.stat == "value" || matches!(percentile_of_stat(&c.stat), Some(p) if [0.5, 0.9, 0.99].iter().any(|h| (h - p).abs() < 1e-9));
    c.verdict == "differs" || (headline_metric && headline_stat)
}

/// A claim as its row names it: `key (metric stat)`.
pub(crate) fn claim_label(c: &ClaimCheck) -> String {
    format!("{} ({} {})", c.key, c.metric, c.stat)
}

/// One claim's row: the claim, the tool's value, the recomputation, the verdict, credence's
/// value and the reason.
fn claim_row(c: &ClaimCheck, lang: Lang) -> [String; 6] {
    let f = |x: f64| significant(x, 4);
    let note = c.credence_note_message.as_ref().map(|m| in_language(m, lang));
    let mut cred = match (c.credence, c.credence_ci, &note) {
        (Some(v), Some((lo, hi)), _) => Message::new("audit-credence-interval").text("value", f(v)).text("low", f(lo)).text("high", f(hi)).render(lang),
        (Some(v), None, _) => Message::new("audit-credence-point").text("value", f(v)).render(lang),
        (None, _, Some(n)) => Message::new("audit-credence-none").text("note", n).render(lang),
        _ => not_available(lang),
    };
    // A value of another credence metric says which, and why.
    if let (Some(_), Some(_), Some(n)) = (c.credence, c.credence_metric, &note) {
        cred = Message::new("audit-credence-noted").text("cell", cred).text("note", n).render(lang);
    }
    let recomputed = c.recomputed.map_or(not_available(lang), |x| {
        Message::new("audit-recomputed").text("value", f(x)).text("from", c.recomputed_from.unwrap_or("raw")).render(lang)
    });
    [
        claim_label(c),
        format!("{} {}", f(c.tool_value), c.unit),
        recomputed,
        Message::new("audit-verdict").text("verdict", c.verdict).render(lang),
        cred,
        in_language(&c.reason_message, lang),
    ]
}

/// An audit message in `lang`: a tool's definitions (English from the importers) in Chinese
/// through `definitions_zh`, until the importers name them by id.
fn in_language(m: &Message, lang: Lang) -> String {
    match lang {
        Lang::En => m.render(lang),
        Lang::Zh => super::i18n::definitions_zh::with_chinese_definitions(m).render(lang),
    }
}

/// The sweep's table and a factual summary in `lang`: up to which offered rate the achieved
/// rate kept up, how the TTFT tail moved, and which steps the client itself limited.
pub(crate) fn sweep(r: &Report, lang: Lang) -> Option<SweepView> {
    let sw = r.sweep.as_ref()?;
    let steps = sweep_points(sw, r);
    let grade = |(s, a): &SweepPoint| {
        let grade = Message::new("grade").text("grade", a.credibility.grade.label());
        Message::new("sweep-grade").msg("grade", grade).text("client", if s.client_limited { "yes" } else { "no" }).render(lang)
    };
    let rows = sweep_rows(&steps, |e, scale| estimate_in(e, scale, lang), not_available(lang), grade);
    let mut sentences = sweep_rate_summary(&steps);
    let limited = client_limited_rates(&steps);
    if !limited.is_empty() {
        let rates = limited.into_iter().map(|r| Message::new("as-written").text("text", r)).collect();
        sentences.push(Message::new("sweep-client-limited").list("rates", rates, Sep::Enumeration));
    }
    if sw.stopped_early {
        sentences.push(Message::new("sweep-stopped-early"));
    }
    Some(SweepView { summary: Message::new("sweep-summary").list("sentences", sentences, Sep::Sentence).render(lang), rows })
}

/// One step of a sweep with the analysis of its run.
type SweepPoint<'a> = (&'a SweepStep, &'a Analysis);

/// The sweep's steps whose run has an analysis, in order.
fn sweep_points<'a>(sw: &'a Sweep, r: &'a Report) -> Vec<SweepPoint<'a>> {
    sw.steps.iter().filter_map(|s| Some((s, r.runs.get(s.run)?))).collect()
}

/// The sweep table's rows, each estimate worded by `word` (value, scale) and each step's grade
/// (with the client flag) by `grade`, in the report's language.
fn sweep_rows(steps: &[SweepPoint], word: impl Fn(&Estimate, f64) -> String, none: String, grade: impl Fn(&SweepPoint) -> String) -> Vec<[String; 8]> {
    let metric = |a: &Analysis, m: &str, p: &str| a.metrics.get(m).and_then(|x| x.get(p)).map_or(none.clone(), |e| word(e, 1.0));
    steps
        .iter()
        .map(|point| {
            let (s, a) = *point;
            [
                significant(s.offered_per_s, 3),
                word(&a.throughput.requests_per_s, 1.0),
                metric(a, "ttft", "p50"),
                metric(a, "ttft", "p99"),
                metric(a, "tpot", "p50"),
                metric(a, "e2e", "p99"),
                word(&a.errors.rate, 100.0),
                grade(point),
            ]
        })
        .collect()
}

/// The offered rates at which the load generator was near its own limit.
fn client_limited_rates(steps: &[SweepPoint]) -> Vec<String> {
    steps.iter().filter(|(s, _)| s.client_limited).map(|(s, _)| significant(s.offered_per_s, 3)).collect()
}

/// The TTFT P99 at the first and the last step, each with its offered rate, when both have one.
fn sweep_ttft_p99_span(steps: &[SweepPoint]) -> Option<((f64, f64), (f64, f64))> {
    let p99 = |(s, a): &SweepPoint| Some((s.offered_per_s, a.metrics.get("ttft")?.get("p99")?.estimate?));
    Some((p99(steps.first()?)?, p99(steps.last()?)?))
}

/// The offered rates the achieved rate kept up with, from the first step on: its interval
/// reaches 95 % of the offered rate (a short step's Poisson count alone can put the estimate a
/// few percent low) and the client was not near its own limit.
fn sweep_kept_up(steps: &[SweepPoint]) -> Vec<f64> {
    steps
        .iter()
        .take_while(|(s, a)| {
            let t = &a.throughput.requests_per_s;
            t.ci_high.or(t.estimate).is_some_and(|x| x >= 0.95 * s.offered_per_s) && !s.client_limited
        })
        .map(|(s, _)| s.offered_per_s)
        .collect()
}

/// The sweep's range, up to which rate the achieved rate kept up, and how the TTFT tail moved.
fn sweep_rate_summary(steps: &[SweepPoint]) -> Vec<Message> {
    let kept_up = sweep_kept_up(steps);
    let rate = |s: Option<&SweepPoint>| s.map_or("?".into(), |s| significant(s.0.offered_per_s, 3));
    let mut sentences = vec![Message::new("sweep-range").int("steps", steps.len()).text("from", rate(steps.first())).text("to", rate(steps.last()))];
    sentences.push(match kept_up.last() {
        Some(top) if kept_up.len() == steps.len() => Message::new("sweep-kept-up-throughout").text("top", significant(*top, 3)),
        Some(top) => Message::new("sweep-kept-up-until").text("top", significant(*top, 3)),
        None => Message::new("sweep-fell-short"),
    });
    if let Some(((from_rate, from), (to_rate, to))) = sweep_ttft_p99_span(steps) {
        let s = |x: f64| significant(x, 3);
        sentences.push(Message::new("sweep-ttft-tail").text("from", s(from)).text("from_rate", s(from_rate)).text("to", s(to)).text("to_rate", s(to_rate)));
    }
    sentences
}

/// The report's content, formatted.
pub fn view(r: &Report) -> View {
    let first = r.runs.first();
    let comparison_view = comparison(r, super::i18n::Lang::En);
    // A comparison states its own credibility briefly; each arm's statement goes with its checks.
    let statement = comparison_view.as_ref().map_or_else(|| r.credibility.statement.clone(), |c| c.credibility.clone());
    let sweep_view = sweep(r, Lang::En);
    View {
        lang: "en",
        words: super::i18n::localize::template_words(super::i18n::Lang::En),
        title: r.title.clone(),
        subtitle: subtitle(r),
        footer: format!("{} · credence {} · {}", r.title, r.credence_version, r.date),
        grade: r.grade().label().to_string(),
        grade_rule: r.credibility.grade_rule.to_string(),
        statement,
        headline: headline_rows(r, sweep_view.as_ref()),
        check_sets: check_sets(r),
        metrics_note: "Estimates with 95 % intervals, in ms, over the steady window. '~x (>= y, insufficient data)' means too few samples for a two-sided interval: only the lower bound y is supported.".into(),
        metric_tables: metric_tables(r),
        conditions: r.runs.iter().filter_map(|a| super::conditions_view::conditions_view(a, super::i18n::Lang::En)).collect(),
        rates: r.runs.iter().flat_map(|a| {
            [
                [format!("{}: requests/s", a.run.run_id), estimate(&a.throughput.requests_per_s, 1.0)],
                [format!("{}: output tokens/s", a.run.run_id), estimate(&a.throughput.output_tokens_per_s, 1.0)],
                [format!("{}: error rate (%)", a.run.run_id), estimate(&a.errors.rate, 100.0)],
            ]
        }).collect(),
        timeline_note: format!(
            "{}Seconds from the first send. Grey: dropped warmup and ramp-down. Red: episodes of the findings.",
            r.sweep.as_ref().and_then(|s| s.steps.last()).map_or(String::new(), |s| format!("The sweep's highest step ({} requests/s). ", significant(s.offered_per_s, 3)))
        ),
        timelines: Vec::new(),
        distributions: Vec::new(),
        findings: r.runs.iter().flat_map(findings).collect(),
        findings_none: "Every detector with its evidence present found nothing; see below for those that could not run.".into(),
        unexplained: r.runs.iter().flat_map(|a| a.attribution.unexplained.iter().map(move |u| format!("{}: {} {} from {:.0} s to {:.0} s (robust z {:.1}); no detector found a cause", a.run.run_id, u.series, u.peak_change_text(), u.start_s, u.end_s, u.peak_z))).collect(),
        not_checked: not_checked(r),
        verdict_first: r.comparison.is_some() || r.sweep.is_some(),
        comparison: comparison_view,
        audit: audit(r, Lang::En),
        sweep: sweep_view,
        telemetry: r.telemetry.as_ref().map(|t| telemetry_view(t, Lang::En)),
        environment: r.runs.iter().map(environment).collect(),
        provenance: provenance(r),
        files: files(r),
        methodology: match &r.telemetry {
            Some(_) => super::telemetry_view::methodology(Lang::En),
            None => methodology(r, first),
        },
    }
}

/// Each input file with its size and sha256: the runs' sources, or the capture's files.
fn files(r: &Report) -> Vec<[String; 4]> {
    let runs =
        r.runs.iter().flat_map(|a| a.run.source_files.iter().map(move |f| [a.run.run_id.clone(), f.name.clone(), f.size_bytes.to_string(), f.sha256.clone()]));
    let capture = r.telemetry.iter().flat_map(|t| t.files.iter().map(|f| ["capture".to_string(), f.name.clone(), f.size_bytes.to_string(), f.sha256.clone()]));
    runs.chain(capture).collect()
}

/// What was tested, when, and what kind of report this is.
fn subtitle(r: &Report) -> String {
    if r.telemetry.is_some() {
        return format!("GPU telemetry only · {} · no request records", r.date);
    }
    r.runs.first().map_or(String::new(), |a| {
        format!(
            "{} · {} · {}",
            sut(a, r.sweep.as_ref()),
            r.date,
            if r.kind == "comparison" {
                "comparison"
            } else if r.kind == "sweep" {
                "load sweep"
            } else if r.runs.len() == 1 {
                "single run"
            } else {
                "replicated runs"
            }
        )
    })
}

/// The named checks: one set per arm of a comparison, else one.
fn check_sets(r: &Report) -> Vec<CheckSet> {
    let mut check_sets = Vec::new();
    if let Some(b) = &r.base_credibility {
        let (base, cand) = super::comparison_words::arm_names();
        check_sets.push(checks(format!("{base} arm: {}", b.grade.label()), b.statement.clone(), b));
        check_sets.push(checks(format!("{cand} arm: {}", r.credibility.grade.label()), r.credibility.statement.clone(), &r.credibility));
    } else {
        check_sets.push(checks("Named checks".into(), String::new(), &r.credibility));
    }
    check_sets
}

/// The headline: a comparison's verdicts, a sweep's summary, or the first run's numbers.
fn headline_rows(r: &Report, sweep_view: Option<&SweepView>) -> Vec<[String; 2]> {
    // A comparison's headline is a sentence (`ComparisonView::headline`), not rows.
    let mut head = match (&r.comparison, r.runs.first(), &r.telemetry) {
        (Some(_), _, _) => Vec::new(),
        (None, Some(a), _) => headline(a),
        (None, None, Some(t)) => super::telemetry_view::headline(t, super::i18n::Lang::En),
        _ => Vec::new(),
    };
    if let Some(sv) = sweep_view {
        head = vec![["Sweep".into(), sv.summary.clone()]];
    }
    if r.kind == "run" && r.runs.len() > 1 {
        head.insert(0, ["Runs".into(), format!("{} runs; headline numbers below are from the first ({})", r.runs.len(), r.runs[0].run.run_id)]);
    }
    head
}

/// One metric table per run; a sweep's name their step.
fn metric_tables(r: &Report) -> Vec<MetricTable> {
    r.runs
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let step = r.sweep.as_ref().and_then(|s| s.steps.iter().find(|x| x.run == i));
            metric_table(
                a,
                step.map_or(format!("run {}", a.run.run_id), |s| format!("step at {} requests/s (run {})", significant(s.offered_per_s, 3), a.run.run_id)),
            )
        })
        .collect()
}

/// The detectors that could not run in any run, each named once. Without runs no detector
/// ran at all, and the text says so rather than claim they all had their evidence.
fn not_checked(r: &Report) -> String {
    if r.runs.is_empty() {
        return "No cause detector ran: there is no request timeline to attribute.".into();
    }
    let mut not_checked: Vec<String> = Vec::new();
    for a in &r.runs {
        for d in a.attribution.detectors.iter().filter(|d| d.status == "not_checked") {
            let s = format!("{} ({})", d.cause, d.reason);
            if !not_checked.contains(&s) {
                not_checked.push(s);
            }
        }
    }
    if not_checked.is_empty() { "Every detector had its evidence.".into() } else { format!("Not checked (evidence absent): {}.", not_checked.join("; ")) }
}

/// Where the numbers come from: credence's version, and each run's labels, errors and source.
fn provenance(r: &Report) -> Vec<[String; 2]> {
    let mut provenance = vec![["credence".to_string(), r.credence_version.clone()]];
    for a in &r.runs {
        for (k, v) in &a.run.labels {
            provenance.push([format!("label {k}"), v.clone()]);
        }
        for e in &a.errors.examples {
            provenance.push([format!("error ({}, {}x)", e.kind, e.count), e.message.clone()]);
        }
        provenance.push([
            format!("run {}", a.run.run_id),
            format!(
                "{} {} (run directory format {}); source {} {}{}",
                a.run.creator.tool,
                a.run.creator.version,
                a.run.format_version,
                a.run.source_kind,
                a.run.source_name,
                a.run.source_tool_version.as_ref().map_or(String::new(), |v| format!(" version {v}"))
            ),
        ]);
    }
    provenance
}

/// The resampling groups of a run's steady window in words, e.g. `5-second`.
fn group_words(a: &Analysis) -> String {
    let s = &a.steady_state;
    let g = credence_analyze::resampling_group_s(a.options.window_s, s.end_s - s.start_s);
    if g.fract() == 0.0 { format!("{g:.0}-second") } else { format!("{g:.1}-second") }
}

/// How each number is defined and estimated, with the first run's analysis options.
fn methodology(r: &Report, first: Option<&Analysis>) -> Vec<[String; 2]> {
    let o = first.map(|a| &a.options);
    let groups = first.map_or("5-second".to_string(), group_words);
    vec![
        ["TTFT".into(), "Time to first token, measured from the actual send (first token minus sent).".into()],
        ["E2E from scheduled".into(), "End minus the *scheduled* send time: includes the client's own lag, so coordinated omission shows here and not in E2E.".into()],
        ["TPOT".into(), "(end − first token) / (output tokens − 1).".into()],
        ["ITL".into(), "Every gap between consecutive streamed chunks; a chunk may carry several tokens.".into()],
        ["Percentiles".into(), o.map_or(String::new(), |o| o.quantile_definition.to_string())],
        ["Intervals".into(), o.map_or(String::new(), |o| format!("{:.0} % confidence. Exact order-statistic intervals for independent requests (at the effective n when mildly dependent); a grouped stationary block bootstrap over {groups} groups when requests are correlated, widened by t/z for few blocks; Wilson for error rates. Seed {}, {} resamples.", o.confidence * 100.0, o.seed, o.resamples))],
        ["Steady state".into(), o.map_or(String::new(), |o| format!("PELT ({:?} penalty) on per-window log median TTFT and TPOT with a {:.0} % equivalence delta, cross-checked by MSER-5 and Mann–Kendall/Pettitt inside the window.", o.penalty, o.steady_delta * 100.0))],
        ["Attribution".into(), "Robust z-scores of 5-second windows against the steady window's median and MAD find anomalies; telemetry detectors (NVML reason bits and violation counters, power, memory, foreign processes, load-generator CPU and send lag, network counters, server queue) find causes; episodes match within ±2 s.".into()],
        ["Credibility grade".into(), r.credibility.grade_rule.to_string()],
    ]
}
