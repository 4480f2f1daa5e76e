//! `credence mock-server`: a scripted OpenAI-compatible streaming server on 127.0.0.1.

use std::path::PathBuf;

use crate::bench::mock_secure::server_config;
use std::time::Duration;

use crate::bench::mock_cache::CacheConfig;
use crate::bench::mock_engine::EngineConfig;
use crate::bench::mock_server::{Fault, MockConfig, spawn};
use crate::bench::mock_timeline::{Timeline, parse_seconds};
use crate::bench::tokens::TokenWords;
use std::sync::Arc;
use crate::cli::args::delay_flag;
use crate::error::{CliError, ExitCode};

#[derive(Debug, clap::Args)]
pub struct MockServerArgs {
    /// Port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Time to first token, e.g. 20ms (0 allowed).
    #[arg(long, default_value = "20ms")]
    ttft: String,
    /// Delay between tokens, e.g. 5ms (0 allowed).
    #[arg(long, default_value = "5ms")]
    token_delay: String,
    /// Tokens per response (default: the request's max_tokens).
    #[arg(long)]
    output_tokens: Option<u32>,
    /// End responses after N tokens unless the request sends ignore_eos (a model's own stop).
    #[arg(long)]
    eos_after: Option<u32>,
    /// Inject a fault with a probability per request: KIND=P, KIND one of http_500, http_429,
    /// drop (close mid-stream), stall (never finish) or malformed (truncated JSON event).
    #[arg(long)]
    fault: Vec<String>,
    /// Seed of the fault draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The model name `/v1/models` lists.
    #[arg(long, default_value = "mock")]
    model: String,
    /// Reasoning tokens streamed (`reasoning_content`) before the content of chat responses.
    #[arg(long, default_value_t = 0)]
    reasoning_tokens: u32,
    /// JSON separators: compact (`"a":1,"b"`) or spaced (`"a": 1, "b"`, Python's default).
    #[arg(long, value_enum, default_value_t = JsonStyle::Compact)]
    json_style: JsonStyle,
    /// Serve HTTPS with this PEM certificate chain (with --tls-key).
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The PEM private key of --tls-cert.
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Answer /v1/ requests lacking `Authorization: Bearer KEY` with 401 (the body echoes what
    /// was sent, as some proxies do).
    #[arg(long)]
    require_key: Option<String>,
    /// A slowdown at the start: DURATION:FACTORx, e.g. 60s:3x multiplies TTFT and token delay
    /// by 3 at the first request, falling linearly to 1x at 60 s.
    #[arg(long)]
    warmup: Option<String>,
    /// Multiply TTFT and token delay inside a window: START-END:FACTORx, e.g. 120s-180s:1.5x
    /// (repeatable; overlapping windows multiply).
    #[arg(long)]
    throttle: Vec<String>,
    /// Grow TTFT and token delay steadily: ±PERCENT%/min, e.g. +5%/min or -2%/min (the factor
    /// never falls below 0.1).
    #[arg(long, allow_hyphen_values = true)]
    drift: Option<String>,
    /// Fail requests with HTTP 500 inside a window: START-END:P, e.g. 30s-40s:0.2, drawn with
    /// --seed (repeatable).
    #[arg(long)]
    error_burst: Vec<String>,
    /// Vary each request's TTFT: the log-scale SD of a log-normal factor with median 1, e.g.
    /// 0.1 (drawn with --seed). The true TTFT percentiles are then --ttft × exp(z_p × SD).
    #[arg(long, default_value_t = 0.0)]
    ttft_jitter: f64,
    /// Keep /metrics connections open despite `Connection: close`.
    ///
    /// As some servers do: tests that a scraper reads the answer by its framing.
    #[arg(long, hide_short_help = true)]
    metrics_keep_open: bool,
    /// Answer /metrics with HTTP 500 from START to END, e.g. 3s-6s (repeatable).
    ///
    /// Seconds from the first completion request.
    #[arg(long, hide_short_help = true)]
    metrics_outage: Vec<String>,
    /// A batching engine of finite capacity: at most N sequences decode together.
    ///
    /// One token each per decode step; the rest wait in a FIFO queue, and a request whose
    /// client goes away is aborted. Replaces --ttft and --token-delay; the saturation
    /// throughput is N / (tokens × (--step-ms + --step-ms-per-seq × N)) requests/s.
    #[arg(long)]
    max_batch: Option<u32>,
    /// With --max-batch: a step's fixed milliseconds.
    #[arg(long, default_value_t = 8.0, hide_short_help = true)]
    step_ms: f64,
    /// With --max-batch: a step's milliseconds per running sequence.
    #[arg(long, default_value_t = 0.5, hide_short_help = true)]
    step_ms_per_seq: f64,
    /// A prefix cache of N blocks (LRU), as vLLM's automatic prefix caching.
    ///
    /// Prompts are cut into blocks of --block-tokens words; a block hits when the whole prefix
    /// up to it was seen. Uncached tokens add --prefill-ms-per-token to the first token; the
    /// usage reports `prompt_tokens_details.cached_tokens`; /metrics counts
    /// vllm:prefix_cache_queries_total and vllm:prefix_cache_hits_total (tokens); POST
    /// /reset_prefix_cache and /flush_cache empty it.
    #[arg(long)]
    prefix_cache_blocks: Option<u64>,
    /// With --prefix-cache-blocks: tokens (words, without --tokenizer) per block.
    #[arg(long, default_value_t = 16, hide_short_help = true)]
    block_tokens: u32,
    /// With --prefix-cache-blocks: prefill milliseconds per uncached prompt token.
    #[arg(long, default_value_t = 0.05, hide_short_help = true)]
    prefill_ms_per_token: f64,
    /// Count prompt tokens with this tokenizer.json (or model folder), as a real server does:
    /// in the usage and in the prefix cache. Without it a token is a word.
    #[arg(long, value_name = "PATH", hide_short_help = true)]
    tokenizer: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum JsonStyle {
    Compact,
    Spaced,
}

pub fn run(a: MockServerArgs) -> Result<ExitCode, CliError> {
    let timeline = timeline(&a).map_err(CliError::bad_input)?;
    let engine = engine(&a)?;
    let prefix_cache = prefix_cache(&a)?;
    let config = MockConfig {
        ttft: delay_flag("--ttft", &a.ttft)?,
        token_delay: delay_flag("--token-delay", &a.token_delay)?,
        output_tokens: a.output_tokens.filter(|n| *n > 0),
        natural_length: a.eos_after.filter(|n| *n > 0),
        faults: faults(&a.fault)?,
        seed: a.seed,
        model: a.model,
        reasoning_tokens: a.reasoning_tokens,
        spaced_json: a.json_style == JsonStyle::Spaced,
        tls: match (&a.tls_cert, &a.tls_key) {
            (Some(cert), Some(key)) => Some(server_config(cert, key).map_err(CliError::bad_input)?),
            _ => None,
        },
        require_key: a.require_key.filter(|k| !k.is_empty()),
        timeline,
        ttft_jitter: jitter(a.ttft_jitter)?,
        metrics_keep_open: a.metrics_keep_open,
        metrics_outages: a.metrics_outage.iter().map(|w| outage(w)).collect::<Result<_, _>>()?,
        engine,
        prefix_cache,
        tokenizer: a.tokenizer.as_deref().map(TokenWords::load).transpose().map_err(CliError::bad_input)?.map(Arc::new),
        ..MockConfig::default()
    };
    let schedule = (!config.timeline.is_empty()).then(|| config.timeline.to_string());
    let engine = config.engine.map(|e| match config.output_tokens {
        Some(t) => format!("engine: {} slots, steps of {:?} + {:?} per sequence; saturation {:.2} requests/s at {t} tokens", e.max_batch, e.step, e.step_per_seq, e.saturation_per_s(t)),
        None => format!("engine: {} slots, steps of {:?} + {:?} per sequence; saturation N / (tokens × step at N) requests/s", e.max_batch, e.step, e.step_per_seq),
    });
    let server = spawn(config, a.port).map_err(|e| CliError::bad_input(format!("cannot listen on 127.0.0.1:{}: {e}", a.port)))?;
    // The address stays the first line: scripts and tests read it from there (and may close
    // the pipe after it: the lines after it are best effort, never a panic).
    use std::io::Write;
    let mut out = std::io::stdout();
    let _ = writeln!(out, "listening on {}", server.url());
    let _ = out.flush();
    if let Some(s) = schedule {
        let _ = writeln!(out, "schedule (from the first request): {s}");
    }
    if let Some(e) = engine {
        let _ = writeln!(out, "{e}");
    }
    if let Some(c) = prefix_cache {
        let _ = writeln!(out, "prefix cache: {} blocks of {} tokens, prefill {:?} per uncached token", c.capacity_blocks, c.block_tokens, c.prefill_per_token);
    }
    let _ = out.flush();
    loop {
        std::thread::park();
    }
}

/// `--max-batch N [--step-ms S] [--step-ms-per-seq P]`.
fn engine(a: &MockServerArgs) -> Result<Option<EngineConfig>, CliError> {
    let Some(max_batch) = a.max_batch else { return Ok(None) };
    let ms = |flag: &str, v: f64| {
        Duration::try_from_secs_f64(v / 1e3).map_err(|_| CliError::bad_input(format!("{flag} {v}: expected milliseconds, 0 or more")))
    };
    if max_batch == 0 || a.step_ms <= 0.0 {
        return Err(CliError::bad_input("--max-batch must be at least 1 and --step-ms positive"));
    }
    Ok(Some(EngineConfig { max_batch, step: ms("--step-ms", a.step_ms)?, step_per_seq: ms("--step-ms-per-seq", a.step_ms_per_seq)? }))
}

/// `--prefix-cache-blocks N [--block-tokens B] [--prefill-ms-per-token P]`.
fn prefix_cache(a: &MockServerArgs) -> Result<Option<CacheConfig>, CliError> {
    let Some(capacity_blocks) = a.prefix_cache_blocks else { return Ok(None) };
    if capacity_blocks == 0 || a.block_tokens == 0 {
        return Err(CliError::bad_input("--prefix-cache-blocks and --block-tokens must be at least 1"));
    }
    let prefill_per_token = Duration::try_from_secs_f64(a.prefill_ms_per_token / 1e3)
        .map_err(|_| CliError::bad_input(format!("--prefill-ms-per-token {}: expected milliseconds, 0 or more", a.prefill_ms_per_token)))?;
    Ok(Some(CacheConfig { block_tokens: a.block_tokens, capacity_blocks, prefill_per_token }))
}

/// `--metrics-outage START-END`.
fn outage(text: &str) -> Result<(f64, f64), CliError> {
    let bad = || CliError::bad_input(format!("--metrics-outage {text:?}: expected START-END, e.g. 3s-6s"));
    let (from, to) = text.split_once('-').ok_or_else(bad)?;
    let (from, to) = (parse_seconds(from).map_err(|_| bad())?, parse_seconds(to).map_err(|_| bad())?);
    if to <= from {
        return Err(bad());
    }
    Ok((from, to))
}

/// The behaviour over time from `--warmup`, `--throttle`, `--drift` and `--error-burst`.
fn timeline(a: &MockServerArgs) -> Result<Timeline, String> {
    Ok(Timeline {
        warmup: a.warmup.as_deref().map(Timeline::parse_warmup).transpose()?,
        throttles: a.throttle.iter().map(|t| Timeline::parse_throttle(t)).collect::<Result<_, _>>()?,
        drift_per_min: a.drift.as_deref().map(Timeline::parse_drift).transpose()?.unwrap_or(0.0),
        error_bursts: a.error_burst.iter().map(|t| Timeline::parse_error_burst(t)).collect::<Result<_, _>>()?,
    })
}

/// `--fault KIND=P` values; their probabilities may add up to 1 at most.
fn faults(values: &[String]) -> Result<Vec<(Fault, f64)>, CliError> {
    let mut faults = Vec::new();
    for f in values {
        let parsed = f.split_once('=').and_then(|(k, p)| Some((Fault::parse(k)?, p.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p))?)));
        faults.push(parsed.ok_or_else(|| {
            CliError::bad_input(format!("--fault {f:?}: expected KIND=P with KIND one of http_500, http_429, drop, stall, malformed and P in [0, 1]"))
        })?);
    }
    if faults.iter().map(|f| f.1).sum::<f64>() > 1.0 {
        return Err(CliError::bad_input("--fault probabilities add up to more than 1"));
    }
    Ok(faults)
}

/// `--ttft-jitter`: a log-scale SD from 0 to 2.
fn jitter(sigma: f64) -> Result<f64, CliError> {
    if (0.0..=2.0).contains(&sigma) {
        Ok(sigma)
    } else {
        Err(CliError::bad_input(format!("--ttft-jitter {sigma}: expected a log-scale SD from 0 to 2, e.g. 0.1")))
    }
}
