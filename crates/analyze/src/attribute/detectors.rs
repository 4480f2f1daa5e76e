//! Cause detectors. Each reads one kind of evidence and returns the episodes where its rule
//! held, or `not_checked` when the evidence is absent. Rules and thresholds follow
//! `telemetry.md` §5.2 (DCGM's failure mask, nvbench's 75 % clock rule, Locust's 90 % CPU
//! warning, the AIPerf throttle-rate bands).

use std::collections::BTreeMap;

use super::anomalies::{WindowSeries, baseline, z_scores};
use super::episodes::{Span, flagged_spans, sample_interval};
use super::signals::{GpuSeries, HostSeries, ServerSeries, increments, present, server_metric};
use credence_messages::Message;
use crate::cause::Cause;
use credence_stats::quantile::quantile_unsorted;

/// Clock-event-reason bits (NVML).
pub mod bits {
    pub const IDLE: u64 = 0x1;
    pub const SW_POWER_CAP: u64 = 0x4;
    pub const HW_SLOWDOWN: u64 = 0x8;
    pub const SW_THERMAL: u64 = 0x20;
    pub const HW_THERMAL: u64 = 0x40;
    pub const HW_POWER_BRAKE: u64 = 0x80;
}

/// A device or file as the run names it, shown as written in every language.
fn named(name: &str) -> Message {
    Message::new("as-written").text("text", name)
}

/// One detected episode of a cause, with its peak evidence.
#[derive(Debug, Clone)]
pub struct CauseEpisode {
    pub span: Span,
    /// Which device or series showed it: a device as the run names it ("gpu-node-0 GPU 1
    /// (GPU-…)"), or credence's words for a series (`source-requests`).
    pub source: Message,
    /// Peak evidence values, by name (units in the name).
    pub peak: BTreeMap<String, f64>,
}

/// A cause signal on its own time axis, for the lagged correlation with latency.
#[derive(Debug, Clone, Default)]
pub struct Signal {
    pub t_s: Vec<f64>,
    pub values: Vec<f64>,
}

/// What one detector found.
#[derive(Debug, Clone)]
pub struct Detection {
    pub cause: Cause,
    /// None: checked. Some(reason): not checked, because the evidence is absent.
    pub not_checked: Option<Message>,
    pub episodes: Vec<CauseEpisode>,
    pub signal: Signal,
    /// Causes that are consequences of others (queueing) are kept as evidence of the root
    /// cause when they overlap one.
    pub symptom: bool,
}

impl Detection {
    pub(super) fn checked(cause: Cause) -> Detection {
        Detection { cause, not_checked: None, episodes: Vec::new(), signal: Signal::default(), symptom: false }
    }

    /// Not checked: the message `id` (`locales/*/detectors.ftl`) says which evidence is absent.
    pub(super) fn absent(cause: Cause, id: &str) -> Detection {
        Detection { not_checked: Some(Message::new(id)), ..Detection::checked(cause) }
    }
}

fn max_of(idx: &[usize], v: &[f64]) -> f64 {
    idx.iter().map(|&i| v[i]).filter(|x| x.is_finite()).fold(f64::NAN, f64::max)
}

fn min_of(idx: &[usize], v: &[f64]) -> f64 {
    idx.iter().map(|&i| v[i]).filter(|x| x.is_finite()).fold(f64::NAN, f64::min)
}

fn has(r: Option<u64>, mask: u64) -> bool {
    r.is_some_and(|r| r & mask != 0)
}

/// The GPU's unthrottled SM clock under load: the median clock while busy (≥ 50 %) with no
/// reason bit except idle; the maximum clock when there is no such sample.
fn baseline_clock(g: &GpuSeries) -> f64 {
    let v: Vec<f64> = (0..g.t_s.len())
        .filter(|&i| g.util_pct[i] >= 50.0 && g.reasons[i].is_none_or(|r| r & !bits::IDLE == 0) && g.sm_mhz[i].is_finite())
        .map(|i| g.sm_mhz[i])
        .collect();
    quantile_unsorted(&v, 0.5).unwrap_or_else(|| g.sm_max_mhz.iter().copied().filter(|x| x.is_finite()).fold(f64::NAN, f64::max))
}

