//! Telemetry tables as per-device time series on the request timeline.
//!
//! Every sample time becomes seconds from the run's first send (`RequestView::t0_ns`), so GPU,
//! host and server samples line up with the request windows. Clocks are not trusted to agree
//! to the second (a 1 s nvidia-smi loop drifts by ~0.2 s per sample and hosts' clocks differ),
//! so the detectors compare episodes with a tolerance (`ALIGN_TOLERANCE_S`) rather than
//! joining samples exactly.

use std::collections::BTreeMap;

use arrow_array::{Array, StringArray};

use credence_run::Table;

/// Tolerance when matching telemetry episodes to request-timeline episodes.
pub const ALIGN_TOLERANCE_S: f64 = 2.0;

/// The telemetry tables a run carries (any may be absent).
#[derive(Debug, Clone, Copy, Default)]
pub struct Telemetry<'a> {
    pub gpu: Option<&'a Table>,
    pub host: Option<&'a Table>,
    pub server: Option<&'a Table>,
}

impl<'a> Telemetry<'a> {
    pub fn none() -> Telemetry<'a> {
        Telemetry::default()
    }

    pub fn of(run: &'a credence_run::Run) -> Telemetry<'a> {
        Telemetry { gpu: run.gpu.as_ref(), host: run.host.as_ref(), server: run.server.as_ref() }
    }
}

/// Telemetry as per-device series on the request timeline: all that the analysis reads of it.
/// Built once from the tables, so that a caller can free them before the analysis (a 93-hour
/// run's GPU and host tables hold about 0.5 GB; their series about a third of that).
#[derive(Debug, Clone, Default)]
pub struct TelemetrySeries {
    pub gpus: Vec<GpuSeries>,
    pub hosts: Vec<HostSeries>,
    pub server: ServerSeries,
}

impl TelemetrySeries {
    /// The series of every table present, with times in seconds from `t0_ns` (the first send).
    pub fn of(t: &Telemetry<'_>, t0_ns: i64) -> TelemetrySeries {
        TelemetrySeries {
            gpus: t.gpu.map(|t| gpu_series(t, t0_ns)).unwrap_or_default(),
            hosts: t.host.map(|t| host_series(t, t0_ns)).unwrap_or_default(),
            server: t.server.map(|t| server_series(t, t0_ns)).unwrap_or_default(),
        }
    }
}

/// The columns `gpu_series`, `host_series` and `server_series` read, so that a loader can decode
/// only these (`run::Projection`; a test checks the series come out the same).
pub const GPU_COLUMNS: &[&str] = &[
    "ts_ns",
    "host",
    "gpu_uuid",
    "gpu_index",
    "sm_clock_mhz",
    "sm_clock_max_mhz",
    "clocks_event_reasons",
    "temp_gpu_c",
    "temp_slowdown_c",
    "power_w",
    "enforced_power_limit_w",
    "power_limit_w",
    "util_gpu_pct",
    "mem_used_bytes",
    "mem_total_bytes",
    "viol_power_ns",
    "viol_thermal_ns",
    "foreign_proc_count",
    "foreign_mem_bytes",
];
pub const HOST_COLUMNS: &[&str] = &[
    "ts_ns",
    "host",
    "cpu_steal_pct",
    "cpu_governor",
    "lg_cpu_pct",
    "lg_max_thread_cpu_pct",
    "lg_send_lag_p99_ms",
    "lg_planned_sends",
    "lg_actual_sends",
    "lg_dropped_sends",
    "tcp_out_segs",
    "tcp_retrans_segs",
    "net_errs",
    "net_drops",
    "tcp_listen_overflows",
];
pub const SERVER_COLUMNS: &[&str] = &["ts_ns", "metric", "value"];

/// One GPU's samples, in time order. Missing values are NaN (or None for the bitmask).
#[derive(Debug, Clone, Default)]
pub struct GpuSeries {
    pub label: String,
    pub t_s: Vec<f64>,
    pub sm_mhz: Vec<f64>,
    pub sm_max_mhz: Vec<f64>,
    pub reasons: Vec<Option<u64>>,
    pub temp_c: Vec<f64>,
    pub slowdown_c: Vec<f64>,
    pub power_w: Vec<f64>,
    /// Enforced limit where known, else the software limit.
    pub limit_w: Vec<f64>,
    pub util_pct: Vec<f64>,
    pub mem_used: Vec<f64>,
    pub mem_total: Vec<f64>,
    pub viol_power_ns: Vec<f64>,
    pub viol_thermal_ns: Vec<f64>,
    pub foreign_procs: Vec<f64>,
    pub foreign_mem: Vec<f64>,
}

