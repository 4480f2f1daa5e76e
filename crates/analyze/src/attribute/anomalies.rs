//! Anomaly episodes on the request timeline: windows where latency, throughput, errors or the
//! client's own send lag leave their steady baseline.
//!
//! Each series is cut into windows of `window_s` seconds. The baseline is the median of the
//! windows inside the steady window, and the scale is 1.4826 × their MAD (a robust SD), so the
//! episode itself cannot inflate the yardstick it is measured with. A window is anomalous when
//! its robust z-score in the bad direction exceeds `Z_LIMIT`; an episode needs two consecutive
//! anomalous windows (one slow window is within the noise of a heavy-tailed system).

use serde::{Deserialize, Serialize};

use super::episodes::{Span, flagged_spans};
use crate::requests::RequestView;
use credence_stats::quantile::quantile_in_place;

/// Robust z-score beyond which a window is anomalous.
pub const Z_LIMIT: f64 = 3.5;
/// Fewest requests for a window's median to count.
const MIN_REQUESTS: usize = 5;

/// A per-window series of one request metric.
#[derive(Debug, Clone)]
pub struct WindowSeries {
    pub name: &'static str,
    /// Window start times, seconds from the first send.
    pub t_s: Vec<f64>,
    /// NaN where the window had too few requests.
    pub values: Vec<f64>,
    /// +1 when higher is worse (latency, errors), −1 when lower is worse (throughput).
    pub worse: f64,
}

/// An anomaly episode: when, which series, and how far from the baseline.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Anomaly {
    pub start_s: f64,
    pub end_s: f64,
    pub series: String,
    /// Largest robust z-score in the bad direction.
    pub peak_z: f64,
    /// Worst window's value relative to the baseline (e.g. 0.4 = 40 % worse); none when the
    /// baseline is zero (errors where there were none), which no ratio describes.
    pub peak_relative: Option<f64>,
    pub baseline: f64,
}

impl Anomaly {
    pub fn span(&self) -> Span {
        Span { start_s: self.start_s, end_s: self.end_s }
    }

    /// The peak's change for a sentence: `+58 %`, or `above a zero baseline`.
    pub fn peak_change_text(&self) -> String {
        self.peak_relative.map_or_else(|| "above a zero baseline".into(), |r| format!("{:+.0} %", r * 100.0))
    }
}

fn median(v: &[f64]) -> Option<f64> {
    let mut f: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    quantile_in_place(&mut f, 0.5)
}

/// Requests (indices) by window of their send; how many end, and end well, in each window.
struct WindowIndex {
    k: usize,
    window_s: f64,
    by_send: Vec<Vec<u32>>,
    ends: Vec<u64>,
    ok_ends: Vec<u64>,
}

impl WindowIndex {
    /// Indexes the run's requests into `k` windows of `window_s`.
    fn new(r: &RequestView, window_s: f64, k: usize) -> WindowIndex {
        let mut w = WindowIndex { k, window_s, by_send: Vec::new(), ends: vec![0; k], ok_ends: vec![0; k] };
        let (by_send, (ends, ok_ends)) = rayon::join(|| w.by_window(&r.sent_s), || w.count_ends(r));
        (w.by_send, w.ends, w.ok_ends) = (by_send, ends, ok_ends);
        w
    }

    /// Requests ending in each window, all and successful.
    fn count_ends(&self, r: &RequestView) -> (Vec<u64>, Vec<u64>) {
        let (mut ends, mut ok_ends) = (vec![0u64; self.k], vec![0u64; self.k]);
        for (i, &t) in r.end_s.iter().enumerate() {
            if let Some(w) = self.at(t) {
                ends[w] += 1;
                ok_ends[w] += u64::from(r.ok[i]);
            }
        }
        (ends, ok_ends)
    }

    /// The window of time `t`; times past the end fall in the last window.
    fn at(&self, t: f64) -> Option<usize> {
        (t.is_finite() && t >= 0.0).then(|| ((t / self.window_s) as usize).min(self.k - 1))
    }

    /// The requests whose `times` fall in each window.
    fn by_window(&self, times: &[f64]) -> Vec<Vec<u32>> {
        crate::windows::bucket_by(times, self.k, |t| self.at(t))
    }

    /// Window start times.
    fn starts(&self) -> Vec<f64> {
        (0..self.k).map(|w| w as f64 * self.window_s).collect()
    }
}

/// Percentile `p` of `col` over each window's requests; NaN with fewer than `MIN_REQUESTS`.
fn percentile_series(windows: &[Vec<u32>], col: &[f64], p: f64) -> Vec<f64> {
    let mut v = Vec::new();
    windows
        .iter()
        .map(|idx| {
            v.clear();
            v.extend(idx.iter().map(|&i| col[i as usize]).filter(|x| x.is_finite()));
            if v.len() < MIN_REQUESTS { f64::NAN } else { quantile_in_place(&mut v, p).unwrap_or(f64::NAN) }
        })
        .collect()
}

