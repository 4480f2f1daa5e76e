//! Arrival processes: the open-loop schedule (Poisson, constant or gamma inter-arrivals from a
//! seeded generator), drawn one slot at a time as connections claim them.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::BenchOptions;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Load {
    Poisson(f64),
    Constant(f64),
    /// Gamma inter-arrivals with this rate and coefficient of variation (CV 1 = Poisson).
    Gamma(f64, f64),
    Closed(u32),
    /// A replayed trace's times (`BenchOptions::trace`), at this mean rate.
    Trace(f64),
}

impl Load {
    /// An open loop's offered rate (requests/s); none for a closed loop.
    pub fn offered_per_s(&self) -> Option<f64> {
        match *self {
            Load::Poisson(r) | Load::Constant(r) | Load::Gamma(r, _) | Load::Trace(r) => Some(r),
            Load::Closed(_) => None,
        }
    }
}

pub(crate) fn std_normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// A Gamma(shape, 1) draw (Marsaglia–Tsang; shape < 1 by the boost U^(1/shape)).
pub(crate) fn gamma(rng: &mut ChaCha8Rng, shape: f64) -> f64 {
    if shape < 1.0 {
        return gamma(rng, shape + 1.0) * rng.random::<f64>().max(1e-300).powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = std_normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random::<f64>().max(1e-300);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// The open-loop schedule, drawn on demand: each idle connection claims the next slot.
pub struct Schedule {
    rng: ChaCha8Rng,
    /// Seconds from time zero of the last slot drawn.
    t: f64,
    /// Slots drawn so far.
    k: u64,
}

impl Schedule {
    /// A schedule whose draws come from `seed` (stream 0; requests draw from their own).
    pub fn new(seed: u64) -> Schedule {
        Schedule { rng: ChaCha8Rng::seed_from_u64(seed), t: 0.0, k: 0 }
    }
    /// The next (request number, scheduled time), or `None` when the run is over.
    pub fn next(&mut self, o: &BenchOptions, anchor: Instant) -> Option<(u64, Instant)> {
        if self.k >= o.requests.unwrap_or(u64::MAX) {
            return None;
        }
        let gap = match o.load {
            Load::Poisson(r) => -(1.0 - self.rng.random::<f64>()).ln() / r,
            Load::Constant(r) => 1.0 / r,
            // Mean 1/r and CV: shape 1/CV², scale CV²/r.
            Load::Gamma(r, cv) => gamma(&mut self.rng, 1.0 / (cv * cv)) * cv * cv / r,
            Load::Trace(_) => o.trace.as_ref().and_then(|t| t.due_s(self.k as usize)).map(|due| due - self.t).unwrap_or(f64::INFINITY),
            Load::Closed(_) => return None,
        };
        self.t += gap;
        // A trace's end, or the duration's.
        if !self.t.is_finite() || o.duration_s.is_some_and(|d| self.t >= d) {
            self.k = u64::MAX;
            return None;
        }
        self.k += 1;
        Some((self.k - 1, anchor + Duration::from_secs_f64(self.t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_inter_arrivals_have_the_asked_mean_and_cv() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (rate, cv) in [(10.0, 0.5), (10.0, 1.0), (4.0, 2.0)] {
            let x: Vec<f64> = (0..40_000).map(|_| gamma(&mut rng, 1.0 / (cv * cv)) * cv * cv / rate).collect();
            let m = x.iter().sum::<f64>() / x.len() as f64;
            let sd = (x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / x.len() as f64).sqrt();
            assert!((m * rate - 1.0).abs() < 0.03, "mean {m} at rate {rate}");
            assert!((sd / m - cv).abs() < 0.05 * cv.max(1.0), "cv {} for {cv}", sd / m);
        }
    }
}
