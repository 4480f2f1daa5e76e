//! Renderers: they read only the `Analysis` (or the `Report` built from analyses and a
//! comparison) and return bytes or text, so every number they show traces to a JSON field.
//!
//! `Exporter` is the one interface of the report formats (PDF, Markdown, JSON).

pub mod capacity_view;
pub mod charts;
pub mod compare_summary;
pub mod comparison_view;
pub mod comparison_words;
pub mod conditions_view;
pub mod document;
pub mod fonts;
pub mod format;
pub mod glyphs;
pub mod history;
pub mod html;
pub mod i18n;
pub mod markdown;
pub mod pdf;
pub mod plan_summary;
pub mod run_view;
pub mod slo_view;
pub mod summary;
pub mod telemetry_charts;
pub mod telemetry_view;
pub mod terminal;
pub mod view;
pub mod workload_view;

pub use document::Report;

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("rendering the report failed: {0}")]
    Render(String),
}

/// One output format of `credence report`.
pub trait Exporter {
    fn export(&self, report: &Report) -> Result<Vec<u8>, ReportError>;
}

/// `--format json`: the `Analysis` itself for one run; the whole report value otherwise
/// (several runs, a comparison, an audit).
pub struct Json;

impl Exporter for Json {
    fn export(&self, r: &Report) -> Result<Vec<u8>, ReportError> {
        let text =
            if r.kind == "run" && r.runs.len() == 1 && r.audit.is_none() { serde_json::to_string_pretty(&r.runs[0]) } else { serde_json::to_string_pretty(r) };
        text.map(|t| (t + "\n").into_bytes()).map_err(|e| ReportError::Render(e.to_string()))
    }
}
