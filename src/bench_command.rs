//! `credence bench`: options, the run, the run directory, and the warning about its own limits.

use std::path::PathBuf;
use std::time::Duration;

use crate::bench::lengths::LengthDist;
use crate::bench::{BenchOptions, Load, run};
use crate::error::{CliError, ExitCode};

/// `credence bench` options (clap parses them straight into this struct).
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// The server, http://HOST:PORT.
    #[arg(long)]
    pub url: String,
    /// The model name to request.
    #[arg(long)]
    pub model: String,
    /// The run directory to create.
    #[arg(long)]
    pub out: PathBuf,
    /// chat (/v1/chat/completions) or completions (/v1/completions).
    #[arg(long, default_value = "completions")]
    pub api: String,
    /// Offered rate, requests per second (open loop).
    #[arg(long)]
    pub rate: Option<f64>,
    /// poisson, constant, or gamma:CV (bursty when CV > 1).
    #[arg(long, default_value = "poisson")]
    pub arrival: String,
    /// Closed-loop clients.
    #[arg(long)]
    pub concurrency: Option<u32>,
    /// How long to offer load, e.g. 5m.
    #[arg(long)]
    pub duration: Option<String>,
    /// How many requests to send.
    #[arg(long)]
    pub requests: Option<u64>,
    /// Warmup: the first N requests, or the first D seconds (e.g. 30s); marked, not deleted.
    #[arg(long, default_value = "0")]
    pub warmup: String,
    /// Prompt length in words (about one token each): N, uniform:LO-HI, normal:MEAN,SD or
    /// lognormal:MEDIAN,SIGMA, drawn per request.
    #[arg(long, default_value = "128")]
    pub input_len: String,
    /// Output tokens (max_tokens, with ignore_eos), a distribution as for --input-len.
    #[arg(long, default_value = "128")]
    pub output_len: String,
    /// Do not send `ignore_eos` (a vLLM extension; for servers that reject unknown fields):
    /// responses may then end before --output-len.
    #[arg(long)]
    pub no_ignore_eos: bool,
    /// Connections (open loop): requests beyond them queue and show as send lag.
    #[arg(long, default_value_t = 64)]
    pub connections: u32,
    /// Open a new connection for every request.
    #[arg(long)]
    pub new_connection_per_request: bool,
    /// Per-request timeout, e.g. 60s.
    #[arg(long, default_value = "60s")]
    pub timeout: String,
    /// Seed of the arrival schedule, the request lengths and the synthetic prompts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Prompts, JSONL: {"prompt": "..."} or a string per line (cycled in order).
    #[arg(long)]
    pub dataset: Option<PathBuf>,
    /// Sample GPUs through NVML beside the load, once a second: auto, on or off.
    #[arg(long, value_enum, default_value_t = crate::cli::GpuArg::Off)]
    pub collect_gpu: crate::cli::GpuArg,
    /// Scrape the server's Prometheus metrics beside the load, once a second.
    #[arg(long)]
    pub server_metrics: Option<String>,
    /// A sweep, e.g. rate=5,10,20: one run per step under --out, linked by sweep.json.
    #[arg(long)]
    pub sweep: Option<String>,
}

