//! The report's languages: one message catalog (`catalog.rs`) with an `en` and a `zh` entry per
//! key, and the Chinese versions of the sentences the renderers build from the `Analysis`.
//!
//! Design: the JSON stays language-neutral (English sentences, structured fields), and a
//! renderer asked for another language rebuilds each sentence from the same structured fields
//! (check names and statuses, counts, estimates), never by translating the English text. So
//! renderers still read only the `Analysis`, and every number in a Chinese sentence comes
//! from the same JSON field as in the English one.

pub mod audit_zh;
pub mod capture_checks_zh;
mod catalog;
pub mod charts_zh;
pub mod definitions_zh;
pub mod evidence_zh;
pub mod facts_zh;
pub mod glyphs;
pub mod localize;
pub mod messages;
pub mod sweep_zh;
pub mod telemetry_zh;

pub use catalog::CATALOG;

pub use credence_messages::Lang;

/// The entry of `key` in `lang`; the key itself when the catalog lacks it (the catalog test
/// finds every key the code names, so this shows up in a test, not in a report).
pub fn tr(lang: Lang, key: &str) -> &'static str {
    match CATALOG.binary_search_by(|e| e.0.cmp(key)) {
        Ok(i) => match lang {
            Lang::En => CATALOG[i].1,
            Lang::Zh => CATALOG[i].2,
        },
        Err(_) => "?",
    }
}

/// The entry of `key` with each `{name}` replaced by its value.
pub fn fill(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    let mut out = tr(lang, key).to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// A list in running text: `a, b and c` in English, `a、b 和 c` in Chinese.
pub fn list(lang: Lang, items: &[String]) -> String {
    let (sep, and) = match lang {
        Lang::En => (", ", " and "),
        Lang::Zh => ("、", "和"),
    };
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{}{and}{}", items[..n - 1].join(sep), items[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placeholders(s: &str) -> Vec<&str> {
        let mut out: Vec<&str> = s.split('{').skip(1).filter_map(|p| p.split_once('}').map(|x| x.0)).collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn every_key_has_both_languages_with_the_same_placeholders() {
        for (key, en, zh) in CATALOG {
            assert!(!en.trim().is_empty(), "{key}: no en entry");
            assert!(!zh.trim().is_empty(), "{key}: no zh entry");
            assert_eq!(placeholders(en), placeholders(zh), "{key}: placeholders differ between en and zh");
        }
    }

    #[test]
    fn keys_are_sorted_and_unique_for_the_binary_search() {
        for pair in CATALOG.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{} must come before {}", pair[1].0, pair[0].0);
        }
    }

    /// Every key the sources name (`tr(lang, "…")`, `fill(lang, "…"`, `w("…")` and the
    /// template's `w.at("…")`) has a catalog entry.
    #[test]
    fn every_key_the_code_names_is_in_the_catalog() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut sources: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .chain(std::fs::read_dir(format!("{dir}/i18n")).into_iter().flatten())
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
            .filter_map(|e| std::fs::read_to_string(e.path()).ok())
            .collect();
        sources.push(crate::pdf::TEMPLATE.to_string());
        let mut named = 0;
        for text in &sources {
            for marker in ["tr(ZH, \"", "fill(ZH, \"", "tr(lang, \"", "fill(lang, \"", "w.at(\"", "w(v, \""] {
                for part in text.split(marker).skip(1) {
                    let key = part.split('"').next().unwrap_or("");
                    // Keys built at run time (`tpl.status_` + a status) are checked where they are built.
                    let literal = key.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
                    if !literal || key.is_empty() || key.ends_with('.') || key.ends_with('_') {
                        continue;
                    }
                    named += 1;
                    assert!(CATALOG.binary_search_by(|e| e.0.cmp(key)).is_ok(), "key {key:?} has no catalog entry");
                }
            }
        }
        assert!(named > 50, "only {named} keys found: the scan no longer sees the code's lookups");
    }

    #[test]
    fn lookups_fill_and_list() {
        assert_eq!(tr(Lang::Zh, "tpl.h_key_metrics"), "关键指标");
        assert_eq!(tr(Lang::En, "tpl.h_key_metrics"), "Key metrics");
        assert_eq!(tr(Lang::En, "no.such.key"), "?");
        assert_eq!(list(Lang::Zh, &["a".into(), "b".into(), "c".into()]), "a、b和c");
        assert_eq!(list(Lang::En, &["a".into(), "b".into(), "c".into()]), "a, b and c");
        assert_eq!(Lang::parse("fr"), None);
    }
}
