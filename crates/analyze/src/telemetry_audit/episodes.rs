//! Throttle and power-limited episodes of one loaded GPU (`telemetry.md` §5.1–5.2).
//!
//! Where a sample carries the clock-event-reason bitmask, the bits decide: thermal slowdown
//! (0x20, 0x40), the external power brake (0x80) and unexplained HW slowdown (0x08) are
//! faults by DCGM's diagnostic mask (0xE8); the SW power cap (0x04) is "power-limited", not a
//! fault. Where it does not, a power cap is inferred from the SM clock falling under load
//! while power sits at its limit. A clock fall that neither explains is its own episode, with
//! its cause unknown. Only samples under load are flagged; an episode needs two samples
//! (llm-rig's rule for a 1 Hz poll), and one clear sample inside it does not split it.

use std::collections::BTreeMap;

use credence_messages::Message;
use serde::Serialize;

use crate::attribute::detectors::bits;
use crate::attribute::episodes::flagged_spans;
use crate::attribute::signals::GpuSeries;
use credence_stats::quantile::quantile_unsorted;

/// A loaded sample whose SM clock is below this share of the GPU's highest loaded clock has
/// "fallen" (§5.2 rule 4: a move of 10 % or more).
pub const CLOCK_FALL_SHARE: f64 = 0.9;
/// Power at or above this share of its limit is "at the limit" (§5.2 rule 2).
pub const AT_LIMIT_SHARE: f64 = 0.95;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EpisodeReason {
    ThermalSlowdown,
    HwPowerBrake,
    HwSlowdown,
    PowerCap,
    ClockDrop,
}

impl EpisodeReason {
    pub const ALL: [EpisodeReason; 5] =
        [EpisodeReason::ThermalSlowdown, EpisodeReason::HwPowerBrake, EpisodeReason::HwSlowdown, EpisodeReason::PowerCap, EpisodeReason::ClockDrop];

    /// In DCGM's diagnostic failure mask: the clocks were forced down, not merely held at a limit.
    pub fn fault(self) -> bool {
        matches!(self, EpisodeReason::ThermalSlowdown | EpisodeReason::HwPowerBrake | EpisodeReason::HwSlowdown)
    }

    /// The reason as a message (`telemetry-reason`, keyed by its JSON name).
    pub fn message(self) -> Message {
        let key = match self {
            EpisodeReason::ThermalSlowdown => "thermal_slowdown",
            EpisodeReason::HwPowerBrake => "hw_power_brake",
            EpisodeReason::HwSlowdown => "hw_slowdown",
            EpisodeReason::PowerCap => "power_cap",
            EpisodeReason::ClockDrop => "clock_drop",
        };
        Message::new("telemetry-reason").text("reason", key)
    }
}

/// How an episode was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The capture's clock-event-reason bits.
    ReasonBits,
    /// No reason bits: power within 5 % of its limit while the SM clock fell.
    PowerAtLimit,
    /// The SM clock fell with no reason bit (or none captured) and no power limit reached.
    ClockOnly,
}

/// One episode on one GPU.
#[derive(Debug, Clone, Serialize)]
pub struct ThrottleEpisode {
    pub gpu: String,
    pub reason: EpisodeReason,
    pub basis: Basis,
    pub fault: bool,
    /// Seconds from the capture's first sample.
    pub start_s: f64,
    pub end_s: f64,
    pub duration_s: f64,
    /// Epoch ns UTC.
    pub start_ns: i64,
    pub end_ns: i64,
    pub samples: usize,
    /// Every reason bit seen in the episode, OR-ed (`0x…`, 16 digits); None when not captured.
    pub reason_bits: Option<String>,
    /// The numbers behind it (units in the names); absent values are left out.
    pub evidence: BTreeMap<String, f64>,
}

/// What the detectors need of a GPU beyond its series.
pub struct GpuContext<'a> {
    pub g: &'a GpuSeries,
    pub loaded: &'a [Option<bool>],
    /// The highest SM clock seen under load, MHz.
    pub reference_mhz: f64,
    pub t0_ns: i64,
}

