//! `compare`'s advice for an inconclusive verdict, from the planner's variance model: a run's
//! statistic varies by `between + within / m` (m: times today's requests per run), an arm's
//! mean of `k` runs by that over `k`. The between-run variance is measured when an arm has two
//! or more runs; with one run per arm it is assumed (`DEFAULT_BETWEEN_RUN_CV`) and the advice
//! says so. Nothing past 100× today's data is advised: then the runs are too small to tell.

use credence_messages::{Lang, Message};
use serde::Serialize;

use super::{DEFAULT_BETWEEN_RUN_CV, MAX_EXTRAPOLATION};
use crate::compare::VarianceComponents;

/// How to resolve an inconclusive verdict.
#[derive(Debug, Clone, Serialize)]
pub struct MoreData {
    /// How many times less variance the change's interval needs.
    pub factor: f64,
    /// Runs per arm that would decide at today's run length; null past 100× today's runs.
    pub runs_per_arm: Option<usize>,
    /// Or: how many times more requests per run at today's run count; null when run-to-run
    /// noise alone is too large for longer runs to help, or past 100×.
    pub requests_per_run_factor: Option<f64>,
    /// `measured` (an arm has 2 or more runs), `assumed` (one run per arm), or `pooled` (the
    /// error rate pools requests over runs).
    pub between_run: &'static str,
    /// The between-run CV the advice rests on (relative metrics).
    pub between_run_cv: Option<f64>,
    /// `advice_message` in English.
    pub advice: String,
    /// What would decide, as a message every report language renders.
    pub advice_message: Message,
}

impl MoreData {
    fn new(
        factor: f64,
        runs_per_arm: Option<usize>,
        requests_per_run_factor: Option<f64>,
        between_run: &'static str,
        between_run_cv: Option<f64>,
        advice: Message,
    ) -> MoreData {
        MoreData { factor, runs_per_arm, requests_per_run_factor, between_run, between_run_cv, advice: advice.render(Lang::En), advice_message: advice }
    }
}

/// The between-run variance to plan with, and whether it was measured.
fn between_run(base: &VarianceComponents, cand: &VarianceComponents) -> (f64, &'static str) {
    let measured: Vec<f64> = [base.between, cand.between].into_iter().flatten().collect();
    if measured.is_empty() {
        (DEFAULT_BETWEEN_RUN_CV * DEFAULT_BETWEEN_RUN_CV, "assumed")
    } else {
        (measured.iter().sum::<f64>() / measured.len() as f64, "measured")
    }
}

/// Plans the extra data for an inconclusive verdict of a relative metric: `factor` is how many
/// times less variance the change's interval needs, `interval_between` the between-run
/// variance today's interval holds (compare's pooled estimate, its prior included),
/// `requests_per_arm` today's requests.
pub fn more_data_plan(factor: f64, base: &VarianceComponents, cand: &VarianceComponents, interval_between: f64, requests_per_arm: u64) -> MoreData {
    let runs = base.runs.min(cand.runs).max(1);
    let within = (base.within + cand.within) / 2.0;
    let (between, basis) = between_run(base, cand);
    let target = 2.0 * (interval_between + within) / runs as f64 / factor;
    // (less a hair, so that an exact 12.0 computed as 12.000000000000002 stays 12)
    let runs_needed = (2.0 * (between + within) / target * (1.0 - 1e-12)).ceil().max(runs as f64 + 1.0);
    let slack = runs as f64 * target / 2.0 - between;
    let longer = (slack > 0.0 && within > 0.0).then(|| (within / slack).max(1.0));
    let runs_ratio = runs_needed / runs as f64;
    let runs_per_arm = (runs_ratio <= MAX_EXTRAPOLATION).then_some(runs_needed as usize);
    let requests_per_run_factor = longer.filter(|m| *m <= MAX_EXTRAPOLATION);
    let needed_ratio = longer.map_or(runs_ratio, |m| m.min(runs_ratio));
    let advice = relative_advice(runs_per_arm, requests_per_run_factor, basis, between, runs, needed_ratio, requests_per_arm);
    MoreData::new(factor, runs_per_arm, requests_per_run_factor, basis, Some(between.sqrt()), advice)
}

/// The advice as a message, saying which variance was measured and which assumed.
fn relative_advice(
    runs_per_arm: Option<usize>,
    longer: Option<f64>,
    basis: &'static str,
    between: f64,
    runs: usize,
    needed_ratio: f64,
    requests_per_arm: u64,
) -> Message {
    let cv = between.sqrt() * 100.0;
    let source = Message::new("advice-source").text("basis", basis).num("cv", cv, 1);
    let advice = |kind: &str| Message::new("advice").text("kind", kind).msg("source", source.clone());
    match (runs_per_arm, longer) {
        // "About 1.0x more requests per run" says nothing: the runs are the advice.
        (Some(k), Some(m)) if m < 1.05 => advice("runs").int("runs", k),
        (Some(k), Some(m)) => advice("runs-or-longer").int("runs", k).num("factor", m, 1),
        (Some(k), None) if basis == "assumed" || runs > 1 => {
            advice("runs-dominated").int("runs", k).msg("dominates", Message::new("advice-dominates").text("basis", basis).num("cv", cv, 1))
        }
        (Some(k), None) => advice("runs").int("runs", k),
        (None, Some(m)) => advice("longer").num("factor", m, 1),
        (None, None) => cannot_tell(needed_ratio, requests_per_arm, source),
    }
}

