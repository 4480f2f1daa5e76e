//! A comparison's content for the renderers, verdict first: the headline sentence, the verdict
//! table, the gates in one line and the credibility summary; then the details (method, every
//! gate, what would decide, what changed). The words come from `comparison_words`.

use serde::Serialize;

use super::comparison_words as words;
use super::document::Report;
use super::i18n::{Lang, fill, list};
use credence_analyze::compare::verdict::Verdict;
use credence_analyze::intervals::MIN_WINDOWS_FOR_DEPENDENCE;

/// One row of the verdict table. `verdict` is the enum's name (`regression`), from which the
/// PDF template picks the colour; `verdict_word` is what the reader sees.
#[derive(Debug, Clone, Serialize)]
pub struct VerdictRow {
    pub metric: String,
    pub base: String,
    pub cand: String,
    pub change: String,
    pub tolerance: String,
    pub verdict: Verdict,
    pub verdict_word: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ComparisonView {
    /// One sentence: regressions, improvements, the other verdicts counted, the credibility.
    pub headline: String,
    /// The verdict the headline leads with, for its colour.
    pub headline_verdict: Verdict,
    pub table_header: [String; 6],
    pub table: Vec<VerdictRow>,
    pub table_note: String,
    pub gates_line: String,
    /// With episodes in either arm: the change in clean conditions beside the change as
    /// measured, in one sentence.
    pub clean_sentence: Option<String>,
    /// The comparison's credibility: grade, gates, replication, what changed.
    pub credibility: String,
    /// One line per arm: its grade and the checks that did not pass.
    pub arms: Vec<String>,
    /// Base and candidate runs, replication and method.
    pub summary: String,
    /// For each inconclusive metric: what more data would decide it.
    pub notes: Vec<String>,
    pub gates: Vec<[String; 3]>,
    pub what_changed: Vec<[String; 3]>,
    /// Measured environment values that differ: context, never the switch.
    pub environment_changed: Vec<[String; 3]>,
}

/// The comparison's view; None when the report has no comparison.
pub fn comparison(r: &Report) -> Option<ComparisonView> {
    let c = r.comparison.as_ref()?;
    let base = r.base_credibility.as_ref().unwrap_or(&r.credibility);
    let table = words::ordered(c)
        .into_iter()
        .map(|(name, m)| VerdictRow {
            metric: words::metric_label(name),
            base: words::arm_cell(name, m, m.base, m.base_ci),
            cand: words::arm_cell(name, m, m.cand, m.cand_ci),
            change: words::change_cell(name, m),
            tolerance: words::tolerance_cell(name, m),
            verdict: m.verdict,
            verdict_word: words::verdict_word(m.verdict).to_string(),
        })
        .collect();
    let notes = words::too_few_groups(c)
        .into_iter()
        .map(|(groups, names)| {
            let labels: Vec<String> = names.iter().map(|n| words::metric_label(n)).collect();
            let (groups, min) = (groups.to_string(), MIN_WINDOWS_FOR_DEPENDENCE.to_string());
            fill(Lang::En, "cmp.note_too_few_groups", &[("metrics", &list(Lang::En, &labels)), ("groups", &groups), ("min", &min)])
        })
        .chain(
            words::ordered(c)
                .into_iter()
                .filter_map(|(name, m)| m.more_data.as_ref().map(|d| format!("{}: to decide, {}", words::metric_label(name), d.advice))),
        )
        .collect();
    let (base_name, cand_name) = words::arm_names();
    Some(ComparisonView {
        headline: c.headline.clone().unwrap_or_else(|| words::headline(c, r.grade(), (base, &r.credibility))),
        headline_verdict: words::lead_verdict(c),
        table_header: words::table_header(),
        table,
        table_note: words::table_note(c),
        gates_line: words::gates_line(c),
        clean_sentence: c.clean.as_ref().and_then(|cl| cl.sentence.clone()),
        credibility: words::credibility_summary(c, r.grade()),
        arms: vec![words::arm_line(base_name, &c.base_runs, base), words::arm_line(cand_name, &c.cand_runs, &r.credibility)],
        summary: format!(
            "{}Base: {}. Candidate: {}. {}. Method: {} with {} resamples, seed {}.",
            if c.valid { "" } else { "INVALID COMPARISON. " },
            c.base_runs.join(", "),
            c.cand_runs.join(", "),
            c.replication,
            c.metrics.values().next().map_or("", |m| m.change.method),
            c.metrics.values().next().map_or(0, |m| m.change.resamples),
            c.metrics.values().next().map_or(0, |m| m.change.seed)
        ),
        notes,
        gates: c.gates.iter().map(|g| [g.name.clone(), g.status.clone(), g.reason.clone()]).collect(),
        what_changed: c.what_changed.iter().map(|d| [d.key.clone(), d.base.clone(), d.cand.clone()]).collect(),
        environment_changed: words::environment_rows(c),
    })
}
