//! Puts a `View` into the report's language. English is the view as `view.rs` builds it; for
//! Chinese, each field a person reads is rebuilt from the `Report` (the analyses, their
//! credibility and the comparison), with the words from the catalog and the numbers formatted
//! as in English. Fields not rebuilt here keep their English text (listed in docs/analyze-and-report.md, under `report`).

use std::collections::BTreeMap;

use super::messages::{cause_action, cause_title, check_reason, detector_reason};
use super::{Lang, fill, tr, words};
use credence_analyze::credibility::Credibility;
use credence_analyze::Analysis;
use credence_analyze::attribute::{Finding, FindingEpisode, drift_source};
use crate::document::Report;
use crate::format::{estimate_in, not_available, significant};
use crate::view::{CheckSet, FindingView, MetricTable, View};

const ZH: Lang = Lang::Zh;

/// The template's fixed words (`tpl.*` keys, without the prefix's dot) in `lang`.
pub fn template_words(lang: Lang) -> BTreeMap<String, String> {
    words("tpl", lang).into_iter().collect()
}

/// Sets the view's language and, for Chinese, rebuilds its sentences from the report.
pub fn localize(v: &mut View, r: &Report, lang: Lang) {
    v.lang = lang.code();
    v.words = template_words(lang);
    if lang == Lang::En {
        return;
    }
    let runs: Vec<&Analysis> = r.runs.iter().collect();
    v.title = title(r);
    let date = if r.date == "undated" { tr(ZH, "view.undated") } else { r.date.clone() };
    v.footer = format!("{} · credence {} · {}", v.title, r.credence_version, date);
    v.subtitle = subtitle(r);
    v.grade_rule = tr(ZH, "view.grade_rule").to_string();
    if !runs.is_empty() && r.comparison.is_none() && r.sweep.is_none() {
        v.statement = super::messages::statement(&r.credibility, Lang::Zh);
        v.headline = crate::conditions_view::headline(runs[0], headline(runs[0]), lang);
    }
    if let Some(sv) = crate::view::sweep(r, lang) {
        v.headline = vec![[tr(ZH, "view.kind_sweep"), sv.summary.clone()]];
        v.statement = super::messages::statement(&r.credibility, lang);
        v.sweep = Some(sv);
    }
    v.check_sets = check_sets(r);
    v.metrics_note = tr(ZH, "view.metrics_note").to_string();
    v.metric_tables = r.runs.iter().map(metric_table).collect();
    v.conditions = r.runs.iter().filter_map(|a| crate::conditions_view::conditions_view(a, lang)).collect();
    v.rates = r.runs.iter().flat_map(rates).collect();
    let top_step =
        r.sweep.as_ref().and_then(|s| s.steps.last()).map_or(String::new(), |s| format!("负载扫描的最高一档（{} req/s）。", significant(s.offered_per_s, 3)));
    v.timeline_note = top_step + &tr(ZH, "view.timeline_note");
    v.findings = r.runs.iter().flat_map(|a| a.findings.iter().map(move |f| finding(a, f))).collect();
    v.findings_none = tr(ZH, "view.findings_none").to_string();
    v.unexplained = r.runs.iter().flat_map(unexplained).collect();
    v.not_checked = not_checked(r);
    for e in &mut v.environment {
        e.title = e.title.replacen("run ", &tr(ZH, "view.run_prefix"), 1);
        for row in &mut e.rows {
            if let Some(note) = row[1].strip_prefix("unknown: ") {
                row[1] = fill(ZH, "view.unknown_note", &[("note", &super::messages::unknown_note(note, Lang::Zh))]);
            } else if row[1] == "unknown" {
                row[1] = tr(ZH, "view.unknown").to_string();
            }
        }
    }
    v.provenance = provenance(r);
    v.methodology = methodology(r);
    if runs.is_empty() && r.comparison.is_none() {
        run_less(v, r);
    }
    v.audit = crate::view::audit(r, lang);
    v.comparison = crate::comparison_view::comparison(r, lang);
    if let Some(cv) = &v.comparison {
        v.statement = cv.credibility.clone();
    }
}

