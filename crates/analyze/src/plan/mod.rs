//! `credence plan`: experiment design from pilot runs.
//!
//! From pilot runs of one configuration, each planned metric's within-run sampling variance
//! (the block bootstrap `compare` uses, relative to the estimate) and, with two or more pilot
//! runs, its between-run variance (Kalibera–Jones) give the variance of one run's statistic at
//! any run length: `between + within × pilot_steady_s / steady_s` (the sampling variance falls
//! with the number of requests, which grows with the steady length). `power.rs` turns that into
//! the power of `compare` for a design of `runs_per_arm` runs of a given length per arm. With
//! one pilot run the between-run variance is unknown: it is assumed from `between_run_cv`, and
//! every number that depends on it says so.
//!
//! Nothing is extrapolated past 100× the pilot's requests: a design needing more per arm is
//! not offered, and when no design fits, the plan says how large a pilot would tell.

pub mod advice;
pub mod pilot;
pub mod power;

use std::collections::BTreeMap;

use credence_messages::{Lang, Message};
use serde::Serialize;

pub use pilot::{MetricPilot, Pilot, pilot_from_runs};

use crate::compare::pooled::BetweenRunPrior;

/// Default assumed between-run coefficient of variation when the pilot has one run.
pub const DEFAULT_BETWEEN_RUN_CV: f64 = 0.02;
/// No design may use more than this many times the pilot's requests per arm.
pub const MAX_EXTRAPOLATION: f64 = 100.0;
/// The most runs per arm a design may have.
pub const MAX_RUNS_PER_ARM: usize = 50;
/// Run lengths tried, as multiples of the pilot's steady window.
///
/// Never shorter than the pilot: in shorter runs the within-run noise grows faster than
/// 1/length (fewer resampling blocks widen the interval; on the simulator, 2 runs per arm of
/// half a 240 s pilot's length reached 50 % power where 81 % was planned, tests/it/plan_study.rs),
/// so the pilot cannot speak for them.
const LENGTH_SCALES: [f64; 9] = [1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0];

/// What the user asked for.
#[derive(Debug, Clone, Serialize)]
pub struct PlanOptions {
    /// The tolerance τ of the comparison to come (relative).
    pub tolerance: f64,
    /// The smallest change worth detecting (relative, above τ).
    pub effect: f64,
    /// The power wanted for detecting `effect`.
    pub power: f64,
    /// Fixed cost of one run (restart, warm-up, setup), seconds.
    pub cost_per_run_s: f64,
    /// The between-run CV assumed when the pilot cannot measure it (one run).
    pub between_run_cv: f64,
    /// What compare assumes of run-to-run noise before runs show it (its interval's prior).
    pub compare_prior: BetweenRunPrior,
}

/// One design: runs per arm × run length, with the power it reaches and its cost.
#[derive(Debug, Clone, Serialize)]
pub struct Design {
    pub runs_per_arm: usize,
    /// Length of one run: the pilot's warm-up plus the steady part.
    pub duration_s: f64,
    /// Requests in one run's steady window, at the pilot's rate.
    pub requests_per_run: u64,
    /// The smallest power over the planned metrics (each averaged over the uncertainty of the
    /// pilot's within-run variance).
    pub power: f64,
    pub power_by_metric: BTreeMap<String, f64>,
    /// Wall time of the experiment, both arms: `2 × runs_per_arm × (cost_per_run + duration)`.
    pub cost_s: f64,
    /// `measured` or `assumed`: the between-run variance this power rests on.
    pub between_run: &'static str,
}

/// The variance one metric is planned with.
#[derive(Debug, Clone, Serialize)]
pub struct MetricVariance {
    /// Within-run sampling CV of one pilot run's statistic.
    pub within_run_cv: f64,
    /// Degrees of freedom of the within-run variance (all pilot runs); null when not measured
    /// from the runs.
    pub within_run_df: Option<f64>,
    /// Between-run CV: measured (Kalibera–Jones, clamped at 0) or assumed.
    pub between_run_cv: f64,
    pub between_run: &'static str,
}

/// The plan: designs that reach the power, the cheapest, and what it assumes.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub method: String,
    pub options: PlanOptions,
    pub pilot: pilot::PilotSummary,
    pub metrics: BTreeMap<String, MetricVariance>,
    /// For each run length, the fewest runs per arm that reach the power (within 100× the
    /// pilot's data), cheapest first.
    pub designs: Vec<Design>,
    pub recommended: Option<Design>,
    /// When no design fits: why, and what pilot would tell (`cannot_tell_message` in English).
    pub cannot_tell: Option<String>,
    pub cannot_tell_message: Option<Message>,
    /// What every number rests on (`assumption_messages` in English).
    pub assumptions: Vec<String>,
    pub assumption_messages: Vec<Message>,
}

