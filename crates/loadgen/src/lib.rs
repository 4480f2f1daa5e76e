//! `credence bench`: an open- or closed-loop load generator for OpenAI-compatible streaming
//! servers that records honest per-request timing and knows when it is the bottleneck.
//!
//! Open loop: each idle connection claims the next slot of a seeded schedule (`schedule`),
//! sleeps until its time and sends; a request sent late keeps its scheduled time, so
//! coordinated omission is measured, never hidden. Closed loop: each connection sends its next
//! request as soon as the last one ends. One monotonic clock, anchored once to epoch time.
//! Warmup requests are marked, not deleted. `record` turns what was observed into the run
//! directory and the verdict on the generator's own limits.

pub mod cache_reset;
pub mod collect;
pub mod dataset;
pub mod headers;
pub mod http;
pub mod mock_cache;
pub mod mock_engine;
pub mod mock_secure;
pub mod mock_server;
pub mod mock_timeline;
pub mod sonnet;
pub mod tls;
pub mod tokens;
pub mod workload;

mod conversation;
pub mod in_flight;
pub mod lengths;
mod pool;
mod record;
pub mod schedule;
mod self_sample;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::collect::host::HostSample;
use credence_run::write::RunData;
use lengths::LengthDist;
pub use record::Limits;
use record::{Record, Second, build};
pub use schedule::Load;
use schedule::Schedule;

#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// `host:port`.
    pub hostport: String,
    /// HTTPS: how every connection is opened; `None` for plain HTTP.
    pub tls: Option<tls::TlsClient>,
    /// HTTPS as `run.json` records it (whether verification was skipped, the CA file's name).
    pub tls_use: Option<credence_run::manifest::TlsUse>,
    /// The API key and `--header`s sent with every request; only their names are recorded.
    pub headers: headers::RequestHeaders,
    pub chat: bool,
    pub model: String,
    pub load: Load,
    pub duration_s: Option<f64>,
    pub requests: Option<u64>,
    /// The first N requests are warmup.
    pub warmup_requests: u64,
    /// Requests scheduled (or sent, closed loop) in the first S seconds are warmup.
    pub warmup_s: f64,
    /// Prompt length in words (synthetic prompts only).
    pub input_len: LengthDist,
    /// Output tokens asked for (`max_tokens`, with `ignore_eos` unless turned off).
    pub output_len: LengthDist,
    /// Send vLLM's `ignore_eos` so that every response runs to `max_tokens`.
    pub ignore_eos: bool,
    /// Open loop: what bounds the connections (and so the requests in flight).
    pub bound: in_flight::Bound,
    /// The file-descriptor limit in force (raised at start where the OS allowed it).
    pub fd_limit: Option<in_flight::FdLimit>,
    pub new_connection_per_request: bool,
    pub timeout: Duration,
    pub seed: u64,
    /// Prompts from `--dataset` (cycled in order); empty: synthetic prompts of `input_len`.
    pub prompts: Vec<dataset::DatasetPrompt>,
    pub dataset: Option<String>,
    /// `--prefix-groups G --prefix-len L`: each prompt opens with one of G shared system prompts.
    pub prefix: Option<workload::SharedPrefix>,
    /// `--trace FILE`: the schedule, lengths and prompt blocks come from a timestamped trace.
    pub trace: Option<Arc<workload::Trace>>,
    /// `--sessions N`: conversations; the load's rate or concurrency counts sessions.
    pub sessions: Option<workload::Sessions>,
    /// Empty the server's prefix cache before the load (`cache_reset`).
    pub reset_prefix_cache: bool,
    /// `--lora`: the adapters requests name as their model.
    pub adapters: Option<workload::Adapters>,
    /// `--store-prompts`: keep every distinct prompt as sent, for `prompts.jsonl`.
    pub store_prompts: bool,
    /// What synthetic prompts are made of: words, or with `--tokenizer` one-token words.
    pub vocab: lengths::Vocab,
    /// `--sonnet`: prompts of verse lines (and the poem's opening as the shared prefix).
    pub sonnet: Option<Arc<sonnet::Sonnet>>,
    /// `--prompt-token-ids`: completions prompts go as token ids (needs a tokenizer).
    pub prompt_token_ids: bool,
}

impl BenchOptions {
    /// Requests a second the open loop offers: the schedule's rate, or with sessions (whose
    /// rate counts sessions) that rate times the turns a session sends on average. None for a
    /// closed loop.
    pub fn offered_requests_per_s(&self) -> Option<f64> {
        Some(self.load.offered_per_s()? * self.requests_per_session())
    }

    /// The turns a session sends on average (a dataset's conversations, else `--turns`); 1
    /// without sessions.
    pub fn requests_per_session(&self) -> f64 {
        let Some(sessions) = self.sessions else { return 1.0 };
        let (lo, hi) = sessions.turns;
        let drawn = (f64::from(lo) + f64::from(hi)) / 2.0;
        if self.prompts.is_empty() {
            return drawn;
        }
        // As `conversation` does: a conversation with no turns of its own draws them.
        let turns = |n: usize| if n == 0 { drawn } else { n.min(conversation::MAX_TURNS as usize - 1) as f64 };
        self.prompts.iter().map(|p| turns(p.turns.len())).sum::<f64>() / self.prompts.len() as f64
    }