/// A report without runs (a GPU capture or a tool's summary files audited alone): its
/// statement, checks, headline and methodology from the capture and the audit.
fn run_less(v: &mut View, r: &Report) {
    v.statement = super::messages::statement(&r.credibility, ZH);
    if let Some(t) = &r.telemetry {
        v.headline = crate::telemetry_view::headline(t, ZH);
        v.methodology = crate::telemetry_view::methodology(ZH);
        v.telemetry = Some(crate::telemetry_view::telemetry_view(t, ZH));
    }
}

/// Why an effect has no interval, in Chinese (as written in an analysis saved before the note
/// was a message).
fn effect_note(e: &credence_analyze::attribute::effect::Effect) -> String {
    match (&e.note_message, &e.note) {
        (Some(m), _) => m.render(ZH),
        (None, Some(note)) => note.clone(),
        (None, None) => tr(ZH, "view.no_interval"),
    }
}

/// The default title in Chinese; a title the user gave stays as given.
fn title(r: &Report) -> String {
    let comparing = r.comparison.is_some();
    // `audit`'s default title names the source files.
    if let Some(source) = r.title.strip_prefix("Audit of ").filter(|_| r.audit.is_some() || r.telemetry.is_some()) {
        return format!("{}：{source}", tr(ZH, "view.title_audit"));
    }
    if r.title != crate::document::default_title(&r.runs, comparing) {
        return r.title.clone();
    }
    let first = r.runs.first();
    let sut: Vec<String> = [first.and_then(|a| a.run.config.model.clone()), first.and_then(|a| a.run.config.engine.clone())].into_iter().flatten().collect();
    let what = tr(ZH, if comparing { "view.title_comparison" } else { "view.title_benchmark" });
    match sut.as_slice() {
        [] => what.to_string(),
        [one] => format!("{what}：{one}"),
        [model, engine, ..] => format!("{what}：{model}（{engine}）"),
    }
}

/// The system under test, the load, the date and the kind of report.
fn subtitle(r: &Report) -> String {
    let date = if r.date == "undated" { tr(ZH, "view.undated") } else { r.date.clone() };
    let Some(a) = r.runs.first() else {
        // As in English: a capture says what it lacks; summary files alone have no subtitle.
        return if r.telemetry.is_some() {
            format!("{} · {date} · {}", tr(ZH, "view.telemetry_only"), tr(ZH, "view.no_request_records"))
        } else {
            String::new()
        };
    };
    let c = &a.run.config;
    let parts: Vec<String> = [
        c.model.as_ref().map(|m| fill(ZH, "view.sut_model", &[("model", m)])),
        c.engine.as_ref().map(|e| format!("{e} {}", c.engine_version.clone().unwrap_or_default()).trim().to_string()),
        c.hardware.clone(),
        c.parallelism.as_ref().map(|p| fill(ZH, "view.sut_parallelism", &[("p", p)])),
    ]
    .into_iter()
    .flatten()
    .collect();
    let sut = if parts.is_empty() { tr(ZH, "view.sut_unknown").to_string() } else { parts.join("，") };
    let load = match (a.run.rate_per_s, a.run.concurrency) {
        (Some(rate), _) => fill(ZH, "view.load_rate", &[("arrival", &credence_messages::Message::new("arrival").text("arrival", &a.run.arrival).render(ZH)), ("rate", &significant(rate, 3))]),
        (None, Some(n)) => fill(ZH, "view.load_concurrency", &[("n", &n.to_string())]),
        _ => credence_messages::Message::new("arrival").text("arrival", &a.run.arrival).render(ZH),
    };
    let kind = match (r.kind, r.runs.len()) {
        ("comparison", _) => "view.kind_comparison",
        ("sweep", _) => "view.kind_sweep",
        (_, 1) => "view.kind_single",
        _ => "view.kind_replicated",
    };
    format!("{sut} · {load} · {date} · {}", tr(ZH, kind))
}