/// `credence mock-server` options.
#[derive(Debug, clap::Args)]
pub struct MockServerArgs {
    /// Port on 127.0.0.1 (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// Time to first token, e.g. 20ms (0 allowed).
    #[arg(long, default_value = "20ms")]
    pub ttft: String,
    /// Delay between tokens, e.g. 5ms (0 allowed).
    #[arg(long, default_value = "5ms")]
    pub token_delay: String,
    /// Tokens per response (default: the request's max_tokens).
    #[arg(long)]
    pub output_tokens: Option<u32>,
    /// End responses after N tokens unless the request sends ignore_eos (a model's own stop).
    #[arg(long)]
    pub eos_after: Option<u32>,
    /// Inject a fault with a probability per request: KIND=P, KIND one of http_500, http_429,
    /// drop (close mid-stream), stall (never finish) or malformed (truncated JSON event).
    #[arg(long)]
    pub fault: Vec<String>,
    /// Seed of the fault draws.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A delay that may be zero (`0`, `0ms`, `20ms`, `1s`).
fn parse_delay(flag: &str, text: &str) -> Result<Duration, CliError> {
    if text.trim().trim_end_matches("ms").trim_end_matches('s') == "0" {
        return Ok(Duration::ZERO);
    }
    crate::options::parse_duration(text).map(Duration::from_secs_f64).map_err(|e| CliError::bad_input(format!("{flag} {e}")))
}

pub fn mock_server(a: MockServerArgs) -> Result<ExitCode, CliError> {
    use crate::bench::mock_server::{Fault, MockConfig, spawn};
    let mut faults = Vec::new();
    for f in &a.fault {
        let parsed = f.split_once('=').and_then(|(k, p)| Some((Fault::parse(k)?, p.parse::<f64>().ok().filter(|p| (0.0..=1.0).contains(p))?)));
        faults.push(parsed.ok_or_else(|| {
            CliError::bad_input(format!("--fault {f:?}: expected KIND=P with KIND one of http_500, http_429, drop, stall, malformed and P in [0, 1]"))
        })?);
    }
    if faults.iter().map(|f| f.1).sum::<f64>() > 1.0 {
        return Err(CliError::bad_input("--fault probabilities add up to more than 1"));
    }
    let config = MockConfig {
        ttft: parse_delay("--ttft", &a.ttft)?,
        token_delay: parse_delay("--token-delay", &a.token_delay)?,
        output_tokens: a.output_tokens.filter(|n| *n > 0),
        natural_length: a.eos_after.filter(|n| *n > 0),
        faults,
        seed: a.seed,
        ..MockConfig::default()
    };
    let server = spawn(config, a.port).map_err(|e| CliError::bad_input(format!("cannot listen on 127.0.0.1:{}: {e}", a.port)))?;
    println!("listening on {}", server.url());
    use std::io::Write;
    let _ = std::io::stdout().flush();
    loop {
        std::thread::park();
    }
}

/// The numbers a sweep is read by, from `analyze` on one step (its steady window, default
/// options, so each value is what `credence analyze STEP --json` reports), and the step's row
/// of the printed table.
fn step_summary(data: &crate::run::write::RunData) -> (serde_json::Value, [String; 4]) {
    use crate::analyze::{AnalyzeOptions, analyze_view, attribute::Telemetry, requests::RequestView};
    use crate::report::format::estimate;
    let view = RequestView::from_table(&data.requests);
    let a = analyze_view(
        &data.manifest,
        &view,
        &Telemetry { gpu: data.gpu.as_ref(), host: data.host.as_ref(), server: data.server.as_ref() },
        &AnalyzeOptions::default(),
    );
    let metric = |m: &str, p: &str| a.metrics.get(m).and_then(|x| x.get(p)).cloned();
    let json = serde_json::json!({
        "achieved_requests_per_s": a.throughput.requests_per_s,
        "output_tokens_per_s": a.throughput.output_tokens_per_s,
        "ttft_p50_ms": metric("ttft", "p50"),
        "ttft_p99_ms": metric("ttft", "p99"),
        "tpot_p50_ms": metric("tpot", "p50"),
        "e2e_p99_ms": metric("e2e", "p99"),
        "send_lag_p99_ms": metric("send_lag", "p99"),
        "error_rate": a.errors.rate,
        "credibility": a.credibility.grade.label(),
    });
    let cell = |m: &str, p: &str| metric(m, p).map_or("n/a".to_string(), |e| estimate(&e, 1.0));
    let row = [estimate(&a.throughput.requests_per_s, 1.0), cell("ttft", "p50"), cell("ttft", "p99"), a.credibility.grade.label().to_string()];
    (json, row)
}

/// The sweep as a table on stderr: throughput and latency (with their intervals) per offered rate.
fn print_sweep_table(steps: &[serde_json::Value], rows: &[[String; 4]]) {
    eprintln!("{:>8}  {:<26} {:<26} {:<26} {:<8} client", "offered", "achieved req/s", "TTFT P50 ms", "TTFT P99 ms", "grade");
    for (st, r) in steps.iter().zip(rows) {
        let client = if st["client_limited"] == true { "near its limit (see the warnings)" } else { "ok" };
        let offered = st["rate_per_s"].as_f64().map_or("?".to_string(), |v| format!("{v}"));
        eprintln!("{offered:>8}  {:<26} {:<26} {:<26} {:<8} {client}", r[0], r[1], r[2], r[3]);
    }
}

/// Prompts from a JSONL file: each line an object with `prompt` (or `text`), or a bare string.
fn read_dataset(path: &std::path::Path) -> Result<Vec<String>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::bad_input(format!("{}: cannot read: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| CliError::bad_input(format!("{}, line {}: not JSON: {e}", path.display(), i + 1)))?;
        let p = v.as_str().or_else(|| v.get("prompt").and_then(|x| x.as_str())).or_else(|| v.get("text").and_then(|x| x.as_str()));
        out.push(
            p.ok_or_else(|| CliError::bad_input(format!("{}, line {}: expected a string or an object with \"prompt\"", path.display(), i + 1)))?.to_string(),
        );
    }
    if out.is_empty() {
        return Err(CliError::bad_input(format!("{}: no prompts", path.display())));
    }
    Ok(out)
}

pub fn bench(a: BenchArgs) -> Result<ExitCode, CliError> {
    let hostport = a
        .url
        .strip_prefix("http://")
        .map(|r| r.trim_end_matches('/').to_string())
        .filter(|h| !h.is_empty() && !h.contains('/'))
        .ok_or_else(|| CliError::bad_input(format!("--url {:?}: expected http://HOST:PORT (HTTPS is not supported yet)", a.url)))?;
    let hostport = if hostport.contains(':') { hostport } else { format!("{hostport}:80") };
    let gamma_cv = a.arrival.strip_prefix("gamma:").and_then(|cv| cv.parse::<f64>().ok()).filter(|cv| *cv > 0.0 && cv.is_finite());
    let load = match (a.rate, a.concurrency, a.arrival.as_str()) {
        (Some(r), None, "poisson") if r > 0.0 => Load::Poisson(r),
        (Some(r), None, "constant") if r > 0.0 => Load::Constant(r),
        (Some(r), None, _) if r > 0.0 && gamma_cv.is_some() => Load::Gamma(r, gamma_cv.unwrap_or(1.0)),
        (None, Some(c), _) if c > 0 => Load::Closed(c),
        (Some(_), Some(_), _) => return Err(CliError::bad_input("give --rate (open loop) or --concurrency (closed loop), not both")),
        (None, None, _) => return Err(CliError::bad_input("give --rate R (open loop) or --concurrency N (closed loop)")),
        _ => return Err(CliError::bad_input("--arrival must be poisson, constant or gamma:CV, and --rate and --concurrency positive")),
    };
    let duration_s = a.duration.as_deref().map(crate::options::parse_duration).transpose().map_err(|e| CliError::bad_input(format!("--duration {e}")))?;
    if duration_s.is_none() && a.requests.is_none() {
        return Err(CliError::bad_input("give --duration D or --requests N"));
    }
    let timeout = crate::options::parse_duration(&a.timeout).map_err(|e| CliError::bad_input(format!("--timeout {e}")))?;
    if a.out.exists() {
        return Err(CliError::bad_input(format!("{}: already exists; remove it or choose another --out", a.out.display())));
    }
    let api = match a.api.as_str() {
        "chat" => true,
        "completions" => false,
        other => return Err(CliError::bad_input(format!("--api {other:?}: expected chat or completions"))),
    };
    // `--warmup 50` (requests) or `--warmup 30s` (time).
    let (warmup_requests, warmup_s) = match a.warmup.trim().parse::<u64>() {
        Ok(n) => (n, 0.0),
        Err(_) => (0, crate::options::parse_duration(&a.warmup).map_err(|e| CliError::bad_input(format!("--warmup {e} (a request count or a duration)")))?),
    };
    let o = BenchOptions {
        hostport,
        chat: api,
        model: a.model,
        load,
        duration_s,
        requests: a.requests,
        warmup_requests,
        warmup_s,
        input_len: LengthDist::parse(&a.input_len).map_err(|e| CliError::bad_input(format!("--input-len {e}")))?,
        output_len: LengthDist::parse(&a.output_len).map_err(|e| CliError::bad_input(format!("--output-len {e}")))?,
        ignore_eos: !a.no_ignore_eos,
        connections: a.connections.max(1),
        new_connection_per_request: a.new_connection_per_request,
        timeout: Duration::from_secs_f64(timeout),
        seed: a.seed,
        prompts: a.dataset.as_deref().map(read_dataset).transpose()?.unwrap_or_default(),
        dataset: a.dataset.as_ref().map(|d| d.display().to_string()),
    };
    let mode = match a.collect_gpu {
        crate::cli::GpuArg::Auto => crate::collect::GpuMode::Auto,
        crate::cli::GpuArg::On => crate::collect::GpuMode::On,
        crate::cli::GpuArg::Off => crate::collect::GpuMode::Off,
    };
    let (gpus, gpu_note) = crate::collect_command::gpu_source(mode, "--collect-gpu")?;
    if let Some(u) = &a.server_metrics
        && !u.starts_with("http://")
    {
        return Err(CliError::bad_input(format!("--server-metrics {u:?}: expected http://host:port/path")));
    }
    // Ctrl-C stops the load and still writes what was measured; a second Ctrl-C abandons it.
    crate::collect::install_signals();
    let Some(sweep) = &a.sweep else {
        let (data, limits) = run(&o, crate::bench::Beside { gpus, server_metrics: a.server_metrics.clone(), gpu_note }).map_err(CliError::bad_input)?;
        crate::run::write::write_run(&a.out, &data)?;
        let n = data.requests.num_rows();
        eprintln!("wrote {} ({n} requests, {} warmup)", a.out.display(), data.manifest.phases.warmup_requests.unwrap_or(0));
        for w in &limits.warnings {
            eprintln!("warning: {w}");
        }
        if let Some(n) = data.manifest.config.extra.get("stopped_early") {
            eprintln!("note: {n}");
        }
        return Ok(ExitCode::Success);
    };
    // A sweep: one run per step under OUT, and OUT/sweep.json linking them.
    let rates: Vec<f64> = sweep
        .strip_prefix("rate=")
        .map(|r| r.split(',').map(|x| x.trim().parse::<f64>().ok().filter(|v| *v > 0.0)).collect::<Option<Vec<_>>>())
        .flatten()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| CliError::bad_input(format!("--sweep {sweep:?}: expected rate=R1,R2,…")))?;
    if matches!(o.load, Load::Closed(_)) {
        return Err(CliError::bad_input("--sweep rate=… needs an open-loop --rate (its value is replaced by each step)"));
    }
    std::fs::create_dir_all(&a.out).map_err(|e| CliError::bad_input(format!("{}: {e}", a.out.display())))?;
    let (mut steps, mut rows) = (Vec::new(), Vec::new());
    let mut gpus = gpus;
    for (i, r) in rates.iter().enumerate() {
        if crate::collect::stop_requested() {
            break;
        }
        let mut step = o.clone();
        step.load = match o.load {
            Load::Constant(_) => Load::Constant(*r),
            Load::Gamma(_, cv) => Load::Gamma(*r, cv),
            _ => Load::Poisson(*r),
        };
        let bar: String = (0..rates.len())
            .map(|j| {
                if j < i {
                    '#'
                } else if j == i {
                    '>'
                } else {
                    '.'
                }
            })
            .collect();
        eprintln!("sweep [{bar}] step {}/{}: {r} requests/s", i + 1, rates.len());
        // GPUs are sampled in the first step only: NVML sources are not cloneable.
        let beside = crate::bench::Beside { gpus: gpus.take(), server_metrics: a.server_metrics.clone(), gpu_note: gpu_note.clone() };
        let (mut data, limits) = run(&step, beside).map_err(CliError::bad_input)?;
        data.manifest.labels.insert("sweep_step".into(), format!("{}", i + 1));
        let dir = a.out.join(format!("step-{:02}-rate-{r}", i + 1));
        crate::run::write::write_run(&dir, &data)?;
        for w in &limits.warnings {
            eprintln!("warning (step {}): {w}", i + 1);
        }
        let (summary, row) = step_summary(&data);
        rows.push(row);
        let stopped_here = data.manifest.config.extra.contains_key("stopped_early");
        steps.push(serde_json::json!({
            "stopped_early": stopped_here,
            "step": i + 1,
            "rate_per_s": r,
            "run": dir.file_name().map(|n| n.to_string_lossy().into_owned()),
            "requests": data.requests.num_rows(),
            "client_limited": !limits.warnings.is_empty(),
            "warnings": limits.warnings,
            "summary": summary,
        }));
    }
    print_sweep_table(&steps, &rows);
    let stopped = crate::collect::stop_requested();
    if stopped {
        eprintln!("note: the sweep was stopped by a signal after {} of {} steps", steps.len(), rates.len());
    }
    let parent = serde_json::json!({"kind": "credence sweep", "credence_version": env!("CARGO_PKG_VERSION"), "parameter": "rate", "planned_steps": rates, "stopped_early": stopped, "steps": steps});
    crate::commands::write_atomic(&a.out.join("sweep.json"), (serde_json::to_string_pretty(&parent).expect("json") + "\n").as_bytes())?;
    eprintln!("wrote {} ({} steps, sweep.json links them)", a.out.display(), rates.len());
    Ok(ExitCode::Success)
}