/// Why a plan cannot be made from these options.
pub fn check_options(o: &PlanOptions) -> Result<(), String> {
    if !(o.tolerance >= 0.0 && o.tolerance < 1.0) {
        return Err(format!("--tolerance {:.1} %: must lie between 0 % and 100 %", o.tolerance * 100.0));
    }
    if o.effect.is_nan() || o.effect <= o.tolerance {
        return Err(format!(
            "--effect {:.1} % is not above --tolerance {:.1} %: compare calls a regression only when the whole interval lies beyond the tolerance, so an effect at or below it can never be detected",
            o.effect * 100.0,
            o.tolerance * 100.0
        ));
    }
    if !(o.power > 0.5 && o.power < 1.0) {
        return Err(format!("--power {}: must lie between 0.5 and 1 (e.g. 0.9)", o.power));
    }
    if !(o.cost_per_run_s >= 0.0 && o.cost_per_run_s.is_finite()) {
        return Err("--cost-per-run must be zero or positive".into());
    }
    if !(o.between_run_cv >= 0.0 && o.between_run_cv < 1.0) {
        return Err(format!("--between-run-cv {:.1} %: must lie between 0 % and 100 %", o.between_run_cv * 100.0));
    }
    Ok(())
}

/// The between-run variance of a metric: measured with two or more pilot runs, else assumed.
fn between_of(m: &MetricPilot, o: &PlanOptions) -> (f64, &'static str) {
    match m.between {
        Some(b) => (b, "measured"),
        None => (o.between_run_cv * o.between_run_cv, "assumed"),
    }
}

/// A design of `k` runs per arm at `scale` times the pilot's steady length: its power per
/// metric, or None when `k` runs do not reach the power for every metric.
fn design(p: &Pilot, o: &PlanOptions, k: usize, scale: f64) -> Design {
    let power_by_metric: BTreeMap<String, f64> = p
        .metrics
        .iter()
        .map(|(name, m)| {
            let (between, _) = between_of(m, o);
            let scales = power::within_scales(m.within_df);
            (name.clone(), power::expected_power(o.effect, o.tolerance, k, between, m.within / scale, &scales, o.compare_prior))
        })
        .collect();
    let power = power_by_metric.values().copied().fold(1.0, f64::min);
    let duration_s = (p.warmup_s + scale * p.steady_s).round();
    Design {
        runs_per_arm: k,
        duration_s,
        requests_per_run: (scale * p.steady_requests_per_run()).round() as u64,
        power,
        power_by_metric,
        cost_s: 2.0 * k as f64 * (o.cost_per_run_s + duration_s),
        between_run: if p.runs >= 2 { "measured" } else { "assumed" },
    }
}

/// For each run length, the fewest runs per arm (2 or more) that reach the power.
fn candidate_designs(p: &Pilot, o: &PlanOptions) -> Vec<Design> {
    LENGTH_SCALES
        .iter()
        .filter(|&&s| s * p.steady_requests_per_run() >= 20.0)
        .filter_map(|&s| (2..=MAX_RUNS_PER_ARM).map(|k| design(p, o, k, s)).find(|d| d.power >= o.power))
        .collect()
}

/// Requests per arm a design uses.
fn requests_per_arm(d: &Design) -> f64 {
    d.runs_per_arm as f64 * d.requests_per_run as f64
}

