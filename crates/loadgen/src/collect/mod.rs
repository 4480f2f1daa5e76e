//! `credence collect`: per-second GPU, host and server telemetry into a run directory, with the
//! pre-run environment snapshot, crash-safe.
//!
//! Samplers run on absolute deadlines (no drift) and record the real sample time and how long
//! each sample took. Tables are folders of sealed segments (`segments`), sealed at least every
//! 10 s; `run.json` is written at the start and finalized at the end, so a `kill -9` leaves a
//! valid run that lacks only the unsealed seconds. SIGINT and SIGTERM seal and finalize.

pub mod env;
pub mod gpu;
pub mod host;
pub mod scrape;
pub mod segments;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use credence_run::manifest::*;
use credence_run::rows::{GpuRows, GpuSample, RequestRows};
use credence_run::schema::TableKind;
use credence_run::table::{Column, Table, utf8_column};
use gpu::GpuSource;
use host::{HostSample, HostSampler};
use segments::SegmentWriter;

/// Longest time between seals.
const SEAL_EVERY_S: f64 = 10.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuMode {
    Auto,
    On,
    Off,
}

#[derive(Debug, Clone)]
pub enum ClientTarget {
    None,
    Pid(u32),
    Name(String),
}

#[derive(Debug, Clone)]
pub struct CollectOptions {
    pub out: PathBuf,
    pub interval_s: f64,
    pub gpu: GpuMode,
    pub client: ClientTarget,
    pub server_metrics: Option<String>,
    pub labels: BTreeMap<String, String>,
    pub config: BTreeMap<String, String>,
    pub duration_s: Option<f64>,
    pub command: Vec<String>,
    pub drop_caches: bool,
    pub strict_env: bool,
}

static STOP: AtomicBool = AtomicBool::new(false);
/// Tells the scraper thread that the main loop has ended (without a signal).
static SCRAPER_DONE: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: i32) {
    // A second signal abandons whatever is still running (async-signal-safe exit).
    if STOP.swap(true, Ordering::SeqCst) {
        unsafe { libc::_exit(130) };
    }
}

/// Whether SIGINT or SIGTERM has arrived since `install_signals`.
pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

unsafe extern "C" {
    fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
}

/// SIGINT and SIGTERM set a flag (see `stop_requested`) instead of killing the process, so
/// that what was measured is written; a second signal exits at once.
pub fn install_signals() {
    // SIGINT = 2, SIGTERM = 15 on Linux.
    unsafe {
        signal(2, on_signal);
        signal(15, on_signal);
    }
}

pub fn now_ns() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as i64)
}

pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname").map(|h| h.trim().to_string()).unwrap_or_else(|_| "localhost".into())
}

/// The first process whose command name is `name`.
fn pid_by_name(name: &str) -> Option<u32> {
    std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<u32>().ok())
        .find(|pid| std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == name))
}

