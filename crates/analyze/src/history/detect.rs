//! Steps and drift in one configuration's series of one metric.
//!
//! A steady drift looks like a staircase to E-divisive (any split of a trend separates two
//! different levels), and a step looks like a trend to Mann–Kendall. So the step search runs
//! first, and when it finds steps, the steps (segment means) and a straight line (least
//! squares) compete by BIC (each step costing its level and its location): when the line explains the series at least as well, the steps are
//! dropped and the series is reported as drift. Where steps stay, drift is tested within the
//! segments (each value less its segment's median), so a pure step is not also drift.
//!
//! A run enters a metric's series when its estimate of that metric has a two-sided interval;
//! its overall credibility grade does not decide this (a run graded LOW for its P99 sample size
//! still has a precise P50). A significant trend is reported as worse or better only when its
//! size over the series exceeds the noise of the runs' estimates; otherwise it is within noise.

use serde::Serialize;

use super::metric::{HistoryMetric, RunPoint, RunValue};
use super::{HistoryOptions, series::utc_text};
use crate::compare::verdict::Better;
use credence_stats::edivisive::{ChangePoint, e_divisive};
use credence_stats::mann_kendall::{MannKendall, hamed_rao, sen_slope};
use credence_stats::quantile::quantile_unsorted;

/// Fewest trusted runs for a drift test.
pub const MIN_DRIFT_RUNS: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DriftVerdict {
    /// A significant monotonic trend whose size over the series exceeds the runs' noise.
    Drift,
    /// A significant trend whose size over the series is within the runs' noise.
    WithinNoise,
    NoDrift,
    /// Fewer than `MIN_DRIFT_RUNS` runs with an interval of this metric.
    TooFewRuns,
}

/// Slow drift of one metric over one configuration's runs.
#[derive(Debug, Clone, Serialize)]
pub struct Drift {
    pub metric: HistoryMetric,
    pub fingerprint: String,
    pub first_index: Option<usize>,
    pub last_index: Option<usize>,
    pub first_start_time: Option<String>,
    /// Runs tested (those whose estimate of the metric has an interval).
    pub runs: usize,
    pub verdict: DriftVerdict,
    pub mann_kendall: Option<MannKendall>,
    /// Sen's slope as a relative change per run (0.01 = +1 % per run).
    pub slope_per_run: Option<f64>,
    /// The slope over the whole series, relative to its start.
    pub total_change: Option<f64>,
    /// The size a drift over the series must exceed to be reported as worse or better: the
    /// larger of the runs' median 95 % half-width and 1.96 × the runs' scatter about the trend
    /// (relative, log scale).
    pub noise: Option<f64>,
    /// `worse` or `better` for a drift, by the metric's good direction.
    pub direction: Option<&'static str>,
    /// Whether the test ran within segments between steps.
    pub within_segments: bool,
}

/// What the search found in one configuration's series of one metric.
#[derive(Debug, Clone)]
pub struct Found {
    pub metric: HistoryMetric,
    pub fingerprint: String,
    /// Series positions of the runs searched (the metric's estimate has an interval), in order.
    pub trusted: Vec<usize>,
    /// Change points; `index` counts in `trusted`.
    pub change_points: Vec<ChangePoint>,
    pub drift: Drift,
}

/// Searches the runs at `indices` (one configuration) for steps and drift in `m`.
pub fn detect(points: &[RunPoint], indices: &[usize], m: HistoryMetric, o: &HistoryOptions) -> Found {
    let trusted: Vec<usize> = indices.iter().copied().filter(|&i| points[i].values.get(&m).is_some_and(RunValue::has_interval)).collect();
    let raw: Vec<f64> = trusted.iter().map(|&i| points[i].values[&m].estimate).collect();
    let log_scale = raw.iter().all(|v| *v > 0.0);
    let y: Vec<f64> = if log_scale { raw.iter().map(|v| v.ln()).collect() } else { raw.clone() };
    let mut change_points = e_divisive(&y, &o.change_points);
    if !change_points.is_empty() && line_explains_as_well(&y, &change_points) {
        change_points.clear();
    }
    let within = !change_points.is_empty();
    let tested = if within { less_segment_medians(&y, &change_points) } else { y.clone() };
    let half_widths: Vec<f64> = trusted.iter().filter_map(|&i| points[i].values[&m].relative_half_width()).collect();
    let test = drift(&tested, &raw, log_scale, o.drift_significance, &half_widths);
    let first = trusted.first().copied();
    let total_change = test.as_ref().and_then(|d| d.slope).map(|s| (1.0 + s).powf(trusted.len().saturating_sub(1) as f64) - 1.0);
    let drift = Drift {
        metric: m,
        fingerprint: points[indices[0]].fingerprint.clone(),
        first_index: first,
        last_index: trusted.last().copied(),
        first_start_time: first.and_then(|i| points[i].start_ns).map(utc_text),
        runs: trusted.len(),
        direction: test.as_ref().filter(|d| d.verdict == DriftVerdict::Drift).and_then(|d| d.slope).map(|s| direction(s, m.better())),
        verdict: test.as_ref().map_or(DriftVerdict::TooFewRuns, |d| d.verdict),
        mann_kendall: test.as_ref().map(|d| d.mk),
        slope_per_run: test.as_ref().and_then(|d| d.slope),
        total_change,
        noise: test.as_ref().and_then(|d| d.noise),
        within_segments: within,
    };
    Found { metric: m, fingerprint: drift.fingerprint.clone(), trusted, change_points, drift }
}

