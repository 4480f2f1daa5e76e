//! The named checks. Each is computed per run; with several runs the worst run decides.

use super::notes::note_arg;
use super::{Check, CheckId, CheckStatus, HalfWidth};
use crate::cause::{Cause, CheckGroup};
use crate::steady::Classification;
use crate::{Analysis, Estimate, Status};
use credence_messages::{Message, Sep};
use credence_run::manifest::Observed;

use CheckStatus::{Fail, NotChecked, Pass, Warn};

/// Error share of the measured window above which results are suspect, and above which they fail.
const ERROR_WARN: f64 = 0.01;
pub(crate) const ERROR_FAIL: f64 = 0.05;
/// Pooled relative half-width above which an interval is called wide.
const WIDE: f64 = 0.05;
/// The percentile the headline rests on (P99 TTFT is what users quote and SLOs name).
const HEADLINE: (&str, &str, f64) = ("ttft", "p99", 0.99);

/// A status with its reason, as each run's part of a check states it.
type Outcome = (CheckStatus, Message);

/// `id` with `status` (pass, warn, fail) as its selector.
fn by_status(id: &str, status: CheckStatus) -> Message {
    let key = match status {
        Pass => "pass",
        Warn => "warn",
        Fail => "fail",
        NotChecked => "not_checked",
    };
    Message::new(id).text("status", key)
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

/// The worst status over runs, with that run's reason (the run named first when k > 1).
fn worst(runs: &[&Analysis], name: CheckId, f: impl Fn(&Analysis) -> Outcome) -> Check {
    let results: Vec<(CheckStatus, Message, &str)> = runs
        .iter()
        .map(|a| {
            let (s, r) = f(a);
            (s, r, a.run.run_id.as_str())
        })
        .collect();
    let (status, reason, id) = results.iter().max_by_key(|r| r.0).cloned().unwrap_or((NotChecked, Message::new("check-no-runs"), ""));
    let reason = if runs.len() > 1 && status != Pass { Message::new("in-run").text("run", id).msg("reason", reason) } else { reason };
    Check::stated(name, status, reason)
}

/// A value the run recorded, judged by `f`; "unknown", with the producer's note, when it did not.
fn observed<T>(o: &Observed<T>, f: impl Fn(&T) -> Outcome) -> Outcome {
    match &o.value {
        Some(v) => f(v),
        None => (NotChecked, Message::new("unknown").arg("note", note_arg(o.note.as_deref()))),
    }
}

/// A check of the environment that passes when the recorded flag is true.
fn flag(o: &Observed<bool>, id: &str) -> Outcome {
    observed(o, |v| {
        let status = if *v { Pass } else { Warn };
        (status, by_status(id, status))
    })
}

fn environment(runs: &[&Analysis]) -> Vec<Check> {
    let mut checks = vec![
        worst(runs, CheckId::ClocksLocked, |a| flag(&a.run.environment.clocks_locked, "check-clocks-locked")),
        worst(runs, CheckId::CpuGovernor, |a| {
            observed(&a.run.environment.cpu_governor, |v| {
                let status = if v == "performance" { Pass } else { Warn };
                (status, by_status("check-cpu-governor", status).text("governor", v.as_str()))
            })
        }),
        worst(runs, CheckId::GpuIdleAndCool, |a| {
            let e = &a.run.environment;
            let (status, state) = match (e.gpu_temp_at_start_c.value, e.gpu_cooling_down.value) {
                (Some(t), Some(false)) if t < 50.0 => (Pass, "cool"),
                (Some(_), Some(false)) => (Warn, "warm"),
                (Some(_), Some(true)) => (Warn, "cooling"),
                _ => (NotChecked, "unknown"),
            };
            let message = Message::new("check-gpu-idle-and-cool").text("state", state);
            (status, e.gpu_temp_at_start_c.value.map_or(message.clone(), |t| message.num("temp", t, 0)))
        }),
        worst(runs, CheckId::NoForeignGpuProcesses, |a| {
            observed(&a.run.environment.foreign_gpu_processes, |v| {
                (if v.is_empty() { Pass } else { Fail }, Message::new("check-foreign-processes").int("n", v.len()))
            })
        }),
        worst(runs, CheckId::PageCache, |a| flag(&a.run.environment.page_cache_dropped, "check-page-cache")),
        worst(runs, CheckId::ServerRestarted, |a| flag(&a.run.environment.server_restarted, "check-server-restarted")),
    ];
    // Only where the cache was seen: a run that cannot show it has nothing for a reset to change.
    if runs.iter().any(|a| a.cache.is_some()) {
        checks.push(worst(runs, CheckId::PrefixCacheReset, |a| flag(&a.run.environment.prefix_cache_reset, "check-prefix-cache-reset")));
    }
    checks
}

/// The titles of the findings inside the measured window whose cause is `of`, as a list.
fn has_finding(a: &Analysis, of: impl Fn(Cause) -> bool) -> Option<Vec<Message>> {
    let titles: Vec<Message> = a.findings.iter().filter(|f| f.in_steady_window && of(f.cause)).map(|f| f.cause.title()).collect();
    (!titles.is_empty()).then_some(titles)
}

/// The reason the detectors of `causes` did not run, when none of them did.
fn not_checked(a: &Analysis, causes: &[Cause]) -> Option<Message> {
    let d: Vec<&crate::attribute::DetectorStatus> = a.attribution.detectors.iter().filter(|d| causes.contains(&d.cause)).collect();
    (!d.is_empty() && d.iter().all(|d| d.status == "not_checked")).then(|| d[0].message.clone())
}

/// Whether the server counted the prompts as built: within 1 % (median), or a mismatch that
/// makes the workload other than the one asked for (another tokenizer, a chat template).
fn prompt_lengths_of(a: &Analysis) -> Outcome {
    match a.prompt_lengths.as_ref().filter(|p| p.exact) {
        Some(p) => {
            let status = if p.mismatch() { Warn } else { Pass };
            let message = by_status("check-prompt-lengths", status)
                .num("server", p.server_median, 0)
                .num("intended", p.intended_median, 0)
                .text("difference", format!("{:+.1}", p.relative_difference_median * 100.0));
            (status, message)
        }
        None => (NotChecked, by_status("check-prompt-lengths", NotChecked)),
    }
}

/// Steady state of one run: reached, shifted, or absent.
fn steady_state_of(a: &Analysis) -> Outcome {
    let s = &a.steady_state;
    let (status, outcome) = match s.classification {
        _ if a.run.timestamps == "absent" => (NotChecked, "no_timestamps"),
        _ if a.load.as_ref().is_some_and(crate::overload::Load::overloaded) => (Fail, "overloaded"),
        Classification::NoSteadyState => (Fail, "none"),
        Classification::Slowdown => (Warn, "shifted"),
        _ => (Pass, "reached"),
    };
    let message = Message::new("check-steady-state")
        .text("outcome", outcome)
        .num("start", s.start_s, 0)
        .num("end", s.end_s, 0)
        .num("warm_s", s.dropped_start_s, 0)
        .int("warm_n", s.dropped_start_requests)
        .num("tail_s", s.dropped_end_s, 0)
        .int("tail_n", s.dropped_end_requests);
    (status, message)
}

/// Whether the headline percentile can be bounded, pooling effective observations over runs.
fn sample_size(runs: &[&Analysis]) -> Check {
    let (metric, key, p) = HEADLINE;
    let beyond: f64 = runs.iter().map(|a| a.metrics[metric][key].n_eff.unwrap_or(0.0) * (1.0 - p)).sum();
    let per_run_ok = runs.iter().all(|a| a.metrics[metric][key].status == Status::Ok);
    let name = CheckId::SampleSize(format!("{metric}_{key}"));
    if per_run_ok || (runs.len() > 1 && beyond >= 10.0) {
        Check::stated(name, Pass, by_status("check-sample-size", Pass).num("beyond", beyond, 0))
    } else {
        Check::stated(name, Fail, by_status("check-sample-size", Fail).num("beyond", beyond, 1))
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
    worst(runs, CheckId::Dependence, |a| dependence_of(a, replicated))
}

/// The TTFT dependence the check judges, the requests it covers, and whether it is measured
/// on the clean windows (when episodes were excluded) rather than the whole steady window.
pub fn ttft_dependence(a: &Analysis) -> Option<(&crate::intervals::Dependence, usize, bool)> {
    let clean = crate::conditions::clean(&a.conditions).and_then(|c| Some((c.dependence.get("ttft")?, c.requests, true)));
    clean.or_else(|| Some((a.dependence.get("ttft")?, a.requests.in_steady_window, false)))
}

/// Dependence of one run's TTFT, judged on the clean windows when episodes were excluded (an
/// explained episode is a level shift, not dependence), and whether a residual trend remains.
fn dependence_of(a: &Analysis, replicated: bool) -> Outcome {
    let message = Message::new("check-dependence");
    let Some((d, n, clean)) = ttft_dependence(a) else {
        return (NotChecked, message.text("outcome", "no_values"));
    };
    let trend = a.steady_state.detectors.iter().any(|x| x.verdict == "trend" && x.name.starts_with("mann_kendall_hamed_rao("));
    let measured = Message::new("dependence-measured")
        .num("deff", d.design_effect, 1)
        .text("clean", if clean { "yes" } else { "no" })
        .num("n_eff", d.n_eff, 0)
        .int("n", n);
    let high = d.design_effect > DESIGN_EFFECT_WARN;
    let (status, outcome) = if trend {
        (Warn, "trend")
    } else if d.n_eff < N_EFF_WARN || (high && !replicated) {
        (Warn, "few")
    } else if high {
        (Pass, "replicated")
    } else {
        (Pass, "ok")
    };
    let message = message.text("outcome", outcome).msg("measured", measured).num("n_eff_warn", N_EFF_WARN, 0).num("deff_warn", DESIGN_EFFECT_WARN, 0);
    (status, message.int("replicated", REPLICATED_RUNS))
}

/// Whether one run's load generator kept up with its schedule.
fn client_saturation_of(a: &Analysis) -> Outcome {
    if let Some(t) = has_finding(a, |c| c.check_group() == CheckGroup::Client) {
        (Fail, by_status("check-client-saturation", Fail).list("findings", t, Sep::Enumeration))
    } else if let Some(why) = not_checked(a, &[Cause::ClientSaturation]) {
        (NotChecked, why)
    } else {
        (Pass, by_status("check-client-saturation", Pass))
    }
}

/// Throttling in one run's measured window: hard throttles fail, a power cap warns.
fn throttling_of(a: &Analysis) -> Outcome {
    let throttle = |c: Cause| c.check_group() == CheckGroup::Throttling;
    if let Some(t) = has_finding(a, |c| throttle(c) && c.is_hard_throttle()) {
        (Fail, by_status("check-throttling", Fail).list("findings", t, Sep::Enumeration))
    } else if let Some(t) = has_finding(a, |c| throttle(c) && !c.is_hard_throttle()) {
        (Warn, by_status("check-throttling", Warn).list("findings", t, Sep::Enumeration))
    } else if let Some(why) = not_checked(a, &[Cause::ThermalThrottle, Cause::PowerCap, Cause::ClockChange]) {
        (NotChecked, why)
    } else {
        (Pass, by_status("check-throttling", Pass))
    }
}

/// Interference in one run's measured window: a foreign GPU process fails, the rest warn.
fn interference_of(a: &Analysis) -> Outcome {
    let found = |status: CheckStatus, t: Vec<Message>| (status, Message::new("check-interference").text("status", "found").list("findings", t, Sep::Enumeration));
    let interference = |c: Cause| c.check_group() == CheckGroup::Interference;
    if let Some(t) = has_finding(a, |c| c == Cause::ForeignProcess) {
        found(Fail, t)
    } else if let Some(t) = has_finding(a, |c| interference(c) && c != Cause::ForeignProcess) {
        found(Warn, t)
    } else if let Some(why) = not_checked(a, &[Cause::ForeignProcess, Cause::MemoryPressure, Cause::Network, Cause::Host]) {
        (NotChecked, why)
    } else {
        (Pass, by_status("check-interference", Pass))
    }
}

/// One run's error rate against the warn and fail limits.
fn error_rate_of(a: &Analysis) -> Outcome {
    let r = a.errors.rate.estimate.unwrap_or(0.0);
    let message = Message::new("check-error-rate").int("errors", a.errors.errors).int("requests", a.errors.requests).num("percent", r * 100.0, 2);
    let status = if r >= ERROR_FAIL {
        Fail
    } else if r >= ERROR_WARN {
        Warn
    } else {
        Pass
    };
    (status, message)
}

/// One headline interval's half-width (or that it has none).
fn half_width_message(w: &HalfWidth) -> Message {
    let label = Message::new("headline-label").text("metric", w.metric.as_str());
    match w.relative {
        Some(h) => Message::new("interval-half-width").msg("label", label).num("percent", h * 100.0, 1),
        None => Message::new("interval-unbounded").msg("label", label),
    }
}

/// Whether the pooled headline intervals are narrow enough to quote.
fn interval_width(widths: &[HalfWidth]) -> Check {
    let wide: Vec<Message> = widths.iter().filter(|w| w.relative.is_none_or(|h| h > WIDE)).map(half_width_message).collect();
    let all: Vec<Message> = widths.iter().filter(|w| w.relative.is_some()).map(half_width_message).collect();
    let (status, items) = if wide.is_empty() { (Pass, all) } else { (Warn, wide) };
    Check::stated(CheckId::IntervalWidth, status, by_status("check-interval-width", status).num("limit", WIDE * 100.0, 0).list("items", items, Sep::Comma))
}

/// Successful requests of one run's measured window that lack a TTFT.
fn data_quality_of(a: &Analysis) -> Outcome {
    let n = a.requests.in_steady_window.max(1);
    let missing = a.requests.missing.get("ttft").copied().unwrap_or(0);
    let ok_missing = missing.saturating_sub((a.errors.errors + a.errors.cancelled) as usize);
    let status = if ok_missing * 100 > n { Warn } else { Pass };
    (status, by_status("check-data-quality", status).int("total", a.requests.total).int("missing", missing).int("ok_missing", ok_missing))
}

/// Timings one run's source does not record, and what they rule out.
fn source_limits_of(a: &Analysis) -> Outcome {
    let lacks = [("no_timestamps", a.run.timestamps == "absent"), ("no_schedule", !a.run.has_schedule), ("no_chunks", !a.run.has_chunks)];
    let limits: Vec<Message> = lacks.iter().filter(|l| l.1).map(|l| Message::new("source-limit").text("limit", l.0)).collect();
    let message = Message::new("check-source-limits");
    if limits.is_empty() {
        (Pass, message.text("status", "pass"))
    } else {
        (NotChecked, message.text("status", "limited").list("limits", limits, Sep::Semicolon))
    }
}

/// Anomalies in one run's measured window that no cause explains.
fn unexplained_anomalies_of(a: &Analysis) -> Outcome {
    // Without times no anomaly can be found, so none is "explained": the check could not run.
    if a.run.timestamps == "absent" {
        return (NotChecked, Message::new("check-unexplained-anomalies").text("status", "no_timestamps").list("items", Vec::new(), Sep::Comma));
    }
    let inside: Vec<Message> = a
        .attribution
        .unexplained
        .iter()
        .filter(|x| x.end_s > a.steady_state.start_s && x.start_s < a.steady_state.end_s)
        .map(|x| Message::new("anomaly-span").msg("series", credence_messages::metric_label(&x.series)).num("start", x.start_s, 0).num("end", x.end_s, 0))
        .collect();
    let status = if inside.is_empty() { Pass } else { Warn };
    (status, by_status("check-unexplained-anomalies", status).list("items", inside, Sep::Comma))
}

/// Whether the server's metrics that one run asked for were recorded: every scrape counted, a
/// run with none recorded or with gaps in more than 1 % of its scrapes warned.
fn server_metrics_of(a: &Analysis) -> Outcome {
    let Some(s) = &a.run.server_scrapes else { return (NotChecked, Message::new("check-server-metrics").text("status", "not_asked")) };
    let failed = s.failures();
    let kinds: Vec<Message> = s.failed.iter().map(|(kind, n)| Message::new("scrape-failure").text("kind", kind.as_str()).int("count", *n)).collect();
    let (status, key) = match () {
        _ if s.succeeded == 0 => (Warn, "none"),
        _ if failed * 100 >= s.attempts && failed > 0 => (Warn, "gaps"),
        _ => (Pass, "pass"),
    };
    let message = Message::new("check-server-metrics")
        .text("status", key)
        .text("endpoint", s.endpoint.as_str())
        .int("attempts", s.attempts)
        .int("failed", failed)
        .list("kinds", kinds, Sep::Comma);
    (status, message)
}

/// Whether there are enough runs to separate the configuration from run-to-run noise.
fn replication(k: usize) -> Check {
    Check::stated(CheckId::Replication, if k >= 3 { Pass } else { Warn }, Message::new("check-replication").int("k", k))
}

/// All checks, in report order.
pub fn checks(runs: &[&Analysis], widths: &[HalfWidth]) -> Vec<Check> {
    let mut out = environment(runs);
    out.push(worst(runs, CheckId::SteadyState, steady_state_of));
    out.push(sample_size(runs));
    out.push(dependence(runs));
    out.push(worst(runs, CheckId::ClientSaturation, client_saturation_of));
    out.push(worst(runs, CheckId::Throttling, throttling_of));
    out.push(worst(runs, CheckId::Interference, interference_of));
    out.push(worst(runs, CheckId::ErrorRate, error_rate_of));
    out.push(interval_width(widths));
    out.push(worst(runs, CheckId::DataQuality, data_quality_of));
    out.push(worst(runs, CheckId::SourceLimits, source_limits_of));
    out.push(worst(runs, CheckId::UnexplainedAnomalies, unexplained_anomalies_of));
    if runs.iter().any(|a| a.run.server_scrapes.is_some()) {
        out.push(worst(runs, CheckId::ServerMetrics, server_metrics_of));
    }
    // Only where lengths were built exactly: word prompts are approximate by design.
    if runs.iter().any(|a| a.prompt_lengths.as_ref().is_some_and(|p| p.exact)) {
        out.push(worst(runs, CheckId::PromptLengths, prompt_lengths_of));
    }
    out.push(replication(runs.len()));
    out
}
