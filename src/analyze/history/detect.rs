//! Steps and drift in one configuration's series of one metric.
//!
//! A steady drift looks like a staircase to E-divisive (any split of a trend separates two
//! different levels), and a step looks like a trend to Mann–Kendall. So the step search runs
//! first, and when it finds steps, the steps (segment means) and a straight line (least
//! squares) compete by BIC (each step costing its level and its location): when the line explains the series at least as well, the steps are
//! dropped and the series is reported as drift. Where steps stay, drift is tested within the
//! segments (each value less its segment's median), so a pure step is not also drift.

use serde::Serialize;

use super::metric::{HistoryMetric, RunPoint};
use super::{HistoryOptions, series::utc_text};
use crate::analyze::compare::verdict::Better;
use crate::stats::edivisive::{ChangePoint, e_divisive};
use crate::stats::mann_kendall::{MannKendall, hamed_rao, sen_slope};
use crate::stats::quantile::quantile_unsorted;

/// Fewest trusted runs for a drift test.
pub const MIN_DRIFT_RUNS: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DriftVerdict {
    /// A significant monotonic trend.
    Drift,
    NoDrift,
    /// Fewer than `MIN_DRIFT_RUNS` trusted runs with this metric.
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
    /// Trusted runs tested (LOW runs and runs without the metric left out).
    pub runs: usize,
    pub verdict: DriftVerdict,
    pub mann_kendall: Option<MannKendall>,
    /// Sen's slope as a relative change per run (0.01 = +1 % per run).
    pub slope_per_run: Option<f64>,
    /// The slope over the whole series, relative to its start.
    pub total_change: Option<f64>,
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
    /// Series positions of the trusted runs searched, in order.
    pub trusted: Vec<usize>,
    /// Change points; `index` counts in `trusted`.
    pub change_points: Vec<ChangePoint>,
    pub drift: Drift,
}

/// Searches the runs at `indices` (one configuration) for steps and drift in `m`.
pub fn detect(points: &[RunPoint], indices: &[usize], m: HistoryMetric, o: &HistoryOptions) -> Found {
    let trusted: Vec<usize> = indices.iter().copied().filter(|&i| points[i].grade != "LOW" && points[i].values.contains_key(&m)).collect();
    let raw: Vec<f64> = trusted.iter().map(|&i| points[i].values[&m].estimate).collect();
    let log_scale = raw.iter().all(|v| *v > 0.0);
    let y: Vec<f64> = if log_scale { raw.iter().map(|v| v.ln()).collect() } else { raw.clone() };
    let mut change_points = e_divisive(&y, &o.change_points);
    if !change_points.is_empty() && line_explains_as_well(&y, &change_points) {
        change_points.clear();
    }
    let within = !change_points.is_empty();
    let tested = if within { less_segment_medians(&y, &change_points) } else { y.clone() };
    let drift = drift(&tested, &raw, log_scale, o.drift_significance);
    let first = trusted.first().copied();
    let drift = Drift {
        metric: m,
        fingerprint: points[indices[0]].fingerprint.clone(),
        first_index: first,
        last_index: trusted.last().copied(),
        first_start_time: first.and_then(|i| points[i].start_ns).map(utc_text),
        runs: trusted.len(),
        direction: drift.as_ref().filter(|d| d.verdict == DriftVerdict::Drift).and_then(|d| d.slope).map(|s| direction(s, m.better())),
        verdict: drift.as_ref().map_or(DriftVerdict::TooFewRuns, |d| d.verdict),
        mann_kendall: drift.as_ref().map(|d| d.mk),
        slope_per_run: drift.as_ref().and_then(|d| d.slope),
        total_change: drift.as_ref().and_then(|d| d.slope).map(|s| (1.0 + s).powf(trusted.len().saturating_sub(1) as f64) - 1.0),
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
}

/// The drift test on `tested` (log values, or raw ones when `log_scale` is false); `raw` gives
/// the level a raw slope is relative to.
fn drift(tested: &[f64], raw: &[f64], log_scale: bool, alpha: f64) -> Option<DriftTest> {
    if tested.len() < MIN_DRIFT_RUNS {
        return None;
    }
    let points: Vec<(f64, f64)> = tested.iter().enumerate().map(|(i, v)| (i as f64, *v)).collect();
    let slope = sen_slope(&points)?;
    // Within segments the values are residuals: their pooled Sen slope approximates the common
    // within-segment trend.
    let mk = hamed_rao(tested, slope, 0.05)?;
    let relative = if log_scale { Some(slope.exp() - 1.0) } else { quantile_unsorted(raw, 0.5).filter(|m| *m > 0.0).map(|m| slope / m) };
    let verdict = if mk.p < alpha { DriftVerdict::Drift } else { DriftVerdict::NoDrift };
    Some(DriftTest { verdict, mk, slope: relative })
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
    use crate::analyze::history::metric::RunValue;
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
        let mut rng = crate::stats::resample::resample_rng(5, 6, i as u64);
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

    #[test]
    fn low_runs_are_left_out() {
        let o = HistoryOptions::default();
        // Three LOW runs far off the level would be a segment of their own if they counted.
        let pts: Vec<RunPoint> = (0..30).map(|i| if i >= 27 { point(i, 150.0, "LOW") } else { point(i, 100.0 * wiggle(i), "HIGH") }).collect();
        let idx: Vec<usize> = (0..30).collect();
        let f = detect(&pts, &idx, HistoryMetric::TtftP50, &o);
        assert!(f.change_points.is_empty());
        assert_eq!(f.trusted.len(), 27);
    }
}