/// Runs `rule` per GPU and gathers its episodes; `peak` names the evidence of an episode.
fn per_gpu(
    gpus: &[GpuSeries],
    cause: Cause,
    rule: impl Fn(&GpuSeries, usize, f64) -> bool,
    peak: impl Fn(&GpuSeries, &[usize], f64) -> BTreeMap<String, f64>,
    signal: impl Fn(&GpuSeries, usize, f64) -> f64,
) -> Detection {
    let mut d = Detection::checked(cause);
    // The baseline is a median over the whole trace: once per GPU, not once per sample.
    let mut flagged = Vec::with_capacity(gpus.len());
    for g in gpus {
        let base = baseline_clock(g);
        let flags: Vec<bool> = (0..g.t_s.len()).map(|i| rule(g, i, base)).collect();
        for (span, idx) in flagged_spans(&g.t_s, &flags, 2, 1) {
            d.episodes.push(CauseEpisode { span, source: named(&g.label), peak: peak(g, &idx, base) });
        }
        flagged.push((flags.iter().filter(|f| **f).count(), base));
    }
    // The signal of the GPU that showed the cause most (or the first GPU).
    let busiest = gpus.iter().zip(&flagged).max_by_key(|(_, (n, _))| *n);
    if let Some((g, &(_, base))) = busiest {
        d.signal = Signal { t_s: g.t_s.clone(), values: (0..g.t_s.len()).map(|i| signal(g, i, base)).collect() };
    }
    d
}

fn clock_drop(g: &GpuSeries, idx: &[usize], base: f64) -> f64 {
    1.0 - min_of(idx, &g.sm_mhz) / base
}

/// Thermal throttling at sample `i`: a thermal reason bit, a growing thermal violation counter,
/// or HW slowdown within 5 °C of the slowdown temperature.
fn thermal_rule(g: &GpuSeries, i: usize) -> bool {
    let dv = if i > 0 { g.viol_thermal_ns[i] - g.viol_thermal_ns[i - 1] } else { 0.0 };
    has(g.reasons[i], bits::SW_THERMAL | bits::HW_THERMAL) || dv > 0.0 || (has(g.reasons[i], bits::HW_SLOWDOWN) && g.temp_c[i] >= g.slowdown_c[i] - 5.0)
}

/// Power capping at sample `i`: the SW power-cap bit, or a busy GPU within 5 % of its limit.
fn power_rule(g: &GpuSeries, i: usize) -> bool {
    has(g.reasons[i], bits::SW_POWER_CAP) || (g.util_pct[i] >= 50.0 && g.power_w[i] >= 0.95 * g.limit_w[i])
}

/// The evidence of episodes whose only measure is the clock drop.
fn clock_drop_peak(g: &GpuSeries, idx: &[usize], base: f64) -> BTreeMap<String, f64> {
    BTreeMap::from([("sm_clock_drop_share".into(), clock_drop(g, idx, base))])
}

/// Thermal throttling, from reason bits or the thermal violation counter.
fn thermal_throttle(gpus: &[GpuSeries], has_reasons: bool) -> Detection {
    if !(has_reasons || gpus.iter().any(|g| present(&g.viol_thermal_ns))) {
        return Detection::absent(Cause::ThermalThrottle, "detector-thermal");
    }
    per_gpu(
        gpus,
        Cause::ThermalThrottle,
        |g, i, _| thermal_rule(g, i),
        |g, idx, base| {
            let viol: f64 = increments(&g.viol_thermal_ns).iter().enumerate().filter(|(i, _)| idx.contains(i)).map(|(_, d)| d).sum();
            BTreeMap::from([
                ("sm_clock_drop_share".into(), clock_drop(g, idx, base)),
                ("temp_max_c".into(), max_of(idx, &g.temp_c)),
                ("thermal_violation_s".into(), viol / 1e9),
            ])
        },
        |g, i, base| 1.0 - g.sm_mhz[i] / base,
    )
}

