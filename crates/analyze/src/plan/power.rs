//! Power of `compare` for a design, by a normal approximation on the log ratio of the two arms'
//! means of per-run statistics.
//!
//! A design runs `k` runs per arm. Each run's statistic, on the log scale, varies by
//! `σ²_run = between + within(duration)`; the log ratio of two arms' means by
//! `SE² = 2 σ²_run / k`. `compare` calls a regression when its 95 % interval lies beyond the
//! tolerance τ (never moved). Its interval is `L ± t_df · √V` with
//! `V = 2 (B + within) / k`, where `B` pools the runs' spread with a weak prior
//! (`compare::pooled`): `B = (ν₀ cv₀² + max(SS − 2(k−1) within, 0)) / (ν₀ + 2(k−1))`, and the
//! runs' sum of squares `SS` is `σ²_run · χ²_{2(k−1)}`. The power averages
//! `Φ((ln(1+δ) − ln(1+τ) − t_df √V) / SE)` over fixed quantiles of that χ².
//!
//! The pilot measures the within-run variance with few degrees of freedom (a 4-minute run holds
//! about a dozen independent blocks), so the power at the pilot's estimate is optimistic: a
//! pilot that measured its noise low gets a design too small for the real noise, and that is
//! the design recommended. `expected_power` averages the power over what the pilot leaves
//! unknown (the "assurance" of O'Hagan & Stevens 2001): the within-run variance times
//! `df/χ²_df` at fixed quantiles.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

use crate::compare::pooled::{BetweenRunPrior, t_quantile};

/// Quantiles of `df/χ²_df` the power is averaged over (see `within_scales`).
pub const WITHIN_QUANTILES: usize = 16;
/// Quantiles of the runs' spread (`χ²` with `2(k − 1)` degrees of freedom) per design.
pub const SPREAD_QUANTILES: usize = 32;

/// Multipliers of a within-run variance measured with `df` degrees of freedom: `df/χ²_df` at
/// the quantiles `(j + ½)/WITHIN_QUANTILES`, what the variance may be given the estimate. Just
/// 1 when `df` is infinite (not measured from the runs) or so large that it is known.
pub fn within_scales(df: f64) -> Vec<f64> {
    match ChiSquared::new(df).ok().filter(|_| df.is_finite() && df < 1e4) {
        Some(chi) => (0..WITHIN_QUANTILES).map(|j| df / chi.inverse_cdf((j as f64 + 0.5) / WITHIN_QUANTILES as f64)).collect(),
        None => vec![1.0],
    }
}

/// `power` averaged over the within-run variance's `scales` (from `within_scales`).
pub fn expected_power(effect: f64, tolerance: f64, k: usize, between: f64, within: f64, scales: &[f64], prior: BetweenRunPrior) -> f64 {
    scales.iter().map(|s| power(effect, tolerance, k, between, within * s, prior)).sum::<f64>() / scales.len().max(1) as f64
}

/// Quantiles of `χ²_df / df` at `(j + ½)/SPREAD_QUANTILES`: the runs' spread in units of its
/// mean; just 1 without degrees of freedom (one run per arm shows no spread).
fn spread_draws(df: usize) -> Vec<f64> {
    match ChiSquared::new(df as f64).ok().filter(|_| df > 0) {
        Some(chi) => (0..SPREAD_QUANTILES).map(|j| chi.inverse_cdf((j as f64 + 0.5) / SPREAD_QUANTILES as f64) / df as f64).collect(),
        None => vec![1.0],
    }
}

