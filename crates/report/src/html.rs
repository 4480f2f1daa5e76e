//! The HTML exporter: one self-contained file that opens from disk with no network request.
//! It carries the same `View` as the PDF (the same sentences from the message catalog, the
//! same formatted numbers) and the `Report` value itself, from which the page's script draws
//! the explorable charts with the vendored uPlot. Nothing from the run is spliced into markup:
//! both go in as one JSON document inside a `<script type="application/json">`, and the page
//! builds its DOM with `textContent`.

use std::collections::BTreeMap;

use serde::Serialize;

use super::document::Report;
use super::i18n::Lang;
use super::view::{View, view};
use super::{Exporter, ReportError};

const TEMPLATE: &str = include_str!("../html/report.html");
const STYLE: &str = include_str!("../html/report.css");
const UPLOT_CSS: &str = include_str!("../html/uPlot.min.css");
const UPLOT_JS: &str = include_str!("../html/uPlot.iife.min.js");
const UPLOT_LICENSE: &str = include_str!("../html/LICENSE-uPlot");
const SCRIPT: &str = include_str!("../html/report.js");

pub struct Html;

impl Exporter for Html {
    fn export(&self, r: &Report) -> Result<Vec<u8>, ReportError> {
        render(r, Lang::En)
    }
}

/// What the page's script reads: the display strings and the values behind the charts.
#[derive(Serialize)]
struct PageData<'a> {
    kind: &'static str,
    /// The page's own words (`html.*` controls, `chart.*` titles and axes) in its language.
    words: BTreeMap<String, String>,
    view: View,
    report: &'a Report,
}

/// The report as one HTML file in `lang`.
pub fn render(r: &Report, lang: Lang) -> Result<Vec<u8>, ReportError> {
    let data = PageData { kind: "report", words: page_words(lang, &["html", "chart"]), view: view(r, lang), report: r };
    page(lang, &data.view.title, &data)
}

/// The catalog's words of `groups` (`html` → `html.reset`), their arguments kept as `{name}`
/// for the page to fill in.
pub(crate) fn page_words(lang: Lang, groups: &[&str]) -> BTreeMap<String, String> {
    groups.iter().flat_map(|g| crate::i18n::words(g, lang)).collect()
}

/// The page around `data` (a JSON value with a `kind` the script dispatches on).
pub(crate) fn page(lang: Lang, title: &str, data: &impl Serialize) -> Result<Vec<u8>, ReportError> {
    let json = serde_json::to_string(data).map_err(|e| ReportError::Render(e.to_string()))?;
    let style = format!("{UPLOT_CSS}\n{STYLE}{}", embedded_font(lang, &json));
    let fill = |name: &str| -> Option<String> {
        Some(match name {
            "lang" => lang_tag(lang).to_string(),
            "title" => escape_text(title),
            "style" => style.clone(),
            "uplot" => UPLOT_JS.to_string(),
            "uplot_license" => UPLOT_LICENSE.to_string(),
            "script" => SCRIPT.to_string(),
            "data" => script_safe(&json),
            _ => return None,
        })
    };
    fill_template(TEMPLATE, fill).map(String::into_bytes)
}

/// A Chinese page carries its CJK font as data, so that no hanzi is tofu on a machine without
/// one: `--font` names it after the system CJK fonts, which win where they are installed.
fn embedded_font(lang: Lang, text: &str) -> String {
    use base64::Engine;
    match lang {
        Lang::En => String::new(),
        Lang::Zh => {
            let data = base64::engine::general_purpose::STANDARD.encode(crate::fonts::cjk_for_page(text));
            format!("\n@font-face {{ font-family: \"{EMBEDDED_FONT}\"; src: url(data:font/otf;base64,{data}) format(\"opentype\"); }}\n")
        }
    }
}

/// The family name the embedded font goes by (report.css lists it in `--font`).
const EMBEDDED_FONT: &str = "credence CJK";

/// Replaces each `{{name}}` of the template in one pass, so nothing inserted (a model name in
/// the data, say) is read again as a placeholder.
fn fill_template(template: &str, fill: impl Fn(&str) -> Option<String>) -> Result<String, ReportError> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        let close = rest[open..].find("}}").ok_or_else(|| ReportError::Render("the HTML template has an unclosed {{".into()))? + open;
        let name = &rest[open + 2..close];
        out.push_str(&rest[..open]);
        out.push_str(&fill(name).ok_or_else(|| ReportError::Render(format!("the HTML template names an unknown part {{{{{name}}}}}")))?);
        rest = &rest[close + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

fn lang_tag(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "en",
        Lang::Zh => "zh-Hans",
    }
}

/// Text for an HTML element's content.
fn escape_text(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// JSON inside `<script>`: `<` written as `\u003c`, so no string in it can close the element
/// or open a comment, whatever a model name or an error message holds.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_cannot_close_its_script_element() {
        let s = script_safe(r#"{"model":"</script><script>alert(1)</script>"}"#);
        assert!(!s.contains("</script"), "{s}");
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["model"], "</script><script>alert(1)</script>");
    }
}
