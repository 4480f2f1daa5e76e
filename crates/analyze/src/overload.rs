//! Whether the server kept up with the load it was offered.
//!
//! An open loop offers requests whatever the server does. When it offers more than the server
//! completes, the requests in flight grow without bound: latency is then set by the queue's
//! age (and clipped by the client's timeout, so a growing queue can look flat), and no
//! steady state exists. What the server left unserved is measured directly: requests sent but
//! neither completed nor failed at once, i.e. the growth of the requests in flight plus those
//! that timed out or were cancelled. Its rate is the slope of the in-flight count (ordinary
//! least squares over the load period, with a heteroscedasticity- and autocorrelation-
//! consistent standard error: the flat-top long-run variance of the slope's score) plus the
//! timeouts and cancellations per second (a Poisson count). A server that surely leaves more
//! than `OVERLOAD_SHARE` of the offered rate unserved is overloaded; one that surely leaves
//! less kept up; in between the run cannot tell.
//!
//! A closed loop cannot overload the server (each client waits for its answer): there the
//! achieved rate at saturation is a measurement (`Load::verdict` `closed_loop`).

use serde::{Deserialize, Serialize};

use crate::estimate::{Estimate, Method};
use crate::requests::RequestView;
use credence_run::schema::ERROR_KINDS;
use credence_stats::block_length::long_run_variance;
use statrs::distribution::{ContinuousCDF, Normal};

/// Share of the offered rate left unserved beyond which the server is overloaded.
pub const OVERLOAD_SHARE: f64 = 0.05;

/// What the load did against the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Load {
    /// `open`, `closed` or `unknown`.
    pub loop_kind: String,
    /// The offered rate: the run's planned rate, else sends per second over the load period.
    pub offered_per_s: Option<f64>,
    /// Requests completed successfully per second over the load period.
    pub completed_per_s: Option<f64>,
    /// Requests per second the server left unserved: the in-flight count's growth plus the
    /// timeouts and cancellations, with its interval.
    pub unserved_per_s: Estimate,
    /// The in-flight count's growth per second (OLS slope).
    pub in_flight_growth_per_s: Option<f64>,
    /// Timed-out and cancelled requests per second.
    pub timed_out_per_s: Option<f64>,
    /// The most requests in flight at once.
    pub in_flight_max: u64,
    /// `kept_up`, `overloaded`, `undecided`, `closed_loop` or `not_applicable`.
    pub verdict: String,
    /// Where the queue started to grow (seconds from the first send), when overloaded.
    pub onset_s: Option<f64>,
    /// The load period: first to last send.
    pub from_s: f64,
    pub to_s: f64,
}

impl Load {
    pub fn overloaded(&self) -> bool {
        self.verdict == "overloaded"
    }
}

/// When request `i` entered the system: its scheduled send (an open loop's request waits at
/// the client when every connection is busy), else its send.
fn arrival(r: &RequestView, i: usize) -> f64 {
    let s = r.scheduled_s.get(i).copied().unwrap_or(f64::NAN);
    if s.is_finite() { s } else { r.sent_s[i] }
}

/// The in-flight count sampled every `window_s` over `[from_s, to_s]`: requests that arrived
/// (were due) before each sample time and had not yet ended (one that never ended stays).
pub fn in_flight_series(r: &RequestView, from_s: f64, to_s: f64, window_s: f64) -> (Vec<f64>, Vec<f64>) {
    let arrived = |i: &usize| arrival(r, *i).is_finite();
    let mut sends: Vec<f64> = (0..r.len()).filter(arrived).map(|i| arrival(r, i)).collect();
    let mut ends: Vec<f64> = (0..r.len()).filter(arrived).map(|i| if r.end_s[i].is_finite() { r.end_s[i] } else { f64::INFINITY }).collect();
    sends.sort_by(f64::total_cmp);
    ends.sort_by(f64::total_cmp);
    let k = ((to_s - from_s) / window_s).floor().max(0.0) as usize;
    let t: Vec<f64> = (0..=k).map(|j| from_s + j as f64 * window_s).collect();
    let n = t.iter().map(|x| (sends.partition_point(|s| s <= x) - ends.partition_point(|e| e <= x)) as f64).collect();
    (t, n)
}

