//! The fonts the PDF templates and the charts name, embedded in the binary: Libertinus Serif
//! for prose (regular, bold and their italics) and DejaVu Sans Mono for identifiers and chart
//! labels. typst-assets' full set also carries New Computer Modern and its math fonts, which
//! no template uses: 7.9 MB of the binary for nothing. Licences: `assets/fonts/NOTICE`.

use typst::foundations::Bytes;

const FONTS: [&[u8]; 6] = [
    include_bytes!("../../assets/fonts/LibertinusSerif-Regular.otf"),
    include_bytes!("../../assets/fonts/LibertinusSerif-Bold.otf"),
    include_bytes!("../../assets/fonts/LibertinusSerif-Italic.otf"),
    include_bytes!("../../assets/fonts/LibertinusSerif-BoldItalic.otf"),
    include_bytes!("../../assets/fonts/DejaVuSansMono.ttf"),
    include_bytes!("../../assets/fonts/DejaVuSansMono-Bold.ttf"),
];

/// Every embedded font, for a typst engine.
pub fn embedded() -> impl Iterator<Item = Bytes> {
    FONTS.into_iter().map(Bytes::new)
}
