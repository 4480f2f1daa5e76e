//! The credibility statement: one paragraph, one message per sentence, every number taken from
//! the `Analysis` values (a test recomputes each from the JSON and finds it in the text). Every
//! language words the same sentences (`locales/*/statement.ftl`).

use super::{Check, CheckId, CheckStatus, Grade, HalfWidth};
use crate::Analysis;
use credence_messages::{Message, Sep};

/// The opening sentence: grade, requests measured, and what was dropped.
fn measured_sentence(runs: &[&Analysis], grade: Grade) -> Message {
    let sum = |f: fn(&Analysis) -> f64| runs.iter().map(|a| f(a)).sum::<f64>();
    let count = |f: fn(&Analysis) -> usize| runs.iter().map(|a| f(a)).sum::<usize>();
    let untimed = runs.iter().any(|a| a.run.timestamps == "absent");
    let overloaded = runs.iter().any(|a| a.load.as_ref().is_some_and(crate::overload::Load::overloaded));
    Message::new("stmt-measured")
        .msg("grade", grade_word(grade))
        .int("k", runs.len())
        .text("timestamps", if untimed { "absent" } else if overloaded { "overloaded" } else { "present" })
        .int("measured", count(|a| a.requests.in_steady_window))
        .num("seconds", sum(|a| a.steady_state.end_s - a.steady_state.start_s), 0)
        .num("warm_s", sum(|a| a.steady_state.dropped_start_s), 0)
        .int("warm_n", count(|a| a.steady_state.dropped_start_requests))
        .num("tail_s", sum(|a| a.steady_state.dropped_end_s), 0)
        .int("tail_n", count(|a| a.steady_state.dropped_end_requests))
}

/// The grade as a word of the reader's language.
pub fn grade_word(grade: Grade) -> Message {
    Message::new("grade").text("grade", grade.label())
}

/// How wide the headline intervals are, and which cannot be bounded. `condition` is `measured`
/// when clean windows were quoted before: these intervals are of every window, and say so.
fn width_sentences(widths: &[HalfWidth], condition: &str) -> Vec<Message> {
    let label = |w: &HalfWidth| Message::new("headline-label").text("metric", w.metric.as_str());
    let bounded: Vec<Message> = widths
        .iter()
        .filter_map(|w| w.relative.map(|h| Message::new("interval-half-width").msg("label", label(w)).num("percent", h * 100.0, 1)))
        .collect();
    let unbounded: Vec<Message> = widths.iter().filter(|w| w.relative.is_none()).map(label).collect();
    let mut s = Vec::new();
    if !bounded.is_empty() {
        s.push(Message::new("stmt-widths").text("condition", condition).list("items", bounded, Sep::And));
    }
    if !unbounded.is_empty() {
        s.push(Message::new("stmt-unbounded").text("condition", condition).list("items", unbounded, Sep::And));
    }
    s
}

/// Other tails: named, not graded (the key metrics table marks them insufficient_data).
fn short_tails_sentence(runs: &[&Analysis], condition: &str) -> Option<Message> {
    let mut short = Vec::new();
    for (metric, label) in [("ttft", "TTFT"), ("tpot", "TPOT"), ("e2e", "E2E")] {
        for (key, p) in [("p99", "P99"), ("p999", "P99.9")] {
            if (metric, key) != ("ttft", "p99") && runs.iter().any(|a| a.metrics[metric][key].status != crate::Status::Ok) {
                short.push(Message::new("tail-label").text("p", p).text("metric", label));
            }
        }
    }
    (!short.is_empty()).then(|| Message::new("stmt-short-tails").text("condition", condition).list("items", short, Sep::And))
}

/// An environment check's item (its name after `environment.`), as a message argument.
fn env_item(c: &Check) -> String {
    c.name.id().trim_start_matches("environment.").to_string()
}

/// Environment checks that failed (with their bias) or are unknown, or that all passed.
fn environment_sentences(checks: &[Check]) -> Vec<Message> {
    let env = |c: &&Check| c.name.is_environment();
    let bad: Vec<Message> = checks
        .iter()
        .filter(env)
        .filter(|c| matches!(c.status, CheckStatus::Warn | CheckStatus::Fail))
        .map(|c| {
            let item = env_item(c);
            Message::new("stmt-env-failed-item").msg("item", Message::new("env-item").text("item", item.as_str())).msg("bias", Message::new("env-bias").text("item", item))
        })
        .collect();
    let unknown: Vec<Message> =
        checks.iter().filter(env).filter(|c| c.status == CheckStatus::NotChecked).map(|c| Message::new("env-item").text("item", env_item(c))).collect();
    let mut s = Vec::new();
    if bad.is_empty() && unknown.is_empty() {
        s.push(Message::new("stmt-env-passed"));
    }
    if !bad.is_empty() {
        s.push(Message::new("stmt-env-failed").list("items", bad, Sep::And));
    }
    if !unknown.is_empty() {
        s.push(Message::new("stmt-env-unknown").list("items", unknown, Sep::And));
    }
    s
}

/// A check's reason as a message argument (its English text when it has no message).
fn reason_of(c: &Check) -> Message {
    if c.message.is_empty() { Message::new("as-written").text("text", c.reason.as_str()) } else { c.message.clone() }
}

/// A check's name in running text, as written (`raw`) or with its underscores as spaces
/// (English; Chinese names every check in words).
pub fn check_name(c: &Check, style: &str) -> Message {
    let name = c.name.id();
    Message::new("check-name").text("check", name.replace('.', "-")).text("style", style).text("spaced", name.replace('_', " ")).text("name", name)
}

