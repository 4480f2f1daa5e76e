//! The charts' words in Chinese. `charts.rs` draws every chart with its English title, axis
//! names and legend labels; each of those is a `chart.*` catalog entry, and this replaces the
//! whole text of each SVG `<text>` element that equals an entry's English with its Chinese.
//! Text from the run (GPU and host names) matches no entry and stays as it is. The font list
//! gains the embedded CJK font, which typst's SVG renderer falls back to for Chinese glyphs.

use super::CATALOG;

const FONT: &str = "font-family=\"DejaVu Sans Mono\"";
const FONT_ZH: &str = "font-family=\"DejaVu Sans Mono, Noto Sans CJK SC\"";

/// An SVG chart with its words in Chinese.
pub fn localize_svg(svg: &str) -> String {
    let mut out = svg.replace(FONT, FONT_ZH);
    for (_, en, zh) in CATALOG.iter().filter(|e| e.0.starts_with("chart.")) {
        // plotters writes a text element's content escaped, on a line of its own.
        out = out.replace(&format!(">\n{}\n</text>", escape(en)), &format!(">\n{}\n</text>", escape(zh)));
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_labels_are_replaced_and_run_strings_kept() {
        let svg = "<text font-family=\"DejaVu Sans Mono\">\nGPU temperature\n</text>\n<text font-family=\"DejaVu Sans Mono\">\ngpu-node-0 GPU 1\n</text>\n";
        let zh = localize_svg(svg);
        assert!(zh.contains(">\nGPU 温度\n</text>"), "{zh}");
        assert!(zh.contains(">\ngpu-node-0 GPU 1\n</text>"), "{zh}");
        assert!(!zh.contains("\"DejaVu Sans Mono\""), "{zh}");
    }
}
