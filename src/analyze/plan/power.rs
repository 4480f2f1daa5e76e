//! Power of `compare` for a design, by a normal approximation on the log ratio of the two arms'
//! means of per-run statistics.
//!
//! A design runs `k` runs per arm. Each run's statistic, on the log scale, varies by
//! `σ²_run = between + within(duration)`; the arm mean by `σ²_run / k`, the log ratio of two arms
//! by `SE² = 2 σ²_run / k`. `compare` calls a regression when the 95 % interval lies beyond the
//! tolerance τ, where τ is raised to the A/A noise floor (the largest ratio between two runs of
//! one arm). The floor is `σ_run × R_k` with `R_k` the larger of the two arms' ranges of `k`
//! standard normals; its distribution is drawn once per `k` with a fixed seed.
//! Power = mean over the floor draws of `Φ((ln(1+δ) − max(ln(1+τ), floor)) / SE − z₀.₉₇₅)`.
//!
//! The pilot measures the within-run variance with few degrees of freedom (a 4-minute run holds
//! about a dozen independent blocks), so the power at the pilot's estimate is optimistic: a
//! pilot that measured its noise low gets a design too small for the real noise, and that is
//! the design recommended. `expected_power` averages the power over what the pilot leaves
//! unknown (the "assurance" of O'Hagan & Stevens 2001): the within-run variance times
//! `df/χ²_df` at fixed quantiles.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ContinuousCDF, Normal};

/// Quantiles of `df/χ²_df` the power is averaged over (see `within_scales`).
pub const WITHIN_QUANTILES: usize = 16;

/// Multipliers of a within-run variance measured with `df` degrees of freedom: `df/χ²_df` at
/// the quantiles `(j + ½)/WITHIN_QUANTILES`, what the variance may be given the estimate. Just
/// 1 when `df` is infinite (not measured from the runs) or so large that it is known.
pub fn within_scales(df: f64) -> Vec<f64> {
    use statrs::distribution::ChiSquared;
    match ChiSquared::new(df).ok().filter(|_| df.is_finite() && df < 1e4) {
        Some(chi) => (0..WITHIN_QUANTILES).map(|j| df / chi.inverse_cdf((j as f64 + 0.5) / WITHIN_QUANTILES as f64)).collect(),
        None => vec![1.0],
    }
}

/// `power` averaged over the within-run variance's `scales` (from `within_scales`).
pub fn expected_power(effect: f64, tolerance: f64, k: usize, between: f64, within: f64, scales: &[f64], draws: &[SpreadDraw]) -> f64 {
    scales.iter().map(|s| power(effect, tolerance, k, between, within * s, draws)).sum::<f64>() / scales.len().max(1) as f64
}

/// Draws of the noise-floor factor `R_k` per design.
pub const FLOOR_DRAWS: usize = 1000;
/// Seed of the noise-floor draws (recorded in the plan's method).
pub const FLOOR_SEED: u64 = 0x9_1A4;

/// One draw of the spread of `k` runs per arm, in units of a run's standard deviation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpreadDraw {
    /// The larger of the two arms' ranges (compare's A/A noise floor, on the log scale).
    pub range: f64,
    /// Σ over both arms of `(1/k) Σ (x − x̄)²`: what the hierarchical bootstrap's resampling of
    /// runs sees of their spread.
    pub spread: f64,
}

/// Draws of the two arms' spread for `k` runs per arm (fixed seed).
pub fn range_draws(k: usize) -> Vec<SpreadDraw> {
    let mut rng = ChaCha8Rng::seed_from_u64(FLOOR_SEED ^ ((k as u64) << 16));
    (0..FLOOR_DRAWS)
        .map(|_| {
            let mut arm = || {
                let draws: Vec<f64> = (0..k).map(|_| standard_normal(&mut rng)).collect();
                let mean = draws.iter().sum::<f64>() / k.max(1) as f64;
                let (lo, hi) = draws.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
                let spread = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / k.max(1) as f64;
                (if k > 1 { hi - lo } else { 0.0 }, spread)
            };
            let ((rb, sb), (rc, sc)) = (arm(), arm());
            SpreadDraw { range: rb.max(rc), spread: sb + sc }
        })
        .collect()
}

