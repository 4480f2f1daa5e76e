//! `credence simulate`: writes a simulated run directory with its ground truth.

use std::path::PathBuf;

use clap::ValueEnum;

use crate::cli::args::{CapacityFlags, duration_flag};
use crate::error::{CliError, ExitCode};
use crate::ops::bench::sweep::SweepParameter;
use crate::run::write::write_run;
use crate::simulate::{ArrivalProcess, Effect, Scenario, SimOptions, simulate};
use credence_messages::Lang;

#[derive(Debug, clap::Args)]
pub struct SimulateArgs {
    /// Scenario: steady, warmup, thermal-throttle, power-cap, client-saturation,
    /// memory-pressure, foreign-process, no-steady-state, error-burst, ramp-down or
    /// warmup-throttle.
    #[arg(long)]
    scenario: String,
    /// Output run directory (must not exist).
    #[arg(long)]
    out: PathBuf,
    /// Seed of every random draw; the same seed gives a byte-identical run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How long requests are offered, e.g. 300s, 5m (default 300s; with --find-capacity, every
    /// step's fixed length instead of running until decided).
    #[arg(long)]
    duration: Option<String>,
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
    /// Batch slots of the simulated engine (continuous batching): its capacity.
    #[arg(long, default_value_t = 256)]
    max_batch: u32,
    #[command(flatten)]
    capacity: CapacityFlags,
    /// With --find-capacity: the whole search's bound, in simulated time.
    #[arg(long, default_value = "30m")]
    max_duration: String,
    /// With --find-capacity: the shortest step.
    #[arg(long, default_value = "60s")]
    min_duration: String,
    /// Shared system prompts: G of them (--prefix-len tokens each), each request opening with
    /// one drawn uniformly; the engine's prefix cache serves a prompt prefilled before, and
    /// truth.json says the true hit rate.
    #[arg(long, value_name = "G")]
    prefix_groups: Option<u32>,
    /// With --prefix-groups: tokens per shared system prompt.
    #[arg(long, value_name = "L", default_value_t = 1024)]
    prefix_len: u32,
    /// Conversations, as `bench --sessions` sends them: at most N sessions of --turns turns,
    /// each turn's prompt the earlier turns and replies (served by the prefix cache) and new
    /// tokens; --rate counts sessions a second (closed loop: --concurrency sessions at once).
    /// truth.json gives each turn's true TTFT and hit rate.
    #[arg(long, value_name = "N")]
    sessions: Option<u64>,
    /// With --sessions: turns per session, T or LO-HI (uniform, by the seed).
    #[arg(long, default_value = "3", hide_short_help = true)]
    turns: String,
    /// With --sessions: the pause between a reply's end and the next turn, e.g. 2s.
    #[arg(long, default_value = "0s", hide_short_help = true)]
    think_time: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ArrivalArg {
    Poisson,
    Constant,
    ClosedLoop,
}

pub fn run(a: SimulateArgs) -> Result<ExitCode, CliError> {
    let opts = options(&a)?;
    if a.capacity.find_capacity {
        return find_capacity(&a, opts);
    }
    let sim = simulate(&opts).map_err(|e| CliError::bad_input(e.to_string()))?;
    write_run(&a.out, &sim.data)?;
    eprintln!("wrote {} ({} requests, scenario {}, seed {})", a.out.display(), sim.data.requests.num_rows(), opts.scenario, opts.seed);
    Ok(ExitCode::Success)
}

fn options(a: &SimulateArgs) -> Result<SimOptions, CliError> {
    let scenario = Scenario::from_name(&a.scenario).ok_or_else(|| {
        let names: Vec<_> = Scenario::ALL.iter().map(|s| s.name()).collect();
        CliError::bad_input(format!("--scenario {:?} is not a scenario", a.scenario)).hint(format!("choose one of: {}", names.join(", ")))
    })?;
    let mut opts = SimOptions::new(scenario, a.seed);
    opts.duration_s = duration_flag("--duration", a.duration.as_deref().unwrap_or("300s"))?;
    opts.arrival = arrival(a.arrival, a.rate, a.concurrency)?;
    opts.effect = a.effect.as_deref().map(Effect::parse).transpose().map_err(CliError::bad_input)?;
    opts.gpus = a.gpus;
    if !(a.output_median.is_finite() && (2.0..=4096.0).contains(&a.output_median)) {
        return Err(CliError::bad_input("--output-median must lie between 2 and 4096 tokens"));
    }
    opts.lengths.output_median = a.output_median;
    if a.max_batch == 0 {
        return Err(CliError::bad_input("--max-batch must be at least 1"));
    }
    opts.engine.max_batch = a.max_batch;
    opts.prefix = a.prefix_groups.map(|g| (g, a.prefix_len));
    if let Some(count) = a.sessions {
        let (turns, think_s) = crate::cli::workload::conversation_flags(count, &a.turns, &a.think_time)?;
        opts.sessions = Some(crate::simulate::SimSessions { count, turns, think_s });
    }
    Ok(opts)
}

fn arrival(kind: ArrivalArg, rate: f64, concurrency: Option<u32>) -> Result<ArrivalProcess, CliError> {
    match (kind, concurrency) {
        (ArrivalArg::Poisson, None) => Ok(ArrivalProcess::Poisson { rate }),
        (ArrivalArg::Constant, None) => Ok(ArrivalProcess::Constant { rate }),
        (ArrivalArg::ClosedLoop, Some(c)) => Ok(ArrivalProcess::ClosedLoop { clients: c }),
        (ArrivalArg::ClosedLoop, None) => Err(CliError::bad_input("--arrival closed-loop needs --concurrency N")),
        (_, Some(_)) => Err(CliError::bad_input("--concurrency applies only to --arrival closed-loop")),
    }
}

/// `--find-capacity --slo SPEC`: a capacity search against the simulated engine, written as
/// `bench --find-capacity` writes one (its steps' seeds follow from --seed).
fn find_capacity(a: &SimulateArgs, mut base: SimOptions) -> Result<ExitCode, CliError> {
    if a.out.exists() {
        return Err(CliError::bad_input(format!("{}: already exists; remove it or choose another --out", a.out.display())));
    }
    base.compute_truth = false;
    let start = match a.concurrency {
        Some(c) => (SweepParameter::Concurrency, f64::from(c)),
        // The search counts requests: a session rate starts it at that many sessions' turns.
        None => (SweepParameter::Rate, a.rate * base.sessions.map_or(1.0, |s| s.mean_turns())),
    };
    let plan = a.capacity.plan(start, (&a.min_duration, &a.max_duration, a.duration.as_deref()), a.seed)?;
    let mut source = crate::ops::capacity_sim::SimSource { base };
    let (capacity, ended) = crate::ops::bench::capacity::find_capacity(&plan, &mut source, &a.out, Lang::En)?;
    Ok(crate::ops::bench::capacity::conclude(&capacity, ended, &a.out, Lang::En))
}
