//! Simulated GPU and host telemetry, one sample per second, consistent with what the engine
//! and the client did (busy time, batch size, sends, send lag) and with the scenario.

use super::engine::EngineTrace;
use super::rng::{SimRng, Stream};
use super::scenario::{POWER_CAP_CLOCK_RATIO, Scenario, THERMAL_CLOCK_RATIO, Timeline};
use credence_run::schema::TableKind;
use credence_run::table::{Column, Table, TableError, utf8_column};
use credence_stats::quantile::quantile_sorted;

pub const GPU_HOST: &str = "gpu-node-0";
pub const CLIENT_HOST: &str = "loadgen-0";
const SM_MAX_MHZ: u32 = 1980;
const SM_IDLE_MHZ: u32 = 345;
const MEM_MAX_MHZ: u32 = 2619;
const GIB: u64 = 1 << 30;
const MEM_TOTAL: u64 = 80 * GIB;
const TEMP_SLOWDOWN_C: f64 = 92.0;
const POWER_LIMIT_W: f64 = 700.0;
const POWER_CAP_LIMIT_W: f64 = 500.0;
const FOREIGN_MEM: u64 = 8 * GIB;
const LOADGEN_PID: u32 = 4242;

/// What the client did in each second, for the load-generator columns.
#[derive(Debug, Clone, Default)]
pub struct ClientSecond {
    pub planned: u64,
    pub sent: u64,
    pub chunks: u64,
    pub lags_ms: Vec<f64>,
    pub inflight: u32,
}

pub fn gpu_uuid(i: u32) -> String {
    format!("GPU-5c7e12ab-93d4-4f0e-8b6a-00000000000{i}")
}

/// Samples are taken every second from `first_s` to `last_s` (seconds from the run start).
pub struct SampleGrid {
    pub first_s: i64,
    pub last_s: i64,
    pub epoch_ns: i64,
}

impl SampleGrid {
    fn times(&self, rng: &mut SimRng) -> Vec<(i64, i64)> {
        (self.first_s..=self.last_s)
            .map(|s| {
                let jitter = ((rng.uniform() - 0.5) * 6e6) as i64;
                (s, self.epoch_ns + s * 1_000_000_000 + 2_000_000 + jitter)
            })
            .collect()
    }
}

fn at<T: Copy + Default>(v: &[T], s: i64) -> T {
    if s < 0 { T::default() } else { v.get(s as usize).copied().unwrap_or_default() }
}

/// One row per GPU per second.
pub fn gpu_table(timeline: &Timeline, trace: &EngineTrace, grid: &SampleGrid, gpus: u32, seed: u64) -> Result<Table, TableError> {
    let mut rng = SimRng::new(seed, Stream::Telemetry);
    let times = grid.times(&mut rng);
    let power_limit = if timeline.scenario == Scenario::PowerCap { POWER_CAP_LIMIT_W } else { POWER_LIMIT_W };
    let sim = GpuSim { timeline, trace, gpus, power_limit, episode: timeline.episode() };
    let mut cols = GpuColumns::default();
    for g in 0..gpus {
        let mut state = GpuState { temp: 38.0, energy: 0, viol_p: 0, viol_t: 0 };
        for &(s, ts) in &times {
            let second = sim.second(g, s, &mut state, &mut rng);
            let sample_us = 900 + (rng.uniform() * 600.0) as u32;
            cols.push(g, ts, &second, &state, power_limit, sample_us);
        }
    }
    cols.into_table()
}

/// What every GPU sample depends on: the scenario, the engine's activity and the power limit.
struct GpuSim<'a> {
    timeline: &'a Timeline,
    trace: &'a EngineTrace,
    gpus: u32,
    power_limit: f64,
    episode: (f64, f64),
}

/// One GPU's temperature and cumulative counters, carried from second to second.
struct GpuState {
    temp: f64,
    energy: u64,
    viol_p: u64,
    viol_t: u64,
}

/// One GPU in one second, as sampled.
struct GpuSecond {
    sm: u32,
    idle: bool,
    reasons: u64,
    temp_now: f64,
    power: f64,
    busy: f64,
    foreign: bool,
    server_share: f64,
}

