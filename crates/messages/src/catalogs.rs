//! The catalog files, embedded: (language code, [(file, text)]). Every language has the same
//! files (a test checks it); `locales/<code>/<file>` is the source.

macro_rules! catalog {
    ($code:literal: $($file:literal),+) => {
        ($code, &[$(($file, include_str!(concat!("../../../locales/", $code, "/", $file)))),+])
    };
}

pub const CATALOGS: &[(&str, &[(&str, &str)])] = &[
    catalog!("en": "common.ftl", "checks.ftl", "causes.ftl", "detectors.ftl", "statement.ftl", "compare.ftl", "history.ftl", "plan.ftl", "report.ftl"),
    catalog!("zh": "common.ftl", "checks.ftl", "causes.ftl", "detectors.ftl", "statement.ftl", "compare.ftl", "history.ftl", "plan.ftl", "report.ftl"),
];

/// Every message id of the English catalog, in file order (a message starts a line with
/// `id =`); terms (`-name`) and comments are not messages.
pub fn ids() -> Vec<&'static str> {
    let english = CATALOGS.iter().find(|c| c.0 == "en").map_or(&[][..], |c| c.1);
    english
        .iter()
        .flat_map(|(_, text)| text.lines())
        .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|l| l.split_once(" =").map(|x| x.0))
        .collect()
}
