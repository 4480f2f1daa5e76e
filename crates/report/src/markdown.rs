//! The Markdown exporter: a concise summary for pull-request comments and CI logs (grade,
//! statement, key numbers, verdicts, findings). Untrusted strings are escaped so that a model
//! name cannot break the table or inject links.
//!
//! A comparison or a sweep leads with its verdict: title, headline, table and gates fit in
//! about 25 lines, and everything else follows in `<details>` blocks, which GitHub and GitLab
//! show folded.

use std::fmt::Write;

use super::comparison_view::ComparisonView;
use super::document::Report;
use super::i18n::Lang;
use super::telemetry_view::TelemetryView;
use super::view::{AuditView, CheckSet, View, view};
use super::{Exporter, ReportError};
use credence_analyze::compare::verdict::Verdict;

pub struct Markdown;

/// Escapes Markdown and HTML metacharacters and flattens newlines.
pub(crate) fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '!' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Table rows, every cell escaped.
pub(crate) fn table_rows<const N: usize>(s: &mut String, rows: &[[String; N]]) {
    for row in rows {
        let _ = writeln!(s, "| {} |", row.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | "));
    }
}

impl Exporter for Markdown {
    fn export(&self, r: &Report) -> Result<Vec<u8>, ReportError> {
        render(r, Lang::En)
    }
}

/// The Markdown in `lang`.
pub fn render(r: &Report, lang: Lang) -> Result<Vec<u8>, ReportError> {
    let v = view(r, lang);
    let mut s = String::new();
    if v.verdict_first {
        verdict_first(&mut s, &v);
        return Ok(s.into_bytes());
    }
    head(&mut s, &v);
    metric_tables(&mut s, &v);
    for c in &v.conditions {
        conditions(&mut s, &v, c);
    }
    if let Some(t) = &v.telemetry {
        telemetry(&mut s, &v, t);
    }
    if let Some(a) = &v.audit {
        audit(&mut s, &v, a);
    }
    // Cause detectors run on a request timeline; without runs there are no findings to state.
    if !r.runs.is_empty() {
        findings(&mut s, &v);
    }
    Ok(s.into_bytes())
}

/// A fixed word of the report in its language (the template's `words`).
/// A label and what follows it: a space after "Conditions:", none after a full-width colon.
fn labelled(label: &str, rest: &str) -> String {
    if label.ends_with('：') { format!("{label}{rest}") } else { format!("{label} {rest}") }
}

/// A label's colon: full width, without a space, in Chinese.
fn colon(v: &View) -> &'static str {
    if v.lang == "zh" { "：" } else { ": " }
}

fn w<'a>(v: &'a View, key: &'a str) -> &'a str {
    v.words.get(key).map_or(key, String::as_str)
}

/// `**Credibility: LOW**`, in the report's language.
fn grade_line(v: &View) -> String {
    format!("**{}{}**", w(v, "tpl.credibility_badge"), w(v, &format!("tpl.grade_{}", v.grade)))
}

/// Title, grade, statement, headline and the named checks.
fn head(s: &mut String, v: &View) {
    let _ = writeln!(s, "# {}\n", md(&v.title));
    let _ = writeln!(s, "{}\n", md(&v.subtitle));
    let _ = writeln!(s, "{}\n", grade_line(v));
    let _ = writeln!(s, "{}\n", md(&v.statement));
    let _ = writeln!(s, "| | |\n|---|---|");
    for h in &v.headline {
        let _ = writeln!(s, "| {} | {} |", md(&h[0]), md(&h[1]));
    }
    for set in &v.check_sets {
        let _ = writeln!(s, "\n**{}**\n", md(&set.title));
        check_table(s, v, set);
    }
}

/// One set of named checks as a table, after its statement when it has one.
fn check_table(s: &mut String, v: &View, set: &CheckSet) {
    if !set.statement.is_empty() {
        let _ = writeln!(s, "{}\n", md(&set.statement));
    }
    let _ = writeln!(s, "| {} | {} | {} |\n|---|---|---|", w(v, "tpl.col_check"), w(v, "tpl.col_status"), w(v, "tpl.col_reason"));
    for c in &set.checks {
        let _ = writeln!(s, "| {} | {} | {} |", md(&c[0]), w(v, &format!("tpl.status_{}", c[1])), md(&c[2]));
    }
}

