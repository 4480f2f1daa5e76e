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
    /// When no design fits: why, and what pilot would tell.
    pub cannot_tell: Option<String>,
    pub assumptions: Vec<String>,
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
    let cannot_tell = recommended.is_none().then(|| cannot_tell(p, o, &beyond, best_within_reach(p, o, limit).as_ref()));
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
        cannot_tell,
        assumptions: assumptions(p, o),
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
fn cannot_tell(p: &Pilot, o: &PlanOptions, beyond: &[Design], best: Option<&Design>) -> String {
    let basis = if p.runs >= 2 { "measured" } else { "assumed" };
    let closest = best.map_or(String::new(), |d| {
        format!(" (the best design within reach, {} runs per arm of {:.0} s, reaches {:.0} %)", d.runs_per_arm, d.duration_s, d.power * 100.0)
    });
    match beyond.iter().map(requests_per_arm).min_by(f64::total_cmp) {
        Some(need) => format!(
            "this pilot cannot tell: reaching {:.0} % power would need more than {MAX_EXTRAPOLATION:.0}× the pilot's {} requests per arm{closest}; run a pilot of at least {} requests and plan again",
            o.power * 100.0,
            p.steady_requests,
            // A pilot that plans this within 100x, but at most 100x this pilot: it cannot
            // speak for more.
            (need / MAX_EXTRAPOLATION).min(MAX_EXTRAPOLATION * p.steady_requests as f64).ceil() as u64
        ),
        None => format!(
            "no design with up to {MAX_RUNS_PER_ARM} runs per arm reaches {:.0} % power{closest}: the run-to-run variance ({basis}) is too large next to the gap between the effect ({:.1} %) and the tolerance ({:.1} %){}",
            o.power * 100.0,
            o.effect * 100.0,
            o.tolerance * 100.0,
            if p.runs >= 2 { "" } else { "; measure it with 2 or more pilot runs" }
        ),
    }
}

/// How the power allows for the pilot's uncertain within-run variance, in words.
fn within_uncertainty(p: &Pilot) -> String {
    let df = p.metrics.values().map(|m| m.within_df).fold(f64::INFINITY, f64::min);
    if df.is_finite() {
        format!(
            "the pilot measured its within-run noise with about {df:.0} degrees of freedom (as few as that for the least certain metric), so each power is averaged over what that noise may be (assurance), not taken at the estimate: a pilot that happened to measure its noise low would otherwise plan too small an experiment"
        )
    } else {
        "the within-run noise is taken as known (its degrees of freedom were not measured)".into()
    }
}

/// What every number of the plan rests on, in words.
fn assumptions(p: &Pilot, o: &PlanOptions) -> Vec<String> {
    let between = if p.runs >= 2 {
        format!(
            "between-run variance measured (Kalibera–Jones over {} pilot runs, {} degree(s) of freedom: a rough estimate with few runs)",
            p.runs,
            p.runs - 1
        )
    } else {
        format!(
            "between-run variance ASSUMED: one pilot run cannot measure it; planned with a {:.1} % run-to-run CV (--between-run-cv), and every power and design depends on it",
            o.between_run_cv * 100.0
        )
    };
    vec![
        between,
        "within-run sampling variance from each pilot run's block bootstrap, falling with 1/(steady length); runs shorter than the pilot are not offered"
            .into(),
        within_uncertainty(p),
        format!(
            "compare's verdict: a regression when the 95 % interval lies beyond the tolerance (which the spread of the runs never moves); the interval pools the runs' spread with a {:.1} % run-to-run prior worth {} degrees of freedom",
            o.compare_prior.cv * 100.0,
            o.compare_prior.df
        ),
        format!(
            "power by a normal approximation on the log ratio; designs use at most {MAX_EXTRAPOLATION:.0}× the pilot's requests per arm and at least 2 runs per arm"
        ),
        format!(
            "the same server, workload and rate as the pilot ({:.1} requests/s in the steady window, {:.0} s of warm-up per run)",
            p.summary().requests_per_s,
            p.warmup_s
        ),
    ]
}

#[cfg(test)]
mod tests;
