//! The client's own telemetry: once a second its CPU (of all its threads), its hottest thread
//! and the requests in flight, one row per second of the run, and the live status line.
//!
//! CPU is a share of the time that actually passed between two readings, never of the
//! nominal second: a sampler thread that wakes seconds late (a starved client) would
//! otherwise divide several seconds of CPU by one and report more cores than the machine has
//! (it showed 715 % on 2 cores). Seconds the sampler slept through get rows without a CPU
//! figure; the next reading covers them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::collect::host::{HostSample, HostSampler};

use super::{BenchOptions, Live, sleep_until};

/// Readings closer together than this are not turned into a CPU share (tick rounding would
/// dominate); the next one covers the interval.
const MIN_INTERVAL: Duration = Duration::from_millis(500);

/// Turns wake-ups into one host row per second boundary passed.
pub(crate) struct SelfSampler {
    host: HostSampler,
    pid: u32,
    anchor: (Instant, i64),
    /// The next second boundary to give a row (1: the end of the first second).
    next: u32,
    last_reading: Instant,
}

impl SelfSampler {
    /// A sampler of process `pid` whose rows count seconds from `anchor`; takes the first
    /// reading, which primes the CPU counters.
    pub fn new(pid: u32, anchor: (Instant, i64)) -> SelfSampler {
        let mut host = HostSampler::new();
        let now = Instant::now();
        let _ = host.sample(ns_at(anchor, now), Some(pid));
        SelfSampler { host, pid, anchor, next: 1, last_reading: now }
    }
    /// The boundary the next row is for.
    pub fn next_boundary(&self) -> Instant {
        self.anchor.0 + Duration::from_secs(u64::from(self.next))
    }
    /// Rows for every boundary up to `now`: the last one read from the kernel (when enough
    /// time has passed since the last reading), any earlier ones without CPU figures.
    pub fn rows_until(&mut self, now: Instant) -> Vec<HostSample> {
        let mut rows = Vec::new();
        while self.next_boundary() <= now {
            let boundary_ns = ns_at(self.anchor, self.next_boundary());
            self.next += 1;
            let last = self.next_boundary() > now;
            if last && now.duration_since(self.last_reading) >= MIN_INTERVAL {
                // The row carries the time of the reading, the interval it covers.
                rows.push(held_to_cores(self.host.sample(ns_at(self.anchor, now), Some(self.pid))));
                self.last_reading = now;
            } else {
                rows.push(HostSample { ts_ns: boundary_ns, lg_pid: Some(self.pid), ..Default::default() });
            }
        }
        rows
    }
}

/// The process cannot use more than the cores it may run on, nor a thread more than one; a
/// reading above that is tick rounding (±1 tick of 10 ms per reading), held to the bound.
fn held_to_cores(mut h: HostSample) -> HostSample {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    h.lg_cpu_pct = h.lg_cpu_pct.map(|c| c.min(100.0 * cores));
    h.lg_max_thread_cpu_pct = h.lg_max_thread_cpu_pct.map(|c| c.min(100.0));
    h
}

fn ns_at(anchor: (Instant, i64), t: Instant) -> i64 {
    anchor.1 + t.saturating_duration_since(anchor.0).as_nanos() as i64
}

/// The self-sampler's loop: a row per second until `stop`, with the in-flight count, and
/// the status line on a terminal.
pub(crate) fn sample_self(o: &BenchOptions, live: &Live, anchor: (Instant, i64), stop: &AtomicBool) -> Vec<(HostSample, u32)> {
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut sampler = SelfSampler::new(std::process::id(), anchor);
    let mut rows = Vec::new();
    while sleep_until(sampler.next_boundary(), stop) {
        let inflight = live.inflight.load(Ordering::Relaxed);
        let new = sampler.rows_until(Instant::now());
        if let Some(cpu) = new.iter().rev().find_map(|h| h.lg_cpu_pct) {
            live.cpu_pct_bits.store(cpu.to_bits(), Ordering::Relaxed);
        }
        rows.extend(new.into_iter().map(|h| (h, inflight)));
        // A watcher draws its own view, which shows the same figures.
        if tty && !live.watched {
            status(o, live, anchor.0);
        }
    }
    if tty && !live.watched {
        eprintln!();
    }
    rows
}

