//! credence's collector notes (`run::env_notes`) in Chinese; a note another tool wrote into
//! run.json stays as written.

use credence_run::env_notes as notes;

/// (credence's note, Chinese).
const NOTES: [(&str, &str); 16] = [
    (notes::NO_CPUFREQ, "sysfs 中没有 cpufreq（虚拟机和容器中常见）"),
    (notes::NVML_DID_NOT_SAY, "NVML 未给出"),
    (notes::NVML_COULD_NOT_READ, "NVML 无法读取"),
    (notes::NVML_NO_APPLICATION_CLOCKS, "NVML 无法读取应用时钟"),
    (notes::CLOCKS_LOCKED_UNREPORTED, "NVML 不报告锁频状态；请用 `nvidia-smi -q -d CLOCK` 检查"),
    (notes::NOT_READ, "未读取"),
    (notes::NO_GPU_DATA, "没有 GPU 数据"),
    (notes::MEMINFO_UNREADABLE, "/proc/meminfo 无法读取"),
    (notes::SERVER_RESTART_UNKNOWN, "credence 无法判断；请用 --label server_restarted=true 记录"),
    (notes::MODEL_PATH_UNKNOWN, "采集器不知道；请用 --config model=… 指定"),
    (notes::ENGINE_VERSION_UNKNOWN, "采集器不知道；请用 --config engine_version=… 指定"),
    (notes::UNREADABLE, "无法读取"),
    (notes::GPUS_NOT_SAMPLED, "未采集 GPU 数据：请使用 --collect-gpu auto，或在压测旁运行 credence collect"),
    (notes::FAKE_GPUS, "模拟 GPU（CREDENCE_FAKE_GPUS 测试钩子）"),
    (notes::TELEMETRY_ONLY_PHASES, "仅遥测：请求数据来自压测工具自己的运行目录或导入的文件"),
    (notes::WARMUP_MARKED, "预热请求标记为 phase=warmup，并未删除"),
];

/// A collector note in Chinese when it is one of credence's; otherwise as written.
pub fn env_note(note: &str) -> String {
    if let Some(flag) = note.strip_prefix("GPU sampling off (").and_then(|r| r.strip_suffix(" off)")) {
        return format!("已关闭 GPU 采样（{flag} off）");
    }
    NOTES.iter().find(|(en, _)| *en == note).map_or_else(|| note.to_string(), |(_, zh)| zh.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credences_notes_are_worded_and_others_kept() {
        assert_eq!(env_note(notes::NOT_READ), "未读取");
        assert_eq!(env_note(&notes::gpu_sampling_off("--collect-gpu")), "已关闭 GPU 采样（--collect-gpu off）");
        assert_eq!(env_note("NVML: driver not loaded"), "NVML: driver not loaded");
    }
}
