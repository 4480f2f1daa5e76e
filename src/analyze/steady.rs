//! Steady-state detection: where the run settled, whether it stayed settled, and what was cut.
//!
//! 1. Per detection bucket (the analysis window, widened until it holds ~10 requests), take the
//!    log of the median TTFT and of the median TPOT by start time.
//! 2. PELT (normal mean+variance, MBIC or Barrett's `15 ln n`) segments each series.
//! 3. Classify with Barrett et al.'s rule, relative to the last segment L, using a relative
//!    delta and the segments' sampling error (an SD, not a variance): leading segments not
//!    equivalent to L are a transient (warmup when slower than L, ramp-up when faster); a level
//!    still moving in the last quarter, or steady state starting after 75 % of the run, is
//!    `no_steady_state`; a final level slower than the run's main level is `slowdown`.
//!    Later segments that differ are reported as breaks for attribution, not cut.
//! 4. Cross-checks: MSER-5, perf_analyzer's 3-window ±10 % rule, the practitioners' rule
//!    (consecutive windows within 2 % throughput and 5 % P99), Mann–Kendall with the Hamed–Rao
//!    correction plus the Sen slope for residual drift (which demotes to `no_steady_state`),
//!    and Pettitt for level shifts.
//! 5. Ramp-down: trailing buckets whose send rate falls below 85 % of the main level are cut,
//!    and so is everything after the last send. The ramp-up while the server fills (in-flight
//!    concurrency below 90 % of its median) is cut at the start.

use serde::Serialize;

use super::requests::RequestView;
use crate::stats::mann_kendall::{hamed_rao, sen_slope};
use crate::stats::mser::mser5;
use crate::stats::pelt::{Penalty, pelt};
use crate::stats::pettitt::pettitt;
use crate::stats::quantile::quantile_unsorted;
use super::windows::bucket;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Classification {
    Flat,
    Warmup,
    Slowdown,
    NoSteadyState,
}

#[derive(Debug, Clone, Copy)]
pub struct SteadyOptions {
    pub window_s: f64,
    pub penalty: Penalty,
    /// Relative change below which two levels count as the same (e.g. 0.05).
    pub delta: f64,
    /// `--steady-from/--steady-to`, seconds from the first send.
    pub override_window: Option<(Option<f64>, Option<f64>)>,
}

/// A segment of a detection series.
#[derive(Debug, Clone, Serialize)]
pub struct Segment {
    pub start_s: f64,
    pub end_s: f64,
    /// Level relative to the last segment (e.g. 0.25 = 25 % slower), from the log-scale means.
    pub relative_to_last: f64,
    pub equivalent_to_last: bool,
}

/// One series' verdict.
#[derive(Debug, Clone, Serialize)]
pub struct SeriesVerdict {
    pub series: String,
    pub classification: Classification,
    pub start_s: f64,
    pub segments: Vec<Segment>,
    pub reason: String,
}

/// One detector or cross-check.
#[derive(Debug, Clone, Serialize)]
pub struct Detector {
    pub name: String,
    /// `steady_from`, `never_stable`, `no_trend`, `trend`, `shift`, `no_shift`, `cut`, `not_run`.
    pub verdict: String,
    pub start_s: Option<f64>,
    pub reason: String,
}

/// The steady window and how it was found.
#[derive(Debug, Clone, Serialize)]
pub struct SteadyState {
    pub classification: Classification,
    pub start_s: f64,
    pub end_s: f64,
    /// First request (send order, 0-based) in the window, and one past the last.
    pub start_request: usize,
    pub end_request: usize,
    pub requests_in_window: usize,
    pub dropped_start_s: f64,
    pub dropped_start_requests: usize,
    pub dropped_end_s: f64,
    pub dropped_end_requests: usize,
    /// Seconds at the start while the server filled up (part of the dropped start).
    pub ramp_up_s: f64,
    pub detection_window_s: f64,
    pub overridden: bool,
    pub penalty: Penalty,
    pub delta: f64,
    pub series: Vec<SeriesVerdict>,
    pub breaks: Vec<Segment>,
    pub detectors: Vec<Detector>,
    /// Whether the detectors agree on where steady state starts, in words.
    pub agreement: String,
}

