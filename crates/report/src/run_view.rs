//! The parts of the view that describe runs: the title and subtitle, the headline numbers, the
//! metric tables, the findings, and the appendix (environment, provenance, methodology). Each
//! sentence is a catalog entry (`locales/*/report.ftl`, `view-*`), filled with the same
//! structured fields in every language, so the languages cannot say different things.

use credence_analyze::Analysis;
use credence_analyze::cause::Cause;
use credence_analyze::attribute::effect::Effect;
use credence_analyze::attribute::{Finding, FindingEpisode, drift_source};
use credence_messages::{Message, metric_label};

use super::document::Report;
use super::format::{estimate_in, not_available, significant};
use super::i18n::messages::{detector_reason, unknown_note};
use super::i18n::{Lang, fill, join, tr};
use super::view::{EnvironmentView, FindingView, MetricTable};

/// The title: one the user gave as given, else credence's default in `lang`.
pub(crate) fn title(r: &Report, lang: Lang) -> String {
    r.title_message.as_ref().map_or_else(|| r.title.clone(), |m| m.render(lang))
}

/// The date, or `undated` in words.
pub(crate) fn date(r: &Report, lang: Lang) -> String {
    if r.date == "undated" { tr(lang, "view.undated") } else { r.date.clone() }
}

/// What was tested, how it was loaded, when, and what kind of report this is.
pub(crate) fn subtitle(r: &Report, lang: Lang) -> String {
    let date = date(r, lang);
    if r.telemetry.is_some() {
        return format!("{} · {date} · {}", tr(lang, "view.telemetry_only"), tr(lang, "view.no_request_records"));
    }
    let Some(a) = r.runs.first() else { return String::new() };
    let kind = match (r.kind, r.runs.len()) {
        ("comparison", _) => "view.kind_comparison",
        ("sweep" | "capacity", _) => "view.kind_sweep",
        (_, 1) => "view.kind_single",
        _ => "view.kind_replicated",
    };
    format!("{} · {} · {date} · {}", sut(a, lang), load(a, r, lang), tr(lang, kind))
}

