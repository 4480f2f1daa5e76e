//! Each named check's reason in Chinese, rebuilt from the check's name and status (as the JSON
//! has them) and the numbers of the run that decided it: with several runs, the English reason
//! starts with that run's id. A check this file does not know keeps its English reason.

use super::statement_zh::half_width_label;
use super::{Lang, fill, tr};
use credence_analyze::Analysis;
use credence_analyze::credibility::{Check, CheckStatus, HalfWidth};

const ZH: Lang = Lang::Zh;

/// A finding's title in Chinese, by its cause; the English title when the cause is unknown.
pub fn finding_title(cause: &str, english: &str) -> String {
    let key = format!("cause.{cause}.title");
    match tr(ZH, &key) {
        "?" => english.to_string(),
        zh => zh.to_string(),
    }
}

/// The run whose result decided the check: named at the start of the reason when k > 1.
fn deciding_run<'a>(k: &Check, runs: &[&'a Analysis]) -> Option<&'a Analysis> {
    let id = k.reason.split_once(": ").map(|x| x.0);
    runs.iter().find(|a| Some(a.run.run_id.as_str()) == id).or(runs.first()).copied()
}

/// The reason of check `k` in Chinese.
pub fn check_reason(k: &Check, runs: &[&Analysis], widths: &[HalfWidth]) -> String {
    let prefix = if runs.len() > 1 && k.status != CheckStatus::Pass { k.reason.split_once(": ").map(|x| format!("{}：", x.0)) } else { None };
    let zh = deciding_run(k, runs).and_then(|a| reason_of(k, a, runs, widths));
    match zh {
        Some(text) => prefix.unwrap_or_default() + &text,
        None => k.reason.clone(),
    }
}

fn status_key(s: CheckStatus) -> &'static str {
    match s {
        CheckStatus::Pass => "pass",
        CheckStatus::Warn => "warn",
        CheckStatus::Fail => "fail",
        CheckStatus::NotChecked => "not_checked",
    }
}

/// A reason from the catalog by check name and status, with the run's numbers filled in.
fn reason_of(k: &Check, a: &Analysis, runs: &[&Analysis], widths: &[HalfWidth]) -> Option<String> {
    let key = format!("check.{}.{}", k.name.replace("sample_size.ttft_p99", "sample_size"), status_key(k.status));
    let args = reason_args(k, a, runs, widths)?;
    // Reasons that only relay another part's words (a detector's "not checked" note, a source's
    // missing fields) keep them: they are rebuilt where they are written.
    let key = match (k.name.as_str(), k.status) {
        ("source_limits", CheckStatus::NotChecked) => return Some(source_limits(a)),
        ("client_saturation" | "throttling" | "interference", CheckStatus::NotChecked) => {
            let reason = k.reason.split_once(": ").filter(|_| runs.len() > 1).map_or(k.reason.as_str(), |x| x.1);
            return Some(super::localize::detector_reason(reason));
        }
        ("environment.gpu_idle_and_cool", CheckStatus::Warn) if a.run.environment.gpu_cooling_down.value == Some(true) => key + "_cooling",
        ("replication", CheckStatus::Warn) if runs.len() == 2 => key + "_two",
        // The English reason says which of the dependence rules decided.
        ("dependence", CheckStatus::Warn) if !k.reason.contains("residual trend") => key + "_few",
        ("dependence", CheckStatus::Pass) if k.reason.contains("replicated runs") => key + "_replicated",
        (_, CheckStatus::NotChecked) if k.reason.starts_with("unknown: ") && tr(ZH, &key) == "?" => {
            let note = super::localize::unknown_note(k.reason.trim_start_matches("unknown: "));
            return Some(fill(ZH, "check.unknown", &[("note", &note)]));
        }
        _ => key,
    };
    match tr(ZH, &key) {
        "?" => None,
        _ => Some(fill(ZH, &key, &args.iter().map(|(n, v)| (*n, v.as_str())).collect::<Vec<_>>())),
    }
}