/// Power capping, from reason bits or power against its limit.
fn power_cap(gpus: &[GpuSeries], has_reasons: bool) -> Detection {
    if !(has_reasons || gpus.iter().any(|g| present(&g.power_w) && present(&g.limit_w))) {
        return Detection::absent(Cause::PowerCap, "detector-power");
    }
    per_gpu(
        gpus,
        Cause::PowerCap,
        |g, i, _| power_rule(g, i),
        |g, idx, base| {
            let share = idx.iter().map(|&i| g.power_w[i] / g.limit_w[i]).filter(|x| x.is_finite()).fold(f64::NAN, f64::max);
            BTreeMap::from([("power_share_of_limit_max".into(), share), ("sm_clock_drop_share".into(), clock_drop(g, idx, base))])
        },
        |g, i, _| g.power_w[i] / g.limit_w[i],
    )
}

/// The external HW power brake, from its reason bit.
fn hw_power_brake(gpus: &[GpuSeries], has_reasons: bool) -> Detection {
    if !has_reasons {
        return Detection::absent(Cause::HwPowerBrake, "detector-clock-reasons");
    }
    per_gpu(
        gpus,
        Cause::HwPowerBrake,
        |g, i, _| has(g.reasons[i], bits::HW_POWER_BRAKE),
        clock_drop_peak,
        |g, i, _| f64::from(u8::from(has(g.reasons[i], bits::HW_POWER_BRAKE))),
    )
}

/// HW slowdown that neither heat nor the power brake explains.
fn hw_slowdown(gpus: &[GpuSeries], has_reasons: bool) -> Detection {
    if !has_reasons {
        return Detection::absent(Cause::HwSlowdown, "detector-clock-reasons");
    }
    per_gpu(
        gpus,
        Cause::HwSlowdown,
        |g, i, _| has(g.reasons[i], bits::HW_SLOWDOWN) && !thermal_rule(g, i) && !has(g.reasons[i], bits::HW_POWER_BRAKE),
        clock_drop_peak,
        |g, i, _| f64::from(u8::from(has(g.reasons[i], bits::HW_SLOWDOWN))),
    )
}

/// Clocks below 90 % of the baseline under load with no reason bit but idle.
fn clock_change(gpus: &[GpuSeries]) -> Detection {
    if !gpus.iter().any(|g| present(&g.sm_mhz) && present(&g.util_pct)) {
        return Detection::absent(Cause::ClockChange, "detector-clock-util");
    }
    per_gpu(
        gpus,
        Cause::ClockChange,
        |g, i, base| g.util_pct[i] >= 50.0 && g.reasons[i].is_none_or(|r| r & !bits::IDLE == 0) && g.sm_mhz[i] < 0.9 * base,
        clock_drop_peak,
        |g, i, base| 1.0 - g.sm_mhz[i] / base,
    )
}

/// GPU memory at least 95 % used, plus the server's preemptions.
fn memory_pressure(gpus: &[GpuSeries], server: &ServerSeries) -> Detection {
    let mut memory = if gpus.iter().any(|g| present(&g.mem_used) && present(&g.mem_total)) {
        per_gpu(
            gpus,
            Cause::MemoryPressure,
            |g, i, _| g.mem_used[i] >= 0.95 * g.mem_total[i],
            |g, idx, _| BTreeMap::from([("memory_used_share_max".into(), idx.iter().map(|&i| g.mem_used[i] / g.mem_total[i]).fold(f64::NAN, f64::max))]),
            |g, i, _| g.mem_used[i] / g.mem_total[i],
        )
    } else {
        Detection::absent(Cause::MemoryPressure, "detector-memory")
    };
    if let Some(p) = preemptions(server) {
        memory.not_checked = None;
        memory.episodes.extend(p.episodes);
    }
    memory
}

/// Another compute process, or its memory, on the GPU.
fn foreign_process(gpus: &[GpuSeries]) -> Detection {
    if !gpus.iter().any(|g| present(&g.foreign_procs) || present(&g.foreign_mem)) {
        return Detection::absent(Cause::ForeignProcess, "detector-foreign");
    }
    per_gpu(
        gpus,
        Cause::ForeignProcess,
        |g, i, _| g.foreign_procs[i] > 0.0 || g.foreign_mem[i] > 0.0,
        |g, idx, _| {
            BTreeMap::from([
                ("foreign_processes_max".into(), max_of(idx, &g.foreign_procs)),
                ("foreign_memory_gib_max".into(), max_of(idx, &g.foreign_mem) / (1u64 << 30) as f64),
            ])
        },
        |g, i, _| g.foreign_procs[i].max(0.0),
    )
}

