//! What one run observed, turned into a run directory (requests, host self-instrumentation,
//! manifest) and the end-of-run verdict on the load generator's own limits.

use std::time::Instant;

use crate::collect::host::HostSample;
use credence_run::manifest::*;
use credence_run::rows::{Request, RequestRows};
use credence_run::table::Table;
use credence_run::write::RunData;

use super::pool::PoolReport;
use super::schedule::Load;
use super::{BenchOptions, http};

/// One request's record.
pub(crate) struct Record {
    pub k: u64,
    pub scheduled: Option<Instant>,
    pub sent: Instant,
    pub obs: http::Observed,
    /// The prompt as built: its words (the intended input length), hash and text.
    pub prompt: PromptFacts,
    /// Conversations: (session, turn from 1).
    pub turn: Option<(u64, u32)>,
}

/// A request's prompt as recorded: its words, a hash of what it sent as the prompt (the
/// `prompt` text, or the `messages`' roles and contents), the shared system prompt it drew, and
/// with `--store-prompts` the prompt itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct PromptFacts {
    pub words: u32,
    pub hash: u64,
    /// `--prefix-groups`: the group whose system prompt it opens with.
    pub group: Option<u32>,
    pub stored: Option<serde_json::Value>,
}

impl PromptFacts {
    /// The facts of a request body's `prompt` or `messages` (words and group set by the
    /// caller). The hash reads the strings in place: no copy of the prompt on the send path
    /// unless it is to be stored.
    pub fn of(body: &serde_json::Value, keep: bool) -> PromptFacts {
        let prompt = body.get("messages").or_else(|| body.get("prompt"));
        // FNV-1a, 64 bits: stable across builds and platforms, unlike the standard hasher.
        let fnv = |h: u64, bytes: &[u8]| bytes.iter().fold(h, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3));
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        match prompt {
            Some(serde_json::Value::Array(messages)) => {
                for m in messages {
                    for key in ["role", "content"] {
                        // A 0 byte ends each string, so that "ab"+"c" and "a"+"bc" differ.
                        hash = fnv(fnv(hash, m[key].as_str().unwrap_or_default().as_bytes()), &[0]);
                    }
                }
            }
            Some(p) => hash = fnv(hash, p.as_str().unwrap_or_default().as_bytes()),
            None => {}
        }
        PromptFacts { words: 0, hash, group: None, stored: prompt.filter(|_| keep).cloned() }
    }
}

/// Per-second self-instrumentation.
#[derive(Default)]
pub(crate) struct Second {
    pub planned: u64,
    pub sent: u64,
    pub lags_ms: Vec<f64>,
}

/// What the run found about its own limits. Its counts are of the run's records (its rows).
#[derive(Debug, Default)]
pub struct Limits {
    /// The most CPU the client used in one second, in cores (at most `cores`).
    pub cpu_cores_max: Option<f64>,
    pub cores: usize,
    pub send_lag_p99_ms: Option<f64>,
    pub late_sends: u64,
    /// Sends that found every connection busy.
    pub queued_sends: u64,
    pub warnings: Vec<String>,
}

/// Milliseconds with enough digits to be read at sub-millisecond scales.
fn fmt_ms(v: f64) -> String {
    if v >= 10.0 {
        format!("{v:.0} ms")
    } else if v >= 1.0 {
        format!("{v:.1} ms")
    } else {
        format!("{v:.3} ms")
    }
}

/// Turns one run's records into its run directory (requests, host, manifest) and its verdict
/// on the generator's own limits. `waited` holds the sends that found every connection busy
/// and what a growing pool did.
pub(crate) fn build(
    o: &BenchOptions,
    anchor: (Instant, i64),
    records: Vec<Record>,
    seconds: Vec<Second>,
    host_rows: Vec<(HostSample, u32)>,
    waited: (u64, Option<PoolReport>),
    environment: Environment,
) -> Result<(RunData, Limits), String> {
    let (requests, warm) = request_table(o, anchor, &records)?;
    let late_ms = late_threshold_ms(o);
    let own = self_instrumentation(o, host_rows, &seconds, &records, late_ms);
    let host = crate::collect::host_table(&own.samples, &crate::collect::host_name())?;
    let peak = peak_in_flight(&records);
    let limits = limits(o, &own, &seconds, &waited, late_ms, Demand { peak, needed: littles_law_in_flight(o, &records) });
    let manifest = manifest(o, (anchor, &records), warm, environment, in_flight(o, waited.1.as_ref(), peak), waited.1.as_ref());
    let extra_files = if o.store_prompts { vec![(PROMPTS_FILE.to_string(), prompts_jsonl(&records))] } else { Vec::new() };
    Ok((RunData { manifest, requests, gpu: None, host: Some(host), server: None, extra_files }, limits))
}

