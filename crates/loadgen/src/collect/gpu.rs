//! GPU sampling behind one trait: NVML on real machines (nvml-wrapper, loaded at run time, so
//! credence builds and tests without a driver), and a fake that scripts a throttle episode for
//! tests. Every field that cannot be read is None with the reason in `errors`.

use credence_run::rows::GpuSample;

/// Static facts about a GPU, read once.
#[derive(Debug, Clone, Default)]
pub struct GpuInfo {
    pub index: u32,
    pub uuid: String,
    pub name: String,
    pub slowdown_c: Option<f64>,
}

/// A compute process on a GPU.
#[derive(Debug, Clone)]
pub struct GpuProcessInfo {
    pub pid: u32,
    pub name: String,
    pub used_mem_bytes: Option<u64>,
}

/// A source of GPU samples.
pub trait GpuSource {
    fn devices(&self) -> Vec<GpuInfo>;
    /// One sample of device `i` at `ts_ns` (the caller fills host and timing fields).
    fn sample(&mut self, i: usize, ts_ns: i64) -> GpuSample;
    fn processes(&self, i: usize) -> Vec<GpuProcessInfo>;
    fn driver_version(&self) -> Option<String>;
    fn nvml_version(&self) -> Option<String>;
    /// CUDA driver API version, e.g. "12.4".
    fn cuda_version(&self) -> Option<String>;
    /// Persistence mode of every GPU (None when unreadable).
    fn persistence_mode(&self) -> Option<bool>;
    /// Whether any GPU runs application clocks other than its defaults.
    fn application_clocks_set(&self) -> Option<bool>;
}

/// A fake GPU set: steady load, with a thermal throttle episode between `throttle_from_s` and
/// `throttle_to_s` seconds after `start_ns` on the last GPU (reason 0x20, SM clock at 70 %,
/// temperature at the slowdown point, violation counter growing).
pub struct FakeGpus {
    pub count: u32,
    pub start_ns: i64,
    pub throttle: Option<(f64, f64)>,
    viol_thermal_ns: Vec<u64>,
    energy_mj: Vec<u64>,
}

impl FakeGpus {
    pub fn new(count: u32, start_ns: i64, throttle: Option<(f64, f64)>) -> FakeGpus {
        FakeGpus { count, start_ns, throttle, viol_thermal_ns: vec![0; count as usize], energy_mj: vec![0; count as usize] }
    }
}

impl GpuSource for FakeGpus {
    fn devices(&self) -> Vec<GpuInfo> {
        (0..self.count).map(|i| GpuInfo { index: i, uuid: format!("GPU-fake-{i:04}"), name: "Fake H100".into(), slowdown_c: Some(87.0) }).collect()
    }

    fn sample(&mut self, i: usize, ts_ns: i64) -> GpuSample {
        let t = (ts_ns - self.start_ns) as f64 / 1e9;
        let hot = i as u32 == self.count - 1 && self.throttle.is_some_and(|(a, b)| t >= a && t < b);
        if hot {
            self.viol_thermal_ns[i] += 1_000_000_000;
        }
        self.energy_mj[i] += 450_000;
        GpuSample {
            ts_ns,
            gpu_index: i as u32,
            gpu_uuid: format!("GPU-fake-{i:04}"),
            source: "nvml",
            sm_clock_mhz: Some(if hot { 1386 } else { 1980 }),
            sm_clock_max_mhz: Some(1980),
            mem_clock_mhz: Some(2619),
            mem_clock_max_mhz: Some(2619),
            clocks_event_reasons: Some(if hot { 0x20 } else { 0 }),
            temp_gpu_c: Some(if hot { 88.0 } else { 62.0 }),
            temp_mem_c: Some(if hot { 92.0 } else { 66.0 }),
            power_w: Some(if hot { 380.0 } else { 450.0 }),
            power_limit_w: Some(700.0),
            enforced_power_limit_w: Some(700.0),
            util_gpu_pct: Some(98.0),
            util_mem_pct: Some(60.0),
            mem_used_bytes: Some(64 << 30),
            mem_total_bytes: Some(80 << 30),
            pstate: Some(0),
            viol_power_ns: Some(0),
            viol_thermal_ns: Some(self.viol_thermal_ns[i]),
            temp_slowdown_c: Some(87.0),
            energy_mj: Some(self.energy_mj[i]),
            compute_proc_count: Some(1),
            foreign_proc_count: Some(0),
            foreign_mem_bytes: Some(0),
            ..Default::default()
        }
    }

