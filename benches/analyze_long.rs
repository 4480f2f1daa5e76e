//! Bench: `credence analyze` on soak runs, the dense shape of `analyze_10m` spread thin: the
//! same per-second load (30 requests/s by default) over 2, 8, 24 and 93 hours (93 h is 10
//! million requests). Analysis cost must grow with requests and windows, not with their square.
//! Run with `cargo bench --bench analyze_long`. Environment:
//! - `HOURS` (default `2,8,24,93`), `RATE` (requests/s, default 30);
//! - `LIMIT_S` (default 300): an analysis still running then is killed and reported as not
//!   finished;
//! - `WARMUP_S` (default 0): a warmup of that length (the simulator's shape) at the start,
//!   whose detected end is printed beside the truth;
//! - `CREDENCE_BIN`: the binary to time (default `target/release/credence`);
//! - `KEEP`: keep the generated runs and analyses (their folder is printed).
//!
//! Prints, per shape, each stage's seconds and the peak RSS when it ended (the child's
//! `CREDENCE_TIMING` lines, first round), then each round's wall time and peak RSS beside
//! DuckDB's time (`ROUNDS` alternating rounds, default 3) and the median ratio.

mod synth;
mod yardstick;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Peak resident set of a live process, in MB (VmHWM).
fn peak_mb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[repr(C)]
struct Rusage {
    ru_utime: [i64; 2],
    ru_stime: [i64; 2],
    rest: [i64; 14],
}

unsafe extern "C" {
    fn getrusage(who: i32, usage: *mut Rusage) -> i32;
}

/// CPU seconds (user + system) of all waited-for children so far: on a shared machine, wall
/// time also counts other people's work.
fn children_cpu_s() -> f64 {
    let mut u = std::mem::MaybeUninit::<Rusage>::zeroed();
    // RUSAGE_CHILDREN = -1.
    let Some(u) = (unsafe { (getrusage(-1, u.as_mut_ptr()) == 0).then(|| u.assume_init()) }) else {
        return f64::NAN;
    };
    let secs = |t: [i64; 2]| t[0] as f64 + t[1] as f64 * 1e-6;
    secs(u.ru_utime) + secs(u.ru_stime)
}

/// What one analysis took.
struct Outcome {
    wall_s: f64,
    cpu_s: f64,
    peak_mb: u64,
    finished: bool,
    stages: Vec<String>,
}

/// Runs `credence analyze` with stage timings on, killing it after `limit`.
fn analyze(bin: &Path, dir: &Path, out: &Path, limit: Duration) -> Outcome {
    let (start, cpu0) = (Instant::now(), children_cpu_s());
    let mut child = Command::new(bin)
        .args(["analyze", dir.to_str().unwrap(), "--out", out.to_str().unwrap(), "--json"])
        .env("CREDENCE_TIMING", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("credence runs");
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || BufReader::new(stderr).lines().map_while(Result::ok).filter(|l| l.starts_with('[')).collect::<Vec<_>>());
    let mut peak = 0;
    let finished = loop {
        // Read the peak while the process lives: a killed one leaves nothing to ask.
        peak = peak.max(peak_mb(child.id()).unwrap_or(0));
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "credence analyze failed");
            break true;
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            break false;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let wall_s = start.elapsed().as_secs_f64();
    let stages = reader.join().unwrap();
    let peak_mb = stages.iter().filter_map(|l| l.rsplit("peak ").next()?.split(' ').next()?.parse().ok()).fold(peak, u64::max);
    Outcome { wall_s, cpu_s: children_cpu_s() - cpu0, peak_mb, finished, stages }
}

/// The detected steady start and classification, from the analysis JSON.
fn detected(out: &Path) -> Option<(f64, String)> {
    let v: serde_json::Value = serde_json::from_reader(std::io::BufReader::new(std::fs::File::open(out).ok()?)).ok()?;
    let s = &v["steady_state"];
    Some((s["start_s"].as_f64()?, s["classification"].as_str()?.to_string()))
}

fn one_shape(bin: &Path, base: &Path, hours: f64, rate: f64, warmup_s: f64, limit: Duration) {
    let n = (rate * 3600.0 * hours) as usize;
    let dir = base.join(format!("run-{hours}h"));
    let t = Instant::now();
    synth::generate(&dir, &synth::Shape { requests: n, duration_s: 3600.0 * hours, level_rate_per_s: 10_000_000.0 / 3600.0, warmup_s });
    eprintln!("generated {hours} h, {n} requests in {:.1} s", t.elapsed().as_secs_f64());
    let out = base.join(format!("analysis-{hours}h.json"));
    println!("== {hours} h, {n} requests at {rate}/s");
    let mut ratios = Vec::new();
    for round in 1..=yardstick::rounds() {
        let o = analyze(bin, &dir, &out, limit);
        if round == 1 {
            for line in &o.stages {
                println!("   {line}");
            }
        }
        if !o.finished {
            println!(
                "analyze {hours} h ({n} requests): did not finish in {:.0} s ({:.0} s CPU, peak RSS so far {} MB)",
                limit.as_secs_f64(),
                o.cpu_s,
                o.peak_mb
            );
            break;
        }
        println!("analyze {hours} h ({n} requests), round {round}: {:.2} s wall, {:.2} s CPU, peak RSS {} MB", o.wall_s, o.cpu_s, o.peak_mb);
        if let Some((start, class)) = detected(&out).filter(|_| round == 1) {
            println!("   steady state: {class} from {start:.1} s (warmup truth {warmup_s} s)");
        }
        if let Some(duck) = yardstick::duckdb_percentiles(&dir) {
            println!("   duckdb percentiles of the same requests: {duck:.2} s wall; credence / duckdb = {:.1}", o.wall_s / duck);
            ratios.push(o.wall_s / duck);
        }
    }
    if !ratios.is_empty() {
        println!("credence / duckdb at {hours} h: {}", yardstick::ratio_summary(&ratios));
    }
    if std::env::var_os("KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_file(&out);
    }
}

fn main() {
    let hours: Vec<f64> = std::env::var("HOURS").unwrap_or_else(|_| "2,8,24,93".into()).split(',').filter_map(|h| h.trim().parse().ok()).collect();
    let rate: f64 = env_or("RATE", 30.0);
    let limit = Duration::from_secs_f64(env_or("LIMIT_S", 300.0));
    let warmup_s: f64 = env_or("WARMUP_S", 0.0);
    let bin: PathBuf = std::env::var("CREDENCE_BIN").map(Into::into).unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/credence"));
    let base = std::env::temp_dir().join(format!("credence-bench-long-{}", std::process::id()));
    for h in hours {
        one_shape(&bin, &base, h, rate, warmup_s, limit);
    }
    if std::env::var_os("KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&base);
    } else {
        eprintln!("kept {}", base.display());
    }
}
