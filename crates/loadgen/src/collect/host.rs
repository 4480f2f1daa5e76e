//! Host telemetry from procfs and sysfs, read by hand (a few small files per second): CPU mode
//! shares with steal and iowait, context switches, run queue, PSI, memory, network bytes,
//! errors and drops, TCP retransmits and TcpExt timeouts and listen overflows, the frequency
//! governor, and the load generator's own process: CPU in % of one core (with its children),
//! the hottest thread, RSS, threads and context switches. Counters are stored raw; the analysis
//! turns them into rates.

use std::collections::BTreeMap;
use std::fs::read_to_string;

/// One host sample, matching the host table's columns (None where unreadable).
#[derive(Debug, Clone, Default)]
pub struct HostSample {
    pub ts_ns: i64,
    pub interval_s: Option<f64>,
    pub cpu_user_pct: Option<f64>,
    pub cpu_system_pct: Option<f64>,
    pub cpu_iowait_pct: Option<f64>,
    pub cpu_steal_pct: Option<f64>,
    pub cpu_idle_pct: Option<f64>,
    pub ctx_switches: Option<u64>,
    pub procs_running: Option<u32>,
    pub load1: Option<f64>,
    pub psi_cpu_some_avg10: Option<f64>,
    pub mem_total_bytes: Option<u64>,
    pub mem_available_bytes: Option<u64>,
    pub net_rx_bytes: Option<u64>,
    pub net_tx_bytes: Option<u64>,
    pub net_errs: Option<u64>,
    pub net_drops: Option<u64>,
    pub tcp_out_segs: Option<u64>,
    pub tcp_retrans_segs: Option<u64>,
    pub tcp_timeouts: Option<u64>,
    pub tcp_listen_overflows: Option<u64>,
    pub cpu_governor: Option<String>,
    pub cpu_freq_mhz_avg: Option<f64>,
    pub lg_pid: Option<u32>,
    pub lg_cpu_pct: Option<f64>,
    pub lg_max_thread_cpu_pct: Option<f64>,
    pub lg_rss_bytes: Option<u64>,
    pub lg_threads: Option<u32>,
    pub lg_vol_ctxsw: Option<u64>,
    pub lg_invol_ctxsw: Option<u64>,
    /// Load-generator self-instrumentation (credence bench), None for other collectors.
    pub lg_planned_sends: Option<u64>,
    pub lg_actual_sends: Option<u64>,
    pub lg_send_lag_p50_ms: Option<f64>,
    pub lg_send_lag_p99_ms: Option<f64>,
    pub lg_send_lag_max_ms: Option<f64>,
    pub lg_dropped_sends: Option<u64>,
    pub lg_inflight: Option<u32>,
}

unsafe extern "C" {
    fn sysconf(name: i32) -> i64;
}

/// Clock ticks per second (`_SC_CLK_TCK` = 2 on Linux).
pub fn ticks_per_s() -> f64 {
    let t = unsafe { sysconf(2) };
    if t > 0 { t as f64 } else { 100.0 }
}

/// The `cpu` line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal.
fn cpu_jiffies(stat: &str) -> Option<[u64; 8]> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line.split_whitespace().skip(1).take(8).filter_map(|x| x.parse().ok()).collect();
    (v.len() == 8).then(|| [v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]])
}

fn field(text: &str, key: &str) -> Option<u64> {
    text.lines().find(|l| l.starts_with(key)).and_then(|l| l.split_whitespace().nth(1)).and_then(|x| x.parse().ok())
}

/// `Tcp:` / `TcpExt:` style header-and-values line pairs.
fn paired(text: &str, prefix: &str) -> BTreeMap<String, u64> {
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with(prefix)).collect();
    let mut out = BTreeMap::new();
    if lines.len() >= 2 {
        for (k, v) in lines[0].split_whitespace().skip(1).zip(lines[1].split_whitespace().skip(1)) {
            if let Ok(x) = v.parse() {
                out.insert(k.to_string(), x);
            }
        }
    }
    out
}

/// Sums of rx bytes, tx bytes, errors and drops over non-loopback interfaces.
fn net_dev(text: &str) -> Option<(u64, u64, u64, u64)> {
    let mut t = (0, 0, 0, 0);
    let mut any = false;
    for line in text.lines().skip(2) {
        let Some((iface, rest)) = line.split_once(':') else { continue };
        if iface.trim() == "lo" {
            continue;
        }
        let v: Vec<u64> = rest.split_whitespace().filter_map(|x| x.parse().ok()).collect();
        if v.len() >= 12 {
            any = true;
            t.0 += v[0];
            t.1 += v[8];
            t.2 += v[2] + v[10];
            t.3 += v[3] + v[11];
        }
    }
    any.then_some(t)
}

/// Waited-for children's ticks (cutime + cstime) from a /proc/<pid>/stat line: the CPU of
/// short-lived children that exited between two samples.
fn reaped_ticks(text: &str) -> Option<u64> {
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    Some(f.get(13)?.parse::<u64>().ok()? + f.get(14)?.parse::<u64>().ok()?)
}