/// Power of detecting a change of `effect` against `tolerance` with `k` runs per arm whose
/// statistics vary by `between + within` each (relative, i.e. on the log scale), with compare's
/// interval as `compare::pooled` builds it under `prior`.
pub fn power(effect: f64, tolerance: f64, k: usize, between: f64, within: f64, prior: BetweenRunPrior) -> f64 {
    let kf = k as f64;
    let run_variance = between + within;
    let se = (2.0 * run_variance / kf).sqrt();
    let margin = (1.0 + effect.abs()).ln() - (1.0 + tolerance).ln();
    let data_df = 2 * k.saturating_sub(1);
    let pooled_df = prior.df + data_df as f64;
    let prior_ss = prior.df * (1.0 + prior.cv).ln().powi(2);
    let one = |spread: f64| {
        // The runs' sum of squares less what within-run noise explains, as compare pools it.
        let excess = (run_variance * spread * data_df as f64 - data_df as f64 * within).max(0.0);
        let b = (prior_ss + excess) / pooled_df;
        let (v_between, v) = (2.0 * b / kf, 2.0 * (b + within) / kf);
        let df = if v_between > 0.0 { (v * v / (v_between * v_between / pooled_df)).min(1e6) } else { 1e6 };
        let half = t_quantile(df, 0.95) * v.sqrt();
        if se.is_nan() || se <= 0.0 {
            return if margin > half { 1.0 } else { 0.0 };
        }
        Normal::standard().cdf((margin - half) / se)
    };
    let draws = spread_draws(data_df);
    draws.iter().map(|&s| one(s)).sum::<f64>() / draws.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::pooled::DEFAULT_PRIOR;

    #[test]
    fn one_run_per_arm_is_judged_with_the_priors_noise() {
        // k = 1: SE = sqrt(2 × 4e-4) = 0.0283; the interval's half-width is t_df √V with
        // V = 2 (B + 2e-4), B = ln(1.012)², and df = ν₀ (V / V_between)² (Welch–Satterthwaite,
        // the within-run part known).
        let p = power(0.10, 0.05, 1, 2e-4, 2e-4, DEFAULT_PRIOR);
        let b = (1.012f64).ln().powi(2);
        let df = DEFAULT_PRIOR.df * ((b + 2e-4) / b).powi(2);
        let half = t_quantile(df, 0.95) * (2.0 * (b + 2e-4)).sqrt();
        let want = Normal::standard().cdf(((1.1f64).ln() - (1.05f64).ln() - half) / (8e-4f64).sqrt());
        assert!((p - want).abs() < 1e-12, "{p} vs {want}");
    }

    #[test]
    fn power_rises_with_runs_at_every_run_to_run_noise() {
        for cv in [0.01, 0.02, 0.03] {
            let powers: Vec<f64> = [1, 2, 3, 5, 10, 20].iter().map(|&k| power(0.10, 0.05, k, cv * cv, 1e-5, DEFAULT_PRIOR)).collect();
            assert!(powers.windows(2).all(|w| w[1] > w[0]), "cv {cv}: {powers:?}");
            assert!(powers[5] > 0.9, "cv {cv}: {powers:?}");
        }
    }

    #[test]
    fn spread_draws_average_to_one() {
        for df in [2, 8, 40] {
            let d = spread_draws(df);
            let mean = d.iter().sum::<f64>() / d.len() as f64;
            assert!((mean - 1.0).abs() < 0.03, "df {df}: {mean}");
        }
        assert_eq!(spread_draws(0), [1.0]);
    }

    #[test]
    fn within_scales_spread_a_variance_by_its_degrees_of_freedom() {
        assert_eq!(within_scales(f64::INFINITY), [1.0], "a known variance is not spread");
        let s = within_scales(5.0);
        assert_eq!(s.len(), WITHIN_QUANTILES);
        assert!(s.windows(2).all(|w| w[0] > w[1]), "df/χ² falls as the χ² quantile rises: {s:?}");
        // The middle pair straddles 5 / (χ²₅ median 4.351) = 1.149 (scipy.stats.chi2.median(5)).
        let mid = WITHIN_QUANTILES / 2;
        assert!(s[mid] < 1.149 && 1.149 < s[mid - 1], "{s:?}");
        // More degrees of freedom, less spread.
        let (narrow, wide) = (within_scales(50.0), s);
        assert!(narrow[0] < wide[0] && narrow[WITHIN_QUANTILES - 1] > wide[WITHIN_QUANTILES - 1]);
    }

    #[test]
    fn a_pilot_unsure_of_its_noise_expects_less_power_than_its_estimate_gives() {
        // Three runs per arm, within-run variance 1e-4 and between 1e-4 at δ = 10 %, τ = 5 %: high
        // power at the estimate; averaged over a 5-df variance, lower; at a known one, equal.
        let at_estimate = power(0.10, 0.05, 3, 1e-4, 1e-4, DEFAULT_PRIOR);
        let unsure = expected_power(0.10, 0.05, 3, 1e-4, 1e-4, &within_scales(5.0), DEFAULT_PRIOR);
        let known = expected_power(0.10, 0.05, 3, 1e-4, 1e-4, &within_scales(f64::INFINITY), DEFAULT_PRIOR);
        assert!(at_estimate > 0.85 && unsure < at_estimate - 0.01, "{at_estimate} vs {unsure}");
        assert_eq!(known, at_estimate);
    }
}
