//! `credence simulate`: complete run directories with known ground truth.
//!
//! The pipeline: an open-loop schedule (or closed-loop clients) → a client that may lag
//! (`client-saturation`) → the continuous-batching engine (`engine.rs`) under the scenario's
//! conditions (`scenario.rs`) → what the client records (`observe.rs`) → per-second telemetry
//! (`telemetry.rs`). `truth.rs` computes the true steady-state percentiles from a long
//! independent run of the same model.

mod engine;
mod observe;
mod rng;
mod scenario;
mod sessions;
mod telemetry;
mod truth;
mod workload;

use std::collections::BTreeMap;

pub use engine::EngineParams;
pub use observe::{Effect, EffectMetric};
pub use scenario::{Anomaly, Scenario};
pub use sessions::SimSessions;
pub use truth::{TruePercentiles, Truth, true_percentiles};
pub use workload::{ArrivalProcess, Lengths};

use engine::{Failure, Job, run_engine};
use rng::{SimRng, Stream};
use scenario::Timeline;
use telemetry::{ClientSecond, SampleGrid};

use credence_run::manifest::{
    Arrival, Clock, Creator, DeclaredPhases, Environment, GpuProcess, Manifest, Observed, Source, SourceKind, SystemConfig, TimestampQuality, Workload,
};
use credence_run::schema::{FORMAT_VERSION, TableKind};
use credence_run::table::{Column, Table, TableError, TimestampLists, utf8_column};
use credence_run::write::RunData;

/// Epoch of every simulated run's start: 2026-06-01T12:00:00Z. Fixed, so runs are reproducible.
pub const RUN_START_EPOCH_NS: i64 = 1_780_315_200 * 1_000_000_000;

/// Options of one simulation.
#[derive(Debug, Clone)]
pub struct SimOptions {
    pub scenario: Scenario,
    pub seed: u64,
    pub duration_s: f64,
    pub arrival: ArrivalProcess,
    pub effect: Option<Effect>,
    pub lengths: Lengths,
    pub engine: EngineParams,
    pub gpus: u32,
    /// Compute `truth.json`'s true percentiles (long runs; skip in studies that reuse them).
    pub compute_truth: bool,
    /// Whether the scenario's episode happens. Without it the run is the same run (same seed,
    /// same draws) minus the episode: the reference of studies that measure what an episode
    /// changes, such as the warmup cut.
    pub episode: bool,
    /// Shared system prompts (`--prefix-groups G --prefix-len L`): each request opens with one
    /// of G prompts of L tokens, drawn uniformly, and the engine's prefix cache serves a prompt
    /// prefilled before. None: every prompt is new.
    pub prefix: Option<(u32, u32)>,
    /// Conversations (`--sessions`): the arrival process starts sessions, each of whose turns
    /// carries the earlier turns and replies (`sessions.rs`). None: independent requests.
    pub sessions: Option<SimSessions>,
}

impl SimOptions {
    pub fn new(scenario: Scenario, seed: u64) -> SimOptions {
        SimOptions {
            scenario,
            seed,
            duration_s: 300.0,
            arrival: ArrivalProcess::Poisson { rate: 20.0 },
            effect: None,
            lengths: Lengths::default(),
            engine: EngineParams::default(),
            gpus: 2,
            compute_truth: true,
            episode: true,
            prefix: None,
            sessions: None,
        }
    }

    /// The demo run of `report --demo` and `fixtures/demo`: a 5-minute run at 20 requests/s
    /// whose GPU throttles mid-run (seed 7). It skips `truth.json`'s percentiles.
    pub fn demo() -> SimOptions {
        SimOptions { compute_truth: false, ..SimOptions::new(Scenario::ThermalThrottle, 7) }
    }

    fn engine_params(&self) -> EngineParams {
        let mut p = self.engine;
        if let Some(Effect { metric: EffectMetric::Throughput, relative }) = self.effect {
            p.capacity_scale *= 1.0 + relative;
        }
        p
    }
}

