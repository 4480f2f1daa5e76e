//! A small OpenAI-compatible streaming server on loopback, for testing `credence bench` and for
//! measuring the load generator's own ceiling (`credence mock-server`).
//!
//! It answers `POST /v1/completions` and `POST /v1/chat/completions` with an SSE stream when
//! the request asks for one (`"stream": true`): a scripted time to first token (reasoning tokens
//! first when configured), then one chunk per token a scripted delay apart, a usage chunk and
//! `[DONE]`, chunked transfer encoding and keep-alive, like vLLM; otherwise with one JSON body.
//! Its JSON is compact or spaced (Python's `json.dumps` separators), since clients must read both. Faults are injected per
//! request with seeded probabilities, and `GET /metrics` reports, in Prometheus text, how many
//! requests it served and how many faults of each kind it injected, so that a test can hold the
//! client's error classification against the server's own count. A `Timeline` scripts behaviour
//! over time (warmup, throttling, drift, error bursts) from the first completion request on,
//! and `/metrics` reports its state at each moment, so a run's truth is known.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::mock_cache::{CacheConfig, PrefixCache};
use super::mock_engine::{Engine, EngineConfig, Ticket};
use super::mock_secure::{ServerWire, authorized, unauthorized};
use super::mock_timeline::Timeline;

/// A fault the server can inject into one response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// `500 Internal Server Error` with a JSON error body.
    Http500,
    /// `429 Too Many Requests`.
    Http429,
    /// The connection is closed after the first chunk, mid-stream.
    Drop,
    /// The stream stops after the first chunk and never ends (the client times out).
    Stall,
    /// An event whose data is truncated JSON.
    Malformed,
}

impl Fault {
    pub const ALL: [Fault; 5] = [Fault::Http500, Fault::Http429, Fault::Drop, Fault::Stall, Fault::Malformed];

