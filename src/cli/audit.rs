//! `credence audit PATH...`: imports another tool's output (files or its output folder), analyzes it, checks the tool's own
//! claims against it and writes the report. Three paths, by what the files hold: per-request
//! data (the full analysis), a GPU capture alone (the telemetry audit) or summary statistics
//! alone (the claims cross-checked).

use std::path::PathBuf;

use crate::analyze::attribute::Telemetry;
use crate::analyze::audit::audit as audit_claims;
use crate::analyze::credibility::{aggregate_only, telemetry_only};
use crate::analyze::requests::RequestView;
use crate::analyze::telemetry_audit::load::LoadState;
use crate::analyze::telemetry_audit::telemetry_audit;
use crate::analyze::{AnalyzeOptions, analyze_view};
use crate::cli::args::{ReportFormat, format_and_paths, import_options, parse_lang};
use crate::cli::io::{check_writable, print_skipped, write_report_in};
use crate::error::{CliError, ExitCode};
use crate::import::folder::gather;
use crate::import::{ImportResult, import_run, several_runs};
use crate::report::Report;
use crate::report::document::{audit_title, titled};
use crate::run::Table;
use credence_messages::{Message, Sep};

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// [FORMAT] PATH...: the tool's output files (per-request and summary files together),
    /// optionally after the format's name as for `import`.
    #[arg(required = true, num_args = 1..)]
    args: Vec<String>,
    /// Output file.
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    /// Output format (default: from the name of -o: .md, .json, .html; else PDF).
    #[arg(long, value_enum)]
    format: Option<ReportFormat>,
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
    /// Report language of the PDF and Markdown: en, zh, or auto (from LC_ALL, LC_MESSAGES or
    /// LANG). The JSON is the same in every language.
    #[arg(long, default_value = "en")]
    lang: String,
    /// Service-level objectives, e.g. ttft_p99=500ms: judged on the run as `report --slo` does,
    /// and the tool's goodput claim (vLLM's --goodput) set beside credence's goodput.
    #[arg(long, value_name = "SPEC")]
    slo: Option<String>,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 9999)]
    resamples: usize,
    /// Seed of every resampling.
    #[arg(long, default_value_t = 0x00C0_FFEE)]
    seed: u64,
}

pub fn run(a: AuditArgs) -> Result<ExitCode, CliError> {
    let lang = parse_lang(&a.lang)?;
    check_writable(&a.out)?;
    let slo = crate::cli::args::slo_flag(a.slo.as_deref())?;
    let (format, paths) = format_and_paths(&a.args)?;
    let opts = import_options(a.tz.as_deref(), a.start.as_deref(), &[])?;
    let mut gathered = gather(&paths, format)?;
    print_skipped(&gathered.skipped, lang);
    if gathered.runs.len() > 1 {
        return Err(several_runs(&paths[0], &gathered.runs).into());
    }
    let result = import_run(gathered.runs.remove(0), &opts, true)?;
    let files = source_files(&result);
    let report = if result.data.requests.num_rows() > 0 {
        per_request_audit(&a, &result, &files, slo)
    } else if let Some(gpu) = &result.data.gpu {
        telemetry_only_audit(&a, &result, &files, gpu)?
    } else {
        aggregate_only_audit(&a, &result, &files)?
    };
    let bytes = write_report_in(&report, ReportFormat::of(a.format, &a.out), lang, &a.out)?;
    let wrote = Message::new("cli-wrote-audit").text("path", a.out.display().to_string()).int("bytes", bytes).msg("outcome", outcome(&report));
    eprintln!("{}", wrote.render(lang));
    Ok(ExitCode::Success)
}

