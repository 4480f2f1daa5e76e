//! The named checks. Each is computed per run; with several runs the worst run decides.

use super::{Check, CheckStatus, HalfWidth};
use crate::steady::Classification;
use crate::{Analysis, Estimate, Status};
use credence_run::manifest::Observed;

use CheckStatus::{Fail, NotChecked, Pass, Warn};

/// Error share of the measured window above which results are suspect, and above which they fail.
const ERROR_WARN: f64 = 0.01;
const ERROR_FAIL: f64 = 0.05;
/// Pooled relative half-width above which an interval is called wide.
const WIDE: f64 = 0.05;
/// The percentile the headline rests on (P99 TTFT is what users quote and SLOs name).
const HEADLINE: (&str, &str, f64) = ("ttft", "p99", 0.99);

fn check(name: &str, status: CheckStatus, reason: impl Into<String>) -> Check {
    Check { name: name.to_string(), status, reason: reason.into() }
}

fn relative_half_width(e: &Estimate) -> Option<f64> {
    match (e.status, e.estimate, e.ci_low, e.ci_high) {
        (Status::Ok, Some(x), Some(lo), Some(hi)) if x != 0.0 => Some((hi - lo) / 2.0 / x.abs()),
        _ => None,
    }
}

/// Headline half-widths, pooled over runs as for a mean of independent run estimates:
/// `sqrt(Σ h_r²) / k`.
pub fn half_widths(runs: &[&Analysis]) -> Vec<HalfWidth> {
    type Headline = Box<dyn Fn(&Analysis) -> &Estimate>;
    let spec: [(&str, &str, Headline); 4] = [
        ("throughput", "throughput", Box::new(|a: &Analysis| &a.throughput.requests_per_s)),
        ("ttft_p50", "P50 TTFT", Box::new(|a: &Analysis| &a.metrics["ttft"]["p50"])),
        ("ttft_p99", "P99 TTFT", Box::new(|a: &Analysis| &a.metrics["ttft"]["p99"])),
        ("tpot_p50", "P50 TPOT", Box::new(|a: &Analysis| &a.metrics["tpot"]["p50"])),
    ];
    spec.into_iter()
        .map(|(metric, label, get)| {
            let h: Option<Vec<f64>> = runs.iter().map(|a| relative_half_width(get(a))).collect();
            let k = runs.len() as f64;
            HalfWidth { metric: metric.into(), label: label.into(), relative: h.map(|h| h.iter().map(|x| x * x).sum::<f64>().sqrt() / k) }
        })
        .collect()
}

/// The worst status over runs, with that run's reason (prefixed by the run id when k > 1).
fn worst(runs: &[&Analysis], name: &str, f: impl Fn(&Analysis) -> (CheckStatus, String)) -> Check {
    let results: Vec<(CheckStatus, String, &str)> = runs
        .iter()
        .map(|a| {
            let (s, r) = f(a);
            (s, r, a.run.run_id.as_str())
        })
        .collect();
    let (status, reason, id) = results.iter().max_by_key(|r| r.0).cloned().unwrap_or((NotChecked, "no runs".into(), ""));
    let reason = if runs.len() > 1 && status != Pass { format!("{id}: {reason}") } else { reason };
    check(name, status, reason)
}

fn observed<T>(o: &Observed<T>, f: impl Fn(&T) -> (CheckStatus, String)) -> (CheckStatus, String) {
    match &o.value {
        Some(v) => f(v),
        None => (NotChecked, format!("unknown: {}", o.note.as_deref().unwrap_or("not recorded"))),
    }
}

