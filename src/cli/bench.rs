//! `credence bench`: loads an OpenAI-compatible server and writes the run directory, or one
//! run per step of a `--sweep`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::analyze::slo::ObjectiveSpec;
use crate::analyze::until::between::MIN_RUNS;
use crate::analyze::until::{Rule, UntilOptions};
use crate::bench::headers::{RequestHeaders, parse_header};
use crate::bench::in_flight::{Bound, FdLimit, fd_budget};
use crate::bench::lengths::LengthDist;
use crate::bench::tls::{TlsClient, Trust};
use crate::bench::{BenchOptions, Beside, Load};
use crate::cli::args::{CapacityFlags, GpuArg, check_metrics_url, delay_flag, duration_flag, parse_lang};
use crate::cli::gpu::gpu_source;
use crate::error::{CliError, ExitCode};
use crate::ops::bench::series::{Repeat, SeriesPlan, run_series};
use crate::ops::bench::sweep::{SweepParameter, SweepPlan, parse_sweep, run_sweep};
use crate::run::manifest::TlsUse;
use credence_messages::Lang;

#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// The server, http://HOST:PORT or https://HOST:PORT.
    #[arg(long)]
    url: String,
    /// HTTPS: a PEM file of CA certificates to trust besides the system's roots.
    #[arg(long)]
    ca_cert: Option<PathBuf>,
    /// HTTPS: do not verify the server's certificate (self-signed test servers); recorded in run.json.
    #[arg(long)]
    insecure: bool,
    /// API key, sent as `Authorization: Bearer KEY` (default: the OPENAI_API_KEY environment
    /// variable). It is never written to the run, the report or the terminal.
    #[arg(long)]
    api_key: Option<String>,
    /// An extra request header, 'Name: value' (repeatable). Only names are recorded.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// The model name to request.
    #[arg(long)]
    model: String,
    /// The run directory to create.
    #[arg(long)]
    out: PathBuf,
    /// chat (/v1/chat/completions) or completions (/v1/completions).
    #[arg(long, default_value = "completions")]
    api: String,
    /// Offered rate, requests per second (open loop).
    #[arg(long)]
    rate: Option<f64>,
    /// poisson, constant, or gamma:CV (bursty when CV > 1).
    #[arg(long, default_value = "poisson")]
    arrival: String,
    /// Closed-loop clients.
    #[arg(long)]
    concurrency: Option<u32>,
    /// How long to offer load, e.g. 5m.
    #[arg(long)]
    duration: Option<String>,
    /// Run until every target's 95 % interval is narrow enough, e.g.
    /// ttft_p99=3%,tpot_p50=2%,throughput=2% (half-width relative to the estimate). The warmup
    /// is then measured (--warmup auto), and --max-duration bounds the run.
    #[arg(long, value_name = "SPEC")]
    until: Option<String>,
    /// With --until: the longest the run may take.
    #[arg(long, default_value = "30m")]
    max_duration: String,
    /// With --until: the shortest run, whatever the intervals say.
    #[arg(long, default_value = "60s", hide_short_help = true)]
    min_duration: String,
    /// With --until: stop early when the error rate is surely above this, e.g. 5%.
    #[arg(long, value_name = "PERCENT")]
    max_error_rate: Option<String>,
    /// How many requests to send.
    #[arg(long)]
    requests: Option<u64>,
    /// Warmup: the first N requests, or the first D seconds (e.g. 30s); marked, not deleted.
    /// With --until, `auto` (the default there): measured online.
    #[arg(long, default_value = "0")]
    warmup: String,
    /// Prompt length in words (about one token each; exact tokens with --tokenizer): N,
    /// uniform:LO-HI, normal:MEAN,SD or lognormal:MEDIAN,SIGMA, drawn per request.
    #[arg(long, default_value = "128")]
    input_len: String,
    /// Output tokens (max_tokens, with ignore_eos), a distribution as for --input-len.
    #[arg(long, default_value = "128")]
    output_len: String,
    /// Do not send `ignore_eos` (a vLLM extension; for servers that reject unknown fields):
    /// responses may then end before --output-len.
    #[arg(long)]
    no_ignore_eos: bool,
    /// Open loop: a fixed pool of N connections; requests beyond them wait and show as send
    /// lag. Without it (and without --max-in-flight) a connection is opened whenever none is
    /// idle, up to what the file-descriptor limit allows.
    #[arg(long)]
    connections: Option<u32>,
    /// Open loop: at most N requests in flight (the pool still grows on demand up to N).
    #[arg(long)]
    max_in_flight: Option<u32>,
    /// Open a new connection for every request.
    #[arg(long)]
    new_connection_per_request: bool,
    /// Per-request timeout, e.g. 60s.
    #[arg(long, default_value = "60s")]
    timeout: String,
    /// Seed of the arrival schedule, the request lengths and the synthetic prompts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Prompts: ShareGPT JSON (each conversation's first human turn, its reply's length as the
    /// output length) or JSONL (a string, {"prompt": …, "output_len": N} or {"messages": […]}
    /// per line), cycled in order.
    #[arg(long)]
    dataset: Option<PathBuf>,
    /// With --dataset: send N of its prompts, chosen by --seed.
    #[arg(long, value_name = "N", hide_short_help = true)]
    dataset_sample: Option<usize>,
    /// Sample GPUs through NVML beside the load, once a second: auto, on or off.
    #[arg(long, value_enum, default_value_t = GpuArg::Off)]
    collect_gpu: GpuArg,
    /// Scrape the server's Prometheus metrics beside the load, once a second.
    #[arg(long, value_name = "URL")]
    server_metrics: Option<String>,
    /// A sweep, e.g. rate=5,10,20: one run per step under --out, linked by sweep.json.
    #[arg(long)]
    sweep: Option<String>,
    /// Run the same load N times into OUT/run-1…N, linked by OUT/series.json (compare, plan
    /// and report read the folder as replicated runs). With --until, `auto`: repeat until the
    /// interval across runs meets the targets too, up to --max-runs.
    #[arg(long)]
    repeat: Option<String>,
    /// With --repeat auto: the most runs.
    #[arg(long, default_value_t = 10, hide_short_help = true)]
    max_runs: u32,
    /// With --repeat: wait this long between runs, e.g. 60s.
    #[arg(long, hide_short_help = true)]
    cooldown: Option<String>,
    /// Language of the live view and the progress lines: en, zh, or auto (from LC_ALL,
    /// LC_MESSAGES or LANG).
    #[arg(long, default_value = "en")]
    lang: String,
    /// With --repeat: a shell command run before each run (a server restart, a cache drop);
    /// its exit code and duration go to series.json, and a failure stops the series (exit 2).
    #[arg(long)]
    before_each: Option<String>,
    #[command(flatten)]
    capacity: CapacityFlags,
    #[command(flatten)]
    workload: crate::cli::workload::WorkloadFlags,
}

