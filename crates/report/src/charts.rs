//! Charts as SVG strings, one small function per chart kind, each reading only the `Analysis`
//! (or the `Comparison`). A chart whose data is absent returns None and its panel is left out.
//!
//! Text uses "Libertinus Serif", the report's own text face, which typst embeds (typst ignores
//! generic families inside SVG, see stack.md §1.4). Tick labels are round numbers written
//! without trailing zeros (`tick`), and every axis names its unit.

use plotters::coord::Shift;
use plotters::prelude::*;

use credence_analyze::Analysis;
use credence_analyze::compare::Comparison;

use crate::i18n::{Lang, fill, tr};

const FONT: &str = "Libertinus Serif";

/// The charts' font list in `lang`: the document's own face, so that a chart's ticks, legends
/// and title share it (a Chinese report is set in Noto Sans CJK SC, Latin included; Libertinus
/// follows for the few symbols it lacks, which typst's SVG renderer takes from the next family).
pub fn font_family(lang: Lang) -> &'static str {
    match lang {
        Lang::En => FONT,
        Lang::Zh => "Noto Sans CJK SC, Libertinus Serif",
    }
}

/// An SVG chart drawn in `FONT` with its font list in `lang` (plotters takes one family name).
pub fn in_language_font(svg: &str, lang: Lang) -> String {
    svg.replace(&format!("font-family=\"{FONT}\""), &format!("font-family=\"{}\"", font_family(lang)))
}

/// A tick label: the value with as few decimals as it needs ("50", "2.5", "0.125"), never "50.0".
pub(crate) fn tick(v: &f64) -> String {
    let v = if v.abs() < 1e-9 { 0.0 } else { *v };
    let text = if v.abs() >= 100.0 { format!("{v:.0}") } else { format!("{v:.3}") };
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

const SIZE: (u32, u32) = (900, 250);
const PALETTE: [RGBColor; 6] =
    [RGBColor(31, 119, 180), RGBColor(214, 39, 40), RGBColor(44, 160, 44), RGBColor(148, 103, 189), RGBColor(255, 127, 14), RGBColor(23, 190, 207)];
const SHADE: RGBColor = RGBColor(200, 200, 200);
const EPISODE: RGBColor = RGBColor(240, 120, 120);

/// A named line.
pub struct Line {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub dashed: bool,
}

pub(super) fn line(label: impl Into<String>, points: Vec<(f64, f64)>) -> Line {
    Line { label: label.into(), points, dashed: false }
}

/// Time spans drawn behind every timeline: dropped warmup and ramp-down in grey, finding
/// episodes in red.
pub(super) struct Bands {
    pub(super) dropped: Vec<(f64, f64)>,
    pub(super) episodes: Vec<(f64, f64)>,
    /// The x axis spans at least `x_min..x_max` (0 for a run's timelines).
    pub(super) x_min: f64,
    pub(super) x_max: f64,
}

fn bands(a: &Analysis) -> Bands {
    let s = &a.steady_state;
    let x_max = a.timeseries.windows.last().map_or(s.end_s, |w| w.start_s + a.timeseries.window_s).max(s.end_s).max(1.0);
    let mut dropped = Vec::new();
    if s.start_s > 0.0 {
        dropped.push((0.0, s.start_s));
    }
    if s.end_s < x_max {
        dropped.push((s.end_s, x_max));
    }
    let episodes = a.findings.iter().filter(|f| f.cause != "drift").flat_map(|f| f.episodes.iter().map(|e| (e.start_s, e.end_s))).collect();
    Bands { dropped, episodes, x_min: 0.0, x_max }
}

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The axes' extent (x from 0 or below to the bands' end, y over the plottable points); none when no point can be drawn.
fn extent(lines: &[Line], bands: Option<&Bands>, log_y: bool) -> Option<(f64, f64, f64, f64)> {
    let pts = || lines.iter().flat_map(|l| l.points.iter()).filter(|p| p.0.is_finite() && p.1.is_finite() && (!log_y || p.1 > 0.0));
    let x_max = bands.map_or(0.0, |b| b.x_max).max(pts().map(|p| p.0).fold(1.0, f64::max));
    let x_min = pts().map(|p| p.0).fold(bands.map_or(0.0, |b| b.x_min), f64::min);
    let y_max = pts().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let y_min = pts().map(|p| p.1).fold(f64::INFINITY, f64::min);
    y_max.is_finite().then_some((x_min, x_max, y_min, y_max))
}