    pub fn name(self) -> &'static str {
        match self {
            Fault::Http500 => "http_500",
            Fault::Http429 => "http_429",
            Fault::Drop => "drop",
            Fault::Stall => "stall",
            Fault::Malformed => "malformed",
        }
    }

    /// The `error_kind` a correct client records for this fault.
    pub fn error_kind(self) -> &'static str {
        match self {
            Fault::Http500 => "http_5xx",
            Fault::Http429 => "http_4xx",
            Fault::Drop => "disconnected",
            Fault::Stall => "timeout",
            Fault::Malformed => "malformed",
        }
    }

    pub fn parse(name: &str) -> Option<Fault> {
        Fault::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// How the server behaves.
#[derive(Debug, Clone)]
pub struct MockConfig {
    /// Time from the request's arrival to the first token.
    pub ttft: Duration,
    /// Time between tokens.
    pub token_delay: Duration,
    /// Tokens per response; `None` honours the request's `max_tokens` (16 when absent).
    pub output_tokens: Option<u32>,
    /// Where the "model" ends on its own: responses stop there unless the request sends
    /// `ignore_eos: true` (vLLM's extension). `None`: never.
    pub natural_length: Option<u32>,
    /// (fault, probability per request).
    pub faults: Vec<(Fault, f64)>,
    /// How long a stalled stream waits before the server gives up on it.
    pub stall_for: Duration,
    pub seed: u64,
    /// The model name `/v1/models` lists.
    pub model: String,
    /// Reasoning tokens streamed (as `reasoning_content`) before the content of a chat response.
    pub reasoning_tokens: u32,
    /// Write JSON with `": "` and `", "` separators, as Python's `json.dumps` does by default.
    pub spaced_json: bool,
    /// Serve HTTPS with this configuration (`mock_secure::server_config`).
    pub tls: Option<Arc<rustls::ServerConfig>>,
    /// Answer `/v1/` requests without `Authorization: Bearer KEY` with 401.
    pub require_key: Option<String>,
    /// Behaviour over time: factors on `ttft` and `token_delay`, bursts of HTTP 500.
    pub timeline: Timeline,
    /// Log-scale SD of each request's own factor on `ttft` (log-normal with median 1, drawn
    /// with `seed`): service times that vary from request to request, as a real server's do.
    /// The true percentiles stay known: `ttft · exp(z_p · σ)` times the timeline's factor.
    pub ttft_jitter: f64,
    /// Keep a `/metrics` connection open even when the client asks for `Connection: close`
    /// (some servers do): a scraper must read the answer by its framing, not to the end.
    pub metrics_keep_open: bool,
    /// Windows, in seconds from the first completion request, in which `/metrics` answers
    /// HTTP 500 (an endpoint that fails, then recovers).
    pub metrics_outages: Vec<(f64, f64)>,
    /// A continuous-batching engine of finite capacity (`mock_engine`): requests queue for a
    /// slot and get one token per decode step, in place of `ttft` and `token_delay`.
    pub engine: Option<EngineConfig>,
    /// A prefix cache (`mock_cache`): prompts that share leading blocks with earlier ones
    /// prefill only the rest, report `cached_tokens`, and `/metrics` counts queries and hits.
    pub prefix_cache: Option<CacheConfig>,
    /// Count prompt tokens with a model's tokenizer (`--tokenizer`), as a real server does;
    /// without one a token is a whitespace-separated word.
    pub tokenizer: Option<Arc<crate::tokens::TokenWords>>,
}

impl Default for MockConfig {
    fn default() -> MockConfig {
        MockConfig {
            ttft: Duration::from_millis(20),
            token_delay: Duration::from_millis(5),
            output_tokens: None,
            natural_length: None,
            faults: Vec::new(),
            stall_for: Duration::from_secs(30),
            seed: 1,
            model: "mock".into(),
            reasoning_tokens: 0,
            spaced_json: false,
            tls: None,
            require_key: None,
            timeline: Timeline::default(),
            ttft_jitter: 0.0,
            metrics_keep_open: false,
            metrics_outages: Vec::new(),
            engine: None,
            prefix_cache: None,
            tokenizer: None,
        }
    }
}

/// What the server did, for `GET /metrics`.
#[derive(Default)]
struct Counters {
    requests: AtomicU64,
    faults: [AtomicU64; 5],
    /// HTTP 500s from error bursts (also counted among the `http_500` faults).
    burst_errors: AtomicU64,
}

struct Shared {
    config: MockConfig,
    counters: Counters,
    /// One seeded stream of fault draws, in arrival order.
    rng: Mutex<ChaCha8Rng>,
    /// Another of the requests' TTFT factors (`ttft_jitter`), so that faults draw the same
    /// stream with or without it.
    jitter_rng: Mutex<ChaCha8Rng>,
    /// When the first completion request arrived: the timeline's zero.
    first_request: Arc<OnceLock<Instant>>,
    /// The engine, with `--max-batch`.
    engine: Option<Arc<Engine>>,
    /// The prefix cache, with `--prefix-cache-blocks`.
    cache: Option<PrefixCache>,
}

impl Shared {
    /// Seconds since the first completion request; 0 before it.
    fn elapsed_s(&self) -> f64 {
        self.first_request.get().map_or(0.0, |t0| t0.elapsed().as_secs_f64())
    }
}

/// The service times of one request, fixed when it arrives.
#[derive(Debug, Clone, Copy)]
struct Pace {
    ttft: Duration,
    token_delay: Duration,
}

impl Pace {
    fn scaled(c: &MockConfig, factor: f64) -> Pace {
        let scale = |d: Duration| if factor == 1.0 { d } else { Duration::try_from_secs_f64(d.as_secs_f64() * factor).unwrap_or(Duration::MAX) };
        Pace { ttft: scale(c.ttft), token_delay: scale(c.token_delay) }
    }
}

/// A running server; it stops accepting when the process exits.
pub struct MockServer {
    pub port: u16,
    shared: Arc<Shared>,
}

impl MockServer {
    pub fn url(&self) -> String {
        let scheme = if self.shared.config.tls.is_some() { "https" } else { "http" };
        format!("{scheme}://127.0.0.1:{}", self.port)
    }

    /// Completion requests served so far.
    pub fn served(&self) -> u64 {
        self.shared.counters.requests.load(Ordering::Relaxed)
    }

    /// Faults injected so far, by kind.
    pub fn injected(&self, fault: Fault) -> u64 {
        Fault::ALL.iter().position(|f| *f == fault).map_or(0, |i| self.shared.counters.faults[i].load(Ordering::Relaxed))
    }
}

/// The engine, slowed by the timeline as the scripted pace is (from the first request on).
fn start_engine(config: EngineConfig, timeline: &Timeline, first_request: &Arc<OnceLock<Instant>>) -> Arc<Engine> {
    let (timeline, first) = (timeline.clone(), first_request.clone());
    Engine::start(config, move || timeline.factor_at(first.get().map_or(0.0, |t0| t0.elapsed().as_secs_f64())))
}

/// Binds `127.0.0.1:port` (0: any free port) and serves on background threads, one per
/// connection.
pub fn spawn(config: MockConfig, port: u16) -> std::io::Result<MockServer> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let port = listener.local_addr()?.port();
    let first_request = Arc::new(OnceLock::new());
    let shared =
        Arc::new(Shared {
            rng: Mutex::new(ChaCha8Rng::seed_from_u64(config.seed)),
            jitter_rng: Mutex::new(ChaCha8Rng::seed_from_u64(config.seed ^ 0x6a69_7474_6572)),
            engine: config.engine.map(|e| start_engine(e, &config.timeline, &first_request)),
            cache: config.prefix_cache.map(PrefixCache::new),
            config, counters: Counters::default(), first_request });
    let server = MockServer { port, shared: shared.clone() };
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let shared = shared.clone();
            std::thread::spawn(move || {
                let _ = serve_connection(stream, &shared);
            });
        }
    });
    Ok(server)
}