/// The other checks that failed, with their reasons.
fn failed_checks_sentence(checks: &[Check]) -> Option<Message> {
    let failed: Vec<Message> = checks
        .iter()
        .filter(|c| !c.name.is_environment() && c.status == CheckStatus::Fail)
        .map(|c| Message::new("stmt-failed-item").msg("check", check_name(c, "raw")).msg("reason", reason_of(c)))
        .collect();
    (!failed.is_empty()).then(|| Message::new("stmt-failed").list("items", failed, Sep::And))
}

/// What to compare with caution: single runs, windows with findings, warned checks.
fn caution_sentence(runs: &[&Analysis], checks: &[Check]) -> Option<Message> {
    let findings: Vec<Message> = runs
        .iter()
        .flat_map(|a| a.findings.iter().filter(|f| f.in_steady_window).map(|f| (f.title.clone(), f.cause)))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_values()
        .map(|cause| cause.title())
        .collect();
    let mut caution = Vec::new();
    if runs.len() == 1 {
        caution.push(Message::new("caution-single-run"));
    }
    if !findings.is_empty() {
        caution.push(Message::new("caution-findings").list("findings", findings, Sep::And));
    }
    let warned: Vec<Message> = checks
        .iter()
        .filter(|c| !c.name.is_environment() && !matches!(c.name, CheckId::Replication | CheckId::IntervalWidth) && c.status == CheckStatus::Warn)
        .map(|c| check_name(c, "spaced"))
        .collect();
    if !warned.is_empty() {
        caution.push(Message::new("caution-warned").list("checks", warned, Sep::And));
    }
    (!caution.is_empty()).then(|| Message::new("stmt-caution").list("items", caution, Sep::And))
}

/// An estimate in ms as a reader should quote it, with the digits the report's tables give it
/// (two significant digits of the interval's half-width; of 5 % of a value with only one
/// bound): `38.2 [37.5, 39.0] ms`, `~1072 ms (>= 798, insufficient data)`, or `> 20000 ms
/// (beyond the timeouts)`.
fn quoted(e: Option<&crate::Estimate>) -> Message {
    let message = Message::new("quoted-ms");
    let Some(e) = e else { return message.text("kind", "none") };
    let d = u8::try_from(e.decimals(1.0)).unwrap_or(u8::MAX);
    match (e.status, e.estimate, e.ci_low, e.ci_high) {
        (crate::Status::Ok, Some(x), Some(lo), Some(hi)) => message.text("kind", "bounded").num("x", x, d).num("lo", lo, d).num("hi", hi, d),
        (_, Some(x), Some(lo), None) => message.text("kind", "lower").num("x", x, d).num("lo", lo, d),
        (_, Some(x), _, _) => message.text("kind", "point").num("x", x, d),
        // Beyond the timeouts: only the bound is known.
        (_, None, Some(lo), _) if e.is_censored_bound() => message.text("kind", "beyond").num("lo", lo, d),
        _ => message.text("kind", "none"),
    }
}

/// When episodes with an environmental cause were excluded: the clean TTFT first, the
/// as-measured one beside it, and what was excluded (nothing is left out silently).
fn conditions_sentences(runs: &[&Analysis]) -> Vec<Message> {
    let mut s = Vec::new();
    for a in runs {
        let Some(clean) = crate::conditions::clean(&a.conditions) else { continue };
        type Metrics = std::collections::BTreeMap<String, std::collections::BTreeMap<String, crate::Estimate>>;
        let ttft = |m: &Metrics, k: &str| quoted(m.get("ttft").and_then(|x| x.get(k)));
        let caused: Vec<&crate::conditions::Condition> = a.conditions.iter().filter(|c| c.cause.is_some()).collect();
        // Several causes may overlap: each with its own seconds.
        let causes: Vec<Message> = caused
            .iter()
            .map(|c| {
                let title = c.cause.map_or(Message::new("empty"), |c| c.title());
                if caused.len() > 1 { Message::new("stmt-cause-seconds").msg("cause", title).num("seconds", c.excluded_s, 0) } else { title }
            })
            .collect();
        s.push(
            Message::new("stmt-clean")
                .text("several", if runs.len() > 1 { "yes" } else { "no" })
                .text("run", a.run.run_id.as_str())
                .num("seconds", clean.duration_s, 0)
                .int("requests", clean.requests)
                .msg("p50_clean", ttft(&clean.metrics, "p50"))
                .msg("p99_clean", ttft(&clean.metrics, "p99"))
                .msg("p50", ttft(&a.metrics, "p50"))
                .msg("p99", ttft(&a.metrics, "p99"))
                .num("excluded_s", clean.excluded_s, 0)
                .int("excluded_n", clean.excluded_requests)
                .num("excluded_pct", clean.excluded_share * 100.0, 0)
                .list("causes", causes, Sep::And),
        );
    }
    s
}

/// The credibility statement: one paragraph of sentences, each present only when it says something.
pub fn statement(runs: &[&Analysis], checks: &[Check], widths: &[HalfWidth], grade: Grade) -> Message {
    let mut s = vec![measured_sentence(runs, grade)];
    let clean = conditions_sentences(runs);
    // After a clean-window sentence, a number without its condition reads as the clean one.
    let condition = if clean.is_empty() { "all" } else { "measured" };
    s.extend(clean);
    s.extend(width_sentences(widths, condition));
    s.extend(short_tails_sentence(runs, condition));
    s.extend(environment_sentences(checks));
    s.extend(failed_checks_sentence(checks));
    s.extend(caution_sentence(runs, checks));
    Message::new("statement").list("sentences", s, Sep::Sentence)
}