/// The top part of a comparison: title, headline, verdict table, gates, credibility. This is
/// what `credence compare --format md` prints for a CI job to post.
pub fn comparison_top(r: &Report, lang: Lang) -> String {
    let v = view(r, lang);
    let mut s = String::new();
    if let Some(c) = &v.comparison {
        comparison_lead(&mut s, &v, c);
    } else if let Some(c) = v.capacity.as_ref().filter(|_| r.capacity_comparison.is_some()) {
        let _ = writeln!(s, "# {}\n", md(&v.title));
        capacity_lead(&mut s, c);
        let _ = writeln!(s, "{} {}", grade_line(&v), md(&v.statement));
    }
    s
}

/// A capacity: its headline in bold, then its table.
fn capacity_lead(s: &mut String, c: &super::view::CapacityView) {
    let _ = writeln!(s, "**{}**\n", md(&c.headline));
    let _ = writeln!(s, "{}", header(&c.head.iter().map(String::as_str).collect::<Vec<_>>()));
    for row in &c.rows {
        let _ = writeln!(s, "| {} |", row.iter().map(|x| md(x)).collect::<Vec<_>>().join(" | "));
    }
    let _ = writeln!(s);
}

/// A comparison or a sweep: the verdict and its table, the credibility in brief, then the
/// details folded.
fn verdict_first(s: &mut String, v: &View) {
    if let Some(c) = &v.comparison {
        comparison_lead(s, v, c);
    } else if let Some(sw) = &v.sweep {
        let _ = writeln!(s, "# {}\n", md(&v.title));
        if let Some(c) = &v.capacity {
            capacity_lead(s, c);
        }
        let _ = writeln!(s, "{}\n", md(&sw.summary));
        let cols = [
            w(v, "tpl.col_offered"),
            w(v, "tpl.col_achieved"),
            "TTFT P50 ms",
            "TTFT P99 ms",
            "TPOT P50 ms",
            "E2E P99 ms",
            w(v, "tpl.col_errors_pct"),
            w(v, "tpl.col_grade"),
        ];
        let _ = writeln!(s, "{}", header(&cols));
        table_rows(s, &sw.rows);
        let _ = writeln!(s, "\n{} {}\n\n_{}_", grade_line(v), md(&v.statement), md(&v.subtitle));
    }
    if let (None, None, Some(c)) = (&v.comparison, &v.sweep, &v.capacity) {
        // Two capacity searches compared: the change and a row per search.
        let _ = writeln!(s, "# {}\n", md(&v.title));
        capacity_lead(s, c);
        let _ = writeln!(s, "{} {}\n\n_{}_", grade_line(v), md(&v.statement), md(&v.subtitle));
    }
    if let Some(c) = &v.comparison {
        details(s, w(v, "tpl.md_details_comparison"), |s| comparison(s, v, c));
    }
    details(s, w(v, "tpl.md_details_metrics"), |s| metric_tables(s, v));
    if !v.conditions.is_empty() {
        details(s, w(v, "tpl.md_details_conditions"), |s| v.conditions.iter().for_each(|c| conditions(s, v, c)));
    }
    details(s, w(v, "tpl.h_findings"), |s| findings(s, v));
    for set in &v.check_sets {
        details(s, &w(v, "tpl.md_details_checks").replace("{title}", &set.title), |s| check_table(s, v, set));
    }
}

/// Title, headline, verdict table, gates, and the credibility with one line per arm.
fn comparison_lead(s: &mut String, v: &View, c: &ComparisonView) {
    let _ = writeln!(s, "# {}\n\n{}\n", md(&v.title), md(&c.headline));
    if let Some(clean) = &c.clean_sentence {
        let _ = writeln!(s, "{}\n", md(clean));
    }
    let _ = writeln!(s, "| {} |\n|---|---|---|---|---|---|", c.table_header.iter().map(|h| md(h)).collect::<Vec<_>>().join(" | "));
    for row in &c.table {
        let word = md(&row.verdict_word);
        let decided = matches!(row.verdict, Verdict::Regression | Verdict::Improvement);
        let verdict = if decided { format!("**{word}**") } else { word };
        let cells = [&row.metric, &row.base, &row.cand, &row.change, &row.tolerance].map(|c| md(c));
        let _ = writeln!(s, "| {} | {verdict} |", cells.join(" | "));
    }
    let _ = writeln!(s, "\n{}\n", md(&c.gates_line));
    let _ = writeln!(s, "{} {}\n", grade_line(v), md(&c.credibility));
    for arm in &c.arms {
        let _ = writeln!(s, "- {}", md(arm));
    }
    let _ = writeln!(s, "\n_{}_", md(&v.subtitle));
}