/// The system under test: model, engine and version, hardware, parallelism.
fn sut(a: &Analysis, lang: Lang) -> String {
    let c = &a.run.config;
    let parts: Vec<String> = [
        c.model.as_ref().map(|m| fill(lang, "view.sut_model", &[("model", m)])),
        c.engine.as_ref().map(|e| format!("{e} {}", c.engine_version.clone().unwrap_or_default()).trim().to_string()),
        c.hardware.clone(),
        c.parallelism.as_ref().map(|p| fill(lang, "view.sut_parallelism", &[("p", p)])),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() { tr(lang, "view.sut_unknown") } else { join(lang, parts, "sep.comma") }
}

/// The offered load: an arrival process at a rate, a sweep's range of rates, or a concurrency.
fn load(a: &Analysis, r: &Report, lang: Lang) -> String {
    let arrival = Message::new("arrival").text("arrival", &a.run.arrival).render(lang);
    let offered: Vec<f64> = r.sweep.iter().flat_map(|s| s.steps.iter().map(|x| x.offered_per_s)).collect();
    match (a.run.rate_per_s, a.run.concurrency) {
        _ if !offered.is_empty() => {
            let range = |v: &[f64]| (significant(v.iter().copied().fold(f64::INFINITY, f64::min), 3), significant(v.iter().copied().fold(0.0, f64::max), 3));
            let (from, to) = range(&offered);
            let swept = fill(lang, "view.load_swept", &[("arrival", &arrival), ("from", &from), ("to", &to)]);
            // A sweep of conversations offers requests as sessions' turns: the sessions too.
            let sessions: Vec<f64> = r
                .sweep
                .iter()
                .flat_map(|s| s.steps.iter())
                .filter_map(|x| r.runs.get(x.run)?.run.config.extra.get("session_rate_per_s")?.parse().ok())
                .collect();
            if sessions.len() != offered.len() {
                return swept;
            }
            let (from, to) = range(&sessions);
            swept + &fill(lang, "view.load_swept_sessions", &[("from", &from), ("to", &to)])
        }
        (Some(rate), _) => fill(lang, "view.load_rate", &[("arrival", &arrival), ("rate", &significant(rate, 3))]),
        (None, Some(n)) => fill(lang, "view.load_concurrency", &[("n", &n.to_string())]),
        _ => arrival,
    }
}

/// The first run's headline numbers: throughput, TTFT, TPOT, errors.
pub(crate) fn headline(a: &Analysis, lang: Lang) -> Vec<[String; 2]> {
    let e = |m: &str, p: &str| a.metrics.get(m).and_then(|x| x.get(p)).map_or(not_available(lang), |x| estimate_in(x, 1.0, lang));
    let p50_p99 = |m: &str| fill(lang, "view.p50_p99_ms", &[("p50", &e(m, "p50")), ("p99", &e(m, "p99"))]);
    let (requests, tokens) = (&a.throughput.requests_per_s, &a.throughput.output_tokens_per_s);
    // No rate at all (records without timestamps): no unit after a dash.
    let throughput = if requests.estimate.is_none() && tokens.estimate.is_none() {
        not_available(lang)
    } else {
        fill(lang, "view.throughput_line", &[("requests", &estimate_in(requests, 1.0, lang)), ("tokens", &estimate_in(tokens, 1.0, lang))])
    };
    let mut rows = vec![[tr(lang, "view.row_throughput"), throughput], [tr(lang, "view.row_ttft"), p50_p99("ttft")]];
    // A reasoning model's first token is a thought; the answer begins later.
    if a.metrics.contains_key("ttfot") {
        rows.push([tr(lang, "view.row_ttfot"), p50_p99("ttfot")]);
    }
    rows.push([tr(lang, "view.row_tpot"), p50_p99("tpot")]);
    rows.push([tr(lang, "view.row_errors"), errors_line(a, lang)]);
    if let Some(stop) = &a.run.stop {
        rows.push([tr(lang, "view.row_stopped"), stop_line(stop).render(lang)]);
    }
    if let Some(slo) = &a.slo {
        rows.push([tr(lang, "view.row_slo"), super::slo_view::objectives(slo, lang)]);
        rows.push([tr(lang, "view.row_goodput"), super::slo_view::goodput(slo, lang)]);
    }
    if let Some(cache) = &a.cache {
        rows.push([tr(lang, "view.row_cache"), super::workload_view::hit_rate(cache, lang)]);
        if let Some(turns) = super::workload_view::turns(cache, lang) {
            rows.push([tr(lang, "view.row_turns"), turns]);
        }
    }
    if let Some(split) = super::workload_view::adapters(&a.adapters, lang) {
        rows.push([tr(lang, "view.row_adapters"), split]);
    }
    if let Some(p) = &a.prompt_lengths {
        rows.push([tr(lang, "view.row_prompt_lengths"), super::workload_view::prompt_lengths(p, lang)]);
    }
    rows
}

/// One `--until` target against its goal: "P99 TTFT ±2.9 % (goal 3.0 %)", or unbounded.
pub fn target_line(key: &str, goal: f64, half_width: Option<f64>) -> Message {
    // Throughput is the request rate, worded as the metric labels word it.
    let metric = metric_label(if key == "throughput" { "requests_per_s" } else { key });
    let goal = format!("{:.1}", goal * 100.0);
    match half_width {
        Some(h) => Message::new("until-target").msg("metric", metric).text("width", format!("{:.1}", h * 100.0)).text("goal", goal),
        None => Message::new("until-target-open").msg("metric", metric).text("goal", goal),
    }
}

/// How `bench --until` ended the run: when, after how much warmup, why, and each target's
/// half-width against its goal (page 1, and `bench`'s last line).
pub fn stop_line(s: &credence_run::manifest::RunStop) -> Message {
    let targets = s.targets.iter().map(|t| target_line(&t.key, t.goal, t.half_width)).collect();
    let warmup = s.warmup_end_s.map_or(Message::new("empty"), |w| Message::new("until-warmup").text("warmup", format!("{w:.0}")));
    Message::new("until-stopped")
        .text("at", format!("{:.0}", s.stopped_at_s))
        .msg("warmup", warmup)
        .msg("excluded", excluded_part(&s.excluded))
        .msg("reason", Message::new("until-reason").text("reason", s.reason.as_str()))
        .list("targets", targets, credence_messages::Sep::Comma)
}

/// The episodes the stop's estimates left out: their seconds and causes (empty when none).
fn excluded_part(episodes: &[credence_run::manifest::StopEpisode]) -> Message {
    if episodes.is_empty() {
        return Message::new("empty");
    }
    let seconds: f64 = episodes.iter().map(|e| (e.end_s - e.start_s).max(0.0)).sum();
    let mut causes: Vec<&str> = episodes.iter().map(|e| e.cause.as_str()).collect();
    causes.dedup();
    let titles = causes.iter().map(|c| Cause::parse(c).map_or_else(|| Message::new("as-written").text("text", c.to_string()), Cause::title)).collect();
    Message::new("until-excluded").text("seconds", format!("{seconds:.0}")).list("causes", titles, credence_messages::Sep::Comma)
}

/// The error rate, then each kind's share (largest first), e.g. `12 of 120 requests: 10 [6, 17] %
/// (http_5xx 5.0 %, timeout 5.0 %)`.
fn errors_line(a: &Analysis, lang: Lang) -> String {
    let mut total = fill(
        lang,
        "view.errors_line",
        &[("errors", &a.errors.errors.to_string()), ("requests", &a.errors.requests.to_string()), ("rate", &estimate_in(&a.errors.rate, 100.0, lang))],
    );
    if a.errors.cancelled > 0 {
        total += &fill(lang, "view.errors_cancelled", &[("n", &a.errors.cancelled.to_string())]);
    }
    let parts = error_kind_shares(a);
    if parts.is_empty() {
        return total;
    }
    fill(lang, "view.parenthesized", &[("text", &total), ("note", &join(lang, parts, "sep.comma"))])
}

/// Each error kind's share of the requests, largest first (`timeout 1.2 %`).
pub(crate) fn error_kind_shares(a: &Analysis) -> Vec<String> {
    let mut kinds: Vec<(&String, f64)> = a.errors.by_kind.iter().filter_map(|(k, e)| Some((k, e.estimate?))).collect();
    kinds.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(y.0)));
    kinds.iter().map(|(k, r)| format!("{k} {:.1} %", r * 100.0)).collect()
}