    /// The model request `k` names: its adapter with `--lora`, else `--model`.
    fn model_of(&self, k: u64) -> &str {
        self.adapters.as_ref().map_or(self.model.as_str(), |a| a.of(self.seed, k))
    }

    /// A prompt of `units` words as the server should count it: with a tokenizer, its tokens
    /// plus those the tokenizer adds (a BOS) to a completions prompt sent as text. A chat
    /// template's tokens are the server's own and are not counted.
    fn intended_tokens(&self, units: u32) -> u32 {
        match self.vocab.tokenizer() {
            Some(t) if !self.chat && !self.prompt_token_ids => units + t.added(),
            _ => units,
        }
    }
}

fn api_path(o: &BenchOptions) -> &'static str {
    if o.chat { "/v1/chat/completions" } else { "/v1/completions" }
}

/// Request `k` as sent: its bytes and the words of its prompt. Its lengths and prompt come
/// from its own seeded stream, so the same seed gives the same requests whichever thread
/// builds them.
fn request_for(o: &BenchOptions, k: u64) -> (Vec<u8>, record::PromptFacts) {
    let mut rng = lengths::request_rng(o.seed, k);
    let mut max_tokens = o.output_len.sample(&mut rng);
    let (mut system, mut group) = (None, None);
    if let Some(d) = (!o.prompts.is_empty()).then(|| &o.prompts[(k % o.prompts.len() as u64) as usize]) {
        return dataset_request(o, d, (d.output_len.unwrap_or(max_tokens), o.model_of(k)));
    }
    // The words are known as the prompt is built: a trace record's length, or the drawn length
    // plus the system prompt's.
    let (p, words) = if let Some(trace) = &o.trace {
        let e = &trace.entries[k as usize];
        max_tokens = e.output_len;
        (trace.prompt(o.seed, k as usize, &o.vocab), e.input_len)
    } else {
        let words = o.input_len.sample(&mut rng);
        if let Some(prefix) = o.prefix {
            let g = prefix.group(&mut rng);
            let mut shared = String::new();
            match &o.sonnet {
                Some(s) => shared.push_str(s.opening()),
                None => workload::block_words(o.seed, u64::from(g), prefix.len, &mut shared, &o.vocab),
            }
            (system, group) = (Some(shared), Some(g));
        }
        let prefix_len = o.prefix.map_or(0, |x| x.len);
        match &o.sonnet {
            Some(s) => {
                let (verse, built) = s.verse(words, &o.vocab, &mut rng);
                // Completions join the opening and the verse with a line break, which counts.
                let joint = if system.is_some() && !o.chat { s.newline() } else { 0 };
                (verse, built + prefix_len + joint)
            }
            None => (lengths::synthetic_prompt(k, words, &mut rng, &o.vocab), words + prefix_len),
        }
    };
    let (body, facts) = if o.chat {
        let mut messages = Vec::new();
        if let Some(s) = system {
            messages.push(serde_json::json!({"role": "system", "content": s}));
        }
        messages.push(serde_json::json!({"role": "user", "content": p}));
        body_of(o, serde_json::json!({"model": o.model_of(k), "messages": messages}), max_tokens)
    } else {
        let prompt = match system {
            // Verse keeps its lines: the verse starts on a line of its own.
            Some(s) if o.sonnet.is_some() => format!("{s}\n{p}"),
            Some(s) => format!("{s} {p}"),
            None => p,
        };
        body_of(o, serde_json::json!({"model": o.model_of(k), "prompt": prompt}), max_tokens)
    };
    let words = o.intended_tokens(words);
    (http::request_bytes(&o.hostport, api_path(o), o.headers.lines(), &body), record::PromptFacts { words, group, ..facts })
}

/// A dataset prompt as a request: its messages as given with `--api chat` (else one user
/// message), its text for completions.
fn dataset_request(o: &BenchOptions, d: &dataset::DatasetPrompt, (max_tokens, model): (u32, &str)) -> (Vec<u8>, record::PromptFacts) {
    let (body, facts) = if o.chat {
        let messages: Vec<serde_json::Value> = match &d.messages {
            Some(ms) => ms.iter().map(|(role, content)| serde_json::json!({"role": role, "content": content})).collect(),
            None => vec![serde_json::json!({"role": "user", "content": d.text})],
        };
        body_of(o, serde_json::json!({"model": model, "messages": messages}), max_tokens)
    } else {
        body_of(o, serde_json::json!({"model": model, "prompt": d.text}), max_tokens)
    };
    let words = o.intended_tokens(d.length.unwrap_or_else(|| o.vocab.count(&d.text)));
    (http::request_bytes(&o.hostport, api_path(o), o.headers.lines(), &body), record::PromptFacts { words, ..facts })
}