/// The OLS slope of `y` on `t`, with its HAC standard error (the flat-top long-run variance of
/// the score `(t − t̄)·e`); None for fewer than 8 points.
pub fn slope_with_se(t: &[f64], y: &[f64]) -> Option<(f64, f64)> {
    let k = t.len();
    if k < 8 || y.len() != k {
        return None;
    }
    let (tm, ym) = (t.iter().sum::<f64>() / k as f64, y.iter().sum::<f64>() / k as f64);
    let sxx: f64 = t.iter().map(|x| (x - tm).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = t.iter().zip(y).map(|(x, v)| (x - tm) * (v - ym)).sum::<f64>() / sxx;
    let score: Vec<f64> = t.iter().zip(y).map(|(x, v)| (x - tm) * (v - ym - slope * (x - tm))).collect();
    let lrv = long_run_variance(&score).unwrap_or(0.0);
    Some((slope, (k as f64 * lrv).sqrt() / sxx))
}

/// Whether the load kept up, for a run offering `planned_rate` (open loop) or closed-loop
/// clients, with `confidence` intervals and windows of `window_s`.
pub fn load(r: &RequestView, open_loop: Option<bool>, planned_rate: Option<f64>, window_s: f64, confidence: f64) -> Load {
    load_over(r, open_loop, planned_rate, f64::NEG_INFINITY, (window_s, confidence))
}

/// `load` over the load period after `since_s`.
fn load_over(r: &RequestView, open_loop: Option<bool>, planned_rate: Option<f64>, since_s: f64, (window_s, confidence): (f64, f64)) -> Load {
    let sends: Vec<f64> = r.sent_s.iter().copied().filter(|t| t.is_finite()).collect();
    let from_s = sends.iter().copied().fold(f64::INFINITY, f64::min);
    let to_s = sends.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let loop_kind = match open_loop {
        Some(true) => "open",
        Some(false) => "closed",
        None => "unknown",
    };
    let mut out = Load {
        loop_kind: loop_kind.into(),
        offered_per_s: None,
        completed_per_s: None,
        unserved_per_s: Estimate::not_applicable(confidence, r.len() as u64, "not an open loop"),
        in_flight_growth_per_s: None,
        timed_out_per_s: None,
        in_flight_max: 0,
        verdict: "not_applicable".into(),
        onset_s: None,
        from_s: if from_s.is_finite() { from_s } else { 0.0 },
        to_s: if to_s.is_finite() { to_s } else { 0.0 },
    };
    if !(to_s > from_s) {
        return out;
    }
    // The in-flight count fills for about one response time after the first send: the load
    // period starts after it (at most a quarter of the load in).
    let first_send = from_s;
    let from_s = (from_s + fill_s(r).min(0.25 * (to_s - from_s))).max(since_s);
    if !(to_s > from_s) {
        return out;
    }
    out.from_s = from_s;
    let span = to_s - from_s;
    let (t, n) = in_flight_series(r, from_s, to_s, window_s);
    out.in_flight_max = n.iter().copied().fold(0.0, f64::max) as u64;
    let ok = (0..r.len()).filter(|&i| r.ok[i] && (from_s..=to_s).contains(&r.end_s[i])).count();
    out.completed_per_s = Some(ok as f64 / span);
    let sent_per_s = sends.iter().filter(|t| (from_s..=to_s).contains(*t)).count() as f64 / span;
    out.offered_per_s = planned_rate.or(Some(sent_per_s));
    if open_loop == Some(false) {
        out.verdict = "closed_loop".into();
        return out;
    }
    if open_loop.is_some() {
        // The share is of what was offered: the plan, or the sends when a source's recorded
        // rate falls short of them (a tool that ran several rates and recorded one).
        let limit = OVERLOAD_SHARE * planned_rate.unwrap_or(0.0).max(sent_per_s);
        // An online look (`since_s` given) judges a short, recent window, and many of them.
        let floor = if since_s.is_finite() { arrival_slope_se(r, from_s, to_s) } else { 0.0 };
        judge(&mut out, r, (&t, &n), (limit, floor), (window_s, confidence));
        if out.overloaded() {
            let (t0, n0) = in_flight_series(r, first_send, to_s, window_s);
            out.onset_s = onset(&t0, &n0);
        }
    }
    out
}

/// The unserved rate over the load period (`out.from_s` to `out.to_s`, the in-flight count `n`
/// sampled at `t`) with its interval, and the verdict against `limit` requests/s; `floor`: the
/// least standard error of the in-flight slope (`arrival_slope_se`, online looks only).
fn judge(out: &mut Load, r: &RequestView, (t, n): (&[f64], &[f64]), (limit, floor): (f64, f64), (window_s, confidence): (f64, f64)) {
    let span = out.to_s - out.from_s;
    let Some((growth, growth_se)) = slope_with_se(t, n) else {
        out.unserved_per_s = Estimate::not_applicable(confidence, r.len() as u64, format!("fewer than 8 windows of {window_s} s of load"));
        return;
    };
    let shed = unserved_ends(r, out.from_s, out.to_s);
    let shed_rate = shed as f64 / span;
    let growth_se = growth_se.max(floor);
    let (point, se) = (growth + shed_rate, (growth_se.powi(2) + shed as f64 / span.powi(2)).sqrt());
    let z = Normal::standard().inverse_cdf(0.5 + confidence / 2.0);
    let (lo, hi) = (point - z * se, point + z * se);
    out.unserved_per_s = Estimate::two_sided(point, (lo, hi), confidence, Method::HacSlope, t.len() as u64);
    (out.in_flight_growth_per_s, out.timed_out_per_s) = (Some(growth), Some(shed_rate));
    out.verdict = if lo > limit {
        "overloaded"
    } else if hi < limit {
        "kept_up"
    } else {
        "undecided"
    }
    .into();
}

/// The least standard error of the in-flight count's slope over `[from_s, to_s]` in an online
/// look: what random arrivals alone give it when the server does not follow them. Poisson
/// arrivals at rate λ then make the count a random walk, whose least-squares slope over a span
/// T varies as 6λ/(5T) (a Brownian path's); the HAC estimate from the dozen windows of a short
/// look falls well short of it, and a look then takes a burst of arrivals for a queue. (A
/// server that keeps up follows its arrivals, and the count is stationary: the offline verdict,
/// on the whole run, needs no floor.)
fn arrival_slope_se(r: &RequestView, from_s: f64, to_s: f64) -> f64 {
    let span = to_s - from_s;
    let arrived = (0..r.len()).filter(|&i| (from_s..=to_s).contains(&arrival(r, i))).count() as f64;
    if span > 0.0 { (1.2 * arrived / span / span).sqrt() } else { 0.0 }
}

/// `load` of an open loop offering `offered` per second, judged on the load after `since_s`
/// (the fill at the run's start still skipped): `bench --until` judges the recent load.
pub fn load_since(r: &RequestView, since_s: f64, offered: f64, window_s: f64, confidence: f64) -> Load {
    load_over(r, Some(true), Some(offered), since_s, (window_s, confidence))
}

/// How long the in-flight count takes to fill at the start: the median end-to-end time of the
/// first successful requests (the first 5 %, at least 20), in seconds; 0 without any. The
/// first requests' times, because an overloaded server's later ones are the queue's.
fn fill_s(r: &RequestView) -> f64 {
    let first = (r.len() / 20).max(20).min(r.len());
    let mut e2e: Vec<f64> = (0..first).filter(|&i| r.ok[i]).map(|i| r.e2e_ms[i] / 1e3).filter(|x| x.is_finite()).collect();
    credence_stats::quantile::quantile_in_place(&mut e2e, 0.5).unwrap_or(0.0)
}


/// Requests that ended inside `[from_s, to_s]` timed out or cancelled: served by nobody.
fn unserved_ends(r: &RequestView, from_s: f64, to_s: f64) -> usize {
    let shed = |k: Option<u8>| k.is_some_and(|k| matches!(ERROR_KINDS.get(k as usize), Some(&"timeout") | Some(&"cancelled")));
    (0..r.len()).filter(|&i| !r.ok[i] && shed(r.error_kind[i]) && (from_s..=to_s).contains(&r.end_s[i])).count()
}

/// Where the queue started to grow: the knee of a flat-then-rising line fitted to the in-flight
/// count by least squares (segmented regression), searched over at most 400 candidate knees.
fn onset(t: &[f64], n: &[f64]) -> Option<f64> {
    let k = t.len();
    if k < 4 {
        return None;
    }
    let step = k.div_ceil(400).max(1);
    let sse = |knee: usize| {
        // n = a + b·max(0, t − t_knee): ordinary least squares in (a, b).
        let x: Vec<f64> = t.iter().map(|ti| (ti - t[knee]).max(0.0)).collect();
        let (xm, ym) = (x.iter().sum::<f64>() / k as f64, n.iter().sum::<f64>() / k as f64);
        let sxx: f64 = x.iter().map(|v| (v - xm).powi(2)).sum();
        let b = if sxx > 0.0 { x.iter().zip(n).map(|(v, y)| (v - xm) * (y - ym)).sum::<f64>() / sxx } else { 0.0 };
        x.iter().zip(n).map(|(v, y)| (y - ym - b * (v - xm)).powi(2)).sum::<f64>()
    };
    let knee = (0..k - 2).step_by(step).min_by(|a, b| sse(*a).total_cmp(&sse(*b)))?;
    Some(t[knee])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::until::{Finished, view_of};

    /// Requests at `rate`/s for `seconds`, served FIFO by a server completing `capacity`/s
    /// (deterministic), each failing as a timeout once it has waited `timeout_s`.
    fn queue(rate: f64, capacity: f64, seconds: f64, timeout_s: f64) -> RequestView {
        let mut free_at = 0.0f64;
        let n = (rate * seconds) as usize;
        let done: Vec<Finished> = (0..n)
            .map(|i| {
                let sent = i as f64 / rate;
                let start = free_at.max(sent);
                let end = start + 1.0 / capacity;
                let timed_out = end - sent > timeout_s;
                if !timed_out {
                    free_at = end;
                }
                let end = if timed_out { sent + timeout_s } else { end };
                Finished { sent_s: sent, end_s: end, ok: !timed_out, ttft_ms: (end - sent) * 1e3, tpot_ms: 1.0, e2e_ms: (end - sent) * 1e3, output_tokens: 8.0 }
            })
            .collect();
        let mut view = view_of(&done, f64::INFINITY, 0.0);
        for i in 0..view.len() {
            if !view.ok[i] {
                view.error_kind[i] = Some(ERROR_KINDS.iter().position(|k| *k == "timeout").unwrap() as u8);
            }
        }
        view
    }

    /// A server offered 30/s that completes 18/s leaves 12/s unserved (its queue grows, or, with
    /// a timeout, sheds the excess); offered 15/s it keeps up. Both are decided.
    #[test]
    fn a_growing_queue_is_overload_and_a_stable_one_is_not() {
        let over = load(&queue(30.0, 18.0, 120.0, 1000.0), Some(true), Some(30.0), 1.0, 0.95);
        assert_eq!(over.verdict, "overloaded", "{over:?}");
        let u = over.unserved_per_s.estimate.unwrap();
        assert!((u - 12.0).abs() < 1.0, "{over:?}");
        assert!(over.onset_s.unwrap() < 5.0, "{over:?}");
        let shedding = load(&queue(30.0, 18.0, 120.0, 20.0), Some(true), Some(30.0), 1.0, 0.95);
        assert_eq!(shedding.verdict, "overloaded", "{shedding:?}");
        assert!(shedding.timed_out_per_s.unwrap() > 5.0 && (shedding.unserved_per_s.estimate.unwrap() - 12.0).abs() < 1.5, "timeouts shed the excess: {shedding:?}");
        let fine = load(&queue(15.0, 18.0, 120.0, 1000.0), Some(true), Some(15.0), 1.0, 0.95);
        assert_eq!(fine.verdict, "kept_up", "{fine:?}");
        let closed = load(&queue(15.0, 18.0, 120.0, 1000.0), Some(false), None, 1.0, 0.95);
        assert_eq!(closed.verdict, "closed_loop");
    }

    /// The slope of a line is exact with a zero standard error; of noise around a level, near 0.
    #[test]
    fn the_slope_and_its_standard_error() {
        let t: Vec<f64> = (0..50).map(f64::from).collect();
        let (b, se) = slope_with_se(&t, &t.iter().map(|x| 3.0 * x + 1.0).collect::<Vec<_>>()).unwrap();
        assert!((b - 3.0).abs() < 1e-9 && se < 1e-9);
        let noise: Vec<f64> = (0..50).map(|i| 10.0 + f64::from((i * 7919) % 11) - 5.0).collect();
        let (b, se) = slope_with_se(&t, &noise).unwrap();
        assert!(b.abs() < 2.5 * se + 0.05, "{b} ± {se}");
    }
}