/// One request's head and body.
struct Incoming {
    method: String,
    path: String,
    body: Vec<u8>,
    /// The client asked for `Connection: close`.
    close: bool,
    /// The `Authorization` header's value, when one was sent.
    authorization: Option<String>,
}

fn read_request(reader: &mut BufReader<ServerWire>) -> std::io::Result<Option<Incoming>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or("").to_string(), parts.next().unwrap_or("").to_string());
    let (mut length, mut close, mut authorization) = (0usize, false, None);
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            } else if k.eq_ignore_ascii_case("connection") && v.trim().eq_ignore_ascii_case("close") {
                close = true;
            } else if k.eq_ignore_ascii_case("authorization") {
                authorization = Some(v.trim().to_string());
            }
        }
    }
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body)?;
    Ok(Some(Incoming { method, path, body, close, authorization }))
}

/// Serves one connection's requests in turn (plain or TLS; one stream object reads and writes).
fn serve_connection(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let mut conn = BufReader::new(ServerWire::accept(stream, shared.config.tls.as_ref())?);
    while let Some(req) = read_request(&mut conn)? {
        let close = req.close && !(shared.config.metrics_keep_open && req.path == "/metrics");
        if !answer(conn.get_mut(), &req, shared)? || close {
            break;
        }
    }
    conn.get_mut().finish();
    Ok(())
}

/// Answers one request; returns whether the connection stays open.
fn answer(out: &mut ServerWire, req: &Incoming, shared: &Shared) -> std::io::Result<bool> {
    if req.path.starts_with("/v1/") && !authorized(shared.config.require_key.as_deref(), req.authorization.as_deref()) {
        unauthorized(out, req.authorization.as_deref())?;
        return Ok(true);
    }
    let chat = req.path == "/v1/chat/completions";
    if req.method == "POST" && (chat || req.path == "/v1/completions") {
        shared.first_request.get_or_init(Instant::now);
        let t = shared.elapsed_s();
        shared.counters.requests.fetch_add(1, Ordering::Relaxed);
        let fault = draw_fault(shared, t);
        if let Some(f) = fault {
            shared.counters.faults[Fault::ALL.iter().position(|x| *x == f).unwrap_or(0)].fetch_add(1, Ordering::Relaxed);
        }
        let mut pace = Pace::scaled(&shared.config, shared.config.timeline.factor_at(t));
        pace.ttft = pace.ttft.mul_f64(ttft_factor(shared));
        return completion(out, &req.body, chat, fault, pace, shared);
    }
    if req.method == "POST" && matches!(req.path.as_str(), "/reset_prefix_cache" | "/flush_cache") {
        return reset_cache(out, shared);
    }
    let (status, content_type, body) = probe(req, shared);
    write!(out, "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n", body.len())?;
    // HEAD gets the head alone: a body there would desynchronise the kept-alive connection.
    if req.method != "HEAD" {
        out.write_all(body.as_bytes())?;
    }
    Ok(true)
}