pub fn host_table(rows: &[HostSample], host: &str) -> Result<Table, String> {
    let n = rows.len();
    let f = |g: fn(&HostSample) -> Option<f64>| Column::Float64(rows.iter().map(g).collect());
    let u = |g: fn(&HostSample) -> Option<u64>| Column::UInt64(rows.iter().map(g).collect());
    Table::from_columns(
        TableKind::Host,
        vec![
            ("ts_ns", Column::Timestamp(rows.iter().map(|r| Some(r.ts_ns)).collect())),
            ("host", utf8_column(std::iter::repeat_n(Some(host), n))),
            ("interval_s", f(|r| r.interval_s)),
            ("cpu_user_pct", f(|r| r.cpu_user_pct)),
            ("cpu_system_pct", f(|r| r.cpu_system_pct)),
            ("cpu_iowait_pct", f(|r| r.cpu_iowait_pct)),
            ("cpu_steal_pct", f(|r| r.cpu_steal_pct)),
            ("cpu_idle_pct", f(|r| r.cpu_idle_pct)),
            ("ctx_switches", u(|r| r.ctx_switches)),
            ("procs_running", Column::UInt32(rows.iter().map(|r| r.procs_running).collect())),
            ("load1", f(|r| r.load1)),
            ("psi_cpu_some_avg10", f(|r| r.psi_cpu_some_avg10)),
            ("mem_total_bytes", u(|r| r.mem_total_bytes)),
            ("mem_available_bytes", u(|r| r.mem_available_bytes)),
            ("net_rx_bytes", u(|r| r.net_rx_bytes)),
            ("net_tx_bytes", u(|r| r.net_tx_bytes)),
            ("net_errs", u(|r| r.net_errs)),
            ("net_drops", u(|r| r.net_drops)),
            ("tcp_out_segs", u(|r| r.tcp_out_segs)),
            ("tcp_retrans_segs", u(|r| r.tcp_retrans_segs)),
            ("tcp_timeouts", u(|r| r.tcp_timeouts)),
            ("tcp_listen_overflows", u(|r| r.tcp_listen_overflows)),
            ("cpu_governor", utf8_column(rows.iter().map(|r| r.cpu_governor.as_deref()))),
            ("cpu_freq_mhz_avg", f(|r| r.cpu_freq_mhz_avg)),
            ("lg_pid", Column::UInt32(rows.iter().map(|r| r.lg_pid).collect())),
            ("lg_cpu_pct", f(|r| r.lg_cpu_pct)),
            ("lg_max_thread_cpu_pct", f(|r| r.lg_max_thread_cpu_pct)),
            ("lg_rss_bytes", u(|r| r.lg_rss_bytes)),
            ("lg_threads", Column::UInt32(rows.iter().map(|r| r.lg_threads).collect())),
            ("lg_vol_ctxsw", u(|r| r.lg_vol_ctxsw)),
            ("lg_invol_ctxsw", u(|r| r.lg_invol_ctxsw)),
            ("lg_planned_sends", u(|r| r.lg_planned_sends)),
            ("lg_actual_sends", u(|r| r.lg_actual_sends)),
            ("lg_send_lag_p50_ms", f(|r| r.lg_send_lag_p50_ms)),
            ("lg_send_lag_p99_ms", f(|r| r.lg_send_lag_p99_ms)),
            ("lg_send_lag_max_ms", f(|r| r.lg_send_lag_max_ms)),
            ("lg_dropped_sends", u(|r| r.lg_dropped_sends)),
            ("lg_inflight", Column::UInt32(rows.iter().map(|r| r.lg_inflight).collect())),
        ],
    )
    .map_err(|e| e.to_string())
}

/// What a finished collection did.
#[derive(Debug)]
pub struct Summary {
    pub samples: u64,
    pub segments: u32,
    pub command_exit: Option<i32>,
    pub overhead_cpu_pct: Option<f64>,
    pub overhead_rss_bytes: Option<u64>,
    pub gpu_note: Option<String>,
}

fn self_cpu_ticks() -> Option<u64> {
    host::proc_stat(&std::fs::read_to_string("/proc/self/stat").ok()?).map(|s| s.0)
}

fn self_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)).and_then(|k| k.parse::<u64>().ok()).map(|k| k * 1024)
}

fn manifest(o: &CollectOptions, start_ns: i64, environment: Environment, tables: Vec<String>, extra: BTreeMap<String, String>) -> Manifest {
    let mut config = SystemConfig { extra: o.config.clone(), ..Default::default() };
    config.extra.extend(extra);
    let clock_tables = tables.iter().map(|t| (t.clone(), "collector host CLOCK_REALTIME (epoch ns)".to_string())).collect();
    Manifest {
        format_version: credence_run::schema::FORMAT_VERSION,
        run_id: format!("collect-{start_ns}"),
        creator: Creator { tool: "credence".into(), version: env!("CARGO_PKG_VERSION").into() },
        source: Source {
            kind: SourceKind::Collector,
            name: "credence collect".into(),
            tool_version: Some(env!("CARGO_PKG_VERSION").into()),
            files: Vec::new(),
            seed: None,
            capabilities: None,
        },
        labels: o.labels.clone(),
        config,
        workload: Workload { duration_s: o.duration_s, ..Workload::unknown() },
        environment,
        phases: DeclaredPhases { note: Some(credence_run::env_notes::TELEMETRY_ONLY_PHASES.into()), ..Default::default() },
        clock: Clock {
            epoch_origin: "unix_epoch_utc".into(),
            timestamps: TimestampQuality::Absolute,
            tables: clock_tables,
            telemetry_interval_s: Some(o.interval_s),
            timezone_assumed: None,
            conversion: Some("sampled with the collector host's CLOCK_REALTIME on absolute deadlines".into()),
        },
        tables,
        server_scrapes: None,
    }
}