    fn processes(&self, _i: usize) -> Vec<GpuProcessInfo> {
        vec![GpuProcessInfo { pid: 4242, name: "vllm".into(), used_mem_bytes: Some(60 << 30) }]
    }

    fn driver_version(&self) -> Option<String> {
        Some("fake".into())
    }

    fn nvml_version(&self) -> Option<String> {
        Some("fake".into())
    }

    fn cuda_version(&self) -> Option<String> {
        Some("12.4".into())
    }

    fn persistence_mode(&self) -> Option<bool> {
        Some(true)
    }

    fn application_clocks_set(&self) -> Option<bool> {
        Some(false)
    }
}

/// NVML through nvml-wrapper.
pub struct NvmlGpus {
    nvml: nvml_wrapper::Nvml,
    infos: Vec<GpuInfo>,
    /// `CREDENCE_TIMING` set: how long each NVML call takes is printed for the first samples
    /// (to find the expensive ones on a given driver).
    timing_left: u32,
    /// Board maximum SM and memory clocks per GPU, read once: they do not change, and on an
    /// H200 the two calls cost about 3 ms of an 8 ms sample.
    max_clocks: Vec<(Option<u32>, Option<u32>)>,
}

impl NvmlGpus {
    /// Loads `libnvidia-ml.so.1`; the error says what is missing.
    pub fn init() -> Result<NvmlGpus, String> {
        let nvml = nvml_wrapper::Nvml::init().map_err(|e| format!("NVML is not available: {e} (no NVIDIA driver on this machine?)"))?;
        let count = nvml.device_count().map_err(|e| format!("NVML: cannot count GPUs: {e}"))?;
        let (mut infos, mut max_clocks) = (Vec::new(), Vec::new());
        for i in 0..count {
            let d = nvml.device_by_index(i).map_err(|e| format!("NVML: GPU {i}: {e}"))?;
            use nvml_wrapper::enum_wrappers::device::Clock;
            max_clocks.push((d.max_clock_info(Clock::SM).ok(), d.max_clock_info(Clock::Memory).ok()));
            infos.push(GpuInfo {
                index: i,
                uuid: d.uuid().unwrap_or_else(|_| format!("index-{i}")),
                name: d.name().unwrap_or_default(),
                slowdown_c: d.temperature_threshold(nvml_wrapper::enum_wrappers::device::TemperatureThreshold::Slowdown).ok().map(f64::from),
            });
        }
        let timing_left = if std::env::var_os("CREDENCE_TIMING").is_some() { 3 } else { 0 };
        Ok(NvmlGpus { nvml, infos, timing_left, max_clocks })
    }
}

/// `nvmlDeviceGetCurrentClocksEventReasons`, called directly: every bit survives.
fn raw_reasons(nvml: &nvml_wrapper::Nvml, d: &nvml_wrapper::Device<'_>) -> Option<u64> {
    let lib = nvml.lib();
    if lib.nvmlDeviceGetCurrentClocksEventReasons.is_err() {
        return None;
    }
    let mut bits: std::os::raw::c_ulonglong = 0;
    // SAFETY: the handle belongs to a live device of this NVML instance, and the symbol exists.
    let ret = unsafe { lib.nvmlDeviceGetCurrentClocksEventReasons(d.handle(), &mut bits) };
    (ret == 0).then_some(bits)
}

