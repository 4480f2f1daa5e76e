//! `credence report`: loads and analyzes the runs (or simulates the built-in demo), builds the
//! `Report` and writes it through the chosen exporter.

use std::path::PathBuf;

use crate::analyze::attribute::Telemetry;
use crate::analyze::compare::{CompareOptions, compare};
use crate::analyze::{AnalyzeOptions, analyze_view};
use crate::cli::ReportFormat;
use crate::commands::{arm_runs, check_writable, load_for_compare, write_atomic};
use crate::error::{CliError, ExitCode};
use crate::report::{Exporter, Json, Report, markdown::Markdown, pdf::Pdf};

pub struct ReportArgs {
    pub runs: Vec<PathBuf>,
    pub base: Vec<PathBuf>,
    pub cand: Vec<PathBuf>,
    pub out: PathBuf,
    pub format: ReportFormat,
    pub title: Option<String>,
    pub lang: String,
    pub date: Option<String>,
    pub demo: bool,
    pub tolerance: Vec<String>,
    pub order: Option<String>,
    pub resamples: usize,
    pub seed: u64,
}

/// The demo run: the same simulation as `fixtures/generate.sh` writes to `fixtures/demo`.
fn demo(opts: &AnalyzeOptions) -> Result<crate::analyze::Analysis, CliError> {
    let sim_opts = crate::options::simulate_options(crate::options::SimulateArgs {
        scenario: "thermal-throttle",
        seed: 7,
        duration: "300s",
        rate: 20.0,
        arrival: crate::cli::ArrivalArg::Poisson,
        concurrency: None,
        effect: None,
        gpus: 2,
        output_median: 128.0,
    })?;
    let mut sim_opts = sim_opts;
    sim_opts.compute_truth = false;
    let sim = crate::simulate::simulate(&sim_opts).map_err(|e| CliError::bad_input(e.to_string()))?;
    let d = &sim.data;
    let view = crate::analyze::requests::RequestView::from_table(&d.requests);
    Ok(analyze_view(&d.manifest, &view, &Telemetry { gpu: d.gpu.as_ref(), host: d.host.as_ref(), server: d.server.as_ref() }, opts))
}