fn draw_lines(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    title: &str,
    y_desc: &str,
    lines: &[Line],
    bands: Option<&Bands>,
    log_y: bool,
    x_desc: &str,
) -> Result<()> {
    area.fill(&WHITE)?;
    let Some((x_min, x_max, y_min, y_max)) = extent(lines, bands, log_y) else {
        return Ok(());
    };
    // Half-width panels get half the x ticks, so long time labels do not overlap.
    let narrow = area.dim_in_pixel().0 < 600;
    // A log axis within one decade gets no tick labels: draw it linear instead.
    let log_y = log_y && y_min > 0.0 && y_max / y_min >= 10.0;
    let mut builder = ChartBuilder::on(area);
    builder.caption(title, (FONT, 15)).margin(6).x_label_area_size(34).y_label_area_size(70);
    let style = |c: &RGBColor| ShapeStyle::from(c).stroke_width(2);
    // One body for both y-axis kinds (plotters types a chart by its coordinates).
    macro_rules! body {
        ($chart:ident, $lo:expr, $hi:expr, $keep:expr) => {{
            let mut mesh = $chart.configure_mesh();
            mesh.x_desc(x_desc).y_desc(y_desc).label_style((FONT, 12)).y_labels(6).x_label_formatter(&tick).y_label_formatter(&tick);
            if narrow {
                mesh.x_labels(5);
            }
            mesh.draw()?;
            if let Some(b) = bands {
                $chart.draw_series(b.dropped.iter().map(|&(a, z)| Rectangle::new([(a, $lo), (z, $hi)], SHADE.mix(0.35).filled())))?;
                $chart.draw_series(b.episodes.iter().map(|&(a, z)| Rectangle::new([(a, $lo), (z, $hi)], EPISODE.mix(0.25).filled())))?;
            }
            for (i, l) in lines.iter().enumerate() {
                let c = PALETTE[i % PALETTE.len()];
                let p: Vec<(f64, f64)> = l.points.iter().copied().filter(|p| p.1.is_finite() && $keep(p.1)).collect();
                let legend = move |(x, y): (i32, i32)| PathElement::new([(x, y), (x + 18, y)], style(&c));
                if l.dashed {
                    $chart.draw_series(DashedLineSeries::new(p, 6, 4, style(&c)))?.label(l.label.clone()).legend(legend);
                } else {
                    $chart.draw_series(LineSeries::new(p, style(&c)))?.label(l.label.clone()).legend(legend);
                }
            }
            $chart
                .configure_series_labels()
                .label_font((FONT, 12))
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .position(SeriesLabelPosition::UpperRight)
                .draw()?;
        }};
    }
    if log_y {
        let (lo, hi) = (y_min * 0.8, y_max * 4.0);
        let mut chart = builder.build_cartesian_2d(x_min..x_max, (lo..hi).log_scale())?;
        body!(chart, lo, hi, |y: f64| y > 0.0);
    } else {
        let lo = y_min.min(0.0);
        // Headroom above the data keeps the legend off the lines.
        let hi = if y_max > lo { y_max + 0.4 * (y_max - lo) } else { lo + 1.0 };
        let mut chart = builder.build_cartesian_2d(x_min..x_max, lo..hi)?;
        body!(chart, lo, hi, |_: f64| true);
    }
    Ok(())
}

/// Renders one chart of lines to an SVG string; None when nothing can be drawn.
fn lines_svg(title: &str, y_desc: &str, lines: Vec<Line>, bands: Option<&Bands>, log_y: bool, x_desc: &str) -> Option<String> {
    lines_svg_sized(SIZE, title, y_desc, lines, bands, log_y, x_desc)
}