fn write_manifest(dir: &std::path::Path, m: &Manifest) -> Result<(), String> {
    let tmp = dir.join("run.json.tmp");
    std::fs::write(&tmp, m.to_json()).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, dir.join("run.json")).map_err(|e| format!("{}: {e}", dir.display()))
}

/// Runs the collection until the duration ends, a signal arrives, or the command exits.
pub fn collect(o: &CollectOptions, gpus: Option<Box<dyn GpuSource>>, gpu_note: Option<String>) -> Result<Summary, String> {
    let mut gpus = gpus;
    let (started, mut sinks) = set_up(o, &mut gpus, gpu_note.as_deref())?;
    install_signals();
    let mut child = match o.command.split_first() {
        Some((prog, args)) => Some(std::process::Command::new(prog).args(args).spawn().map_err(|e| format!("cannot start {prog:?}: {e}"))?),
        None => None,
    };
    let client = match (&child, &o.client) {
        (Some(c), _) => Some(c.id()),
        (None, ClientTarget::Pid(p)) => Some(*p),
        (None, ClientTarget::Name(n)) => pid_by_name(n),
        (None, ClientTarget::None) => None,
    };
    // The scraper runs on its own thread and schedule: a slow server must not delay the GPU
    // and host samples.
    let scraper = o.server_metrics.clone().map(|url| spawn_scraper(url, sinks.scraped.clone(), o.interval_s));
    let mut sampled = sample_loop(o, &mut gpus, client, &mut child, &mut sinks)?;
    if let Some(c) = child.as_mut()
        && sampled.command_exit.is_none()
    {
        // Stopped before the command finished: stop it too, and record how it ended.
        let _ = c.kill();
        sampled.command_exit = c.wait().ok().and_then(|s| s.code());
    }
    SCRAPER_DONE.store(true, Ordering::SeqCst);
    let scrapes = scraper.and_then(|t| t.join().ok());
    if let Some(line) = scrapes.as_ref().and_then(scrape::ScrapeLog::summary) {
        eprintln!("warning: {line}");
    }
    sinks.seal()?;
    let (overhead_cpu_pct, overhead_rss_bytes) = overhead(&sampled);
    let extra = final_config(o, &sampled, overhead_cpu_pct, overhead_rss_bytes, gpu_note.as_deref());
    let mut m = manifest(o, started.start_ns, started.environment, started.tables, extra);
    m.server_scrapes = scrapes.map(|s| s.record());
    write_manifest(&o.out, &m)?;
    Ok(Summary {
        samples: sampled.samples,
        segments: sinks.host_seg.sealed + sinks.gpu_seg.map_or(0, |s| s.sealed) + sinks.server_seg.map_or(0, |s| s.sealed),
        command_exit: sampled.command_exit,
        overhead_cpu_pct,
        overhead_rss_bytes,
        gpu_note,
    })
}

/// What the start of a collection fixed: its time, the environment snapshot and the tables it writes.
struct Started {
    start_ns: i64,
    environment: Environment,
    tables: Vec<String>,
}