/// Whether a straight line fits `y` at least as well as the segment means between `cps`, by
/// BIC (n·ln(RSS/n) + parameters·ln n): 2 parameters for the line; for k steps, k + 1 levels
/// and k locations (without the locations, a staircase of many small steps beats a drift).
fn line_explains_as_well(y: &[f64], cps: &[ChangePoint]) -> bool {
    let n = y.len() as f64;
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (xm, ym) = ((n - 1.0) / 2.0, mean(y));
    let sxx: f64 = (0..y.len()).map(|i| (i as f64 - xm).powi(2)).sum();
    let slope = y.iter().enumerate().map(|(i, v)| (i as f64 - xm) * (v - ym)).sum::<f64>() / sxx;
    let rss_line: f64 = y.iter().enumerate().map(|(i, v)| (v - ym - slope * (i as f64 - xm)).powi(2)).sum();
    let bounds: Vec<usize> = std::iter::once(0).chain(cps.iter().map(|c| c.index)).chain(std::iter::once(y.len())).collect();
    let rss_steps: f64 = bounds.windows(2).map(|w| &y[w[0]..w[1]]).map(|seg| seg.iter().map(|v| (v - mean(seg)).powi(2)).sum::<f64>()).sum();
    // A floor keeps a noiseless series from comparing logarithms of zero.
    let floor = f64::MIN_POSITIVE.max(1e-12 * y.iter().map(|v| v * v).sum::<f64>());
    let bic = |rss: f64, params: usize| n * (rss.max(floor) / n).ln() + params as f64 * n.ln();
    bic(rss_line, 2) <= bic(rss_steps, 2 * cps.len() + 1)
}

/// Each value less the median of its segment between change points.
fn less_segment_medians(y: &[f64], cps: &[ChangePoint]) -> Vec<f64> {
    let mut bounds: Vec<usize> = std::iter::once(0).chain(cps.iter().map(|c| c.index)).chain(std::iter::once(y.len())).collect();
    bounds.dedup();
    let mut out = Vec::with_capacity(y.len());
    for w in bounds.windows(2) {
        let seg = &y[w[0]..w[1]];
        let median = quantile_unsorted(seg, 0.5).unwrap_or(0.0);
        out.extend(seg.iter().map(|v| v - median));
    }
    out
}

struct DriftTest {
    verdict: DriftVerdict,
    mk: MannKendall,
    /// Relative change per run.
    slope: Option<f64>,
    noise: Option<f64>,
}

/// The drift test on `tested` (log values, or raw ones when `log_scale` is false); `raw` gives
/// the level a raw slope is relative to; `half_widths` are the runs' relative 95 % half-widths.
fn drift(tested: &[f64], raw: &[f64], log_scale: bool, alpha: f64, half_widths: &[f64]) -> Option<DriftTest> {
    if tested.len() < MIN_DRIFT_RUNS {
        return None;
    }
    let points: Vec<(f64, f64)> = tested.iter().enumerate().map(|(i, v)| (i as f64, *v)).collect();
    let slope = sen_slope(&points)?;
    // Within segments the values are residuals: their pooled Sen slope approximates the common
    // within-segment trend.
    let mk = hamed_rao(tested, slope, 0.05)?;
    let level = if log_scale { None } else { quantile_unsorted(raw, 0.5).filter(|m| *m > 0.0) };
    let relative = if log_scale { Some(slope.exp() - 1.0) } else { level.map(|m| slope / m) };
    let noise = noise(tested, slope, level, log_scale, half_widths);
    let total = relative.map(|s| ((1.0 + s).max(f64::MIN_POSITIVE).ln() * (tested.len() - 1) as f64).abs());
    let verdict = match (mk.p < alpha, total.zip(noise)) {
        (false, _) => DriftVerdict::NoDrift,
        (true, Some((t, n))) if t <= n => DriftVerdict::WithinNoise,
        (true, _) => DriftVerdict::Drift,
    };
    Some(DriftTest { verdict, mk, slope: relative, noise })
}

/// The noise a drift over the series must exceed (relative, log scale): the larger of the runs'
/// median 95 % half-width and 1.96 × the scatter of `tested` about Sen's line (a run's interval
/// carries only its within-run noise; the scatter also carries the run-to-run noise).
fn noise(tested: &[f64], slope: f64, level: Option<f64>, log_scale: bool, half_widths: &[f64]) -> Option<f64> {
    let residuals: Vec<f64> = tested.iter().enumerate().map(|(i, v)| v - slope * i as f64).collect();
    let centre = quantile_unsorted(&residuals, 0.5)?;
    let n = residuals.len() as f64;
    let sd = (residuals.iter().map(|r| (r - centre).powi(2)).sum::<f64>() / (n - 2.0).max(1.0)).sqrt();
    let scatter = if log_scale { Some(sd) } else { level.map(|m| sd / m) };
    let median_half = quantile_unsorted(half_widths, 0.5);
    match (median_half, scatter) {
        (Some(h), Some(s)) => Some(h.max(1.96 * s)),
        (h, s) => h.or(s.map(|s| 1.96 * s)),
    }
}