/// `--repeat N [--cooldown D] [--before-each CMD]` as a series plan, checked.
fn series_plan(a: &BenchArgs) -> Result<Option<SeriesPlan<'_>>, CliError> {
    let Some(repeat) = a.repeat.as_deref() else {
        if a.cooldown.is_some() || a.before_each.is_some() {
            return Err(CliError::bad_input("--cooldown and --before-each apply to --repeat N only"));
        }
        return Ok(None);
    };
    let repeat = match repeat.trim() {
        "auto" if a.until.is_none() => {
            return Err(CliError::bad_input(
                "--repeat auto repeats until the interval across runs meets the --until targets: give --until SPEC, or a number of runs",
            ));
        }
        "auto" if a.max_runs < MIN_RUNS as u32 => {
            return Err(CliError::bad_input(format!("--max-runs {}: --repeat auto needs at least {MIN_RUNS} runs to measure run-to-run noise", a.max_runs)));
        }
        "auto" => Repeat::Auto { max_runs: a.max_runs },
        n => match n.parse::<u32>() {
            Ok(0) => return Err(CliError::bad_input("--repeat 0: a series needs at least 1 run (3 or more let compare measure run-to-run noise)")),
            Ok(n) => Repeat::Runs(n),
            Err(_) => return Err(CliError::bad_input(format!("--repeat {n:?}: expected a number of runs, or auto (with --until)"))),
        },
    };
    if a.sweep.is_some() {
        return Err(CliError::bad_input("--repeat and --sweep cannot be combined: repeat each step of a sweep as its own series"));
    }
    let cooldown = a.cooldown.as_deref().map_or(Ok(Duration::ZERO), |c| delay_flag("--cooldown", c))?;
    Ok(Some(SeriesPlan { repeat, cooldown, before_each: a.before_each.as_deref() }))
}

