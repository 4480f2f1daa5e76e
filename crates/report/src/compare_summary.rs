//! The plain text `credence compare` and `credence baseline check` print, verdict first: the
//! headline, the verdict table, the gates, what would decide, what changed, the credibility.

use std::fmt::Write;

use credence_messages::{Lang, Message};

use super::comparison_view::comparison;
use super::document::Report;
use super::terminal::{left, right};

/// The summary in `lang`.
pub fn summary(r: &Report, lang: Lang) -> String {
    let mut s = String::new();
    if r.capacity_comparison.is_some() {
        return capacity_summary(r, lang);
    }
    let Some(c) = comparison(r, lang) else { return s };
    let _ = writeln!(s, "{}\n", c.headline);
    let [metric, base, cand, change, tolerance, verdict] = &c.table_header;
    let row = |cells: [&str; 6]| {
        format!("{} {} {} {} {}  {}", left(cells[0], 16), right(cells[1], 30), right(cells[2], 30), right(cells[3], 30), right(cells[4], 10), cells[5])
    };
    let _ = writeln!(s, "{}", row([metric, base, cand, change, tolerance, verdict]));
    for r in &c.table {
        let _ = writeln!(s, "{}", row([&r.metric, &r.base, &r.cand, &r.change, &r.tolerance, &r.verdict_word]));
    }
    let _ = writeln!(s, "\n{}", c.gates_line);
    for g in &c.gates {
        let status = Message::new("status").text("status", g[1].clone()).render(lang);
        let line = Message::new("text-gate-line").text("status", status).text("gate", g[0].clone()).text("reason", g[2].clone());
        let _ = writeln!(s, "  {}", line.render(lang));
    }
    if !c.notes.is_empty() {
        let _ = writeln!(s);
    }
    for n in &c.notes {
        let _ = writeln!(s, "{n}");
    }
    if let Some(cmp) = &r.comparison {
        s.push_str(&super::conditions_view::compare_text(cmp, lang));
    }
    if !c.what_changed.is_empty() {
        let _ = writeln!(s, "\n{}", Message::new("text-what-changed").render(lang));
        for d in &c.what_changed {
            let _ = writeln!(s, "  {}: {} → {}", d[0], d[1], d[2]);
        }
    }
    if !c.by_adapter.is_empty() {
        let _ = writeln!(s, "\n{}", Message::new("text-by-adapter").render(lang));
        for a in &c.by_adapter {
            let _ = writeln!(s, "  {} {}: {} → {}, {}  {}", a[0], a[1], a[2], a[3], a[4], a[5]);
        }
    }
    if !c.environment_changed.is_empty() {
        let _ = writeln!(s, "\n{}", Message::new("text-environment").render(lang));
        for d in &c.environment_changed {
            let _ = writeln!(s, "  {}: {} → {}", d[0], d[1], d[2]);
        }
    }
    let grade = Message::new("grade").text("grade", r.grade().label());
    let credibility = Message::new("text-credibility").msg("grade", grade).text("summary", c.credibility.clone());
    let _ = writeln!(s, "\n{}", credibility.render(lang));
    for arm in &c.arms {
        let _ = writeln!(s, "  {arm}");
    }
    s
}

/// Two capacity searches compared: the headline, a row per search, the credibility.
fn capacity_summary(r: &Report, lang: Lang) -> String {
    let mut s = String::new();
    let Some(c) = r.capacity_comparison.as_ref() else { return s };
    let _ = writeln!(s, "{}\n", super::capacity_view::comparison_headline(c, lang).render(lang));
    let (head, rows) = super::capacity_view::comparison_rows(c, lang);
    let row = |cells: &[String]| format!("{} {} {} {} {}", left(&cells[0], 12), right(&cells[1], 26), right(&cells[2], 14), right(&cells[3], 26), right(&cells[4], 6));
    let _ = writeln!(s, "{}", row(&head));
    for cells in &rows {
        let _ = writeln!(s, "{}", row(cells));
    }
    let grade = Message::new("grade").text("grade", r.grade().label());
    let statement = super::i18n::messages::statement(&r.credibility, lang);
    let _ = writeln!(s, "\n{}", Message::new("text-credibility").msg("grade", grade).text("summary", statement).render(lang));
    s
}