/// Where `--store-prompts` keeps the prompts in the run directory.
pub const PROMPTS_FILE: &str = "prompts.jsonl";

/// Every distinct prompt sent, once, in order of first send: `{"prompt_hash", "prompt"}` per
/// line, the prompt as the request carried it (a text, or the chat messages).
fn prompts_jsonl(records: &[Record]) -> Vec<u8> {
    let mut sent: Vec<&Record> = records.iter().collect();
    sent.sort_by_key(|r| r.sent);
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for r in sent.into_iter().filter(|r| seen.insert(r.prompt.hash)) {
        let line = serde_json::json!({"prompt_hash": format!("{:016x}", r.prompt.hash), "prompt": r.prompt.stored});
        out.extend_from_slice(line.to_string().as_bytes());
        out.push(b'\n');
    }
    out
}

/// The most requests in flight at once, from the records' send and end times.
fn peak_in_flight(records: &[Record]) -> u32 {
    let mut events: Vec<(Instant, i32)> = records.iter().flat_map(|r| [(r.sent, 1), (r.obs.end.unwrap_or(r.sent).max(r.sent), -1)]).collect();
    // Ends before sends at the same instant: a connection reused at once is not two in flight.
    events.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut now = 0i32;
    events
        .iter()
        .map(|(_, d)| {
            now += d;
            now
        })
        .max()
        .unwrap_or(0)
        .max(0) as u32
}

/// Requests in flight the offered rate needs by Little's law: the rate times the mean time
/// from send to end; none for a closed loop or a run without records.
fn littles_law_in_flight(o: &BenchOptions, records: &[Record]) -> Option<f64> {
    let rate = interarrival_ms(o).map(|i| 1000.0 / i)?;
    let n = records.len();
    let mean_s = records.iter().map(|r| r.obs.end.unwrap_or(r.sent).saturating_duration_since(r.sent).as_secs_f64()).sum::<f64>() / n.max(1) as f64;
    (n > 0).then_some(rate * mean_s)
}

/// The in-flight bound as the manifest records it.
fn in_flight(o: &BenchOptions, pool: Option<&PoolReport>, peak: u32) -> InFlight {
    let (limit, limited_by) = match o.load {
        Load::Closed(c) => (c, "concurrency"),
        _ => (o.bound.limit(), o.bound.source()),
    };
    let prewarmed = match (o.load, pool) {
        (Load::Closed(c), _) => c,
        (_, Some(p)) => p.prewarmed,
        (_, None) => o.bound.limit(),
    };
    InFlight {
        limit,
        limited_by: limited_by.into(),
        fd_soft_limit: o.fd_limit.map(|f| f.soft),
        fd_hard_limit: o.fd_limit.map(|f| f.hard),
        prewarmed: if o.new_connection_per_request { 0 } else { prewarmed },
        peak,
    }
}

/// An instant as epoch nanoseconds, through the one anchor taken at start.
fn epoch_ns(anchor: (Instant, i64), t: Instant) -> i64 {
    anchor.1 + t.saturating_duration_since(anchor.0).as_nanos() as i64
}

