//! The history as Markdown, for CI logs and pull-request comments: the headline (the verdict
//! that sets the exit code) first, then change points, drift, configuration breaks and the runs.
//! Every number is a field of the `History`; every word is a message of `locales/*/history.ftl`,
//! in the language asked for; untrusted strings (run ids, configuration words) are escaped.

pub mod chart;
pub mod pdf;

use std::fmt::Write;

use credence_analyze::compare::verdict::Verdict;
use credence_analyze::history::detect::{Drift, DriftVerdict};
use credence_analyze::history::size::ChangePointReport;
use credence_analyze::history::{History, HistoryMetric, HistoryRun, Newest, Order};
use credence_messages::{Lang, Message, Sep};
use crate::markdown::{md, table_rows};
use credence_run::text::significant;

/// The words of one language: `w("history-h-drift")`.
pub(crate) struct Words(pub Lang);

impl Words {
    pub fn say(&self, m: &Message) -> String {
        m.render(self.0)
    }

    pub fn w(&self, id: &str) -> String {
        Message::new(id).render(self.0)
    }

    /// Column headers, one message id each.
    pub fn columns<const N: usize>(&self, ids: [&str; N]) -> [String; N] {
        ids.map(|id| self.w(id))
    }

    pub fn na(&self) -> String {
        self.w("history-na")
    }
}

/// The whole history as Markdown in `lang`.
pub fn markdown(h: &History, lang: Lang) -> String {
    let w = Words(lang);
    let mut s = String::new();
    let _ = writeln!(s, "{}\n", md(&w.say(&h.headline_message)));
    let _ = writeln!(s, "# {}\n\n{}\n", w.w("history-title"), w.say(&intro(h)));
    if let Some(n) = &h.newest {
        newest(&mut s, n, h, &w);
    }
    change_points(&mut s, &h.change_points, &w);
    drift(&mut s, &h.drift, &w);
    breaks(&mut s, h, &w);
    configurations(&mut s, h, &w);
    runs(&mut s, h, &w);
    s
}

fn intro(h: &History) -> Message {
    let cp = &h.methods.change_points;
    Message::new("history-intro")
        .int("runs", h.runs.len())
        .int("configs", h.configurations.len())
        .text("order", if h.order == Order::Time { "time" } else { "given" })
        .text("significance", cp.significance_level.to_string())
        .int("permutations", cp.permutations)
        .int("seed", cp.seed)
        .int("min_runs", cp.min_segment_runs)
}

/// A Markdown table: its header row, its rule, then its rows.
fn table<const N: usize>(s: &mut String, header: [String; N], rows: &[[String; N]]) {
    let _ = writeln!(s, "| {} |\n|{}", header.join(" | "), "---|".repeat(N));
    table_rows(s, rows);
    let _ = writeln!(s);
}

/// `+10.2 % [+8.1, +12.3]`
pub(crate) fn change_text(c: &ChangePointReport, w: &Words) -> String {
    match &c.change {
        Some(x) => format!("{:+.1} % [{:+.1}, {:+.1}]", x.estimate * 100.0, x.ci_low * 100.0, x.ci_high * 100.0),
        None => w.na(),
    }
}

/// A value shown with three significant digits (a percentage for the error rate).
pub fn value_text(m: HistoryMetric, v: f64) -> String {
    if m == HistoryMetric::ErrorRate { format!("{} %", significant(v * 100.0, 3)) } else { significant(v, 3) }
}

/// The verdict in a table cell (a regression in capitals).
pub(crate) fn verdict_text(v: Verdict, w: &Words) -> String {
    let key = match v {
        Verdict::Regression => "regression",
        Verdict::Improvement => "improvement",
        Verdict::Equivalent => "equivalent",
        Verdict::Inconclusive => "inconclusive",
    };
    w.say(&Message::new("history-table-verdict").text("verdict", key))
}

