//! Text columns on a terminal, where a hanzi takes two: the plain-text tables of `compare` and
//! `plan` line up in every language.

/// Columns a terminal gives `c`: two for hanzi and full-width forms, one otherwise.
fn columns(c: char) -> usize {
    match c as u32 {
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 => 2,
        _ => 1,
    }
}

/// `text` cut to `width` columns with "…" (a running footer's title, say).
pub fn shortened(text: &str, width: usize) -> String {
    if text.chars().map(columns).sum::<usize>() <= width {
        return text.to_string();
    }
    let mut used = 1; // the ellipsis
    let kept: String = text.chars().take_while(|c| {
        used += columns(*c);
        used <= width
    }).collect();
    format!("{}…", kept.trim_end())
}

fn padding(s: &str, width: usize) -> String {
    " ".repeat(width.saturating_sub(s.chars().map(columns).sum()))
}

/// `s` then spaces, to `width` terminal columns.
pub fn left(s: &str, width: usize) -> String {
    format!("{s}{}", padding(s, width))
}

/// Spaces then `s`, to `width` terminal columns.
pub fn right(s: &str, width: usize) -> String {
    format!("{}{s}", padding(s, width))
}

#[cfg(test)]
mod tests {
    use super::{left, right, shortened};

    #[test]
    fn hanzi_take_two_columns() {
        assert_eq!(right("退化", 6), "  退化");
        assert_eq!(left("P50 TTFT", 10), "P50 TTFT  ");
        assert_eq!(right("±5.0 %", 8), "  ±5.0 %");
        assert_eq!(left("too long", 3), "too long");
    }

    #[test]
    fn a_long_title_is_cut_to_its_columns_with_an_ellipsis() {
        assert_eq!(shortened("short", 10), "short");
        assert_eq!(shortened("abcdefghijkl", 10), "abcdefghi…");
        // A hanzi is two columns: four of them and the ellipsis fill nine.
        assert_eq!(shortened("审计：一二三四五六", 10), "审计：一…");
        assert!(shortened(&"x".repeat(200), 64).chars().count() == 64);
    }
}