/// NVML calls made one at a time, keeping each failure's reason and each call's duration.
struct Calls {
    errors: Vec<String>,
    timings: Vec<(&'static str, u128)>,
    lap: std::time::Instant,
}

impl Calls {
    /// Starts timing from now.
    fn new() -> Calls {
        Calls { errors: Vec::new(), timings: Vec::new(), lap: std::time::Instant::now() }
    }

    /// Records how long the step since the last one took.
    fn time(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        self.timings.push((name, now.duration_since(self.lap).as_micros()));
        self.lap = now;
    }

    /// A call's value, or None with its error kept under `name`.
    fn read<T, E: std::fmt::Debug>(&mut self, name: &'static str, result: Result<T, E>) -> Option<T> {
        let r = match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(format!("{}:{:?}", name, e));
                None
            }
        };
        self.time(name);
        r
    }
}

/// SM and memory clocks (current and board maximum) and the clock event reasons.
fn read_clocks(s: &mut GpuSample, calls: &mut Calls, nvml: &nvml_wrapper::Nvml, d: &nvml_wrapper::Device<'_>, max_clocks: (Option<u32>, Option<u32>)) {
    use nvml_wrapper::enum_wrappers::device::Clock;
    s.sm_clock_mhz = calls.read("sm_clock", d.clock_info(Clock::SM));
    (s.sm_clock_max_mhz, s.mem_clock_max_mhz) = max_clocks;
    s.mem_clock_mhz = calls.read("mem_clock", d.clock_info(Clock::Memory));
    // The raw bitmask keeps bits the wrapper does not name (0x200, 0x400); the wrapper's
    // decoded flags (which drop them) are the fallback on drivers without the symbol.
    s.clocks_event_reasons = raw_reasons(nvml, d).or_else(|| calls.read("reasons", d.current_throttle_reasons()).map(|r| r.bits()));
    calls.time("reasons_raw");
}

/// Compute processes on the GPU: how many, and how many (and how much memory) are foreign.
fn read_processes(s: &mut GpuSample, d: &nvml_wrapper::Device<'_>) {
    if let Ok(mut procs) = d.running_compute_processes() {
        use nvml_wrapper::enums::device::UsedGpuMemory;
        let mem = |p: &nvml_wrapper::struct_wrappers::device::ProcessInfo| match p.used_gpu_memory {
            UsedGpuMemory::Used(b) => b,
            UsedGpuMemory::Unavailable => 0,
        };
        procs.sort_by_key(|p| std::cmp::Reverse(mem(p)));
        // Foreign: every process but the one holding the most memory (the server).
        s.compute_proc_count = Some(procs.len() as u32);
        s.foreign_proc_count = Some(procs.len().saturating_sub(1) as u32);
        s.foreign_mem_bytes = Some(procs.iter().skip(1).map(mem).sum());
    }
}

/// Temperature, power and its limits, utilization, memory, violation counters and P-state.
fn read_power_and_memory(s: &mut GpuSample, calls: &mut Calls, d: &nvml_wrapper::Device<'_>) {
    use nvml_wrapper::enum_wrappers::device::{PerformancePolicy, PerformanceState, TemperatureSensor};
    s.temp_gpu_c = calls.read("temp_gpu", d.temperature(TemperatureSensor::Gpu)).map(f64::from);
    s.power_w = calls.read("power", d.power_usage()).map(|mw| f64::from(mw) / 1000.0);
    s.power_limit_w = calls.read("power_limit", d.power_management_limit()).map(|mw| f64::from(mw) / 1000.0);
    s.enforced_power_limit_w = calls.read("enforced_limit", d.enforced_power_limit()).map(|mw| f64::from(mw) / 1000.0);
    if let Some(u) = calls.read("utilization", d.utilization_rates()) {
        s.util_gpu_pct = Some(f64::from(u.gpu));
        s.util_mem_pct = Some(f64::from(u.memory));
    }
    if let Some(m) = calls.read("memory", d.memory_info()) {
        s.mem_used_bytes = Some(m.used);
        s.mem_total_bytes = Some(m.total);
    }
    s.viol_power_ns = calls.read("viol_power", d.violation_status(PerformancePolicy::Power)).map(|v| v.violation_time);
    s.viol_thermal_ns = calls.read("viol_thermal", d.violation_status(PerformancePolicy::Thermal)).map(|v| v.violation_time);
    s.pstate = calls.read("pstate", d.performance_state()).and_then(|p| match p {
        PerformanceState::Unknown => None,
        p => Some(p as u32),
    });
}

