//! The Markdown exporter: a concise summary for pull-request comments and CI logs (grade,
//! statement, key numbers, verdicts, findings). Untrusted strings are escaped so that a model
//! name cannot break the table or inject links.

use std::fmt::Write;

use super::document::Report;
use super::telemetry_view::TelemetryView;
use super::view::{AuditView, ComparisonView, View, view};
use super::{Exporter, ReportError};

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
        let v = view(r);
        let mut s = String::new();
        head(&mut s, &v);
        if let Some(sw) = &v.sweep {
            let _ = writeln!(
                s,
                "\n## Load sweep\n\n{}\n\n| offered req/s | achieved req/s | TTFT P50 ms | TTFT P99 ms | TPOT P50 ms | E2E P99 ms | errors % | grade |\n|---|---|---|---|---|---|---|---|",
                md(&sw.summary)
            );
            table_rows(&mut s, &sw.rows);
        }
        for t in &v.metric_tables {
            let _ =
                writeln!(s, "\n**Key metrics, {}** (ms, 95 % intervals)\n\n| metric | P50 | P90 | P99 | P99.9 | n |\n|---|---|---|---|---|---|", md(&t.title));
            table_rows(&mut s, &t.rows);
        }
        if let Some(t) = &v.telemetry {
            telemetry(&mut s, t);
        }
        if let Some(a) = &v.audit {
            audit(&mut s, a);
        }
        if let Some(c) = &v.comparison {
            comparison(&mut s, c);
        }
        // Cause detectors run on a request timeline; without runs there are no findings to state.
        if !r.runs.is_empty() {
            findings(&mut s, &v);
        }
        Ok(s.into_bytes())
    }
}

/// Title, grade, statement, headline and the named checks.
fn head(s: &mut String, v: &View) {
    let _ = writeln!(s, "# {}\n", md(&v.title));
    let _ = writeln!(s, "{}\n", md(&v.subtitle));
    let _ = writeln!(s, "**Credibility: {}**\n", v.grade);
    let _ = writeln!(s, "{}\n", md(&v.statement));
    let _ = writeln!(s, "| | |\n|---|---|");
    for h in &v.headline {
        let _ = writeln!(s, "| {} | {} |", md(&h[0]), md(&h[1]));
    }
    for set in &v.check_sets {
        let _ = writeln!(s, "\n**{}**\n\n| check | status | reason |\n|---|---|---|", md(&set.title));
        for c in &set.checks {
            let _ = writeln!(s, "| {} | {} | {} |", md(&c[0]), c[1], md(&c[2]));
        }
    }
}

/// The audit of the source's claims, and its run-level facts.
fn audit(s: &mut String, a: &AuditView) {
    let _ = writeln!(
        s,
        "\n## Audit of the source's claims\n\n{}\n\n| claim | tool | recomputed | verdict | credence | reason |\n|---|---|---|---|---|---|",
        md(&a.summary)
    );
    table_rows(s, &a.claims);
    for f in &a.facts {
        let _ = writeln!(s, "- {} {}: {}", md(&f[0]), f[1], md(&f[2]));
    }
}

/// A GPU capture without requests: episodes, GPUs set aside and clock stability under load.
fn telemetry(s: &mut String, t: &TelemetryView) {
    let _ = writeln!(s, "\n## GPU telemetry\n\n{}\n\nUnder load: {}", md(&t.summary), md(&t.load_rule));
    let _ = writeln!(s, "\n### Episodes\n\n{}", md(&t.episodes_note));
    if !t.episodes.is_empty() {
        let _ = writeln!(s, "\n| GPU | what | UTC | seconds | duration | evidence |\n|---|---|---|---|---|---|");
        table_rows(s, &t.episodes);
    }
    let _ = writeln!(s, "\n### GPUs set aside\n");
    if t.set_aside.is_empty() {
        let _ = writeln!(s, "None: every GPU was under load.");
    }
    for g in &t.set_aside {
        let _ = writeln!(s, "- {}: {}", md(&g[0]), md(&g[1]));
    }
    let _ = writeln!(s, "\n### Clock stability under load\n\n{}", md(&t.stability_note));
    if !t.stability.is_empty() {
        let _ =
            writeln!(s, "\n| GPU | loaded | SM clock median (min–max) | CV | below highest | below 90 % of highest | verdict |\n|---|---|---|---|---|---|---|");
        table_rows(s, &t.stability);
    }
    if !t.unreadable.is_empty() {
        let _ = writeln!(s, "\n{}", md(&t.unreadable));
    }
}

/// The comparison's verdicts, notes and the gates that did not pass.
fn comparison(s: &mut String, c: &ComparisonView) {
    let _ = writeln!(s, "\n## Comparison\n\n{}\n\n| metric | base | candidate | change [95 % CI] | τ | verdict |\n|---|---|---|---|---|---|", md(&c.summary));
    table_rows(s, &c.verdicts);
    for n in &c.notes {
        let _ = writeln!(s, "- {}", md(n));
    }
    for g in c.gates.iter().filter(|g| g[1] != "PASS") {
        let _ = writeln!(s, "- gate {} {}: {}", md(&g[0]), g[1], md(&g[2]));
    }
}

/// The findings, the unexplained anomalies and what could not be checked.
fn findings(s: &mut String, v: &View) {
    let _ = writeln!(s, "\n## Findings\n");
    if v.findings.is_empty() {
        let _ = writeln!(s, "No cause was found.");
    }
    for f in &v.findings {
        let _ = writeln!(
            s,
            "- **{}** (`{}`, {}): {}. Effect: {}. Action: {}",
            md(&f.title),
            f.cause,
            md(&f.strength),
            md(&f.episodes),
            md(&f.effect),
            md(&f.action)
        );
    }
    for u in &v.unexplained {
        let _ = writeln!(s, "- unexplained: {}", md(u));
    }
    let _ = writeln!(s, "\n{}", md(&v.not_checked));
}
