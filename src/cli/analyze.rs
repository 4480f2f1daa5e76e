//! `credence analyze RUN`: steady state, metrics and intervals; a summary on stdout and the
//! full analysis as JSON.

use std::path::PathBuf;

use clap::ValueEnum;

use crate::analyze::{AnalyzeOptions, Penalty};
use crate::cli::args::duration_flag;
use crate::cli::io::{Progress, check_writable, json_text, print_stdout, write_atomic};
use crate::cli::args::ImportFlags;
use crate::ops::inputs::{Input, analyze_peer, classify};
use crate::ops::pipeline::analyze_dir;
use crate::error::{CliError, ExitCode};

#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The run directory, or a benchmark tool's result file or output folder (imported in
    /// memory).
    run: PathBuf,
    /// Write the analysis JSON here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print the analysis JSON to stdout instead of the summary.
    #[arg(long)]
    json: bool,
    /// Time-series window, e.g. 1s, 500ms.
    #[arg(long, default_value = "1s")]
    window: String,
    /// Confidence level of every interval.
    #[arg(long, default_value_t = 0.95)]
    confidence: f64,
    /// Seed of every resampling.
    #[arg(long, default_value_t = 0x00C0_FFEE)]
    seed: u64,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 9999)]
    resamples: usize,
    /// Changepoint penalty: mbic (default) or conservative (Barrett's 15 ln n).
    #[arg(long, value_enum, default_value_t = PenaltyArg::Mbic)]
    penalty: PenaltyArg,
    /// Start of the steady window, seconds from the first send (overrides detection).
    #[arg(long)]
    steady_from: Option<String>,
    /// End of the steady window, seconds from the first send (overrides detection).
    #[arg(long)]
    steady_to: Option<String>,
    /// Service-level objectives, e.g. ttft_p99=500ms,tpot_p99=50ms: each percentile judged
    /// against its threshold, the share of requests within all (attainment) and goodput.
    #[arg(long, value_name = "SPEC")]
    slo: Option<String>,
    #[command(flatten)]
    import: ImportFlags,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PenaltyArg {
    Mbic,
    Conservative,
}

pub fn run(a: AnalyzeArgs) -> Result<ExitCode, CliError> {
    let opts = options(&a)?;
    if let Some(path) = &a.out {
        check_writable(path)?;
    }
    let import = a.import.options()?;
    let progress = Progress::for_analysis();
    let analysis = match classify(&a.run)? {
        Input::Run(dir) => analyze_dir(&dir, &opts)?.analysis,
        Input::Series(runs) => return Err(several(&a.run, "a series", &runs.iter().map(|r| r.display().to_string()).collect::<Vec<_>>())),
        Input::Peer(path) => {
            let mut runs = analyze_peer(&path, &opts, &import, "analyze")?;
            if runs.len() > 1 {
                return Err(several(&a.run, "a tool's output", &runs.iter().map(|r| r.name.clone()).collect::<Vec<_>>()));
            }
            runs.remove(0).analysis
        }
    };
    let text = json_text(&analysis);
    if let Some(path) = &a.out {
        write_atomic(path, text.as_bytes())?;
    }
    crate::timing::Timing::new().mark("JSON written");
    progress.done();
    print_stdout(&if a.json { text } else { crate::report::summary::summary(&analysis) })?;
    Ok(ExitCode::Success)
}

/// A path that holds several runs where `analyze` reads one.
fn several(path: &std::path::Path, what: &str, runs: &[String]) -> CliError {
    CliError::bad_input(format!("{}: {what} of {} runs, not one run", path.display(), runs.len()))
        .hint(format!("analyze one of them ({}), or read them together as replicated runs with report, compare or plan", runs[0]))
}

fn options(a: &AnalyzeArgs) -> Result<AnalyzeOptions, CliError> {
    let window_s = duration_flag("--window", &a.window)?;
    if !(a.confidence > 0.5 && a.confidence < 1.0) {
        return Err(CliError::bad_input(format!("--confidence {}: must lie between 0.5 and 1 (e.g. 0.95)", a.confidence)));
    }
    if a.resamples < 200 {
        return Err(CliError::bad_input(format!("--resamples {}: at least 200 are needed for stable 95 % intervals", a.resamples)).hint("the default is 9999"));
    }
    let steady_from = offset_flag("--steady-from", a.steady_from.as_deref())?;
    let steady_to = offset_flag("--steady-to", a.steady_to.as_deref())?;
    if let (Some(f), Some(t)) = (steady_from, steady_to)
        && t <= f
    {
        return Err(CliError::bad_input(format!("--steady-to {t} s must come after --steady-from {f} s")));
    }
    let penalty = match a.penalty {
        PenaltyArg::Mbic => Penalty::Mbic,
        PenaltyArg::Conservative => Penalty::Conservative,
    };
    Ok(AnalyzeOptions {
        window_s,
        confidence: a.confidence,
        seed: a.seed,
        resamples: a.resamples,
        penalty,
        steady_from,
        steady_to,
        slo: crate::cli::args::slo_flag(a.slo.as_deref())?,
        ..AnalyzeOptions::default()
    })
}

/// Seconds from the first send; `0` is allowed here, unlike a duration.
fn offset_flag(flag: &str, value: Option<&str>) -> Result<Option<f64>, CliError> {
    value
        .map(|t| {
            let t = t.trim();
            if t == "0" || t == "0s" { Ok(0.0) } else { duration_flag(flag, t) }
        })
        .transpose()
}