/// vLLM's `POST /reset_prefix_cache` and SGLang's `POST /flush_cache`: 200 with a prefix
/// cache, 404 without one (as a server started without caching has no such endpoint).
fn reset_cache(out: &mut ServerWire, shared: &Shared) -> std::io::Result<bool> {
    let (status, body) = match &shared.cache {
        Some(cache) => {
            cache.reset();
            ("200 OK", "")
        }
        None => ("404 Not Found", "{\"error\":{\"message\":\"not found\"}}"),
    };
    write!(out, "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len())?;
    Ok(true)
}

/// What clients ask before or beside a run: `/metrics`, vLLM's `/health`, the OpenAI model
/// list; anything else is not found.
fn probe(req: &Incoming, shared: &Shared) -> (&'static str, &'static str, String) {
    let get = req.method == "GET" || req.method == "HEAD";
    match req.path.as_str() {
        "/metrics" if get && metrics_out(shared) => ("500 Internal Server Error", "text/plain", "metrics unavailable\n".into()),
        "/metrics" if get => ("200 OK", "text/plain; version=0.0.4", metrics(shared)),
        "/health" if get => ("200 OK", "application/json", String::new()),
        "/v1/models" if get => {
            let list = serde_json::json!({"object": "list", "data": [{"id": shared.config.model, "object": "model", "owned_by": "credence"}]});
            ("200 OK", "application/json", list.to_string())
        }
        _ => ("404 Not Found", "application/json", "{\"error\":{\"message\":\"not found\"}}".into()),
    }
}

/// Whether `/metrics` is inside one of its outages now (never before the first request).
fn metrics_out(shared: &Shared) -> bool {
    let t = shared.elapsed_s();
    shared.first_request.get().is_some() && shared.config.metrics_outages.iter().any(|(from, to)| (*from..*to).contains(&t))
}

/// The fault of a request arriving `t` seconds into the timeline: an error burst's HTTP 500
/// first (one draw, only inside a burst), then the configured faults (one draw). Both come from
/// the one seeded stream, so the faults are fixed by the seed and the arrival order.
fn draw_fault(shared: &Shared, t: f64) -> Option<Fault> {
    let burst = shared.config.timeline.error_probability_at(t);
    if burst > 0.0 && shared.rng.lock().map(|mut r| r.random::<f64>() < burst).unwrap_or(false) {
        shared.counters.burst_errors.fetch_add(1, Ordering::Relaxed);
        return Some(Fault::Http500);
    }
    if shared.config.faults.is_empty() {
        return None;
    }
    let u: f64 = shared.rng.lock().map(|mut r| r.random()).unwrap_or(1.0);
    let mut edge = 0.0;
    for (f, p) in &shared.config.faults {
        edge += p;
        if u < edge {
            return Some(*f);
        }
    }
    None
}

/// This request's own factor on the time to first token; 1 without jitter.
fn ttft_factor(shared: &Shared) -> f64 {
    let sigma = shared.config.ttft_jitter;
    if sigma <= 0.0 {
        return 1.0;
    }
    shared.jitter_rng.lock().map_or(1.0, |mut rng| log_normal(&mut rng, sigma))
}

/// exp(σ·z), z standard normal (Box–Muller).
fn log_normal(rng: &mut ChaCha8Rng, sigma: f64) -> f64 {
    let (u1, u2): (f64, f64) = (rng.random(), rng.random());
    let z = (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
    (sigma * z).exp()
}

fn metrics(shared: &Shared) -> String {
    let mut s = String::from("# TYPE mock_requests_total counter\n");
    s += &format!("mock_requests_total {}\n# TYPE mock_faults_total counter\n", shared.counters.requests.load(Ordering::Relaxed));
    for (i, f) in Fault::ALL.iter().enumerate() {
        s += &format!("mock_faults_total{{kind=\"{}\"}} {}\n", f.name(), shared.counters.faults[i].load(Ordering::Relaxed));
    }
    let (c, t) = (&shared.config, shared.elapsed_s());
    s += &format!("# TYPE mock_burst_errors_total counter\nmock_burst_errors_total {}\n", shared.counters.burst_errors.load(Ordering::Relaxed));
    let gauges = [
        ("mock_elapsed_seconds", t),
        ("mock_service_factor", c.timeline.factor_at(t)),
        ("mock_error_probability", c.timeline.error_probability_at(t)),
        ("mock_ttft_seconds", c.ttft.as_secs_f64()),
        ("mock_ttft_jitter_sigma", c.ttft_jitter),
        ("mock_token_delay_seconds", c.token_delay.as_secs_f64()),
    ];
    for (name, v) in gauges {
        s += &format!("# TYPE {name} gauge\n{name} {v}\n");
    }
    if let Some(engine) = &shared.engine {
        s += &engine_metrics(engine, c.output_tokens);
    }
    if let Some(cache) = &shared.cache {
        s += &cache_metrics(cache);
    }
    s
}

/// The prefix cache's counters in tokens, under vLLM's names (so that a scraper reading vLLM
/// reads the mock), and the resets.
fn cache_metrics(cache: &PrefixCache) -> String {
    let (queries, hits, resets) = cache.counters();
    let mut s = String::new();
    for (name, v) in [("vllm:prefix_cache_queries_total", queries), ("vllm:prefix_cache_hits_total", hits)] {
        s += &format!("# TYPE {name} counter\n{name}{{model_name=\"mock\"}} {v}\n");
    }
    s += &format!("# TYPE mock_prefix_cache_resets_total counter\nmock_prefix_cache_resets_total {resets}\n");
    s += &format!("# TYPE mock_prefix_cache_block_tokens gauge\nmock_prefix_cache_block_tokens {}\n", cache.config().block_tokens);
    s
}

/// The engine's state, under its own names and vLLM's (so that a scraper reading vLLM sees the
/// queue), and its truth: the saturation throughput when every response has a fixed length.
fn engine_metrics(engine: &Engine, output_tokens: Option<u32>) -> String {
    let (running, waiting) = engine.load();
    let e = engine.config();
    let mut s = String::new();
    for (name, v) in [
        ("mock_engine_running", running as f64),
        ("mock_engine_waiting", waiting as f64),
        ("mock_engine_max_batch", f64::from(e.max_batch)),
        ("mock_engine_step_seconds", e.step.as_secs_f64()),
        ("mock_engine_step_seconds_per_seq", e.step_per_seq.as_secs_f64()),
    ] {
        s += &format!("# TYPE {name} gauge\n{name} {v}\n");
    }
    if let Some(tokens) = output_tokens {
        s += &format!("# TYPE mock_saturation_requests_per_second gauge\nmock_saturation_requests_per_second {}\n", e.saturation_per_s(tokens));
    }
    s += &format!("# TYPE mock_engine_aborted_total counter\nmock_engine_aborted_total {}\n", engine.aborted());
    s += &format!("# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{{model_name=\"mock\"}} {running}\n");
    s += &format!("# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{{model_name=\"mock\"}} {waiting}\n");
    s
}

/// A prompt's tokens: words, or a tokenizer's ids.
enum PromptTokens<'a> {
    Words(Vec<&'a str>),
    Ids(Vec<u32>),
}

impl PromptTokens<'_> {
    fn len(&self) -> usize {
        match self {
            PromptTokens::Words(w) => w.len(),
            PromptTokens::Ids(i) => i.len(),
        }
    }
}

/// A prompt's tokens as the mock counts them: a prompt given as token ids is its ids; with a
/// tokenizer, the ids of the prompt text with the tokenizer's special tokens (as vLLM counts a
/// completions prompt) or of each message's content (the mock has no chat template); else
/// whitespace-separated words of the prompt or of every message's content, in order.
fn prompt_tokens<'a>(v: &'a serde_json::Value, tokenizer: Option<&crate::tokens::TokenWords>) -> PromptTokens<'a> {
    if let Some(ids) = v.get("prompt").and_then(|p| p.as_array()) {
        return PromptTokens::Ids(ids.iter().filter_map(|x| x.as_u64()).map(|x| x as u32).collect());
    }
    let texts: Vec<&str> = match (v.get("prompt").and_then(|p| p.as_str()), v.get("messages").and_then(|m| m.as_array())) {
        (Some(p), _) => vec![p],
        (None, Some(ms)) => ms.iter().filter_map(|m| m.get("content")).flat_map(content_texts).collect(),
        _ => Vec::new(),
    };
    match tokenizer {
        Some(t) => {
            let special = v.get("prompt").is_some();
            PromptTokens::Ids(texts.iter().flat_map(|text| t.encode(text, special)).collect())
        }
        None => PromptTokens::Words(texts.iter().flat_map(|t| t.split_whitespace()).collect()),
    }
}