fn direction(slope: f64, better: Better) -> &'static str {
    match (slope > 0.0, better) {
        (true, Better::Lower) | (false, Better::Higher) => "worse",
        _ => "better",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::metric::RunValue;
    use std::collections::BTreeMap;

    fn point(i: usize, v: f64, grade: &str) -> RunPoint {
        let value = RunValue { estimate: v, ci_low: Some(v * 0.98), ci_high: Some(v * 1.02), confidence: 0.95 };
        RunPoint {
            run_id: format!("r{i}"),
            start_ns: Some(i as i64),
            fingerprint: "f".into(),
            configuration: "c".into(),
            grade: grade.into(),
            values: BTreeMap::from([(HistoryMetric::TtftP50, value)]),
        }
    }

    /// 2 % log-normal noise from a fixed stream.
    fn wiggle(i: usize) -> f64 {
        use rand::Rng;
        let mut rng = credence_stats::resample::resample_rng(5, 6, i as u64);
        (0.02 * ((0..12).map(|_| rng.random::<f64>()).sum::<f64>() - 6.0)).exp()
    }

    #[test]
    fn drift_is_drift_and_a_step_is_a_step() {
        let o = HistoryOptions::default();
        let drifting: Vec<RunPoint> = (0..30).map(|i| point(i, 100.0 * 1.01f64.powi(i as i32) * wiggle(i), "MEDIUM")).collect();
        let idx: Vec<usize> = (0..30).collect();
        let f = detect(&drifting, &idx, HistoryMetric::TtftP50, &o);
        assert!(f.change_points.is_empty(), "{:?}", f.change_points);
        assert_eq!(f.drift.verdict, DriftVerdict::Drift);
        assert_eq!(f.drift.direction, Some("worse"));
        assert!((f.drift.slope_per_run.unwrap() - 0.01).abs() < 0.002, "{:?}", f.drift.slope_per_run);

        let step: Vec<RunPoint> = (0..30).map(|i| point(i, if i < 20 { 100.0 } else { 110.0 } * wiggle(i), "MEDIUM")).collect();
        let f = detect(&step, &idx, HistoryMetric::TtftP50, &o);
        assert_eq!(f.change_points.iter().map(|c| c.index).collect::<Vec<_>>(), vec![20]);
        assert_eq!(f.drift.verdict, DriftVerdict::NoDrift);
    }

    /// Issue 42: a run's grade no longer decides; the metric's interval does. LOW runs define a
    /// step; estimates without a two-sided interval (a P99 from too few requests) do not.
    #[test]
    fn low_runs_enter_and_estimates_without_an_interval_do_not() {
        let o = HistoryOptions::default();
        let pts: Vec<RunPoint> = (0..30).map(|i| point(i, if i >= 20 { 110.0 } else { 100.0 } * wiggle(i), if i % 2 == 0 { "LOW" } else { "HIGH" })).collect();
        let idx: Vec<usize> = (0..30).collect();
        let f = detect(&pts, &idx, HistoryMetric::TtftP50, &o);
        assert_eq!(f.change_points.iter().map(|c| c.index).collect::<Vec<_>>(), vec![20]);
        assert_eq!(f.trusted.len(), 30);
        // Three runs far off the level, without an interval, would be a segment of their own.
        let mut pts: Vec<RunPoint> = (0..30).map(|i| point(i, 100.0 * wiggle(i), "LOW")).collect();
        for p in &mut pts[27..] {
            let v = p.values.get_mut(&HistoryMetric::TtftP50).unwrap();
            *v = RunValue { estimate: 150.0, ci_low: Some(140.0), ci_high: None, confidence: 0.95 };
        }
        let f = detect(&pts, &idx, HistoryMetric::TtftP50, &o);
        assert!(f.change_points.is_empty(), "{:?}", f.change_points);
        assert_eq!(f.trusted.len(), 27);
    }

    /// A significant trend smaller over the series than one run's interval is within noise.
    #[test]
    fn a_trend_within_the_runs_noise_is_not_worse() {
        let o = HistoryOptions::default();
        let idx: Vec<usize> = (0..30).collect();
        // +0.05 % per run (1.5 % over 30 runs), 0.2 % scatter, each run's interval ±2 %.
        let pts: Vec<RunPoint> = (0..30).map(|i| point(i, 100.0 * 1.0005f64.powi(i as i32) * wiggle(i).powf(0.1), "HIGH")).collect();
        let f = detect(&pts, &idx, HistoryMetric::TtftP50, &o);
        assert!(f.change_points.is_empty(), "{:?}", f.change_points);
        assert_eq!(f.drift.verdict, DriftVerdict::WithinNoise, "{:?}", f.drift);
        assert_eq!(f.drift.direction, None);
        assert!(f.drift.noise.unwrap() > f.drift.total_change.unwrap());
    }
}