/// The numbers that fill check `k`'s Chinese reason, by placeholder.
fn reason_args(k: &Check, a: &Analysis, runs: &[&Analysis], widths: &[HalfWidth]) -> Option<Vec<(&'static str, String)>> {
    let s = &a.steady_state;
    let f0 = |x: f64| format!("{x:.0}");
    Some(match k.name.as_str() {
        "environment.gpu_idle_and_cool" => vec![("temp", a.run.environment.gpu_temp_at_start_c.value.map_or("?".into(), f0))],
        "environment.cpu_governor" => vec![("governor", a.run.environment.cpu_governor.value.clone().unwrap_or_default())],
        "environment.no_foreign_gpu_processes" => vec![("n", a.run.environment.foreign_gpu_processes.value.as_ref().map_or(0, |v| v.len()).to_string())],
        "steady_state" => vec![
            ("start", f0(s.start_s)),
            ("end", f0(s.end_s)),
            ("warm_s", f0(s.dropped_start_s)),
            ("warm_n", s.dropped_start_requests.to_string()),
            ("tail_s", f0(s.dropped_end_s)),
            ("tail_n", s.dropped_end_requests.to_string()),
        ],
        "sample_size.ttft_p99" => {
            let beyond: f64 = runs.iter().map(|a| a.metrics["ttft"]["p99"].n_eff.unwrap_or(0.0) * 0.01).sum();
            vec![("beyond", if k.status == CheckStatus::Pass { f0(beyond) } else { format!("{beyond:.1}") })]
        }
        "dependence" => {
            let (d, n, clean) = credence_analyze::credibility::ttft_dependence(a)?;
            let basis = if clean { "（干净窗口）" } else { "" };
            vec![("deff", format!("{:.1}", d.design_effect)), ("n_eff", f0(d.n_eff)), ("n", n.to_string()), ("basis", basis.to_string())]
        }
        "error_rate" => vec![
            ("errors", a.errors.errors.to_string()),
            ("requests", a.errors.requests.to_string()),
            ("rate", format!("{:.2}", a.errors.rate.estimate.unwrap_or(0.0) * 100.0)),
        ],
        "interval_width" => {
            // A pass lists every interval; a warning only the wide or unbounded ones (as checks.rs).
            let wide = |w: &&HalfWidth| k.status == CheckStatus::Pass || w.relative.is_none_or(|h| h > 0.05);
            let shown: Vec<String> = widths.iter().filter(wide).map(width_text).collect();
            vec![("items", shown.join("，"))]
        }
        "data_quality" => {
            let missing = a.requests.missing.get("ttft").copied().unwrap_or(0);
            let ok_missing = missing.saturating_sub((a.errors.errors + a.errors.cancelled) as usize);
            vec![("total", a.requests.total.to_string()), ("missing", missing.to_string()), ("ok_missing", ok_missing.to_string())]
        }
        "replication" => vec![("k", runs.len().to_string())],
        "client_saturation" | "throttling" | "interference" => {
            let titles: Vec<String> = a.findings.iter().filter(|f| f.in_steady_window).map(|f| finding_title(&f.cause, &f.title)).collect();
            vec![("findings", titles.join("、"))]
        }
        "unexplained_anomalies" => {
            let inside: Vec<String> = a
                .attribution
                .unexplained
                .iter()
                .filter(|x| x.end_s > s.start_s && x.start_s < s.end_s)
                .map(|x| format!("{} {:.0}–{:.0} s", x.series, x.start_s, x.end_s))
                .collect();
            vec![("items", inside.join("，"))]
        }
        _ => Vec::new(),
    })
}

fn width_text(w: &HalfWidth) -> String {
    match w.relative {
        Some(h) => format!("{} ±{:.1} %", half_width_label(w), h * 100.0),
        None => fill(ZH, "check.interval_width.unbounded", &[("label", &half_width_label(w))]),
    }
}

/// The timings a source lacks, in Chinese.
fn source_limits(a: &Analysis) -> String {
    let mut limits = Vec::new();
    if a.run.timestamps == "absent" {
        limits.push(tr(ZH, "check.source_limits.no_timestamps"));
    }
    if !a.run.has_schedule {
        limits.push(tr(ZH, "check.source_limits.no_schedule"));
    }
    if !a.run.has_chunks {
        limits.push(tr(ZH, "check.source_limits.no_chunks"));
    }
    limits.join("；")
}
