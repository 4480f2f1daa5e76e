//! The trend chart of one metric across a history, as SVG: each run's estimate with its
//! interval (LOW runs grey, estimates without an interval hollow), the segment levels between change points, the change
//! points as dashed red lines, and each configuration after a break shaded. Reads only the
//! `History`.

use plotters::prelude::*;

use credence_analyze::history::{History, HistoryMetric};
use credence_messages::{Lang, Message};

const SIZE: (u32, u32) = (900, 260);
const RUN: RGBColor = RGBColor(31, 119, 180);
const LOW: RGBColor = RGBColor(150, 150, 150);
const CHANGE: RGBColor = RGBColor(214, 39, 40);
const LEVEL: RGBColor = RGBColor(255, 127, 14);
const BREAK: RGBColor = RGBColor(200, 200, 200);

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// One run's point: index, estimate, interval, whether graded LOW, whether it has an interval.
struct Point {
    x: f64,
    y: f64,
    lo: f64,
    hi: f64,
    low: bool,
    in_series: bool,
}

fn points(h: &History, m: HistoryMetric, scale: f64) -> Vec<Point> {
    h.runs
        .iter()
        .filter_map(|r| {
            let v = r.values.get(&m)?;
            let y = v.estimate * scale;
            let (lo, hi) = (v.ci_low.map_or(y, |l| l * scale), v.ci_high.map_or(y, |u| u * scale));
            Some(Point { x: r.index as f64, y, lo, hi, low: r.grade == "LOW", in_series: v.has_interval() })
        })
        .collect()
}

/// Spans of the series after each configuration break, alternately shaded.
fn shaded_spans(h: &History) -> Vec<(f64, f64)> {
    let mut starts: Vec<f64> = h.breaks.iter().map(|b| b.index as f64 - 0.5).collect();
    starts.push(h.runs.len() as f64 - 0.5);
    starts.windows(2).step_by(2).map(|w| (w[0], w[1])).collect()
}

/// Segment levels of `m`: (first index, last index, level) before and after each change point.
fn levels(h: &History, m: HistoryMetric, scale: f64) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::new();
    for c in h.change_points.iter().filter(|c| c.metric == m) {
        for s in [&c.before, &c.after] {
            let seg = (s.first_index as f64, s.last_index as f64, s.estimate * scale);
            if !out.contains(&seg) {
                out.push(seg);
            }
        }
    }
    out
}

/// The trend chart of `m`; None when no run has the metric.
pub fn trend(h: &History, m: HistoryMetric, lang: Lang) -> Option<String> {
    let scale = if m == HistoryMetric::ErrorRate { 100.0 } else { 1.0 };
    let pts = points(h, m, scale);
    if pts.is_empty() {
        return None;
    }
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        draw(&area, h, m, &pts, scale, lang).ok()?;
        area.present().ok()?;
    }
    Some(svg)
}

/// A run's position on the x axis: whole numbers only (a tick between two runs names none).
fn run_position(x: &f64) -> String {
    if *x >= 0.0 && (x - x.round()).abs() < 1e-9 { format!("{}", x.round() as i64) } else { String::new() }
}

fn draw(area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>, h: &History, m: HistoryMetric, pts: &[Point], scale: f64, lang: Lang) -> Result<()> {
    let font = crate::charts::font_family(lang);
    let caption = Message::new("history-chart-caption").msg("metric", credence_messages::metric_label(m.name()));
    area.fill(&WHITE)?;
    let y_lo = pts.iter().map(|p| p.lo).fold(f64::INFINITY, f64::min);
    let y_hi = pts.iter().map(|p| p.hi).fold(f64::NEG_INFINITY, f64::max);
    let pad = ((y_hi - y_lo) * 0.08).max(y_hi.abs() * 0.01).max(1e-9);
    let (lo, hi) = (y_lo - pad, y_hi + pad);
    let x_max = (h.runs.len() as f64 - 0.5).max(0.5);
    let unit = if m == HistoryMetric::ErrorRate { "%" } else { m.unit() };
    let mut chart = ChartBuilder::on(area)
        .caption(caption.render(lang), (font, 15))
        .margin(6)
        .x_label_area_size(34)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5..x_max, lo..hi)?;
    chart.configure_mesh().x_desc(Message::new("history-chart-x").render(lang)).y_desc(unit).label_style((font, 12)).y_labels(6).x_labels(h.runs.len().clamp(2, 12) + 1).x_label_formatter(&run_position).y_label_formatter(&crate::charts::tick).draw()?;
    chart.draw_series(shaded_spans(h).into_iter().map(|(a, z)| Rectangle::new([(a, lo), (z, hi)], BREAK.mix(0.35).filled())))?;
    for (a, z, level) in levels(h, m, scale) {
        chart.draw_series([PathElement::new([(a - 0.4, level), (z + 0.4, level)], ShapeStyle::from(&LEVEL).stroke_width(2))])?;
    }
    for c in h.change_points.iter().filter(|c| c.metric == m) {
        let x = c.index as f64 - 0.5;
        chart.draw_series(DashedLineSeries::new([(x, lo), (x, hi)], 5, 4, ShapeStyle::from(&CHANGE).stroke_width(2)))?;
    }
    for p in pts {
        let color = if p.low { LOW } else { RUN };
        chart.draw_series([PathElement::new([(p.x, p.lo), (p.x, p.hi)], ShapeStyle::from(&color).stroke_width(1))])?;
        let dot = if p.in_series { color.filled() } else { ShapeStyle::from(&color).stroke_width(1) };
        chart.draw_series([Circle::new((p.x, p.y), 3, dot)])?;
    }
    Ok(())
}