/// The requests table, and how many of its rows are warmup.
fn request_table(o: &BenchOptions, anchor: (Instant, i64), records: &[Record]) -> Result<(Table, u64), String> {
    let at = |t: Instant| epoch_ns(anchor, t);
    let mut rows = RequestRows::default();
    let mut warm = 0u64;
    for r in records {
        let ok = r.obs.error.is_none();
        let started_s = r.scheduled.unwrap_or(r.sent).saturating_duration_since(anchor.0).as_secs_f64();
        // In conversations, the first N sessions are the warmup.
        let warmup = r.turn.map_or(r.k, |t| t.0) < o.warmup_requests || started_s < o.warmup_s;
        warm += u64::from(warmup);
        // A server may echo the API key or a header value in its error body: never store it.
        let (kind, message) = r.obs.error.as_ref().map_or((None, None), |(k, m)| (Some(*k), Some(o.headers.scrub(m))));
        rows.push(Request {
            id: format!("{}", r.k),
            scheduled_ns: r.scheduled.map(at),
            sent_ns: at(r.sent),
            first_byte_ns: r.obs.first_byte.map(at),
            first_token_ns: r.obs.first_token.filter(|_| ok).map(at),
            first_content_ns: r.obs.first_content.filter(|_| ok).map(at),
            end_ns: at(r.obs.end.unwrap_or(r.sent)).max(at(r.sent)),
            chunk_ns: (ok && !r.obs.chunks.is_empty()).then(|| r.obs.chunks.iter().map(|c| at(*c)).collect()),
            input_tokens: r.obs.prompt_tokens,
            output_tokens: r.obs.completion_tokens,
            reasoning_tokens: r.obs.reasoning_tokens,
            cached_tokens: r.obs.cached_tokens,
            intended_input_tokens: Some(r.prompt.words).filter(|w| *w > 0),
            prompt_hash: Some(format!("{:016x}", r.prompt.hash)),
            session: r.turn.map(|t| t.0 as u32),
            adapter: o.adapters.as_ref().map(|a| a.of(o.seed, r.turn.map_or(r.k, |t| t.0)).to_string()),
            turn: r.turn.map(|t| t.1),
            ok,
            error_kind: kind,
            error_message: message,
            http_status: r.obs.http_status,
            phase: Some(if warmup { "warmup" } else { "measure" }),
            ..Default::default()
        });
    }
    Ok((rows.into_table()?, warm))
}

/// Median, P99 and maximum of one set of send lags.
fn lag_stats(v: &[f64]) -> (Option<f64>, Option<f64>, Option<f64>) {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let q = |p: f64| credence_stats::quantile::quantile_sorted(&s, p);
    (q(0.5), q(0.99), s.last().copied())
}

/// The mean planned inter-arrival time; none for a closed loop, which plans no send times.
fn interarrival_ms(o: &BenchOptions) -> Option<f64> {
    match o.load {
        Load::Poisson(r) | Load::Constant(r) | Load::Gamma(r, _) | Load::Trace(r) => Some(1000.0 / r),
        Load::Closed(_) => None,
    }
}

/// The send lag above which a send counts as late: 5 ms or 10 % of the mean inter-arrival time.
fn late_threshold_ms(o: &BenchOptions) -> f64 {
    interarrival_ms(o).map_or(5.0, |i| (0.1 * i).min(5.0))
}

/// The host samples with their load-generator columns filled in, and the run's send lags.
struct OwnLoad {
    samples: Vec<HostSample>,
    all_lags: Vec<f64>,
    late: u64,
}

/// Writes the per-second self-instrumentation into the host table's load-generator columns;
/// the run's send lags and late count come from the records, the same set as the rows.
fn self_instrumentation(o: &BenchOptions, host_rows: Vec<(HostSample, u32)>, seconds: &[Second], records: &[Record], late_ms: f64) -> OwnLoad {
    let interarrival_ms = interarrival_ms(o);
    let mut samples: Vec<HostSample> = Vec::new();
    for (i, (mut h, inflight)) in host_rows.into_iter().enumerate() {
        if let Some(sec) = seconds.get(i) {
            let (p50, p99, max) = lag_stats(&sec.lags_ms);
            h.lg_send_lag_p50_ms = p50;
            h.lg_send_lag_p99_ms = p99;
            h.lg_send_lag_max_ms = max;
            h.lg_planned_sends = interarrival_ms.map(|_| sec.planned);
            h.lg_actual_sends = Some(sec.sent);
        }
        h.lg_dropped_sends = Some(0);
        h.lg_inflight = Some(inflight);
        samples.push(h);
    }
    let all_lags: Vec<f64> = records.iter().filter_map(|r| Some(r.sent.saturating_duration_since(r.scheduled?).as_secs_f64() * 1e3)).collect();
    let late = all_lags.iter().filter(|l| **l > late_ms).count() as u64;
    OwnLoad { samples, all_lags, late }
}