/// Forward-filled per-bucket medians (log scale) of `values` by start bucket.
fn log_median_series(values: &[f64], buckets: &[Vec<u32>]) -> Option<Vec<f64>> {
    let mut out: Vec<f64> = buckets
        .iter()
        .map(|b| {
            let v: Vec<f64> = b.iter().map(|&i| values[i as usize]).filter(|x| x.is_finite() && *x > 0.0).collect();
            quantile_unsorted(&v, 0.5).map_or(f64::NAN, f64::ln)
        })
        .collect();
    let first = out.iter().copied().find(|x| x.is_finite())?;
    let mut prev = first;
    for x in out.iter_mut() {
        if x.is_finite() { prev = *x } else { *x = prev }
    }
    Some(out)
}

struct Seg {
    a: usize,
    b: usize,
    mean: f64,
    se: f64,
}

fn segments(y: &[f64], penalty: Penalty) -> Vec<Seg> {
    let var_all = {
        let m = y.iter().sum::<f64>() / y.len() as f64;
        y.iter().map(|v| (v - m).powi(2)).sum::<f64>() / y.len() as f64
    };
    let cps = pelt(y, penalty, 5, (var_all * 1e-3).max(1e-12));
    let mut segs = Vec::new();
    let mut a = 0;
    for &b in &cps {
        let s = &y[a..b];
        let mean = s.iter().sum::<f64>() / s.len() as f64;
        let sd = (s.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (s.len().max(2) - 1) as f64).sqrt();
        segs.push(Seg { a, b, mean, se: sd / (s.len() as f64).sqrt() });
        a = b;
    }
    segs
}

/// Standard errors of segment levels from the long-run variance of the residuals around a
/// conservative segmentation (Barrett's 15 ln n): slow wander that is not a real level shift
/// widens every segment's error, so autocorrelated noise is not mistaken for a new level.
fn set_level_errors(y: &[f64], segs: &mut [Seg]) {
    let coarse = segments(y, Penalty::Conservative);
    let resid: Vec<f64> = coarse.iter().flat_map(|s| y[s.a..s.b].iter().map(move |v| v - s.mean)).collect();
    if let Some(lrv) = crate::stats::block_length::long_run_variance(&resid) {
        for s in segs.iter_mut() {
            s.se = s.se.max((lrv / (s.b - s.a) as f64).sqrt());
        }
    }
}

/// Aggregation factor that makes a series close to independent for PELT: buckets are merged
/// (×2, up to ×8) while the lag-1 autocorrelation of the residuals around a coarse
/// segmentation stays above 0.5. PELT assumes independent observations; without this, slow
/// wander of a smooth series (TPOT: every request in flight shares the engine's state) is cut
/// into many spurious segments.
fn independence_factor(y: &[f64]) -> usize {
    let mut f = 1;
    while f < 8 && y.len() / (2 * f) >= 24 {
        let agg = aggregate(y, f);
        let coarse = segments(&agg, Penalty::Conservative);
        let resid: Vec<f64> = coarse.iter().flat_map(|s| agg[s.a..s.b].iter().map(move |v| v - s.mean)).collect();
        let r1 = crate::stats::acf::acf(&resid, 1).get(1).copied().unwrap_or(0.0);
        if r1 < 0.5 {
            break;
        }
        f *= 2;
    }
    f
}

fn aggregate(y: &[f64], f: usize) -> Vec<f64> {
    y.chunks(f).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect()
}

