//! The audit of a GPU capture with no request records (nvidia-smi `--query-gpu` CSV,
//! `nvidia-smi dmon`, dcgm-exporter scrapes, alone or together).
//!
//! Such a capture shows how the GPUs ran, not how a benchmark performed. Per GPU:
//! 1. which samples were under load (`load`); idle GPUs are set aside with the reason;
//! 2. on loaded GPUs, throttle and power-limited episodes (`episodes`) and the SM clock's
//!    stability under load (`stability`);
//! 3. a timeline of clock, power, temperature and utilization for the report's charts.
//!
//! Times are seconds from the capture's first sample (any GPU), and epoch ns UTC.

pub mod episodes;
pub mod load;
pub mod stability;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::attribute::episodes::sample_interval;
use crate::attribute::signals::{GpuSeries, gpu_series, present};
use crate::attribute::timeline::{GpuTimeline, timeline};
use credence_run::Table;
use credence_run::manifest::SourceFile;
use episodes::{EpisodeReason, GpuContext, ThrottleEpisode, flagged_seconds};
use load::{GpuLoad, LOAD_UTIL_PCT, LoadState, classify, load_rule, loaded_flags};
use stability::{ClockStability, clock_stability};

/// A gap longer than this many sample intervals is reported.
const GAP_INTERVALS: f64 = 3.0;

/// Everything a telemetry-only audit found, as the report shows it.
#[derive(Debug, Clone, Serialize)]
pub struct TelemetryAudit {
    /// "file (format), …".
    pub source: String,
    pub files: Vec<SourceFile>,
    /// The capture's first sample, epoch ns UTC: time zero of every `*_s` field.
    pub t0_ns: i64,
    /// From the first sample to one interval past the last.
    pub duration_s: f64,
    pub samples: usize,
    pub load_threshold_pct: f64,
    /// What "under load" means, in words.
    pub load_rule: String,
    /// Every GPU, loaded or set aside, by label.
    pub gpus: Vec<GpuAudit>,
    /// Episodes of the loaded GPUs, by start time.
    pub episodes: Vec<ThrottleEpisode>,
    /// Fields the capture could not read (sentinels such as `[N/A]`, DCGM blanks), read as missing.
    pub unreadable: Vec<UnreadableField>,
}

/// One GPU of the capture.
#[derive(Debug, Clone, Serialize)]
pub struct GpuAudit {
    pub gpu: String,
    pub samples: usize,
    /// Median spacing of its samples, seconds.
    pub interval_s: f64,
    /// Spacings longer than 3 intervals.
    pub gaps: usize,
    /// Which quantities the capture holds for it.
    pub captured: Vec<&'static str>,
    pub load: GpuLoad,
    /// None for a GPU set aside.
    pub stability: Option<ClockStability>,
    /// Seconds under load each reason held, isolated samples included (loaded GPUs only).
    pub flagged_s: BTreeMap<EpisodeReason, f64>,
    pub timeline: GpuTimeline,
}

#[derive(Debug, Clone, Serialize)]
pub struct UnreadableField {
    pub field: String,
    pub samples: usize,
}

impl TelemetryAudit {
    pub fn gpus_in(&self, state: LoadState) -> impl Iterator<Item = &GpuAudit> {
        self.gpus.iter().filter(move |g| g.load.state == state)
    }

    /// Whether any GPU's capture carries clock-event-reason bits.
    pub fn reasons_captured(&self) -> bool {
        self.gpus.iter().any(|g| g.captured.contains(&"clock_event_reasons"))
    }

    /// Whether episodes could be looked for: a GPU under load with an SM clock or reason bits.
    pub fn episodes_looked_for(&self) -> bool {
        self.gpus_in(LoadState::Loaded).any(|g| g.captured.contains(&"sm_clock") || g.captured.contains(&"clock_event_reasons"))
    }
}