/// The requests in flight the run reached, and those its offered rate needed (Little's law).
struct Demand {
    peak: u32,
    needed: Option<f64>,
}

/// The generator's own limits, with a warning for each it reached.
fn limits(o: &BenchOptions, own: &OwnLoad, seconds: &[Second], waited: &(u64, Option<PoolReport>), late_ms: f64, demand: Demand) -> Limits {
    let samples = &own.samples;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Tick rounding can put a reading a hair above the cores the process may use; no process
    // uses more, so the figure is held to them.
    let cpu_cores_max = samples.iter().filter_map(|h| h.lg_cpu_pct).reduce(f64::max).map(|c| (c / 100.0).min(cores as f64));
    let mut limits =
        Limits { cpu_cores_max, cores, send_lag_p99_ms: lag_stats(&own.all_lags).1, late_sends: own.late, queued_sends: waited.0, warnings: Vec::new() };
    if let Some(c) = limits.cpu_cores_max.filter(|c| *c >= 0.8 * cores as f64) {
        limits.warnings.push(format!("the load generator used up to {c:.2} of its {cores} cores (≥ 80 %): add client processes or hosts, or lower the rate"));
    }
    if let Some(t) = samples.iter().filter_map(|h| h.lg_max_thread_cpu_pct).reduce(f64::max).filter(|t| *t >= 95.0) {
        limits.warnings.push(format!("its hottest thread reached {:.0} % of a core: add client processes", t.min(100.0)));
    }
    if let Some(l) = limits.send_lag_p99_ms.filter(|l| *l > late_ms) {
        let cause = late_send_cause(o, own, seconds, waited, &demand, late_ms);
        limits.warnings.push(format!(
            "P99 send lag was {} (limit {}: 5 ms or 10 % of the mean inter-arrival time, whichever is smaller); {} of {} sends were late. {cause}",
            fmt_ms(l),
            fmt_ms(late_ms),
            own.late,
            own.all_lags.len()
        ));
    }
    if let Some(why) = waited.1.as_ref().and_then(|p| p.refused.as_ref()) {
        limits.warnings.push(format!("{why}: the pool stopped growing there (an OS limit on threads; raise ulimit -u or kernel.threads-max)"));
    }
    limits
}

/// Why sends were late (the hypervisor, the in-flight bound, a pool that grew too slowly or
/// the client's own threads), with the numbers.
fn late_send_cause(o: &BenchOptions, own: &OwnLoad, seconds: &[Second], waited: &(u64, Option<PoolReport>), demand: &Demand, late_ms: f64) -> String {
    let queued = waited.0;
    // Seconds with late sends, and how much CPU the hypervisor took from this VM in them.
    let late_seconds: Vec<&HostSample> =
        own.samples.iter().enumerate().filter(|(i, _)| seconds.get(*i).is_some_and(|s| s.lags_ms.iter().any(|l| *l > late_ms))).map(|(_, h)| h).collect();
    let steal = late_seconds.iter().filter_map(|h| h.cpu_steal_pct).reduce(f64::max).filter(|s| *s >= 5.0);
    let limit = o.bound.limit();
    if let Some(st) = steal {
        format!(
            "the hypervisor took up to {st:.0} % of this machine's CPU (steal) in the seconds with late sends: the machine, not the client, stalled; use a dedicated host or rerun"
        )
    } else if queued as f64 >= 0.01 * own.all_lags.len().max(1) as f64 && demand.peak >= limit {
        let needed = demand.needed.map_or("more".to_string(), |n| format!("about {:.0}", n.ceil()));
        format!(
            "{queued} requests found every connection busy and waited: {} held requests in flight to {limit}, and the offered rate needed {needed} (Little's law: rate × mean latency); raise it or lower the rate",
            o.bound.describe()
        )
    } else if queued as f64 >= 0.01 * own.all_lags.len().max(1) as f64 {
        format!(
            "{queued} requests were taken up late though the in-flight bound was not reached (peak {} of {limit}): the client's threads were starved of CPU; give it its own cores or lower the rate",
            demand.peak
        )
    } else {
        "connections were free, so the lag is the client's threads waking late: give the client its own cores or host (it competes for CPU), use more client processes, or lower the rate".to_string()
    }
}