fn environment(runs: &[&Analysis]) -> Vec<Check> {
    vec![
        worst(runs, "environment.clocks_locked", |a| {
            observed(&a.run.environment.clocks_locked, |v| {
                if *v {
                    (Pass, "GPU clocks were locked".into())
                } else {
                    (Warn, "GPU clocks were not locked: boost clocks follow temperature and power, which adds run-to-run variance".into())
                }
            })
        }),
        worst(runs, "environment.cpu_governor", |a| {
            observed(&a.run.environment.cpu_governor, |v| {
                if v == "performance" {
                    (Pass, "CPU governor performance".into())
                } else {
                    (Warn, format!("CPU governor {v:?}: frequency scaling on the client adds latency jitter"))
                }
            })
        }),
        worst(runs, "environment.gpu_idle_and_cool", |a| {
            let e = &a.run.environment;
            match (e.gpu_temp_at_start_c.value, e.gpu_cooling_down.value) {
                (Some(t), Some(false)) if t < 50.0 => (Pass, format!("GPU at {t:.0} °C and not cooling from an earlier load")),
                (Some(t), Some(c)) => {
                    (Warn, format!("GPU at {t:.0} °C{} at the start: an earlier load's heat can throttle this run", if c { " and still cooling" } else { "" }))
                }
                _ => (NotChecked, "unknown: GPU temperature at the start was not recorded".into()),
            }
        }),
        worst(runs, "environment.no_foreign_gpu_processes", |a| {
            observed(&a.run.environment.foreign_gpu_processes, |v| {
                if v.is_empty() {
                    (Pass, "no other compute process on the GPUs at the start".into())
                } else {
                    (Fail, format!("{} other compute process(es) on the GPUs at the start: they compete for compute and memory", v.len()))
                }
            })
        }),
        worst(runs, "environment.page_cache", |a| {
            observed(&a.run.environment.page_cache_dropped, |v| {
                if *v {
                    (Pass, "page cache dropped before the run".into())
                } else {
                    (Warn, "page cache not dropped: model and data loads may be faster than from a cold start".into())
                }
            })
        }),
        worst(runs, "environment.server_restarted", |a| {
            observed(&a.run.environment.server_restarted, |v| {
                if *v {
                    (Pass, "server restarted before the run".into())
                } else {
                    (Warn, "server not restarted: warm prefix caches from earlier runs can flatter TTFT".into())
                }
            })
        }),
    ]
}

fn has_finding(a: &Analysis, causes: &[&str]) -> Option<String> {
    let f: Vec<String> = a.findings.iter().filter(|f| f.in_steady_window && causes.contains(&f.cause.as_str())).map(|f| f.title.clone()).collect();
    (!f.is_empty()).then(|| f.join(", "))
}

fn not_checked(a: &Analysis, causes: &[&str]) -> Option<String> {
    let d: Vec<&crate::attribute::DetectorStatus> = a.attribution.detectors.iter().filter(|d| causes.contains(&d.cause.as_str())).collect();
    (!d.is_empty() && d.iter().all(|d| d.status == "not_checked")).then(|| d[0].reason.clone())
}

/// Steady state of one run: reached, shifted, or absent.
fn steady_state_of(a: &Analysis) -> (CheckStatus, String) {
    let s = &a.steady_state;
    let kept = format!(
        "measured {:.0} s to {:.0} s after dropping {:.0} s ({} requests) at the start and {:.0} s ({} requests) at the end",
        s.start_s, s.end_s, s.dropped_start_s, s.dropped_start_requests, s.dropped_end_s, s.dropped_end_requests
    );
    if a.run.timestamps == "absent" {
        return (NotChecked, "the source has no per-request timestamps: steady state cannot be checked".into());
    }
    match s.classification {
        Classification::NoSteadyState => (Fail, "no steady state: the level keeps moving, so no single number describes the run".into()),
        Classification::Slowdown => (Warn, format!("the level shifted during the run; {kept}")),
        _ => (Pass, format!("steady state reached; {kept}")),
    }
}

/// Whether the headline percentile can be bounded, pooling effective observations over runs.
fn sample_size(runs: &[&Analysis]) -> Check {
    let (metric, key, p) = HEADLINE;
    let beyond: f64 = runs.iter().map(|a| a.metrics[metric][key].n_eff.unwrap_or(0.0) * (1.0 - p)).sum();
    let per_run_ok = runs.iter().all(|a| a.metrics[metric][key].status == Status::Ok);
    let name = format!("sample_size.{metric}_{key}");
    if per_run_ok || (runs.len() > 1 && beyond >= 10.0) {
        check(&name, Pass, format!("{beyond:.0} effective observations beyond P99 TTFT (at least 10 needed)"))
    } else {
        check(&name, Fail, format!("only {beyond:.1} effective observations beyond P99 TTFT (10 needed): P99 TTFT cannot be bounded; run longer or add runs"))
    }
}

/// Design effect above which, and effective n below which, the dependence check warns: the
/// intervals account for the dependence, but rest on few independent observations.
const DESIGN_EFFECT_WARN: f64 = 10.0;
const N_EFF_WARN: f64 = 100.0;
/// Replicated runs from which the headline intervals are hierarchical: their width comes from
/// the spread between runs, so a high design effect within each run no longer warns (a
/// dependence that leaves too few effective observations in a run still does).
const REPLICATED_RUNS: usize = 3;

