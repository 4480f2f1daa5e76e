//! `credence history RUN_OR_ANALYSIS... [--dir STORE]`: change points, drift and configuration
//! breaks across a series of runs; exit 3 with `--fail-on regression` when the newest segment
//! is a regression against the one before it, and with `--fail-on drift` when the newest
//! configuration drifts worse by more than the tolerance.

use std::path::PathBuf;

use crate::analyze::history::{FailOn, HistoryMetric, HistoryOptions, Order};
use crate::cli::args::{ReportFormat, check_resamples, parse_lang, parse_tolerances};
use crate::cli::io::{check_writable, print_stdout, write_atomic, write_json};
use crate::error::{CliError, ExitCode};
use crate::ops;
use crate::stats::edivisive::EDivisiveOptions;
use credence_messages::Message;

#[derive(Debug, clap::Args)]
pub struct HistoryArgs {
    /// Run folders (analyzed here unless they hold analysis.json) or analysis JSON files.
    inputs: Vec<PathBuf>,
    /// Store: a folder of Parquet files with one row per run and metric. The inputs are
    /// appended (runs it already holds, by run id, are skipped) and the history covers all
    /// of its runs.
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Metrics to follow, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "ttft_p50,ttft_p99,tpot_p50,e2e_p99,output_tokens_per_s,error_rate")]
    metric: Vec<String>,
    /// Order of the series: by each run's start time, or as given (store first).
    #[arg(long, value_enum, default_value_t = OrderArg::Time)]
    order: OrderArg,
    /// Tolerance of a change: `5%` for every metric, or `ttft_p99=10%,throughput=2%` per metric.
    #[arg(long)]
    tolerance: Vec<String>,
    /// Exit with 3 when the newest segment of a metric is a regression against the one before
    /// (`regression`), or when a metric of the newest configuration drifts worse by more than
    /// its tolerance over the series (`drift`); comma-separated for both.
    #[arg(long, value_enum, value_delimiter = ',')]
    fail_on: Vec<FailOnArg>,
    /// Write the history JSON here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write the history document here (PDF, or Markdown with --format md or a .md name).
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Format of -o; without -o, `--format json` prints the JSON instead of the Markdown.
    #[arg(long, value_enum)]
    format: Option<ReportFormat>,
    /// Significance level of the change-point permutation test.
    #[arg(long, default_value_t = 0.01)]
    significance: f64,
    /// Permutations per change-point test.
    #[arg(long, default_value_t = 999)]
    permutations: usize,
    /// Fewest runs on either side of a change point (a single odd night never makes one).
    #[arg(long, default_value_t = 3)]
    min_segment: usize,
    /// Bootstrap resamples of each change's interval, and of each run analyzed here.
    #[arg(long, default_value_t = 1999)]
    resamples: usize,
    /// Seed of the permutations and of every resampling.
    #[arg(long, default_value_t = 0x00C0_FFEE)]
    seed: u64,
    /// Language of the Markdown and the PDF: en, zh, or auto (from LC_ALL, LC_MESSAGES or
    /// LANG). The JSON is the same in every language.
    #[arg(long, default_value = "en")]
    lang: String,
    #[command(flatten)]
    import: crate::cli::args::ImportFlags,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum OrderArg {
    Time,
    Given,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FailOnArg {
    Regression,
    Drift,
}

pub fn run(a: HistoryArgs) -> Result<ExitCode, CliError> {
    let opts = options(&a)?;
    let format = document_format(&a)?;
    let lang = parse_lang(&a.lang)?;
    for path in a.out.iter().chain(&a.output) {
        check_writable(path)?;
    }
    if a.inputs.is_empty() && a.dir.is_none() {
        return Err(CliError::bad_input("no runs: give RUN_OR_ANALYSIS... or --dir STORE"));
    }
    let import = a.import.options()?;
    let from = ops::history::HistoryInputs { inputs: &a.inputs, store_dir: a.dir.as_deref(), import: &import };
    let (h, stored) = ops::history::history_of(&from, a.resamples, a.seed, &opts)?;
    if let Some(s) = stored.filter(|s| s.given > 0) {
        let m = Message::new("cli-history-store").text("dir", s.dir.display().to_string()).int("added", s.added).int("present", s.given - s.added);
        eprintln!("{}", m.render(lang));
    }
    if let Some(path) = &a.out {
        write_json(path, &h)?;
    }
    let markdown = crate::report::history::markdown(&h, lang);
    if let (Some(path), Some(format)) = (&a.output, format) {
        let bytes = match format {
            ReportFormat::Md => markdown.clone().into_bytes(),
            ReportFormat::Json => crate::cli::io::json_text(&h).into_bytes(),
            ReportFormat::Pdf => crate::report::history::pdf::pdf(&h, lang).map_err(|e| CliError::failure(e.to_string()))?,
            ReportFormat::Html => crate::report::history::pdf::html(&h, lang).map_err(|e| CliError::failure(e.to_string()))?,
        };
        write_atomic(path, &bytes)?;
    }
    if a.output.is_none() && a.format == Some(ReportFormat::Json) {
        print_stdout(&crate::cli::io::json_text(&h))?;
    } else {
        print_stdout(&markdown)?;
    }
    Ok(if h.failed { ExitCode::ConditionMet } else { ExitCode::Success })
}

fn options(a: &HistoryArgs) -> Result<HistoryOptions, CliError> {
    let (tolerance, per_metric_tolerance) = parse_tolerances(&a.tolerance)?;
    check_resamples(a.resamples)?;
    let metrics = a
        .metric
        .iter()
        .map(|m| {
            HistoryMetric::from_name(m.trim()).ok_or_else(|| {
                let names: Vec<&str> = HistoryMetric::ALL.iter().map(|m| m.name()).collect();
                CliError::bad_input(format!("--metric {m:?} is not a metric a history follows")).hint(format!("choose from: {}", names.join(", ")))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !(a.significance > 0.0 && a.significance < 0.5) {
        return Err(CliError::bad_input("--significance lies between 0 and 0.5 (e.g. 0.01)"));
    }
    if a.permutations < 99 || ((a.permutations + 1) as f64 * a.significance) < 1.0 {
        return Err(CliError::bad_input(format!("--permutations {}: at least 99, and enough that 1/(permutations+1) ≤ --significance", a.permutations)));
    }
    if a.min_segment < 2 {
        return Err(CliError::bad_input("--min-segment: at least 2 runs on either side of a change point"));
    }
    let mut fail_on: Vec<FailOn> = a.fail_on.iter().map(|f| if *f == FailOnArg::Regression { FailOn::Regression } else { FailOn::Drift }).collect();
    fail_on.sort_by_key(|f| *f == FailOn::Drift);
    fail_on.dedup();
    Ok(HistoryOptions {
        fail_on,
        metrics,
        order: if a.order == OrderArg::Time { Order::Time } else { Order::Given },
        tolerance,
        per_metric_tolerance,
        change_points: EDivisiveOptions { significance: a.significance, permutations: a.permutations, min_size: a.min_segment, seed: a.seed },
        resamples: a.resamples,
        seed: a.seed,
        ..HistoryOptions::default()
    })
}

/// The format of `-o`: `--format`, else the one its extension names (`ReportFormat::of`).
fn document_format(a: &HistoryArgs) -> Result<Option<ReportFormat>, CliError> {
    match (&a.output, a.format) {
        (None, Some(f @ (ReportFormat::Pdf | ReportFormat::Html))) => {
            Err(CliError::bad_input(format!("--format {} needs -o FILE", if f == ReportFormat::Pdf { "pdf" } else { "html" })))
        }
        // Without -o, Markdown already goes to stdout; JSON replaces it there.
        (None, Some(_)) => Ok(None),
        (None, None) => Ok(None),
        (Some(_), Some(f)) => Ok(Some(f)),
        (Some(p), None) => Ok(Some(ReportFormat::of(None, p))),
    }
}
