//! Warnings are values in `Analysis`: what was seen (with numbers), why it matters, and what to
//! do. Renderers print them; nothing here prints.

use serde::{Deserialize, Serialize};

use super::Analysis;
use super::estimate::Status;
use super::steady::{Classification, SteadyState};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Warning {
    #[serde(deserialize_with = "crate::saved::leak_str")]
    pub kind: crate::saved::StaticText,
    pub message: String,
    pub hints: Vec<String>,
}

fn warn(kind: &'static str, message: String, hints: &[&str]) -> Warning {
    Warning { kind, message, hints: hints.iter().map(|h| h.to_string()).collect() }
}

/// What the steady-state classification means for the numbers (nothing when flat).
fn classification_warning(a: &Analysis) -> Option<Warning> {
    let s = &a.steady_state;
    match s.classification {
        Classification::NoSteadyState => Some(warn(
            "no_steady_state",
            format!("No steady state was found: {}. Every statistic below describes a moving target.", first_reason(a)),
            &["run longer, or find and remove the cause of the drift, then rerun", "use --steady-from/--steady-to only if you know the window is steady"],
        )),
        Classification::Slowdown => Some(warn(
            "slowdown",
            format!("Performance degraded towards the end of the run: {}.", first_reason(a)),
            &["check GPU clocks and temperature over time (throttling), memory growth and the load generator"],
        )),
        Classification::Warmup => Some(warn(
            "warmup_dropped",
            format!(
                "Warmup detected: the first {:.1} s ({} requests) were dropped; statistics use {} requests from {:.1} s to {:.1} s.",
                s.dropped_start_s, s.dropped_start_requests, s.requests_in_window, s.start_s, s.end_s
            ),
            &["if the tool already dropped its warmup, the run is still warming up: add a longer warmup phase"],
        )),
        Classification::Flat => None,
    }
}

/// TTFT segments inside the steady window that differ from the final level.
fn breaks_warning(s: &SteadyState) -> Option<Warning> {
    let ttft_breaks: Vec<String> = s
        .series
        .iter()
        .filter(|v| v.series == "ttft")
        .flat_map(|v| v.segments.iter().filter(|g| !g.equivalent_to_last && g.start_s >= s.start_s))
        .map(|g| format!("{:.0}–{:.0} s ({:+.0} %)", g.start_s, g.end_s, g.relative_to_last * 100.0))
        .collect();
    (!ttft_breaks.is_empty()).then(|| {
        warn(
            "steady_state_breaks",
            format!(
                "Inside the steady window, TTFT leaves its level: {}. The intervals widen to reflect this; the episode needs a cause before the numbers are quoted.",
                ttft_breaks.join(", ")
            ),
            &["check GPU clocks, temperature, power and foreign processes, and the load generator, over those seconds", "or analyze the window without it with --steady-from/--steady-to"],
        )
    })
}

/// Steady-state detectors that disagree on the start.
fn disagreement_warning(s: &SteadyState) -> Option<Warning> {
    s.agreement.starts_with("the detectors disagree").then(|| {
        warn(
            "detectors_disagree",
            format!("Steady-state detectors disagree: {}.", s.agreement.trim_start_matches("the detectors disagree: ")),
            &["inspect the time series; override with --steady-from if needed"],
        )
    })
}

/// Latency metrics whose P99.9 has too few samples to bound.
fn tail_warnings(a: &Analysis) -> Vec<Warning> {
    let mut out = Vec::new();
    for (metric, stats) in &a.metrics {
        if let Some(e) = stats.get("p999")
            && e.status == Status::InsufficientData
            && matches!(metric.as_str(), "ttft" | "tpot" | "e2e")
        {
            out.push(warn("insufficient_tail", format!("P99.9 {metric}: {}", e.note.clone().unwrap_or_default()), &["do not quote P99.9 from this run"]));
        }
    }
    out
}

/// A P99 send lag over 5 ms: the load generator sent late.
fn send_lag_warning(a: &Analysis) -> Option<Warning> {
    let lag = a.metrics.get("send_lag").and_then(|m| m.get("p99")).and_then(|e| e.estimate)?;
    (lag > 5.0).then(|| {
        warn(
            "send_lag",
            format!("P99 send lag is {lag:.1} ms: the load generator sent late, so e2e latency understates what users scheduled at that time saw (see service latency)."),
            &["add connections or client processes, or lower the rate, then rerun"],
        )
    })
}

/// The first of TTFT and E2E whose requests are dependent.
fn dependence_warning(a: &Analysis) -> Option<Warning> {
    let (metric, d) = a.dependence.iter().find(|(metric, d)| d.dependent && matches!(metric.as_str(), "ttft" | "e2e"))?;
    Some(warn(
        "dependent_requests",
        format!(
            "Consecutive requests are correlated ({metric}: design effect {:.1}, effective n {:.0}); intervals use a block bootstrap over time windows.",
            d.design_effect, d.n_eff
        ),
        &["independent replicate runs narrow the uncertainty more than longer runs do"],
    ))
}

/// Requests the capturing tool marked as warmup, and timestamps that are not absolute.
fn source_warnings(a: &Analysis) -> Vec<Warning> {
    let mut out = Vec::new();
    if a.requests.declared_warmup > 0 {
        out.push(warn(
            "declared_warmup",
            format!(
                "{} requests are marked as warmup by the capturing tool; credence decides the steady window from the data and reports both.",
                a.requests.declared_warmup
            ),
            &[],
        ));
    }
    if a.requests.invalid_source > 0 {
        out.push(warn(
            "invalid_source",
            format!(
                "{} records of the source file break the requests contract (a negative gap, a first token after the end, a time that is not a number); they are kept as failed requests of kind invalid_source_row, with the reason in their error message.",
                a.requests.invalid_source
            ),
            &["ask the tool's authors, or check the capture for clock or unit mistakes"],
        ));
    }
    if a.run.timestamps != "absolute" {
        out.push(warn("timestamps", format!("Timestamps are {}: time-based checks are limited.", a.run.timestamps), &[]));
    }
    out
}

/// Every warning of an analysis, in report order.
pub fn warnings(a: &Analysis) -> Vec<Warning> {
    let s = &a.steady_state;
    let mut out: Vec<Warning> = classification_warning(a).into_iter().collect();
    out.extend(breaks_warning(s));
    out.extend(disagreement_warning(s));
    out.extend(tail_warnings(a));
    out.extend(send_lag_warning(a));
    out.extend(dependence_warning(a));
    out.extend(source_warnings(a));
    out
}

fn first_reason(a: &Analysis) -> String {
    let s = &a.steady_state;
    s.series
        .iter()
        .find(|v| v.classification == s.classification)
        .map(|v| format!("{} ({})", v.reason, v.series))
        .or_else(|| s.detectors.iter().find(|d| d.verdict == "trend" || d.verdict == "not_run").map(|d| format!("{}: {}", d.name, d.reason)))
        .unwrap_or_else(|| "see the detectors".into())
}