/// Creates the run directory with its empty requests table, first manifest and segment writers, after the environment check.
fn set_up(o: &CollectOptions, gpus: &mut Option<Box<dyn GpuSource>>, gpu_note: Option<&str>) -> Result<(Started, Sinks), String> {
    if o.out.exists() {
        return Err(format!("{}: already exists; remove it or choose another --out", o.out.display()));
    }
    std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: cannot create the run directory: {e}", o.out.display()))?;
    let start_ns = now_ns();
    let host = host_name();
    let (environment, problems) = env::snapshot(gpus.as_deref_mut(), o.drop_caches, gpu_note);
    if o.strict_env && !problems.is_empty() {
        let _ = std::fs::remove_dir_all(&o.out);
        return Err(format!("--strict-env: the environment is not ready: {}", problems.join("; ")));
    }
    // The request table is empty: requests come from the load generator's own run.
    let requests = RequestRows::default().into_table()?;
    requests.write_parquet(&o.out.join("requests.parquet")).map_err(|e| e.to_string())?;
    let mut tables = vec!["requests".to_string(), "host".to_string()];
    if gpus.is_some() {
        tables.push("gpu".into());
    }
    if o.server_metrics.is_some() {
        tables.push("server".into());
    }
    write_manifest(&o.out, &manifest(o, start_ns, environment.clone(), tables.clone(), BTreeMap::new()))?;
    let host_seg = SegmentWriter::create(&o.out, TableKind::Host.name()).map_err(|e| e.to_string())?;
    let gpu_seg = gpus.as_ref().map(|_| SegmentWriter::create(&o.out, TableKind::Gpu.name())).transpose().map_err(|e| e.to_string())?;
    let server_seg = o.server_metrics.as_ref().map(|_| SegmentWriter::create(&o.out, TableKind::Server.name())).transpose().map_err(|e| e.to_string())?;
    let sinks = Sinks {
        host,
        host_seg,
        gpu_seg,
        server_seg,
        host_rows: Vec::new(),
        gpu_rows: GpuRows::default(),
        server_rows: Vec::new(),
        scraped: std::sync::Arc::new(std::sync::Mutex::new(Vec::new())),
    };
    Ok((Started { start_ns, environment, tables }, sinks))
}

/// Scrapes the server's metrics on its own schedule until the collection ends.
fn spawn_scraper(url: String, sink: std::sync::Arc<std::sync::Mutex<Vec<scrape::ServerSample>>>, interval: f64) -> std::thread::JoinHandle<scrape::ScrapeLog> {
    std::thread::spawn(move || {
        let done = || STOP.load(Ordering::SeqCst) || SCRAPER_DONE.load(Ordering::SeqCst);
        scrape::scrape_loop(&url, interval, &done, |rows| drop(sink.lock().map(|mut v| v.extend(rows))))
    })
}

/// What the sampling loop did, and the clocks the collector's overhead is measured from.
struct Sampled {
    samples: u64,
    command_exit: Option<i32>,
    t0: Instant,
    cpu0: Option<u64>,
}

/// Samples GPUs and host on absolute deadlines, sealing as it goes, until the duration ends, a signal arrives or the command exits.
fn sample_loop(
    o: &CollectOptions,
    gpus: &mut Option<Box<dyn GpuSource>>,
    client: Option<u32>,
    child: &mut Option<std::process::Child>,
    sinks: &mut Sinks,
) -> Result<Sampled, String> {
    let devices = gpus.as_ref().map(|g| g.devices()).unwrap_or_default();
    let mut sampler = HostSampler::new();
    let t0 = Instant::now();
    let cpu0 = self_cpu_ticks();
    let mut last_seal = Instant::now();
    let mut samples = 0u64;
    let tty = std::io::stderr().is_terminal();
    let mut deadline = Instant::now();
    let command_exit = loop {
        let ts = now_ns();
        if let Some(g) = gpus.as_mut() {
            sample_gpus(g.as_mut(), devices.len(), &sinks.host, &mut sinks.gpu_rows);
        }
        sinks.host_rows.push(sampler.sample(ts, client));
        samples += 1;
        if tty {
            sinks.status(samples, t0);
        }
        if last_seal.elapsed().as_secs_f64() >= SEAL_EVERY_S {
            sinks.seal()?;
            last_seal = Instant::now();
        }
        if let Some(c) = child.as_mut()
            && let Ok(Some(status)) = c.try_wait()
        {
            break status.code();
        }
        if STOP.load(Ordering::SeqCst) || o.duration_s.is_some_and(|d| t0.elapsed().as_secs_f64() >= d) {
            break None;
        }
        wait_for_tick(&mut deadline, o.interval_s);
    };
    if tty {
        eprintln!();
    }
    Ok(Sampled { samples, command_exit, t0, cpu0 })
}

