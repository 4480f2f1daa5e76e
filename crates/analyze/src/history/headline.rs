//! The first sentence of every history output: the verdict that sets the exit code, with its
//! numbers (the newest segment's regressions, the drifts beyond tolerance, or what was found
//! instead), and the exit code `--fail-on` gives.

use super::detect::{Drift, DriftVerdict};
use super::size::ChangePointReport;
use super::{FailOn, HistoryMetric, HistoryOptions, Newest};
use crate::compare::verdict::Verdict;
use credence_messages::{Message, Sep, metric_label};
use credence_run::text::significant;

/// Whether `d` is a drift for the worse whose size over the series exceeds the tolerance.
pub fn drifts_beyond_tolerance(d: &Drift, o: &HistoryOptions) -> bool {
    d.verdict == DriftVerdict::Drift && d.direction == Some("worse") && d.total_change.is_some_and(|t| t.abs() > o.tolerance_for(d.metric))
}

/// `+15.2` (the catalog adds the `%`).
fn pct(x: f64) -> String {
    format!("{:+.1}", x * 100.0)
}

fn level(m: HistoryMetric, v: f64) -> Message {
    let (value, unit) = match m {
        HistoryMetric::ErrorRate => (significant(v * 100.0, 3), "percent"),
        HistoryMetric::OutputTokensPerS => (significant(v, 3), "tokens_per_s"),
        HistoryMetric::RequestsPerS => (significant(v, 3), "requests_per_s"),
        _ => (significant(v, 3), "ms"),
    };
    Message::new("history-level").text("value", value).text("unit", unit)
}

/// A message about metric `m`: its identifier and its name as a reader says it.
fn about(id: &str, m: HistoryMetric) -> Message {
    Message::new(id).msg("metric", metric_label(m.name()))
}

/// `ttft_p50 +15.2 % [+12.0 %, +18.5 %] since run #12 (seed-512), 31.1 → 35.9 ms`
fn change_words(c: &ChangePointReport) -> Message {
    let size = c.change.as_ref().map_or(Message::new("history-size-unknown"), |x| {
        Message::new("history-size").text("estimate", pct(x.estimate)).text("low", pct(x.ci_low)).text("high", pct(x.ci_high))
    });
    about("history-change", c.metric)
        .msg("size", size)
        .int("index", c.index)
        .text("run", c.run_id.clone())
        .msg("before", level(c.metric, c.before.estimate))
        .msg("after", level(c.metric, c.after.estimate))
}

/// `ttft_p50 +10.4 % over 30 runs (+0.33 % per run)`
fn drift_words(d: &Drift) -> Message {
    about("history-drift", d.metric)
        .text("total", pct(d.total_change.unwrap_or(0.0)))
        .int("runs", d.runs)
        .text("slope", format!("{:+.2}", d.slope_per_run.unwrap_or(0.0) * 100.0))
}

/// The newest change point of `m` in the newest configuration.
fn newest_change<'a>(cps: &'a [ChangePointReport], n: &Newest, m: HistoryMetric) -> Option<&'a ChangePointReport> {
    cps.iter().filter(|c| c.metric == m && c.fingerprint == n.fingerprint).max_by_key(|c| c.index)
}

/// The headline of a history of `runs` runs.
pub fn headline(runs: usize, newest: Option<&Newest>, cps: &[ChangePointReport], drift: &[Drift], o: &HistoryOptions) -> Message {
    let Some(n) = newest else { return Message::new("history-no-runs") };
    let beyond = |what: Message, m: HistoryMetric| Message::new("history-beyond").msg("what", what).num("tolerance", o.tolerance_for(m) * 100.0, 1);
    let mut parts = Vec::new();
    let regressions: Vec<Message> = n.regressions.iter().filter_map(|&m| newest_change(cps, n, m)).map(|c| beyond(change_words(c), c.metric)).collect();
    if !regressions.is_empty() {
        parts.push(Message::new("history-regressions").list("items", regressions, Sep::Semicolon));
    }
    let drifts: Vec<Message> =
        drift.iter().filter(|d| d.fingerprint == n.fingerprint && n.drifts.contains(&d.metric)).map(|d| beyond(drift_words(d), d.metric)).collect();
    if !drifts.is_empty() {
        let first = if parts.is_empty() { "yes" } else { "no" };
        parts.push(Message::new("history-drifts").text("first", first).list("items", drifts, Sep::Semicolon));
    }
    if parts.is_empty() {
        parts.push(quiet(runs, n, cps, o));
    }
    if !o.fail_on.is_empty() {
        let asked: Vec<&str> = o.fail_on.iter().map(|f| if *f == FailOn::Regression { "regression" } else { "drift" }).collect();
        let failed = (o.fail_on.contains(&FailOn::Regression) && !n.regressions.is_empty()) || (o.fail_on.contains(&FailOn::Drift) && !n.drifts.is_empty());
        parts.push(Message::new("history-exit").int("code", if failed { 3 } else { 0 }).text("asked", asked.join(",")));
    }
    Message::new("history-headline").list("parts", parts, Sep::Semicolon)
}

/// No regression and no drift beyond tolerance: the newest change of each metric that has one,
/// with its verdict, and how many metrics have none.
fn quiet(runs: usize, n: &Newest, cps: &[ChangePointReport], o: &HistoryOptions) -> Message {
    let changes: Vec<Message> = o
        .metrics
        .iter()
        .filter_map(|&m| newest_change(cps, n, m))
        .map(|c| Message::new("history-change-verdict").msg("change", change_words(c)).msg("verdict", verdict_word(c.verdict)))
        .collect();
    let without = o.metrics.len() - changes.len();
    if changes.is_empty() {
        return Message::new("history-quiet-none").int("runs", runs).int("metrics", without);
    }
    Message::new("history-quiet-changes").list("changes", changes, Sep::Semicolon).int("without", without).int("runs", runs)
}

/// The verdict as the history says it: `within tolerance` for equivalent.
pub fn verdict_word(v: Verdict) -> Message {
    let key = match v {
        Verdict::Regression => "regression",
        Verdict::Improvement => "improvement",
        Verdict::Equivalent => "equivalent",
        Verdict::Inconclusive => "inconclusive",
    };
    Message::new("history-verdict").text("verdict", key)
}
