//! Telemetry timelines for the report's panels: each GPU's clocks, temperature, power,
//! utilization and memory, and each host's load-generator CPU, send lag and retransmits,
//! averaged into at most `MAX_POINTS` points so the JSON stays small on long runs.

use serde::{Deserialize, Serialize};

use super::signals::{GpuSeries, HostSeries, increments};

const MAX_POINTS: usize = 600;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GpuTimeline {
    pub label: String,
    pub t_s: Vec<f64>,
    pub sm_clock_mhz: Vec<Option<f64>>,
    pub sm_clock_max_mhz: Option<f64>,
    pub temp_c: Vec<Option<f64>>,
    pub slowdown_c: Option<f64>,
    pub power_w: Vec<Option<f64>>,
    pub power_limit_w: Vec<Option<f64>>,
    pub util_pct: Vec<Option<f64>>,
    pub memory_used_share: Vec<Option<f64>>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct HostTimeline {
    pub host: String,
    pub t_s: Vec<f64>,
    pub lg_cpu_pct: Vec<Option<f64>>,
    pub lg_thread_pct: Vec<Option<f64>>,
    pub send_lag_p99_ms: Vec<Option<f64>>,
    /// TCP segments retransmitted per second.
    pub retransmits_per_s: Vec<Option<f64>>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct TelemetryTimeline {
    pub gpus: Vec<GpuTimeline>,
    pub hosts: Vec<HostTimeline>,
}

/// Bucket means of `v` (NaN skipped; None where a bucket has no value).
fn reduce(t: &[f64], v: &[f64]) -> (Vec<f64>, Vec<Option<f64>>) {
    let n = t.len();
    let step = n.div_ceil(MAX_POINTS).max(1);
    let mut ts = Vec::new();
    let mut out = Vec::new();
    for chunk in (0..n).collect::<Vec<_>>().chunks(step) {
        ts.push(t[chunk[0]]);
        let vals: Vec<f64> = chunk.iter().map(|&i| v[i]).filter(|x| x.is_finite()).collect();
        out.push((!vals.is_empty()).then(|| vals.iter().sum::<f64>() / vals.len() as f64));
    }
    (ts, out)
}

fn constant(v: &[f64]) -> Option<f64> {
    v.iter().copied().filter(|x| x.is_finite()).fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
}

pub fn timeline(gpus: &[GpuSeries], hosts: &[HostSeries]) -> TelemetryTimeline {
    let gpus = gpus
        .iter()
        .map(|g| {
            let (t_s, sm) = reduce(&g.t_s, &g.sm_mhz);
            let share: Vec<f64> = g.mem_used.iter().zip(&g.mem_total).map(|(u, t)| u / t).collect();
            GpuTimeline {
                label: g.label.clone(),
                sm_clock_mhz: sm,
                sm_clock_max_mhz: constant(&g.sm_max_mhz),
                temp_c: reduce(&g.t_s, &g.temp_c).1,
                slowdown_c: constant(&g.slowdown_c),
                power_w: reduce(&g.t_s, &g.power_w).1,
                power_limit_w: reduce(&g.t_s, &g.limit_w).1,
                util_pct: reduce(&g.t_s, &g.util_pct).1,
                memory_used_share: reduce(&g.t_s, &share).1,
                t_s,
            }
        })
        .collect();
    let hosts = hosts
        .iter()
        .map(|h| {
            let (t_s, cpu) = reduce(&h.t_s, &h.lg_cpu_pct);
            let dt: Vec<f64> = (0..h.t_s.len()).map(|i| if i == 0 { f64::NAN } else { h.t_s[i] - h.t_s[i - 1] }).collect();
            let re: Vec<f64> = increments(&h.retrans).iter().zip(&dt).map(|(r, d)| if *d > 0.0 { r / d } else { f64::NAN }).collect();
            HostTimeline {
                host: h.host.clone(),
                lg_cpu_pct: cpu,
                lg_thread_pct: reduce(&h.t_s, &h.lg_thread_pct).1,
                send_lag_p99_ms: reduce(&h.t_s, &h.lag_p99_ms).1,
                retransmits_per_s: reduce(&h.t_s, &re).1,
                t_s,
            }
        })
        .collect();
    TelemetryTimeline { gpus, hosts }
}