pub fn run(mut a: BenchArgs) -> Result<ExitCode, CliError> {
    if let Some(r) = a.workload.session_rate.take() {
        if a.workload.sessions.is_none() {
            return Err(CliError::bad_input("--session-rate counts new sessions a second: add --sessions N (--rate counts requests)"));
        }
        // In a conversation run --rate already counts sessions: one loop, two names.
        a.rate = Some(r);
    }
    if a.capacity.find_capacity {
        return run_capacity(&a);
    }
    let slo = crate::cli::args::slo_flag(a.capacity.slo.as_deref())?;
    let series = series_plan(&a)?;
    let sweep = a.sweep.as_deref().map(|s| parse_sweep(s, load_flag(&a))).transpose()?;
    let o = options(&a, sweep.as_ref())?;
    let (gpus, gpu_note) = gpu_source(a.collect_gpu.mode(), "--collect-gpu")?;
    check_metrics_url(a.server_metrics.as_deref())?;
    // Ctrl-C stops the load and still writes what was measured; a second Ctrl-C abandons it.
    crate::collect::install_signals();
    let beside = Beside { gpus, server_metrics: a.server_metrics.clone(), gpu_note };
    let until = until_options(&a)?;
    let lang = parse_lang(&a.lang)?;
    match (sweep, series) {
        (_, Some(plan)) => run_series(&o, &plan, until.as_ref(), beside, &a.out, lang),
        (None, None) => run_once(&o, beside, &a.out, (until.as_ref(), &slo), lang),
        (Some(sweep), None) => run_sweep(&o, &sweep, beside, &a.out, until.as_ref(), lang),
    }
}

/// Which loop `--rate` or `--concurrency` asked for, if either.
fn load_flag(a: &BenchArgs) -> Option<SweepParameter> {
    match (a.rate, a.concurrency) {
        (Some(_), _) => Some(SweepParameter::Rate),
        (None, Some(_)) => Some(SweepParameter::Concurrency),
        (None, None) => None,
    }
}

/// `--until SPEC` with its bounds, checked; none without `--until`.
fn until_options(a: &BenchArgs) -> Result<Option<UntilOptions>, CliError> {
    let Some(spec) = &a.until else {
        if a.max_error_rate.is_some() {
            return Err(CliError::bad_input("--max-error-rate applies to --until only"));
        }
        return Ok(None);
    };
    if a.duration.is_some() || a.requests.is_some() {
        return Err(CliError::bad_input("--until stops the run itself: drop --duration and --requests (--max-duration bounds it)"));
    }
    let targets = crate::analyze::until::spec::parse(spec).map_err(CliError::bad_input)?;
    let (min_duration_s, max_duration_s) = (duration_flag("--min-duration", &a.min_duration)?, duration_flag("--max-duration", &a.max_duration)?);
    if min_duration_s > max_duration_s {
        return Err(CliError::bad_input(format!("--min-duration {} is longer than --max-duration {}", a.min_duration, a.max_duration)));
    }
    let max_error_rate = a.max_error_rate.as_deref().map(error_rate_flag).transpose()?;
    let warmup_s = match a.warmup.trim() {
        "0" | "auto" => None,
        w if w.parse::<u64>().is_ok() => return Err(CliError::bad_input("with --until, --warmup is auto or a duration (e.g. 30s), not a request count")),
        w => Some(duration_flag("--warmup", w)?),
    };
    Ok(Some(UntilOptions { targets, min_duration_s, max_duration_s, max_error_rate, warmup_s, rule: Rule::Staged, seed: a.seed }))
}

/// `--max-error-rate 5%`: a percentage in (0, 100).
fn error_rate_flag(text: &str) -> Result<f64, CliError> {
    let percent = text.trim().strip_suffix('%').and_then(|p| p.trim().parse::<f64>().ok()).filter(|p| *p > 0.0 && *p < 100.0);
    percent.map(|p| p / 100.0).ok_or_else(|| CliError::bad_input(format!("--max-error-rate {text:?}: expected a percentage between 0 % and 100 %, e.g. 5%")))
}