/// `lines_svg` at a given size in pixels (half-width panels use 440 × 250).
pub(super) fn lines_svg_sized(
    size: (u32, u32),
    title: &str,
    y_desc: &str,
    lines: Vec<Line>,
    bands: Option<&Bands>,
    log_y: bool,
    x_desc: &str,
) -> Option<String> {
    let lines: Vec<Line> = lines.into_iter().filter(|l| l.points.iter().any(|p| p.1.is_finite())).collect();
    if lines.is_empty() {
        return None;
    }
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_lines(&area, title, y_desc, &lines, bands, log_y, x_desc).ok()?;
        area.present().ok()?;
    }
    Some(svg)
}

fn series(a: &Analysis, f: impl Fn(&credence_analyze::windows::WindowRow) -> Option<f64>) -> Vec<(f64, f64)> {
    a.timeseries.windows.iter().filter_map(|w| f(w).map(|v| (w.start_s, v))).collect()
}

/// Throughput and offered versus achieved send rate per window.
pub fn throughput(a: &Analysis, lang: Lang) -> Option<String> {
    let t = |key: &str| tr(lang, key);
    let w = a.timeseries.window_s;
    let b = bands(a);
    let mut lines =
        vec![line(t("chart.completed"), series(a, |r| Some(r.completed as f64 / w))), line(t("chart.sent"), series(a, |r| Some(r.achieved as f64 / w)))];
    let offered = series(a, |r| r.offered.map(|o| o as f64 / w));
    if !offered.is_empty() {
        lines.push(Line { label: t("chart.offered"), points: offered, dashed: true });
    }
    lines_svg(&t("chart.throughput"), &t("chart.requests_axis"), lines, Some(&b), false, &t("chart.seconds"))
}

/// P50 and P99 of one latency metric per window (log axis).
pub fn latency(a: &Analysis, metric: &str, lang: Lang) -> Option<String> {
    let b = bands(a);
    type Column = fn(&credence_analyze::windows::WindowRow) -> Option<f64>;
    let (p50, p99): (Column, Column) = match metric {
        "ttft" => (|r| r.ttft_p50_ms, |r| r.ttft_p99_ms),
        "tpot" => (|r| r.tpot_p50_ms, |r| r.tpot_p99_ms),
        _ => (|r| r.e2e_p50_ms, |r| r.e2e_p99_ms),
    };
    lines_svg(
        &tr(lang, &format!("chart.latency_{metric}")),
        "ms",
        vec![line("P50", series(a, p50)), line("P99", series(a, p99))],
        Some(&b),
        true,
        &tr(lang, "chart.seconds"),
    )
}

/// A load sweep's latency–throughput curve: TTFT and E2E P50/P99 against the achieved
/// request rate of each step (log latency axis), one point per step.
pub fn sweep(r: &crate::Report, lang: Lang) -> Option<String> {
    let sw = r.sweep.as_ref()?;
    let point = |m: &str, p: &str| -> Vec<(f64, f64)> {
        sw.steps
            .iter()
            .filter_map(|s| {
                let a = r.runs.get(s.run)?;
                Some((a.throughput.requests_per_s.estimate?, a.metrics.get(m)?.get(p)?.estimate?))
            })
            .collect()
    };
    let lines = vec![
        line("TTFT P50", point("ttft", "p50")),
        line("TTFT P99", point("ttft", "p99")),
        Line { label: "E2E P50".into(), points: point("e2e", "p50"), dashed: true },
        Line { label: "E2E P99".into(), points: point("e2e", "p99"), dashed: true },
    ];
    lines_svg(&tr(lang, "chart.sweep"), "ms", lines, None, false, &tr(lang, "chart.achieved_axis"))
}

/// Mean requests in flight per window.
pub fn concurrency(a: &Analysis, lang: Lang) -> Option<String> {
    let t = |key: &str| tr(lang, key);
    let b = bands(a);
    lines_svg(
        &t("chart.concurrency"),
        &t("chart.concurrency_axis"),
        vec![line(t("chart.concurrency_mean"), series(a, |r| Some(r.concurrency)))],
        Some(&b),
        false,
        &t("chart.seconds"),
    )
}

fn per_gpu(a: &Analysis, get: impl Fn(&credence_analyze::attribute::timeline::GpuTimeline) -> &Vec<Option<f64>>) -> Vec<Line> {
    a.telemetry.gpus.iter().map(|g| line(short_gpu(&g.label), g.t_s.iter().zip(get(g)).filter_map(|(t, v)| v.map(|v| (*t, v))).collect())).collect()
}