/// The key metrics' rows; a metric the analysis lacks (`ttfot` outside reasoning-model runs) has no row.
const METRICS: [(&str, &str); 6] = [("ttft", "TTFT"), ("ttfot", "view.metric_ttfot"), ("tpot", "TPOT"), ("itl", "ITL"), ("e2e", "E2E"), ("service", "view.metric_service")];

/// One metric table per run; a sweep's tables name their step.
pub(crate) fn metric_tables(r: &Report, lang: Lang) -> Vec<MetricTable> {
    r.runs
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let id = &a.run.run_id;
            let title = match r.sweep.as_ref().and_then(|s| s.steps.iter().find(|x| x.run == i)) {
                Some(s) => fill(lang, "view.step_title", &[("rate", &significant(s.offered_per_s, 3)), ("id", id)]),
                None => format!("{}{id}", tr(lang, "view.run_prefix")),
            };
            metric_table(a, title, lang)
        })
        .collect()
}

fn metric_table(a: &Analysis, title: String, lang: Lang) -> MetricTable {
    let rows = METRICS
        .iter()
        .filter_map(|(key, label)| {
            let m = a.metrics.get(*key)?;
            let cell = |p: &str| m.get(p).map_or(not_available(lang), |e| estimate_in(e, 1.0, lang));
            let n = m.get("p50").map_or(0, |e| e.n);
            let label = if label.starts_with("view.") { tr(lang, label) } else { label.to_string() };
            Some([format!("{label} (ms)"), cell("p50"), cell("p90"), cell("p99"), cell("p999"), n.to_string()])
        })
        .collect();
    MetricTable { title, rows }
}