/// Audits the GPU table of a capture; None when it has no timed sample.
pub fn telemetry_audit(gpu: &Table, source: &str, files: Vec<SourceFile>) -> Option<TelemetryAudit> {
    let t0_ns = gpu.timestamps("ts_ns")?.iter().flatten().copied().min()?;
    let series = gpu_series(gpu, t0_ns);
    let gpus: Vec<GpuAudit> = series.iter().map(gpu_audit).collect();
    let mut episodes: Vec<ThrottleEpisode> = series.iter().zip(&gpus).flat_map(|(g, a)| gpu_episodes(g, a, t0_ns)).collect();
    episodes.sort_by(|a, b| a.start_s.total_cmp(&b.start_s).then_with(|| a.gpu.cmp(&b.gpu)));
    let duration_s = series.iter().zip(&gpus).filter_map(|(g, a)| g.t_s.last().map(|t| t + a.interval_s)).fold(0.0, f64::max);
    Some(TelemetryAudit {
        source: source.to_string(),
        files,
        t0_ns,
        duration_s,
        samples: gpu.num_rows(),
        load_threshold_pct: LOAD_UTIL_PCT,
        load_rule: load_rule(),
        gpus,
        episodes,
        unreadable: unreadable(gpu),
    })
}

/// One GPU's load, stability and timeline.
fn gpu_audit(g: &GpuSeries) -> GpuAudit {
    let interval_s = sample_interval(&g.t_s);
    let flags = loaded_flags(g);
    let load = classify(g, &flags);
    let loaded = load.state == LoadState::Loaded;
    let flagged_s = if loaded { flagged_seconds(&context(g, &flags, 0), interval_s) } else { BTreeMap::new() };
    GpuAudit {
        gpu: g.label.clone(),
        samples: g.t_s.len(),
        interval_s,
        gaps: g.t_s.windows(2).filter(|w| w[1] - w[0] > GAP_INTERVALS * interval_s).count(),
        captured: captured(g),
        stability: loaded.then(|| clock_stability(g, &flags, interval_s)),
        load,
        flagged_s,
        timeline: timeline(std::slice::from_ref(g), &[]).gpus.remove(0),
    }
}

/// The episodes of a loaded GPU; none for a GPU set aside.
fn gpu_episodes(g: &GpuSeries, a: &GpuAudit, t0_ns: i64) -> Vec<ThrottleEpisode> {
    if a.load.state != LoadState::Loaded {
        return Vec::new();
    }
    episodes::episodes(&context(g, &loaded_flags(g), t0_ns))
}

/// The GPU with its load flags and its highest SM clock under load as the reference.
fn context<'a>(g: &'a GpuSeries, loaded: &'a [Option<bool>], t0_ns: i64) -> GpuContext<'a> {
    let reference_mhz = (0..g.t_s.len()).filter(|&i| loaded[i] == Some(true)).map(|i| g.sm_mhz[i]).filter(|x| x.is_finite()).fold(f64::NAN, f64::max);
    GpuContext { g, loaded, reference_mhz, t0_ns }
}

/// The quantities the capture holds for `g`.
fn captured(g: &GpuSeries) -> Vec<&'static str> {
    let columns: [(&'static str, bool); 7] = [
        ("sm_clock", present(&g.sm_mhz)),
        ("sm_clock_max", present(&g.sm_max_mhz)),
        ("utilization", present(&g.util_pct)),
        ("power", present(&g.power_w)),
        ("power_limit", present(&g.limit_w)),
        ("temperature", present(&g.temp_c)),
        ("clock_event_reasons", g.reasons.iter().any(Option::is_some)),
    ];
    columns.into_iter().filter(|c| c.1).map(|c| c.0).collect()
}

/// Counts of unreadable fields from the table's `errors` column (`field:raw;…` per sample).
fn unreadable(gpu: &Table) -> Vec<UnreadableField> {
    let Some(errors) = gpu.strings("errors") else { return Vec::new() };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for i in 0..gpu.num_rows() {
        if arrow_array::Array::is_null(errors, i) {
            continue;
        }
        for entry in errors.value(i).split(';').filter(|e| !e.is_empty()) {
            *counts.entry(entry.to_string()).or_default() += 1;
        }
    }
    counts.into_iter().map(|(field, samples)| UnreadableField { field, samples }).collect()
}

/// A GPU's label without its uuid ("node7 GPU 0"), for sentences.
pub fn short_gpu(label: &str) -> &str {
    label.split(" (").next().unwrap_or(label)
}
