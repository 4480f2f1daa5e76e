//! Characters the embedded fonts lack. A run's own strings (a model name, a GPU's name) can hold
//! any character, and the CJK subset holds only the common ones. Before the PDF is set, every
//! character of its content is looked up: one the embedded fonts lack is set from a system CJK
//! font when one is installed; otherwise it becomes its code point in brackets (`[U+9F98]`,
//! ASCII, which every embedded font has) and one warning names them, so that no PDF is
//! silently tofu and a reader can still tell which character it was (a bare U+FFFD cannot).

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use typst::foundations::Bytes;
use typst::text::Font;

/// Where Linux, macOS and Windows keep a CJK font; the first that covers the text is used.
pub const SYSTEM_CJK_FONTS: [&str; 7] = [
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:\\Windows\\Fonts\\msyh.ttc",
];

fn embedded() -> &'static [Font] {
    static FONTS: OnceLock<Vec<Font>> = OnceLock::new();
    FONTS.get_or_init(|| crate::fonts::embedded().flat_map(Font::iter).collect())
}

fn has(fonts: &[Font], c: char) -> bool {
    fonts.iter().any(|f| f.info().coverage.contains(c as u32))
}

/// Whether an embedded font has a glyph for `c` (white space and controls need none).
pub fn covered(c: char) -> bool {
    c.is_whitespace() || c.is_control() || has(embedded(), c)
}

/// What was done to make the PDF's text printable: the system fonts to add, and the
/// characters replaced.
pub struct Coverage {
    pub system_fonts: Vec<Bytes>,
    pub replaced: BTreeSet<char>,
}

/// Looks up every character of `texts` (the view's JSON and the charts' SVG, whose legends
/// carry GPU names); adds the first of `system` that has the missing ones, and replaces those
/// still missing with their code points in place.
pub fn cover(texts: &mut [String], system: &[&str]) -> Coverage {
    let missing: BTreeSet<char> = texts.iter().flat_map(|t| t.chars()).filter(|c| !covered(*c)).collect();
    if missing.is_empty() {
        return Coverage { system_fonts: Vec::new(), replaced: missing };
    }
    let found = system.iter().filter(|p| Path::new(p).is_file()).find_map(|p| {
        let bytes = Bytes::new(std::fs::read(p).ok()?);
        let fonts: Vec<Font> = Font::iter(bytes.clone()).collect();
        missing.iter().all(|c| has(&fonts, *c)).then_some(bytes)
    });
    if let Some(font) = found {
        return Coverage { system_fonts: vec![font], replaced: BTreeSet::new() };
    }
    for text in texts.iter_mut() {
        if text.chars().any(|c| missing.contains(&c)) {
            *text = text.chars().map(|c| if missing.contains(&c) { code_point(c) } else { c.to_string() }).collect();
        }
    }
    Coverage { system_fonts: Vec::new(), replaced: missing }
}

/// What stands for a character no font has: `[U+2A6A5]`.
pub fn code_point(c: char) -> String {
    format!("[U+{:04X}]", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogs_chinese_is_in_the_embedded_fonts() {
        for (file, text) in credence_messages::CATALOGS.iter().filter(|c| c.0 == "zh").flat_map(|c| c.1.iter()) {
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let lacking: String = line.chars().filter(|c| !covered(*c)).collect();
                assert!(lacking.is_empty(), "locales/zh/{file}: no glyph for {lacking:?} in {line}");
            }
        }
    }

    #[test]
    fn a_character_no_font_has_becomes_its_code_point() {
        let mut texts = [r#"{"title":"模型 𪚥-7B"}"#.to_string(), "<text>GPU 𪚥</text>".to_string()];
        let c = cover(&mut texts, &[]);
        assert_eq!(texts[0], r#"{"title":"模型 [U+2A6A5]-7B"}"#);
        assert_eq!(texts[1], "<text>GPU [U+2A6A5]</text>");
        assert_eq!(c.replaced.into_iter().collect::<String>(), "𪚥");
        // Domestic hardware names are in GB 2312: no fallback at all.
        let title = cover(&mut [r#"{"title":"昇腾 910B 推理压测（鲲鹏服务器）"}"#.to_string()], &[]);
        assert!(title.replaced.is_empty() && title.system_fonts.is_empty());
        let plain = cover(&mut [r#"{"title":"sim-8b 压测"}"#.to_string()], &[]);
        assert!(plain.replaced.is_empty() && plain.system_fonts.is_empty());
    }
}
