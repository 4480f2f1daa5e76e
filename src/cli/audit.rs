//! `credence audit PATH...`: imports another tool's output, analyzes it, checks the tool's own
//! claims against it and writes the report.

use std::path::PathBuf;

use crate::analyze::attribute::Telemetry;
use crate::analyze::audit::audit as audit_claims;
use crate::analyze::credibility::aggregate_only;
use crate::analyze::requests::RequestView;
use crate::analyze::{AnalyzeOptions, analyze_view};
use crate::cli::args::{ReportFormat, format_and_paths, import_options};
use crate::cli::io::{check_writable, write_report};
use crate::error::{CliError, ExitCode};
use crate::import::{ImportResult, import};
use crate::report::Report;

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// [FORMAT] PATH...: the tool's output files (per-request and summary files together),
    /// optionally after the format's name as for `import`.
    #[arg(required = true, num_args = 1..)]
    args: Vec<String>,
    /// Output file.
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Pdf)]
    format: ReportFormat,
    /// UTC offset for zone-less local times, e.g. +02:00.
    #[arg(long)]
    tz: Option<String>,
    /// When the first request was sent (RFC 3339, e.g. 2026-11-30T22:27:52.5Z): anchors files
    /// whose times carry no date when nothing else does (inference-perf without its
    /// inference-perf.partial.stage_0.yaml). Marked as assumed in the run.
    #[arg(long)]
    start: Option<String>,
    /// Title (default: from the system under test).
    #[arg(long)]
    title: Option<String>,
    /// Report date, YYYY-MM-DD.
    #[arg(long)]
    date: Option<String>,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 9999)]
    resamples: usize,
    /// Seed of every resampling.
    #[arg(long, default_value_t = 0x00C0_FFEE)]
    seed: u64,
}

pub fn run(a: AuditArgs) -> Result<ExitCode, CliError> {
    check_writable(&a.out)?;
    let (format, paths) = format_and_paths(&a.args)?;
    let opts = import_options(a.tz.as_deref(), a.start.as_deref(), &[])?;
    let result = import(&paths, format, &opts, true)?;
    let source = source_names(&result);
    let report = if result.data.requests.num_rows() > 0 { per_request_audit(&a, &result, &source) } else { aggregate_only_audit(&a, &result, &source) };
    let bytes = write_report(&report, a.format, &a.out)?;
    let au = report.audit.as_ref();
    eprintln!(
        "wrote {} ({} bytes): {} claims, {} reproduced, {} differ",
        a.out.display(),
        bytes,
        au.map_or(0, |x| x.claims.len()),
        au.map_or(0, |x| x.reproduced),
        au.map_or(0, |x| x.differing)
    );
    Ok(ExitCode::Success)
}

/// "file (format), …": how the report names what it audits.
fn source_names(result: &ImportResult) -> String {
    let name = |p: &std::path::Path| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
    result.formats.iter().map(|(p, f)| format!("{} ({})", name(p), f.name())).collect::<Vec<_>>().join(", ")
}

/// Per-request data: the full analysis, with the claims checked against it.
fn per_request_audit(a: &AuditArgs, result: &ImportResult, source: &str) -> Report {
    let d = &result.data;
    let view = RequestView::from_table(&d.requests);
    let opts = AnalyzeOptions { resamples: a.resamples, seed: a.seed, ..AnalyzeOptions::default() };
    let mut analysis = analyze_view(&d.manifest, &view, &Telemetry { gpu: d.gpu.as_ref(), host: None, server: None }, &opts);
    analysis.errors.examples = crate::analyze::rates::error_examples(&d.requests);
    let checked = audit_claims(source, &result.claims, &result.raw, &result.facts, Some(&analysis));
    let mut r = Report::for_runs(vec![analysis], a.title.clone().or_else(|| Some(format!("Audit of {source}"))), a.date.clone());
    r.audit = Some(checked);
    r
}

/// Summary statistics only: the claims and facts can be cross-checked, nothing else.
fn aggregate_only_audit(a: &AuditArgs, result: &ImportResult, source: &str) -> Report {
    let checked = audit_claims(source, &result.claims, &result.raw, &result.facts, None);
    let cred = aggregate_only(source, &checked);
    let title = a.title.clone().unwrap_or_else(|| format!("Audit of {source}"));
    Report::for_audit_only(cred, checked, title, a.date.clone().unwrap_or_else(|| "undated".into()))
}