/// A simulated run and its ground truth.
#[derive(Debug, Clone)]
pub struct Simulated {
    pub data: RunData,
    pub truth: Truth,
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("{0}")]
    Options(String),
    #[error(transparent)]
    Table(#[from] TableError),
}

/// One request as recorded, ns from the run start.
struct Record {
    /// Prompt tokens served from the prefix cache (with shared prefixes or conversations).
    cached: Option<u32>,
    /// A conversation's (session, turn).
    turn: Option<(u32, u32)>,
    scheduled: Option<i64>,
    sent: i64,
    observed: observe::ClientTimes,
    input: u32,
    output: u32,
    failure: Option<Failure>,
    client: String,
}

/// Simulates a run: requests, GPU, host and server telemetry, manifest and truth.
pub fn simulate(opts: &SimOptions) -> Result<Simulated, SimError> {
    validate_options(opts)?;
    let timeline = Timeline { scenario: opts.scenario, duration_s: opts.duration_s, seed: opts.seed, with_episode: opts.episode };
    let (records, trace) = simulate_requests(opts, &timeline, opts.seed, true);
    let last_end = records.iter().map(|r| r.observed.end_ns).max().unwrap_or(0);
    let grid = SampleGrid { first_s: -3, last_s: last_end / 1_000_000_000 + 3, epoch_ns: RUN_START_EPOCH_NS };
    let client = client_seconds(&records, grid.last_s);
    let open_loop = !matches!(opts.arrival, ArrivalProcess::ClosedLoop { .. });
    let requests = requests_table(&records)?;
    let gpu = telemetry::gpu_table(&timeline, &trace, &grid, opts.gpus, opts.seed)?;
    let host = telemetry::host_table(&timeline, &client, open_loop, &grid, opts.seed)?;
    let server = telemetry::server_table(&timeline, &trace, &grid, opts.engine.kv_tokens)?;
    let mut truth = truth::compute(opts, &timeline);
    extend_to_backlog_end(&mut truth, &records);
    truth.prefix_cache_hit_rate = (opts.prefix.is_some() || opts.sessions.is_some()).then(|| {
        let served = records.iter().filter(|r| r.failure.is_none());
        let (cached, input) = served.fold((0u64, 0u64), |(c, i), r| (c + u64::from(r.cached.unwrap_or(0)), i + u64::from(r.input)));
        cached as f64 / input.max(1) as f64
    });
    let truth_json = serde_json::to_vec_pretty(&truth).expect("truth always serializes");
    let manifest = manifest(opts);
    Ok(Simulated {
        data: RunData { manifest, requests, gpu: Some(gpu), host: Some(host), server: Some(server), extra_files: vec![("truth.json".into(), truth_json)] },
        truth,
    })
}

/// A saturated client leaves a backlog of late sends that it works off after the episode;
/// the truth window lasts until the last send more than 5 ms late.
fn extend_to_backlog_end(truth: &mut Truth, records: &[Record]) {
    for a in truth.anomalies.iter_mut().filter(|a| a.cause == "client_saturation") {
        let last_late = records.iter().filter_map(|r| r.scheduled.filter(|s| r.sent - s > 5_000_000)).max();
        if let Some(s) = last_late {
            a.end_s = a.end_s.max((s as f64 / 1e9 * 10.0).ceil() / 10.0);
        }
    }
}