/// Each run's throughputs and error rate, for the appendix.
pub(crate) fn rates(a: &Analysis, lang: Lang) -> [[String; 2]; 3] {
    let id = &a.run.run_id;
    [
        [fill(lang, "view.rate_requests", &[("id", id)]), estimate_in(&a.throughput.requests_per_s, 1.0, lang)],
        [fill(lang, "view.rate_tokens", &[("id", id)]), estimate_in(&a.throughput.output_tokens_per_s, 1.0, lang)],
        [fill(lang, "view.rate_errors", &[("id", id)]), estimate_in(&a.errors.rate, 100.0, lang)],
    ]
}

/// A finding: its cause in words, how strongly the evidence ties it to the anomalies, its
/// episodes, its effect, the evidence and what to do.
pub(crate) fn finding(a: &Analysis, f: &Finding, lang: Lang) -> FindingView {
    let strength = fill(
        lang,
        "view.strength",
        &[
            ("label", &tr(lang, &format!("view.strength_{}", f.strength.label))),
            // `max(0.0)`: an overlap computed as -0.0 would print as "-0".
            ("overlap", &format!("{:.0}", (f.strength.anomaly_overlap * 100.0).max(0.0))),
            ("corr", &f.strength.correlation.map_or(not_available(lang), |c| format!("{c:.2}"))),
        ],
    ) + &f.strength.lag_s.map_or(String::new(), |l| fill(lang, "view.strength_lag", &[("lag", &format!("{l:+.0}"))]));
    let source = |e: &FindingEpisode| match (f.cause, e.source_message.is_empty()) {
        (Cause::Drift, _) => drift_source(&a.steady_state).render(lang),
        (_, false) => e.source_message.render(lang),
        (_, true) => e.source.clone(),
    };
    // Not in brackets: a GPU's label carries its own ("GPU 1 (GPU-5c7e…)").
    let episodes = f.episodes.iter().map(|e| fill(lang, "view.episode_of", &[("span", &format!("{:.0}–{:.0} s", e.start_s, e.end_s)), ("source", &source(e))]));
    FindingView {
        title: f.cause.title().render(lang),
        cause: f.cause.to_string(),
        strength,
        episodes: join(lang, episodes.collect(), "sep.semicolon"),
        effect: f.effect.as_ref().map_or_else(|| tr(lang, "view.effect_none"), |e| effect(e, lang)),
        // An analysis saved before its evidence was messages carries the English lines only.
        evidence: if f.evidence_messages.is_empty() { f.evidence.clone() } else { f.evidence_messages.iter().map(|m| m.render(lang)).collect() },
        action: f.cause.action().render(lang),
    }
}

/// An effect: the metric's change inside the episodes against outside, with its interval or
/// why it has none.
fn effect(e: &Effect, lang: Lang) -> String {
    let fmt = |x: f64| effect_value(e, x);
    let ci = match (e.ci_low, e.ci_high) {
        (Some(lo), Some(hi)) => fill(
            lang,
            "view.effect_ci",
            &[
                ("lo", &fmt(lo)),
                ("hi", &fmt(hi)),
                ("method", &Message::new("method-name").text("method", e.method).render(lang)),
                ("seed", &e.seed.to_string()),
                ("resamples", &e.resamples.to_string()),
            ],
        ),
        _ => fill(lang, "view.effect_no_ci", &[("note", &effect_note(e, lang))]),
    };
    fill(
        lang,
        "view.effect",
        &[("metric", &metric_label(&e.metric).render(lang)), ("change", &fmt(e.change)), ("ci", &ci), ("inside", &e.n_inside.to_string()), ("outside", &e.n_outside.to_string())],
    )
}

/// Why an effect has no interval (as written in an analysis saved before the note was a message).
fn effect_note(e: &Effect, lang: Lang) -> String {
    match (&e.note_message, &e.note) {
        (Some(m), _) => m.render(lang),
        (None, Some(note)) => note.clone(),
        (None, None) => tr(lang, "view.no_interval"),
    }
}

