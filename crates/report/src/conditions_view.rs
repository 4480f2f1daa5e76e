//! The conditions as display strings: page 1's clean-beside-measured headline, the
//! "Conditions" section (a table per condition, and each metric inside against outside each
//! episode), and the clean verdicts of a comparison. Every number is a field of the
//! `Analysis` or `Comparison`; nothing is excluded without saying how much.

use std::fmt::Write;

use serde::Serialize;

use super::format::{estimate_in, not_available};
use super::i18n::{Lang, fill, join, tr};
use credence_analyze::conditions::{Condition, clean};
use credence_analyze::{Analysis, Estimate};

/// One condition's estimates, as a key-metrics table.
#[derive(Debug, Clone, Serialize)]
pub struct ConditionTable {
    pub title: String,
    /// Where it held and what it covers, in words.
    pub note: String,
    /// metric, P50, P90, P99, P99.9, n.
    pub rows: Vec<[String; 6]>,
}

/// The "Conditions" section of one run.
#[derive(Debug, Clone, Serialize)]
pub struct ConditionsView {
    pub title: String,
    pub note: String,
    pub tables: Vec<ConditionTable>,
    /// cause, metric, inside the episodes, outside (clean), inside / outside.
    pub contrast: Vec<[String; 5]>,
}

const METRICS: [(&str, &str); 4] = [("ttft", "TTFT"), ("tpot", "TPOT"), ("itl", "ITL"), ("e2e", "E2E")];

fn cell(c: &Condition, metric: &str, stat: &str, lang: Lang) -> String {
    c.metrics.get(metric).and_then(|m| m.get(stat)).map_or(not_available(lang), |e| estimate_in(e, 1.0, lang))
}

/// The windows of a condition, e.g. `11–115 s, 200–300 s`.
/// The condition's windows, "11–115 s, 200–300 s" (an enumeration: 、 in Chinese).
fn windows(c: &Condition, lang: Lang) -> String {
    join(lang, c.windows.iter().map(|w| format!("{:.0}–{:.0} s", w.start_s, w.end_s)).collect(), "sep.enumeration")
}

fn table(c: &Condition, lang: Lang) -> ConditionTable {
    let rows = METRICS
        .iter()
        .filter_map(|(key, label)| {
            let n = c.metrics.get(*key)?.get("p50").map_or(0, |e| e.n);
            let cell = |stat| cell(c, key, stat, lang);
            Some([format!("{label} (ms)"), cell("p50"), cell("p90"), cell("p99"), cell("p999"), n.to_string()])
        })
        .chain(std::iter::once([
            tr(lang, "cond.throughput_rps").to_string(),
            estimate_in(&c.throughput.requests_per_s, 1.0, lang),
            String::new(),
            String::new(),
            String::new(),
            fill(lang, "cond.windows", &[("n", &c.throughput.windows.to_string())]),
        ]))
        .collect();
    let note = match &c.cause {
        None => fill(
            lang,
            "cond.clean_note",
            &[
                ("s", &format!("{:.0}", c.duration_s)),
                ("n", &c.requests.to_string()),
                ("windows", &windows(c, lang)),
                ("ex", &format!("{:.0}", c.excluded_s)),
                ("exn", &c.excluded_requests.to_string()),
                ("share", &format!("{:.0}", c.excluded_share * 100.0)),
            ],
        ),
        Some(_) => fill(lang, "cond.episode_note", &[("s", &format!("{:.0}", c.duration_s)), ("n", &c.requests.to_string()), ("windows", &windows(c, lang))]),
    };
    ConditionTable { title: title(c, lang), note, rows }
}

/// A condition's name: "Clean windows", or its cause's title.
fn title(c: &Condition, lang: Lang) -> String {
    c.cause.map_or_else(|| tr(lang, "cond.clean_title"), |cause| cause.title().render(lang))
}

/// A point ratio, e.g. `+84 %`.
fn ratio(inside: &Estimate, outside: &Estimate) -> String {
    match (inside.estimate, outside.estimate) {
        (Some(i), Some(o)) if o > 0.0 => format!("{:+.0} %", (i / o - 1.0) * 100.0),
        _ => "n/a".into(),
    }
}

