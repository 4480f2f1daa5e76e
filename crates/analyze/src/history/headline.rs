//! The first sentence of every history output: the verdict that sets the exit code, with its
//! numbers (the newest segment's regressions, the drifts beyond tolerance, or what was found
//! instead), and the exit code `--fail-on` gives.

use super::detect::{Drift, DriftVerdict};
use super::size::ChangePointReport;
use super::{FailOn, HistoryMetric, HistoryOptions, Newest};
use crate::compare::verdict::Verdict;
use credence_run::text::significant;

/// Whether `d` is a drift for the worse whose size over the series exceeds the tolerance.
pub fn drifts_beyond_tolerance(d: &Drift, o: &HistoryOptions) -> bool {
    d.verdict == DriftVerdict::Drift && d.direction == Some("worse") && d.total_change.is_some_and(|t| t.abs() > o.tolerance_for(d.metric))
}

fn pct(x: f64) -> String {
    format!("{:+.1} %", x * 100.0)
}

fn level(m: HistoryMetric, v: f64) -> String {
    if m == HistoryMetric::ErrorRate { format!("{} %", significant(v * 100.0, 3)) } else { format!("{} {}", significant(v, 3), m.unit()) }
}

/// `ttft_p50 +15.2 % [+12.0 %, +18.5 %] since run #12 (seed-512), 31.1 → 35.9 ms`
fn change_words(c: &ChangePointReport) -> String {
    let size = c.change.as_ref().map_or("size n/a".to_string(), |x| format!("{} [{}, {}]", pct(x.estimate), pct(x.ci_low), pct(x.ci_high)));
    format!("{} {size} since run #{} ({}), {} → {}", c.metric, c.index, c.run_id, level(c.metric, c.before.estimate), level(c.metric, c.after.estimate))
}

/// `ttft_p50 +10.4 % over 30 runs (+0.33 % per run)`
fn drift_words(d: &Drift) -> String {
    format!("{} {} over {} runs ({:+.2} % per run)", d.metric, pct(d.total_change.unwrap_or(0.0)), d.runs, d.slope_per_run.unwrap_or(0.0) * 100.0)
}

/// The newest change point of `m` in the newest configuration.
fn newest_change<'a>(cps: &'a [ChangePointReport], n: &Newest, m: HistoryMetric) -> Option<&'a ChangePointReport> {
    cps.iter().filter(|c| c.metric == m && c.fingerprint == n.fingerprint).max_by_key(|c| c.index)
}

/// The headline of a history of `runs` runs.
pub fn headline(runs: usize, newest: Option<&Newest>, cps: &[ChangePointReport], drift: &[Drift], o: &HistoryOptions) -> String {
    let Some(n) = newest else { return "No runs: nothing to judge.".into() };
    let tol = |m: HistoryMetric| format!("±{:.1} %", o.tolerance_for(m) * 100.0);
    let mut parts = Vec::new();
    let regressions: Vec<String> =
        n.regressions.iter().filter_map(|&m| newest_change(cps, n, m)).map(|c| format!("{} beyond {}", change_words(c), tol(c.metric))).collect();
    if !regressions.is_empty() {
        parts.push(format!("Regression in the newest segment: {}", regressions.join("; ")));
    }
    let drifts: Vec<String> = drift
        .iter()
        .filter(|d| d.fingerprint == n.fingerprint && n.drifts.contains(&d.metric))
        .map(|d| format!("{} beyond {}", drift_words(d), tol(d.metric)))
        .collect();
    if !drifts.is_empty() {
        parts.push(format!("{} worse beyond tolerance: {}", if parts.is_empty() { "Drift" } else { "drift" }, drifts.join("; ")));
    }
    if parts.is_empty() {
        parts.push(quiet(runs, n, cps, o));
    }
    if !o.fail_on.is_empty() {
        let asked: Vec<&str> = o.fail_on.iter().map(|f| if *f == FailOn::Regression { "regression" } else { "drift" }).collect();
        let failed = (o.fail_on.contains(&FailOn::Regression) && !n.regressions.is_empty()) || (o.fail_on.contains(&FailOn::Drift) && !n.drifts.is_empty());
        parts.push(format!("exit {} (--fail-on {})", if failed { 3 } else { 0 }, asked.join(",")));
    }
    parts.join("; ") + "."
}

/// No regression and no drift beyond tolerance: the newest change of each metric that has one,
/// with its verdict, and how many metrics have none.
fn quiet(runs: usize, n: &Newest, cps: &[ChangePointReport], o: &HistoryOptions) -> String {
    let changes: Vec<String> =
        o.metrics.iter().filter_map(|&m| newest_change(cps, n, m)).map(|c| format!("{} ({})", change_words(c), verdict_word(c.verdict))).collect();
    let without = o.metrics.len() - changes.len();
    let mut s = String::from("No regression in the newest segment and no drift beyond tolerance");
    if changes.is_empty() {
        s += &format!(": no change point in {runs} runs of {} metric{}", without, if without == 1 { "" } else { "s" });
    } else {
        s += &format!(": newest change {}", changes.join("; "));
        if without > 0 {
            s += &format!("; {without} other metric{} without a change point in {runs} runs", if without == 1 { "" } else { "s" });
        }
    }
    s
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Regression => "regression",
        Verdict::Improvement => "improvement",
        Verdict::Equivalent => "within tolerance",
        Verdict::Inconclusive => "inconclusive",
    }
}