/// A request body: `v` (model and prompt or messages) with the streaming and length fields.
fn body_of(o: &BenchOptions, mut v: serde_json::Value, max_tokens: u32) -> (Vec<u8>, record::PromptFacts) {
    let facts = record::PromptFacts::of(&v, o.store_prompts);
    if let (true, Some(t), Some(text)) = (o.prompt_token_ids, o.vocab.tokenizer(), v.get("prompt").and_then(|p| p.as_str())) {
        v["prompt"] = t.ids_of(text).into();
    }
    v["max_tokens"] = max_tokens.into();
    v["stream"] = true.into();
    v["stream_options"] = serde_json::json!({"include_usage": true});
    if o.ignore_eos {
        v["ignore_eos"] = true.into();
    }
    (serde_json::to_vec(&v).expect("a JSON body"), facts)
}

/// Telemetry sampled beside the load, once a second, on its own thread.
pub struct Beside {
    pub gpus: Option<Box<dyn crate::collect::gpu::GpuSource + Send>>,
    pub server_metrics: Option<String>,
    pub gpu_note: Option<String>,
}

/// What was sampled beside the load: the GPUs, and the server's metrics with how their
/// scrapes went.
#[derive(Default)]
struct SampledBeside {
    gpu: credence_run::rows::GpuRows,
    server: Vec<crate::collect::scrape::ServerSample>,
    scrapes: Option<crate::collect::scrape::ScrapeLog>,
}

/// Samples GPUs every second until `stop`, and the server's metrics on a thread of their own
/// (a slow endpoint must not delay the GPU samples).
fn sample_beside(b: Beside, stop: Arc<AtomicBool>) -> SampledBeside {
    let scraper = b.server_metrics.clone().map(|url| {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut rows = Vec::new();
            let log = crate::collect::scrape::scrape_loop(&url, 1.0, &|| stop.load(Ordering::SeqCst), |r| rows.extend(r));
            (rows, log)
        })
    });
    let gpu = sample_gpus_beside(b, &stop);
    let (server, scrapes) = match scraper.and_then(|t| t.join().ok()) {
        Some((rows, log)) => (rows, Some(log)),
        None => (Vec::new(), None),
    };
    SampledBeside { gpu, server, scrapes }
}

/// Samples the GPUs every second until `stop` (none without a GPU source).
fn sample_gpus_beside(b: Beside, stop: &AtomicBool) -> credence_run::rows::GpuRows {
    let mut gpu = credence_run::rows::GpuRows::default();
    let Some(mut g) = b.gpus else { return gpu };
    let host = crate::collect::host_name();
    let devices = g.devices().len();
    let mut deadline = Instant::now();
    loop {
        let before = gpu.rows.len();
        crate::collect::sample_gpus(g.as_mut(), devices, &host, &mut gpu);
        *GPU_NOW.lock().expect("gpu now") = gpu.rows[before..].iter().map(GpuNow::of).collect();
        if WATCHED.load(Ordering::SeqCst) {
            GPU_NEW.lock().expect("gpu new").extend(gpu.rows[before..].iter().cloned());
        }
        deadline += Duration::from_secs(1);
        if !sleep_until(deadline, stop) {
            return gpu;
        }
    }
}

/// Sleeps until `deadline` in short steps; false when `stop` was raised.
fn sleep_until(deadline: Instant, stop: &AtomicBool) -> bool {
    loop {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        let now = Instant::now();
        if now >= deadline {
            return true;
        }
        std::thread::sleep((deadline - now).min(Duration::from_millis(20)));
    }
}

pub use credence_run::rows::Finished;

/// Watches the load once a second and may end it (`bench --until`).
pub trait Watcher: Sync {
    /// `done`: the requests finished since the last call; every request sent before
    /// `complete_before_s` has finished; `load`: where the load generator stands. Returns true
    /// to end the load.
    fn tick(&self, t_s: f64, done: Vec<Finished>, complete_before_s: f64, load: &LoadStatus) -> bool;
    /// The warmup it measured (seconds from time zero), marked in the run.
    fn warmup_s(&self) -> Option<f64>;
}

/// Where the load generator stands, for a watcher's live view.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoadStatus {
    /// Sends scheduled per second since time zero; none in a closed loop.
    pub offered_per_s: Option<f64>,
    /// Sends made per second since time zero.
    pub achieved_per_s: f64,
    pub in_flight: u32,
    /// When the requests in flight were sent (seconds from time zero), for the overload looks.
    pub in_flight_sent_s: Vec<f64>,
    /// P99 send lag of the last full second.
    pub send_lag_p99_ms: Option<f64>,
    /// The client's CPU over its last reading, in percent of one core.
    pub client_cpu_pct: Option<f64>,
    /// More than a tenth of the last ten seconds' sends left late because every connection
    /// was busy: the load generator, not the server, set their time.
    pub behind: bool,
    /// Each GPU's last sample, with `--collect-gpu`.
    pub gpus: Vec<GpuNow>,
    /// The GPU samples taken since the last status (the watcher's telemetry, for attribution).
    pub gpu_samples: Vec<credence_run::rows::GpuSample>,
    /// Time zero, epoch ns (the samples' clock).
    pub zero_ns: i64,
}

