//! `credence import` and `credence audit`: the edge where other tools' files are read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::analyze::attribute::Telemetry;
use crate::analyze::audit::audit as audit_claims;
use crate::analyze::credibility::{Check, CheckStatus, Credibility, GRADE_RULE, Grade};
use crate::analyze::{AnalyzeOptions, analyze_view};
use crate::cli::ReportFormat;
use crate::commands::check_writable;
use crate::error::{CliError, ExitCode};
use crate::import::{Format, ImportError, ImportOptions, import as import_files};
use crate::report::Report;

impl From<ImportError> for CliError {
    fn from(e: ImportError) -> CliError {
        let hint = e.hint.clone();
        let err = CliError::bad_input(e.to_string());
        match hint {
            Some(h) => err.hint(h),
            None => err,
        }
    }
}

fn options(tz: Option<&str>, labels: &[String]) -> Result<ImportOptions, CliError> {
    let tz_offset_s = tz.map(crate::import::time::parse_offset).transpose().map_err(CliError::bad_input)?;
    let mut map = BTreeMap::new();
    for l in labels {
        let (k, v) = l.split_once('=').ok_or_else(|| CliError::bad_input(format!("--label {l:?}: expected k=v")))?;
        map.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(ImportOptions { tz_offset_s, tz_text: tz.map(String::from), labels: map })
}

/// `[FORMAT] PATH...`: the first argument is a format when it names one and files follow.
fn format_and_paths(args: &[String]) -> Result<(Format, Vec<PathBuf>), CliError> {
    match args.split_first() {
        Some((first, rest)) if !rest.is_empty() && !Path::new(first).exists() => {
            let f = Format::from_name(first).ok_or_else(|| {
                CliError::bad_input(format!("{first:?} is neither a file nor a format"))
                    .hint("formats: auto, vllm, sglang, perf-analyzer, aiperf, llmperf, mlperf, nvidia-smi")
            })?;
            Ok((f, rest.iter().map(PathBuf::from).collect()))
        }
        _ => Ok((Format::Auto, args.iter().map(PathBuf::from).collect())),
    }
}

pub fn import(args: &[String], out: &Path, tz: Option<&str>, labels: &[String]) -> Result<ExitCode, CliError> {
    let (format, paths) = format_and_paths(args)?;
    let o = options(tz, labels)?;
    if out.exists() {
        return Err(CliError::bad_input(format!("{}: already exists; remove it or choose another --out", out.display())));
    }
    let result = import_files(&paths, format, &o, false)?;
    crate::run::write::write_run(out, &result.data)?;
    let detected: Vec<String> = result.formats.iter().map(|(p, f)| format!("{} ({})", p.display(), f.name())).collect();
    eprintln!("wrote {} ({} requests) from {}", out.display(), result.data.requests.num_rows(), detected.join(", "));
    Ok(ExitCode::Success)
}

pub struct AuditArgs {
    pub paths: Vec<PathBuf>,
    pub out: PathBuf,
    pub format: ReportFormat,
    pub tz: Option<String>,
    pub title: Option<String>,
    pub date: Option<String>,
    pub resamples: usize,
    pub seed: u64,
}

pub fn audit(a: AuditArgs) -> Result<ExitCode, CliError> {
    check_writable(&a.out)?;
    let o = options(a.tz.as_deref(), &[])?;
    let result = import_files(&a.paths, Format::Auto, &o, true)?;
    let source = result
        .formats
        .iter()
        .map(|(p, f)| format!("{} ({})", p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()), f.name()))
        .collect::<Vec<_>>()
        .join(", ");
    let d = &result.data;
    let report = if d.requests.num_rows() > 0 {
        let view = crate::analyze::requests::RequestView::from_table(&d.requests);
        let opts = AnalyzeOptions { resamples: a.resamples, seed: a.seed, ..AnalyzeOptions::default() };
        let mut analysis = analyze_view(&d.manifest, &view, &Telemetry { gpu: d.gpu.as_ref(), host: None, server: None }, &opts);
        analysis.errors.examples = crate::analyze::rates::error_examples(&d.requests);
        let checked = audit_claims(&source, &result.claims, &result.raw, &result.facts, Some(&analysis));
        let mut r = Report::for_runs(vec![analysis], a.title.or_else(|| Some(format!("Audit of {source}"))), a.date);
        r.audit = Some(checked);
        r
    } else {
        // Aggregate-only: the claims and facts can be checked, nothing else.
        let checked = audit_claims(&source, &result.claims, &result.raw, &result.facts, None);
        let mut checks = vec![Check {
            name: "per_request_data".into(),
            status: CheckStatus::Fail,
            reason: "the files hold summary statistics only: no percentile, interval or steady state can be recomputed".into(),
        }];
        checks.extend(checked.facts.iter().map(|f| Check {
            name: f.name.clone(),
            status: match f.status {
                "PASS" => CheckStatus::Pass,
                "WARN" => CheckStatus::Warn,
                "FAIL" => CheckStatus::Fail,
                _ => CheckStatus::NotChecked,
            },
            reason: f.reason.clone(),
        }));
        let statement = format!(
            "Credibility LOW. {source} holds no per-request data, so none of its numbers can be recomputed or given an interval; {} of its {} claims could be cross-checked between the tool's own files. {}",
            checked.reproduced + checked.differing,
            checked.claims.len(),
            checked.facts.iter().map(|f| format!("{}: {} ({}).", f.name, f.status, f.reason)).collect::<Vec<_>>().join(" ")
        );
        let cred = Credibility { grade: Grade::Low, grade_rule: GRADE_RULE, runs: 0, checks, half_widths: Vec::new(), statement };
        Report::for_audit_only(cred, checked, a.title.unwrap_or_else(|| format!("Audit of {source}")), a.date.unwrap_or_else(|| "undated".into()))
    };
    let bytes = crate::report_command::write_report(&report, a.format, &a.out)?;
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