fn headline(a: &Analysis) -> Vec<[String; 2]> {
    let e = |m: &str, p: &str| a.metrics.get(m).and_then(|x| x.get(p)).map_or(not_available(ZH), |x| estimate_in(x, 1.0, ZH));
    let p50_p99 = |m: &str| format!("P50 {} ms · P99 {} ms", e(m, "p50"), e(m, "p99"));
    let throughput = fill(
        ZH,
        "view.throughput_line",
        &[("requests", &estimate_in(&a.throughput.requests_per_s, 1.0, ZH)), ("tokens", &estimate_in(&a.throughput.output_tokens_per_s, 1.0, ZH))],
    );
    let mut rows = vec![[tr(ZH, "view.row_throughput").to_string(), throughput], [tr(ZH, "view.row_ttft").to_string(), p50_p99("ttft")]];
    if a.metrics.contains_key("ttfot") {
        rows.push([tr(ZH, "view.row_ttfot").to_string(), p50_p99("ttfot")]);
    }
    rows.push([tr(ZH, "view.row_tpot").to_string(), p50_p99("tpot")]);
    rows.push([tr(ZH, "view.row_errors").to_string(), errors_line(a)]);
    rows
}

fn errors_line(a: &Analysis) -> String {
    let mut total = fill(
        ZH,
        "view.errors_line",
        &[("errors", &a.errors.errors.to_string()), ("requests", &a.errors.requests.to_string()), ("rate", &estimate_in(&a.errors.rate, 100.0, ZH))],
    );
    if a.errors.cancelled > 0 {
        total += &fill(ZH, "view.errors_cancelled", &[("n", &a.errors.cancelled.to_string())]);
    }
    let parts = crate::view::error_kind_shares(a);
    if parts.is_empty() {
        return total;
    }
    format!("{total}（{}）", parts.join("，"))
}

/// One set of checks per arm of a comparison, else one; reasons in Chinese.
fn check_sets(r: &Report) -> Vec<CheckSet> {
    let set = |title: String, statement: String, c: &Credibility| CheckSet {
        title,
        statement,
        checks: c.checks.iter().map(|k| [k.name.clone(), k.status.label().to_string(), check_reason(k, Lang::Zh)]).collect(),
    };
    match (&r.base_credibility, &r.comparison) {
        (Some(b), Some(_)) => {
            let arm_title = |key: &str, c: &Credibility| format!("{}：{}", tr(ZH, key), super::messages::grade_word(c.grade, ZH));
            vec![
                set(arm_title("cmp.arm_base_title", b), super::messages::statement(b, Lang::Zh), b),
                set(arm_title("cmp.arm_cand_title", &r.credibility), super::messages::statement(&r.credibility, Lang::Zh), &r.credibility),
            ]
        }
        // A sweep's checks are its weakest step's.
        _ => vec![set(tr(ZH, "view.named_checks").to_string(), String::new(), &r.credibility)],
    }
}

const METRICS: [(&str, &str); 6] =
    [("ttft", "TTFT"), ("ttfot", "view.metric_ttfot"), ("tpot", "TPOT"), ("itl", "ITL"), ("e2e", "E2E"), ("service", "view.metric_service")];

fn metric_table(a: &Analysis) -> MetricTable {
    let rows = METRICS
        .iter()
        .filter_map(|(key, label)| {
            let m = a.metrics.get(*key)?;
            let cell = |p: &str| m.get(p).map_or(not_available(ZH), |e| estimate_in(e, 1.0, ZH));
            let n = m.get("p50").map_or(0, |e| e.n);
            let label = if label.starts_with("view.") { tr(ZH, label) } else { label.to_string() };
            Some([format!("{label} (ms)"), cell("p50"), cell("p90"), cell("p99"), cell("p999"), n.to_string()])
        })
        .collect();
    MetricTable { title: format!("{}{}", tr(ZH, "view.run_prefix"), a.run.run_id), rows }
}

fn rates(a: &Analysis) -> [[String; 2]; 3] {
    let id = &a.run.run_id;
    [
        [fill(ZH, "view.rate_requests", &[("id", id)]), estimate_in(&a.throughput.requests_per_s, 1.0, ZH)],
        [fill(ZH, "view.rate_tokens", &[("id", id)]), estimate_in(&a.throughput.output_tokens_per_s, 1.0, ZH)],
        [fill(ZH, "view.rate_errors", &[("id", id)]), estimate_in(&a.errors.rate, 100.0, ZH)],
    ]
}

