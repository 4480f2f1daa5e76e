//! The credibility statement in Chinese, rebuilt from the same fields as the English one
//! (`analyze::credibility::statement`): the runs' steady windows, the named checks with their
//! statuses, and the headline half-widths. Its shape is the one Chinese load-test reports use:
//! how much was warmup and how much was measured, what was reset and what was not (with the
//! likely effect), then the resulting intervals, then what to compare with caution.

use super::messages::{cause_title, check_reason};
use super::{Lang, fill, list, tr};
use credence_analyze::Analysis;
use credence_analyze::credibility::{Check, CheckStatus, Credibility, HalfWidth};

const ZH: Lang = Lang::Zh;

/// A headline interval's name in Chinese prose: `P50 首token延迟`.
pub fn half_width_label(w: &HalfWidth) -> String {
    match w.metric.as_str() {
        "throughput" => tr(ZH, "stmt.label_throughput").to_string(),
        "ttft_p50" => format!("P50 {}", tr(ZH, "term.ttft")),
        "ttft_p99" => format!("P99 {}", tr(ZH, "term.ttft")),
        "tpot_p50" => format!("P50 {}", tr(ZH, "term.tpot")),
        _ => w.label.clone(),
    }
}

/// Grade, how many runs, warmup dropped and requests measured in the steady window.
fn measured_sentence(runs: &[&Analysis], c: &Credibility) -> String {
    let sum_f = |f: &dyn Fn(&Analysis) -> f64| runs.iter().map(|a| f(a)).sum::<f64>();
    let sum_n = |f: &dyn Fn(&Analysis) -> usize| runs.iter().map(|a| f(a)).sum::<usize>();
    let runs_text = if runs.len() == 1 { tr(ZH, "stmt.single_run").to_string() } else { fill(ZH, "stmt.k_runs", &[("k", &runs.len().to_string())]) };
    let grade = tr(ZH, &format!("tpl.grade_{}", c.grade.label()));
    let measured = sum_n(&|a| a.requests.in_steady_window).to_string();
    if runs.iter().any(|a| a.run.timestamps == "absent") {
        return fill(ZH, "stmt.measured_untimed", &[("grade", grade), ("runs", &runs_text), ("measured", &measured)]);
    }
    fill(
        ZH,
        "stmt.measured",
        &[
            ("grade", grade),
            ("runs", &runs_text),
            ("warm_s", &format!("{:.0}", sum_f(&|a| a.steady_state.dropped_start_s))),
            ("warm_n", &sum_n(&|a| a.steady_state.dropped_start_requests).to_string()),
            ("tail_s", &format!("{:.0}", sum_f(&|a| a.steady_state.dropped_end_s))),
            ("tail_n", &sum_n(&|a| a.steady_state.dropped_end_requests).to_string()),
            ("seconds", &format!("{:.0}", sum_f(&|a| a.steady_state.end_s - a.steady_state.start_s))),
            ("measured", &measured),
        ],
    )
}

/// What was reset before the run, what was not (and its likely effect), and what is unknown.
fn environment_sentences(checks: &[Check]) -> Vec<String> {
    let env = |status: &dyn Fn(CheckStatus) -> bool, key: &str| -> Vec<String> {
        checks
            .iter()
            .filter(|c| c.name.starts_with("environment.") && status(c.status))
            .map(|c| tr(ZH, &format!("env.{}.{key}", &c.name[12..])).to_string())
            .collect()
    };
    let done = env(&|s| s == CheckStatus::Pass, "done");
    let bad = env(&|s| matches!(s, CheckStatus::Warn | CheckStatus::Fail), "not_done");
    let unknown = env(&|s| s == CheckStatus::NotChecked, "item");
    let mut s = Vec::new();
    if !done.is_empty() {
        s.push(fill(ZH, "stmt.env_done", &[("items", &done.join("，"))]));
    }
    if !bad.is_empty() {
        s.push(fill(ZH, "stmt.env_not_done", &[("items", &bad.join("；"))]));
    }
    if !unknown.is_empty() {
        s.push(fill(ZH, "stmt.env_unknown", &[("items", &list(ZH, &unknown))]));
    }
    if bad.is_empty() && unknown.is_empty() {
        s.push(tr(ZH, "stmt.env_all_pass").to_string());
    }
    s
}

