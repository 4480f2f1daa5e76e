//! The report's one input: the analyses, their credibility and the comparison, plus the
//! title and date. Exporters (`Exporter`) read only this value.

use serde::Serialize;

use credence_analyze::Analysis;
use credence_analyze::audit::AuditedFile;
use credence_analyze::compare::Comparison;
use credence_analyze::credibility::{Credibility, Grade, assess};
use credence_analyze::telemetry_audit::TelemetryAudit;
use credence_messages::{Lang, Message};

/// Everything a report shows.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The title in English (the JSON's); `title_message` words credence's default title in
    /// every language, and is absent when the user gave one.
    pub title: String,
    #[serde(skip)]
    pub title_message: Option<Message>,
    /// YYYY-MM-DD: from `--date`, else the day of the first run's first request (never the
    /// wall clock, so the same input gives the same bytes).
    pub date: String,
    pub lang: String,
    pub credence_version: String,
    /// `run` (one or more runs of one configuration), `comparison`, `sweep`, `audit` (summary
    /// statistics only) or `telemetry` (a GPU capture only).
    pub kind: &'static str,
    /// Credibility of the runs (kind `run`) or of the candidate arm (kind `comparison`).
    pub credibility: Credibility,
    /// Credibility of the base arm (kind `comparison`).
    pub base_credibility: Option<Credibility>,
    /// The runs (kind `run`), or the base runs followed by the candidate runs.
    pub runs: Vec<Analysis>,
    pub comparison: Option<Comparison>,
    /// The source tool's claims, checked (`credence audit`).
    pub audit: Option<credence_analyze::audit::Audit>,
    /// A load sweep (`credence bench --sweep`): one run per step, in `runs`.
    pub sweep: Option<Sweep>,
    /// A capacity search (`credence bench --find-capacity`): its steps are the sweep's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<credence_analyze::capacity::Capacity>,
    /// Two capacity searches compared: the base's steps then the candidate's are `runs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity_comparison: Option<credence_analyze::capacity::compare::CapacityComparison>,
    /// A GPU capture audited without request records (kind `telemetry`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub telemetry: Option<TelemetryAudit>,
}