/// One GPU as last sampled.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuNow {
    pub index: u32,
    pub sm_clock_mhz: Option<u32>,
    pub sm_clock_max_mhz: Option<u32>,
    pub temp_c: Option<f64>,
    pub power_w: Option<f64>,
}

impl GpuNow {
    fn of(s: &credence_run::rows::GpuSample) -> GpuNow {
        GpuNow { index: s.gpu_index, sm_clock_mhz: s.sm_clock_mhz, sm_clock_max_mhz: s.sm_clock_max_mhz, temp_c: s.temp_gpu_c, power_w: s.power_w }
    }
}

/// The GPUs' last samples, from the sampler beside the load to the watcher's view.
static GPU_NOW: Mutex<Vec<GpuNow>> = Mutex::new(Vec::new());
/// The GPU samples not yet handed to the watcher (kept only while one watches).
static GPU_NEW: Mutex<Vec<credence_run::rows::GpuSample>> = Mutex::new(Vec::new());
static WATCHED: AtomicBool = AtomicBool::new(false);

/// Set when a watcher ends the load (a signal sets `collect::stop_requested` instead).
static WATCHER_STOP: AtomicBool = AtomicBool::new(false);

/// Whether the load is to end: a signal, or the watcher.
fn stopping() -> bool {
    crate::collect::stop_requested() || WATCHER_STOP.load(Ordering::SeqCst)
}

/// Counters the threads share; the self-sampler reads them once a second.
#[derive(Default)]
struct Live {
    planned: AtomicU64,
    sent: AtomicU64,
    errors: AtomicU64,
    inflight: AtomicU32,
    /// Requests claimed more than 0.1 ms after their scheduled time: every connection was busy
    /// until then, so they waited.
    queued: AtomicU64,
    seconds: Mutex<Vec<Second>>,
    /// Whether a watcher reads `done` and `in_flight` (kept only then).
    watched: bool,
    /// Requests finished since the watcher's last look.
    done: Mutex<Vec<Finished>>,
    /// Send times (seconds from time zero) of the requests in flight, by request number.
    in_flight: Mutex<std::collections::BTreeMap<u64, f64>>,
    /// The client's CPU at the self-sampler's last reading (percent of one core, f64 bits;
    /// NaN before the first).
    cpu_pct_bits: AtomicU64,
}

impl Live {
    /// Where the load stands `elapsed_s` after time zero (`behind` left false).
    fn status(&self, o: &BenchOptions, elapsed_s: f64) -> LoadStatus {
        let send_lag_p99_ms = self.seconds.lock().ok().and_then(|s| {
            let mut last: Vec<f64> = s.iter().rev().nth(1).map(|x| x.lags_ms.clone()).unwrap_or_default();
            last.sort_by(f64::total_cmp);
            credence_stats::quantile::quantile_sorted(&last, 0.99)
        });
        let per_s = |n: u64| n as f64 / elapsed_s.max(1e-9);
        let cpu = f64::from_bits(self.cpu_pct_bits.load(Ordering::Relaxed));
        LoadStatus {
            // Sessions started, each worth its average turns: the requests they offer.
            offered_per_s: (!matches!(o.load, Load::Closed(_))).then(|| per_s(self.planned.load(Ordering::Relaxed)) * o.requests_per_session()),
            achieved_per_s: per_s(self.sent.load(Ordering::Relaxed)),
            in_flight: self.inflight.load(Ordering::Relaxed),
            in_flight_sent_s: Vec::new(),
            send_lag_p99_ms,
            client_cpu_pct: cpu.is_finite().then_some(cpu),
            behind: false,
            gpus: GPU_NOW.lock().map(|g| g.clone()).unwrap_or_default(),
            gpu_samples: GPU_NEW.lock().map(|mut g| std::mem::take(&mut *g)).unwrap_or_default(),
            zero_ns: 0,
        }
    }

    fn second(&self, i: usize, f: impl FnOnce(&mut Second)) {
        let mut secs = self.seconds.lock().expect("seconds");
        if secs.len() <= i {
            secs.resize_with(i + 1, Second::default);
        }
        f(&mut secs[i]);
    }
}

/// Where a connection's next request comes from.
enum NextRequest<'a> {
    /// Open loop: the shared schedule.
    Open(&'a Mutex<Schedule>),
    /// Closed loop: the next request number, sent at once.
    Closed(&'a AtomicU64),
}

/// How a connection thread starts: with the pre-warmed ones at the barrier that sets time
/// zero, or, opened by the pool's keeper after time zero, at once.
#[derive(Clone, Copy)]
enum Start<'a> {
    AtZero(&'a std::sync::Barrier, &'a std::sync::OnceLock<(Instant, i64)>),
    Late((Instant, i64)),
}

