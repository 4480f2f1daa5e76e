//! The credibility of a GPU capture audited without request records: LOW as a benchmark
//! result (no request was recorded), with what the capture does show as named checks, and
//! every check that needs requests marked NOT_CHECKED with its reason.

use super::aggregate_only::fact_status;
use super::{Check, CheckStatus, Credibility, GRADE_RULE, grade};
use crate::audit::Audit;
use crate::telemetry_audit::episodes::ThrottleEpisode;
use crate::telemetry_audit::load::LoadState;
use crate::telemetry_audit::stability::{STABLE_CV, STABLE_SHARE_FALLEN};
use crate::telemetry_audit::{TelemetryAudit, short_gpu};

fn check(name: &str, status: CheckStatus, reason: impl Into<String>) -> Check {
    Check::plain(name, status, reason)
}

/// The checks that need requests, each with why a GPU capture cannot answer it.
const NEEDS_REQUESTS: [(&str, &str); 9] = [
    ("steady_state", "needs per-request latencies over time; a GPU capture has none"),
    ("sample_size.ttft_p99", "no requests were recorded, so there is no latency percentile to bound"),
    ("dependence", "no request latencies to measure dependence in"),
    ("client_saturation", "needs the load generator's CPU, send lag or scheduled sends; the capture holds GPU counters only"),
    ("interference", "needs per-process GPU columns or host and network counters; the capture has neither"),
    ("error_rate", "no requests were recorded, so there is no error rate"),
    ("interval_width", "no latency or throughput statistic exists to give an interval"),
    ("attribution", "no request timeline: the episodes cannot be tied to any change in latency or throughput"),
    ("replication", "one capture of GPU counters; run-to-run noise needs repeated benchmark runs"),
];

/// LOW by construction: a capture of GPU counters holds no benchmark result.
pub fn telemetry_only(t: &TelemetryAudit, claims: Option<&Audit>) -> Credibility {
    let mut checks = vec![
        check(
            "per_request_data",
            CheckStatus::Fail,
            "GPU telemetry only: no request was recorded, so no latency, throughput or error rate can be measured or checked from these files",
        ),
        data_quality(t),
        under_load(t),
        throttling(t),
        clock_stability(t),
    ];
    checks.extend(NEEDS_REQUESTS.iter().map(|(name, why)| check(name, CheckStatus::NotChecked, *why)));
    checks.push(claims_check(claims));
    if let Some(a) = claims {
        checks.extend(a.facts.iter().map(|f| check(&f.name, fact_status(f.status), f.reason.clone())));
    }
    let grade = grade(&checks, 0);
    let statement = statement(t, grade.label());
    Credibility { grade, grade_rule: GRADE_RULE, runs: 0, checks, half_widths: Vec::new(), statement, statement_message: Default::default() }
}

/// How much telemetry there is, and its gaps.
fn data_quality(t: &TelemetryAudit) -> Check {
    let gaps: usize = t.gpus.iter().map(|g| g.gaps).sum();
    let interval = t.gpus.iter().map(|g| g.interval_s).fold(f64::NAN, f64::max);
    let what = format!("{} samples of {} over {:.0} s, median interval {interval:.3} s", t.samples, count(t.gpus.len(), "GPU"), t.duration_s);
    if gaps > 0 {
        check("gpu_telemetry", CheckStatus::Warn, format!("{what}; {gaps} gaps longer than 3 intervals: an episode inside a gap is not seen"))
    } else {
        check("gpu_telemetry", CheckStatus::Pass, format!("{what}; no gap longer than 3 intervals"))
    }
}

/// Which GPUs were busy; idle ones are set aside.
fn under_load(t: &TelemetryAudit) -> Check {
    let loaded: Vec<&str> = t.gpus_in(LoadState::Loaded).map(|g| short_gpu(&g.gpu)).collect();
    let aside: Vec<String> =
        t.gpus.iter().filter(|g| g.load.state != LoadState::Loaded).map(|g| format!("{} ({})", short_gpu(&g.gpu), g.load.reason)).collect();
    let aside_text = if aside.is_empty() { String::new() } else { format!("; set aside: {}", aside.join("; ")) };
    let status = if loaded.is_empty() || t.gpus_in(LoadState::Unknown).next().is_some() { CheckStatus::Warn } else { CheckStatus::Pass };
    let head = if loaded.is_empty() {
        format!("no GPU was under load (utilization ≥ {:.0} %): the capture shows no workload", t.load_threshold_pct)
    } else {
        format!("{} of {} GPUs under load (utilization ≥ {:.0} %): {}", loaded.len(), t.gpus.len(), t.load_threshold_pct, loaded.join(", "))
    };
    check("gpus_under_load", status, format!("{head}{aside_text}"))
}

/// "GPU 0 thermal slowdown 30–50 s (20 s)".
fn episode_text(e: &ThrottleEpisode) -> String {
    format!("{} {} {:.0}–{:.0} s ({:.0} s)", short_gpu(&e.gpu), e.reason.label(), e.start_s, e.end_s, e.duration_s)
}