/// The answer past 100× today's data: these runs are too small to tell.
fn cannot_tell(needed_ratio: f64, requests_per_arm: u64, source: Message) -> Message {
    // What a larger pilot needs to plan within 100x, but never more than 100x today's runs
    // can speak for.
    let today = requests_per_arm as f64;
    let pilot = (needed_ratio * today / MAX_EXTRAPOLATION).min(MAX_EXTRAPOLATION * today).ceil().max(today + 1.0);
    Message::new("advice").text("kind", "cannot-tell").msg("source", source).num("max", MAX_EXTRAPOLATION, 0).num("pilot", pilot, 0)
}

/// Plans the extra data for an inconclusive error-rate verdict: the rate pools requests over
/// runs, so only the request count matters.
pub fn more_requests_plan(factor: f64, requests_per_arm: u64) -> MoreData {
    let fits = factor <= MAX_EXTRAPOLATION;
    let pooled = Message::new("advice-source").text("basis", "pooled");
    let message = if fits {
        Message::new("advice").text("kind", "pooled").msg("source", pooled).num("factor", factor, 1)
    } else {
        cannot_tell(factor, requests_per_arm, pooled)
    };
    MoreData::new(factor, None, fits.then_some(factor), "pooled", None, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vc(runs: usize, between: Option<f64>, within: f64) -> VarianceComponents {
        VarianceComponents { runs, between, within, between_share: None }
    }

    #[test]
    fn measured_within_run_noise_only() {
        // 4x less variance: 4x the runs or 4x the requests per run.
        let p = more_data_plan(4.0, &vc(2, Some(0.0), 1e-4), &vc(2, Some(0.0), 1e-4), 0.0, 2000);
        assert_eq!(p.runs_per_arm, Some(8));
        assert!((p.requests_per_run_factor.unwrap() - 4.0).abs() < 1e-9);
        assert_eq!(p.between_run, "measured");
        assert!(p.advice.contains("measured"), "{}", p.advice);
    }

    #[test]
    fn measured_run_to_run_noise_dominates() {
        let p = more_data_plan(4.0, &vc(3, Some(9e-4), 1e-4), &vc(3, Some(9e-4), 1e-4), 9e-4, 3000);
        assert_eq!(p.runs_per_arm, Some(12));
        assert!(p.requests_per_run_factor.is_none() && p.advice.contains("measured run-to-run noise (CV 3.0 %) dominates"), "{}", p.advice);
    }

    #[test]
    fn single_runs_plan_under_the_assumed_run_to_run_noise() {
        // Within 1e-4 per run, 2.5x less variance: today's interval holds 2e-4, target 8e-5.
        // With the assumed 2 % CV (4e-4): 2 × 5e-4 / 8e-5 = 12.5 ⇒ 13 runs per arm; longer
        // single runs cannot reach 8e-5 because 2 × 4e-4 alone exceeds it.
        let p = more_data_plan(2.5, &vc(1, None, 1e-4), &vc(1, None, 1e-4), 0.0, 1000);
        assert_eq!(p.runs_per_arm, Some(13));
        assert!(p.requests_per_run_factor.is_none());
        assert_eq!(p.between_run, "assumed");
        assert!(p.advice.contains("assumed 2.0 %"), "{}", p.advice);
    }

    #[test]
    fn no_advice_of_one_times_the_requests() {
        // Longer runs would need within / slack = 0.2 of today's requests, clamped to 1.0:
        // only more runs are advice.
        let p = more_data_plan(2.0, &vc(3, Some(1e-6), 1e-4), &vc(3, Some(1e-6), 1e-4), 9e-4, 3000);
        assert_eq!(p.runs_per_arm, Some(4));
        assert!(p.advice.contains("4 runs per arm") && !p.advice.contains("1.0x"), "{}", p.advice);
    }

    #[test]
    fn nothing_past_a_hundred_times_the_data() {
        // The case: an estimate at the tolerance makes the factor explode.
        let p = more_data_plan(22948.0, &vc(1, None, 1e-4), &vc(1, None, 1e-4), 0.0, 24);
        assert!(p.runs_per_arm.is_none() && p.requests_per_run_factor.is_none());
        assert!(!p.advice.contains("114"), "no extrapolated run count: {}", p.advice);
        assert!(p.advice.contains("cannot tell") && p.advice.contains("requests per arm"), "{}", p.advice);
        let p = more_requests_plan(487.0, 24);
        assert!(p.requests_per_run_factor.is_none() && p.advice.contains("cannot tell"), "{}", p.advice);
        let p = more_requests_plan(3.0, 24);
        assert_eq!(p.requests_per_run_factor, Some(3.0));
        assert!(p.advice.contains("3.0x more requests"), "{}", p.advice);
    }
}
