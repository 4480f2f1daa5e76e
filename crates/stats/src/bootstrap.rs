//! Bootstrap confidence intervals: percentile and BCa (Efron & Tibshirani; scipy `bootstrap`),
//! the jackknife acceleration, and the i.i.d. resampler for means and medians.

use rand::Rng;
use statrs::distribution::{ContinuousCDF, Normal};

use super::quantile::quantile_sorted;
use super::resample::parallel_resamples;

/// Percentile interval: type-7 quantiles of the bootstrap distribution at α/2 and 1 − α/2.
/// `None` when the distribution is empty or holds non-finite values.
pub fn percentile_interval(dist: &[f64], cl: f64) -> Option<(f64, f64)> {
    let mut d: Vec<f64> = dist.to_vec();
    if d.is_empty() || d.iter().any(|x| !x.is_finite()) {
        return None;
    }
    d.sort_unstable_by(f64::total_cmp);
    let a = (1.0 - cl) / 2.0;
    Some((quantile_sorted(&d, a)?, quantile_sorted(&d, 1.0 - a)?))
}

/// Jackknife acceleration from leave-one-out estimates, one group per sample:
/// `U_ji = (n_j − 1)(θ̄_j − θ_(j,i))`, `a = Σ U³/n_j³ / (6 (Σ U²/n_j²)^{3/2})`.
/// With one group this is the usual one-sample formula.
pub fn jackknife_acceleration(groups: &[&[f64]]) -> Option<f64> {
    let (mut num, mut den) = (0.0, 0.0);
    for g in groups {
        let n = g.len() as f64;
        if g.len() < 2 {
            return None;
        }
        let mean = g.iter().sum::<f64>() / n;
        for &t in g.iter() {
            let u = (n - 1.0) * (mean - t);
            num += u.powi(3) / n.powi(3);
            den += u.powi(2) / n.powi(2);
        }
    }
    if den <= 0.0 {
        return Some(0.0);
    }
    Some(num / (6.0 * den.powf(1.5)))
}

/// BCa interval from the bootstrap distribution, the estimate and the acceleration. The bias
/// correction uses the mid-rank `p̂ = (#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B` (current scipy). `None` for
/// a degenerate distribution (all resamples on one side of the estimate, or no spread).
pub fn bca_interval(dist: &[f64], estimate: f64, accel: f64, cl: f64) -> Option<(f64, f64)> {
    let b = dist.len() as f64;
    if dist.is_empty() || dist.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let below = dist.iter().filter(|&&x| x < estimate).count() as f64;
    let at_or_below = dist.iter().filter(|&&x| x <= estimate).count() as f64;
    let p_hat = (below + at_or_below) / (2.0 * b);
    if p_hat <= 0.0 || p_hat >= 1.0 {
        return None;
    }
    let normal = Normal::standard();
    let z0 = normal.inverse_cdf(p_hat);
    let alpha = (1.0 - cl) / 2.0;
    let adjust = |z: f64| normal.cdf(z0 + (z0 + z) / (1.0 - accel * (z0 + z)));
    let (a1, a2) = (adjust(normal.inverse_cdf(alpha)), adjust(normal.inverse_cdf(1.0 - alpha)));
    if !(a1.is_finite() && a2.is_finite()) {
        return None;
    }
    let mut d = dist.to_vec();
    d.sort_unstable_by(f64::total_cmp);
    let (lo, hi) = (quantile_sorted(&d, a1)?, quantile_sorted(&d, a2)?);
    (hi > lo).then_some((lo, hi))
}

/// Statistics the i.i.d. bootstrap supports in closed jackknife form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IidStatistic {
    Mean,
    Median,
}

/// An i.i.d. bootstrap: the distribution of the statistic over `b` resamples, and the
/// jackknife acceleration for BCa.
pub struct IidBootstrap {
    pub distribution: Vec<f64>,
    pub acceleration: f64,
}

/// Runs the i.i.d. bootstrap of a mean or median. `x` need not be sorted.
pub fn iid_bootstrap(x: &[f64], stat: IidStatistic, b: usize, seed: u64, id: u64) -> Option<IidBootstrap> {
    let n = x.len();
    if n < 2 {
        return None;
    }
    let distribution = parallel_resamples(b, seed, id, 1, |rng, out| {
        let value = match stat {
            IidStatistic::Mean => (0..n).map(|_| x[rng.random_range(0..n)]).sum::<f64>() / n as f64,
            IidStatistic::Median => {
                let s: Vec<f64> = (0..n).map(|_| x[rng.random_range(0..n)]).collect();
                super::quantile::quantile_unsorted(&s, 0.5).unwrap_or(f64::NAN)
            }
        };
        out.push(value);
    })
    .remove(0);
    let jack = match stat {
        IidStatistic::Mean => {
            let total: f64 = x.iter().sum();
            x.iter().map(|v| (total - v) / (n - 1) as f64).collect::<Vec<_>>()
        }
        IidStatistic::Median => leave_one_out_medians(x),
    };
    let acceleration = jackknife_acceleration(&[&jack])?;
    Some(IidBootstrap { distribution, acceleration })
}