/// GPU detectors: thermal, power cap, power brake, HW slowdown, clock change, memory, foreign.
pub fn gpu_detectors(gpus: &[GpuSeries], server: &ServerSeries) -> Vec<Detection> {
    const CAUSES: [Cause; 7] = [Cause::ThermalThrottle, Cause::PowerCap, Cause::HwPowerBrake, Cause::HwSlowdown, Cause::ClockChange, Cause::MemoryPressure, Cause::ForeignProcess];
    if gpus.is_empty() {
        let mut out: Vec<Detection> = CAUSES.iter().map(|c| Detection::absent(*c, "detector-no-gpu")).collect();
        // Memory pressure can still show in the server's preemption counter.
        if let Some(d) = preemptions(server) {
            out[5] = d;
        }
        return out;
    }
    let has_reasons = gpus.iter().any(|g| g.reasons.iter().any(Option::is_some));
    vec![
        thermal_throttle(gpus, has_reasons),
        power_cap(gpus, has_reasons),
        hw_power_brake(gpus, has_reasons),
        hw_slowdown(gpus, has_reasons),
        clock_change(gpus),
        memory_pressure(gpus, server),
        foreign_process(gpus),
    ]
}

/// Memory pressure seen by the server: its preemption counter growing (vLLM recomputes or
/// swaps requests when the KV cache runs out).
fn preemptions(server: &ServerSeries) -> Option<Detection> {
    let (name, s) = server_metric(server, &["vllm:num_preemptions_total", "vllm:num_preemptions"])?;
    let t: Vec<f64> = s.iter().map(|p| p.0).collect();
    let inc = increments(&s.iter().map(|p| p.1).collect::<Vec<_>>());
    let mut d = Detection::checked(Cause::MemoryPressure);
    for (span, idx) in flagged_spans(&t, &inc.iter().map(|x| *x > 0.0).collect::<Vec<_>>(), 2, 2) {
        d.episodes.push(CauseEpisode { span, source: named(name), peak: BTreeMap::from([("preemptions".into(), idx.iter().map(|&i| inc[i]).sum())]) });
    }
    Some(d)
}

/// The request-side client series: send lag and achieved share of the offered rate.
fn series<'s>(s: &'s [WindowSeries], name: &str) -> Option<&'s WindowSeries> {
    s.iter().find(|w| w.name == name)
}

/// The P99 send lag that shows a client behind its schedule, for sends `gap_ms` apart: one gap
/// between sends, and at least 1 ms. A client whose P99 send is a whole gap late has a queue of
/// due sends: it, not the server, set the pace, and the queue grows while the load lasts (a
/// backlog builds: the lag grows with load and over time). A smaller lag at the full rate is
/// timer and scheduling latency that every request bears alike; it delays no later send and
/// limits nothing (a Python client at 10 requests/s keeps its schedule with 10–90 ms of P99 lag
/// on a busy host). Below a millisecond a lag is jitter even at thousands of requests/s.
pub fn behind_schedule_ms(gap_ms: f64) -> f64 {
    gap_ms.max(1.0)
}