fn has(r: Option<u64>, mask: u64) -> bool {
    r.is_some_and(|r| r & mask != 0)
}

impl GpuContext<'_> {
    fn clock_fell(&self, i: usize) -> bool {
        self.g.sm_mhz[i] < CLOCK_FALL_SHARE * self.reference_mhz
    }

    fn power_at_limit(&self, i: usize) -> bool {
        self.g.power_w[i] >= AT_LIMIT_SHARE * self.g.limit_w[i]
    }

    /// The reason that holds at sample `i` (a loaded sample can hold several).
    pub fn holds(&self, reason: EpisodeReason, i: usize) -> bool {
        if self.loaded[i] != Some(true) {
            return false;
        }
        let r = self.g.reasons[i];
        let thermal = has(r, bits::SW_THERMAL | bits::HW_THERMAL);
        let brake = has(r, bits::HW_POWER_BRAKE);
        let inferred_cap = r.is_none() && self.clock_fell(i) && self.power_at_limit(i);
        match reason {
            EpisodeReason::ThermalSlowdown => thermal,
            EpisodeReason::HwPowerBrake => brake,
            EpisodeReason::HwSlowdown => has(r, bits::HW_SLOWDOWN) && !thermal && !brake,
            EpisodeReason::PowerCap => has(r, bits::SW_POWER_CAP) || inferred_cap,
            EpisodeReason::ClockDrop => self.clock_fell(i) && r.is_none_or(|r| r & !bits::IDLE == 0) && !inferred_cap,
        }
    }
}

/// Every episode of one GPU, by reason, then time.
pub fn episodes(c: &GpuContext) -> Vec<ThrottleEpisode> {
    let mut out = Vec::new();
    for reason in EpisodeReason::ALL {
        let flags: Vec<bool> = (0..c.g.t_s.len()).map(|i| c.holds(reason, i)).collect();
        for (span, idx) in flagged_spans(&c.g.t_s, &flags, 2, 1) {
            let at_ns = |s: f64| c.t0_ns + (s * 1e9).round() as i64;
            let seen = idx.iter().filter_map(|&i| c.g.reasons[i]).reduce(|a, b| a | b);
            let basis = match reason {
                EpisodeReason::ClockDrop => Basis::ClockOnly,
                _ if seen.is_some() => Basis::ReasonBits,
                _ => Basis::PowerAtLimit,
            };
            out.push(ThrottleEpisode {
                gpu: c.g.label.clone(),
                reason,
                basis,
                fault: reason.fault(),
                start_s: span.start_s,
                end_s: span.end_s,
                duration_s: span.duration(),
                start_ns: at_ns(span.start_s),
                end_ns: at_ns(span.end_s),
                samples: idx.len(),
                reason_bits: seen.map(|b| format!("0x{b:016X}")),
                evidence: evidence(c, &idx),
            });
        }
    }
    out
}

/// Seconds under load during which each reason held (isolated samples included), by reason.
pub fn flagged_seconds(c: &GpuContext, interval_s: f64) -> BTreeMap<EpisodeReason, f64> {
    EpisodeReason::ALL
        .iter()
        .map(|&reason| (reason, (0..c.g.t_s.len()).filter(|&i| c.holds(reason, i)).count() as f64 * interval_s))
        .filter(|(_, s)| *s > 0.0)
        .collect()
}

fn finite(idx: &[usize], v: &[f64]) -> Vec<f64> {
    idx.iter().map(|&i| v[i]).filter(|x| x.is_finite()).collect()
}

