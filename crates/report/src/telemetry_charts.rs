//! Charts of a telemetry-only audit: per GPU, its SM clock, power, temperature and
//! utilization over the capture (half-width panels, four to a GPU), with the GPU's episodes
//! as red bands. Each reads only the `TelemetryAudit`; a quantity not captured has no panel.

use super::charts::{Bands, Line, line, lines_svg_sized};
use crate::i18n::{Lang, fill, tr};
use credence_analyze::attribute::timeline::GpuTimeline;
use credence_analyze::telemetry_audit::{GpuAudit, TelemetryAudit, short_gpu};

const PANEL: (u32, u32) = (440, 250);

fn points(t: &[f64], v: &[Option<f64>]) -> Vec<(f64, f64)> {
    t.iter().zip(v).filter_map(|(t, v)| v.map(|v| (*t, v))).collect()
}

/// A dashed horizontal line across the capture.
fn level(label: &str, y: f64, bands: &Bands) -> Line {
    Line { label: label.into(), points: vec![(bands.x_min, y), (bands.x_max, y)], dashed: true }
}

/// The panels of one GPU, by name (`gpu{i}_clock`, `_power`, `_temperature`, `_utilization`).
fn panels(t: &TelemetryAudit, i: usize, g: &GpuAudit, lang: Lang) -> Vec<(String, String)> {
    let w = |key: &str| tr(lang, key);
    let of_gpu = |key: &str| fill(lang, "chart.of_gpu", &[("gpu", &short_gpu(&g.gpu)), ("what", &w(key))]);
    let tl: &GpuTimeline = &g.timeline;
    // Each GPU's own span: captures joined from several files need not overlap in time.
    let first = tl.t_s.first().copied().unwrap_or(0.0);
    let bands = Bands {
        dropped: Vec::new(),
        episodes: t.episodes.iter().filter(|e| e.gpu == g.gpu).map(|e| (e.start_s, e.end_s)).collect(),
        x_min: first,
        x_max: tl.t_s.last().map_or(first + 1.0, |l| l + g.interval_s),
    };
    let mut clock = vec![line(w("chart.sm_clock"), points(&tl.t_s, &tl.sm_clock_mhz))];
    if let Some(max) = tl.sm_clock_max_mhz {
        clock.push(level(&w("chart.rated_maximum"), max, &bands));
    }
    let mut power = vec![line(w("chart.power"), points(&tl.t_s, &tl.power_w))];
    power.push(Line { label: w("chart.limit"), points: points(&tl.t_s, &tl.power_limit_w), dashed: true });
    let util = vec![line(w("chart.utilization"), points(&tl.t_s, &tl.util_pct)), level(&w("chart.under_load"), t.load_threshold_pct, &bands)];
    let charts = [
        ("clock", of_gpu("chart.sm_clock"), "MHz", clock),
        ("power", of_gpu("chart.power"), "W", power),
        ("temperature", of_gpu("chart.temperature"), "°C", vec![line("GPU", points(&tl.t_s, &tl.temp_c))]),
        ("utilization", of_gpu("chart.utilization"), "%", util),
    ];
    charts
        .into_iter()
        // A panel whose only line is a reference level has no data of its own.
        .filter(|(_, _, _, lines)| lines.first().is_some_and(|l| !l.points.is_empty()))
        .filter_map(|(key, title, unit, lines)| {
            lines_svg_sized(PANEL, &title, unit, lines, Some(&bands), false, &w("chart.seconds_sample")).map(|svg| (format!("gpu{i}_{key}"), svg))
        })
        .collect()
}

/// Every GPU's panels, in the order of `TelemetryAudit::gpus`.
pub fn gpu_panels(t: &TelemetryAudit, lang: Lang) -> Vec<Vec<(String, String)>> {
    t.gpus.iter().enumerate().map(|(i, g)| panels(t, i, g, lang)).collect()
}