/// One run: the load, then the run directory and what the client noticed about itself. With
/// `--until`, the watcher ends the load and the run records why and when.
fn run_once(o: &BenchOptions, beside: Beside, out: &Path, (until, slo): (Option<&UntilOptions>, &[ObjectiveSpec]), lang: Lang) -> Result<ExitCode, CliError> {
    let (mut data, limits) = crate::ops::bench::until::run_until(o, beside, until, lang).map_err(CliError::bad_input)?;
    if !slo.is_empty() {
        data.manifest.config.extra.insert("slo".into(), crate::analyze::slo::canonical(slo));
    }
    crate::run::write::write_run(out, &data)?;
    print_slo(&data, slo, lang);
    let n = data.requests.num_rows();
    eprintln!("wrote {} ({n} requests, {} warmup)", out.display(), data.manifest.phases.warmup_requests.unwrap_or(0));
    for w in &limits.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(n) = data.manifest.config.extra.get("stopped_early") {
        eprintln!("note: {n}");
    }
    if let Some((count, example)) = failed_as(&data.requests, "no_tokens") {
        eprintln!("warning: {count} responses ended without any output credence could read; the first: {example}");
    }
    if let Some((count, example)) = failed_as(&data.requests, "refused") {
        eprintln!("warning: {count} requests could not connect; the first: {example}");
    }
    Ok(ExitCode::Success)
}

/// The objectives judged on the run as written (`analyze RUN --slo SPEC` says the same).
fn print_slo(data: &crate::run::write::RunData, slo: &[ObjectiveSpec], lang: Lang) {
    if slo.is_empty() {
        return;
    }
    let view = crate::analyze::requests::RequestView::from_table(&data.requests);
    let telemetry = crate::analyze::attribute::Telemetry { gpu: data.gpu.as_ref(), host: data.host.as_ref(), server: data.server.as_ref() };
    let a = crate::analyze::analyze_view(&data.manifest, &view, &telemetry, &crate::analyze::AnalyzeOptions { slo: slo.to_vec(), ..Default::default() });
    if let Some(s) = &a.slo {
        eprintln!("slo: {}", crate::report::slo_view::objectives(s, lang));
        eprintln!("slo: {}", crate::report::slo_view::goodput(s, lang));
    }
}

/// How many requests failed with this error kind, and the first one's message (a `no_tokens`
/// message shows the event verbatim, so that the user sees the format the client did not
/// understand; a `refused` one says why, e.g. an untrusted certificate and its fix). Messages
/// were scrubbed of secrets when recorded.
fn failed_as(requests: &crate::run::Table, error_kind: &str) -> Option<(usize, String)> {
    use arrow_array::Array;
    let (kind, message) = (requests.strings("error_kind")?, requests.strings("error_message")?);
    let rows: Vec<usize> = (0..kind.len()).filter(|&i| kind.is_valid(i) && kind.value(i) == error_kind).collect();
    let first = *rows.first()?;
    Some((rows.len(), if message.is_valid(first) { crate::text::sanitize(message.value(first)) } else { String::new() }))
}

