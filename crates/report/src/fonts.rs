//! The fonts the PDF templates and the charts name, embedded in the binary: Libertinus Serif
//! for prose (regular and bold) and DejaVu Sans Mono for identifiers and chart
//! labels. typst-assets' full set also carries New Computer Modern and its math fonts, which
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