/// One host's samples, in time order.
#[derive(Debug, Clone, Default)]
pub struct HostSeries {
    pub host: String,
    pub t_s: Vec<f64>,
    pub steal_pct: Vec<f64>,
    /// Whether the CPU governor was `performance` (None where not recorded): all the host
    /// detector asks of it, without a string per sample.
    pub governor_performance: Vec<Option<bool>>,
    pub lg_cpu_pct: Vec<f64>,
    pub lg_thread_pct: Vec<f64>,
    pub lag_p99_ms: Vec<f64>,
    pub planned: Vec<f64>,
    pub actual: Vec<f64>,
    pub dropped: Vec<f64>,
    pub out_segs: Vec<f64>,
    pub retrans: Vec<f64>,
    pub net_errs: Vec<f64>,
    pub net_drops: Vec<f64>,
    pub listen_overflows: Vec<f64>,
}

/// Server metrics by name: (t_s, value) in time order, summed over label sets per scrape.
pub type ServerSeries = BTreeMap<String, Vec<(f64, f64)>>;

fn seconds(ts: Option<i64>, t0_ns: i64) -> f64 {
    ts.map_or(f64::NAN, |t| (t - t0_ns) as f64 / 1e9)
}

fn f(col: Option<&[Option<f64>]>, i: usize) -> f64 {
    col.and_then(|c| c[i]).unwrap_or(f64::NAN)
}

fn u(col: Option<&[Option<u32>]>, i: usize) -> f64 {
    col.and_then(|c| c[i]).map_or(f64::NAN, f64::from)
}

fn u64v(col: Option<&[Option<u64>]>, i: usize) -> f64 {
    col.and_then(|c| c[i]).map_or(f64::NAN, |v| v as f64)
}

/// The string at row `i` of a column, when present and not null.
fn str_at(col: Option<&StringArray>, i: usize) -> Option<&str> {
    col.filter(|c| !c.is_null(i)).map(|c| c.value(i))
}

/// Groups row indices by a key column (a missing key is ""), each group sorted by time. Keys
/// borrow from the table: a 93-hour capture has a million rows and a handful of keys.
fn groups<'t>(t: &'t Table, key: &str, ts: &[Option<i64>]) -> BTreeMap<&'t str, Vec<usize>> {
    let keys = t.strings(key);
    let mut out: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, at) in ts.iter().enumerate().take(t.num_rows()) {
        if at.is_some() {
            out.entry(str_at(keys, i).unwrap_or_default()).or_default().push(i);
        }
    }
    for rows in out.values_mut() {
        rows.sort_by_key(|&i| ts[i]);
    }
    out
}

/// The GPU table's columns that `gpu_series` reads, looked up once: a lookup by name scans
/// the schema, too slow to repeat for every field of every sample.
struct GpuColumns<'t> {
    sm_mhz: Option<&'t [Option<u32>]>,
    sm_max_mhz: Option<&'t [Option<u32>]>,
    reasons: Option<&'t [Option<u64>]>,
    temp_c: Option<&'t [Option<f64>]>,
    slowdown_c: Option<&'t [Option<f64>]>,
    power_w: Option<&'t [Option<f64>]>,
    enforced_w: Option<&'t [Option<f64>]>,
    limit_w: Option<&'t [Option<f64>]>,
    util_pct: Option<&'t [Option<f64>]>,
    mem_used: Option<&'t [Option<u64>]>,
    mem_total: Option<&'t [Option<u64>]>,
    viol_power_ns: Option<&'t [Option<u64>]>,
    viol_thermal_ns: Option<&'t [Option<u64>]>,
    foreign_procs: Option<&'t [Option<u32>]>,
    foreign_mem: Option<&'t [Option<u64>]>,
}