/// The bench options from the arguments, every value checked before a request is sent.
fn options(a: &BenchArgs, sweep: Option<&SweepPlan>) -> Result<BenchOptions, CliError> {
    let endpoint = endpoint(&a.url)?;
    let (tls, tls_use) = https(a, &endpoint)?;
    let headers = request_headers(a)?;
    let others = crate::cli::workload::Others {
        chat: a.api == "chat",
        load_given: a.rate.is_some() || a.concurrency.is_some(),
        dataset: a.dataset.is_some(),
        sweep_or_search: a.sweep.is_some() || a.capacity.find_capacity,
    };
    let workload = a.workload.workload(&others)?;
    let load = match (sweep, &workload.trace) {
        (_, Some(trace)) => Load::Trace(trace.mean_rate()),
        // The sweep says which loop it is; its first step stands in until each step sets its own.
        (Some(plan), None) if a.rate.is_none() && a.concurrency.is_none() => plan.first_load(load(Some(plan.values[0]), None, &a.arrival)?),
        _ => load(a.rate, a.concurrency, &a.arrival)?,
    };
    let (requests, duration_s) = how_long(a, &workload)?;
    let timeout = duration_flag("--timeout", &a.timeout)?;
    if a.out.exists() {
        return Err(CliError::bad_input(format!("{}: already exists; remove it or choose another --out", a.out.display())));
    }
    let chat = match a.api.as_str() {
        "chat" => true,
        "completions" => false,
        other => return Err(CliError::bad_input(format!("--api {other:?}: expected chat or completions"))),
    };
    let (warmup_requests, warmup_s) = if a.until.is_some() && a.warmup.trim() == "auto" { (0, 0.0) } else { warmup(&a.warmup)? };
    let prompts = a.dataset.as_deref().map(|d| read_dataset(d, (a.dataset_sample, a.seed), &workload.vocab)).transpose()?.unwrap_or_default();
    if workload.sessions.is_some() && prompts.iter().any(|p| p.turns.is_empty()) {
        return Err(CliError::bad_input(
            "--sessions with --dataset sends a conversation's human turns: give a ShareGPT JSON file (a JSONL file has no conversations)",
        ));
    }
    let fd_limit = crate::bench::in_flight::raise_fd_limit();
    let bound = in_flight_bound(a, &load, fd_limit)?;
    Ok(BenchOptions {
        hostport: endpoint.hostport,
        tls,
        tls_use,
        headers,
        chat,
        model: a.model.clone(),
        load,
        duration_s,
        requests,
        warmup_requests,
        warmup_s,
        input_len: LengthDist::parse(&a.input_len).map_err(|e| CliError::bad_input(format!("--input-len {e}")))?,
        output_len: LengthDist::parse(&a.output_len).map_err(|e| CliError::bad_input(format!("--output-len {e}")))?,
        ignore_eos: !a.no_ignore_eos,
        bound,
        fd_limit,
        new_connection_per_request: a.new_connection_per_request,
        timeout: Duration::from_secs_f64(timeout),
        seed: a.seed,
        prompts,
        dataset: a.dataset.as_ref().map(|d| d.display().to_string()),
        prefix: workload.prefix,
        trace: workload.trace,
        sessions: workload.sessions,
        reset_prefix_cache: a.workload.reset_prefix_cache,
        adapters: workload.adapters,
        store_prompts: a.workload.store_prompts,
        vocab: workload.vocab,
        sonnet: workload.sonnet,
        prompt_token_ids: a.workload.prompt_token_ids,
    })
}

/// When the run ends: after how many requests, after how long. A trace ends with its last
/// record, sessions with the last session; each step of a capacity search sets its own length.
fn how_long(a: &BenchArgs, workload: &crate::cli::workload::Workload) -> Result<(Option<u64>, Option<f64>), CliError> {
    let requests = match (&workload.trace, workload.sessions) {
        (Some(t), _) => Some(a.requests.unwrap_or(u64::MAX).min(t.entries.len() as u64)),
        (None, Some(s)) => Some(s.count),
        (None, None) => a.requests,
    };
    let duration_s = match (&a.until, a.duration.as_deref()) {
        (Some(_), _) => Some(duration_flag("--max-duration", &a.max_duration)?),
        (None, None) if a.capacity.find_capacity => Some(duration_flag("--max-step-duration", &a.capacity.max_step_duration)?),
        (None, d) => d.map(|d| duration_flag("--duration", d)).transpose()?,
    };
    if duration_s.is_none() && requests.is_none() {
        return Err(CliError::bad_input("give --duration D, --requests N or --until SPEC"));
    }
    Ok((requests, duration_s))
}

/// What bounds the open loop's requests in flight: `--connections` (a fixed pool),
/// `--max-in-flight`, or the file-descriptor limit.
fn in_flight_bound(a: &BenchArgs, load: &Load, fd_limit: Option<FdLimit>) -> Result<Bound, CliError> {
    match (a.connections, a.max_in_flight) {
        (Some(_), Some(_)) => Err(CliError::bad_input("give --connections N (a fixed pool) or --max-in-flight N (a cap on a growing pool), not both")),
        (_, Some(_)) if matches!(load, Load::Closed(_)) => {
            Err(CliError::bad_input("--max-in-flight applies to an open loop (--rate); --concurrency already fixes the requests in flight"))
        }
        (Some(0), _) | (_, Some(0)) => Err(CliError::bad_input("--connections and --max-in-flight must be at least 1")),
        (Some(n), None) => Ok(Bound::Connections(n)),
        (None, Some(n)) => Ok(Bound::MaxInFlight(n)),
        // Where the limit cannot be read, the pool may still grow; the OS says no by failing a connection.
        (None, None) => Ok(Bound::FdLimit(fd_limit.map_or(u32::MAX, fd_budget))),
    }
}