fn finding(a: &Analysis, f: &Finding) -> FindingView {
    let strength = fill(
        ZH,
        "view.strength",
        &[
            ("label", &tr(ZH, &format!("view.strength_{}", f.strength.label))),
            ("overlap", &format!("{:.0}", f.strength.anomaly_overlap * 100.0)),
            ("corr", &f.strength.correlation.map_or(not_available(ZH), |c| format!("{c:.2}"))),
        ],
    ) + &f.strength.lag_s.map_or(String::new(), |l| fill(ZH, "view.strength_lag", &[("lag", &format!("{l:+.0}"))]));
    let action = cause_action(&f.cause, Lang::Zh);
    FindingView {
        title: cause_title(&f.cause, Lang::Zh),
        cause: f.cause.clone(),
        strength,
        episodes: f.episodes.iter().map(|e| format!("{:.0}–{:.0} s（{}）", e.start_s, e.end_s, episode_source(a, f, e, ZH))).collect::<Vec<_>>().join("；"),
        effect: f.effect.as_ref().map_or(tr(ZH, "view.effect_none").to_string(), effect),
        evidence: evidence(f, ZH),
        action,
    }
}

fn effect(e: &credence_analyze::attribute::effect::Effect) -> String {
    let fmt = |x: f64| crate::view::effect_value(e, x);
    let ci = match (e.ci_low, e.ci_high) {
        (Some(lo), Some(hi)) => fill(
            ZH,
            "view.effect_ci",
            &[("lo", &fmt(lo)), ("hi", &fmt(hi)), ("method", &method_name(e.method)), ("seed", &e.seed.to_string()), ("resamples", &e.resamples.to_string())],
        ),
        _ => format!("（{}）", effect_note(e)),
    };
    fill(
        ZH,
        "view.effect",
        &[("metric", &credence_messages::metric_label(&e.metric).render(ZH)), ("change", &fmt(e.change)), ("ci", &ci), ("inside", &e.n_inside.to_string()), ("outside", &e.n_outside.to_string())],
    )
}

/// An interval's method in words (its identifier is in the JSON and the appendix).
fn method_name(method: &str) -> String {
    credence_messages::Message::new("method-name").text("method", method).render(ZH)
}

fn unexplained(a: &Analysis) -> Vec<String> {
    a.attribution
        .unexplained
        .iter()
        .map(|u| {
            fill(
                ZH,
                "view.unexplained",
                &[
                    ("id", &a.run.run_id),
                    ("series", &u.series),
                    (
                        "change",
                        &u.peak_relative.map_or_else(
                            || tr(ZH, "view.from_zero_baseline").to_string(),
                            |r| fill(ZH, "view.change_percent", &[("peak", &format!("{:+.0}", r * 100.0))]),
                        ),
                    ),
                    ("start", &format!("{:.0}", u.start_s)),
                    ("end", &format!("{:.0}", u.end_s)),
                    ("z", &format!("{:.1}", u.peak_z)),
                ],
            )
        })
        .collect()
}

/// The detectors that could not run, each named once.
fn not_checked(r: &Report) -> String {
    if r.runs.is_empty() {
        return tr(ZH, "view.no_detector").to_string();
    }
    let mut names: Vec<String> = Vec::new();
    for d in r.runs.iter().flat_map(|a| a.attribution.detectors.iter().filter(|d| d.status == "not_checked")) {
        let s = format!("{}（{}）", d.cause, detector_reason(d, Lang::Zh));
        if !names.contains(&s) {
            names.push(s);
        }
    }
    if names.is_empty() { tr(ZH, "view.every_detector").to_string() } else { fill(ZH, "view.not_checked", &[("items", &names.join("；"))]) }
}

