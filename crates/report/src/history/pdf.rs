//! The history as a PDF: one trend chart per metric, then the tables of the Markdown version.
//! The template (`crates/report/templates/history.typ`) gets pre-formatted strings as JSON and the
//! charts as SVG bytes in `sys.inputs`; nothing from a run is spliced into typst source.

use serde::Serialize;
use typst::foundations::{Bytes, Dict, IntoValue};
use typst_as_lib::TypstEngine;

use crate::ReportError;
use std::collections::BTreeMap;

use super::chart::trend;
use super::{Words, change_text, drift_direction, mann_kendall_p, run_header, run_row, shown, slope_text, value_text, verdict_text};
use credence_analyze::history::History;
use credence_analyze::history::detect::DriftVerdict;
use credence_messages::{Lang, Message};

/// The template, compiled in.
pub const TEMPLATE: &str = include_str!("../../templates/history.typ");

/// Most runs listed in the PDF's table (the newest); the JSON has them all.
const MAX_RUN_ROWS: usize = 60;

/// What the template shows, every value already a string in the history's language.
#[derive(Debug, Serialize)]
struct HistoryView {
    lang: &'static str,
    /// Headings, column names and fixed sentences, by message id.
    words: BTreeMap<&'static str, String>,
    title: String,
    subtitle: String,
    method: String,
    newest: String,
    regression: bool,
    charts: Vec<String>,
    /// Eight cells, then the verdict's key (`regression`) for its colour.
    change_points: Vec<[String; 9]>,
    drift: Vec<[String; 6]>,
    breaks: Vec<[String; 4]>,
    /// No significant drift, and why some series were not tested.
    no_drift: String,
    runs_note: String,
    runs: Vec<Vec<String>>,
    run_header: Vec<String>,
    footer: String,
}

/// The template's fixed words.
const WORDS: &[&str] = &[
    "history-h-trends",
    "history-h-change-points",
    "history-h-drift",
    "history-h-breaks",
    "history-h-runs",
    "history-no-change-points",
    "history-breaks-note",
    "history-col-metric",
    "history-col-from-run",
    "history-col-before",
    "history-col-after",
    "history-col-change",
    "history-col-tolerance",
    "history-col-verdict",
    "history-col-p",
    "history-col-configuration",
    "history-col-runs",
    "history-col-slope",
    "history-col-direction",
    "history-col-p-mk",
    "history-col-from",
    "history-col-to",
    "history-col-fingerprint",
];

fn view(h: &History, charts: Vec<String>, w: &Words) -> HistoryView {
    let cp = &h.methods.change_points;
    let skipped = h.runs.len().saturating_sub(MAX_RUN_ROWS);
    let method = Message::new("history-method")
        .text("significance", cp.significance_level.to_string())
        .int("permutations", cp.permutations)
        .int("seed", cp.seed)
        .int("min_runs", cp.min_segment_runs)
        .int("resamples", h.methods.change_size.resamples);
    let runs_note = Message::new("history-runs-note").int("shown", MAX_RUN_ROWS).int("older", skipped);
    HistoryView {
        lang: w.0.code(),
        words: WORDS.iter().map(|id| (*id, w.w(id))).collect(),
        title: w.w("history-title"),
        subtitle: w.say(&Message::new("history-subtitle").int("runs", h.runs.len()).int("configs", h.configurations.len())),
        method: w.say(&method),
        regression: h.newest.as_ref().is_some_and(|n| !n.regressions.is_empty() || !n.drifts.is_empty()),
        // The headline: the verdict that sets the exit code, first on the page.
        newest: w.say(&h.headline_message),
        charts,
        change_points: change_point_rows(h, w),
        drift: drift_rows(h, w),
        breaks: h.breaks.iter().map(|b| [format!("{} (#{})", b.run_id, b.index), b.from.clone(), b.to.clone(), b.to_fingerprint.clone()]).collect(),
        no_drift: w.say(&Message::new("history-no-drift").int("few", h.drift.iter().filter(|d| d.verdict == DriftVerdict::TooFewRuns).count())),
        runs_note: if skipped > 0 { w.say(&runs_note) } else { String::new() },
        runs: h.runs[skipped..].iter().map(|r| run_row(h, r, w)).collect(),
        run_header: run_header(h, w, "history-col-config"),
        footer: w.say(&Message::new("history-footer").text("version", h.credence_version.clone())),
    }
}

fn change_point_rows(h: &History, w: &Words) -> Vec<[String; 9]> {
    h.change_points
        .iter()
        .map(|c| {
            [
                c.metric.to_string(),
                format!("{} (#{})", c.run_id, c.index),
                value_text(c.metric, c.before.estimate),
                value_text(c.metric, c.after.estimate),
                change_text(c, w),
                format!("±{:.1} %", c.tolerance * 100.0),
                verdict_text(c.verdict, w),
                format!("{:.3}", c.p_value),
                format!("{:?}", c.verdict).to_lowercase(),
            ]
        })
        .collect()
}

fn drift_rows(h: &History, w: &Words) -> Vec<[String; 6]> {
    shown(&h.drift)
        .into_iter()
        .map(|d| [d.metric.to_string(), d.fingerprint.clone(), d.runs.to_string(), slope_text(d, w), drift_direction(d, w), mann_kendall_p(d, w)])
        .collect()
}

/// The history as one HTML file: the same view as the PDF (without its chart images) and the
/// history itself, from which the page draws the trends and their change points.
pub fn html(h: &History, lang: Lang) -> Result<Vec<u8>, ReportError> {
    #[derive(Serialize)]
    struct PageData<'a> {
        kind: &'static str,
        words: BTreeMap<String, String>,
        view: HistoryView,
        history: &'a History,
    }
    let w = Words(lang);
    let names = h.metrics.iter().map(|m| m.to_string()).collect();
    let mut words = crate::html::page_words(lang, &["html"]);
    // The trend charts' caption and axis, as the PDF's images say them.
    words.extend(
        crate::html::page_words(lang, &["history"]).into_iter().filter_map(|(k, v)| k.starts_with("history.chart-").then(|| (k.replacen('.', "-", 1), v))),
    );
    let data = PageData { kind: "history", words, view: view(h, names, &w), history: h };
    crate::html::page(lang, &data.view.title, &data)
}

/// Renders the history as PDF bytes.
pub fn pdf(h: &History, lang: Lang) -> Result<Vec<u8>, ReportError> {
    let w = Words(lang);
    let mut chart_dict = Dict::new();
    let mut names = Vec::new();
    for &m in &h.metrics {
        if let Some(svg) = trend(h, m, lang) {
            names.push(m.to_string());
            chart_dict.insert(m.name().into(), Bytes::new(svg.into_bytes()).into_value());
        }
    }
    let json = serde_json::to_vec(&view(h, names, &w)).map_err(|e| ReportError::Render(e.to_string()))?;
    let mut inputs = Dict::new();
    inputs.insert("view".into(), Bytes::new(json).into_value());
    inputs.insert("charts".into(), chart_dict.into_value());
    let engine = TypstEngine::builder().main_file(TEMPLATE).with_static_source_file_resolver([crate::pdf::TYPESETTING]).fonts(crate::fonts::embedded()).build();
    let compiled = engine.compile_with_input(inputs);
    let doc: typst_layout::PagedDocument = compiled.output.map_err(|e| ReportError::Render(crate::pdf::typst_error(&e)))?;
    typst_pdf::pdf(&doc, &typst_pdf::PdfOptions::default())
        .map_err(|e| ReportError::Render(e.iter().map(|d| d.message.to_string()).collect::<Vec<_>>().join("; ")))
}
