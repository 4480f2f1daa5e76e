//! The history as Markdown, for CI logs and pull-request comments: the headline (the verdict
//! that sets the exit code) first, then change points, drift, configuration breaks and the runs.
//! Every number is a field of the `History`; untrusted strings (run ids, configuration words)
//! are escaped.

pub mod chart;
pub mod pdf;

use std::fmt::Write;

use credence_analyze::compare::verdict::Verdict;
use credence_analyze::history::detect::{Drift, DriftVerdict};
use credence_analyze::history::size::ChangePointReport;
use credence_analyze::history::{History, HistoryMetric, HistoryRun, Newest};
use crate::markdown::{md, table_rows};
use credence_run::text::significant;

/// The whole history as Markdown.
pub fn markdown(h: &History) -> String {
    let mut s = String::new();
    let configs = h.configurations.len();
    let cp = &h.methods.change_points;
    let _ = writeln!(s, "{}\n", md(&h.headline));
    let _ = writeln!(
        s,
        "# credence history\n\n{} runs, {configs} configuration{}, ordered by {}. Change points: E-divisive means with a permutation test (significance level {}, {} permutations, seed {}, at least {} runs per segment); drift: Mann–Kendall (Hamed–Rao) with Sen's slope, worse or better only beyond the runs' noise. A run enters a metric's series when its estimate has an interval, whatever its grade (LOW runs are marked ⚠); an estimate without an interval (marked †) is shown but defines no change point.\n",
        h.runs.len(),
        if configs == 1 { "" } else { "s" },
        if h.order == credence_analyze::history::Order::Time { "start time" } else { "the order given" },
        cp.significance_level,
        cp.permutations,
        cp.seed,
        cp.min_segment_runs
    );
    if let Some(n) = &h.newest {
        newest(&mut s, n, h);
    }
    change_points(&mut s, &h.change_points);
    drift(&mut s, &h.drift);
    breaks(&mut s, h);
    configurations(&mut s, h);
    runs(&mut s, h);
    s
}

/// `+10.2 % [+8.1, +12.3]`
pub fn change_text(c: &ChangePointReport) -> String {
    match &c.change {
        Some(x) => format!("{:+.1} % [{:+.1}, {:+.1}]", x.estimate * 100.0, x.ci_low * 100.0, x.ci_high * 100.0),
        None => "n/a".into(),
    }
}

/// A value shown with three significant digits (a percentage for the error rate).
pub fn value_text(m: HistoryMetric, v: f64) -> String {
    if m == HistoryMetric::ErrorRate { format!("{} %", significant(v * 100.0, 3)) } else { significant(v, 3) }
}

pub fn verdict_text(v: Verdict) -> &'static str {
    match v {
        Verdict::Regression => "REGRESSION",
        Verdict::Improvement => "improvement",
        Verdict::Equivalent => "within tolerance",
        Verdict::Inconclusive => "inconclusive",
    }
}

fn newest(s: &mut String, n: &Newest, h: &History) {
    let _ = write!(s, "**Newest run** `{}` (#{}): ", md(&n.run_id), n.index);
    if n.regressions.is_empty() {
        let _ = writeln!(s, "no metric's newest segment is a regression against the one before it.\n");
        return;
    }
    let items: Vec<String> = n
        .regressions
        .iter()
        .filter_map(|m| h.change_points.iter().filter(|c| c.metric == *m && c.fingerprint == n.fingerprint).max_by_key(|c| c.index))
        .map(|c| format!("{} {} since run #{}", c.metric, change_text(c), c.index))
        .collect();
    let _ = writeln!(s, "**regression** in {}.\n", md(&items.join("; ")));
}

fn change_points(s: &mut String, cps: &[ChangePointReport]) {
    if cps.is_empty() {
        let _ = writeln!(s, "## Change points\n\nNone: every series holds only noise at this significance level.\n");
        return;
    }
    let _ = writeln!(
        s,
        "## Change points\n\n| metric | from run | # | before | after | change (95 % CI) | tolerance | verdict | p |\n|---|---|---|---|---|---|---|---|---|"
    );
    let rows: Vec<[String; 9]> = cps
        .iter()
        .map(|c| {
            [
                c.metric.to_string(),
                c.run_id.clone(),
                c.index.to_string(),
                format!("{} ({} runs)", value_text(c.metric, c.before.estimate), c.before.runs),
                format!("{} ({} runs)", value_text(c.metric, c.after.estimate), c.after.runs),
                change_text(c),
                format!("±{:.1} %", c.tolerance * 100.0),
                verdict_text(c.verdict).to_string(),
                format!("{:.3}", c.p_value),
            ]
        })
        .collect();
    table_rows(s, &rows);
    let _ = writeln!(s);
}

