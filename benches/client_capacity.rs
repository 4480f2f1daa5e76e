//! Bench: the ceiling of `credence bench` itself. Against `credence mock-server` on loopback
//! it offers rising Poisson rates and reports, per rate, the achieved rate, the late sends
//! (send lag above 5 ms) out of the run's rows, the send lag (P50, P99, max), the most
//! requests in flight, the client's CPU (process user + system time, from the kernel's
//! accounting of the child) and its CPU per request, the TTFT error (measured TTFT minus
//! mock-server's scripted one) and the server's CPU. The headline is the highest rate with
//! the achieved rate within 1 % of the offered one and P99 send lag at most 5 ms. On a shared
//! VM the hypervisor's steal time stalls every thread for milliseconds at a time; the table
//! gives the mean steal per step.
//!
//! `cargo bench --bench client_capacity`. Environment: RATES=1000,2000 and SECONDS=6 change
//! the steps; OUTPUT_TOKENS=4, TTFT=0 and TOKEN_DELAY=0 (milliseconds) the responses;
//! BENCH_ARGS="--connections 32" adds arguments to every `bench` (default: none, its
//! defaults); CREDENCE=/path/to/credence runs another build's `bench` (e.g. main's, for a
//! before/after table) against this build's mock-server.

use std::io::BufRead;
use std::process::{Command, Stdio};
use std::time::Instant;

use credence::stats::quantile::quantile_sorted;

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// User + system CPU seconds of this process's waited-for children so far.
fn children_cpu_s() -> f64 {
    // SAFETY: getrusage writes into the struct we pass and nothing else.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// User + system CPU seconds of a running process, from /proc.
fn proc_cpu_s(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |x| x.1);
    let f: Vec<f64> = after.split_whitespace().filter_map(|x| x.parse().ok()).collect();
    // Fields 14 and 15 (utime, stime) are the 12th and 13th after the command name.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (f.get(11).copied().unwrap_or(0.0) + f.get(12).copied().unwrap_or(0.0)) / ticks
}

fn load1() -> String {
    std::fs::read_to_string("/proc/loadavg").ok().and_then(|t| t.split_whitespace().next().map(str::to_string)).unwrap_or_default()
}

/// One step's numbers.
struct Step {
    achieved: f64,
    rows: usize,
    ok: usize,
    late: usize,
    lags: Vec<f64>,
    ttft_err: Vec<f64>,
    peak: u32,
    steal: f64,
    wall: f64,
}

/// Reads a run's per-request numbers back.
fn read_run(out: &std::path::Path, ttft_ms: f64, wall: f64) -> Step {
    let run = credence::run::load(out).expect("a run");
    let r = &run.requests;
    let (sched, sent, first) =
        (r.timestamps("scheduled_ns").expect("scheduled"), r.timestamps("sent_ns").expect("sent"), r.timestamps("first_token_ns").expect("ttft"));
    let mut lags: Vec<f64> = sched.iter().zip(sent.iter()).filter_map(|(a, b)| Some((b.as_ref()? - a.as_ref()?) as f64 / 1e6)).collect();
    lags.sort_by(f64::total_cmp);
    let mut ttft_err: Vec<f64> = sent.iter().zip(first.iter()).filter_map(|(s, f)| Some((f.as_ref()? - s.as_ref()?) as f64 / 1e6 - ttft_ms)).collect();
    ttft_err.sort_by(f64::total_cmp);
    let steal = run
        .host
        .as_ref()
        .and_then(|h| h.f64s("cpu_steal_pct"))
        .map_or(f64::NAN, |s| s.iter().flatten().sum::<f64>() / s.iter().flatten().count().max(1) as f64);
    let (first_sent, last_sent) = (sent.iter().flatten().min().copied().unwrap_or(0), sent.iter().flatten().max().copied().unwrap_or(0));
    Step {
        achieved: (r.num_rows() as f64 - 1.0) / ((last_sent - first_sent) as f64 / 1e9).max(1e-9),
        rows: r.num_rows(),
        ok: r.strings("status").map_or(0, |s| s.iter().filter(|v| *v == Some("ok")).count()),
        late: lags.iter().filter(|l| **l > 5.0).count(),
        lags,
        ttft_err,
        // Older runs do not record it: the host table's per-second in-flight count.
        peak: run
            .manifest
            .workload
            .in_flight
            .as_ref()
            .map(|f| f.peak)
            .unwrap_or_else(|| run.host.as_ref().and_then(|h| h.u32s("lg_inflight")).map_or(0, |v| v.iter().flatten().copied().max().unwrap_or(0))),
        steal,
        wall,
    }
}