fn validate_options(opts: &SimOptions) -> Result<(), SimError> {
    let bad = |m: String| Err(SimError::Options(m));
    if !(opts.duration_s.is_finite() && opts.duration_s >= 10.0 && opts.duration_s <= 86_400.0) {
        return bad(format!("--duration {} s: must lie between 10 s and 24 h", opts.duration_s));
    }
    match opts.arrival {
        ArrivalProcess::Poisson { rate } | ArrivalProcess::Constant { rate } if !(rate.is_finite() && rate > 0.0 && rate <= 10_000.0) => {
            return bad(format!("--rate {rate}: must lie in (0, 10000] requests/s"));
        }
        ArrivalProcess::ClosedLoop { clients } if clients == 0 || clients > 100_000 => {
            return bad(format!("--concurrency {clients}: must lie in 1..=100000"));
        }
        _ => {}
    }
    if let Some((groups, len)) = opts.prefix
        && (groups == 0 || len == 0 || len > 1 << 20)
    {
        return bad(format!("--prefix-groups {groups} --prefix-len {len}: both must be at least 1 (and the length at most 1048576)"));
    }
    if let Some(c) = opts.sessions {
        let (lo, hi) = c.turns;
        if c.count == 0 || lo == 0 || lo > hi || hi > 999 || !(c.think_s.is_finite() && c.think_s >= 0.0) {
            return bad(format!("--sessions {} --turns {lo}-{hi}: at least one session of 1 to 999 turns, with a think time of 0 s or more", c.count));
        }
        if opts.prefix.is_some() {
            return bad("--sessions and --prefix-groups each choose the prompts: give one of them".into());
        }
    }
    if opts.gpus == 0 || opts.gpus > 64 {
        return bad(format!("--gpus {}: must lie in 1..=64", opts.gpus));
    }
    Ok(())
}

/// Runs client and engine. `with_chunks` false skips building chunk lists (truth runs).
fn simulate_requests(opts: &SimOptions, timeline: &Timeline, seed: u64, with_chunks: bool) -> (Vec<Record>, engine::EngineTrace) {
    let mut draws = Draws::new(seed, opts.prefix, opts.sessions);
    let jobs = match opts.arrival {
        ArrivalProcess::Poisson { rate } | ArrivalProcess::Constant { rate } => open_loop_jobs(opts, timeline, seed, rate, &mut draws),
        ArrivalProcess::ClosedLoop { clients } => closed_loop_jobs(opts, timeline, clients, &mut draws),
    };
    let duration_ns = (timeline.duration_s * 1e9) as i64;
    let lengths = opts.lengths;
    let mut next_job = |done: &Job, free_at: i64| -> Option<Job> {
        let open = |t: i64| t < duration_ns && timeline.conditions(t as f64 / 1e9).rate_share > 0.0;
        // A conversation's next turn, due the think time after the reply (sent late, as any).
        if let Some((due, turn)) = draws.sessions.as_ref().and_then(|d| d.next_turn(done, free_at)) {
            let sent = due + 500_000;
            let job = draws.job(&lengths, timeline, sent, sent);
            let input_tokens = job.input_tokens + turn.history;
            return open(due).then_some(Job { scheduled_ns: Some(due), client: done.client, turn: Some(turn), input_tokens, ..job });
        }
        // A closed-loop client's next request (with sessions: its next session's first turn).
        let (client, sent) = (done.client?, free_at + 500_000);
        if !open(sent) {
            return None;
        }
        let turn = draws.opening()?;
        Some(Job { client: Some(client), turn, ..draws.job(&lengths, timeline, sent, sent) })
    };
    let trace = run_engine(&opts.engine_params(), timeline, seed, jobs, &mut next_job);
    let mut records = observe_records(opts, timeline, seed, &trace, with_chunks, &mut draws.network);
    records.sort_by_key(|r| r.sent);
    (records, trace)
}

/// The random streams the client side draws from, one per purpose so that each stays reproducible.
struct Draws {
    /// With shared prefixes: (groups, tokens) and the stream their groups are drawn from (its
    /// own, so that the other draws stay those of the same run without them).
    prefix: Option<((u32, u32), SimRng)>,
    /// With conversations: the sessions started and their turns' draws.
    sessions: Option<sessions::SessionDraws>,
    lengths: SimRng,
    errors: SimRng,
    network: SimRng,
    client: SimRng,
}

impl Draws {
    /// The client-side streams of `seed`.
    fn new(seed: u64, prefix: Option<(u32, u32)>, sessions: Option<SimSessions>) -> Draws {
        Draws {
            prefix: prefix.map(|p| (p, SimRng::new(seed ^ 0x7072_6566, Stream::Lengths))),
            sessions: sessions.map(|s| sessions::SessionDraws::new(s, seed)),
            lengths: SimRng::new(seed, Stream::Lengths),
            errors: SimRng::new(seed, Stream::Errors),
            network: SimRng::new(seed, Stream::Network),
            client: SimRng::new(seed, Stream::Client),
        }
    }

