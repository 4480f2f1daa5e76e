//! Per-window time series. Latency is attributed to the window in which a request *started*
//! (so a slow window shows what users sending then experienced); throughput to the window in
//! which it *completed* (what the server delivered then). Empty windows are kept explicitly.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::requests::RequestView;
use credence_stats::quantile::quantile_in_place;

/// One window of the time series.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WindowRow {
    /// Window start, seconds from the first send.
    pub start_s: f64,
    /// Requests completed (successfully) in the window, by completion time.
    pub completed: u64,
    pub input_tokens: f64,
    pub output_tokens: f64,
    /// Mean number of requests in flight over the window.
    pub concurrency: f64,
    /// Requests scheduled to be sent in the window (open loop only).
    pub offered: Option<u64>,
    /// Requests actually sent in the window.
    pub achieved: u64,
    pub ttft_p50_ms: Option<f64>,
    pub ttft_p99_ms: Option<f64>,
    pub tpot_p50_ms: Option<f64>,
    pub tpot_p99_ms: Option<f64>,
    pub e2e_p50_ms: Option<f64>,
    pub e2e_p99_ms: Option<f64>,
    /// Failed requests by error kind, by completion time.
    pub errors: BTreeMap<String, u64>,
}

/// The whole series.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TimeSeries {
    pub window_s: f64,
    /// Epoch ns that `start_s = 0` refers to.
    pub t0_ns: i64,
    /// Which time each column is bucketed by.
    pub basis: BTreeMap<String, String>,
    pub windows: Vec<WindowRow>,
}

/// Window index of a time (seconds from t0); NaN or negative times map to None.
pub fn window_of(t: f64, window_s: f64) -> Option<usize> {
    // Non-negative: truncation is the floor, without a libm call per request.
    (t.is_finite() && t >= 0.0).then(|| (t / window_s) as usize)
}

/// Groups request indices by the window of `times` (counting sort, O(n)); times past the
/// last window are left out.
pub fn bucket(times: &[f64], window_s: f64, windows: usize) -> Vec<Vec<u32>> {
    bucket_by(times, windows, |t| window_of(t, window_s).filter(|&w| w < windows))
}

/// Groups request indices by `window(time)`, a window below `windows` or none. Counted first,
/// so every window's list is allocated once at its size (on 100-million-request runs these
/// lists are GBs).
pub fn bucket_by(times: &[f64], windows: usize, window: impl Fn(f64) -> Option<usize>) -> Vec<Vec<u32>> {
    let mut counts = vec![0usize; windows];
    for w in times.iter().filter_map(|&t| window(t)) {
        counts[w] += 1;
    }
    let mut out: Vec<Vec<u32>> = counts.into_iter().map(Vec::with_capacity).collect();
    for (i, &t) in times.iter().enumerate() {
        if let Some(w) = window(t) {
            out[w].push(i as u32);
        }
    }
    out
}

/// How many of the requests `keep` accepts fall in each window of `times` (times past the
/// last window are left out): the sizes `bucket` would give, without the index lists.
pub fn count_by_window(times: &[f64], window_s: f64, windows: usize, keep: impl Fn(usize) -> bool) -> Vec<u64> {
    let mut counts = vec![0u64; windows];
    for (i, &t) in times.iter().enumerate() {
        if let Some(w) = window_of(t, window_s).filter(|&w| w < windows)
            && keep(i)
        {
            counts[w] += 1;
        }
    }
    counts
}

/// Percentile `p` of the finite `values` at `idx`, gathered into `scratch`.
fn pct(values: &[f64], idx: &[u32], p: f64, scratch: &mut Vec<f64>) -> Option<f64> {
    scratch.clear();
    scratch.extend(idx.iter().map(|&i| values[i as usize]).filter(|x| x.is_finite()));
    quantile_in_place(scratch, p)
}

/// Time each window spent serving requests, summed over requests (request-seconds).
fn busy_seconds(r: &RequestView, window_s: f64, n_windows: usize) -> Vec<f64> {
    let mut busy = vec![0.0; n_windows];
    for (s, e) in r.sent_s.iter().zip(&r.end_s) {
        if !(s.is_finite() && e.is_finite() && e >= s) {
            continue;
        }
        let (ws, we) = ((s / window_s) as usize, ((e / window_s) as usize).min(n_windows - 1));
        for (w, b) in busy.iter_mut().enumerate().take(we + 1).skip(ws) {
            let lo = (w as f64 * window_s).max(*s);
            let hi = ((w + 1) as f64 * window_s).min(*e);
            *b += (hi - lo).max(0.0);
        }
    }
    busy
}

/// What the requests completing in one window delivered.
#[derive(Default)]
struct Completions {
    done: u64,
    input_tokens: f64,
    output_tokens: f64,
    errors: BTreeMap<String, u64>,
}