fn short_gpu(label: &str) -> String {
    label.split(" (").next().unwrap_or(label).to_string()
}

/// GPU panels: SM clock against its maximum, temperature, power against its limit,
/// utilization, memory.
pub fn gpu_panels(a: &Analysis, lang: Lang) -> Vec<(String, String)> {
    let t = |key: &str| tr(lang, key);
    let b = bands(a);
    let mut out = Vec::new();
    let mut clock = per_gpu(a, |g| &g.sm_clock_mhz);
    if let Some(max) = a.telemetry.gpus.iter().filter_map(|g| g.sm_clock_max_mhz).reduce(f64::max)
        && let Some(g) = a.telemetry.gpus.first()
    {
        clock.push(Line { label: t("chart.maximum"), points: vec![(0.0, max), (*g.t_s.last().unwrap_or(&0.0), max)], dashed: true });
    }
    let x = &t("chart.seconds");
    if let Some(s) = lines_svg(&t("chart.gpu_clock"), "MHz", clock, Some(&b), false, x) {
        out.push(("gpu_clock".into(), s));
    }
    let mut temp = per_gpu(a, |g| &g.temp_c);
    if let Some(sd) = a.telemetry.gpus.iter().filter_map(|g| g.slowdown_c).reduce(f64::min)
        && let Some(g) = a.telemetry.gpus.first()
    {
        temp.push(Line { label: t("chart.slowdown"), points: vec![(0.0, sd), (*g.t_s.last().unwrap_or(&0.0), sd)], dashed: true });
    }
    if let Some(s) = lines_svg(&t("chart.gpu_temperature"), "°C", temp, Some(&b), false, x) {
        out.push(("gpu_temperature".into(), s));
    }
    let mut power = per_gpu(a, |g| &g.power_w);
    if let Some(g) = a.telemetry.gpus.first() {
        power.push(Line { label: t("chart.limit"), points: g.t_s.iter().zip(&g.power_limit_w).filter_map(|(t, v)| v.map(|v| (*t, v))).collect(), dashed: true });
    }
    if let Some(s) = lines_svg(&t("chart.gpu_power"), "W", power, Some(&b), false, x) {
        out.push(("gpu_power".into(), s));
    }
    if let Some(s) = lines_svg(&t("chart.gpu_utilization"), "%", per_gpu(a, |g| &g.util_pct), Some(&b), false, x) {
        out.push(("gpu_utilization".into(), s));
    }
    let mem: Vec<Line> = per_gpu(a, |g| &g.memory_used_share)
        .into_iter()
        .map(|mut l| {
            l.points.iter_mut().for_each(|p| p.1 *= 100.0);
            l
        })
        .collect();
    if let Some(s) = lines_svg(&t("chart.gpu_memory"), &t("chart.gpu_memory_axis"), mem, Some(&b), false, x) {
        out.push(("gpu_memory".into(), s));
    }
    out
}

fn per_host(a: &Analysis, get: impl Fn(&credence_analyze::attribute::timeline::HostTimeline) -> &Vec<Option<f64>>) -> Vec<Line> {
    a.telemetry.hosts.iter().map(|h| line(h.host.clone(), h.t_s.iter().zip(get(h)).filter_map(|(t, v)| v.map(|v| (*t, v))).collect())).collect()
}

/// Client panels (load-generator CPU, send lag) and network retransmits.
pub fn client_panels(a: &Analysis, lang: Lang) -> Vec<(String, String)> {
    let t = |key: &str| tr(lang, key);
    let b = bands(a);
    let x = &t("chart.seconds");
    let mut out = Vec::new();
    let mut cpu = per_host(a, |h| &h.lg_cpu_pct);
    cpu.extend(per_host(a, |h| &h.lg_thread_pct).into_iter().map(|mut l| {
        l.label = fill(lang, "chart.hottest_thread", &[("host", &l.label)]);
        l.dashed = true;
        l
    }));
    if let Some(s) = lines_svg(&t("chart.client_cpu"), &t("chart.client_cpu_axis"), cpu, Some(&b), false, x) {
        out.push(("client_cpu".into(), s));
    }
    if let Some(s) = lines_svg(&t("chart.client_lag"), "ms", per_host(a, |h| &h.send_lag_p99_ms), Some(&b), false, x) {
        out.push(("client_send_lag".into(), s));
    }
    if let Some(s) = lines_svg(&t("chart.retransmits"), &t("chart.segments_axis"), per_host(a, |h| &h.retransmits_per_s), Some(&b), false, x) {
        out.push(("network_retransmits".into(), s));
    }
    out
}

