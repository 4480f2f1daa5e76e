//! `credence bench`: an open- or closed-loop load generator for OpenAI-compatible streaming
//! servers that records honest per-request timing and knows when it is the bottleneck.
//!
//! Open loop: a scheduler thread releases request k at its scheduled time t_k (Poisson or
//! constant arrivals from a seeded generator) into a queue that the connection threads drain.
//! A request sent late keeps its scheduled time, so coordinated omission is measured, never
//! hidden. Closed loop: each connection sends its next request as soon as the last one ends.
//! One monotonic clock, anchored once to epoch time. Warmup requests are marked, not deleted.

pub mod http;
pub mod mock_server;

pub mod lengths;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::collect::host::{HostSample, HostSampler};
use crate::import::rows::{Request, RequestRows};
use crate::run::manifest::*;
use crate::run::write::RunData;
use lengths::LengthDist;

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
    /// Prompt length in words (synthetic prompts only).
    pub input_len: LengthDist,
    /// Output tokens asked for (`max_tokens` with `ignore_eos`).
    pub output_len: LengthDist,
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
    /// Sends that found every connection busy.
    pub queued_sends: u64,
    pub warnings: Vec<String>,
}

fn api_path(o: &BenchOptions) -> &'static str {
    if o.chat { "/v1/chat/completions" } else { "/v1/completions" }
}

/// The bytes of request `k`: its lengths and prompt come from its own seeded stream, so the
/// same seed gives the same requests whichever thread builds them.
fn request_for(o: &BenchOptions, k: u64) -> Vec<u8> {
    let mut rng = lengths::request_rng(o.seed, k);
    let max_tokens = o.output_len.sample(&mut rng);
    let p = if o.prompts.is_empty() {
        let words = o.input_len.sample(&mut rng);
        lengths::synthetic_prompt(k, words, &mut rng)
    } else {
        o.prompts[(k % o.prompts.len() as u64) as usize].clone()
    };
    let v = if o.chat {
        serde_json::json!({"model": o.model, "messages": [{"role": "user", "content": p}], "max_tokens": max_tokens, "stream": true, "stream_options": {"include_usage": true}, "ignore_eos": true})
    } else {
        serde_json::json!({"model": o.model, "prompt": p, "max_tokens": max_tokens, "stream": true, "stream_options": {"include_usage": true}, "ignore_eos": true})
    };
    http::request_bytes(&o.hostport, api_path(o), &serde_json::to_vec(&v).expect("a JSON body"))
}

/// Telemetry sampled beside the load, once a second, on its own thread.
pub struct Beside {
    pub gpus: Option<Box<dyn crate::collect::gpu::GpuSource + Send>>,
    pub server_metrics: Option<String>,
    pub gpu_note: Option<String>,
}