impl GpuSource for NvmlGpus {
    fn devices(&self) -> Vec<GpuInfo> {
        self.infos.clone()
    }

    fn sample(&mut self, i: usize, ts_ns: i64) -> GpuSample {
        let info = &self.infos[i];
        let mut s = GpuSample { ts_ns, gpu_index: info.index, gpu_uuid: info.uuid.clone(), source: "nvml", ..Default::default() };
        let Ok(d) = self.nvml.device_by_index(info.index) else {
            s.errors = Some("device:lost".into());
            return s;
        };
        let mut calls = Calls::new();
        read_clocks(&mut s, &mut calls, &self.nvml, &d, self.max_clocks.get(i).copied().unwrap_or((None, None)));
        s.temp_slowdown_c = info.slowdown_c;
        s.energy_mj = calls.read("energy", d.total_energy_consumption());
        read_processes(&mut s, &d);
        calls.time("processes");
        read_power_and_memory(&mut s, &mut calls, &d);
        s.errors = (!calls.errors.is_empty()).then(|| calls.errors.join(";"));
        if self.timing_left > 0 {
            self.timing_left -= 1;
            let parts: Vec<String> = calls.timings.iter().map(|(n, us)| format!("{n} {us} µs")).collect();
            eprintln!("timing: NVML sample of GPU {}: {}", info.index, parts.join(", "));
        }
        s
    }

    fn processes(&self, i: usize) -> Vec<GpuProcessInfo> {
        use nvml_wrapper::enums::device::UsedGpuMemory;
        let Ok(d) = self.nvml.device_by_index(self.infos[i].index) else { return Vec::new() };
        d.running_compute_processes()
            .unwrap_or_default()
            .into_iter()
            .map(|p| GpuProcessInfo {
                pid: p.pid,
                name: self.nvml.sys_process_name(p.pid, 64).unwrap_or_default(),
                used_mem_bytes: match p.used_gpu_memory {
                    UsedGpuMemory::Used(b) => Some(b),
                    UsedGpuMemory::Unavailable => None,
                },
            })
            .collect()
    }

    fn driver_version(&self) -> Option<String> {
        self.nvml.sys_driver_version().ok()
    }

    fn nvml_version(&self) -> Option<String> {
        self.nvml.sys_nvml_version().ok()
    }

    fn cuda_version(&self) -> Option<String> {
        self.nvml.sys_cuda_driver_version().ok().map(|v| format!("{}.{}", v / 1000, (v % 1000) / 10))
    }

    fn persistence_mode(&self) -> Option<bool> {
        let modes: Option<Vec<bool>> = self.infos.iter().map(|i| self.nvml.device_by_index(i.index).ok()?.is_in_persistent_mode().ok()).collect();
        modes.map(|m| m.iter().all(|x| *x))
    }

    fn application_clocks_set(&self) -> Option<bool> {
        use nvml_wrapper::enum_wrappers::device::Clock;
        let set: Option<Vec<bool>> = self
            .infos
            .iter()
            .map(|i| {
                let d = self.nvml.device_by_index(i.index).ok()?;
                Some(d.applications_clock(Clock::SM).ok()? != d.default_applications_clock(Clock::SM).ok()?)
            })
            .collect();
        set.map(|v| v.iter().any(|x| *x))
    }
}
