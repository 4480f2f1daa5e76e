//! The fonts the PDF templates and the charts name, embedded in the binary: Libertinus Serif
//! for prose and chart labels (regular and bold) and DejaVu Sans Mono for identifiers and
//! symbols. typst-assets' full set also carries New Computer Modern and its math fonts, which
//! no template uses: 7.9 MB of the binary for nothing. Noto Sans CJK SC, cut to ASCII, the
//! catalog's characters and GB 2312's level-1 hanzi (`assets/fonts/make_cjk_subset.sh`,
//! 0.8 MB), sets Chinese reports (`--lang zh`), Latin included (sans beside sans); its Bold,
//! cut to ASCII, punctuation and the catalogs' characters (0.14 MB), sets their headings. No template sets text in italics, so Libertinus' italic faces
//! are left out (0.6 MB), which keeps the binary within its 60 MB with the CJK font.
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
    #[test]
    fn both_cjk_weights_cover_every_catalog_character() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let mut text = String::new();
        for dir in ["locales/zh", "crates/report/templates"] {
            // The catalogs and templates only: GLOSSARY.md's rejected variants are never set.
            for entry in std::fs::read_dir(format!("{root}/{dir}")).unwrap().flatten().filter(|e| e.path().extension().is_none_or(|x| x != "md")) {
                text += &std::fs::read_to_string(entry.path()).unwrap_or_default();
            }
        }
        for (name, bytes) in [("regular", FONTS[4]), ("bold", FONTS[5])] {
            let font = Font::new(Bytes::new(bytes), 0).unwrap();
            // Hanzi, CJK punctuation and full-width forms (symbols such as ⚠ come from DejaVu).
            let cjk = |c: char| matches!(c as u32, 0x3000..=0x303F | 0x4E00..=0x9FFF | 0xFF00..=0xFFEF);
            let missing: String = text.chars().filter(|c| cjk(*c) && !font.info().coverage.contains(*c as u32)).collect();
            assert!(missing.is_empty(), "the {name} CJK subset lacks {missing:?}: run assets/fonts/make_cjk_subset.sh");
        }
    }
}