/// The headline intervals' half-widths, and those that cannot be bounded.
fn width_sentences(widths: &[HalfWidth]) -> Vec<String> {
    let bounded: Vec<String> = widths.iter().filter_map(|w| w.relative.map(|h| format!("{} ±{:.1} %", half_width_label(w), h * 100.0))).collect();
    let unbounded: Vec<String> = widths.iter().filter(|w| w.relative.is_none()).map(half_width_label).collect();
    let mut s = Vec::new();
    if !bounded.is_empty() {
        s.push(fill(ZH, "stmt.widths", &[("items", &bounded.join("，"))]));
    }
    if !unbounded.is_empty() {
        s.push(fill(ZH, "stmt.unbounded", &[("items", &list(ZH, &unbounded))]));
    }
    s
}

/// Other tails too short to bound (the key metrics table marks them insufficient data).
fn short_tails_sentence(runs: &[&Analysis]) -> Option<String> {
    let mut short: Vec<String> = Vec::new();
    for (metric, label) in [("ttft", "TTFT"), ("tpot", "TPOT"), ("e2e", "E2E")] {
        for (key, p) in [("p99", "P99"), ("p999", "P99.9")] {
            let insufficient = |a: &&Analysis| a.metrics.get(metric).and_then(|m| m.get(key)).is_some_and(|e| e.status != credence_analyze::Status::Ok);
            if (metric, key) != ("ttft", "p99") && runs.iter().any(insufficient) {
                short.push(format!("{p} {label}"));
            }
        }
    }
    (!short.is_empty()).then(|| fill(ZH, "stmt.short_tails", &[("items", &list(ZH, &short))]))
}

/// The other checks that failed, each with its reason.
fn failed_checks_sentence(c: &Credibility) -> Option<String> {
    let failed: Vec<String> = c
        .checks
        .iter()
        .filter(|k| !k.name.starts_with("environment.") && k.status == CheckStatus::Fail)
        .map(|k| format!("{}（{}）", k.name, check_reason(k, Lang::Zh)))
        .collect();
    (!failed.is_empty()).then(|| fill(ZH, "stmt.failed", &[("items", &failed.join("；"))]))
}

/// What to compare with caution: single runs, windows with findings, warned checks.
fn caution_sentence(runs: &[&Analysis], checks: &[Check]) -> Option<String> {
    let findings: std::collections::BTreeSet<String> =
        runs.iter().flat_map(|a| a.findings.iter().filter(|f| f.in_steady_window).map(|f| cause_title(&f.cause, Lang::Zh))).collect();
    let mut caution = Vec::new();
    if runs.len() == 1 {
        caution.push(tr(ZH, "stmt.caution_single").to_string());
    }
    if !findings.is_empty() {
        caution.push(fill(ZH, "stmt.caution_findings", &[("items", &list(ZH, &findings.into_iter().collect::<Vec<_>>()))]));
    }
    let warned: Vec<String> = checks
        .iter()
        .filter(|c| !c.name.starts_with("environment.") && !matches!(c.name.as_str(), "replication" | "interval_width") && c.status == CheckStatus::Warn)
        .map(|c| c.name.clone())
        .collect();
    if !warned.is_empty() {
        caution.push(fill(ZH, "stmt.caution_warned", &[("items", &list(ZH, &warned))]));
    }
    (!caution.is_empty()).then(|| fill(ZH, "stmt.caution", &[("items", &caution.join("；"))]))
}

/// The statement in Chinese: one paragraph, each sentence present only when it says something.
pub fn statement(runs: &[&Analysis], c: &Credibility) -> String {
    let mut s = vec![measured_sentence(runs, c)];
    s.extend(environment_sentences(&c.checks));
    s.extend(width_sentences(&c.half_widths));
    s.extend(short_tails_sentence(runs));
    s.extend(failed_checks_sentence(c));
    s.extend(caution_sentence(runs, &c.checks));
    s.concat()
}