fn newest(s: &mut String, n: &Newest, h: &History, w: &Words) {
    let run = Message::new("history-newest-run").text("run", format!("`{}`", md(&n.run_id))).int("index", n.index);
    let _ = write!(s, "**{}** {}", w.w("history-newest-label"), w.say(&run));
    if n.regressions.is_empty() {
        let _ = writeln!(s, "{}\n", w.w("history-newest-quiet"));
        return;
    }
    let items: Vec<Message> = n
        .regressions
        .iter()
        .filter_map(|m| h.change_points.iter().filter(|c| c.metric == *m && c.fingerprint == n.fingerprint).max_by_key(|c| c.index))
        .map(|c| {
            Message::new("history-since")
                                .msg("metric", credence_messages::metric_label(c.metric.name()))
                .text("change", change_text(c, w))
                .int("index", c.index)
        })
        .collect();
    let items = w.say(&Message::new("history-newest-items").list("items", items, Sep::Semicolon));
    let _ = writeln!(s, "**{}** {}\n", w.w("history-newest-regression"), md(&items));
}

fn change_points(s: &mut String, cps: &[ChangePointReport], w: &Words) {
    let _ = write!(s, "## {}\n\n", w.w("history-h-change-points"));
    if cps.is_empty() {
        let _ = writeln!(s, "{}\n", w.w("history-no-change-points"));
        return;
    }
    let header = w.columns([
        "history-col-metric",
        "history-col-from-run",
        "history-col-index",
        "history-col-before",
        "history-col-after",
        "history-col-change",
        "history-col-tolerance",
        "history-col-verdict",
        "history-col-p",
    ]);
    let runs = |v: String, n: usize| w.say(&Message::new("history-runs-count").text("value", v).int("runs", n));
    let rows: Vec<[String; 9]> = cps
        .iter()
        .map(|c| {
            [
                c.metric.to_string(),
                c.run_id.clone(),
                c.index.to_string(),
                runs(value_text(c.metric, c.before.estimate), c.before.runs),
                runs(value_text(c.metric, c.after.estimate), c.after.runs),
                change_text(c, w),
                format!("±{:.1} %", c.tolerance * 100.0),
                verdict_text(c.verdict, w),
                format!("{:.3}", c.p_value),
            ]
        })
        .collect();
    table(s, header, &rows);
}

/// `+1.02 % per run`
pub(crate) fn slope_text(d: &Drift, w: &Words) -> String {
    d.slope_per_run.map_or(w.na(), |x| w.say(&Message::new("history-per-run").text("slope", format!("{:+.2}", x * 100.0))))
}

/// The drifts the tables list: significant trends, beyond the runs' noise or within it.
pub(crate) fn shown(drift: &[Drift]) -> Vec<&Drift> {
    drift.iter().filter(|d| matches!(d.verdict, DriftVerdict::Drift | DriftVerdict::WithinNoise)).collect()
}

fn drift(s: &mut String, drift: &[Drift], w: &Words) {
    let _ = write!(s, "## {}\n\n", w.w("history-h-drift"));
    let found = shown(drift);
    if found.is_empty() {
        let few = drift.iter().filter(|d| d.verdict == DriftVerdict::TooFewRuns).count();
        let _ = writeln!(s, "{}\n", w.say(&Message::new("history-no-drift").int("few", few)));
        return;
    }
    let header = w.columns([
        "history-col-metric",
        "history-col-configuration",
        "history-col-runs",
        "history-col-slope",
        "history-col-over-series",
        "history-col-noise",
        "history-col-direction",
        "history-col-p-mk",
    ]);
    let rows: Vec<[String; 8]> = found
        .iter()
        .map(|d| {
            let slope = slope_text(d, w);
            [
                d.metric.to_string(),
                d.fingerprint.clone(),
                d.runs.to_string(),
                if d.within_segments { w.say(&Message::new("history-within-segments").text("slope", slope)) } else { slope },
                d.total_change.map_or(w.na(), |x| format!("{:+.1} %", x * 100.0)),
                d.noise.map_or(w.na(), |x| format!("±{:.1} %", x * 100.0)),
                drift_direction(d, w),
                mann_kendall_p(d, w),
            ]
        })
        .collect();
    table(s, header, &rows);
}

