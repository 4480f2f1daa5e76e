//! The per-request scatter of the HTML report: send time against TTFT and E2E, each point with
//! its status and phase. A long run is thinned to at most `max_points` without losing what a
//! reader looks for: in every slice of the timeline the slowest and fastest request of each
//! metric and every failed request stay (up to the budget), and the rest is an even stride.

use serde::{Deserialize, Serialize};

use crate::Analysis;
use crate::requests::RequestView;

/// Points kept by default: a 10-minute run at 100 requests/s is drawn whole.
pub const DEFAULT_MAX_POINTS: usize = 60_000;
/// Timeline slices whose extremes are kept.
const SLICES: usize = 2_000;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Scatter {
    /// Seconds from the run's start, in send order.
    pub send_s: Vec<f64>,
    pub ttft_ms: Vec<Option<f64>>,
    pub e2e_ms: Vec<Option<f64>>,
    pub ok: Vec<bool>,
    /// `warmup` (before the steady window), `episode` (inside an environmental episode),
    /// `steady`, or `after` (past the steady window's end).
    pub phase: Vec<String>,
    /// Requests in the run: when larger than the points, the scatter is thinned.
    pub total: usize,
}

/// The scatter of `r` (the run the analysis `a` was made from), at most `max_points` points.
pub fn scatter(r: &RequestView, a: &Analysis, max_points: usize) -> Scatter {
    let keep = chosen(r, max_points);
    let episodes: Vec<(f64, f64)> = a.conditions.iter().filter(|c| c.cause.is_some()).flat_map(|c| c.windows.iter().map(|w| (w.start_s, w.end_s))).collect();
    let phase = |t: f64| {
        if t < a.steady_state.start_s {
            "warmup"
        } else if t >= a.steady_state.end_s {
            "after"
        } else if episodes.iter().any(|(s, e)| t >= *s && t < *e) {
            "episode"
        } else {
            "steady"
        }
    };
    let finite = |v: f64| v.is_finite().then(|| round_to(v, 4));
    Scatter {
        send_s: keep.iter().map(|&i| (r.sent_s[i] * 1000.0).round() / 1000.0).collect(),
        ttft_ms: keep.iter().map(|&i| finite(r.ttft_ms[i])).collect(),
        e2e_ms: keep.iter().map(|&i| finite(r.e2e_ms[i])).collect(),
        ok: keep.iter().map(|&i| r.ok[i]).collect(),
        phase: keep.iter().map(|&i| phase(r.sent_s[i]).to_string()).collect(),
        total: r.len(),
    }
}

/// Indices of the requests kept, in send order: all when they fit; else per slice the extremes
/// and the failures, then an even stride over the rest up to the budget.
fn chosen(r: &RequestView, max_points: usize) -> Vec<usize> {
    let n = r.len();
    let sendable: Vec<usize> = (0..n).filter(|&i| r.sent_s[i].is_finite()).collect();
    if sendable.len() <= max_points {
        return sendable;
    }
    let mut keep = vec![false; n];
    let slice_len = sendable.len().div_ceil(SLICES);
    let mut failures_left = max_points / 10;
    for slice in sendable.chunks(slice_len) {
        for column in [&r.ttft_ms, &r.e2e_ms] {
            let finite = slice.iter().copied().filter(|&i| column[i].is_finite());
            if let Some(i) = finite.clone().min_by(|&a, &b| column[a].total_cmp(&column[b])) {
                keep[i] = true;
            }
            if let Some(i) = finite.max_by(|&a, &b| column[a].total_cmp(&column[b])) {
                keep[i] = true;
            }
        }
        for &i in slice.iter().filter(|&&i| !r.ok[i]) {
            if failures_left == 0 {
                break;
            }
            failures_left -= 1;
            keep[i] = true;
        }
    }
    let kept = keep.iter().filter(|k| **k).count();
    let stride = sendable.len().div_ceil(max_points.saturating_sub(kept).max(1));
    sendable.iter().step_by(stride.max(1)).for_each(|&i| keep[i] = true);
    sendable.into_iter().filter(|&i| keep[i]).collect()
}

/// `v` to `digits` significant digits (the scatter's JSON stays small; a pixel needs fewer).
fn round_to(v: f64, digits: i32) -> f64 {
    if v == 0.0 {
        return 0.0;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(n: usize) -> RequestView {
        let mut r = RequestView::default();
        for i in 0..n {
            r.sent_s.push(i as f64 * 0.01);
            r.ttft_ms.push(100.0 + (i % 97) as f64);
            r.e2e_ms.push(1000.0 + (i % 89) as f64);
            r.ok.push(i % 1000 != 7);
        }
        r
    }

    #[test]
    fn a_thinned_scatter_keeps_the_extremes_and_the_failures() {
        let mut r = view(1_000_000);
        r.ttft_ms[123_457] = 9_999.0;
        r.e2e_ms[500_001] = 0.5;
        let keep = chosen(&r, 20_000);
        assert!(keep.len() <= 20_000 + 2 * 2 * SLICES, "{} points", keep.len());
        assert!(keep.contains(&123_457) && keep.contains(&500_001), "the slowest TTFT and the fastest E2E stay");
        let failures = (0..r.len()).filter(|&i| !r.ok[i]).count();
        assert_eq!(keep.iter().filter(|&&i| !r.ok[i]).count(), failures, "all {failures} failures fit the budget and stay");
        assert!(keep.windows(2).all(|w| w[0] < w[1]), "in send order");
    }

    #[test]
    fn a_short_run_is_drawn_whole() {
        let r = view(500);
        assert_eq!(chosen(&r, 1_000).len(), 500);
    }

    #[test]
    fn rounding_keeps_four_significant_digits() {
        assert_eq!(round_to(123.456_78, 4), 123.5);
        assert_eq!(round_to(0.012_345_6, 4), 0.012_35);
    }
}