impl GpuSim<'_> {
    /// Samples GPU `g` at second `s`, advancing its temperature, energy and violation counters.
    fn second(&self, g: u32, s: i64, state: &mut GpuState, rng: &mut SimRng) -> GpuSecond {
        let scenario = self.timeline.scenario;
        let t = s as f64;
        let busy = (at(&self.trace.busy_s, s)).clamp(0.0, 1.0);
        let batch = if busy > 0.0 { at(&self.trace.batch_time, s) / busy } else { 0.0 };
        let in_ep = self.timeline.in_episode(t);
        let thermal = scenario.throttles() && g == self.gpus - 1 && in_ep;
        let capped = scenario == Scenario::PowerCap && in_ep;
        let foreign = scenario == Scenario::ForeignProcess && in_ep;
        let mut reasons = 0u64;
        let mut ratio = 1.0;
        if thermal {
            ratio = THERMAL_CLOCK_RATIO;
            reasons |= 0x20;
        }
        if capped {
            ratio = POWER_CAP_CLOCK_RATIO;
            reasons |= 0x04;
        }
        let idle = busy < 0.02;
        let sm = if idle {
            reasons |= 0x01;
            SM_IDLE_MHZ
        } else {
            (SM_MAX_MHZ as f64 * ratio + rng.normal() * 8.0).round().min(SM_MAX_MHZ as f64) as u32
        };
        let demand = 75.0 + busy * (230.0 + 200.0 * (batch / 128.0).min(1.0)) * ratio.powf(1.5);
        let power_limit = self.power_limit;
        let power = if capped { power_limit * (0.975 + 0.025 * rng.uniform()) } else { (demand + rng.normal() * 6.0).min(power_limit * 0.9) };
        let target = 30.0 + power * 0.075 + self.ambient(g, t);
        state.temp += (target - state.temp) * (1.0 - (-1.0f64 / 30.0).exp());
        let temp_now = if thermal { state.temp.clamp(86.0, 90.0) } else { state.temp.min(85.5) } + rng.normal() * 0.3;
        state.energy += (power * 1000.0) as u64;
        if capped {
            state.viol_p += 1_000_000_000;
        }
        if thermal {
            state.viol_t += 1_000_000_000;
        }
        let server_share = if scenario == Scenario::MemoryPressure && in_ep { 0.985 } else { 0.80 };
        GpuSecond { sm, idle, reasons, temp_now, power, busy, foreign, server_share }
    }

    /// First-order thermal response to power; the thermal scenario adds a failing-fan
    /// heat load that builds up before the episode and fades after it.
    fn ambient(&self, g: u32, t: f64) -> f64 {
        let (ep_start, ep_end) = self.episode;
        if !(self.timeline.with_episode && self.timeline.scenario.throttles() && g == self.gpus - 1) {
            return 0.0;
        }
        let ramp_start = ep_start - 0.2 * self.timeline.duration_s;
        if t < ramp_start {
            0.0
        } else if t < ep_start {
            30.0 * (t - ramp_start) / (ep_start - ramp_start)
        } else if t < ep_end {
            30.0
        } else {
            30.0 * (-(t - ep_end) / 20.0).exp()
        }
    }
}

#[derive(Default)]
struct GpuColumns {
    ts: Vec<Option<i64>>,
    gpu_index: Vec<Option<u32>>,
    uuid: Vec<String>,
    sm: Vec<Option<u32>>,
    mem_clock: Vec<Option<u32>>,
    reasons: Vec<Option<u64>>,
    temp: Vec<Option<f64>>,
    temp_mem: Vec<Option<f64>>,
    power: Vec<Option<f64>>,
    power_limit: Vec<Option<f64>>,
    energy: Vec<Option<u64>>,
    util: Vec<Option<f64>>,
    util_mem: Vec<Option<f64>>,
    mem_used: Vec<Option<u64>>,
    viol_p: Vec<Option<u64>>,
    viol_t: Vec<Option<u64>>,
    pstate: Vec<Option<u32>>,
    procs: Vec<Option<u32>>,
    foreign: Vec<Option<u32>>,
    foreign_mem: Vec<Option<u64>>,
    sample_us: Vec<Option<u32>>,
}

impl GpuColumns {
    /// Appends GPU `g`'s sample taken at `ts`.
    fn push(&mut self, g: u32, ts: i64, x: &GpuSecond, state: &GpuState, power_limit: f64, sample_us: u32) {
        let foreign_mem = if x.foreign { FOREIGN_MEM } else { 0 };
        self.ts.push(Some(ts + g as i64 * 1_500_000));
        self.gpu_index.push(Some(g));
        self.uuid.push(gpu_uuid(g));
        self.sm.push(Some(x.sm));
        self.mem_clock.push(Some(if x.idle { 1593 } else { MEM_MAX_MHZ }));
        self.reasons.push(Some(x.reasons));
        self.temp.push(Some((x.temp_now * 10.0).round() / 10.0));
        self.temp_mem.push(Some(((x.temp_now + 4.0) * 10.0).round() / 10.0));
        self.power.push(Some((x.power * 100.0).round() / 100.0));
        self.power_limit.push(Some(power_limit));
        self.energy.push(Some(state.energy));
        self.util.push(Some((x.busy * 100.0).round()));
        self.util_mem.push(Some((x.busy * 60.0).round()));
        self.mem_used.push(Some((MEM_TOTAL as f64 * x.server_share) as u64 + foreign_mem));
        self.viol_p.push(Some(state.viol_p));
        self.viol_t.push(Some(state.viol_t));
        self.pstate.push(Some(if x.idle { 8 } else { 0 }));
        self.procs.push(Some(1 + x.foreign as u32));
        self.foreign.push(Some(x.foreign as u32));
        self.foreign_mem.push(Some(foreign_mem));
        self.sample_us.push(Some(sample_us));
    }