fn valid_date(d: &str) -> bool {
    let b = d.as_bytes();
    b.len() == 10 && b[4] == b'-' && b[7] == b'-' && d.chars().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// Renders `report` in `format` and writes it atomically; returns the size written.
pub fn write_report(report: &Report, format: ReportFormat, out: &std::path::Path) -> Result<usize, CliError> {
    let exporter: &dyn Exporter = match format {
        ReportFormat::Pdf => &Pdf,
        ReportFormat::Md => &Markdown,
        ReportFormat::Json => &Json,
    };
    let bytes = exporter.export(report).map_err(|e| CliError::bad_input(e.to_string()))?;
    write_atomic(out, &bytes)?;
    Ok(bytes.len())
}

fn analyze_dir(dir: &std::path::Path, opts: &AnalyzeOptions) -> Result<crate::analyze::Analysis, CliError> {
    let run = crate::run::load(dir)?;
    let view = crate::analyze::requests::RequestView::from_table(&run.requests);
    let mut a = analyze_view(&run.manifest, &view, &Telemetry::of(&run), opts);
    a.errors.examples = crate::analyze::rates::error_examples(&run.requests);
    Ok(a)
}

/// The steps of a sweep written by `credence bench --sweep`: their run folders (which must be
/// plain names inside DIR: the file is not trusted to point elsewhere) and offered rates.
fn read_sweep(dir: &std::path::Path) -> Result<(Vec<PathBuf>, crate::report::document::Sweep), CliError> {
    let path = dir.join("sweep.json");
    let bad = |what: String| CliError::bad_input(format!("{}: {what}", path.display()));
    let text = std::fs::read_to_string(&path).map_err(|e| bad(format!("cannot read: {e}")))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
    let steps = v.get("steps").and_then(|s| s.as_array()).filter(|s| !s.is_empty()).ok_or_else(|| bad("expected a non-empty \"steps\" array".into()))?;
    let (mut dirs, mut out) = (Vec::new(), Vec::new());
    for (i, st) in steps.iter().enumerate() {
        let name = st.get("run").and_then(|r| r.as_str()).ok_or_else(|| bad(format!("steps[{i}].run: expected the step's folder name")))?;
        let plain = !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']);
        if !plain {
            return Err(bad(format!("steps[{i}].run {name:?}: expected a folder name inside the sweep")));
        }
        let offered = st.get("rate_per_s").and_then(|r| r.as_f64()).filter(|r| r.is_finite() && *r > 0.0);
        let offered = offered.ok_or_else(|| bad(format!("steps[{i}].rate_per_s: expected a positive number")))?;
        dirs.push(dir.join(name));
        out.push(crate::report::document::SweepStep {
            offered_per_s: offered,
            run: i,
            client_limited: st.get("client_limited").and_then(|c| c.as_bool()).unwrap_or(false),
        });
    }
    let parameter = v.get("parameter").and_then(|p| p.as_str()).unwrap_or("rate").to_string();
    let stopped_early = v.get("stopped_early").and_then(|s| s.as_bool()).unwrap_or(false);
    Ok((dirs, crate::report::document::Sweep { parameter, steps: out, stopped_early }))
}

pub fn run(a: ReportArgs) -> Result<ExitCode, CliError> {
    if a.lang != "en" {
        return Err(CliError::bad_input(format!("--lang {:?}: only en is available", a.lang)));
    }
    if let Some(d) = &a.date
        && !valid_date(d)
    {
        return Err(CliError::bad_input(format!("--date {d:?}: expected YYYY-MM-DD")));
    }
    if a.resamples < 200 {
        return Err(CliError::bad_input("--resamples: at least 200 are needed"));
    }
    let comparing = !a.base.is_empty() || !a.cand.is_empty();
    match (a.demo, comparing, a.runs.is_empty()) {
        (true, false, true) => {}
        (false, true, true) if !a.base.is_empty() && !a.cand.is_empty() => {}
        (false, false, false) => {}
        (false, true, true) => return Err(CliError::bad_input("a comparison needs both --base and --cand")),
        _ => return Err(CliError::bad_input("give RUN..., or --base RUN... --cand RUN..., or --demo (one of them)")),
    }
    check_writable(&a.out)?;
    let opts = AnalyzeOptions { resamples: a.resamples, seed: a.seed, ..AnalyzeOptions::default() };
    let report = if a.demo {
        Report::for_runs(vec![demo(&opts)?], a.title, a.date)
    } else if comparing {
        let (global, per) = crate::options::parse_tolerances(&a.tolerance)?;
        let copts = CompareOptions {
            tolerance: global,
            per_metric_tolerance: per,
            resamples: a.resamples,
            seed: a.seed,
            allow_workload_mismatch: false,
            order: a.order.map(|o| o.split(',').map(|s| s.trim().to_string()).collect()),
        };
        let (b, c) = (load_for_compare(&a.base, a.resamples, a.seed)?, load_for_compare(&a.cand, a.resamples, a.seed)?);
        let cmp = compare(&arm_runs(&b), &arm_runs(&c), &copts);
        Report::for_comparison(b.into_iter().map(|x| x.3).collect(), c.into_iter().map(|x| x.3).collect(), cmp, a.title, a.date)
    } else if let [dir] = a.runs.as_slice()
        && dir.join("sweep.json").is_file()
    {
        let (dirs, sweep) = read_sweep(dir)?;
        let analyses = dirs.iter().map(|d| analyze_dir(d, &opts)).collect::<Result<Vec<_>, CliError>>()?;
        Report::for_sweep(analyses, sweep, a.title, a.date)
    } else {
        let analyses = a.runs.iter().map(|dir| analyze_dir(dir, &opts)).collect::<Result<Vec<_>, CliError>>()?;
        Report::for_runs(analyses, a.title, a.date)
    };
    let bytes = write_report(&report, a.format, &a.out)?;
    eprintln!("wrote {} ({} bytes, credibility {})", a.out.display(), bytes, report.grade().label());
    Ok(ExitCode::Success)
}
