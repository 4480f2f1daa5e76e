//! The space Chinese typesetting puts between a hanzi and an adjacent Latin letter, digit or
//! code span ("P99 TTFT 和 P50 TPOT", "出现 GPU"). The PDF sets it by itself (typst's
//! CJK-Latin spacing); Markdown, HTML and the terminal show only what is written, so every
//! Chinese message is rendered with it written.

fn hanzi(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
}

/// A percent sign ends a number as its digits do ("±9.8 % 和").
fn latin(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '`' || c == '%'
}

/// Full-width punctuation (、。（）：；， and the like) carries its own space: a space beside it
/// is a gap.
fn full_width_punctuation(c: char) -> bool {
    matches!(c, '\u{3001}'..='\u{3011}' | '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}' | '\u{FF3B}'..='\u{FF40}' | '\u{FF5B}'..='\u{FF60}')
}

/// `text` with one space wherever a hanzi meets a Latin letter, a digit, a percent sign or a
/// backtick, and none beside full-width punctuation ("（llmperf） 共有" is "（llmperf）共有").
pub fn cjk_latin_spaced(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        if c == ' ' && (prev.is_some_and(full_width_punctuation) || next.is_some_and(full_width_punctuation)) {
            continue;
        }
        if let Some(p) = prev
            && ((hanzi(p) && latin(c)) || (latin(p) && hanzi(c)))
        {
            out.push(' ');
        }
        out.push(c);
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
        assert_eq!(cjk_latin_spaced("±9.8 %和 P50 TPOT"), "±9.8 % 和 P50 TPOT");
        // Spaces already there, full-width punctuation, units and signs stay as they are.
        assert_eq!(cjk_latin_spaced("共 120 个请求，5 %（中位数）；≥ 33.0"), "共 120 个请求，5 %（中位数）；≥ 33.0");
        assert_eq!(cjk_latin_spaced("plain English"), "plain English");
        // No gap beside full-width punctuation, whatever the message wrote there.
        assert_eq!(cjk_latin_spaced("a.json（llmperf） 共有 40 项。 未检查"), "a.json（llmperf）共有 40 项。未检查");
        assert_eq!(cjk_latin_spaced("P99 TTFT （中位数）"), "P99 TTFT（中位数）");
    }
}
