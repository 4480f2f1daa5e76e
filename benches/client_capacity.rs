//! Bench: the ceiling of `credence bench` itself. Against `credence mock-server` on loopback
//! (no TTFT, no token delay: short streamed responses), it offers rising Poisson rates and
//! reports, per rate, the achieved rate, the send lag (P50, P99, max), the client's CPU
//! (process user + system time, from the kernel's accounting of the child), its CPU per
//! request, and the server's CPU. The headline is the highest rate sustained with P99 send lag
//! below 1 ms and the achieved rate within 1 % of the offered one. On a shared VM the
//! hypervisor's steal time stalls every thread for milliseconds at a time; the table gives the
//! mean steal per step and the P99 over the seconds with steal below 5 % ("calm"), beside the
//! P99 over all seconds.
//!
//! `cargo bench --bench client_capacity`. RATES=1000,2000 and SECONDS=6 change the steps;
//! OUTPUT_TOKENS=4 the response length; CONNECTIONS=32 the client's pool.

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

fn main() {
    let exe = env!("CARGO_BIN_EXE_credence");
    let rates: Vec<f64> = env_or("RATES", "1000,2000,3000,4000,5000,6000,7000,8000,10000").split(',').filter_map(|r| r.trim().parse().ok()).collect();
    let seconds: f64 = env_or("SECONDS", "6").parse().unwrap_or(6.0);
    let tokens = env_or("OUTPUT_TOKENS", "4");
    let connections = env_or("CONNECTIONS", "32");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut server = Command::new(exe)
        .args(["mock-server", "--port", "0", "--ttft", "0", "--token-delay", "0", "--output-tokens", &tokens])
        .stdout(Stdio::piped())
        .spawn()
        .expect("mock-server starts");
    let mut first = String::new();
    std::io::BufReader::new(server.stdout.take().expect("stdout")).read_line(&mut first).expect("its address");
    let url = first.trim().trim_start_matches("listening on ").to_string();
    println!(
        "credence bench against credence mock-server at {url}: {cores} cores, {tokens} tokens per response, {connections} connections, {seconds} s per step"
    );
    println!(
        "{:>8} {:>9} {:>9} {:>9} {:>9} {:>10} {:>11} {:>10}",
        "offered", "achieved", "lag p50", "lag p99", "lag max", "client CPU", "CPU/request", "server CPU"
    );
    let scratch = std::env::temp_dir().join(format!("credence-client-capacity-{}", std::process::id()));
    let mut best = None;
    for rate in rates {
        let out = scratch.join(format!("rate-{rate}"));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&scratch).expect("scratch");
        let (cpu0, server0, t0) = (children_cpu_s(), proc_cpu_s(server.id()), Instant::now());
        let status = Command::new(exe)
            .args(["bench", "--url", &url, "--model", "m", "--out", out.to_str().expect("utf-8")])
            .args(["--rate", &rate.to_string(), "--duration", &format!("{seconds}s"), "--input-len", "16", "--output-len", &tokens])
            .args(["--connections", &connections])
            .stderr(Stdio::null())
            .status()
            .expect("bench runs");
        let (cpu, server_cpu, wall) = (children_cpu_s() - cpu0, proc_cpu_s(server.id()) - server0, t0.elapsed().as_secs_f64());
        assert!(status.success(), "bench failed at {rate}/s");
        let run = credence::run::load(&out).expect("a run");
        let r = &run.requests;
        let (sched, sent) = (r.timestamps("scheduled_ns").expect("scheduled"), r.timestamps("sent_ns").expect("sent"));
        let mut lags: Vec<f64> = sched.iter().zip(sent).filter_map(|(a, b)| Some((b.as_ref()? - a.as_ref()?) as f64 / 1e6)).collect();
        lags.sort_by(f64::total_cmp);
        // The hypervisor's steal per second of the run (host row i covers second i), and the
        // lags of the seconds it left alone (steal < 5 %).
        let host = run.host.as_ref().expect("host table");
        let steal = host.f64s("cpu_steal_pct").expect("cpu_steal_pct");
        let t0 = host.timestamps("ts_ns").expect("ts_ns")[0].expect("a time") - 1_000_000_000;
        let mut calm: Vec<f64> = sched
            .iter()
            .zip(sent)
            .filter_map(|(a, b)| {
                let (a, b) = (a.as_ref()?, b.as_ref()?);
                let second = ((a - t0) / 1_000_000_000) as usize;
                steal.get(second).copied().flatten().filter(|s| *s < 5.0).map(|_| (b - a) as f64 / 1e6)
            })
            .collect();
        calm.sort_by(f64::total_cmp);
        let steal_mean = steal.iter().flatten().sum::<f64>() / steal.iter().flatten().count().max(1) as f64;
        let first_sent = sent.iter().flatten().min().copied().unwrap_or(0);
        let last_sent = sent.iter().flatten().max().copied().unwrap_or(0);
        let achieved = (r.num_rows() as f64 - 1.0) / ((last_sent - first_sent) as f64 / 1e9).max(1e-9);
        let ok = r.strings("status").map_or(0, |s| s.iter().filter(|v| *v == Some("ok")).count());
        // CPU while loading: the self-sampler's per-second readings, first and last second left out.
        let mut load_cpu: Vec<f64> = host.f64s("lg_cpu_pct").expect("lg_cpu_pct").iter().flatten().copied().collect();
        if load_cpu.len() > 2 {
            load_cpu = load_cpu[1..load_cpu.len() - 1].to_vec();
        }
        load_cpu.sort_by(f64::total_cmp);
        let steady_cpu = quantile_sorted(&load_cpu, 0.5).unwrap_or(f64::NAN);
        let q = |p| quantile_sorted(&lags, p).unwrap_or(f64::NAN);
        println!(
            "{:>8.0} {:>9.0} {:>7.3}ms {:>7.3}ms {:>7.2}ms {:>9.0}% {:>9.1}µs {:>9.0}% {:>6.1}% {:>9.3}ms ({} of {} ok; whole process {:.0} % of a core)",
            rate,
            achieved,
            q(0.5),
            q(0.99),
            lags.last().copied().unwrap_or(f64::NAN),
            steady_cpu,
            steady_cpu / 100.0 / rate * 1e6,
            server_cpu / wall * 100.0,
            steal_mean,
            quantile_sorted(&calm, 0.99).unwrap_or(f64::NAN),
            ok,
            r.num_rows(),
            cpu / wall * 100.0,
        );
        let calm_p99 = quantile_sorted(&calm, 0.99).unwrap_or(f64::INFINITY);
        if calm_p99 < 1.0 && achieved >= 0.99 * rate && ok == r.num_rows() && best.is_none_or(|(b, _, _)| b < rate) {
            best = Some((rate, steady_cpu, q(0.99)));
        }
        let _ = std::fs::remove_dir_all(&out);
    }
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&scratch);
    match best {
        Some((rate, cpu, all_p99)) => println!(
            "highest rate with P99 send lag < 1 ms in the seconds without hypervisor steal (< 5 %) and achieved ≥ 99 % of offered: {rate:.0} requests/s, client CPU {cpu:.0} % of one core (P99 over all seconds: {all_p99:.2} ms)"
        ),
        None => println!("no step held P99 send lag below 1 ms"),
    }
}