    /// The GPU table of the pushed samples.
    fn into_table(self) -> Result<Table, TableError> {
        let n = self.ts.len();
        let rep_str = |s: &str| utf8_column(std::iter::repeat_n(Some(s), n));
        Table::from_columns(
            TableKind::Gpu,
            vec![
                ("ts_ns", Column::Timestamp(self.ts)),
                ("host", rep_str(GPU_HOST)),
                ("gpu_index", Column::UInt32(self.gpu_index)),
                ("gpu_uuid", utf8_column(self.uuid.iter().map(|s| Some(s.as_str())))),
                ("source", rep_str("simulator")),
                ("sm_clock_mhz", Column::UInt32(self.sm)),
                ("sm_clock_max_mhz", Column::UInt32(vec![Some(SM_MAX_MHZ); n])),
                ("mem_clock_mhz", Column::UInt32(self.mem_clock)),
                ("mem_clock_max_mhz", Column::UInt32(vec![Some(MEM_MAX_MHZ); n])),
                ("clocks_event_reasons", Column::UInt64(self.reasons)),
                ("temp_gpu_c", Column::Float64(self.temp)),
                ("temp_mem_c", Column::Float64(self.temp_mem)),
                ("temp_slowdown_c", Column::Float64(vec![Some(TEMP_SLOWDOWN_C); n])),
                ("power_w", Column::Float64(self.power)),
                ("power_limit_w", Column::Float64(self.power_limit.clone())),
                ("enforced_power_limit_w", Column::Float64(self.power_limit)),
                ("energy_mj", Column::UInt64(self.energy)),
                ("util_gpu_pct", Column::Float64(self.util)),
                ("util_mem_pct", Column::Float64(self.util_mem)),
                ("mem_used_bytes", Column::UInt64(self.mem_used)),
                ("mem_total_bytes", Column::UInt64(vec![Some(MEM_TOTAL); n])),
                ("viol_power_ns", Column::UInt64(self.viol_p)),
                ("viol_thermal_ns", Column::UInt64(self.viol_t)),
                ("pstate", Column::UInt32(self.pstate)),
                ("compute_proc_count", Column::UInt32(self.procs)),
                ("foreign_proc_count", Column::UInt32(self.foreign)),
                ("foreign_mem_bytes", Column::UInt64(self.foreign_mem)),
                ("sample_us", Column::UInt32(self.sample_us)),
                ("errors", utf8_column(std::iter::repeat_n(None, n))),
            ],
        )
    }
}

/// One row per second for the load-generator host.
pub fn host_table(timeline: &Timeline, client: &[ClientSecond], open_loop: bool, grid: &SampleGrid, seed: u64) -> Result<Table, TableError> {
    let mut rng = SimRng::new(seed ^ 0x5eed, Stream::Telemetry);
    let times = grid.times(&mut rng);
    let mut c = HostColumns::default();
    let mut counters = HostCounters::default();
    let mut prev_ts: Option<i64> = None;
    for &(s, ts) in &times {
        let sec = if s < 0 { ClientSecond::default() } else { client.get(s as usize).cloned().unwrap_or_default() };
        let saturated = timeline.conditions(s as f64).client_capacity_share.is_some();
        let load = client_load(&sec, saturated, &mut rng);
        counters.advance(&sec, saturated, &mut rng);
        c.interval.push(prev_ts.map(|p| (ts - p) as f64 / 1e9));
        prev_ts = Some(ts);
        c.push(ts, &sec, open_loop, &load, &counters);
    }
    c.into_table()
}

/// The load generator's CPU in one second: its own share, its hottest thread, and the host's user and system time.
struct ClientLoad {
    lg: f64,
    hottest: f64,
    user: f64,
    system: f64,
}