/// A load sweep: the steps in order, each pointing at its run in `Report::runs`.
#[derive(Debug, Clone, Serialize)]
pub struct Sweep {
    /// The swept parameter (`rate`).
    pub parameter: String,
    pub steps: Vec<SweepStep>,
    /// Whether the sweep was stopped before its last planned step.
    pub stopped_early: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct SweepStep {
    /// The offered request rate of the step.
    pub offered_per_s: f64,
    /// Index into `Report::runs`.
    pub run: usize,
    /// The load generator warned that it was near its own limit in this step.
    pub client_limited: bool,
}

/// Civil date (UTC) of an epoch-nanosecond time, by Howard Hinnant's days-from-civil inverse.
pub fn utc_date(epoch_ns: i64) -> String {
    let days = epoch_ns.div_euclid(86_400_000_000_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    format!("{:04}-{:02}-{:02}", if m <= 2 { y + 1 } else { y }, m, d)
}

/// Time of day (UTC) of an epoch-nanosecond time, to the millisecond: `13:30:30.100`.
pub fn utc_time(epoch_ns: i64) -> String {
    let ms = epoch_ns.div_euclid(1_000_000).rem_euclid(86_400_000);
    format!("{:02}:{:02}:{:02}.{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

/// credence's title for runs: the kind of report and the system under test (model, engine).
fn default_title(runs: &[Analysis], comparison: bool) -> Message {
    let first = runs.first();
    let model = first.and_then(|a| a.run.config.model.clone());
    let engine = first.and_then(|a| a.run.config.engine.clone());
    let what = Message::new(if comparison { "view-title_comparison" } else { "view-title_benchmark" });
    let sut = match (model, engine) {
        (Some(model), Some(engine)) => Message::new("view-sut_pair").text("model", model).text("engine", engine),
        (Some(one), None) | (None, Some(one)) => Message::new("as-written").text("text", one),
        (None, None) => return what,
    };
    Message::new("view-title_sut").msg("what", what).msg("sut", sut)
}

/// The title the user gave, else `default` (kept as a message, to be worded in each language).
pub fn titled(title: Option<String>, default: impl FnOnce() -> Message) -> (String, Option<Message>) {
    match title {
        Some(t) => (t, None),
        None => {
            let m = default();
            (m.render(Lang::En), Some(m))
        }
    }
}

/// The default title of an audit of `files`, each a file name and the format it was read as.
pub fn audit_title(files: &[(String, String)]) -> Message {
    let files: Vec<AuditedFile> = files.iter().map(|(file, format)| AuditedFile { file: file.clone(), format: format.clone() }).collect();
    Message::new("view-title_audit_of").msg("source", audited_files(&files))
}

/// "a.json (llmperf), b.json (llmperf-summary)", with each language's brackets and commas.
pub fn audited_files(files: &[AuditedFile]) -> Message {
    let items = files.iter().map(|f| Message::new("view-file_as_format").text("file", f.file.as_str()).text("format", f.format.as_str())).collect();
    Message::new("as-written").list("text", items, credence_messages::Sep::Enumeration)
}

impl Report {
    /// A report on one or more runs of one configuration.
    pub fn for_runs(runs: Vec<Analysis>, title: Option<String>, date: Option<String>) -> Report {
        let credibility = assess(&runs.iter().collect::<Vec<_>>());
        let undated = runs.first().is_none_or(|a| a.run.timestamps != "absolute");
        let (title, title_message) = titled(title, || default_title(&runs, false));
        Report {
            title,
            title_message,
            date: date.unwrap_or_else(|| if undated { "undated".into() } else { utc_date(runs.first().map_or(0, |a| a.timeseries.t0_ns)) }),
            lang: "en".into(),
            credence_version: env!("CARGO_PKG_VERSION").into(),
            kind: "run",
            credibility,
            base_credibility: None,
            runs,
            comparison: None,
            audit: None,
            sweep: None,
            capacity: None,
            capacity_comparison: None,
            telemetry: None,
        }
    }

    /// A load sweep: each step graded on its own; the sweep's grade and statement are its
    /// weakest step's, since the curve is only as trustworthy as its least trustworthy point.
    pub fn for_sweep(runs: Vec<Analysis>, sweep: Sweep, title: Option<String>, date: Option<String>) -> Report {
        let rank = |g: Grade| match g {
            Grade::Low => 0,
            Grade::Medium => 1,
            Grade::High => 2,
        };
        let weakest = sweep.steps.iter().min_by_key(|s| runs.get(s.run).map_or(0, |a| rank(a.credibility.grade)));
        let mut credibility = match weakest.and_then(|s| runs.get(s.run)) {
            Some(a) => a.credibility.clone(),
            None => assess(&[]),
        };
        if let Some(w) = weakest {
            let statement = if credibility.statement_message.is_empty() {
                Message::new("as-written").text("text", credibility.statement.clone())
            } else {
                credibility.statement_message.clone()
            };
            credibility.statement_message =
                Message::new("sweep-statement").int("steps", sweep.steps.len()).text("offered", w.offered_per_s.to_string()).msg("statement", statement);
            credibility.statement = credibility.statement_message.render(Lang::En);
        }
        let mut r = Report::for_runs(runs, title, date);
        r.kind = "sweep";
        r.credibility = credibility;
        r.sweep = Some(sweep);
        r
    }

    /// A capacity search: the sweep of its steps, led by the capacity. Its grade and statement
    /// are those of its weakest step that the server kept up with: an overloaded step is graded
    /// low by design (it has no steady state) and counts only as "beyond" in the search.
    pub fn for_capacity(runs: Vec<Analysis>, capacity: credence_analyze::capacity::Capacity, sweep: Sweep, title: Option<String>, date: Option<String>) -> Report {
        let kept_up: Vec<SweepStep> = sweep.steps.iter().filter(|s| runs.get(s.run).is_none_or(|a| !a.load.as_ref().is_some_and(|l| l.overloaded()))).cloned().collect();
        let graded = Sweep { steps: if kept_up.is_empty() { sweep.steps.clone() } else { kept_up }, ..sweep.clone() };
        let mut r = Report::for_sweep(runs, graded, title, date);
        r.kind = "capacity";
        r.sweep = Some(sweep);
        r.capacity = Some(capacity);
        r
    }

    /// Two capacity searches compared. The grade is the weaker arm's, each arm graded as a
    /// capacity search is (its weakest step that the server kept up with).
    pub fn for_capacity_comparison(runs: Vec<Analysis>, cmp: credence_analyze::capacity::compare::CapacityComparison, title: Option<String>, date: Option<String>) -> Report {
        let kept_up: Vec<Analysis> = runs.iter().filter(|a| !a.load.as_ref().is_some_and(|l| l.overloaded())).cloned().collect();
        let credibility = assess(&kept_up.iter().collect::<Vec<_>>());
        let (title, title_message) = titled(title, || default_title(&runs, true));
        let mut r = Report::for_runs(runs, None, date);
        (r.title, r.title_message) = (title, title_message);
        r.kind = "capacity_comparison";
        r.credibility = credibility;
        r.capacity_comparison = Some(cmp);
        r
    }

    /// An audit of a source with no per-request data: only its claims and facts.
    pub fn for_audit_only(credibility: Credibility, audit: credence_analyze::audit::Audit, (title, title_message): (String, Option<Message>), date: String) -> Report {
        Report {
            title,
            title_message,
            date,
            lang: "en".into(),
            credence_version: env!("CARGO_PKG_VERSION").into(),
            kind: "audit",
            credibility,
            base_credibility: None,
            runs: Vec::new(),
            comparison: None,
            audit: Some(audit),
            sweep: None,
            capacity: None,
            capacity_comparison: None,
            telemetry: None,
        }
    }

    /// An audit of a GPU capture with no request records, with the claims of any summary
    /// file that came with it. Dated by the capture's first sample.
    pub fn for_telemetry(
        credibility: Credibility,
        telemetry: TelemetryAudit,
        claims: Option<credence_analyze::audit::Audit>,
        title: (String, Option<Message>),
        date: Option<String>,
    ) -> Report {
        Report {
            title: title.0,
            title_message: title.1,
            date: date.unwrap_or_else(|| utc_date(telemetry.t0_ns)),
            lang: "en".into(),
            credence_version: env!("CARGO_PKG_VERSION").into(),
            kind: "telemetry",
            credibility,
            base_credibility: None,
            runs: Vec::new(),
            comparison: None,
            audit: claims,
            sweep: None,
            capacity: None,
            capacity_comparison: None,
            telemetry: Some(telemetry),
        }
    }

    /// A report on a comparison of two arms.
    pub fn for_comparison(base: Vec<Analysis>, cand: Vec<Analysis>, comparison: Comparison, title: Option<String>, date: Option<String>) -> Report {
        let base_credibility = assess(&base.iter().collect::<Vec<_>>());
        let credibility = assess(&cand.iter().collect::<Vec<_>>());
        let mut runs = base;
        runs.extend(cand);
        let (title, title_message) = titled(title, || default_title(&runs, true));
        let mut report = Report {
            title,
            title_message,
            date: date.unwrap_or_else(|| utc_date(runs.first().map_or(0, |a| a.timeseries.t0_ns))),
            lang: "en".into(),
            credence_version: env!("CARGO_PKG_VERSION").into(),
            kind: "comparison",
            credibility,
            base_credibility: Some(base_credibility),
            runs,
            comparison: Some(comparison),
            audit: None,
            sweep: None,
            capacity: None,
            capacity_comparison: None,
            telemetry: None,
        };
        // The first sentence every renderer and the JSON show: one source.
        let base = report.base_credibility.as_ref().unwrap_or(&report.credibility);
        let headline = report.comparison.as_ref().map(|c| super::comparison_words::headline(c, report.grade(), (base, &report.credibility)));
        if let Some(c) = report.comparison.as_mut() {
            c.headline = headline.as_ref().map(|m| m.render(credence_messages::Lang::En));
            c.headline_message = headline;
        }
        report
    }

    /// The worse of the arms' grades (the comparison is as credible as its weaker arm).
    pub fn grade(&self) -> Grade {
        match (&self.base_credibility, self.credibility.grade) {
            (Some(b), g) if b.grade == Grade::Low || g == Grade::Low => Grade::Low,
            (Some(b), g) if b.grade == Grade::Medium || g == Grade::Medium => Grade::Medium,
            (_, g) => g,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_epoch() {
        assert_eq!(utc_date(0), "1970-01-01");
        assert_eq!(utc_date(1_780_315_200_000_000_000), "2026-06-01");
        assert_eq!(utc_date(951_782_400_000_000_000), "2000-02-29");
        assert_eq!(utc_date(-86_400_000_000_000), "1969-12-31");
        assert_eq!(utc_time(1_781_184_630_100_000_000), "13:30:30.100");
        assert_eq!(utc_time(-1_000_000), "23:59:59.999");
    }
}