/// The dependence check over the runs of one configuration.
fn dependence(runs: &[&Analysis]) -> Check {
    let replicated = runs.len() >= REPLICATED_RUNS;
    worst(runs, "dependence", |a| dependence_of(a, replicated))
}

/// The TTFT dependence the check judges, the requests it covers, and whether it is measured
/// on the clean windows (when episodes were excluded) rather than the whole steady window.
pub fn ttft_dependence(a: &Analysis) -> Option<(&crate::intervals::Dependence, usize, bool)> {
    let clean = crate::conditions::clean(&a.conditions).and_then(|c| Some((c.dependence.get("ttft")?, c.requests, true)));
    clean.or_else(|| Some((a.dependence.get("ttft")?, a.requests.in_steady_window, false)))
}

/// Dependence of one run's TTFT, judged on the clean windows when episodes were excluded (an
/// explained episode is a level shift, not dependence), and whether a residual trend remains.
fn dependence_of(a: &Analysis, replicated: bool) -> (CheckStatus, String) {
    let Some((d, n, clean)) = ttft_dependence(a) else {
        return (NotChecked, "no TTFT values".into());
    };
    let basis = if clean { " in clean windows" } else { "" };
    let trend = a.steady_state.detectors.iter().any(|x| x.verdict == "trend" && x.name.starts_with("mann_kendall_hamed_rao("));
    let measured = format!("TTFT design effect {:.1}{basis}: effective n {:.0} of {n}", d.design_effect, d.n_eff);
    let high = d.design_effect > DESIGN_EFFECT_WARN;
    if trend {
        (Warn, format!("a residual trend remains in the measured window (Mann–Kendall); {measured}"))
    } else if d.n_eff < N_EFF_WARN || (high && !replicated) {
        (
            Warn,
            format!(
                "{measured}: the intervals account for it, but rest on few independent observations (warns below {N_EFF_WARN:.0} or above a design effect of {DESIGN_EFFECT_WARN:.0}); run longer, or find what correlates the requests"
            ),
        )
    } else if high {
        (Pass, format!("{measured}; the intervals account for it, and across {REPLICATED_RUNS} or more replicated runs they come from the spread between runs"))
    } else {
        (Pass, format!("{measured}; the intervals account for it"))
    }
}

/// Whether one run's load generator kept up with its schedule.
fn client_saturation_of(a: &Analysis) -> (CheckStatus, String) {
    let causes = ["client_saturation"];
    if let Some(t) = has_finding(a, &causes) {
        (Fail, format!("{t} inside the measured window: latencies include client delay and the offered load was not delivered"))
    } else if let Some(why) = not_checked(a, &causes) {
        (NotChecked, why)
    } else {
        (Pass, "the load generator kept up with its schedule (CPU, send lag, achieved rate)".into())
    }
}

/// Throttling in one run's measured window: hard throttles fail, a power cap warns.
fn throttling_of(a: &Analysis) -> (CheckStatus, String) {
    let hard = ["thermal_throttle", "hw_power_brake", "hw_slowdown", "clock_change"];
    if let Some(t) = has_finding(a, &hard) {
        (Fail, format!("{t} inside the measured window"))
    } else if let Some(t) = has_finding(a, &["power_cap"]) {
        (Warn, format!("{t}: compare only with runs at the same power limit"))
    } else if let Some(why) = not_checked(a, &["thermal_throttle", "power_cap", "clock_change"]) {
        (NotChecked, why)
    } else {
        (Pass, "no throttle reason or clock drop under load in the measured window".into())
    }
}

/// Interference in one run's measured window: a foreign GPU process fails, the rest warn.
fn interference_of(a: &Analysis) -> (CheckStatus, String) {
    if let Some(t) = has_finding(a, &["foreign_process"]) {
        (Fail, format!("{t} inside the measured window"))
    } else if let Some(t) = has_finding(a, &["memory_pressure", "network", "host", "server_queueing"]) {
        (Warn, format!("{t} inside the measured window"))
    } else if let Some(why) = not_checked(a, &["foreign_process", "memory_pressure", "network", "host"]) {
        (NotChecked, why)
    } else {
        (Pass, "no foreign GPU process, memory pressure, network or host trouble in the measured window".into())
    }
}

