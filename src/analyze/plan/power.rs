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

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{ContinuousCDF, Normal};

/// Draws of the noise-floor factor `R_k` per design.
pub const FLOOR_DRAWS: usize = 1000;
/// Seed of the noise-floor draws (recorded in the plan's method).
pub const FLOOR_SEED: u64 = 0x9_1A4;

/// Sorted draws of `R_k`: the larger of two arms' ranges of `k` standard normals (0 for k = 1,
/// where an arm has no spread to measure).
pub fn range_draws(k: usize) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(FLOOR_SEED ^ ((k as u64) << 16));
    let mut out: Vec<f64> = (0..FLOOR_DRAWS)
        .map(|_| {
            let mut arm_range = || {
                let draws: Vec<f64> = (0..k).map(|_| standard_normal(&mut rng)).collect();
                let (lo, hi) = draws.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
                if k > 1 { hi - lo } else { 0.0 }
            };
            arm_range().max(arm_range())
        })
        .collect();
    out.sort_by(f64::total_cmp);
    out
}

/// One standard normal draw (Box–Muller; the cosine branch only, so each draw costs two
/// uniforms and the sequence does not depend on a cached second value).
fn standard_normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Power of detecting a change of `effect` against `tolerance` with `k` runs per arm whose
/// statistics vary by `run_variance` each (relative, i.e. on the log scale), given the draws of
/// `R_k` for the noise floor.
pub fn power(effect: f64, tolerance: f64, k: usize, run_variance: f64, ranges: &[f64]) -> f64 {
    let z = 1.959_963_984_540_054;
    let normal = Normal::standard();
    let se = (2.0 * run_variance / k as f64).sqrt();
    let signal = (1.0 + effect.abs()).ln();
    let tau = (1.0 + tolerance).ln();
    if !(se > 0.0) {
        return if signal > tau { 1.0 } else { 0.0 };
    }
    let sigma = run_variance.sqrt();
    let total: f64 = ranges.iter().map(|r| normal.cdf((signal - tau.max(sigma * r)) / se - z)).sum();
    total / ranges.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_without_a_noise_floor_matches_the_closed_form() {
        // σ²_run = 1e-4 per run, 4 runs per arm: SE = sqrt(2e-4/4) = 0.00707. Effect 10 %,
        // tolerance 5 %: (ln 1.1 − ln 1.05)/SE − 1.96 = 6.58 − 1.96 = 4.62 ⇒ power ≈ 1.
        let ranges = range_draws(4);
        assert!(power(0.10, 0.05, 4, 1e-4, &ranges) > 0.999);
        // k = 1: no floor; SE = sqrt(2 × 4e-4) = 0.0283, (0.04652/0.0283) − 1.96 = −0.316 ⇒ Φ = 0.376.
        let p = power(0.10, 0.05, 1, 4e-4, &range_draws(1));
        assert!((p - 0.376).abs() < 0.005, "{p}");
    }

    #[test]
    fn the_noise_floor_costs_power_when_runs_spread_near_the_tolerance() {
        // σ_run = 3 %: four runs per arm spread over ~2.5 σ = 7.5 % > τ = 5 %, so the floor
        // often lifts τ and the power falls below the floor-free value.
        let v = 9e-4;
        let with_floor = power(0.15, 0.05, 4, v, &range_draws(4));
        let without = power(0.15, 0.05, 4, v, &[0.0]);
        assert!(with_floor < without - 0.1, "{with_floor} vs {without}");
    }

    #[test]
    fn range_draws_follow_the_expected_range_of_normals() {
        // E[range of 2 normals] = 1.128; the larger of two arms' is above that, below 2.
        let r = range_draws(2);
        let mean = r.iter().sum::<f64>() / r.len() as f64;
        assert!(mean > 1.2 && mean < 2.0, "{mean}");
        assert_eq!(range_draws(3), range_draws(3), "fixed seed");
        assert!(range_draws(1).iter().all(|x| *x == 0.0));
    }
}