/// Where `--url` points.
struct Endpoint {
    https: bool,
    /// The host as written (a name, an IPv4 address or a bracketed IPv6 one).
    host: String,
    /// `HOST:PORT`, the port defaulting to 80 or 443.
    hostport: String,
}

/// `http://HOST[:PORT][/]` or `https://HOST[:PORT][/]`. Credentials in the URL are refused
/// (give --api-key), and the error then does not repeat the URL.
fn endpoint(url: &str) -> Result<Endpoint, CliError> {
    let expected = || CliError::bad_input(format!("--url {url:?}: expected http://HOST:PORT or https://HOST:PORT"));
    let (https, rest) = match (url.strip_prefix("http://"), url.strip_prefix("https://")) {
        (Some(rest), _) => (false, rest),
        (_, Some(rest)) => (true, rest),
        _ => return Err(expected()),
    };
    let authority = rest.trim_end_matches('/');
    if authority.contains('@') {
        return Err(CliError::bad_input("--url: credentials in the URL are not sent; give the key with --api-key or OPENAI_API_KEY"));
    }
    if authority.is_empty() || authority.contains('/') {
        return Err(expected());
    }
    // A port follows the last colon, outside an IPv6 literal's brackets.
    let (host, port) = match authority.rsplit_once(':').filter(|(h, _)| !h.is_empty() && (!h.starts_with('[') || h.ends_with(']'))) {
        Some((h, p)) => (h, p.parse::<u16>().map_err(|_| expected())?),
        None => (authority, if https { 443 } else { 80 }),
    };
    Ok(Endpoint { https, host: host.to_string(), hostport: format!("{host}:{port}") })
}

/// The TLS client and what run.json records of it, for an https URL; `--ca-cert` and
/// `--insecure` are refused for a plain one, and a CA file that cannot be read or is not PEM
/// is refused by name, before any request.
fn https(a: &BenchArgs, e: &Endpoint) -> Result<(Option<TlsClient>, Option<TlsUse>), CliError> {
    if !e.https {
        if a.ca_cert.is_some() || a.insecure {
            return Err(CliError::bad_input("--ca-cert and --insecure apply to https:// URLs only"));
        }
        return Ok((None, None));
    }
    let trust = Trust { ca_cert: a.ca_cert.as_deref(), insecure: a.insecure };
    let client = TlsClient::new(&e.host, &trust).map_err(CliError::bad_input)?;
    let ca_cert = a.ca_cert.as_ref().map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()));
    Ok((Some(client), Some(TlsUse { insecure: a.insecure, ca_cert })))
}

/// The API key (`--api-key`, else `OPENAI_API_KEY`) and the `--header`s. Errors name the
/// argument by its position and never repeat a value: it may be a secret.
fn request_headers(a: &BenchArgs) -> Result<RequestHeaders, CliError> {
    let key = a.api_key.clone().or_else(|| std::env::var("OPENAI_API_KEY").ok().filter(|k| !k.is_empty()));
    let mut headers = Vec::with_capacity(a.headers.len());
    for (i, text) in a.headers.iter().enumerate() {
        headers.push(parse_header(text).map_err(|why| CliError::bad_input(format!("--header number {} {why}", i + 1)))?);
    }
    let source = if a.api_key.is_some() { "--api-key" } else { "OPENAI_API_KEY" };
    RequestHeaders::new(key.as_deref(), headers).map_err(|why| CliError::bad_input(format!("{source}: {why}")))
}

/// Open loop (`--rate` with an arrival process) or closed loop (`--concurrency`).
fn load(rate: Option<f64>, concurrency: Option<u32>, arrival: &str) -> Result<Load, CliError> {
    let gamma_cv = arrival.strip_prefix("gamma:").and_then(|cv| cv.parse::<f64>().ok()).filter(|cv| *cv > 0.0 && cv.is_finite());
    match (rate, concurrency, arrival) {
        (Some(r), None, "poisson") if r > 0.0 => Ok(Load::Poisson(r)),
        (Some(r), None, "constant") if r > 0.0 => Ok(Load::Constant(r)),
        (Some(r), None, _) if r > 0.0 && gamma_cv.is_some() => Ok(Load::Gamma(r, gamma_cv.unwrap_or(1.0))),
        (None, Some(c), _) if c > 0 => Ok(Load::Closed(c)),
        (Some(_), Some(_), _) => Err(CliError::bad_input("give --rate (open loop) or --concurrency (closed loop), not both")),
        (None, None, _) => Err(CliError::bad_input("give --rate R (open loop) or --concurrency N (closed loop)")),
        _ => Err(CliError::bad_input("--arrival must be poisson, constant or gamma:CV, and --rate and --concurrency positive")),
    }
}

