//! The catalog glue of the report: its words (`tr`, `fill`: headings, column names, chart
//! labels, view sentences) come from `locales/*/report.ftl`, the analysis's own messages are
//! rendered by `messages`.
//!
//! Design: the JSON stays language-neutral (English sentences beside their messages), and the
//! view is built once per language from the same structured fields, never by translating the
//! English text. So every number in a Chinese sentence comes from the same JSON field as in
//! the English one.

pub mod messages;

pub use credence_messages::Lang;
use credence_messages::Message;

/// The catalog id of a report word: `tpl.h_key_metrics` is `tpl-h_key_metrics` in
/// `locales/*/report.ftl` (Fluent ids have no dots).
fn id(key: &str) -> String {
    key.replace('.', "-")
}

/// The report word `key` in `lang`; `{id}` when the catalog lacks it (the catalog test finds
/// every key the code names, so this shows up in a test, not in a report).
pub fn tr(lang: Lang, key: &str) -> String {
    Message::new(&id(key)).render(lang)
}

/// The entry of `key` with each argument filled in as written.
pub fn fill(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    args.iter().fold(Message::new(&id(key)), |m, (name, value)| m.text(name, *value)).render(lang)
}

/// `items` joined by the separator `sep` (`sep.comma`, `sep.semicolon`) of `lang`.
pub fn join(lang: Lang, items: Vec<String>, sep: &str) -> String {
    items.join(&tr(lang, sep))
}

/// The report words under `group` (`tpl`, `chart`, …) as (key, text in `lang`), keyed as the
/// view and the templates look them up (`tpl.h_key_metrics`). A word with a variable keeps it
/// as `{name}`, for the renderer that fills it in (`Key metrics, {title}`).
pub fn words(group: &str, lang: Lang) -> Vec<(String, String)> {
    let prefix = format!("{group}-");
    credence_messages::ids()
        .into_iter()
        .filter(|i| i.starts_with(&prefix))
        .map(|i| {
            let message = credence_messages::variables(i).into_iter().fold(Message::new(i), |m, name| {
                let kept = format!("{{{name}}}");
                m.text(name, kept)
            });
            (i.replacen('-', ".", 1), message.render(lang))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    assert!(credence_messages::ids().contains(&id(key).as_str()), "key {key:?} has no entry in locales/*/report.ftl");
                }
            }
        }
        assert!(named > 50, "only {named} keys found: the scan no longer sees the code's lookups");
    }

    #[test]
    fn lookups_and_template_words() {
        assert_eq!(tr(Lang::Zh, "tpl.h_key_metrics"), "关键指标");
        assert_eq!(tr(Lang::En, "tpl.h_key_metrics"), "Key metrics");
        assert_eq!(tr(Lang::En, "no.such_key"), "{no-such_key}");
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(fill(Lang::En, "view.unknown_note", &[("note", "x")]), "unknown: x");
        // A template word keeps its variable for the renderer that fills it in.
        let words = words("tpl", Lang::En);
        let (_, metrics) = words.iter().find(|(k, _)| k == "tpl.md_key_metrics").expect("tpl.md_key_metrics");
        assert!(metrics.contains("{title}"), "{metrics}");
    }
}