/// A message's content: a string, or a list of parts whose `text` parts count (guidellm's and
/// the OpenAI SDK's multimodal shape).
fn content_texts(content: &serde_json::Value) -> Vec<&str> {
    match content {
        serde_json::Value::String(s) => vec![s.as_str()],
        serde_json::Value::Array(parts) => parts.iter().filter_map(|p| p.get("text").and_then(|t| t.as_str())).collect(),
        _ => Vec::new(),
    }
}

/// A request's prompt tokens and, with a prefix cache, how many it served.
#[derive(Debug, Clone, Copy)]
struct Prompt {
    tokens: usize,
    cached: Option<usize>,
}

/// Answers one completion request, streamed or as one JSON body; returns whether the
/// connection stays open.
fn completion(out: &mut ServerWire, body: &[u8], chat: bool, fault: Option<Fault>, pace: Pace, shared: &Shared) -> std::io::Result<bool> {
    let req: serde_json::Value = serde_json::from_slice(body).unwrap_or(serde_json::Value::Null);
    if let Some(f @ (Fault::Http500 | Fault::Http429)) = fault {
        return http_error(out, f);
    }
    let c = &shared.config;
    let reasoning = if chat { c.reasoning_tokens } else { 0 };
    let tokens = prompt_tokens(&req, c.tokenizer.as_deref());
    let prompt = Prompt { tokens: tokens.len(), cached: None };
    let (prompt, prefill) = match &shared.cache {
        Some(cache) => {
            let found = match tokens {
                PromptTokens::Words(w) => cache.lookup(w.into_iter()),
                PromptTokens::Ids(i) => cache.lookup(i.into_iter()),
            };
            (Prompt { cached: Some(found.cached as usize), ..prompt }, cache.prefill(found))
        }
        None => (prompt, Duration::ZERO),
    };
    let pacer = match &shared.engine {
        Some(engine) => Pacer::Engine(engine.submit(response_tokens(&req, c) + reasoning, prefill)),
        None => Pacer::Script(Pace { ttft: pace.ttft.saturating_add(prefill), ..pace }),
    };
    if req.get("stream").and_then(|s| s.as_bool()) == Some(true) {
        stream_response(out, (&req, prompt), chat, fault, pacer, c)
    } else {
        json_response(out, (&req, prompt), chat, fault, pacer, c)
    }
}

