//! Which samples count as "under load", and which GPUs were idle.
//!
//! A GPU is under load in a sample when its utilization (share of time a kernel ran) is at
//! least `LOAD_UTIL_PCT`; where a sample has no utilization, when its clock-event reasons are
//! known and the GPU-idle bit (0x1) is clear. A GPU with fewer than `MIN_LOADED_SAMPLES`
//! loaded samples is set aside as idle: its clocks say nothing about a workload.

use credence_messages::{Lang, Message};
use serde::Serialize;

use crate::attribute::detectors::bits;
use crate::attribute::signals::GpuSeries;

/// Utilization at or above which a sample counts as under load, in %. The same threshold as
/// the attribution detectors', so an audit and an analysis call the same samples loaded.
pub const LOAD_UTIL_PCT: f64 = 50.0;

/// Fewer loaded samples than this and the GPU is set aside as idle.
pub const MIN_LOADED_SAMPLES: usize = 5;

/// What "under load" means, in English, for the JSON.
pub fn load_rule() -> String {
    load_rule_message().render(Lang::En)
}

/// What "under load" means, as a message (`locales/*/telemetry.ftl`).
pub fn load_rule_message() -> Message {
    Message::new("telemetry-load-rule").num("util", LOAD_UTIL_PCT, 0).int("min", MIN_LOADED_SAMPLES)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadState {
    /// Analyzed: clock stability and episodes.
    Loaded,
    /// Set aside: too few samples under load.
    Idle,
    /// Set aside: neither utilization nor clock-event reasons were captured.
    Unknown,
}

/// How busy one GPU was over the capture.
#[derive(Debug, Clone, Serialize)]
pub struct GpuLoad {
    pub state: LoadState,
    pub samples: usize,
    pub loaded_samples: usize,
    pub util_max_pct: Option<f64>,
    /// Samples with the GPU-idle reason bit set.
    pub idle_bit_samples: usize,
    /// Why the GPU is in this state, with the numbers (`reason_message` in English).
    pub reason: String,
    pub reason_message: Message,
}

/// Per sample: Some(true) under load, Some(false) not, None when the capture cannot tell.
pub fn loaded_flags(g: &GpuSeries) -> Vec<Option<bool>> {
    (0..g.t_s.len()).map(|i| if g.util_pct[i].is_finite() { Some(g.util_pct[i] >= LOAD_UTIL_PCT) } else { g.reasons[i].map(|r| r & bits::IDLE == 0) }).collect()
}

/// Classifies a GPU from its per-sample load flags.
pub fn classify(g: &GpuSeries, flags: &[Option<bool>]) -> GpuLoad {
    let samples = flags.len();
    let loaded_samples = flags.iter().filter(|f| **f == Some(true)).count();
    let known = flags.iter().filter(|f| f.is_some()).count();
    let util_max_pct = g.util_pct.iter().copied().filter(|x| x.is_finite()).reduce(f64::max);
    let idle_bit_samples = g.reasons.iter().filter(|r| r.is_some_and(|r| r & bits::IDLE != 0)).count();
    let util = util_max_pct.map_or(Message::new("telemetry-util-none"), |m| Message::new("telemetry-util-max").num("max", m, 0));
    let (state, reason_message) = if known == 0 {
        (LoadState::Unknown, Message::new("telemetry-load-unknown").int("samples", samples))
    } else if loaded_samples < MIN_LOADED_SAMPLES {
        let m = Message::new("telemetry-load-idle").int("loaded", loaded_samples).int("samples", samples).msg("util", util);
        (LoadState::Idle, m.int("idle", idle_bit_samples).int("min", MIN_LOADED_SAMPLES))
    } else {
        (LoadState::Loaded, Message::new("telemetry-load-loaded").int("loaded", loaded_samples).int("samples", samples).msg("util", util))
    };
    let reason = reason_message.render(Lang::En);
    GpuLoad { state, samples, loaded_samples, util_max_pct, idle_bit_samples, reason, reason_message }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu(util: &[f64], reasons: &[Option<u64>]) -> GpuSeries {
        GpuSeries { t_s: (0..util.len()).map(|i| i as f64).collect(), util_pct: util.to_vec(), reasons: reasons.to_vec(), ..Default::default() }
    }

    #[test]
    fn utilization_first_then_the_idle_bit() {
        let g = gpu(&[0.0, 60.0, f64::NAN, f64::NAN], &[None, None, Some(0x1), Some(0x4)]);
        assert_eq!(loaded_flags(&g), vec![Some(false), Some(true), Some(false), Some(true)]);
        let g = gpu(&[f64::NAN; 3], &[None; 3]);
        assert_eq!(classify(&g, &loaded_flags(&g)).state, LoadState::Unknown);
    }

    #[test]
    fn a_gpu_busy_in_few_samples_is_idle() {
        let mut util = vec![0.0; 20];
        util[3] = 90.0;
        let g = gpu(&util, &vec![Some(0x1); 20]);
        let l = classify(&g, &loaded_flags(&g));
        assert_eq!((l.state, l.loaded_samples, l.idle_bit_samples), (LoadState::Idle, 1, 20));
        assert!(l.reason.contains("under load in 1 of 20 samples"), "{}", l.reason);
        let g = gpu(&[97.0; 20], &[None; 20]);
        assert_eq!(classify(&g, &loaded_flags(&g)).state, LoadState::Loaded);
    }
}