/// Client saturation: evidence that the load generator limited the run. Its CPU at its limit
/// (≥ 90 % of a core, or its hottest thread ≥ 95 %), dropped sends, an achieved rate below
/// 90 % of the offered one, or a P99 send lag of at least one gap between sends
/// (`behind_schedule_ms`), from host telemetry and from the requests' schedule.
pub fn client_saturation(hosts: &[HostSeries], windows: &[WindowSeries], mean_interarrival_ms: Option<f64>) -> Detection {
    // The host's lag against the planned gap; without a planned rate, 5 ms (a tenth of the gap
    // at 20 requests/s, the simulator's default).
    let host_lag_limit = mean_interarrival_ms.map_or(5.0, behind_schedule_ms);
    let host_has = hosts.iter().any(|h| present(&h.lg_cpu_pct) || present(&h.lag_p99_ms) || present(&h.planned));
    let lag = series(windows, "send_lag_p99");
    if !host_has && lag.is_none() {
        return Detection::absent(Cause::ClientSaturation, "detector-client");
    }
    let mut d = Detection::checked(Cause::ClientSaturation);
    for h in hosts {
        host_episodes(h, host_lag_limit, &mut d);
    }
    if let (Some(lag), Some(share), Some(offered)) = (lag, series(windows, "achieved_share"), series(windows, "offered_per_s")) {
        // Each window's own gap between scheduled sends (a stepped or swept rate has several).
        let behind: Vec<f64> = (0..lag.t_s.len()).map(|i| lag.values[i] / behind_schedule_ms(1000.0 / offered.values[i])).collect();
        let flags: Vec<bool> = (0..lag.t_s.len()).map(|i| behind[i] >= 1.0 || share.values[i] < 0.9).collect();
        for (span, idx) in flagged_spans(&lag.t_s, &flags, 2, 0) {
            let peak = BTreeMap::from([
                ("send_lag_p99_ms_max".into(), max_of(&idx, &lag.values)),
                ("send_lag_gaps_max".into(), max_of(&idx, &behind)),
                ("achieved_share_min".into(), min_of(&idx, &share.values)),
            ]);
            d.episodes.push(CauseEpisode { span, source: Message::new("source-schedule"), peak });
        }
        if d.signal.t_s.is_empty() {
            d.signal = Signal { t_s: lag.t_s.clone(), values: lag.values.clone() };
        }
    }
    d
}

/// One host's load-generator episodes (CPU at its limit, lag behind the schedule, dropped
/// sends, achieved below planned), and its CPU as the signal when none is set yet.
fn host_episodes(h: &HostSeries, lag_limit: f64, d: &mut Detection) {
    let flags: Vec<bool> = (0..h.t_s.len())
        .map(|i| {
            h.lg_cpu_pct[i] >= 90.0
                || h.lg_thread_pct[i] >= 95.0
                || h.lag_p99_ms[i] >= lag_limit
                || h.dropped[i] > 0.0
                || (h.planned[i] >= 5.0 && h.actual[i] < 0.9 * h.planned[i])
        })
        .collect();
    for (span, idx) in flagged_spans(&h.t_s, &flags, 2, 1) {
        let peak = BTreeMap::from([
            ("lg_cpu_pct_max".into(), max_of(&idx, &h.lg_cpu_pct)),
            ("lg_thread_pct_max".into(), max_of(&idx, &h.lg_thread_pct)),
            ("send_lag_p99_ms_max".into(), max_of(&idx, &h.lag_p99_ms)),
            (
                "achieved_share_min".into(),
                idx.iter().map(|&i| if h.planned[i] > 0.0 { h.actual[i] / h.planned[i] } else { f64::NAN }).filter(|x| x.is_finite()).fold(f64::NAN, f64::min),
            ),
        ]);
        d.episodes.push(CauseEpisode { span, source: Message::new("source-loadgen").text("host", h.host.as_str()), peak });
    }
    if d.signal.t_s.is_empty() && present(&h.lg_cpu_pct) {
        d.signal = Signal { t_s: h.t_s.clone(), values: h.lg_cpu_pct.clone() };
    }
}