/// A block GitHub and GitLab show folded; the blank lines let Markdown render inside it.
fn details(s: &mut String, summary: &str, body: impl FnOnce(&mut String)) {
    let _ = writeln!(s, "\n<details>\n<summary>{}</summary>\n", md(summary));
    body(s);
    let _ = writeln!(s, "\n</details>");
}

/// One table of key metrics per run.
fn metric_tables(s: &mut String, v: &View) {
    for t in &v.metric_tables {
        let title = w(v, "tpl.md_key_metrics").replace("{title}", &md(&t.title));
        let _ = writeln!(
            s,
            "\n**{title}** {}\n\n| {} | P50 | P90 | P99 | P99.9 | n |\n|---|---|---|---|---|---|",
            w(v, "tpl.md_ms_intervals"),
            w(v, "tpl.col_metric")
        );
        table_rows(s, &t.rows);
    }
}

/// A run's conditions: a table per condition, then each metric inside against outside each episode.
fn conditions(s: &mut String, v: &View, c: &super::conditions_view::ConditionsView) {
    let _ = writeln!(s, "\n## {}\n\n{}", labelled(w(v, "tpl.h_conditions"), &md(&c.title)), md(&c.note));
    for t in &c.tables {
        let _ = writeln!(s, "\n**{}**{}{}\n\n{}", md(&t.title), colon(v), md(&t.note), header(&[w(v, "tpl.col_metric"), "P50", "P90", "P99", "P99.9", "n"]));
        table_rows(s, &t.rows);
    }
    let cols = ["tpl.cond_col_cause", "tpl.cond_col_metric", "tpl.cond_col_inside", "tpl.cond_col_outside", "tpl.cond_col_inside_outside"];
    let _ = writeln!(s, "\n{}", header(&cols.map(|k| w(v, k))));
    table_rows(s, &c.contrast);
}

/// A table's header row and its rule, in Markdown.
fn header(cols: &[&str]) -> String {
    format!("| {} |\n|{}", cols.join(" | "), "---|".repeat(cols.len()))
}

/// The audit of the source's claims, and its run-level facts.
fn audit(s: &mut String, v: &View, a: &AuditView) {
    let cols = ["tpl.col_claim", "tpl.col_tool", "tpl.col_recomputed", "tpl.col_reproduction", "tpl.col_credence", "tpl.col_reason"];
    let _ = writeln!(s, "\n## {}\n\n{}\n\n{}", w(v, "tpl.h_audit"), md(&a.summary), header(&cols.map(|k| w(v, k))));
    table_rows(s, &a.claims);
    for f in &a.facts {
        let _ = writeln!(s, "- {} {}{}{}", md(&f[0]), w(v, &format!("tpl.status_{}", f[1])), colon(v), md(&f[2]));
    }
}