impl<'t> GpuColumns<'t> {
    fn of(t: &'t Table) -> GpuColumns<'t> {
        GpuColumns {
            sm_mhz: t.u32s("sm_clock_mhz"),
            sm_max_mhz: t.u32s("sm_clock_max_mhz"),
            reasons: t.u64s("clocks_event_reasons"),
            temp_c: t.f64s("temp_gpu_c"),
            slowdown_c: t.f64s("temp_slowdown_c"),
            power_w: t.f64s("power_w"),
            enforced_w: t.f64s("enforced_power_limit_w"),
            limit_w: t.f64s("power_limit_w"),
            util_pct: t.f64s("util_gpu_pct"),
            mem_used: t.u64s("mem_used_bytes"),
            mem_total: t.u64s("mem_total_bytes"),
            viol_power_ns: t.u64s("viol_power_ns"),
            viol_thermal_ns: t.u64s("viol_thermal_ns"),
            foreign_procs: t.u32s("foreign_proc_count"),
            foreign_mem: t.u64s("foreign_mem_bytes"),
        }
    }

    /// Appends row `i`'s sample (its time already pushed) to `g`.
    fn push(&self, g: &mut GpuSeries, i: usize) {
        g.sm_mhz.push(u(self.sm_mhz, i));
        g.sm_max_mhz.push(u(self.sm_max_mhz, i));
        g.reasons.push(self.reasons.and_then(|c| c[i]));
        g.temp_c.push(f(self.temp_c, i));
        g.slowdown_c.push(f(self.slowdown_c, i));
        g.power_w.push(f(self.power_w, i));
        let e = f(self.enforced_w, i);
        g.limit_w.push(if e.is_finite() { e } else { f(self.limit_w, i) });
        g.util_pct.push(f(self.util_pct, i));
        g.mem_used.push(u64v(self.mem_used, i));
        g.mem_total.push(u64v(self.mem_total, i));
        g.viol_power_ns.push(u64v(self.viol_power_ns, i));
        g.viol_thermal_ns.push(u64v(self.viol_thermal_ns, i));
        g.foreign_procs.push(u(self.foreign_procs, i));
        g.foreign_mem.push(u64v(self.foreign_mem, i));
    }
}

/// Per-GPU series, keyed and labelled by host and GPU uuid. The host is part of the key
/// because captures without uuids (dmon) name GPUs by index, the same on every host.
pub fn gpu_series(t: &Table, t0_ns: i64) -> Vec<GpuSeries> {
    let Some(ts) = t.timestamps("ts_ns") else {
        return Vec::new();
    };
    let hosts = t.strings("host");
    let mut by_host: BTreeMap<&str, BTreeMap<&str, Vec<usize>>> = BTreeMap::new();
    for (uuid, rows) in groups(t, "gpu_uuid", ts) {
        for i in rows {
            by_host.entry(str_at(hosts, i).unwrap_or_default()).or_default().entry(uuid).or_default().push(i);
        }
    }
    let index = t.u32s("gpu_index");
    let mut keyed: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (host, gpus) in by_host {
        for (uuid, rows) in gpus {
            let index = rows.first().and_then(|&i| index.and_then(|c| c[i])).unwrap_or(0);
            keyed.insert(format!("{host} GPU {index} ({uuid})"), rows);
        }
    }
    let columns = GpuColumns::of(t);
    keyed
        .into_iter()
        .map(|(label, rows)| {
            let mut g = GpuSeries { label, ..Default::default() };
            for i in rows {
                g.t_s.push(seconds(ts[i], t0_ns));
                columns.push(&mut g, i);
            }
            g
        })
        .collect()
}

/// The host table's columns that `host_series` reads, looked up once (see `GpuColumns`).
struct HostColumns<'t> {
    steal_pct: Option<&'t [Option<f64>]>,
    governor: Option<&'t StringArray>,
    lg_cpu_pct: Option<&'t [Option<f64>]>,
    lg_thread_pct: Option<&'t [Option<f64>]>,
    lag_p99_ms: Option<&'t [Option<f64>]>,
    planned: Option<&'t [Option<u64>]>,
    actual: Option<&'t [Option<u64>]>,
    dropped: Option<&'t [Option<u64>]>,
    out_segs: Option<&'t [Option<u64>]>,
    retrans: Option<&'t [Option<u64>]>,
    net_errs: Option<&'t [Option<u64>]>,
    net_drops: Option<&'t [Option<u64>]>,
    listen_overflows: Option<&'t [Option<u64>]>,
}