/// Network trouble: retransmit ratio above 1 % over 5 samples, or any interface error, drop or
/// listen-queue overflow.
pub fn network(hosts: &[HostSeries]) -> Detection {
    if !hosts.iter().any(|h| present(&h.retrans) || present(&h.net_errs) || present(&h.listen_overflows)) {
        return Detection::absent(Cause::Network, "detector-network");
    }
    let mut d = Detection::checked(Cause::Network);
    for h in hosts {
        let (re, out, errs, drops, over) =
            (increments(&h.retrans), increments(&h.out_segs), increments(&h.net_errs), increments(&h.net_drops), increments(&h.listen_overflows));
        let n = h.t_s.len();
        let ratio: Vec<f64> = (0..n)
            .map(|i| {
                let a = i.saturating_sub(4);
                let (r, o): (f64, f64) = (re[a..=i].iter().sum(), out[a..=i].iter().sum());
                if r >= 3.0 && o > 0.0 { r / o } else { 0.0 }
            })
            .collect();
        let flags: Vec<bool> = (0..n).map(|i| ratio[i] > 0.01 || errs[i] > 0.0 || drops[i] > 0.0 || over[i] > 0.0).collect();
        for (span, idx) in flagged_spans(&h.t_s, &flags, 1, 2) {
            let sum = |v: &[f64]| idx.iter().map(|&i| v[i]).sum::<f64>();
            let peak = BTreeMap::from([
                ("retransmit_ratio_max".into(), max_of(&idx, &ratio)),
                ("interface_errors".into(), sum(&errs)),
                ("interface_drops".into(), sum(&drops)),
                ("listen_overflows".into(), sum(&over)),
            ]);
            d.episodes.push(CauseEpisode { span, source: named(&h.host), peak });
        }
        if d.signal.t_s.is_empty() {
            d.signal = Signal { t_s: h.t_s.clone(), values: ratio };
        }
    }
    d
}

/// Host trouble: CPU steal ≥ 10 %, or a CPU governor other than `performance`.
pub fn host(hosts: &[HostSeries]) -> Detection {
    if !hosts.iter().any(|h| present(&h.steal_pct) || h.governor_performance.iter().any(Option::is_some)) {
        return Detection::absent(Cause::Host, "detector-cpu-steal");
    }
    let mut d = Detection::checked(Cause::Host);
    for h in hosts {
        let flags: Vec<bool> = (0..h.t_s.len()).map(|i| h.steal_pct[i] >= 10.0 || h.governor_performance[i] == Some(false)).collect();
        for (span, idx) in flagged_spans(&h.t_s, &flags, 2, 1) {
            let not_perf = idx.iter().filter(|&&i| h.governor_performance[i] == Some(false)).count();
            let peak = BTreeMap::from([("cpu_steal_pct_max".into(), max_of(&idx, &h.steal_pct)), ("samples_not_performance_governor".into(), not_perf as f64)]);
            d.episodes.push(CauseEpisode { span, source: named(&h.host), peak });
        }
        if d.signal.t_s.is_empty() {
            d.signal = Signal { t_s: h.t_s.clone(), values: h.steal_pct.clone() };
        }
    }
    d
}

/// Server-side queueing: the waiting queue grows well past its usual size, or the KV cache is
/// at least 95 % full. A symptom: reported on its own only when no root cause overlaps it.
pub fn server_queueing(server: &ServerSeries) -> Detection {
    let waiting = server_metric(server, &["vllm:num_requests_waiting", "sglang:num_queue_reqs", "tgi_queue_size"]);
    let kv = server_metric(server, &["vllm:gpu_cache_usage_perc", "vllm:kv_cache_usage_perc", "sglang:token_usage"]);
    if waiting.is_none() && kv.is_none() {
        return Detection::absent(Cause::ServerQueueing, "detector-server");
    }
    let mut d = Detection { symptom: true, ..Detection::checked(Cause::ServerQueueing) };
    if let Some((name, s)) = waiting {
        let t: Vec<f64> = s.iter().map(|p| p.0).collect();
        let v: Vec<f64> = s.iter().map(|p| p.1).collect();
        let usual = quantile_unsorted(&v, 0.5).unwrap_or(0.0).max(1.0);
        let flags: Vec<bool> = v.iter().map(|x| *x >= 3.0 * usual && *x >= 3.0).collect();
        for (span, idx) in flagged_spans(&t, &flags, 3, 1) {
            d.episodes.push(CauseEpisode {
                span,
                source: named(name),
                peak: BTreeMap::from([("waiting_requests_max".into(), max_of(&idx, &v)), ("waiting_requests_usual".into(), usual)]),
            });
        }
        d.signal = Signal { t_s: t, values: v };
    }
    if let Some((name, s)) = kv {
        let t: Vec<f64> = s.iter().map(|p| p.0).collect();
        // Engines report the share as 0–1 (vLLM) or as a percentage; normalise to 0–1.
        let scale = if s.iter().any(|p| p.1 > 1.5) { 0.01 } else { 1.0 };
        let v: Vec<f64> = s.iter().map(|p| p.1 * scale).collect();
        for (span, idx) in flagged_spans(&t, &v.iter().map(|x| *x >= 0.95).collect::<Vec<_>>(), 2, 1) {
            d.episodes.push(CauseEpisode { span, source: named(name), peak: BTreeMap::from([("kv_cache_used_share_max".into(), max_of(&idx, &v))]) });
        }
    }
    d
}

