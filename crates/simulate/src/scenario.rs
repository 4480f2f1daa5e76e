//! The simulator's scenarios: when each anomaly happens and what it does to the system.

use std::fmt;

use serde::Serialize;

/// A named scenario (`credence simulate --scenario NAME`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    Steady,
    Warmup,
    ThermalThrottle,
    PowerCap,
    ClientSaturation,
    MemoryPressure,
    ForeignProcess,
    NoSteadyState,
    ErrorBurst,
    RampDown,
    /// A slowly decaying warmup and a 60-s thermal episode placed at random (from the seed):
    /// the case where an episode can hide a warmup or inflate the noise it is judged against.
    WarmupThrottle,
}

impl Scenario {
    pub const ALL: [Scenario; 11] = [
        Scenario::Steady,
        Scenario::Warmup,
        Scenario::ThermalThrottle,
        Scenario::PowerCap,
        Scenario::ClientSaturation,
        Scenario::MemoryPressure,
        Scenario::ForeignProcess,
        Scenario::NoSteadyState,
        Scenario::ErrorBurst,
        Scenario::RampDown,
        Scenario::WarmupThrottle,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Scenario::Steady => "steady",
            Scenario::Warmup => "warmup",
            Scenario::ThermalThrottle => "thermal-throttle",
            Scenario::PowerCap => "power-cap",
            Scenario::ClientSaturation => "client-saturation",
            Scenario::MemoryPressure => "memory-pressure",
            Scenario::ForeignProcess => "foreign-process",
            Scenario::NoSteadyState => "no-steady-state",
            Scenario::ErrorBurst => "error-burst",
            Scenario::RampDown => "ramp-down",
            Scenario::WarmupThrottle => "warmup-throttle",
        }
    }

    pub fn from_name(name: &str) -> Option<Scenario> {
        Scenario::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether the last GPU throttles thermally in the episode.
    pub fn throttles(self) -> bool {
        matches!(self, Scenario::ThermalThrottle | Scenario::WarmupThrottle)
    }

    /// The cause name written to `truth.json` for this scenario's anomaly.
    fn cause(self) -> Option<&'static str> {
        match self {
            Scenario::Steady | Scenario::Warmup => None,
            Scenario::ThermalThrottle | Scenario::WarmupThrottle => Some("thermal_throttle"),
            Scenario::PowerCap => Some("power_cap"),
            Scenario::ClientSaturation => Some("client_saturation"),
            Scenario::MemoryPressure => Some("memory_pressure"),
            Scenario::ForeignProcess => Some("foreign_process"),
            Scenario::NoSteadyState => Some("drift"),
            Scenario::ErrorBurst => Some("error_burst"),
            Scenario::RampDown => Some("ramp_down"),
        }
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An anomaly window of the ground truth, in seconds from the run start.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Anomaly {
    pub cause: &'static str,
    pub start_s: f64,
    pub end_s: f64,
}

/// What the system is like at one moment. `Default` is the undisturbed system.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditions {
    /// Multiplier on every engine iteration's duration (1 = nominal).
    pub slowdown: f64,
    /// Share of the nominal KV-cache capacity available to requests.
    pub kv_share: f64,
    /// Share of the nominal maximum batch size available.
    pub batch_share: f64,
    /// Probability that a request arriving now fails.
    pub error_probability: f64,
    /// When the client is saturated: the most sends it can make, as a share of the offered rate.
    pub client_capacity_share: Option<f64>,
    /// Multiplier on the offered arrival rate (ramp-down).
    pub rate_share: f64,
}

impl Default for Conditions {
    fn default() -> Self {
        Conditions { slowdown: 1.0, kv_share: 1.0, batch_share: 1.0, error_probability: 0.0, client_capacity_share: None, rate_share: 1.0 }
    }
}

/// Timing of one scenario in a run of a given length.
#[derive(Debug, Clone, Copy)]
pub struct Timeline {
    pub scenario: Scenario,
    pub duration_s: f64,
    /// The run's seed: places `warmup-throttle`'s episode.
    pub seed: u64,
    /// Whether the scenario's episode happens (see `SimOptions::episode`).
    pub with_episode: bool,
}

/// Slowdown at the very start of the `warmup` scenario (1.7× nominal).
const WARMUP_PEAK_EXCESS: f64 = 0.7;
/// SM clock ratio while thermally throttled, and while power capped.
pub const THERMAL_CLOCK_RATIO: f64 = 0.70;
pub const POWER_CAP_CLOCK_RATIO: f64 = 0.87;
/// `warmup-throttle`: the warmup's end, its decay time and excess slowdown. The excess
/// `A·(e^(−t/τ) − e^(−W/τ))` leaves the run 29 % slow at 26 s and within 2 % only after about
/// 53 s, and reaches nominal exactly at W = 60 s (a vLLM warmup measured on real hardware
/// decayed like this).
const SLOW_WARMUP_S: f64 = 60.0;
const SLOW_WARMUP_TAU_S: f64 = 15.0;
const SLOW_WARMUP_EXCESS: f64 = 1.83;
/// `warmup-throttle`: the random episode's length.
const RANDOM_EPISODE_S: f64 = 60.0;
/// Slowdown from sharing the GPU with a foreign process.
const FOREIGN_SLOWDOWN: f64 = 1.35;
/// Slowdown from preemption and recomputation under memory pressure.
const MEMORY_PRESSURE_SLOWDOWN: f64 = 1.3;
/// A saturated client manages this share of the offered send rate.
const CLIENT_CAPACITY_SHARE: f64 = 0.85;
/// Slowdown reached at the end of the `no-steady-state` drift.
const DRIFT_END_SLOWDOWN: f64 = 1.6;