impl<'t> HostColumns<'t> {
    fn of(t: &'t Table) -> HostColumns<'t> {
        HostColumns {
            steal_pct: t.f64s("cpu_steal_pct"),
            governor: t.strings("cpu_governor"),
            lg_cpu_pct: t.f64s("lg_cpu_pct"),
            lg_thread_pct: t.f64s("lg_max_thread_cpu_pct"),
            lag_p99_ms: t.f64s("lg_send_lag_p99_ms"),
            planned: t.u64s("lg_planned_sends"),
            actual: t.u64s("lg_actual_sends"),
            dropped: t.u64s("lg_dropped_sends"),
            out_segs: t.u64s("tcp_out_segs"),
            retrans: t.u64s("tcp_retrans_segs"),
            net_errs: t.u64s("net_errs"),
            net_drops: t.u64s("net_drops"),
            listen_overflows: t.u64s("tcp_listen_overflows"),
        }
    }

    /// Appends row `i`'s sample (its time already pushed) to `h`.
    fn push(&self, h: &mut HostSeries, i: usize) {
        h.steal_pct.push(f(self.steal_pct, i));
        h.governor_performance.push(str_at(self.governor, i).map(|g| g == "performance"));
        h.lg_cpu_pct.push(f(self.lg_cpu_pct, i));
        h.lg_thread_pct.push(f(self.lg_thread_pct, i));
        h.lag_p99_ms.push(f(self.lag_p99_ms, i));
        h.planned.push(u64v(self.planned, i));
        h.actual.push(u64v(self.actual, i));
        h.dropped.push(u64v(self.dropped, i));
        h.out_segs.push(u64v(self.out_segs, i));
        h.retrans.push(u64v(self.retrans, i));
        h.net_errs.push(u64v(self.net_errs, i));
        h.net_drops.push(u64v(self.net_drops, i));
        h.listen_overflows.push(u64v(self.listen_overflows, i));
    }
}

/// Per-host series.
pub fn host_series(t: &Table, t0_ns: i64) -> Vec<HostSeries> {
    let Some(ts) = t.timestamps("ts_ns") else {
        return Vec::new();
    };
    let columns = HostColumns::of(t);
    groups(t, "host", ts)
        .into_iter()
        .map(|(host, rows)| {
            let mut h = HostSeries { host: host.to_string(), ..Default::default() };
            for i in rows {
                h.t_s.push(seconds(ts[i], t0_ns));
                columns.push(&mut h, i);
            }
            h
        })
        .collect()
}

/// Server metrics by name (several label sets at one scrape time are summed).
pub fn server_series(t: &Table, t0_ns: i64) -> ServerSeries {
    let (Some(ts), Some(names), Some(values)) = (t.timestamps("ts_ns"), t.strings("metric"), t.f64s("value")) else {
        return BTreeMap::new();
    };
    let mut acc: BTreeMap<&str, BTreeMap<i64, f64>> = BTreeMap::new();
    for i in 0..t.num_rows() {
        if let (Some(at), Some(v), false) = (ts[i], values[i], names.is_null(i)) {
            *acc.entry(names.value(i)).or_default().entry(at).or_default() += v;
        }
    }
    acc.into_iter().map(|(k, m)| (k.to_string(), m.into_iter().map(|(at, v)| ((at - t0_ns) as f64 / 1e9, v)).collect())).collect()
}

/// The first series whose name matches one of `names` (engines name the same gauge differently).
pub fn server_metric<'s>(s: &'s ServerSeries, names: &[&str]) -> Option<(&'s str, &'s [(f64, f64)])> {
    names.iter().find_map(|n| s.get_key_value(*n).map(|(k, v)| (k.as_str(), v.as_slice())))
}

/// Per-sample increments of a cumulative counter; resets (decreases) and gaps count as 0.
pub fn increments(counter: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; counter.len()];
    for i in 1..counter.len() {
        let d = counter[i] - counter[i - 1];
        out[i] = if d.is_finite() && d > 0.0 { d } else { 0.0 };
    }
    out
}

/// Whether a column has any finite value.
pub fn present(v: &[f64]) -> bool {
    v.iter().any(|x| x.is_finite())
}
