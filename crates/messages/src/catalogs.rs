//! The catalog files, embedded: (language code, [(file, text)]). Every language has the same
//! files (a test checks it); `locales/<code>/<file>` is the source.

macro_rules! catalog {
    ($code:literal: $($file:literal),+) => {
        ($code, &[$(($file, include_str!(concat!("../../../locales/", $code, "/", $file)))),+])
    };
}

pub const CATALOGS: &[(&str, &[(&str, &str)])] = &[
    catalog!("en": "common.ftl", "checks.ftl", "causes.ftl", "detectors.ftl", "statement.ftl", "compare.ftl", "history.ftl"),
    catalog!("zh": "common.ftl", "checks.ftl", "causes.ftl", "detectors.ftl", "statement.ftl", "compare.ftl", "history.ftl"),
];