    /// The next request's turn: with conversations the first of the next session (none once
    /// every session has started), else `Some(None)`.
    fn opening(&mut self) -> Option<Option<engine::Turn>> {
        match self.sessions.as_mut() {
            Some(s) => s.first_turn().map(Some),
            None => Some(None),
        }
    }

    /// Whether a request at `t` fails, at the error probability of the conditions then.
    fn failure_at(&mut self, timeline: &Timeline, t: i64) -> Option<Failure> {
        let rng = &mut self.errors;
        let p = timeline.conditions(t as f64 / 1e9).error_probability;
        if p > 0.0 && rng.chance(p) { Some(if rng.chance(0.5) { Failure::Oom } else { Failure::Timeout }) } else { None }
    }

    /// Network plus the server's front end (HTTP, tokenization): usually ~2 ms, sometimes far
    /// more, so TTFT has a heavy right tail even when the engine is calm.
    fn uplink(&mut self) -> i64 {
        let rng = &mut self.network;
        ((rng.lognormal(0.25, 0.3) + rng.lognormal(2.0, 1.0)) * 1e6) as i64
    }

    /// A request sent at `sent`, with its lengths, arrival and failure (drawn at `failure_t`); no schedule, no client.
    fn job(&mut self, lengths: &Lengths, timeline: &Timeline, sent: i64, failure_t: i64) -> Job {
        let (input, output) = lengths.draw(&mut self.lengths);
        let prefix = self.prefix.as_mut().map(|((groups, len), rng)| (((rng.uniform() * f64::from(*groups)) as u32).min(*groups - 1), *len));
        Job {
            scheduled_ns: None,
            sent_ns: sent,
            arrival_ns: sent + self.uplink(),
            input_tokens: input + prefix.map_or(0, |p| p.1),
            output_tokens: output,
            failure: self.failure_at(timeline, failure_t),
            client: None,
            prefix,
            turn: None,
        }
    }
}

/// Open loop: the seeded schedule, sent by a client that may lag behind it.
fn open_loop_jobs(opts: &SimOptions, timeline: &Timeline, seed: u64, rate: f64, draws: &mut Draws) -> Vec<Job> {
    let schedule = workload::open_loop_schedule(opts.arrival, timeline, seed);
    let mut jobs = Vec::new();
    let mut free_at = i64::MIN;
    for sched in schedule {
        let Some(turn) = draws.opening() else { break };
        let start = sched.max(free_at);
        let overhead = (draws.client.lognormal(0.12, 0.3) * 1e6) as i64;
        let sent = start + overhead;
        let cond = timeline.conditions(start as f64 / 1e9);
        // A saturated client manages only a share of the offered rate. A healthy one
        // sends on time, and works off a backlog at twice the offered rate.
        let gap = match cond.client_capacity_share {
            Some(share) => (draws.client.exponential(1.0 / (share * rate)) * 1e9) as i64,
            None if start - sched > 5_000_000 => (0.5e9 / rate) as i64,
            None => 200_000,
        };
        free_at = sent + gap;
        jobs.push(Job { scheduled_ns: Some(sched), turn, ..draws.job(&opts.lengths, timeline, sent, sched) });
    }
    jobs
}

/// Closed loop: each client's first request, staggered by 10 ms; the engine asks for the next ones.
fn closed_loop_jobs(opts: &SimOptions, timeline: &Timeline, clients: u32, draws: &mut Draws) -> Vec<Job> {
    (0..clients)
        .map_while(|c| {
            let sent = c as i64 * 10_000_000 % 1_000_000_000;
            let turn = draws.opening()?;
            Some(Job { client: Some(c), turn, ..draws.job(&opts.lengths, timeline, sent, sent) })
        })
        .collect()
}