/// A fixed English string the analysis writes (a detector's note, the quantile definition),
/// in Chinese when an entry under `prefix` has it as its English; else as written.
pub(super) fn by_english(group: &str, english: &str) -> String {
    words(group, Lang::En).into_iter().zip(words(group, ZH)).find(|(en, _)| en.1 == english).map_or_else(|| english.to_string(), |(_, zh)| zh.1)
}

/// Where the numbers come from: credence's version, and each run's labels, errors and source.
fn provenance(r: &Report) -> Vec<[String; 2]> {
    let mut rows = vec![["credence".to_string(), r.credence_version.clone()]];
    for a in &r.runs {
        for (k, v) in &a.run.labels {
            rows.push([fill(ZH, "view.prov_label", &[("key", k)]), v.clone()]);
        }
        for e in &a.errors.examples {
            rows.push([fill(ZH, "view.prov_error", &[("kind", &e.kind), ("n", &e.count.to_string())]), e.message.clone()]);
        }
        let version = a.run.source_tool_version.as_ref().map_or(String::new(), |v| fill(ZH, "view.prov_version", &[("v", v)]));
        let source = fill(
            ZH,
            "view.prov_source",
            &[
                ("tool", &a.run.creator.tool),
                ("tool_version", &a.run.creator.version),
                ("format", &a.run.format_version.to_string()),
                ("kind", &a.run.source_kind),
                ("name", &a.run.source_name),
                ("version", &version),
            ],
        );
        rows.push([format!("{}{}", tr(ZH, "view.run_prefix"), a.run.run_id), source]);
    }
    rows
}

fn methodology(r: &Report) -> Vec<[String; 2]> {
    let first = r.runs.first();
    let o = first.map(|a| &a.options);
    let groups = first.map_or(5.0, |a| credence_analyze::resampling_group_s(a.options.window_s, a.steady_state.end_s - a.steady_state.start_s));
    let row = |term: &str, key: &str, args: &[(&str, &str)]| [term.to_string(), fill(ZH, key, args)];
    let mut rows = vec![
        row("TTFT", "method.ttft", &[]),
        row(&tr(ZH, "view.metric_service"), "method.service", &[]),
        row("TPOT", "method.tpot", &[]),
        row("ITL", "method.itl", &[]),
        [tr(ZH, "method.percentiles_term").to_string(), o.map_or(String::new(), |o| by_english("quantile", o.quantile_definition))],
    ];
    if let Some(o) = o {
        let groups = if groups.fract() == 0.0 { format!("{groups:.0}") } else { format!("{groups:.1}") };
        rows.push(row(
            &tr(ZH, "method.intervals_term"),
            "method.intervals",
            &[
                ("confidence", &format!("{:.0}", o.confidence * 100.0)),
                ("groups", &groups),
                ("seed", &o.seed.to_string()),
                ("resamples", &o.resamples.to_string()),
            ],
        ));
        rows.push(row(
            &tr(ZH, "method.steady_term"),
            "method.steady",
            &[("penalty", &format!("{:?}", o.penalty)), ("delta", &format!("{:.0}", o.steady_delta * 100.0))],
        ));
    } else {
        rows.push([tr(ZH, "method.intervals_term").to_string(), String::new()]);
        rows.push([tr(ZH, "method.steady_term").to_string(), String::new()]);
    }
    rows.push(row(&tr(ZH, "method.attribution_term"), "method.attribution", &[]));
    rows.push([tr(ZH, "method.grade_term").to_string(), tr(ZH, "view.grade_rule").to_string()]);
    rows
}


/// A finding's evidence in `lang`; as written (English) in an analysis saved before its evidence
/// was messages.
fn evidence(f: &Finding, lang: Lang) -> Vec<String> {
    if f.evidence_messages.is_empty() { f.evidence.clone() } else { f.evidence_messages.iter().map(|m| m.render(lang)).collect() }
}

/// Where an episode was seen: a device or file as the run names it, or, for a drift, the
/// steady-state detector with its trend test.
fn episode_source(a: &Analysis, f: &Finding, e: &FindingEpisode, lang: Lang) -> String {
    if f.cause == "drift" { drift_source(&a.steady_state).render(lang) } else { e.source.clone() }
}