impl Completions {
    /// Counts request `i`: a successful completion and its tokens, or a failure by kind.
    fn add(&mut self, r: &RequestView, i: usize) {
        if r.ok[i] {
            self.done += 1;
            if r.input_tokens[i].is_finite() {
                self.input_tokens += f64::from(r.input_tokens[i]);
            }
            if r.output_tokens[i].is_finite() {
                self.output_tokens += f64::from(r.output_tokens[i]);
            }
        } else {
            let k = r.error_kind[i].map_or("other", RequestView::kind_name);
            *self.errors.entry(k.to_string()).or_insert(0) += 1;
        }
    }
}

/// Each window's completions, by completion time, in one pass over the requests (in send
/// order, as bucketing them first would add them).
fn completions_by_window(r: &RequestView, window_s: f64, n_windows: usize) -> Vec<Completions> {
    let mut out: Vec<Completions> = (0..n_windows).map(|_| Completions::default()).collect();
    for (i, &t) in r.end_s.iter().enumerate() {
        if let Some(w) = window_of(t, window_s).filter(|&w| w < n_windows) {
            out[w].add(r, i);
        }
    }
    out
}

/// Which time each column is bucketed by.
fn basis() -> BTreeMap<String, String> {
    BTreeMap::from([
        ("completed, input_tokens, output_tokens, errors".to_string(), "completion time (end_ns)".to_string()),
        ("ttft, tpot, e2e percentiles".to_string(), "start time (sent_ns)".to_string()),
        ("achieved".to_string(), "send time (sent_ns)".to_string()),
        ("offered".to_string(), "scheduled time (scheduled_ns)".to_string()),
        ("concurrency".to_string(), "time-weighted requests in flight".to_string()),
    ])
}

/// The series holds at most this many windows: past two hours of one-second windows, they
/// widen by a whole factor, so that the JSON and the charts stay bounded however long the run.
pub const MAX_SERIES_WINDOWS: usize = 7200;

/// The series' window: `window_s`, widened by the smallest whole factor that fits a run
/// ending at `last_s` into `MAX_SERIES_WINDOWS`.
fn series_window_s(window_s: f64, last_s: f64) -> f64 {
    let n_windows = (last_s / window_s).floor() as usize + 1;
    window_s * n_windows.div_ceil(MAX_SERIES_WINDOWS) as f64
}

/// Builds the series over the whole run.
pub fn time_series(r: &RequestView, window_s: f64) -> TimeSeries {
    let last = r.end_s.iter().chain(&r.sent_s).copied().filter(|x| x.is_finite()).fold(0.0, f64::max);
    let window_s = series_window_s(window_s, last);
    let n_windows = (last / window_s).floor() as usize + 1;
    let by_start = bucket(&r.sent_s, window_s, n_windows);
    let open_loop = r.scheduled_s.iter().any(|x| x.is_finite());
    let offered = count_by_window(&r.scheduled_s, window_s, n_windows, |_| true);
    let busy = busy_seconds(r, window_s, n_windows);
    let windows = completions_by_window(r, window_s, n_windows)
        .into_par_iter()
        .enumerate()
        .map(|(w, c)| {
            let starts = &by_start[w];
            let mut scratch = Vec::with_capacity(starts.len());
            let mut pct = |values: &[f64], p: f64| pct(values, starts, p, &mut scratch);
            WindowRow {
                start_s: w as f64 * window_s,
                completed: c.done,
                input_tokens: c.input_tokens,
                output_tokens: c.output_tokens,
                concurrency: busy[w] / window_s,
                offered: open_loop.then_some(offered[w]),
                achieved: starts.len() as u64,
                ttft_p50_ms: pct(&r.ttft_ms, 0.5),
                ttft_p99_ms: pct(&r.ttft_ms, 0.99),
                tpot_p50_ms: pct(&r.tpot_ms, 0.5),
                tpot_p99_ms: pct(&r.tpot_ms, 0.99),
                e2e_p50_ms: pct(&r.e2e_ms, 0.5),
                e2e_p99_ms: pct(&r.e2e_ms, 0.99),
                errors: c.errors,
            }
        })
        .collect();
    TimeSeries { window_s, t0_ns: r.t0_ns, basis: basis(), windows }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_series_widens_its_windows_only_past_the_cap() {
        assert_eq!(series_window_s(1.0, 3599.5), 1.0, "an hour keeps one-second windows");
        assert_eq!(series_window_s(1.0, 7199.0), 1.0, "7200 windows fit");
        assert_eq!(series_window_s(1.0, 7200.0), 2.0, "7201 windows do not");
        let long = 93.0 * 3600.0;
        let w = series_window_s(1.0, long);
        assert_eq!(w, 47.0);
        assert!(((long / w).floor() as usize) < MAX_SERIES_WINDOWS);
        assert_eq!(series_window_s(5.0, long), 5.0 * 10.0, "a wider analysis window widens by its own factor");
    }
}