/// What the client records of each served job: downlink delay, a saturated client's late reads, chunks when asked for.
fn observe_records(opts: &SimOptions, timeline: &Timeline, seed: u64, trace: &engine::EngineTrace, with_chunks: bool, net_rng: &mut SimRng) -> Vec<Record> {
    let mut late_rng = SimRng::new(seed ^ 0x1a7e, Stream::Client);
    let mut late_read =
        |t: i64| -> i64 { if timeline.conditions(t as f64 / 1e9).client_capacity_share.is_some() { (late_rng.exponential(8.0) * 1e6) as i64 } else { 0 } };
    (0..trace.jobs.len())
        .map(|j| {
            let job = trace.jobs[j];
            let down = observe::downlink_ns(net_rng);
            let observed = if with_chunks {
                observe::observe(trace, j, down, opts.effect, &mut late_read)
            } else {
                let fe = observe::first_and_end(trace, j, down, opts.effect);
                observe::ClientTimes { first_token_ns: fe.map(|x| x.0), end_ns: fe.map_or(job.sent_ns, |x| x.1), chunks: Vec::new() }
            };
            let client = match job.client {
                Some(c) => format!("client-{c}"),
                None => format!("conn-{}", j % 64),
            };
            Record {
                cached: (job.prefix.is_some() || job.turn.is_some()).then_some(trace.cached[j]).filter(|_| job.failure.is_none()),
                turn: job.turn.map(|t| (t.session, t.index)),
                scheduled: job.scheduled_ns,
                sent: job.sent_ns,
                observed,
                input: job.input_tokens,
                output: if job.failure.is_some() { 0 } else { job.output_tokens },
                failure: job.failure,
                client,
            }
        })
        .collect()
}

fn requests_table(records: &[Record]) -> Result<Table, TableError> {
    let e = RUN_START_EPOCH_NS;
    let n = records.len();
    let mut chunks = TimestampLists::new();
    let mut shifted = Vec::new();
    for r in records {
        if r.observed.chunks.is_empty() {
            chunks.push(None);
        } else {
            shifted.clear();
            shifted.extend(r.observed.chunks.iter().map(|c| c + e));
            chunks.push(Some(&shifted));
        }
    }
    let ids: Vec<String> = (0..n).map(|i| format!("req-{i:06}")).collect();
    let kind = |r: &Record| match r.failure {
        Some(Failure::Oom) => Some("oom"),
        Some(Failure::Timeout) => Some("timeout"),
        None => None,
    };
    let message = |r: &Record| match r.failure {
        Some(Failure::Oom) => Some("CUDA out of memory while allocating KV cache blocks"),
        Some(Failure::Timeout) => Some("no response within the 10 s client timeout"),
        None => None,
    };
    let mut columns = vec![
        ("request_id", utf8_column(ids.iter().map(|s| Some(s.as_str())))),
        ("client_id", utf8_column(records.iter().map(|r| Some(r.client.as_str())))),
        ("client_host", utf8_column(std::iter::repeat_n(Some(telemetry::CLIENT_HOST), n))),
        ("scheduled_ns", Column::Timestamp(records.iter().map(|r| r.scheduled.map(|s| s + e)).collect())),
        ("sent_ns", Column::Timestamp(records.iter().map(|r| Some(r.sent + e)).collect())),
        ("first_token_ns", Column::Timestamp(records.iter().map(|r| r.observed.first_token_ns.map(|s| s + e)).collect())),
        ("end_ns", Column::Timestamp(records.iter().map(|r| Some(r.observed.end_ns + e)).collect())),
        ("chunk_ns", Column::TimestampList(chunks)),
        ("input_tokens", Column::UInt32(records.iter().map(|r| Some(r.input)).collect())),
        ("output_tokens", Column::UInt32(records.iter().map(|r| Some(r.output)).collect())),
        ("cached_tokens", Column::UInt32(records.iter().map(|r| r.cached).collect())),
        ("status", utf8_column(records.iter().map(|r| Some(if r.failure.is_some() { "error" } else { "ok" })))),
        ("error_kind", utf8_column(records.iter().map(kind))),
        ("error_message", utf8_column(records.iter().map(message))),
        (
            "http_status",
            Column::UInt32(
                records
                    .iter()
                    .map(|r| match r.failure {
                        Some(Failure::Oom) => Some(500),
                        Some(Failure::Timeout) => None,
                        None => Some(200),
                    })
                    .collect(),
            ),
        ),
        ("phase", utf8_column(std::iter::repeat_n(None, n))),
    ];
    // Conversations only: a run of independent requests leaves the optional columns out.
    if records.iter().any(|r| r.turn.is_some()) {
        columns.push(("session", Column::UInt32(records.iter().map(|r| r.turn.map(|t| t.0)).collect())));
        columns.push(("turn", Column::UInt32(records.iter().map(|r| r.turn.map(|t| t.1)).collect())));
    }
    Table::from_columns(TableKind::Requests, columns)
}

