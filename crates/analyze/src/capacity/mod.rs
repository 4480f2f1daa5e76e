//! Capacity at a service-level objective: the highest load at which every objective still
//! holds, with its interval.
//!
//! A capacity search (`credence bench --find-capacity`) runs one step per load; each step is
//! analyzed as any run is, and judged against the objectives (`slo`): `met` when every
//! objective's percentile surely lies within its threshold, `violated` when one surely lies
//! above (or the server was overloaded: an overloaded load has no steady state, and its
//! percentiles grow with the run), `undecided` otherwise. `search` picks the next load from the
//! steps so far; `estimate` reads the capacity off them.
//!
//! The capacity is where the latency–load curve crosses the threshold. Each step gives the
//! percentile with its 95 % interval; the curve is interpolated linearly in log load between
//! steps, and so are its bands. The point is where the estimate's curve crosses the threshold,
//! the interval's low end where the upper band crosses it and its high end where the lower band
//! does (the inversion of a calibration curve). With a step decided `met` below and one decided
//! `violated` above, the interval lies between them. Several objectives: the lowest crossing
//! wins, and names the objective that limits the capacity.

pub mod compare;
pub mod search;

use serde::{Deserialize, Serialize};

use crate::Analysis;
use crate::estimate::{Estimate, Method};
use crate::slo::Objective;

/// How one step stands against the objectives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Met,
    Violated,
    Undecided,
}

/// One step of a capacity search, as its analysis judged it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The load: the offered rate (requests/s) or the closed loop's clients.
    pub load: f64,
    pub outcome: Outcome,
    /// The server left more than 5 % of the offered rate unserved (`overload`).
    pub overloaded: bool,
    /// Each objective's percentile and verdict.
    pub objectives: Vec<Objective>,
    /// Requests completed per second.
    pub throughput: Estimate,
    /// Requests per second completed within every threshold.
    pub goodput: Option<Estimate>,
    /// Share of requests within every threshold.
    pub attainment: Option<Estimate>,
    /// The step's run folder, relative to the search's.
    pub run: String,
}

impl Step {
    /// A step from its run's analysis (made with the search's objectives).
    pub fn of(load: f64, a: &Analysis, run: String) -> Step {
        let overloaded = a.load.as_ref().is_some_and(|l| l.overloaded());
        let objectives = a.slo.as_ref().map(|s| s.objectives.clone()).unwrap_or_default();
        let outcome = if overloaded || objectives.iter().any(|o| o.verdict == "violated") {
            Outcome::Violated
        } else if !objectives.is_empty() && objectives.iter().all(|o| o.verdict == "met") {
            Outcome::Met
        } else {
            Outcome::Undecided
        };
        Step {
            load,
            outcome,
            overloaded,
            objectives,
            throughput: a.throughput.requests_per_s.clone(),
            goodput: a.slo.as_ref().map(|s| s.goodput_per_s.clone()),
            attainment: a.slo.as_ref().map(|s| s.attainment.clone()),
            run,
        }
    }
}

/// What the search concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finding {
    /// The capacity lies inside the loads tried: `rate` holds it.
    Found,
    /// The objectives failed even at the lowest load tried.
    BelowLowest,
    /// The objectives held at the highest load tried (or the search's upper limit).
    AboveHighest,
    /// No step was decided either way.
    Undecided,
}

/// One objective's capacity: where its curve crosses its threshold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveCapacity {
    pub key: String,
    pub threshold_ms: f64,
    pub capacity: Estimate,
}

/// A capacity search's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Capacity {
    /// `rate` (open loop, requests/s) or `concurrency` (closed loop, clients).
    pub parameter: String,
    /// The objectives as given.
    pub slo: String,
    pub finding: Finding,
    /// The highest load within every objective, with its interval (method `curve_inversion`).
    pub capacity: Estimate,
    /// The objective that limits it (the lowest crossing); `overload` when no objective's
    /// percentile crossed before the server was overloaded.
    pub limited_by: Option<String>,
    pub objectives: Vec<ObjectiveCapacity>,
    /// Requests per second the server completes at saturation: the highest completion rate of
    /// an overloaded step. None when no step overloaded the server.
    pub saturation: Option<Estimate>,
    /// The highest load decided within every objective, and the lowest decided beyond one.
    pub bracket: (Option<f64>, Option<f64>),
    /// The steps, by load.
    pub steps: Vec<Step>,
}

