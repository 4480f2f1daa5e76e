//! The notes credence's collectors (`collect`, `bench`) write into run.json beside an
//! environment item they could not read, or on a phase. They are plain strings in run.json
//! (other tools write that field too), so the report's other languages look credence's own
//! sentences up by these constants; anything else is a run string and stays as written.

pub const NO_CPUFREQ: &str = "no cpufreq in sysfs (common in VMs and containers)";
pub const NVML_DID_NOT_SAY: &str = "NVML did not say";
pub const NVML_COULD_NOT_READ: &str = "NVML could not read it";
pub const NVML_NO_APPLICATION_CLOCKS: &str = "NVML could not read application clocks";
pub const CLOCKS_LOCKED_UNREPORTED: &str = "NVML does not report locked clocks; check `nvidia-smi -q -d CLOCK`";
pub const NOT_READ: &str = "not read";
pub const NO_GPU_DATA: &str = "no GPU data";
pub const MEMINFO_UNREADABLE: &str = "/proc/meminfo unreadable";
pub const SERVER_RESTART_UNKNOWN: &str = "credence cannot tell; record it with --label server_restarted=true";
pub const MODEL_PATH_UNKNOWN: &str = "not known to the collector; use --config model=…";
pub const ENGINE_VERSION_UNKNOWN: &str = "not known to the collector; use --config engine_version=…";
pub const UNREADABLE: &str = "unreadable";
pub const GPUS_NOT_SAMPLED: &str = "GPUs not sampled: give --collect-gpu auto, or run credence collect beside the benchmark";
pub const FAKE_GPUS: &str = "fake GPUs (CREDENCE_FAKE_GPUS test hook)";
pub const TELEMETRY_ONLY_PHASES: &str = "telemetry only: the requests come from the load generator's own run directory or an import";
pub const WARMUP_MARKED: &str = "warmup requests are marked phase=warmup, not deleted";
/// `GPU sampling off (FLAG off)`, FLAG being the option that turned it off.
pub fn gpu_sampling_off(flag: &str) -> String {
    format!("GPU sampling off ({flag} off)")
}
