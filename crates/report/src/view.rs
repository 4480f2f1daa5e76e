//! The report's content as display strings, built from the `Report` value alone: the PDF
//! template lays these out and the Markdown exporter prints them, so both show the same
//! numbers, formatted once (`format.rs`).

use std::collections::BTreeMap;

use serde::Serialize;

use super::comparison_view::{ComparisonView, comparison};
use super::document::{Report, Sweep, SweepStep};
use super::format::{estimate_in, not_available, significant};
use super::i18n::messages::{check_reason, grade_word, statement};
use super::i18n::{Lang, fill, tr, words};
use super::run_view;
use super::telemetry_view::{TelemetryView, telemetry_view};
use credence_analyze::Analysis;
use credence_analyze::audit::ClaimCheck;
use credence_analyze::credibility::Credibility;
use credence_messages::{Message, Sep};
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

/// A capacity search: the capacity (or why there is none) and a row per step.
#[derive(Debug, Clone, Serialize)]
pub struct CapacityView {
    pub headline: String,
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
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
    /// A capacity search (leads page 1, before its sweep's curve and table), or two compared.
    pub capacity: Option<CapacityView>,
    /// A GPU capture audited without request records.
    pub telemetry: Option<TelemetryView>,
    pub environment: Vec<EnvironmentView>,
    pub provenance: Vec<[String; 2]>,
    pub files: Vec<[String; 4]>,
    pub methodology: Vec<[String; 2]>,
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
        .msg("source", crate::document::audited_files(&a.files))
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

/// A claim as its row names it: `key (metric stat)`; the metric and statistic as identifiers in
/// English, in words in Chinese (`P50` where the statistic is a plain percentile).
pub(crate) fn claim_label(c: &ClaimCheck, lang: Lang) -> String {
    let percentile = match c.stat.strip_prefix('p') {
        Some(digits) if digits.parse::<f64>().is_ok() => format!("P{digits}"),
        _ => c.stat.clone(),
    };
    let stat = Message::new("audit-claim-stat").text("stat", &c.stat).text("percentile", percentile);
    Message::new("audit-claim").text("key", &c.key).msg("metric", Message::new("audit-claim-metric").text("metric", &c.metric)).msg("stat", stat).render(lang)
}

/// One claim's row: the claim, the tool's value, the recomputation, the verdict, credence's
/// value and the reason.
fn claim_row(c: &ClaimCheck, lang: Lang) -> [String; 6] {
    let f = |x: f64| significant(x, 4);
    let note = c.credence_note_message.as_ref().map(|m| m.render(lang));
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
        claim_label(c, lang),
        format!("{} {}", f(c.tool_value), c.unit),
        recomputed,
        Message::new("audit-verdict").text("verdict", c.verdict).render(lang),
        cred,
        c.reason_message.render(lang),
    ]
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
/// few percent low), the client was not near its own limit, and the server's queue did not grow
/// (an overloaded step cut early can still show most of its rate completed).
fn sweep_kept_up(steps: &[SweepPoint]) -> Vec<f64> {
    steps
        .iter()
        .take_while(|(s, a)| {
            let t = &a.throughput.requests_per_s;
            let overloaded = a.load.as_ref().is_some_and(|l| l.overloaded());
            t.ci_high.or(t.estimate).is_some_and(|x| x >= 0.95 * s.offered_per_s) && !s.client_limited && !overloaded
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

/// The report's content in `lang`: every sentence from the message catalog, every number
/// formatted once (`format.rs`), the same fields in every language.
/// The running footer holds the title in at most this many columns (a hanzi is two), so that
/// with the version, the date and the page number it stays one line at 8 pt on A4.
const FOOTER_TITLE_COLUMNS: usize = 64;

pub fn view(r: &Report, lang: Lang) -> View {
    let comparison_view = comparison(r, lang);
    let sweep_view = sweep(r, lang);
    let title = run_view::title(r, lang);
    // A comparison states its own credibility briefly; each arm's statement goes with its checks.
    let statement = comparison_view.as_ref().map_or_else(|| statement(&r.credibility, lang), |c| c.credibility.clone());
    let top_step = r.sweep.as_ref().and_then(|s| s.steps.last());
    View {
        lang: lang.code(),
        words: template_words(lang, whole_run(r)),
        footer: format!("{} · credence {} · {}", super::terminal::shortened(&title, FOOTER_TITLE_COLUMNS), r.credence_version, run_view::date(r, lang)),
        title,
        subtitle: run_view::subtitle(r, lang),
        grade: r.grade().label().to_string(),
        grade_rule: tr(lang, "view.grade_rule"),
        statement,
        headline: headline_rows(r, sweep_view.as_ref(), lang),
        check_sets: check_sets(r, lang),
        metrics_note: tr(lang, if whole_run(r) { "view.metrics_note_whole_run" } else { "view.metrics_note" }),
        metric_tables: run_view::metric_tables(r, lang),
        conditions: r.runs.iter().filter_map(|a| super::conditions_view::conditions_view(a, lang)).collect(),
        rates: r.runs.iter().flat_map(|a| run_view::rates(a, lang)).collect(),
        timeline_note: top_step.map_or(String::new(), |s| fill(lang, "view.sweep_top_step", &[("rate", &significant(s.offered_per_s, 3))])) + &tr(lang, "view.timeline_note"),
        timelines: Vec::new(),
        distributions: Vec::new(),
        findings: r.runs.iter().flat_map(|a| a.findings.iter().map(move |f| run_view::finding(a, f, lang))).collect(),
        findings_none: run_view::findings_none(r, lang),
        unexplained: r.runs.iter().flat_map(|a| run_view::unexplained(a, lang)).collect(),
        not_checked: run_view::not_checked(r, lang),
        verdict_first: r.comparison.is_some() || r.sweep.is_some() || r.capacity_comparison.is_some(),
        comparison: comparison_view,
        audit: audit(r, lang),
        sweep: sweep_view,
        capacity: capacity_view(r, lang),
        telemetry: r.telemetry.as_ref().map(|t| telemetry_view(t, lang)),
        environment: r.runs.iter().map(|a| run_view::environment(a, lang)).collect(),
        provenance: run_view::provenance(r, lang),
        files: files(r),
        methodology: match &r.telemetry {
            Some(_) => super::telemetry_view::methodology(lang),
            None => run_view::methodology(r, lang),
        },
    }
}

/// A capacity search's headline and steps, or two searches compared.
fn capacity_view(r: &Report, lang: Lang) -> Option<CapacityView> {
    use super::capacity_view as cv;
    if let Some(c) = &r.capacity {
        let (head, rows) = cv::rows(c, lang);
        return Some(CapacityView { headline: cv::headline(c, lang).render(lang), head, rows });
    }
    let c = r.capacity_comparison.as_ref()?;
    let (head, rows) = cv::comparison_rows(c, lang);
    Some(CapacityView { headline: cv::comparison_headline(c, lang).render(lang), head, rows })
}

/// The template's fixed words (`tpl.*` keys) in `lang`; where every request counts (no
/// steady state could be checked) the words that say "steady state" say so instead.
fn template_words(lang: Lang, whole_run: bool) -> BTreeMap<String, String> {
    let mut w: BTreeMap<String, String> = words("tpl", lang).into_iter().collect();
    if whole_run {
        for key in ["col_credence", "distributions_note"] {
            w.insert(format!("tpl.{key}"), tr(lang, &format!("tpl.{key}_whole_run")));
        }
    }
    w
}

/// Steady state was not checked (records without timestamps): every request counts.
fn whole_run(r: &Report) -> bool {
    use credence_analyze::credibility::{CheckStatus, check_id::CheckId};
    !r.runs.is_empty() && r.credibility.checks.iter().any(|c| c.name == CheckId::SteadyState && c.status == CheckStatus::NotChecked)
}

/// Each input file with its size and sha256: the runs' sources, or the capture's files.
fn files(r: &Report) -> Vec<[String; 4]> {
    let runs =
        r.runs.iter().flat_map(|a| a.run.source_files.iter().map(move |f| [a.run.run_id.clone(), f.name.clone(), f.size_bytes.to_string(), f.sha256.clone()]));
    let capture = r.telemetry.iter().flat_map(|t| t.files.iter().map(|f| ["capture".to_string(), f.name.clone(), f.size_bytes.to_string(), f.sha256.clone()]));
    runs.chain(capture).collect()
}

/// The named checks: one set per arm of a comparison, else one.
fn check_sets(r: &Report, lang: Lang) -> Vec<CheckSet> {
    let set = |title: String, statement: String, c: &Credibility| CheckSet {
        title,
        statement,
        checks: c.checks.iter().map(|k| [k.name.id(), k.status.label().to_string(), check_reason(k, lang)]).collect(),
    };
    match &r.base_credibility {
        Some(b) => {
            let arm = |key: &str, c: &Credibility| fill(lang, "view.arm_title", &[("arm", &tr(lang, key)), ("grade", &grade_word(c.grade, lang))]);
            vec![
                set(arm("cmp.arm_base_title", b), statement(b, lang), b),
                set(arm("cmp.arm_cand_title", &r.credibility), statement(&r.credibility, lang), &r.credibility),
            ]
        }
        // A sweep's checks are its weakest step's.
        None => vec![set(tr(lang, "view.named_checks"), String::new(), &r.credibility)],
    }
}

/// The headline: a comparison's verdicts, a sweep's summary, or the first run's numbers.
fn headline_rows(r: &Report, sweep_view: Option<&SweepView>, lang: Lang) -> Vec<[String; 2]> {
    if let Some(sv) = sweep_view {
        return vec![[tr(lang, "view.row_sweep"), sv.summary.clone()]];
    }
    // A comparison's headline is a sentence (`ComparisonView::headline`), not rows.
    let mut head = match (&r.comparison, r.runs.first(), &r.telemetry) {
        (Some(_), _, _) => Vec::new(),
        (None, Some(a), _) => super::conditions_view::headline(a, run_view::headline(a, lang), lang),
        (None, None, Some(t)) => super::telemetry_view::headline(t, lang),
        _ => Vec::new(),
    };
    if r.kind == "run" && r.runs.len() > 1 {
        let line = fill(lang, "view.runs_line", &[("n", &r.runs.len().to_string()), ("first", &r.runs[0].run.run_id)]);
        head.insert(0, [tr(lang, "view.row_runs"), line]);
    }
    head
}