/// Plans an experiment from a pilot. `check_options` must have passed.
pub fn plan(p: &Pilot, o: &PlanOptions) -> Plan {
    let candidates = candidate_designs(p, o);
    let limit = MAX_EXTRAPOLATION * p.steady_requests as f64;
    let (mut designs, beyond): (Vec<Design>, Vec<Design>) = candidates.into_iter().partition(|d| requests_per_arm(d) <= limit);
    designs.sort_by(|a, b| a.cost_s.total_cmp(&b.cost_s).then(a.runs_per_arm.cmp(&b.runs_per_arm)));
    let recommended = designs.first().cloned();
    let cannot_tell_message = recommended.is_none().then(|| cannot_tell(p, o, &beyond, best_within_reach(p, o, limit).as_ref()));
    let assumption_messages = assumptions(p, o);
    let metrics = p
        .metrics
        .iter()
        .map(|(name, m)| {
            let (between, basis) = between_of(m, o);
            let within_run_df = m.within_df.is_finite().then_some(m.within_df);
            (name.clone(), MetricVariance { within_run_cv: m.within.sqrt(), within_run_df, between_run_cv: between.sqrt(), between_run: basis })
        })
        .collect();
    Plan {
        method: format!(
            "normal approximation on the log ratio of the arms' means of per-run statistics; compare's interval (t over runs, between-run variance pooled with a {:.1} % prior worth {} degrees of freedom) averaged over {} quantiles of the runs' spread (chi-square) and {} quantiles of the within-run variance's uncertainty (df/chi-square)",
            o.compare_prior.cv * 100.0,
            o.compare_prior.df,
            power::SPREAD_QUANTILES,
            power::WITHIN_QUANTILES
        ),
        options: o.clone(),
        pilot: p.summary(),
        metrics,
        designs,
        recommended,
        cannot_tell: cannot_tell_message.as_ref().map(|m| m.render(Lang::En)),
        cannot_tell_message,
        assumptions: assumption_messages.iter().map(|m| m.render(Lang::En)).collect(),
        assumption_messages,
    }
}

/// The design of highest power within 100× the pilot's data (for saying how close it gets).
fn best_within_reach(p: &Pilot, o: &PlanOptions, limit: f64) -> Option<Design> {
    let mut best: Option<Design> = None;
    for k in 2..=MAX_RUNS_PER_ARM {
        for &s in LENGTH_SCALES.iter().filter(|&&s| k as f64 * s * p.steady_requests_per_run() <= limit) {
            let d = design(p, o, k, s);
            if best.as_ref().is_none_or(|b| d.power > b.power) {
                best = Some(d);
            }
        }
    }
    best
}

/// Why no design fits within 100× the pilot's data, and what pilot would tell.
fn cannot_tell(p: &Pilot, o: &PlanOptions, beyond: &[Design], best: Option<&Design>) -> Message {
    let closest = best.map_or(Message::new("empty"), |d| {
        Message::new("plan-closest").int("runs", d.runs_per_arm).num("duration", d.duration_s, 0).num("power", d.power * 100.0, 0)
    });
    match beyond.iter().map(requests_per_arm).min_by(f64::total_cmp) {
        // A pilot that plans this within 100x, but at most 100x this pilot: it cannot speak
        // for more.
        Some(need) => Message::new("plan-cannot-tell")
            .num("power", o.power * 100.0, 0)
            .num("limit", MAX_EXTRAPOLATION, 0)
            .int("requests", p.steady_requests)
            .msg("closest", closest)
            .int("need", (need / MAX_EXTRAPOLATION).min(MAX_EXTRAPOLATION * p.steady_requests as f64).ceil() as u64),
        None => Message::new("plan-no-design")
            .int("max", MAX_RUNS_PER_ARM)
            .num("power", o.power * 100.0, 0)
            .msg("closest", closest)
            .text("basis", if p.runs >= 2 { "measured" } else { "assumed" })
            .num("effect", o.effect * 100.0, 1)
            .num("tolerance", o.tolerance * 100.0, 1),
    }
}

/// How the power allows for the pilot's uncertain within-run variance.
fn within_uncertainty(p: &Pilot) -> Message {
    let df = p.metrics.values().map(|m| m.within_df).fold(f64::INFINITY, f64::min);
    if df.is_finite() { Message::new("plan-within-df").num("df", df, 0) } else { Message::new("plan-within-known") }
}

/// What every number of the plan rests on; an assumed between-run variance first.
fn assumptions(p: &Pilot, o: &PlanOptions) -> Vec<Message> {
    let between = if p.runs >= 2 {
        Message::new("plan-between-measured").int("runs", p.runs).int("df", p.runs - 1)
    } else {
        Message::new("plan-between-assumed").num("cv", o.between_run_cv * 100.0, 1)
    };
    vec![
        between,
        Message::new("plan-within-sampling"),
        within_uncertainty(p),
        Message::new("plan-compare-rule").num("cv", o.compare_prior.cv * 100.0, 1).num("df", o.compare_prior.df, 0),
        Message::new("plan-power-method").num("limit", MAX_EXTRAPOLATION, 0),
        Message::new("plan-same-setup").num("rate", p.summary().requests_per_s, 1).num("warmup", p.warmup_s, 0),
    ]
}

#[cfg(test)]
mod tests;
