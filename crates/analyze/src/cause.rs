//! The causes credence attributes anomalies to, as one typed vocabulary: each cause carries
//! its words (`cause-title`, `cause-action` in `locales/*/causes.ftl`), the metric its effect is
//! measured on, whether it lies outside the system under test, and the credibility check it
//! feeds. A new cause is a detector, one arm here and one catalog entry per language; the
//! compiler finds every `match` to extend. It serializes as its snake_case id
//! (`thermal_throttle`), as the JSON always had it.

use std::fmt;

use serde::{Deserialize, Serialize};

use credence_messages::Message;

use crate::attribute::effect::EffectMetric;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// The open loop offered more than the server completes: its queue grows.
    Overload,
    ThermalThrottle,
    PowerCap,
    HwPowerBrake,
    HwSlowdown,
    ClockChange,
    MemoryPressure,
    ForeignProcess,
    ClientSaturation,
    Network,
    Host,
    ServerQueueing,
    ErrorBurst,
    Drift,
    RampDown,
    /// The run began on a cold prefix cache: TTFT fell while the cache's hit share climbed.
    CacheWarming,
}

/// The credibility check a cause's findings feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckGroup {
    /// `throttling`: the GPU slowed itself down.
    Throttling,
    /// `interference`: something else competed for the GPU, host or network.
    Interference,
    /// `client_saturation`: the load generator was its own bottleneck.
    Client,
    /// `errors`: failed requests.
    Errors,
    /// `steady_state`: the window itself moved.
    Steady,
}

/// Median TPOT: what GPU-side causes slow down.
const TPOT_P50: EffectMetric = EffectMetric::Quantile { name: "tpot", p: 0.5 };
/// Median TTFT: what queueing, network and host causes slow down.
const TTFT_P50: EffectMetric = EffectMetric::Quantile { name: "ttft", p: 0.5 };

impl Cause {
    /// Every cause, in report order (the order the detectors run in).
    pub const ALL: [Cause; 16] = [
        Cause::Overload,
        Cause::ThermalThrottle,
        Cause::PowerCap,
        Cause::HwPowerBrake,
        Cause::HwSlowdown,
        Cause::ClockChange,
        Cause::MemoryPressure,
        Cause::ForeignProcess,
        Cause::ClientSaturation,
        Cause::Network,
        Cause::Host,
        Cause::ServerQueueing,
        Cause::ErrorBurst,
        Cause::Drift,
        Cause::RampDown,
        Cause::CacheWarming,
    ];

    /// The id the JSON and the catalog use (`thermal_throttle`).
    pub fn id(self) -> &'static str {
        match self {
            Cause::Overload => "overload",
            Cause::ThermalThrottle => "thermal_throttle",
            Cause::PowerCap => "power_cap",
            Cause::HwPowerBrake => "hw_power_brake",
            Cause::HwSlowdown => "hw_slowdown",
            Cause::ClockChange => "clock_change",
            Cause::MemoryPressure => "memory_pressure",
            Cause::ForeignProcess => "foreign_process",
            Cause::ClientSaturation => "client_saturation",
            Cause::Network => "network",
            Cause::Host => "host",
            Cause::ServerQueueing => "server_queueing",
            Cause::ErrorBurst => "error_burst",
            Cause::Drift => "drift",
            Cause::RampDown => "ramp_down",
            Cause::CacheWarming => "cache_warming",
        }
    }

    /// The cause with id `id`.
    pub fn parse(id: &str) -> Option<Cause> {
        Cause::ALL.into_iter().find(|c| c.id() == id)
    }

    /// The metric its effect is measured on: GPU causes slow decoding (TPOT), queueing, network
    /// and host slow the first token (TTFT), a saturated client delays the send itself.
    pub fn effect_metric(self) -> EffectMetric {
        match self {
            Cause::ThermalThrottle
            | Cause::PowerCap
            | Cause::HwPowerBrake
            | Cause::HwSlowdown
            | Cause::ClockChange
            | Cause::MemoryPressure
            | Cause::ForeignProcess
            | Cause::Drift => TPOT_P50,
            Cause::ClientSaturation => EffectMetric::Quantile { name: "service", p: 0.5 },
            Cause::Overload | Cause::Network | Cause::Host | Cause::ServerQueueing | Cause::RampDown | Cause::CacheWarming => TTFT_P50,
            Cause::ErrorBurst => EffectMetric::ErrorRate,
        }
    }

    /// Whether the cause lies outside the system under test: its episodes are excluded from
    /// the clean condition. Queueing, errors and drift are the server's own behaviour.
    pub fn is_environmental(self) -> bool {
        match self {
            Cause::ThermalThrottle
            | Cause::PowerCap
            | Cause::HwPowerBrake
            | Cause::HwSlowdown
            | Cause::ClockChange
            | Cause::MemoryPressure
            | Cause::ForeignProcess
            | Cause::ClientSaturation
            | Cause::Network
            | Cause::Host => true,
            Cause::Overload | Cause::ServerQueueing | Cause::ErrorBurst | Cause::Drift | Cause::RampDown | Cause::CacheWarming => false,
        }
    }

    /// The credibility check its findings feed.
    pub fn check_group(self) -> CheckGroup {
        match self {
            Cause::ThermalThrottle | Cause::PowerCap | Cause::HwPowerBrake | Cause::HwSlowdown | Cause::ClockChange => CheckGroup::Throttling,
            Cause::MemoryPressure | Cause::ForeignProcess | Cause::Network | Cause::Host | Cause::ServerQueueing => CheckGroup::Interference,
            Cause::ClientSaturation => CheckGroup::Client,
            Cause::ErrorBurst => CheckGroup::Errors,
            Cause::Overload | Cause::Drift | Cause::RampDown | Cause::CacheWarming => CheckGroup::Steady,
        }
    }

    /// Whether a finding of this cause fails the throttling check (a power cap only warns: it
    /// is normal operation at the enforced limit).
    pub fn is_hard_throttle(self) -> bool {
        matches!(self, Cause::ThermalThrottle | Cause::HwPowerBrake | Cause::HwSlowdown | Cause::ClockChange)
    }

    /// The finding's title (`cause-title`).
    pub fn title(self) -> Message {
        Message::new("cause-title").text("cause", self.id())
    }

    /// What to do about it (`cause-action`).
    pub fn action(self) -> Message {
        Message::new("cause-action").text("cause", self.id())
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl PartialEq<&str> for Cause {
    fn eq(&self, other: &&str) -> bool {
        self.id() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use credence_messages::Lang;

    #[test]
    fn ids_round_trip_through_serde_and_parse() {
        for c in Cause::ALL {
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{}\"", c.id()));
            assert_eq!(Cause::parse(c.id()), Some(c));
        }
    }

    #[test]
    fn every_cause_has_its_words_in_every_language() {
        for c in Cause::ALL {
            for lang in [Lang::En, Lang::Zh] {
                let (title, action) = (c.title().render(lang), c.action().render(lang));
                assert!(!title.is_empty() && title != c.id(), "{c}: title {title:?} in {lang:?}");
                assert!(!action.is_empty() && action != c.id(), "{c}: action {action:?} in {lang:?}");
            }
        }
    }
}