/// An attribution effect's value in its own terms: a relative change in %, the error rate in
/// percentage points, else the metric's unit.
pub(crate) fn effect_value(e: &Effect, x: f64) -> String {
    if e.kind == "relative" {
        format!("{:+.1} %", x * 100.0)
    } else if e.metric == "error_rate" {
        format!("{:+.1} pp", x * 100.0)
    } else {
        format!("{x:+.2} {}", e.unit)
    }
}

/// Each anomaly no detector explained.
pub(crate) fn unexplained(a: &Analysis, lang: Lang) -> Vec<String> {
    let change = |peak: Option<f64>| peak.map_or_else(|| tr(lang, "view.from_zero_baseline"), |r| fill(lang, "view.change_percent", &[("peak", &format!("{:+.0}", r * 100.0))]));
    a.attribution
        .unexplained
        .iter()
        .map(|u| {
            fill(
                lang,
                "view.unexplained",
                &[
                    ("id", &a.run.run_id),
                    ("series", &metric_label(&u.series).render(lang)),
                    ("change", &change(u.peak_relative)),
                    ("start", &format!("{:.0}", u.start_s)),
                    ("end", &format!("{:.0}", u.end_s)),
                    ("z", &format!("{:.1}", u.peak_z)),
                ],
            )
        })
        .collect()
}

/// The detectors that could not run in any run, each named once. Without runs no detector
/// ran at all, and the text says so rather than claim they all had their evidence.
/// The findings section when nothing was found: "No cause was found." and what the detectors
/// did, joined as sentences (no space after a full-width stop). Which detectors lacked evidence
/// follows in `not_checked`; this sentence points to it only when there are some.
pub(crate) fn findings_none(r: &Report, lang: Lang) -> String {
    // Each cause once: lacking its evidence in any run, else run.
    let mut lacking: Vec<String> = Vec::new();
    let mut all: Vec<String> = Vec::new();
    for d in r.runs.iter().flat_map(|a| a.attribution.detectors.iter()) {
        let cause = d.cause.to_string();
        if d.status == "not_checked" && !lacking.contains(&cause) {
            lacking.push(cause.clone());
        }
        if !all.contains(&cause) {
            all.push(cause);
        }
    }
    if r.runs.is_empty() || !lacking.is_empty() {
        // One sentence that says how many could look, and leads with "cannot tell" when none.
        return Message::new("view-findings_none").int("ran", all.len() - lacking.len()).int("lacking", lacking.len()).render(lang);
    }
    join(lang, vec![tr(lang, "tpl.no_cause"), tr(lang, "view.findings_none_all")], "sep.sentence")
}

pub(crate) fn not_checked(r: &Report, lang: Lang) -> String {
    if r.runs.is_empty() {
        return tr(lang, "view.no_detector");
    }
    // Grouped by reason, in the order the reasons first appear: one source without timestamps
    // stops a dozen detectors, and the reason is said once.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for d in r.runs.iter().flat_map(|a| a.attribution.detectors.iter().filter(|d| d.status == "not_checked")) {
        let (title, reason) = (d.cause.title().render(lang), detector_reason(d, lang));
        match groups.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, titles)) if titles.contains(&title) => {}
            Some((_, titles)) => titles.push(title),
            None => groups.push((reason, vec![title])),
        }
    }
    let items: Vec<String> = groups.into_iter().map(|(reason, titles)| fill(lang, "view.parenthesized", &[("text", &join(lang, titles, "sep.enumeration")), ("note", &reason)])).collect();
    if items.is_empty() { tr(lang, "view.every_detector") } else { fill(lang, "view.not_checked", &[("items", &join(lang, items, "sep.semicolon"))]) }
}