/// One connection thread. Open loop: while idle it claims the next slot of the schedule,
/// builds that request, sleeps until its time and sends it; a request whose time passed while
/// every connection was busy goes out at once, late, and keeps its scheduled time. There is no
/// dispatcher thread, so the only delay between the schedule and the send is this thread's
/// own timer wake-up. A growing `pool` is told of each send and end, so that it opens another
/// connection before the idle ones run out. Closed loop: sends the next request as soon as
/// the last one ends.
fn connection_worker(o: &BenchOptions, live: &Live, pool: Option<&pool::Pool>, start: Start, source: NextRequest) -> Vec<Record> {
    precise_sleep();
    let mut conn: Option<http::Conn> = None;
    if !o.new_connection_per_request {
        // Open the connection before its first slot: its setup is not part of a request.
        conn = http::Conn::open(&o.hostport, o.tls.as_ref(), o.timeout).ok();
    }
    let anchor = match start {
        Start::AtZero(ready, zero) => {
            ready.wait();
            ready.wait();
            zero.get().map(|a| a.0)
        }
        Start::Late(a) => Some(a.0),
    };
    let records = match (anchor, o.sessions) {
        (Some(anchor), Some(_)) => conversation::sessions_on_connection(Sender { o, live, pool, anchor }, &source, &mut conn),
        (Some(anchor), None) => requests_on_connection(Sender { o, live, pool, anchor }, &source, &mut conn),
        (None, _) => Vec::new(),
    };
    if let Some(p) = pool {
        p.exited();
    }
    records
}

/// What a connection thread sends with: the options, the shared counters, the pool and time zero.
#[derive(Clone, Copy)]
struct Sender<'a> {
    o: &'a BenchOptions,
    live: &'a Live,
    pool: Option<&'a pool::Pool>,
    anchor: Instant,
}

impl Sender<'_> {
    /// Sends request `k` (due at `scheduled`, open loop) with the bookkeeping every request
    /// gets: the pool told, the send counted with its lag, the request in flight while it runs
    /// (for a watcher too), its error counted, the connection dropped unless reusable. With
    /// `keep_text`, the answer's text is kept (a conversation's next turn carries it).
    fn send(&self, conn: &mut Option<http::Conn>, request: &[u8], (k, scheduled): (u64, Option<Instant>), keep_text: bool) -> (Instant, http::Observed) {
        let (o, live) = (self.o, self.live);
        if let Some(p) = self.pool {
            // Before the send time is taken: the bookkeeping lands in the send lag (a
            // microsecond or so), not in the request's measured latency.
            p.sending();
        }
        let sent = Instant::now();
        count_sent(live, self.anchor, sent, scheduled);
        live.inflight.fetch_add(1, Ordering::Relaxed);
        if live.watched {
            live.in_flight.lock().expect("in flight").insert(k, sent.saturating_duration_since(self.anchor).as_secs_f64());
        }
        let fresh = || http::Observed { text: keep_text.then(String::new), ..http::Observed::default() };
        let (mut obs, after) = send_with(o, conn, request, fresh);
        let end = *obs.end.get_or_insert_with(Instant::now);
        live.inflight.fetch_sub(1, Ordering::Relaxed);
        if live.watched {
            live.done.lock().expect("done").push(done_of(&obs, self.anchor, sent, end));
            live.in_flight.lock().expect("in flight").remove(&k);
        }
        if let Some(p) = self.pool {
            p.ended(end.saturating_duration_since(sent).as_secs_f64());
        }
        if obs.error.is_some() {
            live.errors.fetch_add(1, Ordering::Relaxed);
        }
        if after != http::After::Reuse || o.new_connection_per_request {
            *conn = None;
        }
        (sent, obs)
    }

    /// When the run ends: after this many requests (or sessions), or at this time.
    fn limits(&self, n: u64) -> RunLimits {
        RunLimits { n, end_at: self.o.duration_s.map(|d| self.anchor + Duration::from_secs_f64(d)) }
    }
}

/// The requests one connection thread sends until the run is over.
fn requests_on_connection(sender: Sender<'_>, source: &NextRequest, conn: &mut Option<http::Conn>) -> Vec<Record> {
    let (o, live, anchor) = (sender.o, sender.live, sender.anchor);
    let limits = sender.limits(o.requests.unwrap_or(u64::MAX));
    let mut records = Vec::new();
    while let Some((k, scheduled)) = claim_next(o, live, anchor, source, &limits) {
        // Built before the wait: nothing is serialized between the scheduled time and the send.
        let (request, prompt) = request_for(o, k);
        if let Some(due) = scheduled {
            if !wait_until_due(due) {
                // A slot not yet due when the stop came: never sent, so not recorded.
                break;
            }
            // Counted once due (slots are claimed ahead of time by idle connections).
            live.planned.fetch_add(1, Ordering::Relaxed);
            live.second(due.saturating_duration_since(anchor).as_secs() as usize, |x| x.planned += 1);
        }
        let (sent, obs) = sender.send(conn, &request, (k, scheduled), false);
        records.push(Record { k, scheduled, sent, obs, prompt, turn: None });
    }
    records
}