/// Draws a distribution chart on a log or (within one decade) linear x axis.
macro_rules! with_x_axis {
    ($area:expr, $title:expr, $lo:expr, $hi:expr, $y:expr, $ylab:expr, $xlab:expr, $xlab_log:expr, |$chart:ident| $body:block) => {{
        let log = $hi / $lo >= 10.0;
        let mut b = ChartBuilder::on($area);
        b.caption($title, (FONT, 15)).margin(6).x_label_area_size(34).y_label_area_size(60);
        if log {
            let mut $chart = b.build_cartesian_2d(($lo..$hi).log_scale(), $y)?;
            $chart.configure_mesh().x_desc($xlab_log).y_desc($ylab).label_style((FONT, 11)).x_labels(5).x_label_formatter(&tick).y_label_formatter(&tick).draw()?;
            $body
        } else {
            let mut $chart = b.build_cartesian_2d($lo..$hi, $y)?;
            $chart.configure_mesh().x_desc($xlab).y_desc($ylab).label_style((FONT, 11)).x_labels(6).x_label_formatter(&tick).y_label_formatter(&tick).draw()?;
            $body
        }
    }};
}

/// What a distribution of `metric` counts, as its axes say it (count, share): ITL has one value
/// per interval between tokens, the other metrics one per request.
fn counted(metric: &str, lang: Lang) -> (String, String) {
    if metric == "itl" { (tr(lang, "chart.hist_y_itl"), tr(lang, "chart.cdf_y_itl")) } else { (tr(lang, "chart.hist_y"), tr(lang, "chart.cdf_y")) }
}

/// The latency CDF (log axis when it spans a decade), with P50, P90, P99 marked.
pub fn cdf(a: &Analysis, metric: &str, lang: Lang) -> Option<String> {
    let d = a.distributions.get(metric)?;
    let pts: Vec<(f64, f64)> = d.quantiles.iter().map(|q| (q[1], q[0] * 100.0)).filter(|p| p.0 > 0.0).collect();
    if pts.len() < 2 {
        return None;
    }
    let (lo, hi) = (pts[0].0 * 0.9, pts[pts.len() - 1].0 * 1.1);
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (440, 250)).into_drawing_area();
        let draw = || -> Result<()> {
            area.fill(&WHITE)?;
            with_x_axis!(&area, tr(lang, &format!("chart.cdf_{metric}")), lo, hi, 0.0..100.0, counted(metric, lang).1, "ms", tr(lang, "chart.ms_log"), |chart| {
                chart.draw_series(LineSeries::new(pts.clone(), ShapeStyle::from(&PALETTE[0]).stroke_width(2)))?;
                for (p, key) in [(0.5, "p50"), (0.9, "p90"), (0.99, "p99")] {
                    if let Some(v) = a.metrics.get(metric).and_then(|m| m.get(key)).and_then(|e| e.estimate).filter(|v| *v > lo && *v < hi) {
                        chart.draw_series([PathElement::new([(v, 0.0), (v, p * 100.0)], ShapeStyle::from(&PALETTE[1]).stroke_width(1))])?;
                        chart.draw_series([Text::new(key.to_uppercase(), (v, (p * 100.0 - 12.0).max(2.0)), (FONT, 11).into_font())])?;
                    }
                }
            });
            area.present()?;
            Ok(())
        };
        draw().ok()?;
    }
    Some(svg)
}

