//! Steady-state detection: where the run settled, whether it stayed settled, and what was cut.
//!
//! 1. Per detection window (the analysis window, widened until it holds ~10 requests, and on
//!    long runs until there are at most 2000), take the log of the median TTFT and of the
//!    median TPOT by start time.
//! 2. PELT (normal mean+variance, MBIC or Barrett's `15 ln n`) segments each series.
//! 3. Classify with Barrett et al.'s rule, relative to the last segment L, using a relative
//!    delta and the segments' sampling error (an SD, not a variance): leading segments not
//!    equivalent to L are a transient (warmup when slower than L, ramp-up when faster); a level
//!    still moving in the last quarter, or steady state starting after 75 % of the run, is
//!    `no_steady_state`; a final level slower than the run's main level is `slowdown`.
//!    Later segments that differ are reported as breaks for attribution, not cut. A warmup's
//!    end is then placed at detection-window resolution by a least-squares warmup shape
//!    (a plateau and a linear decline to the final level, `settle`), which moves a little, not
//!    by a merged window, when the series changes elsewhere.
//! 4. Cross-checks: MSER-5, perf_analyzer's 3-window ±10 % rule, the practitioners' rule
//!    (consecutive windows within 2 % throughput and 5 % P99), Mann–Kendall with the Hamed–Rao
//!    correction plus the Sen slope for residual drift (which demotes to `no_steady_state`),
//!    and Pettitt for level shifts.
//! 5. Ramp-down: trailing buckets whose send rate falls below 85 % of the main level are cut,
//!    and so is everything after the last send. The ramp-up while the server fills (in-flight
//!    concurrency below 90 % of its median) is cut at the start.
//!
//! Cost. PELT with the mean+variance cost prunes almost nothing when a series has few change
//! points, so it is quadratic in the windows; so are the Sen slope (every pair), Mann–Kendall's
//! S and the Hamed–Rao autocorrelations. A 24-hour soak run has 86 400 one-second buckets.
//! Rather than a bounded PELT (which gives up the exact optimum on every run) or FPOP (exact
//! and fast, but for a mean change with known variance, not this cost), the windows adapt:
//! past `MAX_DETECTION_WINDOWS` buckets, detection windows merge consecutive buckets so PELT
//! and the trend and shift tests see at most 2000 points; a transient's end found there is
//! placed at bucket resolution by PELT and Barrett's rule again on the buckets around it (at
//! most 1000: `refine_boundary`). Shorter runs (every test and fixture) are unchanged. The linear
//! steps stay on buckets: the ramp-up, MSER-5 and the perf_analyzer and practitioners' rules.
//! Segments, breaks and the ramp-down cut are reported at detection-window resolution
//! (`detection_window_s`).

mod clean;
mod settle;

use serde::{Deserialize, Serialize};

use super::attribute::episodes::Span;
use super::requests::RequestView;
use super::windows::{bucket, count_by_window};
use credence_stats::mann_kendall::{hamed_rao, sen_slope};
use credence_stats::mser::mser5;
use credence_stats::pelt::{Penalty, pelt};
use credence_stats::pettitt::pettitt;
use credence_stats::quantile::{quantile_in_place, quantile_unsorted};
use clean::{Clock, Cut};
use settle::{FinalLevel, warmup_shape_end};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Segment {
    pub start_s: f64,
    pub end_s: f64,
    /// Level relative to the final level (e.g. 0.25 = 25 % slower), from the log-scale means:
    /// the last segment's, or the one before it when the last is a short burst at the very end.
    pub relative_to_last: f64,
    pub equivalent_to_last: bool,
}

/// One series' verdict.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SeriesVerdict {
    pub series: String,
    pub classification: Classification,
    pub start_s: f64,
    pub segments: Vec<Segment>,
    pub reason: String,
}

/// One detector or cross-check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Detector {
    pub name: String,
    /// `steady_from`, `never_stable`, `no_trend`, `trend`, `shift`, `no_shift`, `cut`, `not_run`.
    pub verdict: String,
    pub start_s: Option<f64>,
    pub reason: String,
    /// `reason` as data where a report words it in another language (the trend tests, which a
    /// drift finding names); empty otherwise.
    #[serde(default, skip_serializing_if = "credence_messages::Message::is_empty")]
    pub message: credence_messages::Message,
}

/// A drift that remains inside the retained window (Mann–Kendall, Hamed–Rao): the numbers
/// its detector's reason states, for the report's other languages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Trend {
    pub p: f64,
    /// Sen slope over the window, relative.
    pub drift: f64,
    pub limit: f64,
    pub windows: usize,
    pub window_s: f64,
}

impl Trend {
    pub fn english(&self) -> String {
        self.message().render(credence_messages::Lang::En)
    }

    /// The trend test's numbers as a message (`steady-trend`).
    pub fn message(&self) -> credence_messages::Message {
        credence_messages::Message::new("steady-trend")
            .num("p", self.p, 3)
            .text("drift", format!("{:+.1}", self.drift * 100.0))
            .num("limit", self.limit * 100.0, 0)
            .int("windows", self.windows)
            .num("window", self.window_s, 0)
    }
}

/// The steady window and how it was found.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    /// The first remaining drift (the `trend` detector the drift finding names); None in an
    /// analysis read back from its JSON.
    #[serde(skip)]
    pub trend: Option<Trend>,
    /// Whether the detectors agree on where steady state starts, in words.
    pub agreement: String,
}