/// Overload: the open loop offered more than the server completed (`overload::load` decides,
/// with its interval); the episode runs from the queue's onset to the last send.
pub fn overload(load: Option<&crate::overload::Load>) -> Detection {
    let Some(l) = load else { return Detection::absent(Cause::Overload, "detector-no-requests") };
    match l.verdict.as_str() {
        "closed_loop" => Detection::absent(Cause::Overload, "detector-overload-closed"),
        "not_applicable" => Detection::absent(Cause::Overload, "detector-overload-unknown"),
        _ => {
            let mut d = Detection::checked(Cause::Overload);
            if l.overloaded() {
                let span = Span { start_s: l.onset_s.unwrap_or(l.from_s), end_s: l.to_s };
                d.episodes.push(CauseEpisode { span, source: Message::new("source-requests"), peak: BTreeMap::new() });
            }
            d
        }
    }
}

/// Error bursts: windows whose error share is far above the run's usual share.
pub fn error_burst(windows: &[WindowSeries], steady: &Span, kinds_in: impl Fn(&Span) -> BTreeMap<String, f64>) -> Detection {
    let Some(s) = series(windows, "error_fraction") else {
        return Detection::absent(Cause::ErrorBurst, "detector-no-requests");
    };
    let mut d = Detection::checked(Cause::ErrorBurst);
    if let Some(base) = baseline(s, steady) {
        let z = z_scores(s, base);
        for (span, idx) in flagged_spans(&s.t_s, &z.iter().map(|z| *z > super::anomalies::Z_LIMIT).collect::<Vec<_>>(), 2, 1) {
            let mut peak = kinds_in(&span);
            peak.insert("error_share_max".into(), max_of(&idx, &s.values));
            d.episodes.push(CauseEpisode { span, source: Message::new("source-requests"), peak });
        }
    }
    d.signal = Signal { t_s: s.t_s.clone(), values: s.values.clone() };
    d
}