/// A finished request as a watcher sees it.
fn done_of(obs: &http::Observed, anchor: Instant, sent: Instant, end: Instant) -> Finished {
    let since = |t: Instant| t.saturating_duration_since(anchor).as_secs_f64();
    let ms = |a: Instant, b: Instant| b.saturating_duration_since(a).as_secs_f64() * 1e3;
    let ok = obs.error.is_none();
    let tokens = obs.completion_tokens.unwrap_or(obs.chunks.len() as u32);
    let ttft = obs.first_token.filter(|_| ok).map_or(f64::NAN, |f| ms(sent, f));
    let tpot = match obs.first_token {
        Some(f) if ok && tokens > 1 => ms(f, end) / f64::from(tokens - 1),
        _ => f64::NAN,
    };
    Finished {
        sent_s: since(sent),
        end_s: since(end),
        ok,
        ttft_ms: ttft,
        tpot_ms: tpot,
        e2e_ms: if ok { ms(sent, end) } else { f64::NAN },
        output_tokens: tokens as f32,
    }
}

/// When a closed loop stops: after this many requests, or at this time.
struct RunLimits {
    n: u64,
    end_at: Option<Instant>,
}

/// The next request number and, open loop, its scheduled time; none once the run is over.
fn claim_next(o: &BenchOptions, live: &Live, anchor: Instant, source: &NextRequest, limits: &RunLimits) -> Option<(u64, Option<Instant>)> {
    match source {
        NextRequest::Open(schedule) => {
            if stopping() {
                return None;
            }
            let (k, due) = schedule.lock().ok().and_then(|mut s| s.next(o, anchor))?;
            let now = Instant::now();
            if now > due + Duration::from_micros(100) {
                // Claimed after its time: every connection was busy until now.
                live.queued.fetch_add(1, Ordering::Relaxed);
            }
            Some((k, Some(due)))
        }
        NextRequest::Closed(next_k) => {
            let k = next_k.fetch_add(1, Ordering::SeqCst);
            if k >= limits.n || limits.end_at.is_some_and(|e| Instant::now() >= e) || stopping() {
                return None;
            }
            Some((k, None))
        }
    }
}

/// Sleeps until a request's scheduled time; false when a stop came first.
fn wait_until_due(due: Instant) -> bool {
    loop {
        let now = Instant::now();
        if now >= due {
            break;
        }
        if stopping() {
            break;
        }
        // In steps of at most 100 ms, so that a stop is seen at low rates too.
        std::thread::sleep((due - now).min(Duration::from_millis(100)));
    }
    !stopping()
}

/// Counts a send, and open loop its lag behind the schedule, in the second it went out.
fn count_sent(live: &Live, anchor: Instant, sent: Instant, scheduled: Option<Instant>) {
    live.sent.fetch_add(1, Ordering::Relaxed);
    if let Some(s) = scheduled {
        live.second(sent.saturating_duration_since(anchor).as_secs() as usize, |x| {
            x.sent += 1;
            x.lags_ms.push(sent.saturating_duration_since(s).as_secs_f64() * 1e3);
        });
    }
}

/// Sends one request on the connection (opening one if needed) and reads its response, each
/// attempt observed into `fresh()` (which may ask to keep the answer's text).
fn send_with(o: &BenchOptions, conn: &mut Option<http::Conn>, request: &[u8], fresh: impl Fn() -> http::Observed) -> (http::Observed, http::After) {
    let mut obs = fresh();
    let mut after = http::After::Close;
    // A reused connection the server closed while idle is retried once on a new one: the
    // request never reached the server. The sent time stays that of the first attempt.
    for _ in 0..2 {
        if conn.is_none() {
            match http::Conn::open(&o.hostport, o.tls.as_ref(), o.timeout) {
                Ok(c) => *conn = Some(c),
                Err(e) => {
                    obs.error = Some(e);
                    break;
                }
            }
        }
        let Some(c) = conn.as_mut() else { break };
        after = http::post_stream(c, request, &mut obs);
        if after != http::After::Stale {
            break;
        }
        *conn = None;
        obs = fresh();
    }
    (obs, after)
}

/// Asks the kernel to wake this thread within 1 µs of the time it sleeps until, instead of
/// the default 50 µs timer slack: oversleep is send lag.
fn precise_sleep() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_TIMERSLACK takes one integer argument and changes only this thread's slack.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1000 as libc::c_ulong, 0 as libc::c_ulong, 0 as libc::c_ulong, 0 as libc::c_ulong);
    }
}

/// Runs the benchmark and returns the run data and what it found about its own limits.
pub fn run(o: &BenchOptions, beside: Beside) -> Result<(RunData, Limits), String> {
    run_watched(o, beside, None)
}