/// The run's manifest: a collector run of credence bench, its workload, phases and clock.
fn manifest(o: &BenchOptions, (anchor, records): ((Instant, i64), &[Record]), warm: u64, environment: Environment, in_flight: InFlight, pool: Option<&PoolReport>) -> Manifest {
    Manifest {
        format_version: credence_run::schema::FORMAT_VERSION,
        run_id: format!("bench-{}", anchor.1),
        creator: Creator { tool: "credence".into(), version: env!("CARGO_PKG_VERSION").into() },
        source: Source {
            kind: SourceKind::Collector,
            name: "credence bench".into(),
            tool_version: Some(env!("CARGO_PKG_VERSION").into()),
            files: Vec::new(),
            seed: Some(o.seed),
            capabilities: None,
        },
        labels: Default::default(),
        config: SystemConfig { model: Some(o.model.clone()), extra: workload_extra(o, records), ..Default::default() },
        workload: Workload { in_flight: Some(in_flight), ..workload(o, pool) },
        environment,
        phases: DeclaredPhases {
            warmup_requests: Some(warm),
            warmup_s: (o.warmup_s > 0.0).then_some(o.warmup_s),
            warmup_included: Some(true),
            note: Some(credence_run::env_notes::WARMUP_MARKED.into()),
            stop: None,
        },
        clock: Clock {
            epoch_origin: "unix_epoch_utc".into(),
            timestamps: TimestampQuality::Absolute,
            tables: [("requests", "monotonic clock anchored once to CLOCK_REALTIME"), ("host", "monotonic clock anchored once to CLOCK_REALTIME")]
                .into_iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            telemetry_interval_s: Some(1.0),
            timezone_assumed: None,
            conversion: Some("Instant offsets from one anchor taken at start".into()),
        },
        tables: vec!["requests".into(), "host".into()],
        server_scrapes: None,
    }
}

/// What the prompts were, as the manifest words it, and whether their lengths are exact.
fn input_length(o: &BenchOptions) -> String {
    let synthetic = o.input_len.describe();
    let (unit, tagged) = match o.vocab.tokenizer() {
        Some(_) => ("tokens", ""),
        None => ("words", ", opening with the request number"),
    };
    let what = match (&o.trace, o.prefix, o.sessions) {
        (Some(t), _, _) => format!("from the trace: {} records, blocks of {} {unit} per hash id, time × {}", t.entries.len(), t.block, t.speed),
        (None, Some(p), _) if o.sonnet.is_some() => format!("the sonnets' first {} {unit} (shared), then {synthetic} {unit} of their lines drawn by the seed", p.len),
        (None, None, _) if o.sonnet.is_some() => format!("{synthetic} {unit} of the sonnets' lines drawn by the seed"),
        (None, Some(p), _) => format!("one of {} shared system prompts of {} {unit}, then {synthetic} {unit} (synthetic{tagged})", p.groups, p.len),
        (None, None, Some(s)) => format!(
            "conversations: {} sessions of {}-{} turns, {synthetic} new {unit} a turn after the history (earlier turns and the actual replies), {} s think time",
            s.count, s.turns.0, s.turns.1, s.think_s
        ),
        _ if o.prompts.is_empty() => format!("{synthetic} {unit} (synthetic prompts{tagged})"),
        _ => format!("{} prompts from the dataset, cycled in order (output length from the dataset where it gives one)", o.prompts.len()),
    };
    match o.vocab.tokenizer() {
        Some(t) => format!("{what}; lengths exact in tokens of {}", t.source),
        None => format!("{what}; lengths approximate (words, about one token each: no --tokenizer)"),
    }
}