/// The CPU the client used in one second: near a full core when saturated, else in proportion to its work.
fn client_load(sec: &ClientSecond, saturated: bool, rng: &mut SimRng) -> ClientLoad {
    const CORES: f64 = 16.0;
    let lg = if saturated { 97.0 + 3.0 * rng.uniform() } else { 6.0 + 0.008 * sec.chunks as f64 + 0.3 * sec.sent as f64 + rng.normal().abs() * 2.0 };
    let lg = lg.min(100.0);
    let hottest = if saturated { (lg * 0.995).min(100.0) } else { lg * 0.85 };
    let user = lg / CORES + 2.0 + rng.uniform();
    let system = 1.0 + 0.5 * rng.uniform();
    ClientLoad { lg, hottest, user, system }
}

/// The host's cumulative counters: context switches, network bytes and segments.
#[derive(Default)]
struct HostCounters {
    ctx: u64,
    rx: u64,
    tx: u64,
    out_segs: u64,
    retrans: u64,
    vol: u64,
    invol: u64,
}

impl HostCounters {
    /// Adds one second of the client's sends and chunks.
    fn advance(&mut self, sec: &ClientSecond, saturated: bool, rng: &mut SimRng) {
        self.ctx += 4_000 + sec.chunks * 2;
        self.rx += sec.chunks * 180 + 4_000;
        self.tx += sec.sent * 2_600 + 1_500;
        self.out_segs += sec.sent * 3 + sec.chunks / 8 + 20;
        self.retrans += u64::from(rng.chance(0.02));
        self.vol += sec.chunks / 2 + 50;
        self.invol += if saturated { 400 } else { 10 };
    }
}

#[derive(Default)]
struct HostColumns {
    ts: Vec<Option<i64>>,
    interval: Vec<Option<f64>>,
    user: Vec<Option<f64>>,
    system: Vec<Option<f64>>,
    iowait: Vec<Option<f64>>,
    steal: Vec<Option<f64>>,
    idle: Vec<Option<f64>>,
    ctx: Vec<Option<u64>>,
    running: Vec<Option<u32>>,
    load1: Vec<Option<f64>>,
    rx: Vec<Option<u64>>,
    tx: Vec<Option<u64>>,
    out_segs: Vec<Option<u64>>,
    retrans: Vec<Option<u64>>,
    lg_cpu: Vec<Option<f64>>,
    lg_thread: Vec<Option<f64>>,
    vol: Vec<Option<u64>>,
    invol: Vec<Option<u64>>,
    planned: Vec<Option<u64>>,
    sent: Vec<Option<u64>>,
    lag_p50: Vec<Option<f64>>,
    lag_p99: Vec<Option<f64>>,
    lag_max: Vec<Option<f64>>,
    inflight: Vec<Option<u32>>,
}

impl HostColumns {
    /// Appends the sample taken at `ts` (its interval is pushed by the caller).
    fn push(&mut self, ts: i64, sec: &ClientSecond, open_loop: bool, load: &ClientLoad, k: &HostCounters) {
        let ClientLoad { lg, hottest, user, system } = *load;
        let mut lags = sec.lags_ms.clone();
        lags.sort_by(f64::total_cmp);
        self.ts.push(Some(ts));
        self.user.push(Some(user));
        self.system.push(Some(system));
        self.iowait.push(Some(0.1));
        self.steal.push(Some(0.0));
        self.idle.push(Some(100.0 - user - system - 0.1));
        self.ctx.push(Some(k.ctx));
        self.running.push(Some(1 + (lg / 60.0) as u32));
        self.load1.push(Some(0.3 + lg / 100.0));
        self.rx.push(Some(k.rx));
        self.tx.push(Some(k.tx));
        self.out_segs.push(Some(k.out_segs));
        self.retrans.push(Some(k.retrans));
        self.lg_cpu.push(Some((lg * 10.0).round() / 10.0));
        self.lg_thread.push(Some((hottest * 10.0).round() / 10.0));
        self.vol.push(Some(k.vol));
        self.invol.push(Some(k.invol));
        self.planned.push(open_loop.then_some(sec.planned));
        self.sent.push(Some(sec.sent));
        self.lag_p50.push((open_loop && !lags.is_empty()).then(|| quantile_sorted(&lags, 0.5).unwrap_or(0.0)));
        self.lag_p99.push((open_loop && !lags.is_empty()).then(|| quantile_sorted(&lags, 0.99).unwrap_or(0.0)));
        self.lag_max.push((open_loop && !lags.is_empty()).then(|| lags[lags.len() - 1]));
        self.inflight.push(Some(sec.inflight));
    }

