//! The credibility statement: one paragraph, every number taken from the `Analysis` values
//! (a test recomputes each from the JSON and finds it in the text).

use super::{Check, CheckStatus, Grade, HalfWidth};
use crate::Analysis;

/// What an environment problem can do to the numbers.
fn bias(name: &str) -> &'static str {
    match name {
        "environment.clocks_locked" => "unlocked clocks let results vary with temperature and power",
        "environment.cpu_governor" => "frequency scaling on the client adds latency jitter",
        "environment.gpu_idle_and_cool" => "a warm or busy GPU at the start can throttle early",
        "environment.no_foreign_gpu_processes" => "another process competes for the GPU",
        "environment.page_cache" => "a warm page cache flatters load times",
        "environment.server_restarted" => "warm server caches can flatter TTFT",
        _ => "unknown bias",
    }
}

fn list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// The opening sentence: grade, requests measured, and what was dropped.
fn measured_sentence(runs: &[&Analysis], grade: Grade) -> String {
    let k = runs.len();
    let measured: usize = runs.iter().map(|a| a.requests.in_steady_window).sum();
    let seconds: f64 = runs.iter().map(|a| a.steady_state.end_s - a.steady_state.start_s).sum();
    let warm_s: f64 = runs.iter().map(|a| a.steady_state.dropped_start_s).sum();
    let warm_n: usize = runs.iter().map(|a| a.steady_state.dropped_start_requests).sum();
    let tail_s: f64 = runs.iter().map(|a| a.steady_state.dropped_end_s).sum();
    let tail_n: usize = runs.iter().map(|a| a.steady_state.dropped_end_requests).sum();
    let runs_text = if k == 1 { "This single run".to_string() } else { format!("These {k} runs") };
    if runs.iter().any(|a| a.run.timestamps == "absent") {
        format!(
            "Credibility {}. {runs_text} measured {measured} requests, but the source records no per-request timestamps: warmup, steady state and drift cannot be checked, and every request counts.",
            grade.label()
        )
    } else {
        format!(
            "Credibility {}. {runs_text} measured {measured} requests over {seconds:.0} s of steady state, after dropping {warm_s:.0} s ({warm_n} requests) of warmup and {tail_s:.0} s ({tail_n} requests) at the end.",
            grade.label()
        )
    }
}

/// How wide the headline intervals are, and which cannot be bounded.
fn width_sentences(widths: &[HalfWidth]) -> Vec<String> {
    let mut s = Vec::new();
    let bounded: Vec<String> = widths.iter().filter_map(|w| w.relative.map(|h| format!("{} ±{:.1} %", w.label, h * 100.0))).collect();
    let unbounded: Vec<String> = widths.iter().filter(|w| w.relative.is_none()).map(|w| w.label.clone()).collect();
    if !bounded.is_empty() {
        s.push(format!("The 95 % intervals reach {}.", list(&bounded)));
    }
    if !unbounded.is_empty() {
        s.push(format!("{} cannot be bounded with this much data and must not be quoted as a number.", list(&unbounded)));
    }
    s
}

/// Other tails: named, not graded (the key metrics table marks them insufficient_data).
fn short_tails_sentence(runs: &[&Analysis]) -> Option<String> {
    let mut short: Vec<String> = Vec::new();
    for (metric, label) in [("ttft", "TTFT"), ("tpot", "TPOT"), ("e2e", "E2E")] {
        for (key, p) in [("p99", "P99"), ("p999", "P99.9")] {
            if (metric, key) != ("ttft", "p99") && runs.iter().any(|a| a.metrics[metric][key].status != crate::Status::Ok) {
                short.push(format!("{p} {label}"));
            }
        }
    }
    (!short.is_empty()).then(|| format!("Too few samples to bound {}: these are reported as insufficient data, not as numbers.", list(&short)))
}

/// Environment checks that failed (with their bias) or are unknown, or that all passed.
fn environment_sentences(checks: &[Check]) -> Vec<String> {
    let mut s = Vec::new();
    let env_bad: Vec<String> = checks
        .iter()
        .filter(|c| c.name.starts_with("environment.") && matches!(c.status, CheckStatus::Warn | CheckStatus::Fail))
        .map(|c| format!("{} ({})", &c.name[12..], bias(&c.name)))
        .collect();
    let env_unknown: Vec<String> =
        checks.iter().filter(|c| c.name.starts_with("environment.") && c.status == CheckStatus::NotChecked).map(|c| c.name[12..].to_string()).collect();
    if !env_bad.is_empty() {
        s.push(format!("Environment checks that failed: {}.", list(&env_bad)));
    }
    if !env_unknown.is_empty() {
        s.push(format!("Unknown environment items: {}; their biases cannot be ruled out.", list(&env_unknown)));
    }
    if env_bad.is_empty() && env_unknown.is_empty() {
        s.push("Every environment check passed.".into());
    }
    s
}