/// Samples GPUs and the server's metrics every second until `stop`.
fn sample_beside(mut b: Beside, stop: Arc<AtomicBool>) -> (crate::import::rows::GpuRows, Vec<crate::collect::scrape::ServerSample>) {
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
        if !sleep_until(deadline, &stop) {
            return (gpu, server);
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

/// Counters the threads share; the self-sampler reads them once a second.
#[derive(Default)]
struct Live {
    planned: AtomicU64,
    sent: AtomicU64,
    errors: AtomicU64,
    inflight: AtomicU32,
    /// Requests released while every connection was busy: they waited in the queue.
    queued: AtomicU64,
    seconds: Mutex<Vec<Second>>,
}

impl Live {
    fn second(&self, i: usize, f: impl FnOnce(&mut Second)) {
        let mut secs = self.seconds.lock().expect("seconds");
        if secs.len() <= i {
            secs.resize_with(i + 1, Second::default);
        }
        f(&mut secs[i]);
    }
}

/// The open-loop schedule, drawn on demand: each idle connection claims the next slot.
struct Schedule {
    rng: ChaCha8Rng,
    t: f64,
    k: u64,
}

/// Where a connection's next request comes from.
enum NextRequest<'a> {
    /// Open loop: the shared schedule.
    Open(&'a Mutex<Schedule>),
    /// Closed loop: the next request number, sent at once.
    Closed(&'a AtomicU64),
}

impl Schedule {
    /// The next (request number, scheduled time), or `None` when the run is over.
    fn next(&mut self, o: &BenchOptions, anchor: Instant) -> Option<(u64, Instant)> {
        if self.k >= o.requests.unwrap_or(u64::MAX) {
            return None;
        }
        let gap = match o.load {
            Load::Poisson(r) => -(1.0 - self.rng.random::<f64>()).ln() / r,
            Load::Constant(r) => 1.0 / r,
            // Mean 1/r and CV: shape 1/CV², scale CV²/r.
            Load::Gamma(r, cv) => gamma(&mut self.rng, 1.0 / (cv * cv)) * cv * cv / r,
            Load::Closed(_) => return None,
        };
        self.t += gap;
        if o.duration_s.is_some_and(|d| self.t >= d) {
            self.k = u64::MAX;
            return None;
        }
        self.k += 1;
        Some((self.k - 1, anchor + Duration::from_secs_f64(self.t)))
    }
}

/// One connection thread. Open loop: while idle it claims the next slot of the schedule,
/// builds that request, sleeps until its time and sends it; a request whose time passed while
/// every connection was busy goes out at once, late, and keeps its scheduled time. There is no
/// dispatcher thread, so the only delay between the schedule and the send is this thread's
/// own timer wake-up. Closed loop: sends the next request as soon as the last one ends.
fn connection_worker(o: &BenchOptions, live: &Live, start: (&std::sync::Barrier, &std::sync::OnceLock<(Instant, i64)>), source: NextRequest) -> Vec<Record> {
    precise_sleep();
    let mut conn: Option<http::Conn> = None;
    if !o.new_connection_per_request {
        // Open the connection before time zero: its setup is not part of a request.
        conn = http::Conn::open(&o.hostport, o.timeout).ok();
    }
    start.0.wait();
    start.0.wait();
    let Some(&(anchor, _)) = start.1.get() else { return Vec::new() };
    let limit_n = o.requests.unwrap_or(u64::MAX);
    let end_at = o.duration_s.map(|d| anchor + Duration::from_secs_f64(d));
    let mut records = Vec::new();
    loop {
        let (k, scheduled) = match &source {
            NextRequest::Open(schedule) => {
                let Some((k, due)) = schedule.lock().ok().and_then(|mut s| s.next(o, anchor)) else { break };
                let now = Instant::now();
                live.planned.fetch_add(1, Ordering::Relaxed);
                live.second(due.saturating_duration_since(anchor).as_secs() as usize, |x| x.planned += 1);
                if now > due + Duration::from_micros(100) {
                    // Claimed after its time: every connection was busy until now.
                    live.queued.fetch_add(1, Ordering::Relaxed);
                }
                (k, Some(due))
            }
            NextRequest::Closed(next_k) => {
                let k = next_k.fetch_add(1, Ordering::SeqCst);
                if k >= limit_n || end_at.is_some_and(|e| Instant::now() >= e) {
                    break;
                }
                (k, None)
            }
        };
        // Built before the wait: nothing is serialized between the scheduled time and the send.
        let request = request_for(o, k);
        if let Some(due) = scheduled {
            loop {
                let now = Instant::now();
                if now >= due {
                    break;
                }
                std::thread::sleep(due - now);
            }
        }
        let sent = Instant::now();
        live.sent.fetch_add(1, Ordering::Relaxed);
        if let Some(s) = scheduled {
            live.second(sent.saturating_duration_since(anchor).as_secs() as usize, |x| {
                x.sent += 1;
                x.lags_ms.push(sent.saturating_duration_since(s).as_secs_f64() * 1e3);
            });
        }
        live.inflight.fetch_add(1, Ordering::Relaxed);
        let mut obs = http::Observed::default();
        let mut after = http::After::Close;
        // A reused connection the server closed while idle is retried once on a new one: the
        // request never reached the server. The sent time stays that of the first attempt.
        for _ in 0..2 {
            if conn.is_none() {
                match http::Conn::open(&o.hostport, o.timeout) {
                    Ok(c) => conn = Some(c),
                    Err(e) => {
                        obs.error = Some(e);
                        break;
                    }
                }
            }
            let Some(c) = conn.as_mut() else { break };
            after = http::post_stream(c, &request, &mut obs);
            if after != http::After::Stale {
                break;
            }
            conn = None;
            obs = http::Observed::default();
        }
        obs.end.get_or_insert_with(Instant::now);
        live.inflight.fetch_sub(1, Ordering::Relaxed);
        if obs.error.is_some() {
            live.errors.fetch_add(1, Ordering::Relaxed);
        }
        if after != http::After::Reuse || o.new_connection_per_request {
            conn = None;
        }
        records.push(Record { k, scheduled, sent, obs });
    }
    records
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

/// The self-sampler: the generator's own CPU and threads, in-flight requests and the live
/// status line, once a second at the end of each second of the run.
fn sample_self(o: &BenchOptions, live: &Live, anchor: Instant, anchor_ns: i64, stop: &AtomicBool) -> Vec<(HostSample, u32)> {
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut host = HostSampler::new();
    let me = std::process::id();
    let mut rows = Vec::new();
    // A first reading primes the CPU counters; rows are the seconds that follow it.
    let _ = host.sample(anchor_ns, Some(me));
    let mut i = 1u32;
    while sleep_until(anchor + Duration::from_secs(u64::from(i)), stop) {
        let ts = anchor_ns + i64::from(i) * 1_000_000_000;
        rows.push((host.sample(ts, Some(me)), live.inflight.load(Ordering::Relaxed)));
        if tty {
            status(o, live, anchor);
        }
        i += 1;
    }
    if tty {
        eprintln!();
    }
    rows
}

/// Runs the benchmark and returns the run data and what it found about its own limits.
pub fn run(o: &BenchOptions, beside: Beside) -> Result<(RunData, Limits), String> {
    let stop = Arc::new(AtomicBool::new(false));
    let gpu_note = beside.gpu_note.clone();
    let mut beside = beside;
    let gpu_environment = beside.gpus.as_mut().map(|g| crate::collect::env::snapshot(Some(g.as_mut()), false, None).0);
    let sampling = (beside.gpus.is_some() || beside.server_metrics.is_some()).then(|| {
        let stop = stop.clone();
        std::thread::spawn(move || sample_beside(beside, stop))
    });
    let live = Live::default();
    let next_k = AtomicU64::new(0);
    let schedule = Mutex::new(Schedule { rng: ChaCha8Rng::seed_from_u64(o.seed), t: 0.0, k: 0 });
    let workers = match o.load {
        Load::Closed(c) => c,
        _ => o.connections.max(1),
    };
    let self_stop = AtomicBool::new(false);
    // Time zero is set once every connection thread is up and connected, so the first
    // requests do not wait for thread start-up and connection setup.
    let ready = std::sync::Barrier::new(workers as usize + 1);
    let start = std::sync::OnceLock::<(Instant, i64)>::new();
    let (records, host_rows, (anchor, anchor_ns)) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let source = if matches!(o.load, Load::Closed(_)) { NextRequest::Closed(&next_k) } else { NextRequest::Open(&schedule) };
                let (live, ready, start) = (&live, &ready, &start);
                scope.spawn(move || connection_worker(o, live, (ready, start), source))
            })
            .collect();
        ready.wait();
        let anchor = *start.get_or_init(|| (Instant::now(), crate::collect::now_ns()));
        ready.wait();
        let (live, self_stop) = (&live, &self_stop);
        let sampler = scope.spawn(move || sample_self(o, live, anchor.0, anchor.1, self_stop));
        let records: Vec<Record> = handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect();
        self_stop.store(true, Ordering::SeqCst);
        (records, sampler.join().unwrap_or_default(), anchor)
    });
    let seconds = std::mem::take(&mut *live.seconds.lock().expect("seconds"));
    let queued = live.queued.load(Ordering::Relaxed);
    stop.store(true, Ordering::SeqCst);
    let (gpu_rows, server_rows) = sampling.and_then(|t| t.join().ok()).unwrap_or_default();
    let (mut data, limits) = build(o, (anchor, anchor_ns), records, seconds, host_rows, queued)?;
    if let Some(env) = gpu_environment {
        data.manifest.environment = env;
    }
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

/// The live status line: elapsed and remaining time (or requests), achieved versus offered
/// rate, in-flight requests, errors and the last full second's P99 send lag.
fn status(o: &BenchOptions, live: &Live, start: Instant) {
    let elapsed = start.elapsed().as_secs_f64();
    let lag = live.seconds.lock().ok().and_then(|s| {
        let mut last: Vec<f64> = s.iter().rev().nth(1).map(|x| x.lags_ms.clone()).unwrap_or_default();
        last.sort_by(f64::total_cmp);
        crate::analyze::stats::quantile::quantile_sorted(&last, 0.99)
    });
    let (planned, sent) = (live.planned.load(Ordering::Relaxed), live.sent.load(Ordering::Relaxed));
    let progress = match (o.duration_s, o.requests) {
        (Some(d), _) => format!("{elapsed:.0} s, {:.0} s left", (d - elapsed).max(0.0)),
        (None, Some(n)) => format!("{elapsed:.0} s, {sent}/{n} sent"),
        _ => format!("{elapsed:.0} s"),
    };
    let offered = if matches!(o.load, Load::Closed(_)) { "closed loop".to_string() } else { format!("offered {:.1}/s", planned as f64 / elapsed.max(1e-9)) };
    eprint!(
        "\r{progress} · {offered}, achieved {:.1}/s · in flight {} · errors {} · P99 send lag {}   ",
        sent as f64 / elapsed.max(1e-9),
        live.inflight.load(Ordering::Relaxed),
        live.errors.load(Ordering::Relaxed),
        lag.map_or("n/a".into(), |l| format!("{l:.2} ms"))
    );
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

fn build(
    o: &BenchOptions,
    anchor: (Instant, i64),
    records: Vec<Record>,
    seconds: Vec<Second>,
    host_rows: Vec<(HostSample, u32)>,
    queued: u64,
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
            first_byte_ns: r.obs.first_byte.map(at),
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
        queued_sends: queued,
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
        let sends = all_lags.len().max(1) as f64;
        // Seconds with late sends, and how much CPU the hypervisor took from this VM in them.
        let late_seconds: Vec<&HostSample> =
            samples.iter().enumerate().filter(|(i, _)| seconds.get(*i).is_some_and(|s| s.lags_ms.iter().any(|l| *l > late_ms))).map(|(_, h)| h).collect();
        let steal = late_seconds.iter().filter_map(|h| h.cpu_steal_pct).reduce(f64::max).filter(|s| *s >= 5.0);
        let cause = if let Some(st) = steal {
            format!(
                "the hypervisor took up to {st:.0} % of this machine's CPU (steal) in the seconds with late sends: the machine, not the client, stalled; use a dedicated host or rerun"
            )
        } else if queued as f64 >= 0.01 * sends {
            format!("{queued} requests found every connection busy and waited: add connections (--connections {}) or lower the rate", 2 * o.connections)
        } else {
            "connections were free, so the lag is the client's threads waking late: give the client its own cores or host (it competes for CPU), use more client processes, or lower the rate".to_string()
        };
        limits.warnings.push(format!(
            "P99 send lag was {} (limit {}: 5 ms or 10 % of the mean inter-arrival time, whichever is smaller); {late} of {} sends were late. {cause}",
            fmt_ms(l),
            fmt_ms(late_ms),
            all_lags.len()
        ));
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
                format!("{} words (synthetic prompts, each opening with its request number)", o.input_len.describe())
            } else {
                format!("{} prompts from the dataset, cycled", o.prompts.len())
            }),
            output_length: Some(format!("{} tokens (max_tokens, ignore_eos)", o.output_len.describe())),
            streaming: Some(true),
            connection_reuse: Some(!o.new_connection_per_request),
            connections: Some(match o.load {
                Load::Closed(c) => c,
                _ => o.connections,
            }),
            duration_s: o.duration_s,
        },
        environment: crate::collect::env::snapshot(
            None,
            false,
            Some("GPUs not sampled: give --collect-gpu auto, or run credence collect beside the benchmark"),
        )
        .0,
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