/// utime + stime ticks, threads, RSS pages and the parent pid from a /proc/<pid>/stat line.
pub(crate) fn proc_stat(text: &str) -> Option<(u64, u32, u64, u32)> {
    let rest = &text[text.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    let ppid = f.get(1)?.parse().ok()?;
    Some((ticks, f.get(17)?.parse().ok()?, f.get(21)?.parse().ok()?, ppid))
}

/// A process and its descendants, by scanning /proc once.
fn family(root: u32) -> Vec<u32> {
    let mut parent: Vec<(u32, u32)> = Vec::new();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
            if let Some((_, _, _, ppid)) = read_to_string(format!("/proc/{pid}/stat")).ok().and_then(|t| proc_stat(&t)) {
                parent.push((pid, ppid));
            }
        }
    }
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        let p = out[i];
        out.extend(parent.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    out
}

/// Keeps the previous counters to turn them into shares per interval.
#[derive(Default)]
pub struct HostSampler {
    prev_cpu: Option<[u64; 8]>,
    prev_ts: Option<i64>,
    prev_proc_ticks: BTreeMap<u32, u64>,
    prev_thread_ticks: BTreeMap<(u32, u32), u64>,
    /// The client's cutime + cstime at the last sample.
    prev_reaped: Option<u64>,
    /// Ticks of descendants that were counted while alive and have since exited: the root's
    /// cutime will report them again when it reaps them, and must not count them twice.
    counted_dead: u64,
    ticks: f64,
}

impl HostSampler {
    pub fn new() -> HostSampler {
        HostSampler { ticks: ticks_per_s(), ..Default::default() }
    }

    /// One sample at `ts_ns`, with the load generator `client` (and its children) if given.
    pub fn sample(&mut self, ts_ns: i64, client: Option<u32>) -> HostSample {
        let mut s = HostSample { ts_ns, ..Default::default() };
        let dt = self.prev_ts.map(|p| (ts_ns - p) as f64 / 1e9).filter(|d| *d > 0.0);
        s.interval_s = dt;
        self.prev_ts = Some(ts_ns);
        if let Ok(stat) = read_to_string("/proc/stat") {
            if let (Some(now), Some(prev)) = (cpu_jiffies(&stat), self.prev_cpu) {
                let d: Vec<f64> = now.iter().zip(prev).map(|(a, b)| a.saturating_sub(b) as f64).collect();
                let total: f64 = d.iter().sum();
                if total > 0.0 {
                    let pct = |x: f64| Some(100.0 * x / total);
                    s.cpu_user_pct = pct(d[0] + d[1]);
                    s.cpu_system_pct = pct(d[2] + d[5] + d[6]);
                    s.cpu_idle_pct = pct(d[3]);
                    s.cpu_iowait_pct = pct(d[4]);
                    s.cpu_steal_pct = pct(d[7]);
                }
            }
            self.prev_cpu = cpu_jiffies(&stat);
            s.ctx_switches = field(&stat, "ctxt");
            s.procs_running = field(&stat, "procs_running").map(|x| x as u32);
        }
        s.load1 = read_to_string("/proc/loadavg").ok().and_then(|t| t.split_whitespace().next().and_then(|x| x.parse().ok()));
        s.psi_cpu_some_avg10 = read_to_string("/proc/pressure/cpu").ok().and_then(|t| {
            t.lines().find(|l| l.starts_with("some")).and_then(|l| l.split_whitespace().find_map(|kv| kv.strip_prefix("avg10=")).and_then(|x| x.parse().ok()))
        });
        if let Ok(m) = read_to_string("/proc/meminfo") {
            s.mem_total_bytes = field(&m, "MemTotal:").map(|k| k * 1024);
            s.mem_available_bytes = field(&m, "MemAvailable:").map(|k| k * 1024);
        }
        if let Some((rx, tx, errs, drops)) = read_to_string("/proc/net/dev").ok().and_then(|t| net_dev(&t)) {
            (s.net_rx_bytes, s.net_tx_bytes, s.net_errs, s.net_drops) = (Some(rx), Some(tx), Some(errs), Some(drops));
        }
        if let Ok(t) = read_to_string("/proc/net/snmp") {
            let tcp = paired(&t, "Tcp:");
            s.tcp_out_segs = tcp.get("OutSegs").copied();
            s.tcp_retrans_segs = tcp.get("RetransSegs").copied();
        }
        if let Ok(t) = read_to_string("/proc/net/netstat") {
            let ext = paired(&t, "TcpExt:");
            s.tcp_timeouts = ext.get("TCPTimeouts").copied();
            s.tcp_listen_overflows = ext.get("ListenOverflows").copied();
        }
        s.cpu_governor = read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").ok().map(|g| g.trim().to_string());
        let freqs: Vec<f64> = (0..1024)
            .map_while(|i| read_to_string(format!("/sys/devices/system/cpu/cpu{i}/cpufreq/scaling_cur_freq")).ok())
            .filter_map(|t| t.trim().parse::<f64>().ok())
            .collect();
        s.cpu_freq_mhz_avg = (!freqs.is_empty()).then(|| freqs.iter().sum::<f64>() / freqs.len() as f64 / 1000.0);
        if let Some(pid) = client {
            self.client(&mut s, pid, dt);
        }
        s
    }