/// Per-second client activity for the load-generator columns.
fn client_seconds(records: &[Record], last_s: i64) -> Vec<ClientSecond> {
    let secs = (last_s.max(0) + 1) as usize;
    let mut out = vec![ClientSecond::default(); secs];
    let sec = |t: i64| ((t.max(0) / 1_000_000_000) as usize).min(secs - 1);
    let mut inflight_delta = vec![0i64; secs + 1];
    for r in records {
        if let Some(s) = r.scheduled {
            out[sec(s)].planned += 1;
            out[sec(r.sent)].lags_ms.push((r.sent - s) as f64 / 1e6);
        }
        out[sec(r.sent)].sent += 1;
        for &c in &r.observed.chunks {
            out[sec(c)].chunks += 1;
        }
        // In flight at the sample time (the start of each second): sent before it, ended after.
        inflight_delta[sec(r.sent) + 1] += 1;
        inflight_delta[sec(r.observed.end_ns) + 1] -= 1;
    }
    let mut level = 0i64;
    for (s, o) in out.iter_mut().enumerate() {
        level += inflight_delta[s];
        o.inflight = level.max(0) as u32;
    }
    out
}

/// The manifest of a simulated run: what was simulated, with a clean, fully known environment.
fn manifest(opts: &SimOptions) -> Manifest {
    let clock_tables = TableKind::ALL.iter().map(|t| (t.name().to_string(), "simulator clock (epoch ns, exact)".to_string())).collect();
    Manifest {
        format_version: FORMAT_VERSION,
        run_id: format!("sim-{}-{}", opts.scenario.name(), opts.seed),
        creator: Creator { tool: "credence".into(), version: env!("CARGO_PKG_VERSION").into() },
        source: Source {
            kind: SourceKind::Simulator,
            name: opts.scenario.name().into(),
            tool_version: Some(env!("CARGO_PKG_VERSION").into()),
            files: Vec::new(),
            seed: Some(opts.seed),
            capabilities: None,
        },
        labels: labels(opts),
        config: config(opts),
        workload: workload(opts),
        environment: environment(),
        phases: DeclaredPhases {
            warmup_requests: Some(0),
            warmup_s: Some(0.0),
            warmup_included: Some(false),
            note: Some("the simulator declares no warmup; truth.json holds the true one".into()),
            stop: None,
        },
        clock: Clock {
            epoch_origin: "unix_epoch_utc".into(),
            timestamps: TimestampQuality::Absolute,
            tables: clock_tables,
            telemetry_interval_s: Some(1.0),
            timezone_assumed: None,
            conversion: None,
        },
        tables: TableKind::ALL.iter().map(|t| t.name().to_string()).collect(),
        server_scrapes: None,
    }
}

/// The scenario, and the injected effect when there is one.
fn labels(opts: &SimOptions) -> BTreeMap<String, String> {
    let mut labels = BTreeMap::from([("scenario".to_string(), opts.scenario.name().to_string())]);
    if let Some(e) = opts.effect {
        let metric = serde_json::to_value(e.metric).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
        labels.insert("effect".into(), format!("{metric}={:+}%", e.relative * 100.0));
    }
    labels
}