/// What times a response's tokens: the script (`ttft`, then `token_delay` apart), or the
/// engine's decode steps.
enum Pacer {
    Script(Pace),
    Engine(Ticket),
}

impl Pacer {
    /// Waits for the first token. In the engine's queue the client is watched: one that has
    /// gone (timed out) is abandoned, as vLLM aborts it.
    fn first(&mut self, out: &ServerWire) -> std::io::Result<()> {
        match self {
            Pacer::Script(p) => {
                std::thread::sleep(p.ttft);
                Ok(())
            }
            Pacer::Engine(t) => loop {
                match t.tokens.recv_timeout(Duration::from_millis(20)) {
                    Ok(()) => return Ok(()),
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Err(std::io::ErrorKind::BrokenPipe.into()),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) if out.client_gone() => {
                        t.abandon();
                        return Err(std::io::ErrorKind::ConnectionAborted.into());
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                }
            },
        }
    }

    /// Waits for the next token.
    fn next(&mut self) -> std::io::Result<()> {
        match self {
            Pacer::Script(p) => {
                if !p.token_delay.is_zero() {
                    std::thread::sleep(p.token_delay);
                }
                Ok(())
            }
            Pacer::Engine(t) => t.tokens.recv().map_err(|_| std::io::ErrorKind::BrokenPipe.into()),
        }
    }

    /// Whether the whole response can go out in one write (no delays: a trivial server).
    fn instant(&self) -> bool {
        matches!(self, Pacer::Script(p) if p.ttft.is_zero() && p.token_delay.is_zero())
    }
}