/// The curve of one objective: per step (by load), the estimate and its bounds; `None` where
/// the step says only that the percentile lies above the threshold (overloaded, or a bound).
struct Curve {
    load: Vec<f64>,
    point: Vec<Option<f64>>,
    low: Vec<Option<f64>>,
    high: Vec<Option<f64>>,
}

impl Curve {
    fn of(steps: &[Step], key: &str, threshold: f64) -> Curve {
        let mut c = Curve { load: Vec::new(), point: Vec::new(), low: Vec::new(), high: Vec::new() };
        for s in steps {
            let Some(o) = s.objectives.iter().find(|o| o.key == key) else { continue };
            let e = &o.estimate;
            // An overloaded step's percentile grows with its length: only "above" is known.
            let above = |v: Option<f64>| if s.overloaded { None } else { v.or(Some(f64::NAN)) };
            c.load.push(s.load);
            c.point.push(above(e.estimate).map(|v| if v.is_nan() { bound_or(e, threshold) } else { v }));
            c.low.push(above(e.ci_low));
            c.high.push(above(e.ci_high).map(|v| if v.is_nan() { bound_or(e, threshold) } else { v }));
        }
        c
    }
}

/// A value for a percentile with no estimate: above the threshold when its bound is (a
/// percentile beyond the timeouts), else unknown (NaN: the crossing skips it).
fn bound_or(e: &Estimate, threshold: f64) -> f64 {
    match e.ci_low {
        Some(lo) if lo > threshold => f64::INFINITY,
        _ => f64::NAN,
    }
}

/// Where values (by load) first exceed `threshold`: interpolated linearly in log load between
/// the last step within it and the first beyond it; a value only known to be above (`None`,
/// infinite) puts the crossing `unknown_at` of the way (in log load) from the step before to it.
/// Also whether the value beyond was only known to be above. `Err(true)`: beyond at the first
/// step; `Err(false)`: never beyond.
fn crossing(load: &[f64], values: &[Option<f64>], threshold: f64, unknown_at: f64) -> Result<(f64, bool), bool> {
    let mut before: Option<(f64, f64)> = None;
    for (x, v) in load.iter().zip(values) {
        let v = v.unwrap_or(f64::INFINITY);
        if v.is_nan() {
            continue;
        }
        if v <= threshold {
            before = Some((*x, v));
            continue;
        }
        let Some((x0, v0)) = before else { return Err(true) };
        let f = if v.is_finite() && v0.is_finite() { (threshold - v0) / (v - v0) } else { unknown_at };
        return Ok(((x0.ln() + f * (x.ln() - x0.ln())).exp(), !v.is_finite()));
    }
    Err(false)
}

/// The capacity of one objective from the steps (sorted by load).
fn objective_capacity(steps: &[Step], key: &str, threshold: f64) -> (Result<(f64, bool), bool>, Option<f64>, Option<f64>) {
    let c = Curve::of(steps, key, threshold);
    let point = crossing(&c.load, &c.point, threshold, 0.5);
    // The upper band crosses first (the low end); an unknown value there counts from the step
    // before; the lower band crosses last (the high end), an unknown value at its own step.
    let low = crossing(&c.load, &c.high, threshold, 0.0).ok().map(|x| x.0);
    let high = crossing(&c.load, &c.low, threshold, 1.0).ok().map(|x| x.0);
    (point, low, high)
}