/// The simulated system: engine, model, GPUs and the engine's limits.
fn config(opts: &SimOptions) -> SystemConfig {
    let mut extra = BTreeMap::new();
    extra.insert("max_batch".to_string(), opts.engine.max_batch.to_string());
    extra.insert("kv_cache_tokens".to_string(), opts.engine.kv_tokens.to_string());
    if opts.prefix.is_some() {
        extra.insert("workload".to_string(), "shared_prefix".to_string());
    }
    // As `bench --sessions` records them: the rate counts sessions.
    if opts.sessions.is_some() {
        extra.insert("workload".to_string(), "conversations".to_string());
        if let ArrivalProcess::Poisson { rate } | ArrivalProcess::Constant { rate } = opts.arrival {
            extra.insert("session_rate_per_s".to_string(), format!("{rate}"));
        }
    }
    SystemConfig {
        engine: Some("simulated continuous-batching engine".into()),
        engine_version: Some(env!("CARGO_PKG_VERSION").into()),
        model: Some("sim-8b".into()),
        hardware: Some(format!("{}x simulated 80 GB GPU", opts.gpus)),
        parallelism: Some(format!("tp={}", opts.gpus)),
        extra,
    }
}

/// The simulated workload: arrival process, lengths and duration.
fn workload(opts: &SimOptions) -> Workload {
    let (arrival, rate, concurrency) = match opts.arrival {
        ArrivalProcess::Poisson { rate } => (Arrival::Poisson, Some(rate), None),
        ArrivalProcess::Constant { rate } => (Arrival::Constant, Some(rate), None),
        ArrivalProcess::ClosedLoop { clients } => (Arrival::ClosedLoop, None, Some(clients)),
    };
    Workload {
        arrival,
        // Sessions' turns follow their replies: no request rate is planned (`config.extra`).
        rate_per_s: rate.filter(|_| opts.sessions.is_none()),
        concurrency,
        dataset: None,
        input_length: Some(match (opts.prefix, opts.sessions) {
            (Some((groups, len)), _) => format!("one of {groups} shared system prompts of {len} tokens, then {}", opts.lengths.describe_input()),
            (None, Some(s)) => format!(
                "conversations: {} sessions of {}-{} turns, {} new a turn after the history (earlier turns and the replies), {} s think time",
                s.count,
                s.turns.0,
                s.turns.1,
                opts.lengths.describe_input(),
                s.think_s
            ),
            (None, None) => opts.lengths.describe_input(),
        }),
        output_length: Some(opts.lengths.describe_output()),
        streaming: Some(true),
        connection_reuse: Some(true),
        connections: None,
        duration_s: Some(opts.duration_s),
        tls: None,
        request_headers: Vec::new(),
        in_flight: None,
    }
}

/// The simulated machine's checklist: every item known and clean.
fn environment() -> Environment {
    Environment {
        gpu_temp_at_start_c: Observed::known(38.0),
        gpu_cooling_down: Observed::known(false),
        foreign_gpu_processes: Observed::known(Vec::<GpuProcess>::new()),
        clocks_locked: Observed::known(true),
        application_clocks_set: Observed::known(false),
        persistence_mode: Observed::known(true),
        cpu_governor: Observed::known("performance".into()),
        gpu_memory_used_bytes: Observed::known(0),
        host_memory_used_bytes: Observed::known(14 << 30),
        page_cache_dropped: Observed::known(true),
        server_restarted: Observed::known(true),
        model_path: Observed::known("/models/sim-8b".into()),
        driver_version: Observed::known("simulated".into()),
        cuda_version: Observed::known("simulated".into()),
        nvml_version: Observed::known("simulated".into()),
        engine_version: Observed::known(env!("CARGO_PKG_VERSION").into()),
        kernel: Observed::known("simulated".into()),
        cpu_model: Observed::known("simulated 16-core CPU".into()),
        prefix_cache_reset: Observed::default(),
    }
}