impl Timeline {
    /// The warmup length: slow first tens of seconds (15 % of the run, 20–60 s).
    pub fn warmup_end_s(&self) -> f64 {
        match self.scenario {
            Scenario::Warmup => (0.15 * self.duration_s).clamp(20.0, 60.0),
            Scenario::WarmupThrottle => SLOW_WARMUP_S.min(0.3 * self.duration_s),
            _ => 0.0,
        }
    }

    /// The window of a mid-run episode: 40 % to 65 % of the run; for `warmup-throttle`, 60 s
    /// starting anywhere from 10 s to 70 s before the end (it may overlap the warmup).
    pub fn episode(&self) -> (f64, f64) {
        if self.scenario == Scenario::WarmupThrottle && self.duration_s >= 100.0 {
            let u = super::rng::SimRng::new(self.seed, super::rng::Stream::Episodes).uniform();
            let start = 10.0 + u * (self.duration_s - 80.0);
            return (start, start + RANDOM_EPISODE_S);
        }
        (0.40 * self.duration_s, 0.65 * self.duration_s)
    }

    /// `warmup-throttle`'s slow warmup: the slowdown factor at `t`.
    fn slow_warmup(&self, t: f64) -> f64 {
        let w = self.warmup_end_s();
        if t >= w {
            return 1.0;
        }
        let tau = SLOW_WARMUP_TAU_S * w / SLOW_WARMUP_S;
        1.0 + SLOW_WARMUP_EXCESS * ((-t / tau).exp() - (-w / tau).exp())
    }

    /// Ramp-down: the arrival rate falls linearly to zero from 80 % to 90 % of the run.
    fn ramp(&self) -> (f64, f64) {
        (0.80 * self.duration_s, 0.90 * self.duration_s)
    }

    pub fn anomalies(&self) -> Vec<Anomaly> {
        let Some(cause) = self.scenario.cause().filter(|_| self.with_episode) else {
            return Vec::new();
        };
        let (start_s, end_s) = match self.scenario {
            Scenario::NoSteadyState => (0.0, self.duration_s),
            Scenario::RampDown => (self.ramp().0, self.duration_s),
            _ => self.episode(),
        };
        vec![Anomaly { cause, start_s, end_s }]
    }

    pub(super) fn in_episode(&self, t: f64) -> bool {
        let (a, b) = self.episode();
        self.with_episode && t >= a && t < b
    }

    /// The system's conditions at `t` seconds from the run start.
    pub fn conditions(&self, t: f64) -> Conditions {
        let mut c = Conditions::default();
        match self.scenario {
            Scenario::Steady => {}
            Scenario::Warmup => {
                let w = self.warmup_end_s();
                if t < w {
                    // Decays from 1.7× to 1× and ends exactly at the warmup end.
                    c.slowdown = 1.0 + WARMUP_PEAK_EXCESS * (1.0 - (t / w).powi(4));
                }
            }
            Scenario::ThermalThrottle if self.in_episode(t) => c.slowdown = 1.0 / THERMAL_CLOCK_RATIO,
            Scenario::WarmupThrottle => {
                c.slowdown = self.slow_warmup(t) * if self.in_episode(t) { 1.0 / THERMAL_CLOCK_RATIO } else { 1.0 };
            }
            Scenario::PowerCap if self.in_episode(t) => c.slowdown = 1.0 / POWER_CAP_CLOCK_RATIO,
            Scenario::ForeignProcess if self.in_episode(t) => c.slowdown = FOREIGN_SLOWDOWN,
            Scenario::MemoryPressure if self.in_episode(t) => {
                // Less KV cache: batches shrink, and preempted requests are recomputed.
                c.kv_share = 0.40;
                c.batch_share = 0.35;
                c.slowdown = MEMORY_PRESSURE_SLOWDOWN;
            }
            Scenario::ErrorBurst if self.in_episode(t) => c.error_probability = 0.35,
            Scenario::ClientSaturation if self.in_episode(t) => c.client_capacity_share = Some(CLIENT_CAPACITY_SHARE),
            Scenario::NoSteadyState => {
                c.slowdown = 1.0 + (DRIFT_END_SLOWDOWN - 1.0) * (t / self.duration_s).clamp(0.0, 1.0);
            }
            Scenario::RampDown => {
                let (a, b) = self.ramp();
                c.rate_share = ((b - t) / (b - a)).clamp(0.0, 1.0);
            }
            _ => {}
        }
        c
    }
}
