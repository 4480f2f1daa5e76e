//! The space Chinese typesetting puts between a hanzi and an adjacent Latin letter, digit or
//! code span ("P99 TTFT 和 P50 TPOT", "出现 GPU"). The PDF sets it by itself (typst's
//! CJK-Latin spacing); Markdown, HTML and the terminal show only what is written, so every
//! Chinese message is rendered with it written.

fn hanzi(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
}

fn latin(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '`'
}

/// `text` with one space wherever a hanzi meets a Latin letter, a digit or a backtick.
pub fn cjk_latin_spaced(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut prev: Option<char> = None;
    for c in text.chars() {
        if let Some(p) = prev {
            if (hanzi(p) && latin(c)) || (latin(p) && hanzi(c)) {
                out.push(' ');
            }
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::cjk_latin_spaced;

    #[test]
    fn hanzi_and_latin_get_one_space_and_nothing_else_changes() {
        assert_eq!(cjk_latin_spaced("P99 TTFT和P50 TPOT"), "P99 TTFT 和 P50 TPOT");
        assert_eq!(cjk_latin_spaced("出现GPU降频"), "出现 GPU 降频");
        assert_eq!(cjk_latin_spaced("运行`credence report`得到"), "运行 `credence report` 得到");
        // Spaces already there, full-width punctuation, units and signs stay as they are.
        assert_eq!(cjk_latin_spaced("共 120 个请求，5 %（中位数）；≥ 33.0"), "共 120 个请求，5 %（中位数）；≥ 33.0");
        assert_eq!(cjk_latin_spaced("plain English"), "plain English");
    }
}