/// One run's error rate against the warn and fail limits.
fn error_rate_of(a: &Analysis) -> (CheckStatus, String) {
    let r = a.errors.rate.estimate.unwrap_or(0.0);
    let text = format!("{} of {} requests failed ({:.2} %)", a.errors.errors, a.errors.requests, r * 100.0);
    if r >= ERROR_FAIL {
        (Fail, text)
    } else if r >= ERROR_WARN {
        (Warn, text)
    } else {
        (Pass, text)
    }
}

/// Whether the pooled headline intervals are narrow enough to quote.
fn interval_width(widths: &[HalfWidth]) -> Check {
    let wide: Vec<String> = widths
        .iter()
        .filter_map(|w| match w.relative {
            Some(h) if h > WIDE => Some(format!("{} ±{:.1} %", w.label, h * 100.0)),
            None => Some(format!("{} unbounded", w.label)),
            _ => None,
        })
        .collect();
    let all: Vec<String> = widths.iter().filter_map(|w| w.relative.map(|h| format!("{} ±{:.1} %", w.label, h * 100.0))).collect();
    if wide.is_empty() {
        check("interval_width", Pass, format!("headline intervals within ±{:.0} %: {}", WIDE * 100.0, all.join(", ")))
    } else {
        check("interval_width", Warn, format!("wide or unbounded intervals: {}", wide.join(", ")))
    }
}

/// Successful requests of one run's measured window that lack a TTFT.
fn data_quality_of(a: &Analysis) -> (CheckStatus, String) {
    let n = a.requests.in_steady_window.max(1);
    let missing = a.requests.missing.get("ttft").copied().unwrap_or(0);
    let ok_missing = missing.saturating_sub((a.errors.errors + a.errors.cancelled) as usize);
    if ok_missing * 100 > n {
        (Warn, format!("{ok_missing} successful requests in the measured window lack a TTFT"))
    } else {
        (Pass, format!("{} requests, {} without TTFT (failed requests included)", a.requests.total, missing))
    }
}

/// Timings one run's source does not record, and what they rule out.
fn source_limits_of(a: &Analysis) -> (CheckStatus, String) {
    let mut limits = Vec::new();
    if a.run.timestamps == "absent" {
        limits.push("no per-request timestamps (steady state, drift and time-based checks are impossible)");
    }
    if !a.run.has_schedule {
        limits.push("no scheduled send times (coordinated omission cannot be measured)");
    }
    if !a.run.has_chunks {
        limits.push("no per-chunk times (no ITL)");
    }
    if limits.is_empty() { (Pass, "the source records every timing credence uses".into()) } else { (NotChecked, limits.join("; ")) }
}

/// Anomalies in one run's measured window that no cause explains.
fn unexplained_anomalies_of(a: &Analysis) -> (CheckStatus, String) {
    let inside: Vec<String> = a
        .attribution
        .unexplained
        .iter()
        .filter(|x| x.end_s > a.steady_state.start_s && x.start_s < a.steady_state.end_s)
        .map(|x| format!("{} {:.0}–{:.0} s", x.series, x.start_s, x.end_s))
        .collect();
    if inside.is_empty() {
        (Pass, "every anomaly in the measured window has a cause, or there is none".into())
    } else {
        (Warn, format!("anomalies with no cause found: {}", inside.join(", ")))
    }
}

/// Whether there are enough runs to separate the configuration from run-to-run noise.
fn replication(k: usize) -> Check {
    match k {
        0 | 1 => check("replication", Warn, "single run: the configuration effect cannot be separated from run-to-run noise; repeat the run at least 3 times"),
        2 => check("replication", Warn, "2 runs: too few to estimate run-to-run noise reliably; 3 or more are needed"),
        k => check("replication", Pass, format!("{k} runs of this configuration")),
    }
}

/// All checks, in report order.
pub fn checks(runs: &[&Analysis], widths: &[HalfWidth]) -> Vec<Check> {
    let mut out = environment(runs);
    out.push(worst(runs, "steady_state", steady_state_of));
    out.push(sample_size(runs));
    out.push(dependence(runs));
    out.push(worst(runs, "client_saturation", client_saturation_of));
    out.push(worst(runs, "throttling", throttling_of));
    out.push(worst(runs, "interference", interference_of));
    out.push(worst(runs, "error_rate", error_rate_of));
    out.push(interval_width(widths));
    out.push(worst(runs, "data_quality", data_quality_of));
    out.push(worst(runs, "source_limits", source_limits_of));
    out.push(worst(runs, "unexplained_anomalies", unexplained_anomalies_of));
    out.push(replication(runs.len()));
    out
}
