//! Text shared by the analysis's sentences and the renderers: untrusted strings made safe to
//! display (imported files, error messages from servers) and numbers in significant digits.

/// Escapes control characters and Unicode bidi overrides so that a string read from a file
/// cannot move the terminal cursor, recolour output or reorder what the user sees.
pub fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let bidi = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}');
        if c.is_control() || bidi {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A value with `digits` significant digits (e.g. 897.079 → `897`, 13.8822 → `13.9`), for
/// numbers shown without their own interval.
pub fn significant(x: f64, digits: i32) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x}");
    }
    let d = (digits - 1 - x.abs().log10().floor() as i32).clamp(0, 9) as usize;
    format!("{x:.d$}")
}

/// Decimals that show two significant digits of `half_width` (0 to 6).
pub fn decimals_for(half_width: f64) -> usize {
    if !(half_width.is_finite() && half_width > 0.0) {
        return 2;
    }
    (1.0 - half_width.log10().floor()).clamp(0.0, 6.0) as usize
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn escapes_terminal_and_bidi_controls() {
        assert_eq!(sanitize("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(sanitize("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(sanitize("plain ünïcode"), "plain ünïcode");
    }
}