/// Latency, throughput, send-rate and error series of every run.
fn request_series(r: &RequestView, w: &WindowIndex) -> Vec<WindowSeries> {
    let t_s = w.starts();
    let window_s = w.window_s;
    let (ttft_p50, tpot_p50) = rayon::join(|| percentile_series(&w.by_send, &r.ttft_ms, 0.5), || percentile_series(&w.by_send, &r.tpot_ms, 0.5));
    vec![
        WindowSeries { name: "ttft_p50", t_s: t_s.clone(), values: ttft_p50, worse: 1.0 },
        WindowSeries { name: "tpot_p50", t_s: t_s.clone(), values: tpot_p50, worse: 1.0 },
        WindowSeries { name: "requests_per_s", t_s: t_s.clone(), values: w.ok_ends.iter().map(|&n| n as f64 / window_s).collect(), worse: -1.0 },
        WindowSeries { name: "sent_per_s", t_s: t_s.clone(), values: w.by_send.iter().map(|b| b.len() as f64 / window_s).collect(), worse: -1.0 },
        WindowSeries {
            name: "error_fraction",
            t_s,
            values: w.ends.iter().zip(&w.ok_ends).map(|(&n, &ok)| if (n as usize) < MIN_REQUESTS { f64::NAN } else { (n - ok) as f64 / n as f64 }).collect(),
            worse: 1.0,
        },
    ]
}

/// The client's send lag, achieved share of the offered rate and the offered rate itself
/// (open loop only).
fn schedule_series(r: &RequestView, w: &WindowIndex) -> [WindowSeries; 3] {
    let by_sched = w.by_window(&r.scheduled_s);
    let t_s = w.starts();
    let offered_per_s = by_sched.iter().map(|b| if b.len() < MIN_REQUESTS { f64::NAN } else { b.len() as f64 / w.window_s }).collect();
    [
        WindowSeries { name: "offered_per_s", t_s: t_s.clone(), values: offered_per_s, worse: -1.0 },
        WindowSeries {
            name: "send_lag_p99",
            t_s: t_s.clone(),
            values: percentile_series(&by_sched, &(0..r.len()).map(|i| r.send_lag_ms(i)).collect::<Vec<_>>(), 0.99),
            worse: 1.0,
        },
        WindowSeries {
            name: "achieved_share",
            t_s,
            values: (0..w.k)
                .map(|b| {
                    let offered = by_sched[b].len();
                    if offered < MIN_REQUESTS { f64::NAN } else { w.by_send[b].len() as f64 / offered as f64 }
                })
                .collect(),
            worse: -1.0,
        },
    ]
}

/// The request-side series the detectors and the anomaly search read, up to the last
/// completion or `horizon_s` (the planned end of the load), whichever is later.
pub fn window_series(r: &RequestView, window_s: f64, horizon_s: f64) -> Vec<WindowSeries> {
    let end = r.end_s.iter().chain(&r.sent_s).copied().filter(|x| x.is_finite()).fold(horizon_s.max(0.0), f64::max);
    let k = ((end / window_s).ceil() as usize).max(1);
    let w = WindowIndex::new(r, window_s, k);
    let mut out = request_series(r, &w);
    if r.scheduled_s.iter().any(|x| x.is_finite()) {
        out.extend(schedule_series(r, &w));
    }
    out
}

/// Baseline (median) and robust scale of a series over the windows inside `steady`.
pub fn baseline(s: &WindowSeries, steady: &Span) -> Option<(f64, f64)> {
    let inside: Vec<f64> = s.t_s.iter().zip(&s.values).filter(|(t, v)| steady.contains(**t) && v.is_finite()).map(|(_, v)| *v).collect();
    let pool = if inside.len() >= 6 { inside } else { s.values.iter().copied().filter(|v| v.is_finite()).collect() };
    let m = median(&pool)?;
    let dev: Vec<f64> = pool.iter().map(|v| (v - m).abs()).collect();
    let mad = 1.4826 * median(&dev)?;
    // A floor on the scale: 2 % of the level, so a nearly constant series does not turn
    // every wobble into an anomaly.
    // Errors: a floor of 2 percentage points, since a clean run has a MAD of zero.
    let floor = if s.name == "error_fraction" { 0.02 } else { 1e-12 };
    Some((m, mad.max(0.02 * m.abs()).max(floor)))
}

/// Robust z-scores in the bad direction (NaN where the window has no value).
pub fn z_scores(s: &WindowSeries, base: (f64, f64)) -> Vec<f64> {
    s.values.iter().map(|v| s.worse * (v - base.0) / base.1).collect()
}

/// Anomaly episodes of the latency, throughput and error series (the client's own series are
/// read by the client-saturation detector instead).
pub fn anomalies(series: &[WindowSeries], steady: &Span) -> Vec<Anomaly> {
    let mut out = Vec::new();
    for s in series.iter().filter(|s| matches!(s.name, "ttft_p50" | "tpot_p50" | "requests_per_s" | "error_fraction")) {
        let Some(base) = baseline(s, steady) else {
            continue;
        };
        let z = z_scores(s, base);
        let flags: Vec<bool> = z.iter().map(|z| *z > Z_LIMIT).collect();
        for (span, idx) in flagged_spans(&s.t_s, &flags, 2, 1) {
            let worst = idx.iter().copied().max_by(|&a, &b| z[a].total_cmp(&z[b])).unwrap_or(idx[0]);
            out.push(Anomaly {
                start_s: span.start_s,
                end_s: span.end_s,
                series: s.name.to_string(),
                peak_z: z[worst],
                peak_relative: (base.0 != 0.0).then(|| s.values[worst] / base.0 - 1.0),
                baseline: base.0,
            });
        }
    }
    out.sort_by(|a, b| a.start_s.total_cmp(&b.start_s).then_with(|| a.series.cmp(&b.series)));
    out
}
