//! The command line: `Cli` and its `Command`s. Each subcommand lives in its own file with its
//! clap arguments and its `run`, which turns what the user typed into library options, calls
//! the library and writes the result. No command file imports another; shared edge helpers
//! live in `args` (value parsers), `io` (files, stdout, progress), `gpu` (the GPU source) and
//! `load` (run folders loaded and analyzed).

use clap::{Parser, Subcommand};

use crate::error::{CliError, ExitCode};

pub(crate) mod args;
mod gpu;
mod io;

mod analyze;
mod audit;
mod baseline;
mod bench;
mod collect;
mod compare;
mod history;
mod import;
mod mock_server;
mod plan;
mod report;
mod schema;
mod shell;
mod simulate;
mod validate;
mod workload;

/// credence: trustworthy numbers from LLM inference load tests.
#[derive(Debug, Parser)]
#[command(name = "credence", version, about, long_about = None, after_help = "Example: credence report --demo -o demo.pdf")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// Parsed once per process: a large variant costs nothing worth boxing it for.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a run directory: manifest, table schemas and row-level sanity.
    ///
    /// Exit code 0 when the run is valid (perhaps with warnings), 2 when it is invalid or
    /// unreadable.
    #[command(after_help = "Example: credence validate fixtures/demo")]
    Validate(validate::ValidateArgs),
    /// Write a simulated run directory with known ground truth (`truth.json`).
    #[command(after_help = "Example: credence simulate --scenario thermal-throttle --out sim-run")]
    Simulate(simulate::SimulateArgs),
    /// Analyze a run: steady state, per-request metrics and honest confidence intervals.
    ///
    /// Prints a summary; writes the full analysis as JSON with --out (or to stdout with --json).
    #[command(after_help = "Example: credence analyze fixtures/demo --out analysis.json")]
    Analyze(analyze::AnalyzeArgs),
    /// Compare a candidate configuration with a base: is the change real, and does it matter?
    ///
    /// Exit code 0: compared, no --fail-on condition met; 3: a --fail-on condition was met (or
    /// the comparison is invalid and --fail-on was given); 2: bad input.
    #[command(after_help = "Example: credence compare --base base-run --cand cand-run --tolerance 5% --fail-on regression")]
    Compare(compare::CompareArgs),
    /// Write a report: a PDF whose first page is the credibility statement, or Markdown or JSON.
    ///
    /// With RUN... it reports those runs (several runs of one configuration are graded
    /// together); with --base/--cand it reports the comparison. Exit code 0 on success, 2 on
    /// bad input.
    #[command(after_help = "Example: credence report --demo -o demo.pdf")]
    Report(report::ReportArgs),
    /// Import another tool's output (its files or its output folder) into a run directory.
    ///
    /// `credence import [FORMAT] PATH... --out RUN`. A PATH may be a tool's output folder
    /// (inference-perf's reports/, AIPerf's artifacts folder, guidellm's output folder, a folder
    /// of vLLM result JSONs): the files credence reads are taken from it, the others are listed
    /// as skipped, one line each. A folder holding several runs (one per vLLM result JSON, or one
    /// per artifacts folder under it) is written as a series: OUT/NAME per run and
    /// OUT/series.json linking them, which compare, plan and report read as replicated runs.
    /// FORMAT is auto (detect from the content; the default), vllm, sglang, perf-analyzer,
    /// aiperf, llmperf, guidellm, mlperf, inference-perf, mlc-endpoints, nvidia-smi,
    /// nvidia-smi-dmon or dcgm. Several files may go into one run (requests plus
    /// an nvidia-smi log). inference-perf's files are read together: its
    /// per_request_lifecycle_metrics.json with inference-perf.partial.stage_N.yaml (whose
    /// run.time anchors the perf_counter clock; else give --start), config.yaml (the workload)
    /// and, for audit, summary_lifecycle_metrics.json and stage_N_lifecycle_metrics.json.
    /// Exit 0 imported, 2 bad input (nothing is written then).
    #[command(after_help = "Example: credence import reports/ --out run   (inference-perf's output folder)")]
    Import(import::ImportArgs),
    /// Audit someone else's benchmark: import, analyze, check the tool's own claims, report.
    ///
    /// PATH... are the tool's files or its output folder (as for import; the folder must hold
    /// one run). Exit 0 reported, 2 bad input.
    #[command(after_help = "Example: credence audit artifacts/my-run/ -o audit.pdf   (AIPerf's artifacts folder)")]
    Audit(audit::AuditArgs),
    /// Collect per-second GPU, host and server telemetry into a run directory, crash-safe.
    ///
    /// Runs until --duration elapses, SIGINT/SIGTERM, or the COMMAND after `--` exits (credence
    /// then starts the load generator itself and tracks its CPU). Exit 0 on success, 2 when
    /// the output is unusable, --gpu on finds no NVML, or --strict-env refuses to start.
    #[command(after_help = "Example: credence collect --out run --server-metrics http://127.0.0.1:8000/metrics -- ./load.sh")]
    Collect(collect::CollectArgs),
    /// Load an OpenAI-compatible streaming server and record honest per-request timing.
    ///
    /// Open loop (--rate, Poisson, constant or gamma arrivals) keeps every request's scheduled
    /// time, so a client that falls behind shows as send lag instead of hiding it; closed loop
    /// (--concurrency). Warns at the end when the load generator was near its own limits.
    /// Ctrl-C stops the load and still writes what was measured.
    #[command(after_help = "Example: credence bench --url http://127.0.0.1:8000 --model M --rate 10 --duration 5m --out run")]
    Bench(bench::BenchArgs),
    /// Serve a scripted OpenAI-compatible streaming endpoint on 127.0.0.1, for trying `bench`
    /// and for measuring the load generator itself. Runs until killed.
    ///
    /// GET /metrics reports the requests served and the faults injected, in Prometheus text.
    #[command(after_help = "Example: credence mock-server --port 8000 --fault http_500=0.05")]
    MockServer(mock_server::MockServerArgs),
    /// Plan an experiment from pilot runs: runs per arm × run length that detect --effect
    /// against --tolerance with --power, and the cheapest of them.
    ///
    /// Exit code 0 planned (perhaps "this pilot cannot tell"), 2 bad input: a pilot with no
    /// steady state or no successful requests, or an --effect not above the tolerance.
    #[command(after_help = "Example: credence plan pilot-1 pilot-2 --effect 10% --tolerance 5%")]
    Plan(plan::PlanArgs),
    /// Keep a named baseline (copies of its runs) and check new runs against it.
    #[command(after_help = "Example: credence baseline save nightly run-1 run-2 --dir baselines")]
    Baseline(baseline::BaselineArgs),
    /// Change points, drift and configuration breaks across a series of runs (nightly CI).
    ///
    /// RUN_OR_ANALYSIS... are run folders or analysis JSON files; --dir keeps a Parquet store
    /// that each call appends to. Exit code 0: the series was read (and, with --fail-on
    /// regression, no metric's newest segment is a regression); 3: --fail-on regression and
    /// a regression; 2: bad input.
    #[command(after_help = "Example: credence history nightly/run-* --dir store --fail-on regression")]
    History(history::HistoryArgs),
    /// Print the schema of a run-directory table (requests, gpu, host, server) as JSON.
    #[command(after_help = "Example: credence schema requests")]
    Schema(schema::SchemaArgs),
    /// Print a shell completion script: bash, zsh or fish.
    #[command(after_help = "Example: credence completions bash > ~/.local/share/bash-completion/completions/credence")]
    Completions(shell::CompletionsArgs),
    /// Print the manual page (roff), for `man`.
    #[command(after_help = "Example: credence man > credence.1 && man ./credence.1")]
    Man,
}