/// A histogram on log-spaced bins, with P50 and P99 marked.
pub fn histogram(a: &Analysis, metric: &str, lang: Lang) -> Option<String> {
    let d = a.distributions.get(metric)?;
    let max = *d.counts.iter().max()? as f64;
    if max <= 0.0 || d.edges.len() < 2 {
        return None;
    }
    let (lo, hi) = (d.edges[0], d.edges[d.edges.len() - 1] * 1.0001);
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (440, 250)).into_drawing_area();
        let draw = || -> Result<()> {
            area.fill(&WHITE)?;
            with_x_axis!(&area, tr(lang, &format!("chart.hist_{metric}")), lo, hi, 0.0..max * 1.15, counted(metric, lang).0, tr(lang, "chart.hist_x"), tr(lang, "chart.hist_x_log"), |chart| {
                chart.draw_series(
                    d.counts.iter().enumerate().map(|(i, c)| Rectangle::new([(d.edges[i], 0.0), (d.edges[i + 1], *c as f64)], PALETTE[0].mix(0.6).filled())),
                )?;
                for key in ["p50", "p99"] {
                    if let Some(v) = a.metrics.get(metric).and_then(|m| m.get(key)).and_then(|e| e.estimate).filter(|v| *v > lo && *v < hi) {
                        chart.draw_series([PathElement::new([(v, 0.0), (v, max * 1.05)], ShapeStyle::from(&PALETTE[1]).stroke_width(1))])?;
                        chart.draw_series([Text::new(key.to_uppercase(), (v, max * 1.1), (FONT, 11).into_font())])?;
                    }
                }
            });
            area.present()?;
            Ok(())
        };
        draw().ok()?;
    }
    Some(svg)
}

/// Forest plot: each metric's relative change with its 95 % interval against the ±τ band.
pub fn forest(c: &Comparison, lang: Lang) -> Option<String> {
    let rows: Vec<(&String, f64, f64, f64, f64)> = c
        .metrics
        .iter()
        .filter(|(k, _)| k.as_str() != "error_rate")
        .map(|(k, m)| (k, m.change.estimate * 100.0, m.change.ci_low * 100.0, m.change.ci_high * 100.0, m.tolerance * 100.0))
        .filter(|r| r.1.is_finite() && r.2.is_finite() && r.3.is_finite())
        .collect();
    if rows.is_empty() {
        return None;
    }
    let extent = rows.iter().map(|r| r.2.abs().max(r.3.abs()).max(r.4)).fold(1.0, f64::max) * 1.15;
    let n = rows.len();
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (900, 40 + 32 * n as u32 + 40)).into_drawing_area();
        let draw = || -> Result<()> {
            area.fill(&WHITE)?;
            let mut chart = ChartBuilder::on(&area)
                .caption(tr(lang, "chart.forest"), (FONT, 14))
                .margin(8)
                .x_label_area_size(34)
                .y_label_area_size(170)
                .build_cartesian_2d(-extent..extent, -0.5..(n as f64 - 0.5))?;
            let names: Vec<String> = rows.iter().map(|r| credence_messages::metric_label(r.0).render(lang)).collect();
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(n)
                .y_label_formatter(&|y| names.get(y.round() as usize).filter(|_| (y - y.round()).abs() < 1e-6).cloned().unwrap_or_default())
                .x_label_formatter(&|x| format!("{x:+.0} %"))
                .x_desc(tr(lang, "chart.change"))
                .label_style((FONT, 12))
                .draw()?;
            for (i, r) in rows.iter().enumerate() {
                let y = i as f64;
                chart.draw_series([Rectangle::new([(-r.4, y - 0.4), (r.4, y + 0.4)], SHADE.mix(0.4).filled())])?;
                chart.draw_series([PathElement::new([(r.2, y), (r.3, y)], ShapeStyle::from(&PALETTE[0]).stroke_width(3))])?;
                chart.draw_series([Circle::new((r.1, y), 5, PALETTE[1].filled())])?;
            }
            chart.draw_series([PathElement::new([(0.0, -0.5), (0.0, n as f64 - 0.5)], ShapeStyle::from(&BLACK).stroke_width(1))])?;
            area.present()?;
            Ok(())
        };
        draw().ok()?;
    }
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::tick;

    #[test]
    fn ticks_are_round_and_without_trailing_zeros() {
        assert_eq!([50.0, 2.5, 0.125, 1200.0, -0.0, 1e-12, 33.333_333].map(|v| tick(&v)), ["50", "2.5", "0.125", "1200", "0", "0", "33.333"]);
    }
}