/// Type-7 medians of `x` with each element left out in turn, in O(n log n).
fn leave_one_out_medians(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let sorted: Vec<f64> = order.iter().map(|&i| x[i]).collect();
    let mut rank = vec![0usize; n];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let h = (n - 2) as f64 * 0.5;
    let (k, frac) = (h.floor() as usize, h - h.floor());
    (0..n)
        .map(|i| {
            let at = |q: usize| {
                if q < rank[i] { sorted[q] } else { sorted[q + 1] }
            };
            let lo = at(k);
            if frac == 0.0 { lo } else { lo + frac * (at(k + 1) - lo) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // scipy test_BCa_acceleration_against_reference (Efron–Tibshirani mouse data), statistic
    // mean(z) − mean(y), two-sample jackknife: a = 0.011008228344026734.
    #[test]
    fn two_sample_acceleration() {
        let z = [16.0, 23.0, 38.0, 94.0, 99.0, 141.0, 197.0];
        let y = [10.0, 27.0, 31.0, 40.0, 46.0, 50.0, 52.0, 104.0, 146.0];
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let loo = |v: &[f64]| -> Vec<f64> {
            (0..v.len())
                .map(|i| {
                    let rest: Vec<f64> = v.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, x)| *x).collect();
                    mean(&rest)
                })
                .collect()
        };
        let jz: Vec<f64> = loo(&z).iter().map(|m| m - mean(&y)).collect();
        let jy: Vec<f64> = loo(&y).iter().map(|m| mean(&z) - m).collect();
        let a = jackknife_acceleration(&[&jz, &jy]).unwrap();
        assert!((a - 0.011008228344026734).abs() < 1e-15, "{a}");
    }

    // scipy test_bootstrap_against_R (R boot, 1e6 resamples): mean, 95 %:
    // percentile (28.86, 84.21), BCa (32.31, 91.43). A stochastic check: within 1 %.
    #[test]
    fn r_boot_reference_intervals() {
        let x = [10.0, 12.0, 12.5, 12.5, 13.9, 15.0, 21.0, 22.0, 23.0, 34.0, 50.0, 81.0, 89.0, 121.0, 134.0, 213.0];
        let boot = iid_bootstrap(&x, IidStatistic::Mean, 200_000, 42, 1).unwrap();
        let estimate = x.iter().sum::<f64>() / x.len() as f64;
        let (plo, phi) = percentile_interval(&boot.distribution, 0.95).unwrap();
        let (blo, bhi) = bca_interval(&boot.distribution, estimate, boot.acceleration, 0.95).unwrap();
        let near = |a: f64, b: f64| (a / b - 1.0).abs() < 0.01;
        assert!(near(plo, 28.86) && near(phi, 84.21), "percentile ({plo}, {phi})");
        assert!(near(blo, 32.31) && near(bhi, 91.43), "BCa ({blo}, {bhi})");
    }

    // scipy test_bootstrap_degenerate: 35 × 10000 → percentile (10000, 10000), BCa undefined.
    #[test]
    fn degenerate_data() {
        let x = [10_000.0; 35];
        let boot = iid_bootstrap(&x, IidStatistic::Mean, 999, 1, 1).unwrap();
        assert_eq!(percentile_interval(&boot.distribution, 0.95), Some((10_000.0, 10_000.0)));
        assert_eq!(bca_interval(&boot.distribution, 10_000.0, boot.acceleration, 0.95), None);
    }

    #[test]
    fn same_seed_same_distribution_on_any_thread_count() {
        let x: Vec<f64> = (0..200).map(|i| ((i * 37) % 101) as f64).collect();
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        let a = one.install(|| iid_bootstrap(&x, IidStatistic::Median, 500, 9, 3).unwrap().distribution);
        let b = four.install(|| iid_bootstrap(&x, IidStatistic::Median, 500, 9, 3).unwrap().distribution);
        assert_eq!(a, b);
    }

    #[test]
    fn leave_one_out_medians_match_brute_force() {
        let x = [5.0, 1.0, 9.0, 3.0, 7.0, 3.0];
        let fast = leave_one_out_medians(&x);
        for (i, &median) in fast.iter().enumerate() {
            let rest: Vec<f64> = x.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, v)| *v).collect();
            assert_eq!(median, super::super::quantile::quantile_unsorted(&rest, 0.5).unwrap());
        }
    }
}