pub(crate) fn mann_kendall_p(d: &Drift, w: &Words) -> String {
    d.mann_kendall.map_or(w.na(), |mk| format!("{:.2e}", mk.p))
}

/// `worse`, `better`, or `within noise` for a significant trend smaller than the runs' noise.
pub(crate) fn drift_direction(d: &Drift, w: &Words) -> String {
    let key = match d.verdict {
        DriftVerdict::WithinNoise => "within_noise",
        _ => d.direction.unwrap_or(""),
    };
    w.say(&Message::new("history-direction").text("direction", key))
}

fn breaks(s: &mut String, h: &History, w: &Words) {
    if h.breaks.is_empty() {
        return;
    }
    let _ = write!(s, "## {}\n\n{}\n\n", w.w("history-h-breaks"), w.w("history-breaks-note"));
    let header = w.columns(["history-col-from-run", "history-col-index", "history-col-from", "history-col-to"]);
    let rows: Vec<[String; 4]> = h
        .breaks
        .iter()
        .map(|b| [b.run_id.clone(), b.index.to_string(), format!("{} ({})", b.from, b.from_fingerprint), format!("{} ({})", b.to, b.to_fingerprint)])
        .collect();
    table(s, header, &rows);
}

/// One run's cells: position, id, start, fingerprint, grade (LOW marked ⚠), then each metric's
/// estimate (marked † when it has no interval and so stays out of the series).
pub(crate) fn run_row(h: &History, r: &HistoryRun, w: &Words) -> Vec<String> {
    let word = w.say(&Message::new("grade").text("grade", r.grade.as_str()));
    let grade = if r.grade == "LOW" { format!("{word} ⚠") } else { word };
    let start = r.start_time.clone().unwrap_or_else(|| w.w("history-unknown"));
    let mut row = vec![r.index.to_string(), r.run_id.clone(), start, r.fingerprint.clone(), grade];
    row.extend(h.metrics.iter().map(|m| r.values.get(m).map_or(w.na(), |v| value_text(*m, v.estimate) + if v.has_interval() { "" } else { " †" })));
    row
}

/// The runs table's header: position, run, start, configuration, grade, then the metrics.
pub(crate) fn run_header(h: &History, w: &Words, configuration: &str) -> Vec<String> {
    let mut header: Vec<String> = ["history-col-index", "history-col-run", "history-col-start", configuration, "history-col-grade"].map(|id| w.w(id)).into();
    header.extend(h.metrics.iter().map(|m| w.say(&credence_messages::metric_label(m.name()))));
    header
}

fn configurations(s: &mut String, h: &History, w: &Words) {
    let _ = write!(s, "## {}\n\n", w.w("history-h-configurations"));
    let header =
        w.columns(["history-col-fingerprint", "history-col-configuration", "history-col-runs", "history-col-from-index", "history-col-to-index"]);
    let rows: Vec<[String; 5]> = h
        .configurations
        .iter()
        .map(|c| [c.fingerprint.clone(), c.configuration.clone(), c.runs.to_string(), c.first_index.to_string(), c.last_index.to_string()])
        .collect();
    table(s, header, &rows);
}

fn runs(s: &mut String, h: &History, w: &Words) {
    let header = run_header(h, w, "history-col-fingerprint");
    let _ = write!(s, "## {}\n\n| {} |\n|{}\n", w.w("history-h-runs"), header.join(" | "), "---|".repeat(header.len()));
    for r in &h.runs {
        let row = run_row(h, r, w);
        let _ = writeln!(s, "| {} |", row.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | "));
    }
}