/// The capacity from the steps of a search, with the objectives as given (`slo`).
pub fn estimate(parameter: &str, slo: &str, mut steps: Vec<Step>, confidence: f64) -> Capacity {
    steps.sort_by(|a, b| a.load.total_cmp(&b.load));
    let keys: Vec<(String, f64)> = steps.iter().flat_map(|s| s.objectives.iter().map(|o| (o.key.clone(), o.threshold_ms))).fold(Vec::new(), |mut v, k| {
        if !v.iter().any(|(x, _)| *x == k.0) {
            v.push(k);
        }
        v
    });
    let n = steps.len() as u64;
    let mut objectives = Vec::new();
    let mut best: Option<(f64, Option<f64>, Option<f64>, String)> = None;
    let (mut below, mut any_crossed) = (false, false);
    for (key, threshold) in &keys {
        let (point, low, high) = objective_capacity(&steps, key, *threshold);
        let e = match point {
            Ok((p, unknown_beyond)) => {
                any_crossed = true;
                // Crossed at an overloaded step (its percentile unknown, only above): the queue,
                // not the objective's percentile, limits the load.
                let limit = if unknown_beyond && steps.iter().any(|s| s.overloaded && s.load >= p) { "overload".to_string() } else { key.clone() };
                // A band that never crossed (or crossed at its first step) leaves that end
                // unknown: the interval is one-sided, not collapsed onto the point.
                let (lo, hi) = (low.map(|l| l.min(p)), high.map(|h| h.max(p)));
                if best.as_ref().is_none_or(|b| p < b.0) {
                    best = Some((p, lo, hi, limit));
                }
                interval(p, (lo, hi), confidence, n)
            }
            Err(first) => {
                below |= first;
                Estimate::not_applicable(confidence, n, if first { "beyond its threshold at the lowest load tried" } else { "within its threshold at every load tried" })
            }
        };
        objectives.push(ObjectiveCapacity { key: key.clone(), threshold_ms: *threshold, capacity: e });
    }
    let bracket = bracket(&steps);
    let (finding, capacity, limited_by) = match (&best, below) {
        (_, true) => (Finding::BelowLowest, Estimate::not_applicable(confidence, n, "the objectives failed at the lowest load tried"), None),
        (Some((p, lo, hi, key)), false) => {
            // Two objectives' ends may come from different curves: each end is the lowest of
            // the objectives' (the capacity is the minimum of their capacities); an unknown
            // low end stays unknown.
            let found = || objectives.iter().filter(|o| o.capacity.estimate.is_some());
            let lo = if found().all(|o| o.capacity.ci_low.is_some()) { found().filter_map(|o| o.capacity.ci_low).fold(lo.unwrap_or(*p), f64::min).into() } else { None };
            let hi = found().filter_map(|o| o.capacity.ci_high).fold(hi.unwrap_or(f64::INFINITY), f64::min);
            (Finding::Found, interval(*p, (lo, hi.is_finite().then_some(hi)), confidence, n), Some(key.clone()))
        }
        (None, false) if steps.iter().any(|s| s.outcome == Outcome::Met) && !any_crossed => {
            (Finding::AboveHighest, Estimate::not_applicable(confidence, n, "the objectives held at the highest load tried"), None)
        }
        (None, false) => (Finding::Undecided, Estimate::not_applicable(confidence, n, "no step was decided against the objectives"), None),
    };
    let saturation = steps.iter().filter(|s| s.overloaded).filter_map(|s| Some((s.throughput.estimate?, &s.throughput))).max_by(|a, b| a.0.total_cmp(&b.0)).map(|x| x.1.clone());
    Capacity { parameter: parameter.to_string(), slo: slo.to_string(), finding, capacity, limited_by, objectives, saturation, bracket, steps }
}

/// The capacity's estimate: two-sided when both bands crossed, else the point with what bound
/// is known (too few decided steps on that side).
fn interval(p: f64, (lo, hi): (Option<f64>, Option<f64>), confidence: f64, n: u64) -> Estimate {
    match (lo, hi) {
        (Some(lo), Some(hi)) => Estimate::two_sided(p, (lo, hi), confidence, Method::CurveInversion, n),
        _ => Estimate::insufficient(p, lo, hi, confidence, Method::CurveInversion, n, "no step was decided on one side of the crossing"),
    }
}

/// The highest load decided `met` below the lowest decided `violated`, and that one.
pub fn bracket(steps: &[Step]) -> (Option<f64>, Option<f64>) {
    let hi = steps.iter().filter(|s| s.outcome == Outcome::Violated).map(|s| s.load).min_by(f64::total_cmp);
    let lo = steps.iter().filter(|s| s.outcome == Outcome::Met && hi.is_none_or(|h| s.load < h)).map(|s| s.load).max_by(f64::total_cmp);
    (lo, hi)
}

#[cfg(test)]
mod tests;