    /// The host table of the pushed samples.
    fn into_table(self) -> Result<Table, TableError> {
        let c = self;
        let n = c.ts.len();
        let rep_f = |v: f64| Column::Float64(vec![Some(v); n]);
        let rep_u = |v: u64| Column::UInt64(vec![Some(v); n]);
        Table::from_columns(
            TableKind::Host,
            vec![
                ("ts_ns", Column::Timestamp(c.ts)),
                ("host", utf8_column(std::iter::repeat_n(Some(CLIENT_HOST), n))),
                ("interval_s", Column::Float64(c.interval)),
                ("cpu_user_pct", Column::Float64(c.user)),
                ("cpu_system_pct", Column::Float64(c.system)),
                ("cpu_iowait_pct", Column::Float64(c.iowait)),
                ("cpu_steal_pct", Column::Float64(c.steal)),
                ("cpu_idle_pct", Column::Float64(c.idle)),
                ("ctx_switches", Column::UInt64(c.ctx)),
                ("procs_running", Column::UInt32(c.running)),
                ("load1", Column::Float64(c.load1)),
                ("psi_cpu_some_avg10", rep_f(0.0)),
                ("mem_total_bytes", rep_u(64 * GIB)),
                ("mem_available_bytes", rep_u(50 * GIB)),
                ("net_rx_bytes", Column::UInt64(c.rx)),
                ("net_tx_bytes", Column::UInt64(c.tx)),
                ("net_errs", rep_u(0)),
                ("net_drops", rep_u(0)),
                ("tcp_out_segs", Column::UInt64(c.out_segs)),
                ("tcp_retrans_segs", Column::UInt64(c.retrans)),
                ("tcp_timeouts", rep_u(0)),
                ("tcp_listen_overflows", rep_u(0)),
                ("cpu_governor", utf8_column(std::iter::repeat_n(Some("performance"), n))),
                ("cpu_freq_mhz_avg", rep_f(3400.0)),
                ("lg_pid", Column::UInt32(vec![Some(LOADGEN_PID); n])),
                ("lg_cpu_pct", Column::Float64(c.lg_cpu)),
                ("lg_max_thread_cpu_pct", Column::Float64(c.lg_thread)),
                ("lg_rss_bytes", rep_u(180 << 20)),
                ("lg_threads", Column::UInt32(vec![Some(4); n])),
                ("lg_vol_ctxsw", Column::UInt64(c.vol)),
                ("lg_invol_ctxsw", Column::UInt64(c.invol)),
                ("lg_planned_sends", Column::UInt64(c.planned)),
                ("lg_actual_sends", Column::UInt64(c.sent)),
                ("lg_send_lag_p50_ms", Column::Float64(c.lag_p50)),
                ("lg_send_lag_p99_ms", Column::Float64(c.lag_p99)),
                ("lg_send_lag_max_ms", Column::Float64(c.lag_max)),
                ("lg_dropped_sends", rep_u(0)),
                ("lg_inflight", Column::UInt32(c.inflight)),
            ],
        )
    }
}

/// Server metrics the engine exposes (vLLM names), one scrape per second.
pub fn server_table(timeline: &Timeline, trace: &EngineTrace, grid: &SampleGrid, kv_tokens: u64) -> Result<Table, TableError> {
    let mut ts = Vec::new();
    let mut metric = Vec::new();
    let mut value = Vec::new();
    for s in grid.first_s..=grid.last_s {
        let t = grid.epoch_ns + s * 1_000_000_000 + 500_000_000;
        let busy = at(&trace.busy_s, s);
        let norm = if busy > 0.0 { busy } else { 1.0 };
        let running = at(&trace.batch_time, s) / norm;
        let waiting = at(&trace.waiting_time, s) / norm;
        let available = kv_tokens as f64 * timeline.conditions(s as f64).kv_share;
        let kv = (at(&trace.kv_time, s) / norm / available).min(1.0);
        for (name, v) in [
            ("vllm:num_requests_running", running.round()),
            ("vllm:num_requests_waiting", waiting.round()),
            ("vllm:gpu_cache_usage_perc", (kv * 1000.0).round() / 1000.0),
        ] {
            ts.push(Some(t));
            metric.push(name);
            value.push(Some(v));
        }
    }
    let n = ts.len();
    Table::from_columns(
        TableKind::Server,
        vec![
            ("ts_ns", Column::Timestamp(ts)),
            ("endpoint", utf8_column(std::iter::repeat_n(Some("http://gpu-node-0:8000/metrics"), n))),
            ("metric", utf8_column(metric.into_iter().map(Some))),
            ("labels", utf8_column(std::iter::repeat_n(Some("model_name=\"sim-8b\""), n))),
            ("value", Column::Float64(value)),
        ],
    )
}