/// Each metric inside each cause's episodes against the clean windows.
fn contrast(a: &Analysis, clean_c: &Condition, lang: Lang) -> Vec<[String; 5]> {
    let mut rows = Vec::new();
    for c in a.conditions.iter().filter(|c| c.cause.is_some()) {
        for (key, label) in METRICS {
            for stat in ["p50", "p99"] {
                let (Some(i), Some(o)) = (c.metrics.get(key).and_then(|m| m.get(stat)), clean_c.metrics.get(key).and_then(|m| m.get(stat))) else { continue };
                rows.push([title(c, lang), format!("{} {label}", stat.to_uppercase()), estimate_in(i, 1.0, lang), estimate_in(o, 1.0, lang), ratio(i, o)]);
            }
        }
        rows.push([
            title(c, lang),
            tr(lang, "cond.throughput").to_string(),
            estimate_in(&c.throughput.requests_per_s, 1.0, lang),
            estimate_in(&clean_c.throughput.requests_per_s, 1.0, lang),
            ratio(&c.throughput.requests_per_s, &clean_c.throughput.requests_per_s),
        ]);
    }
    rows
}

/// The "Conditions" section of a run with episodes; None without.
pub fn conditions_view(a: &Analysis, lang: Lang) -> Option<ConditionsView> {
    let clean_c = clean(&a.conditions)?;
    Some(ConditionsView {
        title: fill(lang, "cond.run_title", &[("run", &a.run.run_id)]),
        note: tr(lang, "cond.note").to_string(),
        tables: a.conditions.iter().map(|c| table(c, lang)).collect(),
        contrast: contrast(a, clean_c, lang),
    })
}

/// Page 1's rows with the clean estimates first and the as-measured ones beside them, and a
/// row saying what was excluded; `rows` unchanged when the run has no episodes.
pub fn headline(a: &Analysis, rows: Vec<[String; 2]>, lang: Lang) -> Vec<[String; 2]> {
    let Some(c) = clean(&a.conditions) else { return rows };
    let e = |m: &std::collections::BTreeMap<String, std::collections::BTreeMap<String, Estimate>>, k: &str, p: &str| {
        m.get(k).and_then(|x| x.get(p)).map_or(not_available(lang), |x| estimate_in(x, 1.0, lang))
    };
    let mut out: Vec<[String; 2]> = rows
        .into_iter()
        .map(|[label, value]| {
            // The rows are labelled with the catalog's words.
            let key = match label.as_str() {
                l if l == tr(lang, "view.row_ttft") => "ttft",
                l if l == tr(lang, "view.row_tpot") => "tpot",
                _ => return [label, value],
            };
            let text = fill(
                lang,
                "cond.headline",
                &[
                    ("p50", &e(&c.metrics, key, "p50")),
                    ("p99", &e(&c.metrics, key, "p99")),
                    ("s", &format!("{:.0}", c.duration_s)),
                    ("mp50", &e(&a.metrics, key, "p50")),
                    ("mp99", &e(&a.metrics, key, "p99")),
                ],
            );
            [label, text]
        })
        .collect();
    let causes: Vec<String> = a
        .conditions
        .iter()
        .filter(|x| x.cause.is_some())
        .map(|x| fill(lang, "cond.cause_windows", &[("cause", &title(x, lang)), ("windows", &windows(x, lang))]))
        .collect();
    out.insert(
        1,
        [
            tr(lang, "cond.excluded_label").to_string(),
            fill(
                lang,
                "cond.excluded",
                &[
                    ("ex", &format!("{:.0}", c.excluded_s)),
                    ("exn", &c.excluded_requests.to_string()),
                    ("share", &format!("{:.0}", c.excluded_share * 100.0)),
                    ("causes", &causes.join(&tr(lang, "cond.cause_separator"))),
                ],
            ),
        ],
    );
    out
}

/// The clean verdicts of a comparison, for the text summary, in `lang`; empty without episodes.
pub fn compare_text(c: &credence_analyze::compare::Comparison, lang: Lang) -> String {
    use credence_messages::Message;
    let mut s = String::new();
    let Some(cl) = &c.clean else { return s };
    let e = &cl.excluded;
    let title = Message::new("text-clean-title")
        .num("base_s", e.base_s, 0)
        .num("base_share", e.base_share * 100.0, 0)
        .num("cand_s", e.cand_s, 0)
        .num("cand_share", e.cand_share * 100.0, 0);
    let _ = writeln!(s, "\n{}", title.render(lang));
    for (name, m) in &cl.metrics {
        let f = |x: f64| if name == "error_rate" { format!("{:+.2} pp", x * 100.0) } else { format!("{:+.1} %", x * 100.0) };
        let change = format!("{} [{}, {}]", f(m.change.estimate), f(m.change.ci_low), f(m.change.ci_high));
        let label = crate::comparison_words::metric_label(name).render(lang);
        let verdict = crate::comparison_words::verdict_word(m.verdict).render(lang);
        let _ = writeln!(s, "  {label:<22} {change:>28}  {verdict}");
    }
    if let Some(t) = &cl.sentence_message {
        let _ = writeln!(s, "{}", t.render(lang));
    }
    s
}
