//! Seeded random streams and the few distributions the simulator needs.
//!
//! ChaCha8 is portable: the same seed gives the same numbers on every platform, which is what
//! makes a simulated run byte-identical. Each model component draws from its own stream, so a
//! change in one component does not shift the numbers of another.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Independent streams of one simulation.
#[derive(Debug, Clone, Copy)]
pub enum Stream {
    Arrivals = 1,
    Lengths = 2,
    Engine = 3,
    Network = 4,
    Errors = 5,
    Client = 6,
    Telemetry = 7,
    /// Where a randomly placed episode falls.
    Episodes = 8,
}

pub struct SimRng(ChaCha8Rng);

impl SimRng {
    pub fn new(seed: u64, stream: Stream) -> SimRng {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        r.set_stream(stream as u64);
        SimRng(r)
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        loop {
            let u: f64 = self.0.random();
            if u > 0.0 {
                return u;
            }
        }
    }

    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * self.uniform().ln()
    }

    /// Standard normal (Box–Muller; one draw per call keeps streams simple to reason about).
    pub fn normal(&mut self) -> f64 {
        let (u1, u2) = (self.uniform(), self.uniform());
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// Student t with `nu` degrees of freedom, scaled to unit variance (nu > 2): heavy tails.
    pub fn student_t_unit(&mut self, nu: u32) -> f64 {
        let z = self.normal();
        let chi2: f64 = (0..nu).map(|_| self.normal().powi(2)).sum();
        let t = z / (chi2 / nu as f64).sqrt();
        t / (nu as f64 / (nu as f64 - 2.0)).sqrt()
    }

    /// Log-normal with the given median and log-scale sigma.
    pub fn lognormal(&mut self, median: f64, sigma: f64) -> f64 {
        median * (sigma * self.normal()).exp()
    }

    /// Pareto with scale `xm` and shape `alpha`.
    pub fn pareto(&mut self, xm: f64, alpha: f64) -> f64 {
        xm / self.uniform().powf(1.0 / alpha)
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.uniform() < p
    }
}
