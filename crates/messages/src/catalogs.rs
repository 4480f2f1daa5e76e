//! The catalog files, embedded: (language code, [(file, text)]). Every language has the same
//! files (a test checks it); `locales/<code>/<file>` is the source.

macro_rules! catalog {
    ($code:literal: $($file:literal),+) => {
        ($code, &[$(($file, include_str!(concat!("../../../locales/", $code, "/", $file)))),+])
    };
}

pub const CATALOGS: &[(&str, &[(&str, &str)])] = &[
    catalog!("en": "common.ftl", "checks.ftl", "causes.ftl", "detectors.ftl", "statement.ftl", "compare.ftl", "history.ftl", "plan.ftl", "report.ftl", "sweep.ftl", "facts.ftl", "evidence.ftl", "telemetry.ftl", "audit.ftl", "capture.ftl", "definitions.ftl", "cli.ftl", "until.ftl", "html.ftl", "capacity.ftl"),
    catalog!("zh": "common.ftl", "checks.ftl", "causes.ftl", "detectors.ftl", "statement.ftl", "compare.ftl", "history.ftl", "plan.ftl", "report.ftl", "sweep.ftl", "facts.ftl", "evidence.ftl", "telemetry.ftl", "audit.ftl", "capture.ftl", "definitions.ftl", "cli.ftl", "until.ftl", "html.ftl", "capacity.ftl"),
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

/// The variables (`$name`) of the English message `id`, in order of first use.
pub fn variables(id: &str) -> Vec<&'static str> {
    let english = CATALOGS.iter().find(|c| c.0 == "en").map_or(&[][..], |c| c.1);
    let mut out = Vec::new();
    for (_, text) in english {
        let mut lines = text.lines().skip_while(|l| l.split_once(" =").map(|x| x.0) != Some(id));
        let Some(first) = lines.next() else { continue };
        // A message goes on over indented lines.
        for line in std::iter::once(first).chain(lines.take_while(|l| l.starts_with(' '))) {
            for part in line.split('$').skip(1) {
                let end = part.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(part.len());
                if end > 0 && !out.contains(&&part[..end]) {
                    out.push(&part[..end]);
                }
            }
        }
    }
    out
}