/// Forward-filled medians (log scale) of `values` by start bucket, over runs of `merge`
/// buckets (a detection window; the last may be shorter).
fn log_median_series(values: &[f64], buckets: &[Vec<u32>], merge: usize) -> Option<Vec<f64>> {
    let mut v = Vec::new();
    let mut out: Vec<f64> = buckets
        .chunks(merge)
        .map(|c| {
            v.clear();
            v.extend(c.iter().flatten().map(|&i| values[i as usize]).filter(|x| x.is_finite() && *x > 0.0));
            quantile_in_place(&mut v, 0.5).map_or(f64::NAN, f64::ln)
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

/// PELT's shortest segment, in (merged) detection windows.
const PELT_MIN_SEGMENT: usize = 5;

fn segments(y: &[f64], penalty: Penalty) -> Vec<Seg> {
    let var_all = {
        let m = y.iter().sum::<f64>() / y.len() as f64;
        y.iter().map(|v| (v - m).powi(2)).sum::<f64>() / y.len() as f64
    };
    let cps = pelt(y, penalty, PELT_MIN_SEGMENT, (var_all * 1e-3).max(1e-12));
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
    if let Some(lrv) = credence_stats::block_length::long_run_variance(&resid) {
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
        let r1 = credence_stats::acf::acf(&resid, 1).get(1).copied().unwrap_or(0.0);
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

/// The longest departure from the final level, as a share of the run, that counts as an
/// excursion rather than a level still moving (see `Levels::is_excursion`).
const EXCURSION_MAX_SHARE: f64 = 0.03;

/// The PELT levels of one series, judged against the final one (the level the run ends on).
struct Levels {
    segs: Vec<Seg>,
    /// Log-scale width of "the same level" (`ln(1 + delta)`).
    tol: f64,
    bucket_s: f64,
    /// Index of the final level: the last segment unless `set_aside_final_burst` chose another.
    reference: usize,
}

impl Levels {
    fn new(segs: Vec<Seg>, tol: f64, bucket_s: f64) -> Levels {
        let reference = segs.len() - 1;
        Levels { segs, tol, bucket_s, reference }
    }

    /// Judges against the level before a short burst at the very end of the run (at most
    /// `EXCURSION_MAX_SHARE` of it, after a longer level it differs from): a run that ends on
    /// a few slow seconds has not "reached its final level late".
    fn set_aside_final_burst(mut self) -> Levels {
        let k = self.segs.len();
        if k >= 2 {
            let n = self.segs[k - 1].b as f64;
            let short = |s: &Seg| (s.b - s.a) as f64 <= EXCURSION_MAX_SHARE * n;
            let (before, last) = (&self.segs[k - 2], &self.segs[k - 1]);
            if short(last) && !short(before) && !self.equiv(before, last) {
                self.reference = k - 2;
            }
        }
        self
    }

    /// Whether two levels are the same within the tolerance plus twice their sampling error.
    fn equiv(&self, s: &Seg, t: &Seg) -> bool {
        (s.mean - t.mean).abs() <= self.tol + 2.0 * (s.se.powi(2) + t.se.powi(2)).sqrt()
    }

    /// The level the run ends on.
    fn last(&self) -> &Seg {
        &self.segs[self.reference]
    }

    /// Index of the first segment equivalent to the final level: everything before it is a
    /// transient.
    fn first_final(&self) -> usize {
        let l = self.last();
        let mut i = 0;
        while i < self.reference && !self.equiv(&self.segs[i], l) {
            i += 1;
        }
        i
    }

    /// Seconds from the first send at bucket `b` of this (possibly merged) series.
    fn seconds(&self, b: usize) -> f64 {
        b as f64 * self.bucket_s
    }

    /// Barrett's rule on the leading segments: flat, warmup (slower) or slowdown (faster
    /// beyond the fill).
    fn leading_verdict(&self, i: usize, fill_s: f64) -> (Classification, String) {
        let l = self.last();
        let slower_lead = self.segs[..i].iter().any(|s| s.mean > l.mean);
        let start = self.segs[i].a;
        // Faster leading segments are the server filling up only while the fill lasts (plus 10 s);
        // beyond that, the run got slower: Barrett's slowdown.
        let ramp_up_only = self.seconds(start) <= fill_s + 10.0;
        let classification = match (slower_lead, i > 0 && !ramp_up_only) {
            (true, _) => Classification::Warmup,
            (false, true) => Classification::Slowdown,
            (false, false) => Classification::Flat,
        };
        let reason = match (i, slower_lead, ramp_up_only) {
            (0, _, _) => "one level from the start".to_string(),
            (_, true, _) => format!("{} leading segment(s) slower than the final level", i),
            (_, false, true) => format!("{} leading segment(s) faster than the final level (server filling up)", i),
            (_, false, false) => {
                format!("the run got slower: {} leading segment(s) up to {:.0} s are faster than the final level", i, self.seconds(start))
            }
        };
        (classification, reason)
    }

    /// Overrides the leading verdict when the final level comes late, still moves in the last
    /// quarter, or is slower than the run's main level.
    fn late_verdict(&self, i: usize, n: usize) -> Option<(Classification, String)> {
        let l = self.last();
        let start = self.segs[i].a;
        let late = (0.75 * n as f64) as usize;
        if start > late {
            Some((Classification::NoSteadyState, format!("the final level is reached only at {:.0} s, after 75 % of the run", self.seconds(start))))
        } else if let Some(s) =
            (i..self.reference).find(|&k| !self.equiv(&self.segs[k], l) && self.segs[k].b > late && !self.is_excursion(k, i, n)).map(|k| &self.segs[k])
        {
            let reason = format!(
                "the level still moves in the last quarter ({:.0}–{:.0} s differs from the end by {:+.0} %)",
                self.seconds(s.a),
                self.seconds(s.b),
                ((s.mean - l.mean).exp() - 1.0) * 100.0
            );
            Some((Classification::NoSteadyState, reason))
        } else if let Some(main) = self.segs[i..].iter().max_by_key(|s| s.b - s.a)
            && !self.equiv(main, l)
            && l.mean > main.mean
        {
            Some((Classification::Slowdown, format!("the final level is {:.0} % slower than the main level", ((l.mean - main.mean).exp() - 1.0) * 100.0)))
        } else {
            None
        }
    }

    /// Whether segment `k` (after the first final-level segment `i`) is a short excursion the
    /// run returns from: at most `EXCURSION_MAX_SHARE` of the `n` windows, with the final level
    /// on both sides. A burst of a few seconds in a long run is a break, not a level that
    /// still moves; a drift has no final level before its last steps.
    fn is_excursion(&self, k: usize, i: usize, n: usize) -> bool {
        let (s, l) = (&self.segs[k], self.last());
        k > i && (s.b - s.a) as f64 <= EXCURSION_MAX_SHARE * n as f64 && self.equiv(&self.segs[k - 1], l) && self.equiv(&self.segs[k + 1], l)
    }

    /// A segment as reported, relative to the last level.
    fn to_segment(&self, s: &Seg) -> Segment {
        let l = self.last();
        Segment { start_s: self.seconds(s.a), end_s: self.seconds(s.b), relative_to_last: (s.mean - l.mean).exp() - 1.0, equivalent_to_last: self.equiv(s, l) }
    }
}

/// One detection series: log medians per detection window, and per bucket when windows merge
/// several buckets (to place the start at bucket resolution).
struct DetectionSeries {
    windows: Vec<f64>,
    /// Per bucket; None when a window is one bucket.
    buckets: Option<Vec<f64>>,
    /// Buckets per window.
    merge: usize,
    bucket_s: f64,
}

impl DetectionSeries {
    /// The series of `values` over the first `end_bucket` buckets of `grid`.
    fn of(values: &[f64], grid: &Grid, end_bucket: usize) -> Option<DetectionSeries> {
        let by_start = &grid.by_start[..end_bucket];
        let (windows, buckets) =
            rayon::join(|| log_median_series(values, by_start, grid.merge), || (grid.merge > 1).then(|| log_median_series(values, by_start, 1)));
        let buckets = match buckets {
            Some(b) => Some(b?),
            None => None,
        };
        let windows = windows?;
        Some(DetectionSeries { windows, buckets, merge: grid.merge, bucket_s: grid.bucket_s })
    }

    /// The per-bucket series (the windows when they are buckets).
    fn fine(&self) -> &[f64] {
        self.buckets.as_deref().unwrap_or(&self.windows)
    }
}

/// Longest run of buckets a transient's end is segmented again over (PELT costs its square).
const REFINE_MAX_BUCKETS: usize = 1000;

/// The PELT levels of `y` merged for independence, and the merge factor.
fn levels_of(y: &[f64], bucket_s: f64, opts: &SteadyOptions) -> (Levels, usize) {
    let f = independence_factor(y);
    let y = &aggregate(y, f);
    let mut segs = segments(y, opts.penalty);
    set_level_errors(y, &mut segs);
    (Levels::new(segs, (1.0 + opts.delta).ln(), bucket_s * f as f64).set_aside_final_burst(), f)
}

/// The start of the final level at bucket resolution, for a transient found on merged windows
/// from bucket `from` to bucket `at`: PELT and Barrett's rule again, on the buckets from the
/// transient (its last `REFINE_MAX_BUCKETS`) to a little past its end. A short transient
/// matters most here: PELT's minimum of 5 merged windows per segment can stretch it.
fn refine_boundary(fine: &[f64], from: usize, at: usize, unit: usize, opts: &SteadyOptions) -> usize {
    let hi = (at + (2 * unit).max(50)).min(fine.len());
    let lo = from.max(hi.saturating_sub(REFINE_MAX_BUCKETS));
    if hi - lo < 24 || lo >= at {
        return at;
    }
    // Independence and noise are measured on the final level past the boundary: the window
    // itself is mostly transient, whose misfit would swamp them.
    let tail_from = if fine.len() >= at + unit + 50 { at + unit } else { at };
    let tail = &fine[tail_from..(tail_from + REFINE_MAX_BUCKETS).min(fine.len())];
    let f = independence_factor(tail);
    let y = aggregate(&fine[lo..hi], f);
    let mut segs = segments(&y, opts.penalty);
    let tail = aggregate(tail, f);
    let mean = tail.iter().sum::<f64>() / tail.len() as f64;
    let resid: Vec<f64> = tail.iter().map(|v| v - mean).collect();
    if let Some(lrv) = credence_stats::block_length::long_run_variance(&resid) {
        for s in segs.iter_mut() {
            s.se = s.se.max((lrv / (s.b - s.a) as f64).sqrt());
        }
    }
    let levels = Levels::new(segs, (1.0 + opts.delta).ln(), f as f64);
    lo + levels.segs[levels.first_final()].a * f
}

/// A warmup at the head of a long run, found at bucket resolution: merged detection windows
/// cannot hold a transient shorter than five of them (PELT's shortest segment), so a 2-minute
/// warmup of a 24-hour run (44-s windows) would pass as flat. The head's first
/// `MAX_DETECTION_WINDOWS` buckets get their own levels, judged against the level the head ends
/// on; the bucket where that level starts, and why, when slower leading segments precede it.
fn head_warmup(fine: &[f64], bucket_s: f64, fill_s: f64, opts: &SteadyOptions) -> Option<(usize, String)> {
    let head = &fine[..fine.len().min(MAX_DETECTION_WINDOWS)];
    if head.len() < 24 {
        return None;
    }
    let (levels, f) = levels_of(head, bucket_s, opts);
    let i = levels.first_final();
    let (classification, reason) = levels.leading_verdict(i, fill_s);
    (classification == Classification::Warmup).then(|| (levels.segs[i].a * f, reason))
}

/// The window where a warmup found on `levels` (merged ×`unit` from the per-window series
/// `fine`) ends, and how that was decided: the least-squares warmup shape's end (`settle`),
/// fitted from window `from` (the fill) to the end of the final level, no later than one
/// shortest PELT segment past PELT's boundary. PELT's boundary stands when the shape ends
/// before it by more than that boundary's uncertainty and the windows in between are still
/// slower than the final level by more than the margin and their error (a slow tail after a
/// sharp drop, which one decline cannot follow). On merged windows the uncertainty is a shortest
/// segment (PELT moves a boundary by whole merged windows when anything else in the series
/// changes); on unmerged windows, none.
fn warmup_end(fine: &[f64], levels: &Levels, unit: usize, from: usize, opts: &SteadyOptions) -> Option<(usize, &'static str)> {
    let i = levels.first_final();
    let last = levels.last();
    let (a, b) = ((last.a * unit).min(fine.len()), (last.b * unit).min(fine.len()));
    let boundary = (levels.segs[i].a * unit).min(b);
    let shortest = PELT_MIN_SEGMENT * unit;
    let c_max = (boundary + shortest).min(levels.segs[i].b * unit).min(b);
    let end = warmup_shape_end(&fine[..b], from, c_max)?;
    let uncertainty = if unit > 1 { shortest } else { 0 };
    let level = FinalLevel::of(&fine[a..b], REFINE_MAX_BUCKETS)?;
    if end + uncertainty < boundary && !level.reached_by(&fine[end..boundary], (1.0 + opts.delta).ln()) {
        Some((boundary, "kept at PELT's boundary: the windows after the fitted decline are still slower than the final level"))
    } else {
        Some((end, "placed where a fitted decline meets the final level"))
    }
}

/// Classifies one detection series with Barrett's rule; the start of a transient found on
/// merged windows is refined to a bucket, and the head of a run with merged windows is
/// searched for a warmup too short for them.
fn classify_series(name: &str, d: &DetectionSeries, fill_s: f64, opts: &SteadyOptions) -> SeriesVerdict {
    let (levels, f) = levels_of(&d.windows, d.bucket_s * d.merge as f64, opts);
    let i = levels.first_final();
    let (mut classification, mut reason) = levels.leading_verdict(i, fill_s);
    if let Some((c, r)) = levels.late_verdict(i, d.windows.len().div_ceil(f)) {
        classification = c;
        reason = r;
    }
    if f > 1 {
        reason.push_str(&format!(" (windows merged ×{f} for independence)"));
    }
    let mut start_s = levels.seconds(levels.segs[i].a);
    if let Some(fine) = d.buckets.as_deref().filter(|_| i == 0 && classification == Classification::Flat)
        && let Some((b, why)) = head_warmup(fine, d.bucket_s, fill_s, opts)
    {
        classification = Classification::Warmup;
        start_s = b as f64 * d.bucket_s;
        reason = format!(
            "{why}, in the first {:.0} s at {:.0}-s resolution (the run's {:.0}-s detection windows are too coarse for a warmup this short)",
            fine.len().min(MAX_DETECTION_WINDOWS) as f64 * d.bucket_s,
            d.bucket_s,
            d.bucket_s * d.merge as f64
        );
    }
    let unit = d.merge * f;
    if i > 0
        && classification == Classification::Warmup
        && let Some((end, how)) = warmup_end(d.fine(), &levels, unit, (fill_s / d.bucket_s) as usize, opts)
    {
        start_s = end as f64 * d.bucket_s;
        reason.push_str(&format!(" (its end {how}, at {:.0}-s windows: {start_s:.0} s)", d.bucket_s));
    } else if let Some(fine) = d.buckets.as_deref().filter(|_| i > 0) {
        start_s = refine_boundary(fine, levels.segs[i - 1].a * unit, levels.segs[i].a * unit, unit, opts) as f64 * d.bucket_s;
        reason.push_str(&format!(" (start placed at {:.0} s windows: {start_s:.0} s)", d.bucket_s));
    }
    let segments = levels.segs.iter().map(|s| levels.to_segment(s)).collect();
    SeriesVerdict { series: name.to_string(), classification, start_s, segments, reason }
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

/// Most detection windows PELT and the other window-level statistics see. A soak run of 24 h
/// at one-second buckets has 86 400 of them, and PELT with few change points, the Sen slope,
/// Mann–Kendall and the Hamed–Rao autocorrelation all cost the square of that; 2000 windows
/// keep them to a fraction of a second. Runs up to 33 minutes at 1-s buckets are not merged.
pub const MAX_DETECTION_WINDOWS: usize = 2000;

/// The buckets of a run: the analysis window, widened until it holds ~10 requests. Detection
/// windows are `merge` consecutive buckets, so that there are at most `MAX_DETECTION_WINDOWS`.
struct Grid {
    last_sent: f64,
    bucket_s: f64,
    n_buckets: usize,
    /// Buckets per detection window (1 unless the run has more than `MAX_DETECTION_WINDOWS`).
    merge: usize,
    /// Requests by the bucket of their send.
    by_start: Vec<Vec<u32>>,
    /// Sends per bucket.
    sends: Vec<f64>,
    /// Successful completions per bucket.
    completions: Vec<f64>,
}

impl Grid {
    /// Buckets the run's sends and completions on `clock`.
    fn new(r: &RequestView, clock: &Clock<'_>, window_s: f64) -> Grid {
        let last_sent = clock.sent_s.iter().copied().filter(|x| x.is_finite()).fold(0.0, f64::max);
        let kept = clock.sent_s.iter().filter(|x| x.is_finite()).count();
        let per_window = kept as f64 / (last_sent / window_s).max(1.0);
        let bucket_s = window_s * (10.0 / per_window.max(1e-9)).ceil().max(1.0);
        let n_buckets = ((last_sent / bucket_s).floor() as usize + 1).max(1);
        let (by_start, completions) = rayon::join(
            || bucket(&clock.sent_s, bucket_s, n_buckets),
            || count_by_window(&clock.end_s, bucket_s, n_buckets, |i| r.ok[i]).into_iter().map(|c| c as f64).collect(),
        );
        let sends: Vec<f64> = by_start.iter().map(|b| b.len() as f64).collect();
        let merge = n_buckets.div_ceil(MAX_DETECTION_WINDOWS).max(1);
        Grid { last_sent, bucket_s, n_buckets, merge, by_start, sends, completions }
    }

    /// Seconds from the first send at the start of bucket `b`.
    fn seconds(&self, b: usize) -> f64 {
        b as f64 * self.bucket_s
    }

    /// Width of a detection window, seconds.
    fn detection_s(&self) -> f64 {
        self.bucket_s * self.merge as f64
    }
}

/// Means of runs of `merge` values (the last run may be shorter): a per-bucket rate as a
/// per-bucket rate over detection windows.
fn chunk_means(v: &[f64], merge: usize) -> Vec<f64> {
    v.chunks(merge).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect()
}

/// Ramp-down: the bucket where measurement ends, cutting trailing buckets that send clearly
/// less than the main level, and the last (partial) bucket.
fn ramp_down_end(grid: &Grid, detectors: &mut Vec<Detector>) -> usize {
    let mut end_bucket = grid.n_buckets.saturating_sub(1).max(1);
    if grid.sends.len() < 10 {
        return end_bucket;
    }
    // On detection windows (sends per bucket, averaged); the cut is a window boundary.
    let sends = chunk_means(&grid.sends[..end_bucket], grid.merge);
    let segs = segments(&sends, Penalty::Mbic);
    if let Some(main) = segs.iter().max_by_key(|s| s.b - s.a) {
        let mut cut = sends.len();
        for s in segs.iter().rev() {
            if s.mean < 0.85 * main.mean && s.b == cut {
                cut = s.a;
            } else {
                break;
            }
        }
        if cut < sends.len() {
            let cut = cut * grid.merge;
            detectors.push(Detector {
                name: "ramp_down".into(),
                verdict: "cut".into(),
                start_s: Some(grid.seconds(cut)),
                reason: format!("the send rate falls below 85 % of its main level from {:.0} s", grid.seconds(cut)),
                message: Default::default(),
            });
            end_bucket = cut.max(1);
        }
    }
    end_bucket
}

/// Ramp-up: the first bucket whose in-flight concurrency reaches 90 % of its median.
fn ramp_up_fill(clock: &Clock<'_>, grid: &Grid, end_bucket: usize) -> usize {
    let mut conc = vec![0.0; grid.n_buckets];
    for (s, e) in clock.sent_s.iter().zip(clock.end_s.iter()) {
        if s.is_finite() && e.is_finite() {
            let (a, b) = ((s / grid.bucket_s) as usize, ((e / grid.bucket_s) as usize).min(grid.n_buckets - 1));
            for c in conc.iter_mut().take(b + 1).skip(a) {
                *c += 1.0;
            }
        }
    }
    let median_conc = quantile_unsorted(&conc[..end_bucket], 0.5).unwrap_or(0.0);
    conc[..end_bucket].iter().position(|&c| c >= 0.9 * median_conc).unwrap_or(0)
}

/// The Sen slope of a series against its index.
fn index_slope(w: &[f64]) -> f64 {
    let pts: Vec<(f64, f64)> = w.iter().enumerate().map(|(i, v)| (i as f64, *v)).collect();
    sen_slope(&pts).unwrap_or(0.0)
}

/// Performance degrading through the whole run (after the fill) is a drift, not a state.
fn whole_run_trend(name: &str, y: &[f64], fill: usize, classification: Classification, opts: &SteadyOptions) -> Option<Detector> {
    let f = independence_factor(&y[fill.min(y.len() - 1)..]);
    let whole = aggregate(&y[fill.min(y.len() - 1)..], f);
    if whole.len() < 10 {
        return None;
    }
    let slope = index_slope(&whole);
    let drift = (slope * whole.len() as f64).exp() - 1.0;
    let mk = hamed_rao(&whole, slope, 0.05)?;
    let message = credence_messages::Message::new("steady-whole-run-trend")
        .text("series", name.to_uppercase())
        .text("drift", format!("{:+.0}", drift * 100.0))
        .num("p", mk.p, 3);
    (mk.p < 0.05 && drift > 3.0 * opts.delta && classification != Classification::Warmup).then(|| Detector {
        name: format!("mann_kendall_hamed_rao_whole_run({name})"),
        verdict: "trend".into(),
        start_s: None,
        reason: message.render(credence_messages::Lang::En),
        message,
    })
}

/// What the PELT pass over the TTFT and TPOT series decided.
struct SeriesPass {
    series: Vec<SeriesVerdict>,
    /// The detection series that were classified, for the residual checks.
    retained: Vec<(String, DetectionSeries)>,
    start_bucket: usize,
    classification: Classification,
    ttft_warmup: bool,
}

impl SeriesPass {
    /// Folds one series' verdict into the run's start and classification.
    fn merge(&mut self, name: &str, v: &SeriesVerdict, bucket_s: f64, detectors: &mut Vec<Detector>) {
        // TTFT is the primary series. TPOT, smoother and shared by every request in flight, can
        // extend a warmup that TTFT also sees, and can demote the run; a warmup that only TPOT
        // sees is reported as a disagreement.
        let primary = name == "ttft";
        if primary {
            self.ttft_warmup = v.classification == Classification::Warmup;
        }
        if primary || self.ttft_warmup || v.classification > Classification::Warmup {
            self.start_bucket = self.start_bucket.max((v.start_s / bucket_s).round() as usize);
            self.classification = self.classification.max(v.classification);
        } else if v.classification == Classification::Warmup {
            detectors.push(Detector {
                name: format!("pelt({name})"),
                verdict: "steady_from".into(),
                start_s: Some(v.start_s),
                reason: format!("{name} alone suggests a warmup until {:.0} s; TTFT does not, so the window is not cut", v.start_s),
                message: Default::default(),
            });
        }
    }
}

/// Segments and classifies the TTFT and TPOT series, and merges their verdicts.
fn classify_run(r: &RequestView, grid: &Grid, end_bucket: usize, fill: usize, opts: &SteadyOptions, detectors: &mut Vec<Detector>) -> SeriesPass {
    let mut pass = SeriesPass { series: Vec::new(), retained: Vec::new(), start_bucket: fill, classification: Classification::Flat, ttft_warmup: false };
    // The two series are built and segmented in parallel, then merged in a fixed order.
    let judge = |name: &'static str, values: &[f64]| {
        let y = DetectionSeries::of(values, grid, end_bucket).filter(|y| y.windows.len() >= 12)?;
        let v = classify_series(name, &y, grid.seconds(fill), opts);
        let trend = whole_run_trend(name, &y.windows, fill / grid.merge, v.classification, opts);
        Some((name, y, v, trend))
    };
    let (ttft, tpot) = rayon::join(|| judge("ttft", &r.ttft_ms), || judge("tpot", &r.tpot_ms));
    for (name, y, v, trend) in [ttft, tpot].into_iter().flatten() {
        pass.merge(name, &v, grid.bucket_s, detectors);
        if let Some(d) = trend {
            pass.classification = Classification::NoSteadyState;
            detectors.push(d);
        }
        pass.retained.push((name.to_string(), y));
        pass.series.push(v);
    }
    if pass.series.is_empty() {
        pass.classification = Classification::NoSteadyState;
        detectors.push(Detector {
            name: "pelt".into(),
            verdict: "not_run".into(),
            start_s: None,
            reason: format!("{end_bucket} detection windows of {} s: too few to find a steady state", grid.bucket_s),
            message: Default::default(),
        });
    }
    pass.start_bucket = pass.start_bucket.min(end_bucket.saturating_sub(1));
    pass
}

/// Mann–Kendall (Hamed–Rao) on the retained window `w` (merged ×`f`); the bool says whether
/// the drift exceeds its limit.
fn residual_trend(name: &str, w: &[f64], f: usize, bucket_s: f64, opts: &SteadyOptions) -> Option<(Detector, Option<Trend>)> {
    let slope = index_slope(w);
    let mk = hamed_rao(w, slope, 0.05)?;
    let drift = (slope * w.len() as f64).exp() - 1.0;
    let limit = 3.0 * opts.delta;
    let trend = mk.p < 0.05 && drift.abs() > limit;
    let stats = Trend { p: mk.p, drift, limit, windows: w.len(), window_s: bucket_s * f as f64 };
    let detector = Detector {
        name: format!("mann_kendall_hamed_rao({name})"),
        verdict: if trend { "trend" } else { "no_trend" }.into(),
        start_s: None,
        reason: stats.english(),
        message: stats.message(),
    };
    Some((detector, trend.then_some(stats)))
}

/// Pettitt's test for a level shift in the retained window `w` (merged ×`f`, from `from_s`).
fn level_shift(name: &str, w: &[f64], f: usize, from_s: f64, bucket_s: f64, delta: f64) -> Option<Detector> {
    let pt = pettitt(w)?;
    let (a, b) = w.split_at(pt.change_after.min(w.len() - 1));
    let shift = (b.iter().sum::<f64>() / b.len() as f64 - a.iter().sum::<f64>() / a.len() as f64).exp() - 1.0;
    let found = pt.p < 0.05 && shift.abs() > delta;
    Some(Detector {
        name: format!("pettitt({name})"),
        verdict: if found { "shift" } else { "no_shift" }.into(),
        start_s: Some(from_s + pt.change_after as f64 * bucket_s * f as f64),
        reason: format!("p = {:.3}, level shift {:+.1} %", pt.p, shift * 100.0),
        message: Default::default(),
    })
}

/// Residual drift and level shifts inside the retained window, on windows merged until nearly
/// independent (Mann–Kendall and Pettitt assume little autocorrelation). Returns the first
/// trend that remains.
fn residual_checks(pass: &SeriesPass, grid: &Grid, end_bucket: usize, opts: &SteadyOptions, detectors: &mut Vec<Detector>) -> Option<Trend> {
    let mut trend = None;
    // On detection windows: the first that starts at or after the steady start.
    let (a, b) = (pass.start_bucket.div_ceil(grid.merge), end_bucket.div_ceil(grid.merge));
    for (name, y) in &pass.retained {
        let y = &y.windows[a.min(b)..b];
        let f = independence_factor(y);
        let w = aggregate(y, f);
        if w.len() < 10 {
            continue;
        }
        if let Some((d, t)) = residual_trend(name, &w, f, grid.detection_s(), opts) {
            trend = trend.or(t);
            detectors.push(d);
        }
        detectors.extend(level_shift(name, &w, f, grid.seconds(a * grid.merge), grid.detection_s(), opts.delta));
    }
    trend
}

/// Whether the cross-checks put the start where PELT does (within 5 s or 10 %).
struct Agreement {
    pelt_start: f64,
    tolerance: f64,
    agree: Vec<&'static str>,
    disagree: Vec<String>,
}

impl Agreement {
    /// Records whether detector `who`'s start `s` agrees with PELT's.
    fn note(&mut self, who: &'static str, s: f64) {
        if (s - self.pelt_start).abs() <= self.tolerance { self.agree.push(who) } else { self.disagree.push(format!("{who} says {s:.0} s")) }
    }

    /// The agreement in words.
    fn text(&self) -> String {
        if self.disagree.is_empty() {
            format!("the detectors agree on the start ({})", if self.agree.is_empty() { "PELT only".to_string() } else { self.agree.join(", ") })
        } else {
            format!("the detectors disagree: PELT says {:.0} s; {}", self.pelt_start, self.disagree.join("; "))
        }
    }
}

/// MSER-5 on the primary series.
fn mser_check(y: &[f64], grid: &Grid, agreement: &mut Agreement) -> Detector {
    let Some(m) = mser5(y) else {
        return Detector { name: "mser5(ttft)".into(), verdict: "not_run".into(), start_s: None, reason: "fewer than 20 windows".into(), message: Default::default() };
    };
    let s = grid.seconds(m.truncate);
    let (verdict, reason) = if m.at_boundary {
        ("never_stable", "the minimum sits at the end of the search range".to_string())
    } else {
        ("steady_from", format!("truncate {} detection windows", m.truncate))
    };
    agreement.note("MSER-5", s);
    Detector { name: "mser5(ttft)".into(), verdict: verdict.into(), start_s: Some(s), reason, message: Default::default() }
}

/// A per-bucket statistic of the finite TTFTs of the requests sent in each bucket (given them
/// in a scratch buffer it may reorder).
fn ttft_per_bucket(r: &RequestView, buckets: &[Vec<u32>], stat: impl Fn(&mut [f64]) -> f64) -> Vec<f64> {
    let mut v = Vec::new();
    buckets
        .iter()
        .map(|b| {
            v.clear();
            v.extend(b.iter().map(|&i| r.ttft_ms[i as usize]).filter(|x| x.is_finite()));
            stat(&mut v)
        })
        .collect()
}

/// perf_analyzer's 3-window ±10 % rule on throughput and mean TTFT.
fn perf_analyzer_check(thr: &[f64], ttft_mean: &[f64], group: usize, grid: &Grid, agreement: &mut Agreement) -> Detector {
    match perf_analyzer_rule(thr, ttft_mean, group) {
        Some(i) => {
            let s = grid.seconds(i);
            agreement.note("perf_analyzer's rule", s);
            Detector {
                name: "perf_analyzer_3_window".into(),
                verdict: "steady_from".into(),
                start_s: Some(s),
                reason: format!("3 windows of {:.0} s within ±10 % in throughput and mean TTFT", group as f64 * grid.bucket_s),
                message: Default::default(),
            }
        }
        None => {
            agreement.disagree.push("perf_analyzer's rule never finds 3 stable windows".into());
            Detector {
                name: "perf_analyzer_3_window".into(),
                verdict: "never_stable".into(),
                start_s: None,
                reason: "no 3 consecutive windows within ±10 %".into(),
                message: Default::default(),
            }
        }
    }
}

/// The practitioners' rule: consecutive windows within 2 % throughput and 5 % P99 TTFT.
fn practitioners_check(thr: &[f64], ttft_p99: &[f64], group: usize, grid: &Grid) -> Detector {
    match practitioners_rule(thr, ttft_p99, group) {
        Some(i) => Detector {
            name: "practitioners_2pct_5pct".into(),
            verdict: "steady_from".into(),
            start_s: Some(grid.seconds(i)),
            reason: "consecutive windows within 2 % throughput and 5 % P99 TTFT".into(),
            message: Default::default(),
        },
        None => Detector {
            name: "practitioners_2pct_5pct".into(),
            verdict: "never_stable".into(),
            start_s: None,
            reason: "consecutive windows never stay within 2 % throughput and 5 % P99 TTFT (too strict for this noise level)".into(),
            message: Default::default(),
        },
    }
}

/// Cross-checks of PELT's start (MSER-5, perf_analyzer's rule, the practitioners' rule);
/// returns whether they agree, in words.
fn cross_checks(r: &RequestView, grid: &Grid, pass: &SeriesPass, end_bucket: usize, detectors: &mut Vec<Detector>) -> String {
    let pelt_start = grid.seconds(pass.start_bucket);
    let mut agreement = Agreement { pelt_start, tolerance: (5.0f64).max(0.1 * pelt_start), agree: Vec::new(), disagree: Vec::new() };
    if let Some((_, y)) = pass.retained.first() {
        detectors.push(mser_check(&y.fine()[..end_bucket], grid, &mut agreement));
    }
    let buckets = &grid.by_start[..end_bucket];
    let (ttft_mean, ttft_p99) = rayon::join(
        || ttft_per_bucket(r, buckets, |v| if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 }),
        || ttft_per_bucket(r, buckets, |v| quantile_in_place(v, 0.99).unwrap_or(0.0)),
    );
    let group = ((5.0 / grid.bucket_s).round() as usize).max(1);
    let thr = &grid.completions[..end_bucket];
    detectors.push(perf_analyzer_check(thr, &ttft_mean, group, grid, &mut agreement));
    detectors.push(practitioners_check(thr, &ttft_p99, group, grid));
    agreement.text()
}

/// The measured window in seconds, and whether the user overrode it.
fn measured_window(grid: &Grid, start_bucket: usize, end_bucket: usize, opts: &SteadyOptions) -> (f64, f64, bool) {
    let mut start_s = grid.seconds(start_bucket);
    let mut end_s = grid.seconds(end_bucket).min(grid.last_sent + 1e-9);
    if end_bucket >= grid.n_buckets.saturating_sub(1) {
        end_s = grid.last_sent + 1e-9;
    }
    if let Some((from, to)) = opts.override_window {
        start_s = from.unwrap_or(start_s).max(0.0);
        end_s = to.unwrap_or(end_s).max(start_s);
        return (start_s, end_s, true);
    }
    (start_s, end_s, false)
}

/// Detects the steady window of a run.
pub fn steady_state(r: &RequestView, opts: &SteadyOptions) -> SteadyState {
    steady_state_excluding(r, opts, &[])
}

/// Detects the steady window of a run on its clean series: the `excluded` spans (episodes with
/// an environmental cause) are cut out of the timeline before detection, so that an explained
/// episode neither moves the warmup cut nor hides a warmup it overlaps. Times in the result are
/// the run's own. A window the user set (`--steady-from/--steady-to`) excludes nothing.
pub fn steady_state_excluding(r: &RequestView, opts: &SteadyOptions, excluded: &[Span]) -> SteadyState {
    let cut = if opts.override_window.is_some() { Cut::new(&[]) } else { Cut::new(excluded) };
    let clock = cut.clock(r);
    let grid = Grid::new(r, &clock, opts.window_s);
    let mut detectors = Vec::new();
    let end_bucket = ramp_down_end(&grid, &mut detectors);
    let fill = ramp_up_fill(&clock, &grid, end_bucket);
    let mut pass = classify_run(r, &grid, end_bucket, fill, opts, &mut detectors);
    let trend = residual_checks(&pass, &grid, end_bucket, opts, &mut detectors);
    if trend.is_some() {
        pass.classification = Classification::NoSteadyState;
    }
    let agreement = cross_checks(r, &grid, &pass, end_bucket, &mut detectors);
    let (start_c, end_c, overridden) = measured_window(&grid, pass.start_bucket, end_bucket, opts);
    let last_sent = r.sent_s.iter().copied().filter(|x| x.is_finite()).fold(0.0, f64::max);
    let start_s = if overridden { start_c } else { cut.real_start(start_c, grid.bucket_s) };
    // The window that runs to the last send ends at the run's last send, excluded or not.
    let end_s = if overridden {
        end_c
    } else if end_c >= grid.last_sent {
        last_sent + 1e-9
    } else {
        cut.real(end_c)
    };
    let start_request = r.sent_s.partition_point(|&t| t < start_s);
    let end_request = r.sent_s.partition_point(|&t| t < end_s);
    let mut series = pass.series;
    cut.restore_series(&mut series, &mut detectors, grid.bucket_s);
    detectors.extend(cut.detector());
    let breaks = series.iter().flat_map(|v| v.segments.iter().filter(|s| !s.equivalent_to_last && s.start_s >= start_s).cloned()).collect();
    SteadyState {
        classification: pass.classification,
        start_s,
        end_s,
        start_request,
        end_request,
        requests_in_window: end_request.saturating_sub(start_request),
        dropped_start_s: start_s,
        dropped_start_requests: start_request,
        dropped_end_s: (last_sent - end_s).max(0.0),
        dropped_end_requests: r.len() - end_request,
        ramp_up_s: cut.real(grid.seconds(fill)),
        detection_window_s: grid.detection_s(),
        overridden,
        penalty: opts.penalty,
        delta: opts.delta,
        series,
        breaks,
        detectors,
        trend,
        agreement,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twelve hours at 10 requests/s (one-second buckets of 10 requests, merged 22 to a
    /// detection window), TTFT and TPOT 1.7× slower for the first `warmup_s`, ±10 % noise.
    fn long_run(warmup_s: f64) -> RequestView {
        run_at_10_per_s(43_200.0, |t| if t < warmup_s { 1.7 } else { 1.0 })
    }

    /// `duration_s` at 10 requests/s, TTFT and TPOT `slowdown(t)` times their level, ±10 % noise.
    fn run_at_10_per_s(duration_s: f64, slowdown: impl Fn(f64) -> f64) -> RequestView {
        let mut r = RequestView::default();
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for i in 0..(duration_s * 10.0) as usize {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let noise = 0.9 + 0.2 * (x >> 11) as f64 / (1u64 << 53) as f64;
            let t = i as f64 / 10.0;
            let slow = slowdown(t);
            r.sent_s.push(t);
            r.end_s.push(t + 1.0);
            r.scheduled_s.push(f64::NAN);
            r.ok.push(true);
            r.ttft_ms.push(40.0 * slow * noise);
            r.tpot_ms.push(15.0 * slow * noise);
        }
        r
    }

    #[test]
    fn a_warmup_too_short_for_merged_windows_is_found_at_bucket_resolution() {
        let opts = SteadyOptions { window_s: 1.0, penalty: Penalty::Mbic, delta: 0.05, override_window: None };
        // 40 s is under two 22-s windows: merged windows alone call this run flat.
        let warm = steady_state(&long_run(40.0), &opts);
        assert_eq!(warm.detection_window_s, 22.0, "the test's premise: windows of 22 buckets");
        assert_eq!(warm.classification, Classification::Warmup, "{:?}", warm.series.iter().map(|s| &s.reason).collect::<Vec<_>>());
        assert!((warm.start_s - 40.0).abs() <= 5.0, "cut at {} s", warm.start_s);
        let flat = steady_state(&long_run(0.0), &opts);
        assert_eq!(flat.classification, Classification::Flat, "{:?}", flat.series.iter().map(|s| &s.reason).collect::<Vec<_>>());
        assert!(flat.start_s <= 5.0, "cut at {} s", flat.start_s);
    }

    #[test]
    fn a_short_burst_late_or_at_the_end_is_a_break_but_a_long_one_ends_the_steady_state() {
        let opts = SteadyOptions { window_s: 1.0, penalty: Penalty::Mbic, delta: 0.05, override_window: None };
        let reasons = |s: &SteadyState| s.series.iter().map(|x| x.reason.clone()).collect::<Vec<_>>();
        // 40 minutes; a 15-s burst 30 % slower at 2000 s (0.6 % of the run), then back.
        let burst = steady_state(&run_at_10_per_s(2400.0, |t| if (2000.0..2015.0).contains(&t) { 1.3 } else { 1.0 }), &opts);
        assert!(!burst.breaks.is_empty(), "the premise: the burst is found as a segment");
        assert_eq!(burst.classification, Classification::Flat, "{:?}", reasons(&burst));
        // The same burst in the run's last 15 s: the final level is the one before it.
        let at_end = steady_state(&run_at_10_per_s(2400.0, |t| if t >= 2385.0 { 1.3 } else { 1.0 }), &opts);
        assert_eq!(at_end.classification, Classification::Flat, "{:?}", reasons(&at_end));
        assert!(at_end.start_s <= 5.0, "cut at {} s", at_end.start_s);
        // The same 30 % for 150 s (6 %): the level still moves in the last quarter.
        let long = steady_state(&run_at_10_per_s(2400.0, |t| if (2000.0..2150.0).contains(&t) { 1.3 } else { 1.0 }), &opts);
        assert_eq!(long.classification, Classification::NoSteadyState, "{:?}", reasons(&long));
    }
}
