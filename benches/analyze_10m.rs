//! Bench: `credence analyze` end to end (Parquet in, JSON out) on a synthetic run of
//! 10 million requests with a 1-hour GPU and host telemetry trace, at the default 9999
//! resamples. Run with `cargo bench --bench analyze_10m` (REQUESTS=N to change the size).
//! Prints wall time and the child's peak RSS; also the time at 1/10 the size, to show scaling.
//! Then times `credence report` (PDF) on the same run, and DuckDB's percentile query on the same
//! file when Python can import `duckdb` (`PYTHON=...` to choose the interpreter), in `ROUNDS`
//! (default 3) alternating rounds, with the median ratio.
//!
//! The generator (`benches/synth`) writes plain columns fast (no engine simulation): Poisson
//! arrivals over an hour, log-normal TTFT / TPOT with a slow autocorrelated level, no chunk
//! lists. `benches/analyze_long.rs` is the same load spread over many hours.

mod synth;
mod yardstick;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// One hour of `n` requests, the latency level correlated over 1000 requests.
fn generate(dir: &Path, n: usize) {
    synth::generate(dir, &synth::Shape { requests: n, duration_s: 3600.0, level_rate_per_s: n as f64 / 3600.0, warmup_s: 0.0 });
}

/// Runs `cmd` to its end: wall seconds and that child's own peak RSS in kB (`wait4`'s rusage,
/// not the largest of all children so far).
#[allow(clippy::zombie_processes)] // reaped by `wait4` below, which also reads its peak memory
fn peak_rss_kb_of(cmd: &mut Command) -> (f64, Option<u64>) {
    let start = Instant::now();
    let child = cmd.spawn().expect("credence runs");
    let (mut status, mut usage) = (0, unsafe { std::mem::zeroed::<libc::rusage>() });
    let waited = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let wall = start.elapsed().as_secs_f64();
    assert!(waited > 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "credence failed: status {status}");
    (wall, Some(usage.ru_maxrss as u64))
}

/// Generates `n` requests into `dir` in a child process (this bench re-run with
/// `SYNTH_INTO`): `ru_maxrss` survives fork and exec, so a bench that had generated in-process
/// would report its own footprint as the next child's peak.
fn generate_in_child(dir: &Path, n: usize) {
    let me = std::env::current_exe().expect("the bench knows its path");
    let ok = Command::new(me).env("SYNTH_INTO", dir).env("REQUESTS", n.to_string()).status().is_ok_and(|s| s.success());
    assert!(ok, "generating {n} requests into {} failed", dir.display());
}

fn main() {
    if let Some(dir) = std::env::var_os("SYNTH_INTO") {
        let n: usize = std::env::var("REQUESTS").ok().and_then(|v| v.parse().ok()).expect("REQUESTS is set with SYNTH_INTO");
        generate(Path::new(&dir), n);
        return;
    }
    let n: usize = std::env::var("REQUESTS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000_000);
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/credence");
    let bin = std::env::var("CREDENCE_BIN").map(Into::into).unwrap_or(bin);
    let base = std::env::temp_dir().join(format!("credence-bench-{}", std::process::id()));
    for size in [n / 10, n] {
        let dir = base.join(format!("run-{size}"));
        let t = Instant::now();
        generate_in_child(&dir, size);
        eprintln!("generated {size} requests in {:.1} s", t.elapsed().as_secs_f64());
        let out = base.join(format!("analysis-{size}.json"));
        let pdf = base.join(format!("report-{size}.pdf"));
        let mut ratios = Vec::new();
        for round in 1..=yardstick::rounds() {
            let (wall, rss) = peak_rss_kb_of(
                Command::new(&bin).args(["analyze", dir.to_str().unwrap(), "--out", out.to_str().unwrap(), "--json"]).stdout(std::process::Stdio::null()),
            );
            println!("analyze {size} requests, round {round}: {wall:.2} s wall, peak RSS {} MB", rss.map_or("?".into(), |k| (k / 1024).to_string()));
            if let Some(duck) = yardstick::duckdb_percentiles(&dir) {
                println!("   duckdb percentiles of the same file: {duck:.2} s wall; credence / duckdb = {:.1}", wall / duck);
                ratios.push(wall / duck);
            }
            // The whole report: analysis, charts, typst layout and PDF export.
            let (wall, _) =
                peak_rss_kb_of(Command::new(&bin).args(["report", dir.to_str().unwrap(), "-o", pdf.to_str().unwrap()]).stderr(std::process::Stdio::null()));
            println!("   report {size} requests: {wall:.2} s wall (PDF {} KB)", std::fs::metadata(&pdf).map_or(0, |m| m.len() / 1024));
        }
        if !ratios.is_empty() {
            println!("credence / duckdb at {size} requests: {}", yardstick::ratio_summary(&ratios));
        }
        // The same report rendered from the analysis saved above (`analyze --out`).
        let (wall, rss) =
            peak_rss_kb_of(Command::new(&bin).args(["report", out.to_str().unwrap(), "-o", pdf.to_str().unwrap()]).stderr(std::process::Stdio::null()));
        println!("report {size} requests from the saved analysis: {wall:.2} s wall, peak RSS {} MB", rss.map_or("?".into(), |k| (k / 1024).to_string()));
    }
    if std::env::var_os("KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&base);
    } else {
        eprintln!("kept {}", base.display());
    }
}
