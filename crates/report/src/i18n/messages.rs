//! The sentences the analysis states as messages (`credence_messages`), in the report's
//! language: the credibility statement, check reasons, detector notes, unknown values' notes.
//! An analysis saved before messages carries its English text only, which is shown as it is.

use credence_analyze::attribute::DetectorStatus;
use credence_analyze::credibility::{Check, Credibility, Grade};
use credence_analyze::credibility::notes::note_arg;
use credence_messages::{Arg, Lang, Message};

/// A check's reason.
pub fn check_reason(k: &Check, lang: Lang) -> String {
    if k.message.is_empty() { k.reason.clone() } else { k.message.render(lang) }
}

/// A credibility statement.
pub fn statement(c: &Credibility, lang: Lang) -> String {
    if c.statement_message.is_empty() { c.statement.clone() } else { c.statement_message.render(lang) }
}

/// Why a detector did not run, or what it found.
pub fn detector_reason(d: &DetectorStatus, lang: Lang) -> String {
    if d.message.is_empty() { d.reason.clone() } else { d.message.render(lang) }
}

/// The note beside an unknown value: credence's own notes worded, another tool's as written.
pub fn unknown_note(note: &str, lang: Lang) -> String {
    match note_arg(Some(note)) {
        Arg::Msg(m) => m.render(lang),
        _ => note.to_string(),
    }
}

/// A grade as a word: `MEDIUM`, 中.
pub fn grade_word(g: Grade, lang: Lang) -> String {
    Message::new("grade").text("grade", g.label()).render(lang)
}