/// `run`, with a watcher that sees each finished request and may end the load; the warmup it
/// measured is marked in the run.
pub fn run_watched(o: &BenchOptions, beside: Beside, watcher: Option<&dyn Watcher>) -> Result<(RunData, Limits), String> {
    WATCHER_STOP.store(false, Ordering::SeqCst);
    GPU_NOW.lock().expect("gpu now").clear();
    GPU_NEW.lock().expect("gpu new").clear();
    WATCHED.store(watcher.is_some(), Ordering::SeqCst);
    let stop = Arc::new(AtomicBool::new(false));
    let gpu_note = beside.gpu_note.clone();
    let mut beside = beside;
    let reset = o.reset_prefix_cache.then(|| cache_reset::reset_prefix_cache(o)).transpose()?;
    let mut environment = pre_run_checklist(&mut beside);
    environment.prefix_cache_reset = match &reset {
        Some(r) => credence_run::manifest::Observed { value: Some(true), note: Some(r.describe()) },
        None => credence_run::manifest::Observed { value: Some(false), note: Some("not asked for (--reset-prefix-cache)".into()) },
    };
    let sampling = (beside.gpus.is_some() || beside.server_metrics.is_some()).then(|| {
        let stop = stop.clone();
        std::thread::spawn(move || sample_beside(beside, stop))
    });
    let load = apply_load(o, watcher);
    stop.store(true, Ordering::SeqCst);
    let measured = watcher.and_then(Watcher::warmup_s).map(|w| BenchOptions { warmup_s: o.warmup_s.max(w), ..o.clone() });
    let o = measured.as_ref().unwrap_or(o);
    let sampled = sampling.and_then(|t| t.join().ok()).unwrap_or_default();
    let anchor_ns = load.anchor.1;
    let (mut data, limits) = build(o, load.anchor, load.records, load.seconds, load.host_rows, (load.queued, load.pool), environment)?;
    add_beside_tables(&mut data, sampled.gpu, sampled.server)?;
    if let Some(line) = sampled.scrapes.as_ref().and_then(crate::collect::scrape::ScrapeLog::summary) {
        eprintln!("warning: {line}");
    }
    data.manifest.server_scrapes = sampled.scrapes.map(|s| s.record());
    if let Some(n) = gpu_note {
        data.manifest.config.extra.insert("gpu".into(), n);
    }
    if crate::collect::stop_requested() {
        note_early_stop(&mut data, anchor_ns);
    }
    Ok((data, limits))
}

/// The pre-run checklist, taken before the load starts (host memory and page cache after
/// the run would describe the run, not the machine it started on).
fn pre_run_checklist(beside: &mut Beside) -> credence_run::manifest::Environment {
    match beside.gpus.as_mut() {
        Some(g) => crate::collect::env::snapshot(Some(g.as_mut()), false, None).0,
        None => crate::collect::env::snapshot(None, false, Some(credence_run::env_notes::GPUS_NOT_SAMPLED)).0,
    }
}

/// What the load itself observed: every request, each second's self-instrumentation and the clock anchor.
struct Observations {
    records: Vec<Record>,
    host_rows: Vec<(HostSample, u32)>,
    anchor: (Instant, i64),
    seconds: Vec<Second>,
    queued: u64,
    /// What a growing pool did; none for a fixed pool or a closed loop.
    pool: Option<pool::PoolReport>,
}

/// The open loop's growing pool, unless `--connections` fixed its size or the loop is closed.
fn growing_pool(o: &BenchOptions) -> Option<pool::Pool> {
    match o.load {
        Load::Poisson(r) | Load::Constant(r) | Load::Gamma(r, _) | Load::Trace(r) if o.bound.grows() => Some(pool::Pool::new(r, o.bound.limit())),
        _ => None,
    }
}

/// Starts the connection threads (pre-warmed before time zero) and the self-sampler, sets
/// time zero once all are up, lets a growing pool's keeper open more, and waits for the load to end.
fn apply_load(o: &BenchOptions, watcher: Option<&dyn Watcher>) -> Observations {
    let live = Live { watched: watcher.is_some(), cpu_pct_bits: AtomicU64::new(f64::NAN.to_bits()), ..Live::default() };
    let next_k = AtomicU64::new(0);
    let schedule = Mutex::new(Schedule::new(o.seed));
    let pool = growing_pool(o);
    let workers = match (o.load, &pool) {
        (Load::Closed(c), _) => c,
        (_, Some(p)) => p.prewarm(),
        (_, None) => o.bound.limit(),
    };
    let self_stop = AtomicBool::new(false);
    // Time zero is set once every pre-warmed connection thread is up and connected, so the
    // first requests do not wait for thread start-up and connection setup.
    let ready = std::sync::Barrier::new(workers as usize + 1);
    let start = std::sync::OnceLock::<(Instant, i64)>::new();
    let (records, host_rows, anchor) = std::thread::scope(|scope| {
        let (live, pool, schedule) = (&live, pool.as_ref(), &schedule);
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let source = if matches!(o.load, Load::Closed(_)) { NextRequest::Closed(&next_k) } else { NextRequest::Open(schedule) };
                let at_zero = Start::AtZero(&ready, &start);
                if let Some(p) = pool {
                    p.started();
                }
                scope.spawn(move || connection_worker(o, live, pool, at_zero, source))
            })
            .collect();
        ready.wait();
        let anchor = *start.get_or_init(|| (Instant::now(), crate::collect::now_ns()));
        ready.wait();
        let self_stop = &self_stop;
        let sampler = scope.spawn(move || self_sample::sample_self(o, live, anchor, self_stop));
        let keeper = pool.map(|p| scope.spawn(move || keep_growing(scope, o, live, p, schedule, anchor)));
        let watching = watcher.map(|w| scope.spawn(move || watch(w, o, live, anchor, self_stop)));
        let mut records: Vec<Record> = handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect();
        if let Some(p) = pool {
            p.finish();
        }
        let grown = keeper.and_then(|k| k.join().ok()).unwrap_or_default();
        records.extend(grown.into_iter().flat_map(|h| h.join().unwrap_or_default()));
        self_stop.store(true, Ordering::SeqCst);
        if let Some(w) = watching {
            let _ = w.join();
        }
        (records, sampler.join().unwrap_or_default(), anchor)
    });
    let seconds = std::mem::take(&mut *live.seconds.lock().expect("seconds"));
    let queued = live.queued.load(Ordering::Relaxed);
    Observations { records, host_rows, anchor, seconds, queued, pool: pool.map(|p| p.report()) }
}

