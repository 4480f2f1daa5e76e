//! `credence report`: analyzes the runs (a configuration, a comparison, a sweep, or the
//! built-in demo), builds the `Report` and writes it in the chosen format.

use std::path::{Path, PathBuf};

use crate::analyze::attribute::Telemetry;
use crate::analyze::compare::CompareOptions;
use crate::analyze::requests::RequestView;
use crate::analyze::{Analysis, AnalyzeOptions, analyze_view};
use crate::cli::args::{ReportFormat, check_resamples, parse_lang, parse_order, parse_tolerances};
use crate::cli::io::{check_writable, write_report_in};
use crate::error::{CliError, ExitCode};
use crate::import::ImportOptions;
use crate::ops::inputs::analyze_path;
use crate::report::Report;
use credence_messages::Message;

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Runs of one configuration: run directories, or analyses saved by `analyze --out`
    /// (rendered as saved, with their own seed and resamples, without analyzing again).
    runs: Vec<PathBuf>,
    /// Base runs of a comparison.
    #[arg(long, num_args = 1..)]
    base: Vec<PathBuf>,
    /// Candidate runs of a comparison.
    #[arg(long, num_args = 1..)]
    cand: Vec<PathBuf>,
    /// Output file.
    #[arg(short = 'o', long = "out")]
    out: PathBuf,
    /// Output format (default: from the name of -o: .md, .json, .html; else PDF).
    #[arg(long, value_enum)]
    format: Option<ReportFormat>,
    /// Title (default: from the system under test).
    #[arg(long)]
    title: Option<String>,
    /// Report language of the PDF and Markdown: en, zh, or auto (from LC_ALL, LC_MESSAGES or
    /// LANG). The JSON is the same in every language.
    #[arg(long, default_value = "en")]
    lang: String,
    /// Report date, YYYY-MM-DD (default: the day of the first request, never today).
    #[arg(long)]
    date: Option<String>,
    /// Report on the demo run built into the binary (the same run as fixtures/demo).
    #[arg(long)]
    demo: bool,
    /// Tolerance of a comparison, as for `compare`.
    #[arg(long)]
    tolerance: Vec<String>,
    /// Execution order of a comparison's runs by folder name (base1,cand1,base2), for the drift check.
    #[arg(long)]
    order: Option<String>,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 9999)]
    resamples: usize,
    /// Seed of every resampling.
    #[arg(long, default_value_t = 0x00C0_FFEE)]
    seed: u64,
    /// Service-level objectives, e.g. ttft_p99=500ms,tpot_p99=50ms (page 1 judges each and
    /// states attainment and goodput).
    #[arg(long, value_name = "SPEC")]
    slo: Option<String>,
    #[command(flatten)]
    import: crate::cli::args::ImportFlags,
}

pub fn run(a: ReportArgs) -> Result<ExitCode, CliError> {
    check_args(&a)?;
    let lang = parse_lang(&a.lang)?;
    check_writable(&a.out)?;
    let format = ReportFormat::of(a.format, &a.out);
    // The HTML report draws every request (a long run thinned, its extremes kept).
    let scatter_points = (format == ReportFormat::Html).then_some(crate::analyze::scatter::DEFAULT_MAX_POINTS);
    let slo = crate::cli::args::slo_flag(a.slo.as_deref())?;
    let opts = AnalyzeOptions { resamples: a.resamples, seed: a.seed, scatter_points, slo, ..AnalyzeOptions::default() };
    let report = if a.demo {
        Report::for_runs(vec![demo(&opts)?], a.title, a.date)
    } else if let Some(pair) = crate::ops::bench::capacity::search_pair(&a.base, &a.cand, !opts.slo.is_empty()) {
        let (tolerance, _) = parse_tolerances(&a.tolerance)?;
        crate::ops::bench::capacity::compare_searches(pair, (&opts, tolerance), &a.import.options()?, (a.title.clone(), a.date.clone()))?
    } else if !a.base.is_empty() {
        comparison(&a)?
    } else if let [dir] = a.runs.as_slice()
        && crate::ops::bench::capacity::is_search(dir, !opts.slo.is_empty())
    {
        capacity_report(dir, &a, opts)?
    } else if let [dir] = a.runs.as_slice()
        && dir.join("sweep.json").is_file()
    {
        let (dirs, sweep) = crate::ops::bench::sweep::read_sweep(dir)?;
        Report::for_sweep(analyze_all(&dirs, &opts, &a.import.options()?)?, sweep, a.title, a.date)
    } else {
        Report::for_runs(analyze_all(&a.runs, &opts, &a.import.options()?)?, a.title, a.date)
    };
    let bytes = write_report_in(&report, format, lang, &a.out)?;
    let grade = Message::new("grade").text("grade", report.grade().label());
    eprintln!("{}", Message::new("cli-wrote-report").text("path", a.out.display().to_string()).int("bytes", bytes).msg("grade", grade).render(lang));
    Ok(ExitCode::Success)
}