/// The command line with its conventions: `-h`/`--help` prints the page that fits a terminal
/// (one line per option, the example last), `credence help COMMAND` the full reference (every
/// paragraph); `main`, `completions` and `man` all use it.
pub fn command() -> clap::Command {
    short_help_flag(<Cli as clap::CommandFactory>::command())
}

/// Replaces clap's `--help` (the long reference whenever an option has a second paragraph) by
/// the short page, in the command and every subcommand.
fn short_help_flag(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd.get_subcommands().map(|c| c.get_name().to_string()).collect();
    let flag = clap::Arg::new("help").short('h').long("help").action(clap::ArgAction::HelpShort).help("Print help (the full reference: credence help COMMAND)");
    let cmd = cmd.disable_help_flag(true).arg(flag);
    names.iter().fold(cmd, |c, n| c.mut_subcommand(n, short_help_flag))
}

impl Command {
    /// Whether the command loads and analyzes run folders (the pipeline in `ops::pipeline`),
    /// and so wants the allocator tuned for large analyses (`main`).
    pub fn analyzes_runs(&self) -> bool {
        matches!(self, Command::Analyze(_) | Command::Compare(_) | Command::Report(_) | Command::Plan(_) | Command::Baseline(_) | Command::History(_))
    }
}

/// Runs one subcommand and returns its exit code.
pub fn run(command: Command) -> Result<ExitCode, CliError> {
    match command {
        Command::Validate(a) => validate::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Report(a) => report::run(a),
        Command::Import(a) => import::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Collect(a) => collect::run(a),
        Command::Bench(a) => bench::run(a),
        Command::MockServer(a) => mock_server::run(a),
        Command::Plan(a) => plan::run(a),
        Command::Baseline(a) => baseline::run(a),
        Command::History(a) => history::run(a),
        Command::Schema(a) => schema::run(a),
        Command::Completions(a) => shell::completions(a),
        Command::Man => shell::man(),
    }
}
