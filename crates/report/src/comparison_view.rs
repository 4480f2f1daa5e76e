//! A comparison's content for the renderers, verdict first: the headline sentence, the verdict
//! table, the gates in one line and the credibility summary; then the details (method, every
//! gate, what would decide, what changed), in the report's language. The sentences are
//! `comparison_words`' messages.

use serde::Serialize;

use super::comparison_words as words;
use super::document::Report;
use credence_analyze::compare::verdict::Verdict;
use credence_messages::{Lang, Message};

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
    /// Per LoRA adapter both arms served: adapter, metric, base, candidate, change [95 %],
    /// verdict; empty without adapters.
    pub by_adapter: Vec<[String; 6]>,
    /// The seed and method of the by-adapter intervals.
    pub by_adapter_note: String,
}

/// The comparison's view in `lang`; None when the report has no comparison.
pub fn comparison(r: &Report, lang: Lang) -> Option<ComparisonView> {
    use credence_analyze::compare::adapters::ADAPTER_METHOD;
    let c = r.comparison.as_ref()?;
    let base = r.base_credibility.as_ref().unwrap_or(&r.credibility);
    let say = |m: Message| m.render(lang);
    let table = words::ordered(c)
        .into_iter()
        .map(|(name, m)| VerdictRow {
            metric: say(words::metric_label(name)),
            base: words::arm_cell(name, m, m.base, m.base_ci, lang),
            cand: words::arm_cell(name, m, m.cand, m.cand_ci, lang),
            change: words::change_cell(name, m),
            tolerance: words::tolerance_cell(name, m),
            verdict: m.verdict,
            verdict_word: say(words::verdict_word(m.verdict)),
        })
        .collect();
    // The headline the JSON carries, so that every renderer shows the sentence that set the
    // exit code; rebuilt only for a comparison that has none.
    let headline = c.headline_message.clone().unwrap_or_else(|| words::headline(c, r.grade(), (base, &r.credibility)));
    let sentence = |cl: &credence_analyze::compare::clean::CleanComparison| match lang {
        Lang::En => cl.sentence.clone(),
        _ => cl.sentence_message.as_ref().map(|m| m.render(lang)),
    };
    Some(ComparisonView {
        headline: say(headline),
        headline_verdict: words::lead_verdict(c),
        table_header: words::table_header().map(say),
        table,
        table_note: say(words::table_note(c)),
        gates_line: say(words::gates_line(c)),
        clean_sentence: c.clean.as_ref().and_then(sentence),
        credibility: say(words::credibility_summary(c, r.grade())),
        arms: vec![say(words::arm_line("base", &c.base_runs, base)), say(words::arm_line("cand", &c.cand_runs, &r.credibility))],
        summary: say(words::details(c)),
        notes: words::notes(c).into_iter().map(say).collect(),
        gates: c.gates.iter().map(|g| [g.name.clone(), g.status.clone(), say(g.message.clone())]).collect(),
        what_changed: c.what_changed.iter().map(|d| [d.key.clone(), say(words::manifest_value(&d.base)), say(words::manifest_value(&d.cand))]).collect(),
        environment_changed: words::environment_rows(c),
        by_adapter: adapter_rows(c, lang),
        by_adapter_note: adapter_seed(c).map_or_else(String::new, |seed| say(Message::new("compare-by-adapter-note").msg("method", Message::new("method-name").text("method", ADAPTER_METHOD)).int("seed", seed))),
    })
}

/// The seed of the by-adapter intervals; None when no adapter's change has one.
fn adapter_seed(c: &credence_analyze::compare::Comparison) -> Option<u64> {
    c.adapters.iter().flat_map(|a| [&a.ttft_p50, &a.tpot_p50]).find_map(|x| x.as_ref().map(|x| x.seed))
}

/// Each adapter's P50 TTFT and P50 TPOT rows: the arms' medians, the change with its
/// interval and the verdict; a median without an interval in any run gives no change.
fn adapter_rows(c: &credence_analyze::compare::Comparison, lang: Lang) -> Vec<[String; 6]> {
    let mut rows = Vec::new();
    for a in &c.adapters {
        for (metric, change) in [("ttft_p50", &a.ttft_p50), ("tpot_p50", &a.tpot_p50)] {
            let label = words::metric_label(metric).render(lang);
            let row = match change {
                Some(x) => [
                    a.adapter.clone(),
                    label,
                    // A mean of medians: three significant digits, as the change's interval allows.
                    format!("{} ms", crate::format::significant(x.base, 3)),
                    format!("{} ms", crate::format::significant(x.cand, 3)),
                    format!("{} [{}, {}]", words::change_value(metric, x.change), words::change_value(metric, x.ci_low), words::change_value(metric, x.ci_high)),
                    words::verdict_word(x.verdict).render(lang),
                ],
                None => {
                    let na = crate::format::not_available(lang);
                    [a.adapter.clone(), label, na.clone(), na.clone(), na, Message::new("compare-by-adapter-no-interval").render(lang)]
                }
            };
            rows.push(row);
        }
    }
    rows
}