    /// CPU ticks of the client and its live descendants since the last sample (a shell
    /// wrapper's children count), plus what the client reaped that was never seen alive (a
    /// shell loop forking short commands). A descendant's ticks are counted while it lives; when
    /// it exits they reach the root's cutime too, and are taken off there, so nothing counts
    /// twice (a worker that exits would otherwise show as a false CPU spike).
    fn family_ticks(&mut self, pid: u32) -> (BTreeMap<u32, u64>, u64) {
        let mut now_ticks = BTreeMap::new();
        let mut delta = 0u64;
        let mut reaped = None;
        // After the first sample, a process not seen before was born since the last one: all
        // its ticks are new (counting from its first sighting lost a busy child's first second).
        let primed = !self.prev_proc_ticks.is_empty();
        for p in family(pid) {
            let text = read_to_string(format!("/proc/{p}/stat")).ok();
            if p == pid {
                reaped = text.as_deref().and_then(reaped_ticks);
            }
            if let Some((t, _, _, _)) = text.as_deref().and_then(proc_stat) {
                let before = self.prev_proc_ticks.get(&p).copied().unwrap_or(if primed { 0 } else { t });
                delta += t.saturating_sub(before);
                now_ticks.insert(p, t);
            }
        }
        self.counted_dead += self.prev_proc_ticks.iter().filter(|(p, _)| **p != pid && !now_ticks.contains_key(p)).map(|(_, t)| t).sum::<u64>();
        if let (Some(now), Some(before)) = (reaped, self.prev_reaped) {
            let newly_reaped = now.saturating_sub(before);
            delta += newly_reaped.saturating_sub(self.counted_dead);
            self.counted_dead = self.counted_dead.saturating_sub(newly_reaped);
        }
        self.prev_reaped = reaped.or(self.prev_reaped);
        (now_ticks, delta)
    }

    fn client(&mut self, s: &mut HostSample, pid: u32, dt: Option<f64>) {
        let Some((_, threads, rss_pages, _)) = read_to_string(format!("/proc/{pid}/stat")).ok().and_then(|t| proc_stat(&t)) else { return };
        s.lg_pid = Some(pid);
        s.lg_threads = Some(threads);
        s.lg_rss_bytes = Some(rss_pages * 4096);
        if let Ok(st) = read_to_string(format!("/proc/{pid}/status")) {
            s.lg_vol_ctxsw = field(&st, "voluntary_ctxt_switches:");
            s.lg_invol_ctxsw = field(&st, "nonvoluntary_ctxt_switches:");
        }
        let primed = !self.prev_thread_ticks.is_empty();
        let (now_ticks, delta) = self.family_ticks(pid);
        let mut hottest = 0u64;
        let mut now_threads = BTreeMap::new();
        for p in now_ticks.keys() {
            if let Ok(dir) = std::fs::read_dir(format!("/proc/{p}/task")) {
                for e in dir.flatten() {
                    let Ok(tid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
                    if let Some((t, _, _, _)) = read_to_string(format!("/proc/{p}/task/{tid}/stat")).ok().and_then(|x| proc_stat(&x)) {
                        let before = self.prev_thread_ticks.get(&(*p, tid)).copied().unwrap_or(if primed { 0 } else { t });
                        hottest = hottest.max(t.saturating_sub(before));
                        now_threads.insert((*p, tid), t);
                    }
                }
            }
        }
        if let Some(dt) = dt.filter(|_| !self.prev_proc_ticks.is_empty()) {
            s.lg_cpu_pct = Some(100.0 * delta as f64 / self.ticks / dt);
            s.lg_max_thread_cpu_pct = Some(100.0 * hottest as f64 / self.ticks / dt);
        }
        self.prev_proc_ticks = now_ticks;
        self.prev_thread_ticks = now_threads;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsers() {
        assert_eq!(cpu_jiffies("cpu  10 1 5 100 2 0 1 3 0 0\ncpu0 1 2 3"), Some([10, 1, 5, 100, 2, 0, 1, 3]));
        let snmp = "Tcp: RtoAlgorithm OutSegs RetransSegs\nTcp: 1 500 7\n";
        assert_eq!(paired(snmp, "Tcp:").get("RetransSegs"), Some(&7));
        let dev = "h1\nh2\n  lo: 9 9 9 9 0 0 0 0 9 9 9 9 0 0 0 0\neth0: 100 5 1 2 0 0 0 0 200 6 3 4 0 0 0 0\n";
        assert_eq!(net_dev(dev), Some((100, 200, 4, 6)));
        let stat = "42 (my (odd) name) S 1 42 42 0 -1 0 0 0 0 0 250 50 0 0 20 0 7 0 1000 1000000 300 0";
        assert_eq!(proc_stat(stat), Some((300, 7, 300, 1)));
    }
}