/// A run's recorded environment, key by key; an unknown value with credence's note in words.
pub(crate) fn environment(a: &Analysis, lang: Lang) -> EnvironmentView {
    let v = serde_json::to_value(&a.run.environment).unwrap_or_default();
    let value = |o: &serde_json::Value| match (&o["value"], o["note"].as_str()) {
        (serde_json::Value::Null, Some(n)) => fill(lang, "view.unknown_note", &[("note", &unknown_note(n, lang))]),
        (serde_json::Value::Null, None) => tr(lang, "view.unknown"),
        (serde_json::Value::String(s), _) => s.clone(),
        (serde_json::Value::Bool(b), _) => tr(lang, if *b { "view.yes" } else { "view.no" }),
        (x, _) => x.to_string(),
    };
    let rows = v.as_object().map(|m| m.iter().map(|(k, o)| [k.clone(), value(o)]).collect()).unwrap_or_default();
    EnvironmentView { title: format!("{}{}", tr(lang, "view.run_prefix"), a.run.run_id), rows }
}

/// Where the numbers come from: credence's version, and each run's labels, errors and source.
pub(crate) fn provenance(r: &Report, lang: Lang) -> Vec<[String; 2]> {
    let mut rows = vec![["credence".to_string(), r.credence_version.clone()]];
    for a in &r.runs {
        for (k, v) in &a.run.labels {
            rows.push([fill(lang, "view.prov_label", &[("key", k)]), v.clone()]);
        }
        for e in &a.errors.examples {
            rows.push([fill(lang, "view.prov_error", &[("kind", &e.kind), ("n", &e.count.to_string())]), e.message.clone()]);
        }
        let version = a.run.source_tool_version.as_ref().map_or(String::new(), |v| fill(lang, "view.prov_version", &[("v", v)]));
        let source = fill(
            lang,
            "view.prov_source",
            &[
                ("tool", &a.run.creator.tool),
                ("tool_version", &a.run.creator.version),
                ("format", &a.run.format_version.to_string()),
                ("kind", &fill(lang, "view.source_kind", &[("kind", &a.run.source_kind)])),
                ("name", &a.run.source_name),
                ("version", &version),
            ],
        );
        rows.push([format!("{}{}", tr(lang, "view.run_prefix"), a.run.run_id), source]);
    }
    rows
}

/// How each number is defined and estimated, with the first run's analysis options.
pub(crate) fn methodology(r: &Report, lang: Lang) -> Vec<[String; 2]> {
    let row = |term: String, key: &str, args: &[(&str, &str)]| [term, fill(lang, key, args)];
    let mut rows = vec![
        row("TTFT".into(), "method.ttft", &[]),
        row(tr(lang, "view.metric_service"), "method.service", &[]),
        row("TPOT".into(), "method.tpot", &[]),
        row("ITL".into(), "method.itl", &[]),
    ];
    match r.runs.first() {
        Some(a) => {
            let o = &a.options;
            let g = credence_analyze::resampling_group_s(o.window_s, a.steady_state.end_s - a.steady_state.start_s);
            let groups = if g.fract() == 0.0 { format!("{g:.0}") } else { format!("{g:.1}") };
            // credence computes every percentile one way (`credence_stats::quantile`).
            rows.push([tr(lang, "method.percentiles_term"), tr(lang, "quantile.type7")]);
            let (confidence, seed, resamples) = (format!("{:.0}", o.confidence * 100.0), o.seed.to_string(), o.resamples.to_string());
            let intervals = [("confidence", confidence.as_str()), ("groups", groups.as_str()), ("seed", seed.as_str()), ("resamples", resamples.as_str())];
            rows.push(row(tr(lang, "method.intervals_term"), "method.intervals", &intervals));
            let (penalty, delta) = (format!("{:?}", o.penalty), format!("{:.0}", o.steady_delta * 100.0));
            rows.push(row(tr(lang, "method.steady_term"), "method.steady", &[("penalty", penalty.as_str()), ("delta", delta.as_str())]));
        }
        None => {
            for term in ["method.percentiles_term", "method.intervals_term", "method.steady_term"] {
                rows.push([tr(lang, term), String::new()]);
            }
        }
    }
    rows.push(row(tr(lang, "method.attribution_term"), "method.attribution", &[]));
    rows.push([tr(lang, "method.grade_term"), tr(lang, "view.grade_rule")]);
    rows
}
