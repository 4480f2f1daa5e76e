//! The plain text `credence compare` and `credence baseline check` print, verdict first: the
//! headline, the verdict table, the gates, what would decide, what changed, the credibility.

use std::fmt::Write;

use super::comparison_view::comparison;
use super::document::Report;

pub fn summary(r: &Report) -> String {
    let mut s = String::new();
    let Some(c) = comparison(r, credence_messages::Lang::En) else { return s };
    let _ = writeln!(s, "{}\n", c.headline);
    let [metric, base, cand, change, tolerance, verdict] = &c.table_header;
    let _ = writeln!(s, "{metric:<16} {base:>30} {cand:>30} {change:>30} {tolerance:>10}  {verdict}");
    for row in &c.table {
        let _ = writeln!(s, "{:<16} {:>30} {:>30} {:>30} {:>10}  {}", row.metric, row.base, row.cand, row.change, row.tolerance, row.verdict_word);
    }
    let _ = writeln!(s, "\n{}", c.gates_line);
    for g in &c.gates {
        let _ = writeln!(s, "  [{}] {}: {}", g[1], g[0], g[2]);
    }
    if !c.notes.is_empty() {
        let _ = writeln!(s);
    }
    for n in &c.notes {
        let _ = writeln!(s, "{n}");
    }
    if let Some(cmp) = &r.comparison {
        s.push_str(&super::conditions_view::compare_text(cmp));
    }
    if !c.what_changed.is_empty() {
        let _ = writeln!(s, "\nwhat changed:");
        for d in &c.what_changed {
            let _ = writeln!(s, "  {}: {} -> {}", d[0], d[1], d[2]);
        }
    }
    if !c.environment_changed.is_empty() {
        let _ = writeln!(s, "\nmeasured environment (context, not a switch):");
        for d in &c.environment_changed {
            let _ = writeln!(s, "  {}: {} -> {}", d[0], d[1], d[2]);
        }
    }
    let _ = writeln!(s, "\ncredibility {}: {}", r.grade().label(), c.credibility);
    for arm in &c.arms {
        let _ = writeln!(s, "  {arm}");
    }
    s
}
