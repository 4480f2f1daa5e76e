//! `credence bench`: an open- or closed-loop load generator for OpenAI-compatible streaming
//! servers that records honest per-request timing and knows when it is the bottleneck.
//!
//! Open loop: a scheduler thread releases request k at its scheduled time t_k (Poisson or
//! constant arrivals from a seeded generator) into a queue that the connection threads drain.
//! A request sent late keeps its scheduled time, so coordinated omission is measured, never
//! hidden. Closed loop: each connection sends its next request as soon as the last one ends.
//! One monotonic clock, anchored once to epoch time. Warmup requests are marked, not deleted.

pub mod http;

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::collect::host::{HostSample, HostSampler};
use crate::import::rows::{Request, RequestRows};
use crate::run::manifest::*;
use crate::run::write::RunData;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Load {
    Poisson(f64),
    Constant(f64),
    /// Gamma inter-arrivals with this rate and coefficient of variation (CV 1 = Poisson).
    Gamma(f64, f64),
    Closed(u32),
}

fn std_normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// A Gamma(shape, 1) draw (Marsaglia–Tsang; shape < 1 by the boost U^(1/shape)).
fn gamma(rng: &mut ChaCha8Rng, shape: f64) -> f64 {
    if shape < 1.0 {
        return gamma(rng, shape + 1.0) * rng.random::<f64>().max(1e-300).powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = std_normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random::<f64>().max(1e-300);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// `host:port`.
    pub hostport: String,
    pub chat: bool,
    pub model: String,
    pub load: Load,
    pub duration_s: Option<f64>,
    pub requests: Option<u64>,
    /// The first N requests are warmup.
    pub warmup_requests: u64,
    /// Requests scheduled (or sent, closed loop) in the first S seconds are warmup.
    pub warmup_s: f64,
    pub input_len: u32,
    pub output_len: u32,
    pub connections: u32,
    pub new_connection_per_request: bool,
    pub timeout: Duration,
    pub seed: u64,
    /// Prompts from `--dataset` (cycled in order); empty: synthetic prompts of `input_len`.
    pub prompts: Vec<String>,
    pub dataset: Option<String>,
}

/// One request's record.
struct Record {
    k: u64,
    scheduled: Option<Instant>,
    sent: Instant,
    obs: http::Observed,
}

/// Per-second self-instrumentation.
#[derive(Default)]
struct Second {
    planned: u64,
    sent: u64,
    lags_ms: Vec<f64>,
}

/// What the run found about its own limits.
#[derive(Debug, Default)]
pub struct Limits {
    pub cpu_pct_max: Option<f64>,
    pub cores: usize,
    pub send_lag_p99_ms: Option<f64>,
    pub late_sends: u64,
    pub warnings: Vec<String>,
}

fn prompt(tokens: u32) -> String {
    // About one token per short word.
    std::iter::repeat_n("hello", tokens as usize).collect::<Vec<_>>().join(" ")
}

fn body(o: &BenchOptions, k: u64) -> Vec<u8> {
    let p = if o.prompts.is_empty() { prompt(o.input_len) } else { o.prompts[(k % o.prompts.len() as u64) as usize].clone() };
    let v = if o.chat {
        serde_json::json!({"model": o.model, "messages": [{"role": "user", "content": p}], "max_tokens": o.output_len, "stream": true, "stream_options": {"include_usage": true}, "ignore_eos": true})
    } else {
        serde_json::json!({"model": o.model, "prompt": p, "max_tokens": o.output_len, "stream": true, "stream_options": {"include_usage": true}, "ignore_eos": true})
    };
    serde_json::to_vec(&v).expect("a JSON body")
}

/// Telemetry sampled beside the load, once a second, on its own thread.
pub struct Beside {
    pub gpus: Option<Box<dyn crate::collect::gpu::GpuSource + Send>>,
    pub server_metrics: Option<String>,
    pub gpu_note: Option<String>,
}

/// Samples GPUs and the server's metrics every second until `stop`.
fn sample_beside(mut b: Beside, stop: Arc<std::sync::atomic::AtomicBool>) -> (crate::import::rows::GpuRows, Vec<crate::collect::scrape::ServerSample>) {
    let host = crate::collect::host_name();
    let devices = b.gpus.as_ref().map(|g| g.devices().len()).unwrap_or(0);
    let (mut gpu, mut server) = (crate::import::rows::GpuRows::default(), Vec::new());
    let mut deadline = Instant::now();
    loop {
        if let Some(g) = b.gpus.as_mut() {
            for i in 0..devices {
                let t = Instant::now();
                let mut s = g.sample(i, crate::collect::now_ns());
                s.host = host.clone();
                s.sample_us = Some(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                gpu.rows.push(s);
            }
        }
        if let Some(url) = &b.server_metrics {
            server.extend(crate::collect::scrape::scrape(url, crate::collect::now_ns()));
        }
        deadline += Duration::from_secs(1);
        while Instant::now() < deadline {
            if stop.load(Ordering::SeqCst) {
                return (gpu, server);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Runs the benchmark and returns the run data and what it found about its own limits.
pub fn run(o: &BenchOptions, beside: Beside) -> Result<(RunData, Limits), String> {
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let gpu_note = beside.gpu_note.clone();
    let sampling = (beside.gpus.is_some() || beside.server_metrics.is_some()).then(|| {
        let stop = stop.clone();
        std::thread::spawn(move || sample_beside(beside, stop))
    });
    let anchor_instant = Instant::now();
    let anchor_ns = crate::collect::now_ns();
    let at = move |t: Instant| anchor_ns + t.saturating_duration_since(anchor_instant).as_nanos() as i64;
    // Bodies are built before the run: nothing is serialized in the hot path.
    let bodies: Arc<Vec<Vec<u8>>> = Arc::new((0..o.prompts.len().max(1) as u64).map(|k| body(o, k)).collect());
    let path = if o.chat { "/v1/chat/completions" } else { "/v1/completions" };
    let limit_n = o.requests.unwrap_or(u64::MAX);
    let end_at = o.duration_s.map(|d| anchor_instant + Duration::from_secs_f64(d));
    let (tx, rx) = mpsc::channel::<(u64, Option<Instant>)>();
    let rx = Arc::new(Mutex::new(rx));
    let records = Arc::new(Mutex::new(Vec::<Record>::new()));
    let inflight = Arc::new(AtomicU32::new(0));
    let next_k = Arc::new(AtomicU64::new(0));
    let seconds = Arc::new(Mutex::new(Vec::<Second>::new()));
    let second_of = move |t: Instant| t.saturating_duration_since(anchor_instant).as_secs() as usize;
    let closed = matches!(o.load, Load::Closed(_));
    let workers = match o.load {
        Load::Closed(c) => c,
        _ => o.connections.max(1),
    };
    // Connection threads.
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (rx, records, inflight, next_k, seconds, bodies, o2) =
            (rx.clone(), records.clone(), inflight.clone(), next_k.clone(), seconds.clone(), bodies.clone(), o.clone());
        handles.push(std::thread::spawn(move || {
            let mut conn: Option<http::Conn> = None;
            loop {
                let (k, scheduled) = if closed {
                    let k = next_k.fetch_add(1, Ordering::SeqCst);
                    if k >= limit_n || end_at.is_some_and(|e| Instant::now() >= e) {
                        break;
                    }
                    (k, None)
                } else {
                    match rx.lock().map(|r| r.recv()) {
                        Ok(Ok(job)) => job,
                        _ => break,
                    }
                };
                if conn.is_none() || o2.new_connection_per_request {
                    conn = http::Conn::open(&o2.hostport, o2.timeout).ok();
                }
                let sent = Instant::now();
                if let Some(s) = scheduled {
                    let mut secs = seconds.lock().expect("seconds");
                    let i = second_of(sent);
                    if secs.len() <= i {
                        secs.resize_with(i + 1, Second::default);
                    }
                    secs[i].sent += 1;
                    secs[i].lags_ms.push(sent.saturating_duration_since(s).as_secs_f64() * 1e3);
                }
                inflight.fetch_add(1, Ordering::SeqCst);
                let mut obs = http::Observed::default();
                let reusable = match conn.as_mut() {
                    Some(c) => http::post_stream(c, &o2.hostport, path, &bodies[(k % bodies.len() as u64) as usize], &mut obs),
                    None => {
                        obs.error = Some(("refused", format!("cannot connect to {}", o2.hostport)));
                        obs.end = Some(Instant::now());
                        false
                    }
                };
                inflight.fetch_sub(1, Ordering::SeqCst);
                if !reusable {
                    conn = None;
                }
                records.lock().expect("records").push(Record { k, scheduled, sent, obs });
            }
        }));
    }
    // The scheduler (open loop) and the self-sampler, on this thread.
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut host = HostSampler::new();
    let me = std::process::id();
    let mut host_rows: Vec<(HostSample, u32)> = Vec::new();
    let mut next_sample = anchor_instant;
    let mut rng = ChaCha8Rng::seed_from_u64(o.seed);
    let mut t = 0.0f64;
    let mut k = 0u64;
    if !closed {
        loop {
            let gap = match o.load {
                Load::Poisson(r) => -(1.0 - rng.random::<f64>()).ln() / r,
                Load::Constant(r) => 1.0 / r,
                // Mean 1/r and CV: shape 1/CV², scale CV²/r.
                Load::Gamma(r, cv) => gamma(&mut rng, 1.0 / (cv * cv)) * cv * cv / r,
                Load::Closed(_) => unreachable!(),
            };
            t += gap;
            let due = anchor_instant + Duration::from_secs_f64(t);
            if k >= limit_n || end_at.is_some_and(|e| due >= e) {
                break;
            }
            while Instant::now() < due {
                if Instant::now() >= next_sample {
                    host_rows.push((host.sample(at(Instant::now()), Some(me)), inflight.load(Ordering::SeqCst)));
                    next_sample += Duration::from_secs(1);
                    if tty {
                        status(&seconds, &records, k, anchor_instant, o, inflight.load(Ordering::SeqCst));
                    }
                }
                std::thread::sleep((due - Instant::now()).min(Duration::from_millis(5)));
            }
            {
                let mut secs = seconds.lock().expect("seconds");
                let i = second_of(due);
                if secs.len() <= i {
                    secs.resize_with(i + 1, Second::default);
                }
                secs[i].planned += 1;
            }
            if tx.send((k, Some(due))).is_err() {
                break;
            }
            k += 1;
        }
    }
    drop(tx);
    if tty {
        eprintln!();
    }
    // Sample while the last requests finish.
    while handles.iter().any(|h| !h.is_finished()) {
        if Instant::now() >= next_sample {
            host_rows.push((host.sample(at(Instant::now()), Some(me)), inflight.load(Ordering::SeqCst)));
            next_sample += Duration::from_secs(1);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    for h in handles {
        let _ = h.join();
    }
    let records = std::mem::take(&mut *records.lock().expect("records"));
    let seconds = std::mem::take(&mut *seconds.lock().expect("seconds"));
    stop.store(true, Ordering::SeqCst);
    let (gpu_rows, server_rows) = sampling.and_then(|t| t.join().ok()).unwrap_or_default();
    let (mut data, limits) = build(o, (anchor_instant, anchor_ns), records, seconds, host_rows)?;
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
    if let Some(n) = gpu_note {
        data.manifest.config.extra.insert("gpu".into(), n);
    }
    Ok((data, limits))
}

/// The live status line: elapsed and remaining time, achieved versus offered rate, in-flight
/// requests, errors and the last second's P99 send lag.
fn status(seconds: &Mutex<Vec<Second>>, records: &Mutex<Vec<Record>>, planned: u64, start: Instant, o: &BenchOptions, inflight: u32) {
    let elapsed = start.elapsed().as_secs_f64();
    let (sent, lag) = seconds.lock().map_or((0, None), |s| {
        let sent: u64 = s.iter().map(|x| x.sent).sum();
        let mut last: Vec<f64> = s.iter().rev().nth(1).map(|x| x.lags_ms.clone()).unwrap_or_default();
        last.sort_by(f64::total_cmp);
        (sent, crate::analyze::stats::quantile::quantile_sorted(&last, 0.99))
    });
    let errors = records.lock().map_or(0, |r| r.iter().filter(|x| x.obs.error.is_some()).count());
    let remaining = o.duration_s.map_or(String::new(), |d| format!(" / {:.0} s", d));
    eprint!(
        "\r{elapsed:.0} s{remaining} · offered {:.1}/s, achieved {:.1}/s · in flight {inflight} · errors {errors} · P99 send lag {} ",
        planned as f64 / elapsed.max(1e-9),
        sent as f64 / elapsed.max(1e-9),
        lag.map_or("n/a".into(), |l| format!("{l:.1} ms"))
    );
}

fn build(
    o: &BenchOptions,
    anchor: (Instant, i64),
    records: Vec<Record>,
    seconds: Vec<Second>,
    host_rows: Vec<(HostSample, u32)>,
) -> Result<(RunData, Limits), String> {
    let at = |t: Instant| anchor.1 + t.saturating_duration_since(anchor.0).as_nanos() as i64;
    let mut rows = RequestRows::default();
    let mut warm = 0u64;
    for r in &records {
        let ok = r.obs.error.is_none();
        let started_s = r.scheduled.unwrap_or(r.sent).saturating_duration_since(anchor.0).as_secs_f64();
        let warmup = r.k < o.warmup_requests || started_s < o.warmup_s;
        warm += u64::from(warmup);
        let (kind, message) = r.obs.error.clone().map_or((None, None), |(k, m)| (Some(k), Some(m)));
        rows.push(Request {
            id: format!("{}", r.k),
            scheduled_ns: r.scheduled.map(at),
            sent_ns: at(r.sent),
            first_token_ns: r.obs.first_token.filter(|_| ok).map(at),
            end_ns: at(r.obs.end.unwrap_or(r.sent)).max(at(r.sent)),
            chunk_ns: (ok && !r.obs.chunks.is_empty()).then(|| r.obs.chunks.iter().map(|c| at(*c)).collect()),
            input_tokens: r.obs.prompt_tokens,
            output_tokens: r.obs.completion_tokens,
            ok,
            error_kind: kind,
            error_message: message,
            http_status: r.obs.http_status,
            phase: Some(if warmup { "warmup" } else { "measure" }),
            ..Default::default()
        });
    }
    let requests = rows.into_table()?;
    // Self-instrumentation per second into the host table's load-generator columns.
    let lag_stats = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        let q = |p: f64| crate::analyze::stats::quantile::quantile_sorted(&s, p);
        (q(0.5), q(0.99), s.last().copied())
    };
    let mut all_lags: Vec<f64> = Vec::new();
    let mut late = 0u64;
    let interarrival_ms = match o.load {
        Load::Poisson(r) | Load::Constant(r) | Load::Gamma(r, _) => Some(1000.0 / r),
        Load::Closed(_) => None,
    };
    let late_ms = interarrival_ms.map_or(5.0, |i| (0.1 * i).min(5.0));
    let mut samples: Vec<HostSample> = Vec::new();
    for (i, (mut h, inflight)) in host_rows.into_iter().enumerate() {
        if let Some(sec) = seconds.get(i) {
            let (p50, p99, max) = lag_stats(&sec.lags_ms);
            h.lg_send_lag_p50_ms = p50;
            h.lg_send_lag_p99_ms = p99;
            h.lg_send_lag_max_ms = max;
            h.lg_planned_sends = interarrival_ms.map(|_| sec.planned);
            h.lg_actual_sends = Some(sec.sent);
            late += sec.lags_ms.iter().filter(|l| **l > late_ms).count() as u64;
            all_lags.extend_from_slice(&sec.lags_ms);
        }
        h.lg_dropped_sends = Some(0);
        h.lg_inflight = Some(inflight);
        samples.push(h);
    }
    let host = crate::collect::host_table(&samples, &crate::collect::host_name())?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut limits = Limits {
        cpu_pct_max: samples.iter().filter_map(|h| h.lg_cpu_pct).reduce(f64::max),
        cores,
        send_lag_p99_ms: lag_stats(&all_lags).1,
        late_sends: late,
        warnings: Vec::new(),
    };
    if let Some(c) = limits.cpu_pct_max.filter(|c| *c >= 80.0 * cores as f64) {
        limits
            .warnings
            .push(format!("the load generator used up to {c:.0} % CPU (≥ 80 % of its {cores} cores): add client processes or hosts, or lower the rate"));
    }
    if let Some(t) = samples.iter().filter_map(|h| h.lg_max_thread_cpu_pct).reduce(f64::max).filter(|t| *t >= 95.0) {
        limits.warnings.push(format!("its hottest thread reached {t:.0} % of a core: add connections or client processes"));
    }
    if let Some(l) = limits.send_lag_p99_ms.filter(|l| *l > late_ms) {
        limits.warnings.push(format!("P99 send lag was {l:.1} ms (limit {late_ms:.1} ms), {late} sends late: every connection was busy; add connections (--connections) or lower the rate"));
    }
    let (arrival, rate, concurrency) = match o.load {
        Load::Poisson(r) => (Arrival::Poisson, Some(r), None),
        Load::Constant(r) => (Arrival::Constant, Some(r), None),
        Load::Gamma(r, _) => (Arrival::Unknown, Some(r), None),
        Load::Closed(c) => (Arrival::ClosedLoop, None, Some(c)),
    };
    let manifest = Manifest {
        format_version: crate::run::schema::FORMAT_VERSION,
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
        config: SystemConfig { model: Some(o.model.clone()), ..Default::default() },
        workload: Workload {
            arrival,
            rate_per_s: rate,
            concurrency,
            dataset: o.dataset.clone(),
            input_length: Some(if o.prompts.is_empty() {
                format!("fixed {} words", o.input_len)
            } else {
                format!("{} prompts from the dataset, cycled", o.prompts.len())
            }),
            output_length: Some(format!("fixed {} tokens (max_tokens, ignore_eos)", o.output_len)),
            streaming: Some(true),
            connection_reuse: Some(!o.new_connection_per_request),
            duration_s: o.duration_s,
        },
        environment: crate::collect::env::snapshot(None, false, Some("credence bench does not sample GPUs yet (run credence collect beside it)")).0,
        phases: DeclaredPhases {
            warmup_requests: Some(warm),
            warmup_s: (o.warmup_s > 0.0).then_some(o.warmup_s),
            warmup_included: Some(true),
            note: Some("warmup requests are marked phase=warmup, not deleted".into()),
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
    };
    Ok((RunData { manifest, requests, gpu: None, host: Some(host), server: None, extra_files: Vec::new() }, limits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_inter_arrivals_have_the_asked_mean_and_cv() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (rate, cv) in [(10.0, 0.5), (10.0, 1.0), (4.0, 2.0)] {
            let x: Vec<f64> = (0..40_000).map(|_| gamma(&mut rng, 1.0 / (cv * cv)) * cv * cv / rate).collect();
            let m = x.iter().sum::<f64>() / x.len() as f64;
            let sd = (x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / x.len() as f64).sqrt();
            assert!((m * rate - 1.0).abs() < 0.03, "mean {m} at rate {rate}");
            assert!((sd / m - cv).abs() < 0.05 * cv.max(1.0), "cv {} for {cv}", sd / m);
        }
    }
}
