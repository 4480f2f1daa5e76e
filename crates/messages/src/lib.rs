//! Messages as data. The analysis states each sentence it has to say as a [`Message`]: an id
//! and named arguments (counts, numbers with their decimals, identifiers, other messages). Every
//! language renders the same message from its own Fluent catalog (`locales/<lang>/*.ftl`), so
//! the English and the Chinese sentence are two wordings of one fact, never two computations.
//!
//! Numbers are formatted here, once, with the decimals the analysis chose: both languages show
//! the same digits. Selectors (`{ $n -> [one] … *[other] … }`) carry plurals and variants.
//!
//! Adding a language: a `Lang` variant, its code in `Lang::parse` and `Lang::code`, a
//! `locales/<code>/` folder with every file of `locales/en/`, and its files in `CATALOGS`; the
//! tests then hold it to the same ids and arguments as English.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};

mod catalogs;
pub mod spacing;
mod vocabulary;
pub use catalogs::{CATALOGS, ids, variables};
pub use vocabulary::metric_label;

/// A language of the reports (`--lang`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The language `--lang` names; None for one credence does not have.
    pub fn parse(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "zh" | "zh-CN" | "zh-Hans" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The BCP 47 code (typst's `text(lang:)` takes it too, and so does the catalog folder).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }
}

/// One sentence (or phrase) to say: a catalog id and its named arguments.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Message {
    pub id: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<String, Arg>,
}

/// An argument of a message. In JSON: a count is an integer, an identifier a string, a number
/// `{"value", "decimals"}`, a list `{"items", "sep"}`, a nested message `{"id", "args"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Arg {
    /// A count: a number for the plural selectors, printed without decimals.
    Int(i64),
    /// Text shown as it is in every language: an identifier, a run id, a tool's own words.
    Text(String),
    /// A measured number, printed with `decimals` decimals.
    Num { value: f64, decimals: u8 },
    /// Several messages in running text, separated by the language's separator `sep`.
    List { items: Vec<Message>, sep: Sep },
    /// A message inside a message (a finding's title inside a check's reason).
    Msg(Box<Message>),
}

/// How a list's items are separated: `comma` (", " / "，"), `semicolon` ("; " / "；"),
/// `enumeration` (", " / "、", for short names), `and` (`a, b and c` / `a、b和c`),
/// `phrases` (phrases with commas of their own: ", " / "；") or `sentence` (sentences of a
/// paragraph: a space in English, nothing in Chinese).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sep {
    Comma,
    Semicolon,
    Enumeration,
    And,
    Phrases,
    Sentence,
}

impl Sep {
    fn id(self) -> &'static str {
        match self {
            Sep::Comma => "sep-comma",
            Sep::Semicolon => "sep-semicolon",
            Sep::Enumeration | Sep::And => "sep-enumeration",
            Sep::Phrases => "sep-phrases",
            Sep::Sentence => "sep-sentence",
        }
    }

    /// The items in running text.
    fn join(self, lang: Lang, items: &[String]) -> String {
        let sep = render(lang, &Message::new(self.id()));
        match (self, items) {
            (Sep::And, [first @ .., last]) if !first.is_empty() => format!("{}{}{last}", first.join(&sep), render(lang, &Message::new("sep-and"))),
            _ => items.join(&sep),
        }
    }
}

impl Message {
    pub fn new(id: &str) -> Message {
        Message { id: id.to_string(), args: BTreeMap::new() }
    }

    /// Whether this is a message at all (an analysis saved before messages has none).
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }

    /// An argument of any kind.
    pub fn arg(mut self, name: &str, arg: Arg) -> Message {
        self.args.insert(name.to_string(), arg);
        self
    }

    /// A count.
    pub fn int(self, name: &str, n: impl TryInto<i64>) -> Message {
        self.arg(name, Arg::Int(n.try_into().unwrap_or(i64::MAX)))
    }

    /// A measured number with its decimals.
    pub fn num(self, name: &str, value: f64, decimals: u8) -> Message {
        self.arg(name, Arg::Num { value, decimals })
    }

    /// Text shown as it is: an identifier, a name, a selector's key.
    pub fn text(self, name: &str, text: impl Into<String>) -> Message {
        self.arg(name, Arg::Text(text.into()))
    }

    pub fn msg(self, name: &str, message: Message) -> Message {
        self.arg(name, Arg::Msg(Box::new(message)))
    }

    pub fn list(self, name: &str, items: Vec<Message>, sep: Sep) -> Message {
        self.arg(name, Arg::List { items, sep })
    }

    /// The message in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        render(lang, self)
    }
}

/// The bundle of `lang`, parsed once. A catalog that does not parse is a build defect that the
/// tests catch (`every_catalog_parses`); here its good entries are still used.
fn bundle(lang: Lang) -> &'static FluentBundle<FluentResource> {
    static BUNDLES: [OnceLock<FluentBundle<FluentResource>>; Lang::ALL.len()] = [const { OnceLock::new() }; Lang::ALL.len()];
    BUNDLES[lang as usize].get_or_init(|| {
        let mut bundle = FluentBundle::new_concurrent(vec![lang.code().parse().expect("a valid language code")]);
        // Unicode isolation marks around each argument would reach the PDF and the Markdown.
        bundle.set_use_isolating(false);
        for (_, text) in CATALOGS.iter().filter(|c| c.0 == lang.code()).flat_map(|c| c.1) {
            let resource = FluentResource::try_new(text.to_string()).unwrap_or_else(|(partial, _)| partial);
            bundle.add_resource_overriding(resource);
        }
        bundle
    })
}

/// Renders `message` in `lang`. An id the catalog lacks shows as `{id}`, which the catalog tests
/// rule out for every id the code uses.
pub fn render(lang: Lang, message: &Message) -> String {
    let bundle = bundle(lang);
    let Some(pattern) = bundle.get_message(&message.id).and_then(|m| m.value()) else {
        return format!("{{{}}}", message.id);
    };
    let mut args = FluentArgs::new();
    for (name, arg) in &message.args {
        args.set(name.as_str(), value(lang, arg));
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
    match lang {
        Lang::Zh => spacing::cjk_latin_spaced(&text),
        Lang::En => text.into_owned(),
    }
}

fn value(lang: Lang, arg: &Arg) -> FluentValue<'static> {
    match arg {
        Arg::Int(n) => FluentValue::from(*n),
        Arg::Text(t) => FluentValue::String(Cow::Owned(t.clone())),
        Arg::Num { value, decimals } => FluentValue::String(Cow::Owned(format!("{value:.*}", usize::from(*decimals)))),
        Arg::Msg(m) => FluentValue::String(Cow::Owned(render(lang, m))),
        Arg::List { items, sep } => FluentValue::String(Cow::Owned(sep.join(lang, &items.iter().map(|m| render(lang, m)).collect::<Vec<_>>()))),
    }
}

#[cfg(test)]
mod tests;