/// The whole response as one JSON body, sent when the last token would have been.
fn json_response(out: &mut ServerWire, (req, prompt): (&serde_json::Value, Prompt), chat: bool, fault: Option<Fault>, mut pacer: Pacer, c: &MockConfig) -> std::io::Result<bool> {
    let tokens = response_tokens(req, c);
    let reasoning = if chat { c.reasoning_tokens } else { 0 };
    match &mut pacer {
        Pacer::Script(pace) => std::thread::sleep(pace.ttft.saturating_add(pace.token_delay.saturating_mul(tokens + reasoning - 1))),
        Pacer::Engine(_) => {
            pacer.first(out)?;
            for _ in 1..tokens + reasoning {
                pacer.next()?;
            }
        }
    }
    let text: String = (0..tokens).map(|i| format!("tok{i} ")).collect();
    let choice = if chat {
        let mut message = serde_json::json!({"role": "assistant", "content": text});
        if reasoning > 0 {
            message["reasoning_content"] = (0..reasoning).map(|i| format!("think{i} ")).collect::<String>().into();
        }
        serde_json::json!({"index": 0, "message": message, "finish_reason": "length"})
    } else {
        serde_json::json!({"index": 0, "text": text, "finish_reason": "length"})
    };
    let object = if chat { "chat.completion" } else { "text_completion" };
    let v = serde_json::json!({"object": object, "model": c.model, "choices": [choice], "usage": usage(prompt, tokens, reasoning)});
    let mut body = json_text(&v.to_string(), c);
    match fault {
        Some(Fault::Drop) => {
            out.cut();
            return Ok(false);
        }
        Some(Fault::Stall) => {
            std::thread::sleep(c.stall_for);
            return Ok(false);
        }
        Some(Fault::Malformed) => body.truncate(body.len() / 2),
        _ => {}
    }
    write!(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len())?;
    Ok(true)
}

/// The usage object: reasoning tokens count as completion tokens, as OpenAI reports them;
/// with a prefix cache, `prompt_tokens_details.cached_tokens` as vLLM reports it.
fn usage(prompt: Prompt, tokens: u32, reasoning: u32) -> serde_json::Value {
    let completion = (tokens + reasoning) as usize;
    let mut u = serde_json::json!({"prompt_tokens": prompt.tokens, "completion_tokens": completion, "total_tokens": prompt.tokens + completion});
    if reasoning > 0 {
        u["completion_tokens_details"] = serde_json::json!({"reasoning_tokens": reasoning});
    }
    if let Some(cached) = prompt.cached {
        u["prompt_tokens_details"] = serde_json::json!({"cached_tokens": cached});
    }
    u
}

/// Compact JSON as written, or with Python's default separators. Only the server's own JSON
/// passes here, whose strings hold no `":` or `,"`.
fn json_text(compact: &str, c: &MockConfig) -> String {
    if c.spaced_json { compact.replace("\":", "\": ").replace(",\"", ", \"") } else { compact.to_string() }
}

/// Writes one streamed response; returns whether the connection stays open.
fn stream_response(out: &mut ServerWire, (req, prompt): (&serde_json::Value, Prompt), chat: bool, fault: Option<Fault>, mut pacer: Pacer, c: &MockConfig) -> std::io::Result<bool> {
    let tokens = response_tokens(req, c);
    // Stream faults strike after the first token (or at it, for one-token responses).
    let fault_at = 1.min(tokens - 1);
    let reasoning = if chat { c.reasoning_tokens } else { 0 };
    // With no delays the whole response goes out in one write: a trivial server for
    // measuring the client, not a model of one.
    let batch = pacer.instant();
    let mut sse = Sse { out, pending: Vec::with_capacity(if batch { 256 + 64 * tokens as usize } else { 256 }), batch, spaced: c.spaced_json };
    sse.pending.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n");
    if chat {
        sse.event("{\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}");
    }
    sse.flush(false)?;
    pacer.first(sse.out)?;
    // A reasoning model thinks first: its reasoning tokens precede the content, whose own
    // `content` is null meanwhile (as vLLM and SGLang stream them).
    for i in 0..reasoning {
        if i > 0 {
            pacer.next()?;
        }
        sse.event(&format!(
            "{{\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":null,\"reasoning_content\":\"think{i} \"}}}}]}}"
        ));
        sse.flush(false)?;
    }
    for i in 0..tokens {
        if i > 0 || reasoning > 0 {
            pacer.next()?;
        }
        if i == fault_at && !sse.stream_fault(fault, c)? {
            return Ok(false);
        }
        if chat {
            sse.event(&format!("{{\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"tok{i} \"}}}}]}}"));
        } else {
            sse.event(&format!("{{\"object\":\"text_completion\",\"choices\":[{{\"index\":0,\"text\":\"tok{i} \"}}]}}"));
        }
        sse.flush(false)?;
    }
    sse.event(&format!("{{\"choices\":[],\"usage\":{}}}", usage(prompt, tokens, reasoning)));
    sse.event("[DONE]");
    sse.pending.extend_from_slice(b"0\r\n\r\n");
    sse.flush(true)?;
    Ok(true)
}