/// Throttling under load: DCGM's failure reasons fail; power limits and unexplained clock falls warn.
fn throttling(t: &TelemetryAudit) -> Check {
    if !t.episodes_looked_for() {
        return check("throttling", CheckStatus::NotChecked, "no GPU under load with an SM clock or clock-event reasons");
    }
    let basis = if t.reasons_captured() {
        "from the clock-event reason bits, and the SM clock where they are absent"
    } else {
        "from SM clock and power only: no clock-event reasons were captured, so the cause of a clock fall may be unknown"
    };
    let faults: Vec<String> = t.episodes.iter().filter(|e| e.fault).map(episode_text).collect();
    let others: Vec<String> = t.episodes.iter().filter(|e| !e.fault).map(episode_text).collect();
    if !faults.is_empty() {
        let rest = if others.is_empty() { String::new() } else { format!("; also {}", others.join("; ")) };
        check(
            "throttling",
            CheckStatus::Fail,
            format!("{}: clocks were forced down (DCGM's failure reasons); numbers measured then describe a slowed GPU{rest} ({basis})", faults.join("; ")),
        )
    } else if !others.is_empty() {
        check("throttling", CheckStatus::Warn, format!("{}: compare only with runs at the same power limit and cooling ({basis})", others.join("; ")))
    } else {
        check("throttling", CheckStatus::Pass, format!("no throttle, power-limited stretch or clock fall under load ({basis})"))
    }
}

/// The SM clock's spread under load on every loaded GPU.
fn clock_stability(t: &TelemetryAudit) -> Check {
    let judged: Vec<(String, bool)> = t
        .gpus_in(LoadState::Loaded)
        .filter_map(|g| {
            let s = g.stability.as_ref()?;
            let stable = s.stable?;
            let text = format!(
                "{} CV {:.1} %, {:.1} % of loaded time below 90 % of its highest clock ({:.0} MHz)",
                short_gpu(&g.gpu),
                s.sm_clock_cv? * 100.0,
                s.share_below_90pct_of_max_observed? * 100.0,
                s.sm_clock_max_observed_mhz?
            );
            Some((text, stable))
        })
        .collect();
    if judged.is_empty() {
        return check("clock_stability", CheckStatus::NotChecked, "no GPU under load has enough SM clock samples (10 needed)");
    }
    let all: Vec<String> = judged.iter().map(|j| j.0.clone()).collect();
    let rule = format!("stable: CV ≤ {:.0} % and ≤ {:.0} % of loaded time below 90 % of the highest clock", STABLE_CV * 100.0, STABLE_SHARE_FALLEN * 100.0);
    let status = if judged.iter().all(|j| j.1) { CheckStatus::Pass } else { CheckStatus::Warn };
    check("clock_stability", status, format!("{} ({rule})", all.join("; ")))
}

/// The tool's claims, when summary files came with the capture.
fn claims_check(claims: Option<&Audit>) -> Check {
    match claims {
        Some(a) if !a.claims.is_empty() => check(
            "claims",
            if a.differing > 0 { CheckStatus::Warn } else { CheckStatus::Pass },
            format!(
                "{} of {} claims cross-checked between the tool's own files, {} differ; none can be recomputed without per-request data",
                a.reproduced + a.differing,
                a.claims.len(),
                a.differing
            ),
        ),
        _ => check("claims", CheckStatus::NotChecked, "the files hold no tool's summary numbers to check"),
    }
}

/// "1 GPU", "2 GPUs".
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// "1 GPU was", "2 GPUs were".
fn count_was(n: usize, noun: &str) -> String {
    format!("{} {}", count(n, noun), if n == 1 { "was" } else { "were" })
}

/// The plain-language statement: what the capture supports and what it cannot.
fn statement(t: &TelemetryAudit, grade: &str) -> String {
    let mut quantities = Vec::new();
    for (key, name) in [
        ("sm_clock", "SM clock"),
        ("power", "power"),
        ("temperature", "temperature"),
        ("utilization", "utilization"),
        ("clock_event_reasons", "clock-event reasons"),
    ] {
        if t.gpus.iter().any(|g| g.captured.contains(&key)) {
            quantities.push(name);
        }
    }
    let loaded = t.gpus_in(LoadState::Loaded).count();
    let aside = t.gpus.len() - loaded;
    let mut parts = vec![
        format!("Credibility {grade} as a benchmark result: {} is GPU telemetry only, with no request records.", t.source),
        format!(
            "It shows how {} ran over {:.0} s ({}); it cannot show latency, throughput, error rates, steady state or a tool's claims, and it cannot tie any episode to a change in latency or throughput, so those checks are NOT_CHECKED.",
            count(t.gpus.len(), "GPU"),
            t.duration_s,
            quantities.join(", ")
        ),
        format!("{} under load (utilization ≥ {:.0} %); {} set aside.", count_was(loaded, "GPU"), t.load_threshold_pct, count_was(aside, "GPU")),
    ];
    parts.push(if !t.episodes.is_empty() {
        format!("Episodes under load: {}.", t.episodes.iter().map(episode_text).collect::<Vec<_>>().join("; "))
    } else if loaded == 0 {
        "With no GPU under load, no episode was looked for.".to_string()
    } else if !t.episodes_looked_for() {
        "No GPU under load has an SM clock or clock-event reasons, so no episode could be looked for.".to_string()
    } else {
        "No throttle, power-limited stretch or clock fall was found under load.".to_string()
    });
    parts.join(" ")
}