/// The workload's own facts for `config.extra`: how it was made, and the share of prompt words
/// that repeat an earlier request's leading words (what a prefix cache of one-word blocks, never
/// full, would serve: the ceiling of any cache's hit rate on this workload).
fn workload_extra(o: &BenchOptions, records: &[Record]) -> std::collections::BTreeMap<String, String> {
    let mut extra = std::collections::BTreeMap::new();
    extra.insert("prompt_lengths".into(), if o.vocab.tokenizer().is_some() { "exact" } else { "approximate" }.into());
    if let Some(a) = &o.adapters {
        extra.insert("lora_adapters".into(), format!("{} ({})", a.names.join(","), if a.round_robin { "round-robin" } else { "random by the seed" }));
    }
    let kind = match (&o.trace, o.prefix, o.sessions) {
        _ if o.sonnet.is_some() => "sonnet",
        (Some(_), _, _) => "trace_replay",
        (None, Some(_), _) => "shared_prefix",
        (None, None, Some(_)) => "conversations",
        _ => return extra,
    };
    extra.insert("workload".into(), kind.into());
    if let (Some(_), Some(rate)) = (o.sessions, o.load.offered_per_s()) {
        extra.insert("session_rate_per_s".into(), format!("{rate}"));
    }
    if let Some(reuse) = expected_reuse(o, records) {
        extra.insert("expected_prefix_reuse".into(), format!("{reuse:.4}"));
    }
    extra
}

/// Reused over all prompt words of the requests sent, in send order; none when unknown.
fn expected_reuse(o: &BenchOptions, records: &[Record]) -> Option<f64> {
    let mut sent: Vec<&Record> = records.iter().collect();
    sent.sort_by_key(|r| r.sent);
    let total: f64 = sent.iter().map(|r| f64::from(r.prompt.words)).sum();
    let reused: f64 = if let Some(t) = &o.trace {
        let mut seen = std::collections::HashSet::new();
        sent.iter()
            .map(|r| {
                let e = &t.entries[r.k as usize];
                let lead = e.hash_ids.iter().take_while(|id| seen.contains(*id)).count() as u32;
                seen.extend(e.hash_ids.iter().copied());
                f64::from((lead * t.block).min(e.input_len))
            })
            .sum()
    } else if let Some(p) = o.prefix {
        let mut seen = std::collections::HashSet::new();
        sent.iter().map(|r| if r.prompt.group.is_none_or(|g| seen.insert(g)) { 0.0 } else { f64::from(p.len) }).sum()
    } else {
        // A conversation's turn repeats the words of the turn before it (its prompt).
        let mut last: std::collections::HashMap<u64, u32> = std::collections::HashMap::new();
        sent.iter().map(|r| r.turn.map_or(0.0, |(s, _)| f64::from(last.insert(s, r.prompt.words).unwrap_or(0)))).sum()
    };
    (total > 0.0).then(|| reused / total)
}

/// The workload as the options declared it: arrival process, lengths, connections (a growing
/// pool's largest size).
fn workload(o: &BenchOptions, pool: Option<&PoolReport>) -> Workload {
    let (arrival, rate, concurrency) = match o.load {
        Load::Poisson(r) => (Arrival::Poisson, Some(r), None),
        Load::Constant(r) => (Arrival::Constant, Some(r), None),
        Load::Gamma(r, _) => (Arrival::Unknown, Some(r), None),
        Load::Trace(r) => (Arrival::TraceReplay, Some(r), None),
        Load::Closed(c) => (Arrival::ClosedLoop, None, Some(c)),
    };
    Workload {
        arrival,
        // Conversations: the rate counts sessions, not requests (config.extra says it).
        rate_per_s: rate.filter(|_| o.sessions.is_none()),
        concurrency,
        dataset: o.dataset.clone().or_else(|| o.trace.as_ref().map(|t| format!("trace {} (Mooncake)", t.path))),
        input_length: Some(input_length(o)),
        output_length: Some(format!(
            "{} tokens (max_tokens{})",
            o.output_len.describe(),
            if o.ignore_eos { ", ignore_eos" } else { "; the model may stop earlier" }
        )),
        streaming: Some(true),
        connection_reuse: Some(!o.new_connection_per_request),
        connections: Some(match (o.load, pool) {
            (Load::Closed(c), _) => c,
            (_, Some(p)) => p.peak,
            (_, None) => o.bound.limit(),
        }),
        duration_s: o.duration_s,
        tls: o.tls_use.clone(),
        request_headers: o.headers.names().to_vec(),
        in_flight: None,
    }
}
