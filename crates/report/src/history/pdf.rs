//! The history as a PDF: one trend chart per metric, then the tables of the Markdown version.
//! The template (`crates/report/templates/history.typ`) gets pre-formatted strings as JSON and the
//! charts as SVG bytes in `sys.inputs`; nothing from a run is spliced into typst source.

use serde::Serialize;
use typst::foundations::{Bytes, Dict, IntoValue};
use typst_as_lib::TypstEngine;

use crate::ReportError;
use super::{change_text, drift_direction, run_row, slope_text, value_text, verdict_text};
use super::chart::trend;
use credence_analyze::history::History;
use credence_analyze::history::detect::DriftVerdict;

/// The template, compiled in.
pub const TEMPLATE: &str = include_str!("../../templates/history.typ");

/// Most runs listed in the PDF's table (the newest); the JSON has them all.
const MAX_RUN_ROWS: usize = 60;

/// What the template shows, every value already a string.
#[derive(Debug, Serialize)]
struct HistoryView {
    title: String,
    subtitle: String,
    method: String,
    newest: String,
    regression: bool,
    charts: Vec<String>,
    change_points: Vec<[String; 8]>,
    drift: Vec<[String; 6]>,
    breaks: Vec<[String; 4]>,
    runs_note: String,
    runs: Vec<Vec<String>>,
    run_header: Vec<String>,
    footer: String,
}

fn view(h: &History, charts: Vec<String>) -> HistoryView {
    let cp = &h.methods.change_points;
    // The headline: the verdict that sets the exit code, first on the page.
    let newest = h.headline.clone();
    let skipped = h.runs.len().saturating_sub(MAX_RUN_ROWS);
    let mut run_header = vec!["#".to_string(), "run".into(), "start".into(), "config".into(), "grade".into()];
    run_header.extend(h.metrics.iter().map(|m| m.to_string()));
    HistoryView {
        title: "credence history".into(),
        subtitle: format!("{} runs, {} configuration(s)", h.runs.len(), h.configurations.len()),
        method: format!(
            "Change points: E-divisive means with a permutation test (significance level {}, {} permutations, seed {}, at least {} runs per segment), searched on the log of each run's estimate. Size: hierarchical bootstrap of the segments' runs ({} resamples, 95 %). Drift: Mann–Kendall (Hamed–Rao) and Sen's slope, worse or better only beyond the runs' noise. A run enters a metric's series when its estimate has an interval, whatever its grade; LOW runs are grey (and marked ⚠ in the table); estimates without an interval (hollow, † in the table) define no change point. Shaded: a configuration after a break.",
            cp.significance_level, cp.permutations, cp.seed, cp.min_segment_runs, h.methods.change_size.resamples
        ),
        regression: h.newest.as_ref().is_some_and(|n| !n.regressions.is_empty() || !n.drifts.is_empty()),
        newest,
        charts,
        change_points: change_point_rows(h),
        drift: drift_rows(h),
        breaks: h.breaks.iter().map(|b| [format!("{} (#{})", b.run_id, b.index), b.from.clone(), b.to.clone(), b.to_fingerprint.clone()]).collect(),
        runs_note: if skipped > 0 { format!("The newest {MAX_RUN_ROWS} runs; {skipped} older runs are in the JSON.") } else { String::new() },
        runs: run_rows(h, skipped),
        run_header,
        footer: format!("credence {} · history", h.credence_version),
    }
}

fn change_point_rows(h: &History) -> Vec<[String; 8]> {
    h.change_points
        .iter()
        .map(|c| {
            [
                c.metric.to_string(),
                format!("{} (#{})", c.run_id, c.index),
                value_text(c.metric, c.before.estimate),
                value_text(c.metric, c.after.estimate),
                change_text(c),
                format!("±{:.1} %", c.tolerance * 100.0),
                verdict_text(c.verdict).into(),
                format!("{:.3}", c.p_value),
            ]
        })
        .collect()
}

fn drift_rows(h: &History) -> Vec<[String; 6]> {
    h.drift
        .iter()
        .filter(|d| matches!(d.verdict, DriftVerdict::Drift | DriftVerdict::WithinNoise))
        .map(|d| {
            [
                d.metric.to_string(),
                d.fingerprint.clone(),
                d.runs.to_string(),
                slope_text(d),
                drift_direction(d).into(),
                d.mann_kendall.map_or("n/a".into(), |mk| format!("{:.2e}", mk.p)),
            ]
        })
        .collect()
}

/// The runs from position `skipped` on, one row each.
fn run_rows(h: &History, skipped: usize) -> Vec<Vec<String>> {
    h.runs[skipped..].iter().map(|r| run_row(h, r)).collect()
}

/// Renders the history as PDF bytes.
pub fn pdf(h: &History) -> Result<Vec<u8>, ReportError> {
    let mut chart_dict = Dict::new();
    let mut names = Vec::new();
    for &m in &h.metrics {
        if let Some(svg) = trend(h, m) {
            names.push(m.to_string());
            chart_dict.insert(m.name().into(), Bytes::new(svg.into_bytes()).into_value());
        }
    }
    let json = serde_json::to_vec(&view(h, names)).map_err(|e| ReportError::Render(e.to_string()))?;
    let mut inputs = Dict::new();
    inputs.insert("view".into(), Bytes::new(json).into_value());
    inputs.insert("charts".into(), chart_dict.into_value());
    let engine = TypstEngine::builder().main_file(TEMPLATE).fonts(crate::fonts::embedded()).build();
    let compiled = engine.compile_with_input(inputs);
    let doc: typst_layout::PagedDocument = compiled.output.map_err(|e| ReportError::Render(crate::pdf::typst_error(&e)))?;
    typst_pdf::pdf(&doc, &typst_pdf::PdfOptions::default())
        .map_err(|e| ReportError::Render(e.iter().map(|d| d.message.to_string()).collect::<Vec<_>>().join("; ")))
}