/// What the audit found, in one line for the terminal.
fn outcome(report: &Report) -> Message {
    let claims = report
        .audit
        .as_ref()
        .map(|x| Message::new("cli-audit-claims").int("claims", x.claims.len()).int("reproduced", x.reproduced).int("differ", x.differing));
    let Some(t) = &report.telemetry else { return claims.unwrap_or_else(|| Message::new("empty")) };
    let loaded = t.gpus_in(LoadState::Loaded).count();
    let telemetry = Message::new("cli-audit-telemetry")
        .int("gpus", t.gpus.len())
        .int("loaded", loaded)
        .int("aside", t.gpus.len() - loaded)
        .int("episodes", t.episodes.len());
    Message::new("as-written").list("text", [Some(telemetry), claims].into_iter().flatten().collect(), Sep::Semicolon)
}

/// Each file audited, by name, with the format it was read as.
fn source_files(result: &ImportResult) -> Vec<(String, String)> {
    let name = |p: &std::path::Path| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
    result.formats.iter().map(|(p, f)| (name(p), f.name().to_string())).collect()
}

/// "file (format), …": how the errors name what was audited (the report words it in its
/// language).
fn source_names(files: &[(String, String)]) -> String {
    crate::analyze::audit::source_line(files)
}

/// Per-request data: the full analysis, with the claims checked against it.
fn per_request_audit(a: &AuditArgs, result: &ImportResult, files: &[(String, String)], slo: Vec<crate::analyze::slo::ObjectiveSpec>) -> Report {
    let d = &result.data;
    let view = RequestView::from_table(&d.requests);
    let extra_percentiles = crate::analyze::audit::claimed_percentiles(&result.claims);
    let opts = AnalyzeOptions { resamples: a.resamples, seed: a.seed, extra_percentiles, slo, ..AnalyzeOptions::default() };
    let mut analysis = analyze_view(&d.manifest, &view, &Telemetry { gpu: d.gpu.as_ref(), host: None, server: None }, &opts);
    analysis.errors.examples = crate::analyze::rates::error_examples(&d.requests);
    let checked = audit_claims(files, &result.claims, &result.raw, &result.facts, Some(&analysis));
    let mut r = Report::for_runs(vec![analysis], None, a.date.clone());
    (r.title, r.title_message) = titled(a.title.clone(), || audit_title(files));
    r.audit = Some(checked);
    r
}

/// Summary statistics only: the claims and facts can be cross-checked, nothing else.
fn aggregate_only_audit(a: &AuditArgs, result: &ImportResult, files: &[(String, String)]) -> Result<Report, CliError> {
    let source = &source_names(files);
    if result.claims.is_empty() && result.facts.is_empty() {
        return Err(CliError::bad_input(format!("{source}: nothing to audit: no request, no summary number and no GPU sample was found"))
            .hint("check that the files are complete (a telemetry capture needs at least one data line after its header)"));
    }
    let checked = audit_claims(files, &result.claims, &result.raw, &result.facts, None);
    let cred = aggregate_only(source, &checked);
    let title = titled(a.title.clone(), || audit_title(files));
    Ok(Report::for_audit_only(cred, checked, title, a.date.clone().unwrap_or_else(|| "undated".into())))
}

/// A GPU capture with no request records: the GPUs' clocks, throttling and load, and any
/// summary file's claims cross-checked; every request-based check is NOT_CHECKED.
fn telemetry_only_audit(a: &AuditArgs, result: &ImportResult, files: &[(String, String)], gpu: &Table) -> Result<Report, CliError> {
    let source = &source_names(files);
    let source_files = result.data.manifest.source.files.clone();
    let t = telemetry_audit(gpu, source, source_files).ok_or_else(|| CliError::bad_input(format!("{source}: the GPU samples carry no time")))?;
    let claims = (!result.claims.is_empty() || !result.facts.is_empty()).then(|| audit_claims(files, &result.claims, &result.raw, &result.facts, None));
    let cred = telemetry_only(&t, claims.as_ref());
    let title = titled(a.title.clone(), || audit_title(files));
    Ok(Report::for_telemetry(cred, t, claims, title, a.date.clone()))
}