fn classify_series(name: &str, y_fine: &[f64], bucket_fine: f64, fill_s: f64, opts: &SteadyOptions) -> SeriesVerdict {
    let f = independence_factor(y_fine);
    let y = &aggregate(y_fine, f);
    let bucket_s = bucket_fine * f as f64;
    let n = y.len();
    let mut segs = segments(y, opts.penalty);
    set_level_errors(y, &mut segs);
    let last = segs.len() - 1;
    let l = &segs[last];
    let tol = (1.0 + opts.delta).ln();
    let equiv = |s: &Seg, t: &Seg| (s.mean - t.mean).abs() <= tol + 2.0 * (s.se.powi(2) + t.se.powi(2)).sqrt();
    let to_seg = |s: &Seg| Segment {
        start_s: s.a as f64 * bucket_s,
        end_s: s.b as f64 * bucket_s,
        relative_to_last: (s.mean - l.mean).exp() - 1.0,
        equivalent_to_last: equiv(s, l),
    };
    let mut i = 0;
    while i < last && !equiv(&segs[i], l) {
        i += 1;
    }
    let slower_lead = segs[..i].iter().any(|s| s.mean > l.mean);
    let start = segs[i].a;
    let late = (0.75 * n as f64) as usize;
    // Faster leading segments are the server filling up only while the fill lasts (plus 10 s);
    // beyond that, the run got slower: Barrett's slowdown.
    let ramp_up_only = start as f64 * bucket_s <= fill_s + 10.0;
    let mut classification = match (slower_lead, i > 0 && !ramp_up_only) {
        (true, _) => Classification::Warmup,
        (false, true) => Classification::Slowdown,
        (false, false) => Classification::Flat,
    };
    let mut reason = match (i, slower_lead, ramp_up_only) {
        (0, _, _) => "one level from the start".to_string(),
        (_, true, _) => format!("{} leading segment(s) slower than the final level", i),
        (_, false, true) => format!("{} leading segment(s) faster than the final level (server filling up)", i),
        (_, false, false) => format!("the run got slower: {} leading segment(s) up to {:.0} s are faster than the final level", i, start as f64 * bucket_s),
    };
    if start > late {
        classification = Classification::NoSteadyState;
        reason = format!("the final level is reached only at {:.0} s, after 75 % of the run", start as f64 * bucket_s);
    } else if let Some(s) = segs[i..last].iter().find(|s| !equiv(s, l) && s.b > late) {
        classification = Classification::NoSteadyState;
        reason = format!(
            "the level still moves in the last quarter ({:.0}–{:.0} s differs from the end by {:+.0} %)",
            s.a as f64 * bucket_s,
            s.b as f64 * bucket_s,
            ((s.mean - l.mean).exp() - 1.0) * 100.0
        );
    } else if let Some(main) = segs[i..].iter().max_by_key(|s| s.b - s.a)
        && !equiv(main, l)
        && l.mean > main.mean
    {
        classification = Classification::Slowdown;
        reason = format!("the final level is {:.0} % slower than the main level", ((l.mean - main.mean).exp() - 1.0) * 100.0);
    }
    if f > 1 {
        reason.push_str(&format!(" (windows merged ×{f} for independence)"));
    }
    SeriesVerdict { series: name.to_string(), classification, start_s: start as f64 * bucket_s, segments: segs.iter().map(to_seg).collect(), reason }
}

/// First index of a 3-window block of 5-bucket windows whose throughput and mean latency each
/// stay within ±`tol` (max/min ≤ 1 + tol), as perf_analyzer decides stability.
fn perf_analyzer_rule(throughput: &[f64], latency: &[f64], group: usize) -> Option<usize> {
    let agg = |v: &[f64], mean: bool| -> Vec<f64> {
        v.chunks(group)
            .filter(|c| c.len() == group)
            .map(|c| {
                let s: f64 = c.iter().sum();
                if mean { s / c.len() as f64 } else { s }
            })
            .collect()
    };
    let (t, l) = (agg(throughput, false), agg(latency, true));
    let stable = |v: &[f64], tol: f64| {
        let (mn, mx) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
        mn > 0.0 && mx / mn <= 1.0 + tol
    };
    (0..t.len().saturating_sub(2)).find(|&i| stable(&t[i..i + 3], 0.10) && stable(&l[i..i + 3], 0.10)).map(|i| i * group)
}

/// First index where 3 consecutive pairs of 5-bucket windows differ by < 2 % in throughput
/// and < 5 % in P99 latency.
fn practitioners_rule(throughput: &[f64], p99: &[f64], group: usize) -> Option<usize> {
    let agg = |v: &[f64], f: fn(&[f64]) -> f64| -> Vec<f64> { v.chunks(group).filter(|c| c.len() == group).map(f).collect() };
    let t = agg(throughput, |c| c.iter().sum());
    let p = agg(p99, |c| c.iter().copied().fold(f64::NEG_INFINITY, f64::max));
    let close = |a: f64, b: f64, tol: f64| a > 0.0 && b > 0.0 && (a / b - 1.0).abs() < tol;
    (0..t.len().saturating_sub(3)).find(|&i| (i..i + 3).all(|j| close(t[j + 1], t[j], 0.02) && close(p[j + 1], p[j], 0.05))).map(|i| i * group)
}

