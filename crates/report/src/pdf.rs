//! The PDF exporter: typst with the template compiled into the binary, the embedded fonts (a
//! system CJK font only for characters they lack, `glyphs`), the content as JSON bytes
//! and the charts as SVG bytes in `sys.inputs`. Nothing from a run is spliced into typst source.

use typst::foundations::{Bytes, Dict, IntoValue};
use typst_as_lib::TypstEngine;

use super::charts;
use super::document::Report;
use super::glyphs;
use super::i18n::Lang;
use super::telemetry_charts;
use super::view::{View, view};
use super::{Exporter, ReportError};

/// The template, compiled in (`crates/report/templates/report.typ`).
pub const TEMPLATE: &str = include_str!("../templates/report.typ");
/// The line-breaking rules both templates import (`crates/report/templates/typesetting.typ`).
pub const TYPESETTING: (&str, &str) = ("typesetting.typ", include_str!("../templates/typesetting.typ"));

pub struct Pdf;

/// The charts drawn for a report: every one as (name, SVG) in order, and the names the view
/// places as timelines and as (CDF, histogram) pairs of distributions.
type DrawnCharts = (Vec<(String, String)>, Vec<String>, Vec<[String; 2]>);

/// Every chart the report shows, by name, in order; the view lists the names it places.
fn draw_charts(r: &Report, lang: Lang) -> DrawnCharts {
    let mut all = Vec::new();
    let mut timelines = Vec::new();
    let mut distributions = Vec::new();
    // Timelines and distributions of the first run (of the candidate arm in a comparison).
    // In a sweep, of its highest step.
    let focus = r
        .comparison
        .as_ref()
        .and_then(|c| r.runs.get(c.base_runs.len()))
        .or_else(|| r.sweep.as_ref().and_then(|s| s.steps.last()).and_then(|s| r.runs.get(s.run)));
    let Some(a) = focus.or(r.runs.first()) else { return (all, timelines, distributions) };
    let mut add = |name: String, svg: Option<String>, list: &mut Vec<String>| {
        if let Some(s) = svg {
            list.push(name.clone());
            all.push((name, s));
        }
    };
    add("throughput".into(), charts::throughput(a, lang), &mut timelines);
    add("ttft".into(), charts::latency(a, "ttft", lang), &mut timelines);
    add("tpot".into(), charts::latency(a, "tpot", lang), &mut timelines);
    add("concurrency".into(), charts::concurrency(a, lang), &mut timelines);
    for (name, svg) in charts::gpu_panels(a, lang).into_iter().chain(charts::client_panels(a, lang)) {
        add(name, Some(svg), &mut timelines);
    }
    for m in ["ttft", "tpot", "itl", "e2e"] {
        let (c, h) = (charts::cdf(a, m, lang), charts::histogram(a, m, lang));
        if c.is_some() || h.is_some() {
            let (cn, hn) = (format!("{m}_cdf"), format!("{m}_histogram"));
            let mut unused = Vec::new();
            add(cn.clone(), c, &mut unused);
            add(hn.clone(), h, &mut unused);
            distributions.push([cn, hn]);
        }
    }
    if let Some(c) = &r.comparison {
        let mut unused = Vec::new();
        add("forest".into(), charts::forest(c, lang), &mut unused);
    }
    if r.sweep.is_some() {
        let mut unused = Vec::new();
        add("sweep".into(), charts::sweep(r, lang), &mut unused);
    }
    (all, timelines, distributions)
}

/// The per-GPU panels of a telemetry-only audit, each GPU's block naming its own.
fn add_telemetry_charts(r: &Report, v: &mut View, charts: &mut Vec<(String, String)>, lang: Lang) {
    let (Some(t), Some(tv)) = (&r.telemetry, v.telemetry.as_mut()) else { return };
    for (block, panels) in tv.gpus.iter_mut().zip(telemetry_charts::gpu_panels(t, lang)) {
        block.charts = panels.iter().map(|p| p.0.clone()).collect();
        charts.extend(panels);
    }
}

impl Exporter for Pdf {
    fn export(&self, r: &Report) -> Result<Vec<u8>, ReportError> {
        render(r, Lang::En)
    }
}

/// The PDF in `lang`: the view and the charts' words in that language, the numbers the same.
pub fn render(r: &Report, lang: Lang) -> Result<Vec<u8>, ReportError> {
    let (mut charts, timelines, distributions) = draw_charts(r, lang);
    let mut v = view(r, lang);
    v.timelines = timelines;
    v.distributions = distributions;
    add_telemetry_charts(r, &mut v, &mut charts, lang);
    charts.iter_mut().for_each(|(_, svg)| *svg = charts::in_language_font(svg, lang));
    let json = serde_json::to_string(&v).map_err(|e| ReportError::Render(e.to_string()))?;
    let (names, mut texts): (Vec<String>, Vec<String>) = charts.into_iter().unzip();
    texts.push(json);
    let covered = glyphs::cover(&mut texts, &glyphs::SYSTEM_CJK_FONTS);
    if !covered.replaced.is_empty() {
        let chars: String = covered.replaced.iter().collect();
        let shown: Vec<String> = covered.replaced.iter().map(|c| glyphs::code_point(*c)).collect();
        eprintln!("warning: no embedded or system font has {chars:?}; the PDF shows their code points ({}) in their place", shown.join(", "));
    }
    let json = texts.pop().unwrap_or_default();
    let mut chart_dict = Dict::new();
    for (name, svg) in names.into_iter().zip(texts) {
        chart_dict.insert(name.into(), Bytes::new(svg.into_bytes()).into_value());
    }
    let mut inputs = Dict::new();
    inputs.insert("view".into(), Bytes::new(json).into_value());
    inputs.insert("charts".into(), chart_dict.into_value());
    let engine = TypstEngine::builder().main_file(TEMPLATE).with_static_source_file_resolver([TYPESETTING]).fonts(super::fonts::embedded().chain(covered.system_fonts)).build();
    let compiled = engine.compile_with_input(inputs);
    let warnings: Vec<String> = compiled.warnings.iter().map(|w| w.message.to_string()).collect();
    let doc: typst_layout::PagedDocument = compiled.output.map_err(|e| ReportError::Render(typst_error(&e)))?;
    if !warnings.is_empty() && std::env::var_os("CREDENCE_TYPST_WARNINGS").is_some() {
        eprintln!("typst warnings: {}", warnings.join("; "));
    }
    typst_pdf::pdf(&doc, &typst_pdf::PdfOptions::default())
        .map_err(|e| ReportError::Render(e.iter().map(|d| d.message.to_string()).collect::<Vec<_>>().join("; ")))
}

/// typst's source errors print as a debug dump: show their messages and hints instead.
pub(super) fn typst_error(e: &typst_as_lib::TypstAsLibError) -> String {
    match e {
        typst_as_lib::TypstAsLibError::TypstSource(diags) => diags
            .iter()
            .map(|d| format!("{}{}", d.message, d.hints.iter().map(|h| format!(" (hint: {})", h.v)).collect::<String>()))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}
