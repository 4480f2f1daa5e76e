//! The offered load: arrival times and request lengths.

use super::rng::{SimRng, Stream};
use super::scenario::Timeline;

/// How requests arrive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ArrivalProcess {
    Poisson {
        rate: f64,
    },
    Constant {
        rate: f64,
    },
    /// `clients` clients, each sending its next request as soon as the last one ends.
    ClosedLoop {
        clients: u32,
    },
}

/// Length distributions: log-normal, clipped.
#[derive(Debug, Clone, Copy)]
pub struct Lengths {
    pub input_median: f64,
    pub input_sigma: f64,
    pub input_range: (u32, u32),
    pub output_median: f64,
    pub output_sigma: f64,
    pub output_range: (u32, u32),
}

impl Default for Lengths {
    fn default() -> Self {
        Lengths { input_median: 512.0, input_sigma: 0.6, input_range: (16, 4096), output_median: 128.0, output_sigma: 0.5, output_range: (4, 1024) }
    }
}

impl Lengths {
    pub fn describe_input(&self) -> String {
        format!("lognormal(median={}, sigma={}) clipped to {}..{} tokens", self.input_median, self.input_sigma, self.input_range.0, self.input_range.1)
    }

    pub fn describe_output(&self) -> String {
        format!("lognormal(median={}, sigma={}) clipped to {}..{} tokens", self.output_median, self.output_sigma, self.output_range.0, self.output_range.1)
    }

    /// Draws (input, output) tokens for one request.
    pub fn draw(&self, rng: &mut SimRng) -> (u32, u32) {
        let clip = |x: f64, (lo, hi): (u32, u32)| (x.round() as u32).clamp(lo, hi);
        let i = clip(rng.lognormal(self.input_median, self.input_sigma), self.input_range);
        let o = clip(rng.lognormal(self.output_median, self.output_sigma), self.output_range);
        (i, o)
    }
}

/// Open-loop schedule: intended send times in ns from the run start, first one at 0.
pub fn open_loop_schedule(process: ArrivalProcess, timeline: &Timeline, seed: u64) -> Vec<i64> {
    let mut rng = SimRng::new(seed, Stream::Arrivals);
    let duration = timeline.duration_s;
    let mut out = Vec::new();
    let mut t = 0.0_f64;
    match process {
        ArrivalProcess::Poisson { rate } => {
            // Thinning keeps the process Poisson when the rate varies (ramp-down).
            while t < duration {
                if rng.uniform() < timeline.conditions(t).rate_share {
                    out.push((t * 1e9).round() as i64);
                }
                t += rng.exponential(1.0 / rate);
            }
        }
        ArrivalProcess::Constant { rate } => {
            while t < duration {
                let share = timeline.conditions(t).rate_share;
                if share <= 0.0 {
                    break;
                }
                out.push((t * 1e9).round() as i64);
                t += 1.0 / (rate * share);
            }
        }
        ArrivalProcess::ClosedLoop { .. } => {}
    }
    out
}