/// The live status line: elapsed and remaining time (or requests), achieved versus offered
/// rate, in-flight requests, errors and the last full second's P99 send lag.
fn status(o: &BenchOptions, live: &Live, start: Instant) {
    let elapsed = start.elapsed().as_secs_f64();
    let now = live.status(o, elapsed);
    let sent = live.sent.load(Ordering::Relaxed);
    let progress = match (o.duration_s, o.requests) {
        (Some(d), _) => format!("{elapsed:.0} s, {:.0} s left", (d - elapsed).max(0.0)),
        (None, Some(n)) => format!("{elapsed:.0} s, {sent}/{n} sent"),
        _ => format!("{elapsed:.0} s"),
    };
    let offered = now.offered_per_s.map_or("closed loop".to_string(), |r| format!("offered {r:.1}/s"));
    eprint!(
        "\r{progress} · {offered}, achieved {:.1}/s · in flight {} · errors {} · P99 send lag {}   ",
        now.achieved_per_s,
        now.in_flight,
        live.errors.load(Ordering::Relaxed),
        now.send_lag_p99_ms.map_or("n/a".into(), |l| format!("{l:.2} ms"))
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cores() -> f64 {
        std::thread::available_parallelism().map_or(1, |n| n.get()) as f64
    }

    /// A thread pinned at 100 % for `for_s`, in this process.
    fn spin(for_s: f64) -> std::thread::JoinHandle<()> {
        std::thread::spawn(move || {
            let t = Instant::now();
            let mut x = 0u64;
            while t.elapsed().as_secs_f64() < for_s {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        })
    }

    #[test]
    fn a_busy_thread_counts_at_most_one_core_even_when_the_sampler_wakes_late() {
        let anchor = (Instant::now(), 0i64);
        let spinner = spin(3.2);
        let mut s = SelfSampler::new(std::process::id(), anchor);
        // On time for the first second, then asleep through two boundaries (the starved
        // sampler of the 715 % report), then a reading right after the next boundary.
        let mut rows = Vec::new();
        for at_ms in [1000, 3050, 3100] {
            std::thread::sleep((anchor.0 + Duration::from_millis(at_ms)).saturating_duration_since(Instant::now()));
            rows.extend(s.rows_until(Instant::now()));
        }
        spinner.join().unwrap();
        assert_eq!(rows.len(), 3, "one row per second boundary passed");
        assert!(rows[1].lg_cpu_pct.is_none(), "a second the sampler slept through has no CPU figure");
        let measured: Vec<f64> = rows.iter().filter_map(|r| r.lg_cpu_pct).collect();
        assert_eq!(measured.len(), 2);
        for r in &rows {
            if let (Some(cpu), Some(hot)) = (r.lg_cpu_pct, r.lg_max_thread_cpu_pct) {
                assert!(cpu <= 100.0 * cores() + 2.0, "{cpu} % on {} cores", cores());
                assert!(hot <= 102.0, "one thread at {hot} % of a core");
                // Under the 2-core machine's other load the spinner may get well under a core.
                assert!(hot > 5.0, "the spinning thread is seen: {hot} %");
            }
        }
        assert!(rows[2].ts_ns >= 3_000_000_000, "the late reading carries its own time");
        // Its CPU is a share of the 2.05 s that passed since the last reading, not of one
        // nominal second (which doubled it).
        let covered = rows[2].interval_s.unwrap();
        assert!((1.95..2.6).contains(&covered), "the late reading covers {covered} s");
    }

    #[test]
    fn a_child_that_exits_mid_run_is_counted_once() {
        // A shell whose busy child is killed after 1.2 s; the shell lives on, so its reaped
        // children's CPU (cutime) is where the child's time lands when it exits.
        let mut root = std::process::Command::new("sh").args(["-c", "timeout 1.2 sh -c 'while :; do :; done'; sleep 1.6"]).spawn().expect("sh");
        let anchor = (Instant::now(), 0i64);
        let mut s = SelfSampler::new(root.id(), anchor);
        let mut rows = Vec::new();
        for at_ms in [500, 1000, 1500, 2000, 2500] {
            std::thread::sleep((anchor.0 + Duration::from_millis(at_ms)).saturating_duration_since(Instant::now()));
            rows.push(s.host.sample(ns_at(anchor, Instant::now()), Some(root.id())));
        }
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", root.id())).unwrap();
        let f: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split_whitespace().collect();
        // utime, stime, cutime, cstime (fields 14-17; the state is field 3): everything the
        // family used, the exited child included.
        let ticks: u64 = f[11..15].iter().map(|x| x.parse::<u64>().unwrap()).sum();
        let truth_s = ticks as f64 / crate::collect::host::ticks_per_s();
        root.wait().unwrap();
        let counted_s: f64 = rows.iter().filter_map(|r| Some(r.lg_cpu_pct? / 100.0 * r.interval_s?)).sum();
        assert!(rows.iter().filter_map(|r| r.lg_cpu_pct).all(|c| c <= 100.0 * cores() + 5.0), "{rows:?}");
        assert!(truth_s > 0.1, "the child was busy: {truth_s} s");
        assert!(
            (counted_s - truth_s).abs() <= 0.25 * truth_s + 0.05,
            "counted {counted_s:.2} s of CPU; the family used {truth_s:.2} s (twice would be the old double count)"
        );
    }
}