/// The watcher's thread: once a second, hands it the requests finished since, and ends the
/// load when it says so. Behind: more than a tenth of the last ten seconds' sends left late
/// because every connection was busy (the load generator, not the server, set their time).
fn watch(w: &dyn Watcher, o: &BenchOptions, live: &Live, (anchor, zero_ns): (Instant, i64), done: &AtomicBool) {
    let mut deadline = anchor;
    let mut history: std::collections::VecDeque<(u64, u64)> = std::collections::VecDeque::new();
    loop {
        deadline += Duration::from_secs(1);
        if !sleep_until(deadline, done) {
            return;
        }
        let t_s = deadline.saturating_duration_since(anchor).as_secs_f64();
        let finished = std::mem::take(&mut *live.done.lock().expect("done"));
        let in_flight_sent_s: Vec<f64> = live.in_flight.lock().expect("in flight").values().copied().collect();
        let complete_before = in_flight_sent_s.iter().copied().fold(t_s, f64::min);
        history.push_back((live.sent.load(Ordering::Relaxed), live.queued.load(Ordering::Relaxed)));
        if history.len() > 11 {
            history.pop_front();
        }
        let (first, last) = (history.front().copied().unwrap_or_default(), history.back().copied().unwrap_or_default());
        let (sent, queued) = (last.0 - first.0, last.1 - first.1);
        let behind = history.len() > 10 && queued >= 10 && queued * 10 > sent;
        let load = LoadStatus { behind, zero_ns, in_flight_sent_s, ..live.status(o, t_s) };
        if w.tick(t_s, finished, complete_before, &load) {
            WATCHER_STOP.store(true, Ordering::SeqCst);
            return;
        }
    }
}

/// The pool's keeper: opens a connection thread whenever a send left too few idle (or the
/// pool is below the concurrency the first requests implied), until the run is over or the
/// OS refuses a thread. Returns the threads it started.
fn keep_growing<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    o: &'scope BenchOptions,
    live: &'scope Live,
    pool: &'scope pool::Pool,
    schedule: &'scope Mutex<Schedule>,
    anchor: (Instant, i64),
) -> Vec<std::thread::ScopedJoinHandle<'scope, Vec<Record>>> {
    let mut handles = Vec::new();
    while pool.wait_for_need() {
        pool.started();
        let worker = move || connection_worker(o, live, Some(pool), Start::Late(anchor), NextRequest::Open(schedule));
        match std::thread::Builder::new().spawn_scoped(scope, worker) {
            Ok(h) => handles.push(h),
            Err(e) => pool.refuse(format!("the OS refused a new connection thread with {} running ({e})", handles.len() + pool.prewarm() as usize)),
        }
    }
    handles
}

/// Adds the GPU and server tables sampled beside the load, when there are any.
fn add_beside_tables(data: &mut RunData, gpu_rows: credence_run::rows::GpuRows, server_rows: Vec<crate::collect::scrape::ServerSample>) -> Result<(), String> {
    if !gpu_rows.is_empty() {
        data.gpu = Some(gpu_rows.into_table()?);
        data.manifest.tables.push("gpu".into());
        data.manifest.clock.tables.insert("gpu".into(), "collector host CLOCK_REALTIME (epoch ns)".into());
    }
    if !server_rows.is_empty() {
        data.server = Some(crate::collect::scrape::table(&server_rows)?);
        data.manifest.tables.push("server".into());
        data.manifest.clock.tables.insert("server".into(), "collector host CLOCK_REALTIME (epoch ns)".into());
    }
    Ok(())
}

/// Records in the manifest that a signal ended the run, and when its last request went out.
fn note_early_stop(data: &mut RunData, anchor_ns: i64) {
    let last_sent = data.requests.timestamps("sent_ns").and_then(|s| s.iter().flatten().max().copied()).unwrap_or(anchor_ns);
    let note = format!(
        "stopped by SIGINT/SIGTERM: the last request was sent {:.1} s into the run; requests in flight then were completed and recorded",
        (last_sent - anchor_ns) as f64 / 1e9
    );
    data.manifest.config.extra.insert("stopped_early".into(), note);
}