/// Detects the steady window of a run.
pub fn steady_state(r: &RequestView, opts: &SteadyOptions) -> SteadyState {
    let last_sent = r.sent_s.iter().copied().filter(|x| x.is_finite()).fold(0.0, f64::max);
    let per_window = r.len() as f64 / (last_sent / opts.window_s).max(1.0);
    let bucket_s = opts.window_s * (10.0 / per_window.max(1e-9)).ceil().max(1.0);
    let n_buckets = ((last_sent / bucket_s).floor() as usize + 1).max(1);
    let by_start = bucket(&r.sent_s, bucket_s, n_buckets);
    let by_end = bucket(&r.end_s, bucket_s, n_buckets);
    let sends: Vec<f64> = by_start.iter().map(|b| b.len() as f64).collect();
    let completions: Vec<f64> = by_end.iter().map(|b| b.iter().filter(|&&i| r.ok[i as usize]).count() as f64).collect();
    let mut detectors = Vec::new();

    // Ramp-down: trailing buckets sending clearly less than the main level, and the last
    // (partial) bucket.
    let mut end_bucket = n_buckets.saturating_sub(1).max(1);
    if sends.len() >= 10 {
        let segs = segments(&sends[..end_bucket], Penalty::Mbic);
        if let Some(main) = segs.iter().max_by_key(|s| s.b - s.a) {
            let mut cut = end_bucket;
            for s in segs.iter().rev() {
                if s.mean < 0.85 * main.mean && s.b == cut {
                    cut = s.a;
                } else {
                    break;
                }
            }
            if cut < end_bucket {
                detectors.push(Detector {
                    name: "ramp_down".into(),
                    verdict: "cut".into(),
                    start_s: Some(cut as f64 * bucket_s),
                    reason: format!("the send rate falls below 85 % of its main level from {:.0} s", cut as f64 * bucket_s),
                });
                end_bucket = cut.max(1);
            }
        }
    }
    // Ramp-up: in-flight concurrency below 90 % of its median.
    let mut conc = vec![0.0; n_buckets];
    for (s, e) in r.sent_s.iter().zip(&r.end_s) {
        if s.is_finite() && e.is_finite() {
            let (a, b) = ((s / bucket_s) as usize, ((e / bucket_s) as usize).min(n_buckets - 1));
            for c in conc.iter_mut().take(b + 1).skip(a) {
                *c += 1.0;
            }
        }
    }
    let median_conc = quantile_unsorted(&conc[..end_bucket], 0.5).unwrap_or(0.0);
    let fill = conc[..end_bucket].iter().position(|&c| c >= 0.9 * median_conc).unwrap_or(0);

    let mut series = Vec::new();
    let mut start_bucket = fill;
    let mut classification = Classification::Flat;
    let mut retained: Vec<(String, Vec<f64>)> = Vec::new();
    // TTFT is the primary series. TPOT, smoother and shared by every request in flight, can
    // extend a warmup that TTFT also sees, and can demote the run; a warmup that only TPOT sees
    // is reported as a disagreement.
    let mut ttft_warmup = false;
    for (name, values) in [("ttft", &r.ttft_ms), ("tpot", &r.tpot_ms)] {
        let Some(y) = log_median_series(values, &by_start[..end_bucket]) else {
            continue;
        };
        if y.len() < 12 {
            continue;
        }
        let v = classify_series(name, &y, bucket_s, fill as f64 * bucket_s, opts);
        let primary = name == "ttft";
        if primary {
            ttft_warmup = v.classification == Classification::Warmup;
        }
        if primary || ttft_warmup || v.classification > Classification::Warmup {
            start_bucket = start_bucket.max((v.start_s / bucket_s).round() as usize);
            classification = classification.max(v.classification);
        } else if v.classification == Classification::Warmup {
            detectors.push(Detector {
                name: format!("pelt({name})"),
                verdict: "steady_from".into(),
                start_s: Some(v.start_s),
                reason: format!("{name} alone suggests a warmup until {:.0} s; TTFT does not, so the window is not cut", v.start_s),
            });
        }
        // Performance degrading through the whole run (after the fill) is a drift, not a state.
        let f = independence_factor(&y[fill.min(y.len() - 1)..]);
        let whole = aggregate(&y[fill.min(y.len() - 1)..], f);
        if whole.len() >= 10 {
            let pts: Vec<(f64, f64)> = whole.iter().enumerate().map(|(i, v)| (i as f64, *v)).collect();
            let slope = sen_slope(&pts).unwrap_or(0.0);
            let drift = (slope * whole.len() as f64).exp() - 1.0;
            if let Some(mk) = hamed_rao(&whole, slope, 0.05)
                && mk.p < 0.05
                && drift > 3.0 * opts.delta
                && v.classification != Classification::Warmup
            {
                classification = Classification::NoSteadyState;
                detectors.push(Detector {
                    name: format!("mann_kendall_hamed_rao_whole_run({name})"),
                    verdict: "trend".into(),
                    start_s: None,
                    reason: format!("{name} gets slower through the whole run: {:+.0} % (p = {:.3})", drift * 100.0, mk.p),
                });
            }
        }
        retained.push((name.to_string(), y));
        series.push(v);
    }
    if series.is_empty() {
        classification = Classification::NoSteadyState;
        detectors.push(Detector {
            name: "pelt".into(),
            verdict: "not_run".into(),
            start_s: None,
            reason: format!("{end_bucket} detection windows of {bucket_s} s: too few to find a steady state"),
        });
    }
    start_bucket = start_bucket.min(end_bucket.saturating_sub(1));

    // Residual drift and level shifts inside the retained window, on windows merged until
    // nearly independent (Mann–Kendall and Pettitt assume little autocorrelation).
    for (name, y) in &retained {
        let f = independence_factor(&y[start_bucket..end_bucket]);
        let w = aggregate(&y[start_bucket..end_bucket], f);
        if w.len() < 10 {
            continue;
        }
        let pts: Vec<(f64, f64)> = w.iter().enumerate().map(|(i, v)| (i as f64, *v)).collect();
        let slope = sen_slope(&pts).unwrap_or(0.0);
        if let Some(mk) = hamed_rao(&w, slope, 0.05) {
            let drift = (slope * w.len() as f64).exp() - 1.0;
            let limit = 3.0 * opts.delta;
            let trend = mk.p < 0.05 && drift.abs() > limit;
            if trend {
                classification = Classification::NoSteadyState;
            }
            detectors.push(Detector {
                name: format!("mann_kendall_hamed_rao({name})"),
                verdict: if trend { "trend" } else { "no_trend" }.into(),
                start_s: None,
                reason: format!(
                    "p = {:.3}, Sen slope {:+.1} % over the window (drift limit ±{:.0} %), {} windows of {:.0} s",
                    mk.p,
                    drift * 100.0,
                    limit * 100.0,
                    w.len(),
                    bucket_s * f as f64
                ),
            });
        }
        if let Some(pt) = pettitt(&w) {
            let (a, b) = w.split_at(pt.change_after.min(w.len() - 1));
            let shift = (b.iter().sum::<f64>() / b.len() as f64 - a.iter().sum::<f64>() / a.len() as f64).exp() - 1.0;
            let found = pt.p < 0.05 && shift.abs() > opts.delta;
            detectors.push(Detector {
                name: format!("pettitt({name})"),
                verdict: if found { "shift" } else { "no_shift" }.into(),
                start_s: Some(start_bucket as f64 * bucket_s + pt.change_after as f64 * bucket_s * f as f64),
                reason: format!("p = {:.3}, level shift {:+.1} %", pt.p, shift * 100.0),
            });
        }
    }
    // Cross-checks of the start.
    let pelt_start = start_bucket as f64 * bucket_s;
    let mut agree = Vec::new();
    let mut disagree = Vec::new();
    let tolerance = (5.0f64).max(0.1 * pelt_start);
    if let Some((_, y)) = retained.first() {
        match mser5(&y[..end_bucket]) {
            Some(m) => {
                let s = m.truncate as f64 * bucket_s;
                let (verdict, reason) = if m.at_boundary {
                    ("never_stable", "the minimum sits at the end of the search range".to_string())
                } else {
                    ("steady_from", format!("truncate {} detection windows", m.truncate))
                };
                detectors.push(Detector { name: "mser5(ttft)".into(), verdict: verdict.into(), start_s: Some(s), reason });
                if (s - pelt_start).abs() <= tolerance { agree.push("MSER-5") } else { disagree.push(format!("MSER-5 says {s:.0} s")) }
            }
            None => detectors.push(Detector { name: "mser5(ttft)".into(), verdict: "not_run".into(), start_s: None, reason: "fewer than 20 windows".into() }),
        }
    }
    let ttft_mean: Vec<f64> = by_start[..end_bucket]
        .iter()
        .map(|b| {
            let v: Vec<f64> = b.iter().map(|&i| r.ttft_ms[i as usize]).filter(|x| x.is_finite()).collect();
            if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 }
        })
        .collect();
    let ttft_p99: Vec<f64> = by_start[..end_bucket]
        .iter()
        .map(|b| {
            let v: Vec<f64> = b.iter().map(|&i| r.ttft_ms[i as usize]).filter(|x| x.is_finite()).collect();
            quantile_unsorted(&v, 0.99).unwrap_or(0.0)
        })
        .collect();
    let group = ((5.0 / bucket_s).round() as usize).max(1);
    let thr = &completions[..end_bucket];
    match perf_analyzer_rule(thr, &ttft_mean, group) {
        Some(i) => {
            let s = i as f64 * bucket_s;
            detectors.push(Detector {
                name: "perf_analyzer_3_window".into(),
                verdict: "steady_from".into(),
                start_s: Some(s),
                reason: format!("3 windows of {:.0} s within ±10 % in throughput and mean TTFT", group as f64 * bucket_s),
            });
            if (s - pelt_start).abs() <= tolerance { agree.push("perf_analyzer's rule") } else { disagree.push(format!("perf_analyzer's rule says {s:.0} s")) }
        }
        None => {
            detectors.push(Detector {
                name: "perf_analyzer_3_window".into(),
                verdict: "never_stable".into(),
                start_s: None,
                reason: "no 3 consecutive windows within ±10 %".into(),
            });
            disagree.push("perf_analyzer's rule never finds 3 stable windows".into());
        }
    }
    match practitioners_rule(thr, &ttft_p99, group) {
        Some(i) => detectors.push(Detector {
            name: "practitioners_2pct_5pct".into(),
            verdict: "steady_from".into(),
            start_s: Some(i as f64 * bucket_s),
            reason: "consecutive windows within 2 % throughput and 5 % P99 TTFT".into(),
        }),
        None => detectors.push(Detector {
            name: "practitioners_2pct_5pct".into(),
            verdict: "never_stable".into(),
            start_s: None,
            reason: "consecutive windows never stay within 2 % throughput and 5 % P99 TTFT (too strict for this noise level)".into(),
        }),
    }
    let agreement = if disagree.is_empty() {
        format!("the detectors agree on the start ({})", if agree.is_empty() { "PELT only".to_string() } else { agree.join(", ") })
    } else {
        format!("the detectors disagree: PELT says {:.0} s; {}", pelt_start, disagree.join("; "))
    };

    let mut start_s = start_bucket as f64 * bucket_s;
    let mut end_s = (end_bucket as f64 * bucket_s).min(last_sent + 1e-9);
    if end_bucket >= n_buckets.saturating_sub(1) {
        end_s = last_sent + 1e-9;
    }
    let mut overridden = false;
    if let Some((from, to)) = opts.override_window {
        overridden = true;
        start_s = from.unwrap_or(start_s).max(0.0);
        end_s = to.unwrap_or(end_s).max(start_s);
    }
    let start_request = r.sent_s.partition_point(|&t| t < start_s);
    let end_request = r.sent_s.partition_point(|&t| t < end_s);
    let breaks = series.iter().flat_map(|v| v.segments.iter().filter(|s| !s.equivalent_to_last && s.start_s >= start_s).cloned()).collect();
    SteadyState {
        classification,
        start_s,
        end_s,
        start_request,
        end_request,
        requests_in_window: end_request.saturating_sub(start_request),
        dropped_start_s: start_s,
        dropped_start_requests: start_request,
        dropped_end_s: (last_sent - end_s).max(0.0),
        dropped_end_requests: r.len() - end_request,
        ramp_up_s: fill as f64 * bucket_s,
        detection_window_s: bucket_s,
        overridden,
        penalty: opts.penalty,
        delta: opts.delta,
        series,
        breaks,
        detectors,
        agreement,
    }
}