fn main() {
    let own = env!("CARGO_BIN_EXE_credence").to_string();
    let client = env_or("CREDENCE", &own);
    let rates: Vec<f64> = env_or("RATES", "1000,2000,3000,4000,5000,6000,7000,8000,10000").split(',').filter_map(|r| r.trim().parse().ok()).collect();
    let seconds: f64 = env_or("SECONDS", "6").parse().unwrap_or(6.0);
    let (tokens, ttft, delay) = (env_or("OUTPUT_TOKENS", "4"), env_or("TTFT", "0"), env_or("TOKEN_DELAY", "0"));
    let extra = env_or("BENCH_ARGS", "");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut server = Command::new(&own)
        .args(["mock-server", "--port", "0", "--ttft", &format!("{ttft}ms"), "--token-delay", &format!("{delay}ms"), "--output-tokens", &tokens])
        .stdout(Stdio::piped())
        .spawn()
        .expect("mock-server starts");
    let mut first = String::new();
    std::io::BufReader::new(server.stdout.take().expect("stdout")).read_line(&mut first).expect("its address");
    let url = first.trim().trim_start_matches("listening on ").to_string();
    println!(
        "{client} bench {extra} against credence mock-server at {url} (TTFT {ttft} ms, {delay} ms per token, {tokens} tokens): {cores} cores, {seconds} s per step"
    );
    println!(
        "{:>7} {:>8} {:>6} {:>12} {:>8} {:>8} {:>9} {:>6} {:>7} {:>8} {:>10} {:>10} {:>7} {:>6} {:>6}",
        "offered",
        "achieved",
        "wall",
        "late>5ms",
        "lag p50",
        "lag p99",
        "lag max",
        "peak",
        "cores",
        "µs/req",
        "TTFT+ p50",
        "TTFT+ p99",
        "server",
        "steal",
        "load1"
    );
    let scratch = std::env::temp_dir().join(format!("credence-client-capacity-{}", std::process::id()));
    let mut best = None;
    for rate in rates {
        let out = scratch.join(format!("rate-{rate}"));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&scratch).expect("scratch");
        let (cpu0, server0, t0, load0) = (children_cpu_s(), proc_cpu_s(server.id()), Instant::now(), load1());
        let status = Command::new(&client)
            .args(["bench", "--url", &url, "--model", "m", "--out", out.to_str().expect("utf-8")])
            .args(["--rate", &rate.to_string(), "--duration", &format!("{seconds}s"), "--input-len", "16", "--output-len", &tokens])
            .args(extra.split_whitespace())
            .stderr(Stdio::null())
            .status()
            .expect("bench runs");
        let (cpu, server_cpu, wall) = (children_cpu_s() - cpu0, proc_cpu_s(server.id()) - server0, t0.elapsed().as_secs_f64());
        assert!(status.success(), "bench failed at {rate}/s");
        let s = read_run(&out, ttft.parse().unwrap_or(0.0), wall);
        let q = |v: &[f64], p| quantile_sorted(v, p).unwrap_or(f64::NAN);
        println!(
            "{:>7.0} {:>7.1}% {:>5.1}s {:>5} of {:>5} {:>6.2}ms {:>6.2}ms {:>7.1}ms {:>6} {:>7.2} {:>8.0} {:>8.2}ms {:>8.1}ms {:>7.2} {:>5.1}% {:>6} ({} ok; load1 {load0} before)",
            rate,
            100.0 * s.achieved / rate,
            s.wall,
            s.late,
            s.rows,
            q(&s.lags, 0.5),
            q(&s.lags, 0.99),
            s.lags.last().copied().unwrap_or(f64::NAN),
            s.peak,
            cpu / wall,
            cpu / s.rows.max(1) as f64 * 1e6,
            q(&s.ttft_err, 0.5),
            q(&s.ttft_err, 0.99),
            server_cpu / wall,
            s.steal,
            load1(),
            s.ok,
        );
        if s.achieved >= 0.99 * rate && q(&s.lags, 0.99) <= 5.0 && s.ok == s.rows && best.is_none_or(|b| b < rate) {
            best = Some(rate);
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&scratch);
    match best {
        Some(rate) => println!("highest rate with achieved ≥ 99 % of offered, P99 send lag ≤ 5 ms and no errors: {rate:.0} requests/s"),
        None => println!("no step held achieved ≥ 99 % with P99 send lag ≤ 5 ms"),
    }
}
