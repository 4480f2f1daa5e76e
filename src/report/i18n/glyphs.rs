//! Characters the embedded fonts lack. A run's own strings (a model name, a GPU's name) can hold
//! any character, and the CJK subset holds only the common ones. Before the PDF is set, every
//! character of its content is looked up: one the embedded fonts lack is set from a system CJK
//! font when one is installed; otherwise it becomes U+FFFD (a replacement mark, which the
//! embedded fonts have) and one warning names them, so that no PDF is silently tofu.

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
    FONTS.get_or_init(|| crate::report::fonts::embedded().flat_map(Font::iter).collect())
}

fn has(fonts: &[Font], c: char) -> bool {
    fonts.iter().any(|f| f.info().coverage.contains(c as u32))
}

/// Whether an embedded font has a glyph for `c` (white space and controls need none).
pub fn covered(c: char) -> bool {
    c.is_whitespace() || c.is_control() || has(embedded(), c)
}

/// The PDF's content made printable: the system fonts to add, and the characters replaced.
pub struct Coverage {
    pub json: Vec<u8>,
    pub system_fonts: Vec<Bytes>,
    pub replaced: BTreeSet<char>,
}

/// Looks up every character of `json` (the view); adds the first of `system` that has the
/// missing ones, and replaces those still missing with U+FFFD.
pub fn cover(json: Vec<u8>, system: &[&str]) -> Coverage {
    let text = String::from_utf8_lossy(&json);
    let missing: BTreeSet<char> = text.chars().filter(|c| !covered(*c)).collect();
    if missing.is_empty() {
        return Coverage { json, system_fonts: Vec::new(), replaced: missing };
    }
    let found = system.iter().filter(|p| Path::new(p).is_file()).find_map(|p| {
        let bytes = Bytes::new(std::fs::read(p).ok()?);
        let fonts: Vec<Font> = Font::iter(bytes.clone()).collect();
        missing.iter().all(|c| has(&fonts, *c)).then_some(bytes)
    });
    if let Some(font) = found {
        return Coverage { json, system_fonts: vec![font], replaced: BTreeSet::new() };
    }
    let json = text.chars().map(|c| if missing.contains(&c) { '\u{fffd}' } else { c }).collect::<String>().into_bytes();
    Coverage { json, system_fonts: Vec::new(), replaced: missing }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogs_chinese_is_in_the_embedded_fonts() {
        for (key, _, zh) in super::super::CATALOG {
            let lacking: String = zh.chars().filter(|c| !covered(*c)).collect();
            assert!(lacking.is_empty(), "{key}: no glyph for {lacking:?}");
        }
    }

    #[test]
    fn a_character_no_font_has_becomes_a_replacement_mark() {
        let json = r#"{"title":"模型 𪚥-7B"}"#.as_bytes().to_vec();
        let c = cover(json, &[]);
        assert_eq!(String::from_utf8(c.json).unwrap(), r#"{"title":"模型 �-7B"}"#);
        assert_eq!(c.replaced.into_iter().collect::<String>(), "𪚥");
        assert!(covered('\u{fffd}'));
        let plain = cover(r#"{"title":"sim-8b 压测"}"#.as_bytes().to_vec(), &[]);
        assert!(plain.replaced.is_empty() && plain.system_fonts.is_empty());
    }
}