/// One standard normal draw (Box–Muller; the cosine branch only, so each draw costs two
/// uniforms and the sequence does not depend on a cached second value).
fn standard_normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Power of detecting a change of `effect` against `tolerance` with `k` runs per arm whose
/// statistics vary by `between + within` each (relative, i.e. on the log scale), averaged over
/// `draws` of the runs' spread.
///
/// The estimate's standard error is `SE² = 2 (between + within) / k`. With several runs,
/// compare's interval comes from the hierarchical bootstrap: resampling runs sees their
/// spread (which already holds the within-run noise; it varies from experiment to experiment,
/// with k − 1 degrees of freedom), and each run's own replicate adds the within-run noise
/// again: `SE_interval² = (σ²_run · spread + 2 within) / k`. The verdict needs
/// `estimate − z · SE_interval > max(ln(1 + τ), σ_run · range)`, so per draw the power is
/// `Φ((ln(1+δ) − τ' − z · SE_interval) / SE)`.
pub fn power(effect: f64, tolerance: f64, k: usize, between: f64, within: f64, draws: &[SpreadDraw]) -> f64 {
    let z = 1.959_963_984_540_054;
    let normal = Normal::standard();
    let run_variance = between + within;
    let kf = k as f64;
    let se = (2.0 * run_variance / kf).sqrt();
    let signal = (1.0 + effect.abs()).ln();
    let tau = (1.0 + tolerance).ln();
    if se.is_nan() || se <= 0.0 {
        return if signal > tau { 1.0 } else { 0.0 };
    }
    let sigma = run_variance.sqrt();
    let one = |d: &SpreadDraw| {
        let se_interval = if k > 1 { ((run_variance * d.spread + 2.0 * within) / kf).sqrt() } else { se };
        normal.cdf((signal - tau.max(sigma * d.range) - z * se_interval) / se)
    };
    draws.iter().map(one).sum::<f64>() / draws.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_without_a_noise_floor_matches_the_closed_form() {
        // σ²_run = 1e-4 per run, 4 runs per arm: SE = sqrt(2e-4/4) = 0.00707. Effect 10 %,
        // tolerance 5 %: (ln 1.1 − ln 1.05)/SE − 1.96 = 6.58 − 1.96 = 4.62 ⇒ power ≈ 1.
        let ranges = range_draws(4);
        assert!(power(0.10, 0.05, 4, 0.0, 1e-4, &ranges) > 0.999);
        // k = 1: no floor; SE = sqrt(2 × 4e-4) = 0.0283, (0.04652/0.0283) − 1.96 = −0.316 ⇒ Φ = 0.376.
        let p = power(0.10, 0.05, 1, 2e-4, 2e-4, &range_draws(1));
        assert!((p - 0.376).abs() < 0.005, "{p}");
    }

    #[test]
    fn the_noise_floor_costs_power_when_runs_spread_near_the_tolerance() {
        // σ_run = 3 %: four runs per arm spread over ~2.5 σ = 7.5 % > τ = 5 %, so the floor
        // often lifts τ and the power falls below the floor-free value.
        let v = 9e-4;
        let with_floor = power(0.15, 0.05, 4, v, 0.0, &range_draws(4));
        let without = power(0.15, 0.05, 4, v, 0.0, &range_draws(4).iter().map(|d| SpreadDraw { range: 0.0, ..*d }).collect::<Vec<_>>());
        assert!(with_floor < without - 0.1, "{with_floor} vs {without}");
    }

    #[test]
    fn the_hierarchical_interval_counts_within_run_noise_twice() {
        // Two runs per arm, within-run noise only: the interval's variance is 1.5x the
        // estimate's, so the power falls below the plain normal approximation's.
        let plain = {
            let se = (2.0f64 * 2e-4 / 2.0).sqrt();
            Normal::standard().cdf(((1.1f64).ln() - (1.05f64).ln()) / se - 1.959_963_984_540_054)
        };
        let p = power(0.10, 0.05, 2, 0.0, 2e-4, &[SpreadDraw { range: 0.0, spread: 1.0 }]);
        assert!(p < plain - 0.05, "{p} vs {plain}");
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
        // Two runs per arm, within-run variance 1e-4 and between 1e-4 at δ = 10 %, τ = 5 %: high
        // power at the estimate; averaged over a 5-df variance, lower; at a known one, equal.
        let r = range_draws(2);
        let at_estimate = power(0.10, 0.05, 2, 1e-4, 1e-4, &r);
        let unsure = expected_power(0.10, 0.05, 2, 1e-4, 1e-4, &within_scales(5.0), &r);
        let known = expected_power(0.10, 0.05, 2, 1e-4, 1e-4, &within_scales(f64::INFINITY), &r);
        assert!(at_estimate > 0.85 && unsure < at_estimate - 0.02, "{at_estimate} vs {unsure}");
        assert_eq!(known, at_estimate);
    }

    #[test]
    fn range_draws_follow_the_expected_range_of_normals() {
        // E[range of 2 normals] = 1.128; the larger of two arms' is above that, below 2.
        let r = range_draws(2);
        let mean = r.iter().map(|d| d.range).sum::<f64>() / r.len() as f64;
        assert!(mean > 1.2 && mean < 2.0, "{mean}");
        // E[Σ_arms (1/k) Σ (x − x̄)²] = 2 (k − 1)/k = 1.5 for k = 4.
        let spread = range_draws(4).iter().map(|d| d.spread).sum::<f64>() / FLOOR_DRAWS as f64;
        assert!((spread - 1.5).abs() < 0.08, "{spread}");
        assert_eq!(range_draws(3), range_draws(3), "fixed seed");
        assert!(range_draws(1).iter().all(|d| d.range == 0.0));
    }
}
