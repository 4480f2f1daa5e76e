//! Command-line arguments as typed (clap structs only). `options.rs` validates them.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// credence: trustworthy numbers from LLM inference load tests.
#[derive(Debug, Parser)]
#[command(name = "credence", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a run directory: manifest, table schemas and row-level sanity.
    ///
    /// Exit code 0 when the run is valid (perhaps with warnings), 2 when it is invalid or
    /// unreadable.
    Validate {
        /// The run directory.
        run: PathBuf,
        /// Print the report as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write a simulated run directory with known ground truth (`truth.json`).
    Simulate {
        /// Scenario: steady, warmup, thermal-throttle, power-cap, client-saturation,
        /// memory-pressure, foreign-process, no-steady-state, error-burst or ramp-down.
        #[arg(long)]
        scenario: String,
        /// Output run directory (must not exist).
        #[arg(long)]
        out: PathBuf,
        /// Seed of every random draw; the same seed gives a byte-identical run.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// How long requests are offered, e.g. 300s, 5m.
        #[arg(long, default_value = "300s")]
        duration: String,
        /// Offered request rate (open loop), requests per second.
        #[arg(long, default_value_t = 20.0)]
        rate: f64,
        /// Arrival process.
        #[arg(long, value_enum, default_value_t = ArrivalArg::Poisson)]
        arrival: ArrivalArg,
        /// Closed-loop clients (with --arrival closed-loop).
        #[arg(long)]
        concurrency: Option<u32>,
        /// A known effect for A/B tests, e.g. ttft=+8% (ttft, tpot, e2e or throughput).
        #[arg(long)]
        effect: Option<String>,
        /// GPUs of the simulated server (tensor parallel).
        #[arg(long, default_value_t = 2)]
        gpus: u32,
        /// Median output length in tokens (smaller makes smaller fixtures).
        #[arg(long, default_value_t = 128.0)]
        output_median: f64,
    },
    /// Analyze a run: steady state, per-request metrics and honest confidence intervals.
    ///
    /// Prints a summary; writes the full analysis as JSON with --out (or to stdout with --json).
    Analyze {
        /// The run directory.
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
    },
    /// Compare a candidate configuration with a base: is the change real, and does it matter?
    ///
    /// Exit code 0: compared, no --fail-on condition met; 3: a --fail-on condition was met (or
    /// the comparison is invalid and --fail-on was given); 2: bad input.
    Compare {
        /// Base runs.
        #[arg(long, num_args = 1.., required = true)]
        base: Vec<PathBuf>,
        /// Candidate runs.
        #[arg(long, num_args = 1.., required = true)]
        cand: Vec<PathBuf>,
        /// Tolerance: `5%` for every metric, or `ttft_p99=10%,throughput=2%` per metric.
        #[arg(long)]
        tolerance: Vec<String>,
        /// Execution order of the runs by folder name (e.g. base1,cand1,base2) for the drift check.
        #[arg(long)]
        order: Option<String>,
        /// Exit with 3 on a regression, or on any significant change.
        #[arg(long, value_enum)]
        fail_on: Option<FailOnArg>,
        /// Compare even when the workloads differ.
        #[arg(long)]
        allow_workload_mismatch: bool,
        /// Write the comparison JSON here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Bootstrap resamples.
        #[arg(long, default_value_t = 9999)]
        resamples: usize,
        /// Seed of every resampling.
        #[arg(long, default_value_t = 0x00C0_FFEE)]
        seed: u64,
    },
    /// Write a report: a PDF whose first page is the credibility statement, or Markdown or JSON.
    ///
    /// With RUN... it reports those runs (several runs of one configuration are graded
    /// together); with --base/--cand it reports the comparison. Exit code 0 on success, 2 on
    /// bad input.
    Report {
        /// Runs of one configuration.
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
        /// Output format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Pdf)]
        format: ReportFormat,
        /// Title (default: from the system under test).
        #[arg(long)]
        title: Option<String>,
        /// Report language (only `en` so far).
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
    },
    /// Import another tool's output into a run directory: `credence import [FORMAT] PATH... --out RUN`.
    ///
    /// FORMAT is auto (detect from the content; the default), vllm, sglang, perf-analyzer,
    /// aiperf, llmperf, guidellm, mlperf, inference-perf, mlc-endpoints, nvidia-smi,
    /// nvidia-smi-dmon or dcgm. Several files may go into one run (requests plus
    /// an nvidia-smi log). Exit 0 imported, 2 bad input (nothing is written then).
    Import {
        /// [FORMAT] PATH...
        #[arg(required = true, num_args = 1..)]
        args: Vec<String>,
        /// The run directory to create (must not exist).
        #[arg(long)]
        out: PathBuf,
        /// UTC offset of the machine that wrote zone-less local times, e.g. +02:00.
        #[arg(long)]
        tz: Option<String>,
        /// A label for the run, k=v (repeatable).
        #[arg(long)]
        label: Vec<String>,
    },
    /// Audit someone else's benchmark: import, analyze, check the tool's own claims, report.
    Audit {
        /// The tool's output files.
        #[arg(required = true, num_args = 1..)]
        paths: Vec<PathBuf>,
        /// Output file.
        #[arg(short = 'o', long = "out")]
        out: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = ReportFormat::Pdf)]
        format: ReportFormat,
        /// UTC offset for zone-less local times, e.g. +02:00.
        #[arg(long)]
        tz: Option<String>,
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
    },
    /// Collect per-second GPU, host and server telemetry into a run directory, crash-safe.
    ///
    /// Runs until --duration elapses, SIGINT/SIGTERM, or the COMMAND after `--` exits (credence
    /// then starts the load generator itself and tracks its CPU). Exit 0 on success, 2 when
    /// the output is unusable, --gpu on finds no NVML, or --strict-env refuses to start.
    Collect {
        /// The run directory to create (must not exist).
        #[arg(long)]
        out: PathBuf,
        /// Sampling interval, e.g. 1s or 500ms.
        #[arg(long, default_value = "1s")]
        interval: String,
        /// GPU telemetry through NVML: auto (continue without it when absent), on, off.
        #[arg(long, value_enum, default_value_t = GpuArg::Auto)]
        gpu: GpuArg,
        /// The load generator's process id.
        #[arg(long)]
        client_pid: Option<u32>,
        /// The load generator's process name.
        #[arg(long)]
        client_name: Option<String>,
        /// A Prometheus metrics URL of the server (http://host:port/metrics).
        #[arg(long)]
        server_metrics: Option<String>,
        /// A label, k=v (repeatable).
        #[arg(long)]
        label: Vec<String>,
        /// A configuration item, k=v (repeatable).
        #[arg(long)]
        config: Vec<String>,
        /// Stop after this long, e.g. 5m.
        #[arg(long)]
        duration: Option<String>,
        /// Drop the page cache before sampling (needs root); recorded either way.
        #[arg(long)]
        drop_caches: bool,
        /// Refuse to start when a checklist item fails (foreign GPU process, hot GPU, governor).
        #[arg(long)]
        strict_env: bool,
        /// The load generator to run: `-- COMMAND ARGS...`.
        #[arg(last = true)]
        command: Vec<String>,
    },
    /// Load an OpenAI-compatible streaming server and record honest per-request timing.
    ///
    /// Open loop (--rate, Poisson, constant or gamma arrivals) keeps every request's scheduled
    /// time, so a client that falls behind shows as send lag instead of hiding it; closed loop
    /// (--concurrency). Warns at the end when the load generator was near its own limits.
    /// Ctrl-C stops the load and still writes what was measured.
    Bench(crate::bench_command::BenchArgs),
    /// Serve a scripted OpenAI-compatible streaming endpoint on 127.0.0.1, for trying `bench`
    /// and for measuring the load generator itself. Runs until killed.
    ///
    /// GET /metrics reports the requests served and the faults injected, in Prometheus text.
    MockServer(crate::bench_command::MockServerArgs),
    /// Keep a named baseline (runs plus their noise floor) and check new runs against it.
    Baseline {
        #[command(subcommand)]
        action: BaselineAction,
    },
    /// Print the schema of a run-directory table (requests, gpu, host, server) as JSON.
    Schema {
        /// Table name.
        table: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum BaselineAction {
    /// Copy RUN... into DIR/NAME with their A/A noise floor.
    Save {
        name: String,
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// Folder that holds the baselines.
        #[arg(long)]
        dir: PathBuf,
    },
    /// Compare RUN... against the saved baseline; exit 3 on a regression. When the runs are
    /// reruns of the baseline's own configuration, a significant change means the baseline
    /// itself has drifted.
    Check {
        name: String,
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        #[arg(long)]
        dir: PathBuf,
        /// Tolerance, as for compare.
        #[arg(long)]
        tolerance: Vec<String>,
        #[arg(long, default_value_t = 999)]
        resamples: usize,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    Regression,
    AnyChange,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PenaltyArg {
    Mbic,
    Conservative,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArrivalArg {
    Poisson,
    Constant,
    ClosedLoop,
}

/// `credence report --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Pdf,
    Md,
    Json,
}

/// `credence collect --gpu`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GpuArg {
    Auto,
    On,
    Off,
}