/// A GPU capture without requests: episodes, GPUs set aside and clock stability under load.
fn telemetry(s: &mut String, v: &View, t: &TelemetryView) {
    let _ = writeln!(s, "\n## {}\n\n{}\n\n{}", w(v, "tpl.h_gpu_telemetry"), md(&t.summary), labelled(w(v, "tpl.under_load"), &md(&t.load_rule)));
    let _ = writeln!(s, "\n### {}\n\n{}", w(v, "tpl.h_episodes"), md(&t.episodes_note));
    if !t.episodes.is_empty() {
        let cols = ["GPU", w(v, "tpl.col_what"), "UTC", w(v, "tpl.col_seconds"), w(v, "tpl.col_duration"), w(v, "tpl.col_evidence")];
        let _ = writeln!(s, "\n{}", header(&cols));
        table_rows(s, &t.episodes);
    }
    let _ = writeln!(s, "\n### {}\n", w(v, "tpl.h_set_aside"));
    if t.set_aside.is_empty() {
        let _ = writeln!(s, "{}", w(v, "tpl.none_all_loaded"));
    }
    for g in &t.set_aside {
        let _ = writeln!(s, "- {}{}{}", md(&g[0]), colon(v), md(&g[1]));
    }
    let _ = writeln!(s, "\n### {}\n\n{}", w(v, "tpl.h_clock_stability"), md(&t.stability_note));
    if !t.stability.is_empty() {
        let words = ["tpl.col_loaded", "tpl.col_sm_clock", "tpl.col_below_highest", "tpl.col_below_90", "tpl.col_verdict"].map(|k| w(v, k));
        let _ = writeln!(s, "\n{}", header(&["GPU", words[0], words[1], "CV", words[2], words[3], words[4]]));
        table_rows(s, &t.stability);
    }
    if !t.unreadable.is_empty() {
        let _ = writeln!(s, "\n{}", md(&t.unreadable));
    }
}

/// The comparison's method, what would decide each inconclusive metric, every gate and what
/// changed between the manifests.
fn comparison(s: &mut String, v: &View, c: &ComparisonView) {
    let _ = writeln!(s, "{}\n\n{}\n", md(&c.summary), md(&c.table_note));
    for n in &c.notes {
        let _ = writeln!(s, "- {}", md(n));
    }
    let _ = writeln!(s, "\n| {} | {} | {} |\n|---|---|---|", w(v, "tpl.col_gate"), w(v, "tpl.col_status"), w(v, "tpl.col_reason"));
    for g in &c.gates {
        let _ = writeln!(s, "| {} | {} | {} |", md(&g[0]), w(v, &format!("tpl.status_{}", g[1])), md(&g[2]));
    }
    if c.what_changed.is_empty() {
        let _ = writeln!(s, "\n{}", w(v, "tpl.nothing_differs"));
    } else {
        let _ = writeln!(s, "\n| {} | {} | {} |\n|---|---|---|", w(v, "tpl.md_col_changed"), w(v, "tpl.col_base"), w(v, "tpl.col_candidate"));
        table_rows(s, &c.what_changed);
    }
    if !c.by_adapter.is_empty() {
        let h = &c.table_header;
        let _ = writeln!(s, "\n**{}**\n\n{}\n", w(v, "tpl.h_by_adapter"), md(&c.by_adapter_note));
        let _ = writeln!(s, "| {} | {} | {} | {} | {} | {} |\n|---|---|---|---|---|---|", w(v, "tpl.col_adapter"), md(&h[0]), md(&h[1]), md(&h[2]), md(&h[3]), md(&h[5]));
        table_rows(s, &c.by_adapter);
    }
    if !c.environment_changed.is_empty() {
        let _ = writeln!(s, "\n| {} | {} | {} |\n|---|---|---|", w(v, "tpl.md_col_environment"), w(v, "tpl.col_base"), w(v, "tpl.col_candidate"));
        table_rows(s, &c.environment_changed);
    }
}

/// The findings, the unexplained anomalies and what could not be checked.
fn findings(s: &mut String, v: &View) {
    let _ = writeln!(s, "\n## {}\n", w(v, "tpl.h_findings"));
    if v.findings.is_empty() {
        let _ = writeln!(s, "{}", md(&v.findings_none));
    }
    for f in &v.findings {
        let fields = [("title", md(&f.title)), ("cause", f.cause.clone()), ("strength", md(&f.strength)), ("episodes", md(&f.episodes))];
        let fields = fields.into_iter().chain([("effect", md(&f.effect)), ("action", md(&f.action))]);
        let line = fields.fold(w(v, "tpl.md_finding").to_string(), |line, (name, value)| line.replace(&format!("{{{name}}}"), &value));
        let _ = writeln!(s, "{line}");
    }
    for u in &v.unexplained {
        let _ = writeln!(s, "- {}{}", w(v, "tpl.md_unexplained"), md(u));
    }
    let _ = writeln!(s, "\n{}", md(&v.not_checked));
}
