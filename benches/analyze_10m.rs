//! Bench: `credence analyze` end to end (Parquet in, JSON out) on a synthetic run of
//! 10 million requests with a 1-hour GPU and host telemetry trace, at the default 9999
//! resamples. Run with `cargo bench --bench analyze_10m` (REQUESTS=N to change the size).
//! Prints wall time and the child's peak RSS; also the time at 1/10 the size, to show scaling.
//! Then times `credence report` (PDF) on the same run.
//!
//! The generator writes plain columns fast (no engine simulation): Poisson arrivals over an
//! hour, log-normal TTFT / TPOT with a slow autocorrelated level, no chunk lists.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use credence::run::schema::TableKind;
use credence::run::table::{Column, Table, TimestampLists, utf8_column};
use credence::run::write::{RunData, write_run};
use credence::simulate::{Scenario, SimOptions, simulate};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u1, u2): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn generate(dir: &Path, n: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let duration_s = 3600.0;
    let t0 = 1_780_315_200_000_000_000i64;
    let rate = n as f64 / duration_s;
    let (mut sched, mut sent, mut first, mut end) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut inp, mut out) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut t = 0.0f64;
    let mut level = 0.0f64;
    for _ in 0..n {
        t += -(1.0 - rng.random::<f64>()).ln() / rate;
        level = 0.999 * level + 0.03 * normal(&mut rng);
        let s = t0 + (t * 1e9) as i64;
        let ttft = (35.0 * (0.35 * normal(&mut rng) + level).exp() * 1e6) as i64;
        let o = (128.0 * (0.5 * normal(&mut rng)).exp()).clamp(2.0, 1024.0) as u32;
        let tpot = (18.0 * (0.1 * normal(&mut rng) + level).exp() * 1e6) as i64;
        sched.push(Some(s - 100_000));
        sent.push(Some(s));
        first.push(Some(s + ttft));
        end.push(Some(s + ttft + tpot * (o as i64 - 1)));
        inp.push(Some((512.0 * (0.6 * normal(&mut rng)).exp()) as u32));
        out.push(Some(o));
    }
    let ids: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
    let mut chunks = TimestampLists::new();
    for _ in 0..n {
        chunks.push(None);
    }
    let requests = Table::from_columns(
        TableKind::Requests,
        vec![
            ("request_id", utf8_column(ids.iter().map(|s| Some(s.as_str())))),
            ("client_id", utf8_column(std::iter::repeat_n(Some("c0"), n))),
            ("client_host", utf8_column(std::iter::repeat_n(Some("loadgen-0"), n))),
            ("scheduled_ns", Column::Timestamp(sched)),
            ("sent_ns", Column::Timestamp(sent)),
            ("first_token_ns", Column::Timestamp(first)),
            ("end_ns", Column::Timestamp(end)),
            ("chunk_ns", Column::TimestampList(chunks)),
            ("input_tokens", Column::UInt32(inp)),
            ("output_tokens", Column::UInt32(out)),
            ("cached_tokens", Column::UInt32(vec![None; n])),
            ("status", utf8_column(std::iter::repeat_n(Some("ok"), n))),
            ("error_kind", utf8_column(std::iter::repeat_n(None, n))),
            ("error_message", utf8_column(std::iter::repeat_n(None, n))),
            ("http_status", Column::UInt32(vec![Some(200); n])),
            ("phase", utf8_column(std::iter::repeat_n(None, n))),
        ],
    )
    .unwrap();
    // Telemetry and manifest: a real 1-hour simulated trace (1 Hz, 2 GPUs).
    let mut o = SimOptions::new(Scenario::Steady, 1);
    o.duration_s = 3600.0;
    o.arrival = credence::simulate::ArrivalProcess::Poisson { rate: 1.0 };
    o.compute_truth = false;
    let sim = simulate(&o).unwrap();
    let mut manifest = sim.data.manifest;
    manifest.workload.rate_per_s = Some(rate);
    write_run(dir, &RunData { manifest, requests, gpu: sim.data.gpu, host: sim.data.host, server: None, extra_files: Vec::new() }).unwrap();
}

fn peak_rss_kb_of(cmd: &mut Command) -> (f64, Option<u64>) {
    let start = Instant::now();
    let status = cmd.status().expect("credence runs");
    let wall = start.elapsed().as_secs_f64();
    assert!(status.success());
    // ru_maxrss of the largest waited-for child (Linux: kilobytes).
    let mut usage = std::mem::MaybeUninit::<libc_rusage>::zeroed();
    let rss = unsafe { (getrusage(-1, usage.as_mut_ptr()) == 0).then(|| usage.assume_init().ru_maxrss as u64) };
    (wall, rss)
}

#[repr(C)]
struct libc_rusage {
    ru_utime: [i64; 2],
    ru_stime: [i64; 2],
    ru_maxrss: i64,
    rest: [i64; 13],
}

unsafe extern "C" {
    fn getrusage(who: i32, usage: *mut libc_rusage) -> i32;
}

fn main() {
    let n: usize = std::env::var("REQUESTS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000_000);
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/credence");
    let bin = std::env::var("CREDENCE_BIN").map(Into::into).unwrap_or(bin);
    let base = std::env::temp_dir().join(format!("credence-bench-{}", std::process::id()));
    for size in [n / 10, n] {
        let dir = base.join(format!("run-{size}"));
        let t = Instant::now();
        generate(&dir, size);
        eprintln!("generated {size} requests in {:.1} s", t.elapsed().as_secs_f64());
        let out = base.join(format!("analysis-{size}.json"));
        let (wall, rss) = peak_rss_kb_of(
            Command::new(&bin).args(["analyze", dir.to_str().unwrap(), "--out", out.to_str().unwrap(), "--json"]).stdout(std::process::Stdio::null()),
        );
        println!("analyze {size} requests: {wall:.2} s wall, peak RSS {} MB (children so far)", rss.map_or("?".into(), |k| (k / 1024).to_string()));
        // The whole report: analysis, charts, typst layout and PDF export.
        let pdf = base.join(format!("report-{size}.pdf"));
        let (wall, _) =
            peak_rss_kb_of(Command::new(&bin).args(["report", dir.to_str().unwrap(), "-o", pdf.to_str().unwrap()]).stderr(std::process::Stdio::null()));
        println!("report {size} requests: {wall:.2} s wall (PDF {} KB)", std::fs::metadata(&pdf).map_or(0, |m| m.len() / 1024));
    }
    if std::env::var_os("KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&base);
    } else {
        eprintln!("kept {}", base.display());
    }
}
