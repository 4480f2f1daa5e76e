//! The fonts the PDF templates and the charts name, embedded in the binary: Libertinus Serif
//! for prose and chart labels (regular and bold) and DejaVu Sans Mono for identifiers and
//! symbols. typst-assets' full set also carries New Computer Modern and its math fonts, which
//! no template uses: 7.9 MB of the binary for nothing. Noto Sans CJK SC Regular and Bold, each
//! cut to ASCII, GB 2312, the Table of General Standard Chinese Characters and the catalogs'
//! characters (`assets/fonts/make_cjk_subset.sh`, about 2 MB a weight), set Chinese reports (`--lang zh`),
//! Latin included (sans beside sans): a user's title in common hanzi stays in the embedded
//! face, bold included. No template sets text in italics, so Libertinus' italic faces are
//! left out (0.6 MB).
//! Licences: `assets/fonts/NOTICE`.

use typst::foundations::Bytes;

const FONTS: [&[u8]; 6] = [
    include_bytes!("../../../assets/fonts/LibertinusSerif-Regular.otf"),
    include_bytes!("../../../assets/fonts/LibertinusSerif-Bold.otf"),
    include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf"),
    include_bytes!("../../../assets/fonts/DejaVuSansMono-Bold.ttf"),
    include_bytes!("../../../assets/fonts/NotoSansCJKsc-Subset.otf"),
    include_bytes!("../../../assets/fonts/NotoSansCJKsc-Bold-Subset.otf"),
];

/// The CJK font alone, for checking which characters it covers.
pub fn cjk() -> Bytes {
    Bytes::new(FONTS[4])
}

/// The Regular CJK weight cut to the catalogs' characters alone (130 KB): what a Chinese HTML
/// page embeds when its text needs no other.
const CJK_CATALOG: &[u8] = include_bytes!("../../../assets/fonts/NotoSansCJKsc-Catalog.otf");

/// The CJK font a Chinese HTML page embeds for `text`: the catalog's characters when they
/// cover every hanzi and CJK punctuation mark of `text` that the full subset has, else the
/// full Regular subset (Latin letters and symbols come from the system's fonts).
pub fn cjk_for_page(text: &str) -> &'static [u8] {
    use typst::text::Font;
    let (Some(catalog), Some(full)) = (Font::new(Bytes::new(CJK_CATALOG), 0), Font::new(Bytes::new(FONTS[4]), 0)) else { return FONTS[4] };
    let cjk = |c: &char| matches!(*c as u32, 0x3000..=0x303F | 0x3400..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF);
    let has = |font: &Font, c: char| font.info().coverage.contains(c as u32);
    if text.chars().filter(cjk).any(|c| !has(&catalog, c) && has(&full, c)) { FONTS[4] } else { CJK_CATALOG }
}

/// Every embedded font, for a typst engine.
pub fn embedded() -> impl Iterator<Item = Bytes> {
    FONTS.into_iter().map(Bytes::new)
}

#[cfg(test)]
mod tests {
    use super::FONTS;
    use typst::foundations::Bytes;
    use typst::text::Font;

    /// Every character the Chinese catalogs and the templates use, in both CJK weights: a
    /// heading or a headline in a character a subset lacks would fall back to another weight
    /// or to a replacement mark. When this fails, run `assets/fonts/make_cjk_subset.sh`.
    /// Every character of GB 2312 and of the Table of General Standard Chinese Characters
    /// (listed in `assets/fonts/common-hanzi.txt` by the script that cuts the fonts), in both
    /// weights: what users type in titles and labels (昇腾, 鲲鹏) is set in the embedded face,
    /// bold as bold.
    #[test]
    fn both_cjk_weights_cover_the_common_hanzi() {
        let listed = include_str!("../../../assets/fonts/common-hanzi.txt");
        assert!(listed.chars().filter(|c| matches!(*c as u32, 0x3400..=0x9FFF | 0x20000..=0x3FFFF)).count() >= 8230);
        for (name, bytes) in [("regular", FONTS[4]), ("bold", FONTS[5])] {
            let font = Font::new(Bytes::new(bytes), 0).unwrap();
            let missing: String = listed.chars().filter(|c| !c.is_whitespace() && !font.info().coverage.contains(*c as u32)).collect();
            assert!(missing.is_empty(), "the {name} CJK subset lacks {missing:?}");
        }
    }

    #[test]
    fn both_cjk_weights_and_the_pages_font_cover_every_catalog_character() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let mut text = String::new();
        for dir in ["locales/zh", "crates/report/templates"] {
            // The catalogs and templates only: GLOSSARY.md's rejected variants are never set.
            for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap().flatten().filter(|e| e.path().extension().is_none_or(|x| x != "md")) {
                text += &std::fs::read_to_string(entry.path()).unwrap_or_default();
            }
        }
        // The HTML page's small font too: a catalog character it lacks sends every Chinese page
        // the 2.6 MB subset.
        for (name, bytes) in [("regular", FONTS[4]), ("bold", FONTS[5]), ("catalog", super::CJK_CATALOG)] {
            let font = Font::new(Bytes::new(bytes), 0).unwrap();
            // Hanzi, CJK punctuation and full-width forms (symbols such as ⚠ come from DejaVu).
            let cjk = |c: char| matches!(c as u32, 0x3000..=0x303F | 0x4E00..=0x9FFF | 0xFF00..=0xFFEF);
            let missing: String = text.chars().filter(|c| cjk(*c) && !font.info().coverage.contains(*c as u32)).collect();
            assert!(missing.is_empty(), "the {name} CJK subset lacks {missing:?}: run assets/fonts/make_cjk_subset.sh");
        }
    }
}