/// The episode's clock, power, temperature and utilization numbers.
fn evidence(c: &GpuContext, idx: &[usize]) -> BTreeMap<String, f64> {
    let g = c.g;
    let clock = finite(idx, &g.sm_mhz);
    let power = finite(idx, &g.power_w);
    let limit = finite(idx, &g.limit_w);
    let share: Vec<f64> = idx.iter().map(|&i| g.power_w[i] / g.limit_w[i]).filter(|x| x.is_finite()).collect();
    let util = finite(idx, &g.util_pct);
    let median = quantile_unsorted(&clock, 0.5);
    let max = |v: &[f64]| v.iter().copied().reduce(f64::max);
    let entries = [
        ("sm_clock_min_mhz", clock.iter().copied().reduce(f64::min)),
        ("sm_clock_median_mhz", median),
        ("sm_clock_reference_mhz", Some(c.reference_mhz)),
        ("sm_clock_drop_share", median.map(|m| 1.0 - m / c.reference_mhz)),
        ("power_max_w", max(&power)),
        ("power_limit_w", quantile_unsorted(&limit, 0.5)),
        ("power_share_of_limit_max", max(&share)),
        ("temp_max_c", max(&finite(idx, &g.temp_c))),
        ("util_mean_pct", (!util.is_empty()).then(|| util.iter().sum::<f64>() / util.len() as f64)),
    ];
    entries.into_iter().filter_map(|(k, v)| v.filter(|x| x.is_finite()).map(|v| (k.to_string(), v))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu(n: usize) -> GpuSeries {
        GpuSeries {
            label: "h GPU 0 (u)".into(),
            t_s: (0..n).map(|i| i as f64).collect(),
            sm_mhz: vec![1980.0; n],
            reasons: vec![None; n],
            power_w: vec![500.0; n],
            limit_w: vec![700.0; n],
            util_pct: vec![97.0; n],
            temp_c: vec![60.0; n],
            ..Default::default()
        }
    }

    fn run(g: &GpuSeries) -> Vec<ThrottleEpisode> {
        let loaded = vec![Some(true); g.t_s.len()];
        episodes(&GpuContext { g, loaded: &loaded, reference_mhz: 1980.0, t0_ns: 1_000_000_000_000 })
    }

    #[test]
    fn reason_bits_decide_and_the_span_covers_the_samples() {
        let mut g = gpu(30);
        for i in 10..20 {
            g.reasons[i] = Some(0x20);
            g.sm_mhz[i] = 1410.0;
        }
        g.reasons.iter_mut().filter(|r| r.is_none()).for_each(|r| *r = Some(0));
        let e = run(&g);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].reason, e[0].basis, e[0].fault), (EpisodeReason::ThermalSlowdown, Basis::ReasonBits, true));
        assert_eq!((e[0].start_s, e[0].end_s, e[0].samples), (10.0, 20.0, 10));
        assert_eq!(e[0].start_ns, 1_010_000_000_000);
        assert_eq!(e[0].reason_bits.as_deref(), Some("0x0000000000000020"));
        assert_eq!(e[0].evidence["sm_clock_min_mhz"], 1410.0);
    }

    #[test]
    fn without_bits_power_at_its_limit_is_a_cap_and_otherwise_the_cause_is_unknown() {
        let mut g = gpu(30);
        for i in 5..10 {
            g.sm_mhz[i] = 1650.0;
            g.power_w[i] = 699.0;
        }
        for i in 20..24 {
            g.sm_mhz[i] = 1200.0;
        }
        let e = run(&g);
        let kinds: Vec<(EpisodeReason, Basis, f64)> = e.iter().map(|x| (x.reason, x.basis, x.start_s)).collect();
        assert_eq!(kinds, vec![(EpisodeReason::PowerCap, Basis::PowerAtLimit, 5.0), (EpisodeReason::ClockDrop, Basis::ClockOnly, 20.0)]);
        assert!(!e[0].fault && !e[1].fault);
    }

    #[test]
    fn idle_samples_and_single_samples_make_no_episode() {
        let mut g = gpu(10);
        g.sm_mhz[4] = 1000.0;
        assert!(run(&g).is_empty(), "one sample is not an episode");
        let loaded = vec![Some(false); 10];
        let g = GpuSeries { sm_mhz: vec![300.0; 10], ..gpu(10) };
        assert!(episodes(&GpuContext { g: &g, loaded: &loaded, reference_mhz: 1980.0, t0_ns: 0 }).is_empty());
    }
}