/// Ramp-down: the send rate falls below half its steady level and stays there to the end of
/// the load (`run_end_s`: the planned end, so sends that stop early count as a ramp-down, or
/// the last send).
pub fn ramp_down(windows: &[WindowSeries], steady: &Span, run_end_s: f64) -> Detection {
    let Some(s) = series(windows, "sent_per_s") else {
        return Detection::absent(Cause::RampDown, "detector-no-requests");
    };
    let mut d = Detection::checked(Cause::RampDown);
    let dt = sample_interval(&s.t_s);
    // Only whole windows: the final partial window always looks slow.
    let full: Vec<usize> = (0..s.t_s.len()).filter(|&i| s.t_s[i] + dt <= run_end_s + 1e-9).collect();
    let Some(level) = baseline(s, steady).map(|b| b.0) else {
        return d;
    };
    let low = |i: usize| s.values[i] < 0.5 * level;
    let tail = full.iter().rev().take_while(|&&i| low(i)).count();
    if tail >= 2 && level > 0.0 {
        // Start where the rate first fell below 80 % of the level, going back from the tail.
        let mut first = full[full.len() - tail];
        while first > 0 && s.values[first - 1] < 0.8 * level {
            first -= 1;
        }
        let span = Span { start_s: s.t_s[first], end_s: run_end_s.max(s.t_s[first]) };
        d.episodes.push(CauseEpisode {
            span,
            source: Message::new("source-requests"),
            peak: BTreeMap::from([("send_rate_share_min".into(), full[full.len() - tail..].iter().map(|&i| s.values[i] / level).fold(f64::NAN, f64::min))]),
        });
    }
    d.signal = Signal { t_s: s.t_s.clone(), values: s.values.clone() };
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A governor other than `performance` for a stretch of samples is a host episode, counted
    /// in its evidence; samples without a governor recorded are not.
    #[test]
    fn a_governor_other_than_performance_is_a_host_episode() {
        let n = 60;
        let governor_performance = (0..n).map(|i| if i < 10 { None } else { Some(!(30..40).contains(&i)) }).collect();
        let h = HostSeries {
            host: "node-0".into(),
            t_s: (0..n).map(f64::from).collect(),
            steal_pct: vec![0.0; n as usize],
            governor_performance,
            ..Default::default()
        };
        let d = host(&[h]);
        assert!(d.not_checked.is_none());
        assert_eq!(d.episodes.len(), 1, "{:?}", d.episodes);
        let e = &d.episodes[0];
        assert!(e.span.start_s >= 29.0 && e.span.start_s <= 30.0 && e.span.end_s >= 39.0 && e.span.end_s <= 41.0, "{:?}", e.span);
        assert_eq!(e.peak["samples_not_performance_governor"], 10.0);
        let idle =
            HostSeries { host: "node-0".into(), t_s: vec![0.0, 1.0], steal_pct: vec![f64::NAN; 2], governor_performance: vec![None; 2], ..Default::default() };
        assert!(host(&[idle]).not_checked.is_some(), "nothing recorded: not checked");
    }

    /// The request-side client series of a run at 10 requests/s: `lag` P99 send lag (ms) and
    /// `share` achieved share per 5-s window.
    fn schedule_windows(lag: &[f64], share: &[f64]) -> Vec<WindowSeries> {
        let t_s: Vec<f64> = (0..lag.len()).map(|i| 5.0 * i as f64).collect();
        let s = |name, values: Vec<f64>| WindowSeries { name, t_s: t_s.clone(), values, worse: 1.0 };
        vec![s("send_lag_p99", lag.to_vec()), s("achieved_share", share.to_vec()), s("offered_per_s", vec![10.0; lag.len()])]
    }

    /// A client that keeps its full rate with a small, steady lag is not its own bottleneck; one
    /// a whole gap between sends behind (a queue of due sends), or short of the offered rate, is.
    #[test]
    fn client_saturation_needs_a_client_behind_its_schedule() {
        let n = 24;
        // guidellm 0.8.1 at 10 requests/s on a busy host: 100 % of the schedule, P99 lag 3-16 ms.
        let steady_lag: Vec<f64> = (0..n).map(|i| 3.0 + 13.3 * ((i * 7) % 5) as f64 / 4.0).collect();
        let d = client_saturation(&[], &schedule_windows(&steady_lag, &vec![1.0; n]), Some(100.0));
        assert!(d.not_checked.is_none() && d.episodes.is_empty(), "{:?}", d.episodes);
        // A backlog from 40 s to 60 s: the lag passes the 100-ms gap at the full rate.
        let mut backlog = steady_lag.clone();
        backlog[8..12].copy_from_slice(&[120.0, 450.0, 900.0, 300.0]);
        let d = client_saturation(&[], &schedule_windows(&backlog, &vec![1.0; n]), Some(100.0));
        assert_eq!(d.episodes.len(), 1, "{:?}", d.episodes);
        assert_eq!((d.episodes[0].span.start_s, d.episodes[0].span.end_s), (40.0, 60.0));
        assert_eq!(d.episodes[0].peak["send_lag_gaps_max"], 9.0);
        // Sends short of the schedule with a small lag (a client that skips sends): still found.
        let mut share = vec![1.0; n];
        share[14..17].copy_from_slice(&[0.8, 0.85, 0.7]);
        let d = client_saturation(&[], &schedule_windows(&steady_lag, &share), Some(100.0));
        assert_eq!(d.episodes.len(), 1, "{:?}", d.episodes);
        assert_eq!(d.episodes[0].peak["achieved_share_min"], 0.7);
    }

    /// At thousands of requests/s one gap is under a millisecond: the limit stays at 1 ms.
    #[test]
    fn the_lag_limit_is_one_gap_and_at_least_a_millisecond() {
        assert_eq!(behind_schedule_ms(100.0), 100.0);
        assert_eq!(behind_schedule_ms(0.2), 1.0);
    }
}