/// `--warmup 50` (requests) or `--warmup 30s` (time).
fn warmup(text: &str) -> Result<(u64, f64), CliError> {
    match text.trim().parse::<u64>() {
        Ok(n) => Ok((n, 0.0)),
        Err(_) => duration_flag("--warmup", text).map(|s| (0, s)).map_err(|e| CliError::bad_input(format!("{} (a request count or a duration)", e.message))),
    }
}

/// Prompts from `--dataset` (ShareGPT JSON or JSONL, `bench::dataset`), sampled by the seed
/// with `--dataset-sample N`.
fn read_dataset(
    path: &Path,
    (sample, seed): (Option<usize>, u64),
    vocab: &crate::bench::lengths::Vocab,
) -> Result<Vec<crate::bench::dataset::DatasetPrompt>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::bad_input(format!("{}: cannot read: {e}", path.display())))?;
    let prompts = crate::bench::dataset::parse_dataset(&text, &path.display().to_string()).map_err(CliError::bad_input)?;
    let mut prompts = match sample {
        Some(n) => crate::bench::dataset::sample(prompts, n, seed).map_err(CliError::bad_input)?,
        None => prompts,
    };
    // Counted once here, not on the send path: replies (output lengths) always, in the
    // tokenizer's tokens where there is one, and then the prompts themselves.
    crate::bench::dataset::count_lengths(&mut prompts, |t| vocab.count(t), vocab.tokenizer().is_some());
    Ok(prompts)
}

/// `--find-capacity --slo SPEC`: the search's plan from the flags, checked, then the search.
fn run_capacity(a: &BenchArgs) -> Result<ExitCode, CliError> {
    // The flags a search sets itself are named before any other check.
    conflicts_with_search(a)?;
    let mut o = options(a, None)?;
    let plan = capacity_plan(a, o.requests_per_session())?;
    if a.rate.is_none() && a.concurrency.is_none() {
        o.load = load(Some(plan.search.start), None, &a.arrival)?;
    }
    let (gpus, gpu_note) = gpu_source(a.collect_gpu.mode(), "--collect-gpu")?;
    check_metrics_url(a.server_metrics.as_deref())?;
    crate::collect::install_signals();
    let lang = parse_lang(&a.lang)?;
    let beside = Beside { gpus, server_metrics: a.server_metrics.clone(), gpu_note };
    let mut source = crate::ops::bench::capacity::BenchSource { options: o, beside, lang };
    let (capacity, ended) = crate::ops::bench::capacity::find_capacity(&plan, &mut source, &a.out, lang)?;
    Ok(crate::ops::bench::capacity::conclude(&capacity, ended, &a.out, lang))
}

/// `--find-capacity` chooses each step's load and length: the flags that set them some other
/// way conflict.
fn conflicts_with_search(a: &BenchArgs) -> Result<(), CliError> {
    for (given, flag) in
        [(a.until.is_some(), "--until"), (a.sweep.is_some(), "--sweep"), (a.requests.is_some(), "--requests"), (a.repeat.is_some(), "--repeat")]
    {
        if given {
            return Err(CliError::bad_input(format!("--find-capacity chooses each step's load and length: drop {flag}")));
        }
    }
    Ok(())
}

/// The search's plan from the flags. Its load is in requests a second: a session rate given as
/// its start counts `requests_per_session` requests for each session.
fn capacity_plan(a: &BenchArgs, requests_per_session: f64) -> Result<crate::ops::bench::capacity::CapacityPlan, CliError> {
    let start = match (a.rate, a.concurrency) {
        (_, Some(c)) => (SweepParameter::Concurrency, f64::from(c)),
        (Some(r), None) => (SweepParameter::Rate, r * requests_per_session),
        (None, None) => (SweepParameter::Rate, 1.0),
    };
    let bounds = (a.min_duration.as_str(), a.max_duration.as_str(), a.duration.as_deref());
    a.capacity.plan(start, bounds, a.seed)
}