/// One sample of each GPU, stamped with the host and how long the sample took.
pub(crate) fn sample_gpus(g: &mut dyn GpuSource, devices: usize, host: &str, rows: &mut GpuRows) {
    for i in 0..devices {
        let t = Instant::now();
        let mut s = g.sample(i, now_ns());
        s.host = host.to_string();
        s.sample_us = Some(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
        rows.rows.push(s);
    }
}

/// Sleeps until the next deadline, one interval after the last.
fn wait_for_tick(deadline: &mut Instant, interval_s: f64) {
    *deadline += Duration::from_secs_f64(interval_s);
    let now = Instant::now();
    if *deadline > now {
        // Sleep in short steps so a signal stops the collector promptly.
        while Instant::now() < *deadline && !STOP.load(Ordering::SeqCst) {
            std::thread::sleep((*deadline - Instant::now()).min(Duration::from_millis(100)));
        }
    } else {
        // Behind schedule: skip the missed ticks rather than bursting to catch up.
        *deadline = now;
    }
}

/// The collector's own CPU (percent of one core) and peak memory over the run.
fn overhead(sampled: &Sampled) -> (Option<f64>, Option<u64>) {
    let elapsed = sampled.t0.elapsed().as_secs_f64();
    let overhead_cpu_pct = match (sampled.cpu0, self_cpu_ticks()) {
        (Some(a), Some(b)) if elapsed > 0.0 => Some(100.0 * (b - a) as f64 / host::ticks_per_s() / elapsed),
        _ => None,
    };
    (overhead_cpu_pct, self_rss_bytes())
}

/// The configuration the final manifest adds: the collector's overhead, the command and how it ended, the GPU note.
fn final_config(o: &CollectOptions, sampled: &Sampled, cpu_pct: Option<f64>, rss_bytes: Option<u64>, gpu_note: Option<&str>) -> BTreeMap<String, String> {
    let mut extra = BTreeMap::new();
    if let Some(c) = cpu_pct {
        extra.insert("collector_cpu_pct_of_one_core".into(), format!("{c:.3}"));
    }
    if let Some(r) = rss_bytes {
        extra.insert("collector_peak_rss_bytes".into(), r.to_string());
    }
    if let Some(code) = sampled.command_exit {
        extra.insert("command_exit_code".into(), code.to_string());
    }
    if !o.command.is_empty() {
        extra.insert("command".into(), o.command.join(" "));
    }
    if let Some(n) = gpu_note {
        extra.insert("gpu".into(), n.to_string());
    }
    extra
}

/// The tables being written: rows not yet sealed and the segment writers they go to.
struct Sinks {
    host: String,
    host_seg: SegmentWriter,
    gpu_seg: Option<SegmentWriter>,
    server_seg: Option<SegmentWriter>,
    host_rows: Vec<HostSample>,
    gpu_rows: GpuRows,
    server_rows: Vec<scrape::ServerSample>,
    /// Where the scraper thread leaves its rows until the next seal.
    scraped: std::sync::Arc<std::sync::Mutex<Vec<scrape::ServerSample>>>,
}

impl Sinks {
    /// Seals the rows gathered since the last seal (the scraper's included) as one segment per table.
    fn seal(&mut self) -> Result<(), String> {
        self.server_rows.extend(self.scraped.lock().map(|mut v| std::mem::take(&mut *v)).unwrap_or_default());
        self.host_seg.seal(&host_table(&self.host_rows, &self.host)?)?;
        self.host_rows.clear();
        if let Some(g) = self.gpu_seg.as_mut() {
            g.seal(&std::mem::take(&mut self.gpu_rows).into_table()?)?;
        }
        if let Some(s) = self.server_seg.as_mut() {
            s.seal(&scrape::table(&self.server_rows)?)?;
            self.server_rows.clear();
        }
        Ok(())
    }

    /// The live status line: samples, the last GPU reading, the client's CPU and segments sealed.
    fn status(&self, samples: u64, t0: Instant) {
        let last: Option<&GpuSample> = self.gpu_rows.rows.last();
        let cpu = self.host_rows.last().and_then(|h| h.lg_cpu_pct).map_or("n/a".into(), |c| format!("{c:.0} %"));
        eprint!(
            "\r{samples} samples · {} · client CPU {cpu} · {} segments sealed · {:.0} s ",
            last.map_or("no GPU".into(), |g| format!(
                "GPU{} {} MHz {} °C reasons {:#x}",
                g.gpu_index,
                g.sm_clock_mhz.unwrap_or(0),
                g.temp_gpu_c.unwrap_or(0.0),
                g.clocks_event_reasons.unwrap_or(0)
            )),
            self.host_seg.sealed + self.gpu_seg.as_ref().map_or(0, |s| s.sealed),
            t0.elapsed().as_secs_f64()
        );
    }
}
