//! The pre-run environment snapshot: each item of the practitioner's checklist, read or marked
//! unknown with the reason. Also the list of problems `--strict-env` refuses to start with.

use std::fs::read_to_string;

use super::gpu::GpuSource;
use credence_run::env_notes as notes;
use credence_run::manifest::{Environment, GpuProcess, Observed};

fn first_line(path: &str) -> Option<String> {
    read_to_string(path).ok().map(|s| s.lines().next().unwrap_or("").trim().to_string()).filter(|s| !s.is_empty())
}

/// Governors of every core: one name, or `mixed`.
fn governor() -> Observed<String> {
    let all: Vec<String> = (0..1024).map_while(|i| first_line(&format!("/sys/devices/system/cpu/cpu{i}/cpufreq/scaling_governor"))).collect();
    match all.first() {
        None => Observed::unknown(notes::NO_CPUFREQ),
        Some(g) if all.iter().all(|x| x == g) => Observed::known(g.clone()),
        Some(_) => Observed::known("mixed".into()),
    }
}

fn drop_caches(requested: bool) -> Observed<bool> {
    if !requested {
        return Observed { value: Some(false), note: Some("not dropped (pass --drop-caches as root to drop them)".into()) };
    }
    // SAFETY: sync takes no arguments and cannot fail.
    unsafe extern "C" {
        fn sync();
    }
    unsafe { sync() };
    match std::fs::write("/proc/sys/vm/drop_caches", "3\n") {
        Ok(()) => Observed::known(true),
        Err(e) => Observed { value: Some(false), note: Some(format!("could not drop the page cache: {e} (needs root)")) },
    }
}

/// The snapshot, and what `--strict-env` would refuse to start with.
pub fn snapshot(gpus: Option<&mut (dyn GpuSource + 'static)>, drop: bool, gpu_note: Option<&str>) -> (Environment, Vec<String>) {
    let mut problems = Vec::new();
    let no_gpu = gpu_note.unwrap_or(notes::NO_GPU_DATA).to_string();
    let mut e = host_snapshot(&no_gpu, drop);
    if e.cpu_governor.value.as_deref().is_some_and(|g| g != "performance") {
        problems.push(format!("CPU governor is {:?}: set performance (cpupower frequency-set -g performance)", e.cpu_governor.value.as_deref().unwrap_or("")));
    }
    if let Some(g) = gpus {
        let n = g.devices().len();
        gpu_heat(&mut e, g, n, &mut problems);
        e.foreign_gpu_processes = foreign_processes(g, n, &mut problems);
        e.driver_version = g.driver_version().map_or_else(|| Observed::unknown(notes::NVML_DID_NOT_SAY), Observed::known);
        e.nvml_version = g.nvml_version().map_or_else(|| Observed::unknown(notes::NVML_DID_NOT_SAY), Observed::known);
        e.cuda_version = g.cuda_version().map_or_else(|| Observed::unknown(notes::NVML_DID_NOT_SAY), Observed::known);
        e.persistence_mode = g.persistence_mode().map_or_else(|| Observed::unknown(notes::NVML_COULD_NOT_READ), Observed::known);
        e.application_clocks_set = g.application_clocks_set().map_or_else(|| Observed::unknown(notes::NVML_NO_APPLICATION_CLOCKS), Observed::known);
    }
    (e, problems)
}

/// The host's items of the checklist; the GPU items stay unknown with `no_gpu` as the reason.
fn host_snapshot(no_gpu: &str, drop: bool) -> Environment {
    let mut e = Environment {
        gpu_temp_at_start_c: Observed::unknown(no_gpu),
        gpu_cooling_down: Observed::unknown(no_gpu),
        foreign_gpu_processes: Observed::unknown(no_gpu),
        clocks_locked: Observed::unknown(notes::CLOCKS_LOCKED_UNREPORTED),
        application_clocks_set: Observed::unknown(notes::NOT_READ),
        persistence_mode: Observed::unknown(notes::NOT_READ),
        cpu_governor: governor(),
        gpu_memory_used_bytes: Observed::unknown(no_gpu),
        host_memory_used_bytes: Observed::unknown(notes::MEMINFO_UNREADABLE),
        page_cache_dropped: drop_caches(drop),
        server_restarted: Observed::unknown(notes::SERVER_RESTART_UNKNOWN),
        model_path: Observed::unknown(notes::MODEL_PATH_UNKNOWN),
        driver_version: Observed::unknown(no_gpu),
        cuda_version: Observed::unknown(notes::NOT_READ),
        nvml_version: Observed::unknown(no_gpu),
        engine_version: Observed::unknown(notes::ENGINE_VERSION_UNKNOWN),
        kernel: first_line("/proc/sys/kernel/osrelease").map_or_else(|| Observed::unknown(notes::UNREADABLE), Observed::known),
        cpu_model: read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|c| c.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, m)| m.trim().to_string()))
            .map_or_else(|| Observed::unknown(notes::UNREADABLE), Observed::known),
        prefix_cache_reset: Observed::default(),
    };
    if let Ok(m) = read_to_string("/proc/meminfo") {
        let k = |key: &str| m.lines().find(|l| l.starts_with(key)).and_then(|l| l.split_whitespace().nth(1)).and_then(|x| x.parse::<u64>().ok());
        if let (Some(t), Some(a)) = (k("MemTotal:"), k("MemAvailable:")) {
            e.host_memory_used_bytes = Observed::known((t - a) * 1024);
        }
    }
    e
}