/// Answers with an injected HTTP error instead of a stream; the connection stays open.
fn http_error(out: &mut ServerWire, fault: Fault) -> std::io::Result<bool> {
    let (code, text) = if fault == Fault::Http500 { (500, "Internal Server Error") } else { (429, "Too Many Requests") };
    let msg = format!("{{\"error\":{{\"message\":\"injected {code}\",\"code\":{code}}}}}");
    write!(out, "HTTP/1.1 {code} {text}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{msg}", msg.len())?;
    Ok(true)
}

/// How many tokens to stream: as configured or asked for, cut at the natural length unless `ignore_eos`.
fn response_tokens(req: &serde_json::Value, c: &MockConfig) -> u32 {
    // Newer OpenAI clients send `max_completion_tokens` in place of `max_tokens`.
    let limit = req.get("max_tokens").or_else(|| req.get("max_completion_tokens")).and_then(|m| m.as_u64());
    let asked = c.output_tokens.unwrap_or_else(|| limit.map_or(16, |m| m.min(1 << 20) as u32));
    let ignore_eos = req.get("ignore_eos").and_then(|v| v.as_bool()).unwrap_or(false);
    match c.natural_length {
        Some(n) if !ignore_eos => asked.min(n),
        _ => asked,
    }
    .max(1)
}

/// A chunked SSE response being written, buffered whole when it is sent in one write.
struct Sse<'a> {
    out: &'a mut ServerWire,
    pending: Vec<u8>,
    batch: bool,
    /// Python's separators in every event.
    spaced: bool,
}

impl Sse<'_> {
    /// Appends one SSE event as its own HTTP chunk.
    fn event(&mut self, data: &str) {
        let ev = if self.spaced { format!("data: {}\n\n", data.replace("\":", "\": ").replace(",\"", ", \"")) } else { format!("data: {data}\n\n") };
        let _ = write!(self.pending, "{:x}\r\n{ev}\r\n", ev.len());
    }

    /// Writes what is pending, unless the response is batched and this is not the end.
    fn flush(&mut self, force: bool) -> std::io::Result<()> {
        if force || !self.batch {
            self.out.write_all(&self.pending)?;
            self.pending.clear();
        }
        Ok(())
    }

    /// Injects a stream fault at its token; false when the response ends there.
    fn stream_fault(&mut self, fault: Option<Fault>, c: &MockConfig) -> std::io::Result<bool> {
        match fault {
            Some(Fault::Drop) => {
                self.flush(true)?;
                self.out.cut();
                Ok(false)
            }
            Some(Fault::Stall) => {
                self.flush(true)?;
                std::thread::sleep(c.stall_for);
                Ok(false)
            }
            Some(Fault::Malformed) => {
                self.event("{\"choices\":[{\"index\":0,\"text\":\"tr");
                Ok(true)
            }
            _ => Ok(true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_names_round_trip() {
        for f in Fault::ALL {
            assert_eq!(Fault::parse(f.name()), Some(f));
        }
        assert_eq!(Fault::parse("nope"), None);
    }

    #[test]
    fn ttft_factors_are_log_normal_with_median_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut logs: Vec<f64> = (0..20_000).map(|_| log_normal(&mut rng, 0.3).ln()).collect();
        logs.sort_by(f64::total_cmp);
        let mean = logs.iter().sum::<f64>() / logs.len() as f64;
        let sd = (logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / logs.len() as f64).sqrt();
        assert!(logs[10_000].abs() < 0.01, "median of ln: {}", logs[10_000]);
        assert!((sd - 0.3).abs() < 0.01, "SD of ln: {sd}");
    }
}