/// `+1.02 % per run`
pub fn slope_text(d: &Drift) -> String {
    d.slope_per_run.map_or("n/a".into(), |x| format!("{:+.2} % per run", x * 100.0))
}

fn drift(s: &mut String, drift: &[Drift]) {
    let found: Vec<&Drift> = drift.iter().filter(|d| matches!(d.verdict, DriftVerdict::Drift | DriftVerdict::WithinNoise)).collect();
    if found.is_empty() {
        let few = drift.iter().filter(|d| d.verdict == DriftVerdict::TooFewRuns).count();
        let note = if few > 0 { format!(" ({few} series had too few runs with an interval to test)") } else { String::new() };
        let _ = writeln!(s, "## Drift\n\nNo significant drift{note}.\n");
        return;
    }
    let _ = writeln!(
        s,
        "## Drift\n\n| metric | configuration | runs | slope | over the series | noise | direction | p (Mann–Kendall) |\n|---|---|---|---|---|---|---|---|"
    );
    let rows: Vec<[String; 8]> = found
        .iter()
        .map(|d| {
            [
                d.metric.to_string(),
                d.fingerprint.clone(),
                d.runs.to_string(),
                slope_text(d) + if d.within_segments { " (within segments)" } else { "" },
                d.total_change.map_or("n/a".into(), |x| format!("{:+.1} %", x * 100.0)),
                d.noise.map_or("n/a".into(), |x| format!("±{:.1} %", x * 100.0)),
                drift_direction(d).to_string(),
                d.mann_kendall.map_or("n/a".into(), |mk| format!("{:.2e}", mk.p)),
            ]
        })
        .collect();
    table_rows(s, &rows);
    let _ = writeln!(s);
}

/// `worse`, `better`, or `within noise` for a significant trend smaller than the runs' noise.
pub fn drift_direction(d: &Drift) -> &'static str {
    match d.verdict {
        DriftVerdict::WithinNoise => "within noise",
        _ => d.direction.unwrap_or(""),
    }
}

fn breaks(s: &mut String, h: &History) {
    if h.breaks.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "## Configuration breaks\n\nA new configuration starts a new series; the step is not judged.\n\n| from run | # | from | to |\n|---|---|---|---|"
    );
    let rows: Vec<[String; 4]> = h
        .breaks
        .iter()
        .map(|b| [b.run_id.clone(), b.index.to_string(), format!("{} ({})", b.from, b.from_fingerprint), format!("{} ({})", b.to, b.to_fingerprint)])
        .collect();
    table_rows(s, &rows);
    let _ = writeln!(s);
}

/// One run's cells: position, id, start, fingerprint, grade (LOW marked ⚠), then each metric's
/// estimate (marked † when it has no interval and so stays out of the series).
pub fn run_row(h: &History, r: &HistoryRun) -> Vec<String> {
    let grade = if r.grade == "LOW" { "LOW ⚠".to_string() } else { r.grade.clone() };
    let mut row = vec![r.index.to_string(), r.run_id.clone(), r.start_time.clone().unwrap_or_else(|| "unknown".into()), r.fingerprint.clone(), grade];
    row.extend(h.metrics.iter().map(|m| r.values.get(m).map_or("n/a".into(), |v| value_text(*m, v.estimate) + if v.has_interval() { "" } else { " †" })));
    row
}

fn configurations(s: &mut String, h: &History) {
    let _ = writeln!(s, "## Configurations\n\n| fingerprint | configuration | runs | from # | to # |\n|---|---|---|---|---|");
    let rows: Vec<[String; 5]> = h
        .configurations
        .iter()
        .map(|c| [c.fingerprint.clone(), c.configuration.clone(), c.runs.to_string(), c.first_index.to_string(), c.last_index.to_string()])
        .collect();
    table_rows(s, &rows);
    let _ = writeln!(s);
}

fn runs(s: &mut String, h: &History) {
    let _ = write!(s, "## Runs\n\n| # | run | start | fingerprint | grade |");
    for m in &h.metrics {
        let _ = write!(s, " {m} |");
    }
    let _ = writeln!(s, "\n|{}", "---|".repeat(5 + h.metrics.len()));
    for r in &h.runs {
        let row = run_row(h, r);
        let _ = writeln!(s, "| {} |", row.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | "));
    }
}
