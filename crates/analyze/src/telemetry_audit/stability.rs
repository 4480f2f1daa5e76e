//! Clock stability of one GPU under load: how much the SM clock moved while the GPU was busy.
//!
//! Descriptive only: 1 Hz clock samples are strongly autocorrelated (a throttle lasts many
//! samples), so no interval is attached, and with fewer than `MIN_SAMPLES` loaded samples
//! the numbers are marked `insufficient_data`.

use credence_messages::{Lang, Message};
use serde::Serialize;

use crate::Status;
use crate::attribute::signals::GpuSeries;
use credence_stats::quantile::quantile_unsorted;

use super::episodes::CLOCK_FALL_SHARE;

/// Fewer loaded clock samples than this and the spread is not read as the GPU's.
pub const MIN_SAMPLES: usize = 10;
/// A coefficient of variation above this is an unstable clock (5 %: per-token times move by
/// about as much).
pub const STABLE_CV: f64 = 0.05;
/// More than this share of loaded time below 90 % of the highest clock is an unstable clock.
pub const STABLE_SHARE_FALLEN: f64 = 0.05;

#[derive(Debug, Clone, Serialize)]
pub struct ClockStability {
    pub status: Status,
    /// Loaded samples with an SM clock.
    pub loaded_samples: usize,
    /// Loaded samples times the median sample interval.
    pub loaded_s: f64,
    pub sm_clock_mean_mhz: Option<f64>,
    pub sm_clock_sd_mhz: Option<f64>,
    /// Standard deviation over mean.
    pub sm_clock_cv: Option<f64>,
    pub sm_clock_min_mhz: Option<f64>,
    pub sm_clock_median_mhz: Option<f64>,
    /// The highest SM clock seen under load: the reference of the shares below.
    pub sm_clock_max_observed_mhz: Option<f64>,
    /// The GPU's rated maximum (`clocks.max.sm`), where captured.
    pub sm_clock_max_rated_mhz: Option<f64>,
    /// Share of loaded samples (equally spaced: of loaded seconds) below the highest observed clock.
    pub share_below_max_observed: Option<f64>,
    /// Share below 90 % of the highest observed clock.
    pub share_below_90pct_of_max_observed: Option<f64>,
    /// Whether the clock was stable by `STABLE_CV` and `STABLE_SHARE_FALLEN`; None with too few samples.
    pub stable: Option<bool>,
    /// What the numbers can be read as (`note_message` in English).
    pub note: String,
    pub note_message: Message,
}

/// The SM clock's spread over the loaded samples of `g`.
pub fn clock_stability(g: &GpuSeries, loaded: &[Option<bool>], interval_s: f64) -> ClockStability {
    let clocks: Vec<f64> = (0..g.t_s.len()).filter(|&i| loaded[i] == Some(true) && g.sm_mhz[i].is_finite()).map(|i| g.sm_mhz[i]).collect();
    let n = clocks.len();
    let rated = g.sm_max_mhz.iter().copied().filter(|x| x.is_finite()).reduce(f64::max);
    let max = clocks.iter().copied().reduce(f64::max);
    let mean = (n > 0).then(|| clocks.iter().sum::<f64>() / n as f64);
    let sd = mean.filter(|_| n > 1).map(|m| (clocks.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt());
    let cv = match (sd, mean) {
        (Some(s), Some(m)) if m > 0.0 => Some(s / m),
        _ => None,
    };
    let share = |limit: f64| max.map(|_| clocks.iter().filter(|&&x| x < limit).count() as f64 / n as f64);
    let below_max = max.and_then(share);
    let below_fallen = max.and_then(|m| share(CLOCK_FALL_SHARE * m));
    let enough = n >= MIN_SAMPLES;
    let stable = match (enough, cv, below_fallen) {
        (true, Some(c), Some(f)) => Some(c <= STABLE_CV && f <= STABLE_SHARE_FALLEN),
        _ => None,
    };
    let note_message = if enough {
        Message::new("telemetry-stability-descriptive").int("n", n)
    } else {
        Message::new("telemetry-stability-few").int("n", n).int("min", MIN_SAMPLES)
    };
    let note = note_message.render(Lang::En);
    ClockStability {
        status: if enough { Status::Ok } else { Status::InsufficientData },
        loaded_samples: n,
        loaded_s: n as f64 * interval_s,
        sm_clock_mean_mhz: mean,
        sm_clock_sd_mhz: sd,
        sm_clock_cv: cv,
        sm_clock_min_mhz: clocks.iter().copied().reduce(f64::min),
        sm_clock_median_mhz: quantile_unsorted(&clocks, 0.5),
        sm_clock_max_observed_mhz: max,
        sm_clock_max_rated_mhz: rated,
        share_below_max_observed: below_max,
        share_below_90pct_of_max_observed: below_fallen,
        stable,
        note,
        note_message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_and_shares_over_loaded_samples_only() {
        // 8 loaded samples at 2000, 2 loaded at 1000, 2 idle at 300 (ignored).
        let mut sm = vec![2000.0; 8];
        sm.extend([1000.0, 1000.0, 300.0, 300.0]);
        let loaded: Vec<Option<bool>> = (0..12).map(|i| Some(i < 10)).collect();
        let g = GpuSeries { t_s: (0..12).map(f64::from).collect(), sm_mhz: sm, sm_max_mhz: vec![2100.0; 12], ..Default::default() };
        let s = clock_stability(&g, &loaded, 1.0);
        assert_eq!((s.loaded_samples, s.loaded_s, s.status), (10, 10.0, Status::Ok));
        assert_eq!(s.sm_clock_mean_mhz, Some(1800.0));
        // sd of [2000 x8, 1000 x2] with n-1: sqrt((8*200^2 + 2*800^2)/9) = 421.6
        assert!((s.sm_clock_sd_mhz.unwrap() - 421.637).abs() < 1e-3, "{:?}", s.sm_clock_sd_mhz);
        assert_eq!((s.share_below_max_observed, s.share_below_90pct_of_max_observed), (Some(0.2), Some(0.2)));
        assert_eq!((s.sm_clock_max_observed_mhz, s.sm_clock_max_rated_mhz), (Some(2000.0), Some(2100.0)));
        assert_eq!(s.stable, Some(false));
    }

    #[test]
    fn too_few_samples_say_so() {
        let g = GpuSeries { t_s: vec![0.0, 1.0], sm_mhz: vec![1980.0, 1980.0], ..Default::default() };
        let s = clock_stability(&g, &[Some(true), Some(true)], 1.0);
        assert_eq!((s.status, s.stable), (Status::InsufficientData, None));
        assert!(s.note.contains("only 2"), "{}", s.note);
    }
}
