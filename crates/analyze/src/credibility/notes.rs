//! The note a producer wrote into run.json beside a value it could not read, as a message
//! argument: credence's own collector notes (`run::env_notes`) are catalog messages that every
//! language words; a note another tool wrote is its own text and stays as written.

use credence_messages::{Arg, Message};
use credence_run::env_notes as notes;

/// credence's collector notes and their catalog keys (`note-collector` in `locales/*/common.ftl`).
const COLLECTOR_NOTES: [(&str, &str); 16] = [
    (notes::NO_CPUFREQ, "no_cpufreq"),
    (notes::NVML_DID_NOT_SAY, "nvml_did_not_say"),
    (notes::NVML_COULD_NOT_READ, "nvml_could_not_read"),
    (notes::NVML_NO_APPLICATION_CLOCKS, "nvml_no_application_clocks"),
    (notes::CLOCKS_LOCKED_UNREPORTED, "clocks_locked_unreported"),
    (notes::NOT_READ, "not_read"),
    (notes::NO_GPU_DATA, "no_gpu_data"),
    (notes::MEMINFO_UNREADABLE, "meminfo_unreadable"),
    (notes::SERVER_RESTART_UNKNOWN, "server_restart_unknown"),
    (notes::MODEL_PATH_UNKNOWN, "model_path_unknown"),
    (notes::ENGINE_VERSION_UNKNOWN, "engine_version_unknown"),
    (notes::UNREADABLE, "unreadable"),
    (notes::GPUS_NOT_SAMPLED, "gpus_not_sampled"),
    (notes::FAKE_GPUS, "fake_gpus"),
    (notes::TELEMETRY_ONLY_PHASES, "telemetry_only_phases"),
    (notes::WARMUP_MARKED, "warmup_marked"),
];

/// The note as an argument: a message when credence wrote it, the text itself otherwise; "not
/// recorded" when there is none.
pub fn note_arg(note: Option<&str>) -> Arg {
    let note = note.unwrap_or("not recorded");
    let message = if note == "not recorded" {
        Some(Message::new("note-not-recorded"))
    } else if let Some(tool) = note.strip_prefix("not recorded by ") {
        Some(Message::new("note-not-recorded-by").text("tool", tool))
    } else if let Some(flag) = note.strip_prefix("GPU sampling off (").and_then(|r| r.strip_suffix(" off)")) {
        Some(Message::new("note-gpu-sampling-off").text("flag", flag))
    } else {
        COLLECTOR_NOTES.iter().find(|(text, _)| *text == note).map(|(_, key)| Message::new("note-collector").text("note", *key))
    };
    message.map_or_else(|| Arg::Text(note.to_string()), |m| Arg::Msg(Box::new(m)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use credence_messages::Lang;

    fn rendered(note: Option<&str>, lang: Lang) -> String {
        Message::new("unknown").arg("note", note_arg(note)).render(lang)
    }

    #[test]
    fn credences_notes_read_back_word_for_word_in_english_and_are_worded_in_chinese() {
        for (text, _) in COLLECTOR_NOTES {
            assert_eq!(rendered(Some(text), Lang::En), format!("unknown: {text}"));
            assert!(!rendered(Some(text), Lang::Zh).contains(text), "{text} is worded in Chinese");
        }
        assert_eq!(rendered(Some(&notes::gpu_sampling_off("--collect-gpu")), Lang::En), "unknown: GPU sampling off (--collect-gpu off)");
        assert_eq!(rendered(Some(&notes::gpu_sampling_off("--collect-gpu")), Lang::Zh), "未知：已关闭 GPU 采样（--collect-gpu off）");
        assert_eq!(rendered(None, Lang::Zh), "未知：未记录");
        assert_eq!(rendered(Some("not recorded by vllm"), Lang::Zh), "未知：vllm 未记录此项");
        assert_eq!(rendered(Some("NVML: driver not loaded"), Lang::Zh), "未知：NVML: driver not loaded", "another tool's note stays as written");
    }
}