/// The other checks that failed, with their reasons.
fn failed_checks_sentence(checks: &[Check]) -> Option<String> {
    let other_fail: Vec<String> =
        checks.iter().filter(|c| !c.name.starts_with("environment.") && c.status == CheckStatus::Fail).map(|c| format!("{} ({})", c.name, c.reason)).collect();
    (!other_fail.is_empty()).then(|| format!("Failed checks: {}.", list(&other_fail)))
}

/// What to compare with caution: single runs, windows with findings, warned checks.
fn caution_sentence(runs: &[&Analysis], checks: &[Check]) -> Option<String> {
    let findings: Vec<String> = runs
        .iter()
        .flat_map(|a| a.findings.iter().filter(|f| f.in_steady_window).map(|f| f.title.clone()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut caution = Vec::new();
    if runs.len() == 1 {
        caution.push("any comparison with another single run (run-to-run noise is unmeasured)".to_string());
    }
    if !findings.is_empty() {
        caution.push(format!("numbers from windows affected by {}", list(&findings)));
    }
    let warned: Vec<String> = checks
        .iter()
        .filter(|c| !c.name.starts_with("environment.") && !matches!(c.name.as_str(), "replication" | "interval_width") && c.status == CheckStatus::Warn)
        .map(|c| c.name.replace('_', " "))
        .collect();
    if !warned.is_empty() {
        caution.push(format!("anything that depends on {}", list(&warned)));
    }
    (!caution.is_empty()).then(|| format!("Compare with caution: {}.", list(&caution)))
}

/// An estimate in ms as a reader should quote it, with the digits the report's tables give it
/// (two significant digits of the interval's half-width; of 5 % of a value with only one
/// bound): `38.2 [37.5, 39.0] ms`, or `~1072 ms (>= 798, insufficient data)`.
fn quoted(e: &crate::Estimate) -> String {
    let d = e.decimals(1.0);
    match (e.status, e.estimate, e.ci_low, e.ci_high) {
        (crate::Status::Ok, Some(x), Some(lo), Some(hi)) => format!("{x:.d$} [{lo:.d$}, {hi:.d$}] ms"),
        (_, Some(x), Some(lo), None) => format!("~{x:.d$} ms (>= {lo:.d$}, insufficient data)"),
        (_, Some(x), _, _) => format!("~{x:.d$} ms (insufficient data)"),
        _ => "not measurable".into(),
    }
}

/// When episodes with an environmental cause were excluded: the clean TTFT first, the
/// as-measured one beside it, and what was excluded (nothing is left out silently).
fn conditions_sentences(runs: &[&Analysis]) -> Vec<String> {
    let mut s = Vec::new();
    for a in runs {
        let Some(clean) = crate::conditions::clean(&a.conditions) else { continue };
        let who = if runs.len() > 1 { format!("Run {}: i", a.run.run_id) } else { "I".to_string() };
        let ttft = |m: &std::collections::BTreeMap<String, std::collections::BTreeMap<String, crate::Estimate>>, k: &str| {
            m.get("ttft").and_then(|x| x.get(k)).map_or("not measurable".into(), quoted)
        };
        let caused: Vec<&crate::conditions::Condition> = a.conditions.iter().filter(|c| c.cause.is_some()).collect();
        // Several causes may overlap: each with its own seconds.
        let causes: Vec<String> =
            caused.iter().map(|c| if caused.len() > 1 { format!("{} ({:.0} s)", c.title, c.excluded_s) } else { c.title.clone() }).collect();
        s.push(format!(
            "{who}n clean windows ({:.0} s, {} requests), P50 TTFT is {} and P99 TTFT {}; as measured, P50 TTFT {} and P99 TTFT {}. Excluded {:.0} s ({} requests, {:.0} % of the window): {}.",
            clean.duration_s,
            clean.requests,
            ttft(&clean.metrics, "p50"),
            ttft(&clean.metrics, "p99"),
            ttft(&a.metrics, "p50"),
            ttft(&a.metrics, "p99"),
            clean.excluded_s,
            clean.excluded_requests,
            clean.excluded_share * 100.0,
            list(&causes)
        ));
    }
    s
}

/// The credibility statement: one paragraph of sentences, each present only when it says something.
pub fn statement(runs: &[&Analysis], checks: &[Check], widths: &[HalfWidth], grade: Grade) -> String {
    let mut s = vec![measured_sentence(runs, grade)];
    s.extend(conditions_sentences(runs));
    s.extend(width_sentences(widths));
    s.extend(short_tails_sentence(runs));
    s.extend(environment_sentences(checks));
    s.extend(failed_checks_sentence(checks));
    s.extend(caution_sentence(runs, checks));
    s.join(" ")
}