/// Temperature, cooling and memory in use from two GPU readings one second apart.
fn gpu_heat(e: &mut Environment, g: &mut (dyn GpuSource + 'static), n: usize, problems: &mut Vec<String>) {
    let first: Vec<_> = (0..n).map(|i| g.sample(i, super::now_ns())).collect();
    std::thread::sleep(std::time::Duration::from_secs(1));
    let second: Vec<_> = (0..n).map(|i| g.sample(i, super::now_ns())).collect();
    let t1 = second.iter().filter_map(|s| s.temp_gpu_c).fold(f64::NAN, f64::max);
    if t1.is_finite() {
        e.gpu_temp_at_start_c = Observed::known(t1);
        // Still falling by 2 °C or more within a second on some GPU: heat from an earlier
        // load. (NVML reports whole degrees, and an idle H200 flickers by 1 °C: seen on a
        // real one, so a 1 °C drop is not evidence.)
        let cooling = first.iter().zip(&second).any(|(a, b)| matches!((a.temp_gpu_c, b.temp_gpu_c), (Some(x), Some(y)) if x - y >= 2.0));
        e.gpu_cooling_down = Observed::known(cooling);
        if t1 >= 50.0 || cooling {
            problems.push(format!("the GPU is at {t1:.0} °C{}: let it cool below 50 °C", if cooling { " and still cooling" } else { "" }));
        }
    }
    e.gpu_memory_used_bytes = Observed::known(second.iter().filter_map(|s| s.mem_used_bytes).sum());
}

/// Every compute process but the largest on each GPU (taken to be the server under test).
fn foreign_processes(g: &(dyn GpuSource + 'static), n: usize, problems: &mut Vec<String>) -> Observed<Vec<GpuProcess>> {
    let mut foreign = Vec::new();
    for i in 0..n {
        let mut procs = g.processes(i);
        procs.sort_by_key(|p| std::cmp::Reverse(p.used_mem_bytes.unwrap_or(0)));
        foreign.extend(procs.into_iter().skip(1).map(|p| GpuProcess { gpu_index: i as u32, pid: p.pid, name: p.name, used_mem_bytes: p.used_mem_bytes }));
    }
    if !foreign.is_empty() {
        problems.push(format!("{} other compute process(es) on the GPUs (e.g. pid {} {}): stop them", foreign.len(), foreign[0].pid, foreign[0].name));
    }
    Observed { value: Some(foreign), note: Some("every compute process except the one holding the most memory on each GPU (taken to be the server)".into()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::gpu::{GpuInfo, GpuProcessInfo};
    use credence_run::rows::GpuSample;

    /// One GPU whose temperature readings come from a list, in order.
    struct Temps(Vec<f64>);

    impl GpuSource for Temps {
        fn devices(&self) -> Vec<GpuInfo> {
            vec![GpuInfo { index: 0, uuid: "GPU-test".into(), name: "test".into(), slowdown_c: None }]
        }
        fn sample(&mut self, _: usize, ts_ns: i64) -> GpuSample {
            let t = if self.0.len() > 1 { self.0.remove(0) } else { self.0[0] };
            GpuSample { ts_ns, temp_gpu_c: Some(t), ..Default::default() }
        }
        fn processes(&self, _: usize) -> Vec<GpuProcessInfo> {
            Vec::new()
        }
        fn driver_version(&self) -> Option<String> {
            None
        }
        fn nvml_version(&self) -> Option<String> {
            None
        }
        fn cuda_version(&self) -> Option<String> {
            None
        }
        fn persistence_mode(&self) -> Option<bool> {
            None
        }
        fn application_clocks_set(&self) -> Option<bool> {
            None
        }
    }

    #[test]
    fn cooling_needs_a_real_drop_not_a_one_degree_flicker() {
        // An idle H200 read 39 °C then 38 °C: not cooling. A GPU fresh from a load: cooling.
        for (temps, cooling) in [(vec![39.0, 38.0], false), (vec![38.0, 38.0], false), (vec![71.0, 66.0], true)] {
            let mut g = Temps(temps);
            let (e, _) = snapshot(Some(&mut g), false, None);
            assert_eq!(e.gpu_cooling_down.value, Some(cooling));
        }
    }
}