/// Refuses contradictory or malformed arguments before any work.
fn check_args(a: &ReportArgs) -> Result<(), CliError> {
    if let Some(d) = &a.date
        && !valid_date(d)
    {
        return Err(CliError::bad_input(format!("--date {d:?}: expected YYYY-MM-DD")));
    }
    check_resamples(a.resamples)?;
    let comparing = !a.base.is_empty() || !a.cand.is_empty();
    match (a.demo, comparing, a.runs.is_empty()) {
        (true, false, true) => Ok(()),
        (false, true, true) if !a.base.is_empty() && !a.cand.is_empty() => Ok(()),
        (false, false, false) => Ok(()),
        (false, true, true) => Err(CliError::bad_input("a comparison needs both --base and --cand")),
        _ => Err(CliError::bad_input("give RUN..., or --base RUN... --cand RUN..., or --demo (one of them)")),
    }
}

fn valid_date(d: &str) -> bool {
    let b = d.as_bytes();
    b.len() == 10 && b[4] == b'-' && b[7] == b'-' && d.chars().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// The demo run: the same simulation as `fixtures/generate.sh` writes to `fixtures/demo`.
fn demo(opts: &AnalyzeOptions) -> Result<Analysis, CliError> {
    let sim = crate::simulate::simulate(&crate::simulate::SimOptions::demo()).map_err(|e| CliError::bad_input(e.to_string()))?;
    let d = &sim.data;
    let view = RequestView::from_table(&d.requests);
    Ok(analyze_view(&d.manifest, &view, &Telemetry { gpu: d.gpu.as_ref(), host: d.host.as_ref(), server: d.server.as_ref() }, opts))
}

/// The analysis of each run: read back when it is a saved analysis, else analyzed (a run
/// directory, every run of a series, or the runs of a tool's output imported in memory).
fn analyze_all(paths: &[PathBuf], opts: &AnalyzeOptions, import: &ImportOptions) -> Result<Vec<Analysis>, CliError> {
    let mut analyses = Vec::new();
    for path in paths {
        if let Some(bytes) = crate::ops::saved::saved_bytes(path) {
            analyses.push(crate::ops::saved::parse(path, &bytes).map_err(|e| CliError::bad_input(e.to_string()))?);
            continue;
        }
        analyses.extend(analyze_path(path, opts, import, "report")?.into_iter().map(|r| r.analysis));
    }
    Ok(analyses)
}

fn comparison(a: &ReportArgs) -> Result<Report, CliError> {
    let (tolerance, per_metric_tolerance) = parse_tolerances(&a.tolerance)?;
    let opts = CompareOptions {
        tolerance,
        per_metric_tolerance,
        resamples: a.resamples,
        seed: a.seed,
        allow_workload_mismatch: false,
        order: parse_order(a.order.clone()),
        ..Default::default()
    };
    crate::ops::compare::compare_dirs(&a.base, &a.cand, &opts, &a.import.options()?, (a.title.clone(), a.date.clone()))
}

/// A capacity search (`bench --find-capacity`): its steps analyzed with its objectives (unless
/// --slo names others), the capacity recomputed from them, the steps shown as a sweep by load.
fn capacity_report(dir: &Path, a: &ReportArgs, opts: AnalyzeOptions) -> Result<Report, CliError> {
    let (runs, capacity, sweep) = crate::ops::bench::capacity::analyze_search(dir, opts, &a.import.options()?)?;
    Ok(Report::for_capacity(runs, capacity, sweep, a.title.clone(), a.date.clone()))
}

