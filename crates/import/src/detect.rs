//! Format detection from the content (never from the file name alone: forks of the tools write
//! files with the same names and other shapes).

use std::path::Path;

use serde_json::Value;

use super::ImportError;
use credence_messages::Message;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Auto,
    Vllm,
    Sglang,
    PerfAnalyzer,
    Aiperf,
    Llmperf,
    LlmperfSummary,
    Mlperf,
    NvidiaSmi,
    NvidiaSmiDmon,
    Dcgm,
    AiperfGpu,
    MlperfTrace,
    Guidellm,
    /// inference-perf's `per_request_lifecycle_metrics.json`.
    InferencePerf,
    /// inference-perf's `summary_lifecycle_metrics.json` / `stage_N_lifecycle_metrics.json`.
    InferencePerfSummary,
    /// inference-perf's `inference-perf.partial.stage_N.yaml`.
    InferencePerfStage,
    /// inference-perf's `config.yaml`.
    InferencePerfConfig,
    MlcEndpoints,
    GenaiPerfAggregate,
    AiperfAggregate,
    AiperfLog,
    AiperfPhaseManifest,
    /// A known tool's file that credence does not read (its raw SSE export, a CSV twin of a
    /// JSON file read, a validation report): set aside, not refused. The key words it
    /// (`unsupported`).
    Unsupported(&'static str),
}

/// A known tool's file credence does not read (`Format::Unsupported`'s key), in words.
pub fn unsupported(key: &str) -> Message {
    Message::new("skip-unsupported").text("file", key)
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Vllm => "vllm",
            Format::Sglang => "sglang",
            Format::PerfAnalyzer => "perf-analyzer",
            Format::Aiperf => "aiperf",
            Format::Llmperf => "llmperf",
            Format::LlmperfSummary => "llmperf-summary",
            Format::Mlperf => "mlperf",
            Format::NvidiaSmi => "nvidia-smi",
            Format::NvidiaSmiDmon => "nvidia-smi-dmon",
            Format::Dcgm => "dcgm",
            Format::AiperfGpu => "aiperf-gpu-telemetry",
            Format::MlperfTrace => "mlperf-trace",
            Format::Guidellm => "guidellm",
            Format::InferencePerf => "inference-perf",
            Format::InferencePerfSummary => "inference-perf-summary",
            Format::InferencePerfStage => "inference-perf-stage-report",
            Format::InferencePerfConfig => "inference-perf-config",
            Format::MlcEndpoints => "mlc-endpoints",
            Format::GenaiPerfAggregate => "genai-perf-aggregate",
            Format::AiperfAggregate => "aiperf-aggregate",
            Format::AiperfLog => "aiperf-log",
            Format::AiperfPhaseManifest => "aiperf-phase-manifest",
            Format::Unsupported(n) => n,
        }
    }

    /// The names `from_name` takes, as the user types them.
    pub const NAMES: &[&str] = &[
        "auto",
        "vllm",
        "sglang",
        "perf-analyzer",
        "genai-perf",
        "aiperf",
        "llmperf",
        "guidellm",
        "inference-perf",
        "mlc-endpoints",
        "mlperf",
        "mlperf-trace",
        "nvidia-smi",
        "nvidia-smi-dmon",
        "dcgm",
    ];

    /// `--format` values.
    pub fn from_name(s: &str) -> Option<Format> {
        Some(match s {
            "auto" => Format::Auto,
            "vllm" => Format::Vllm,
            "sglang" => Format::Sglang,
            "perf-analyzer" | "genai-perf" => Format::PerfAnalyzer,
            "aiperf" => Format::Aiperf,
            "llmperf" => Format::Llmperf,
            "mlperf" => Format::Mlperf,
            "mlperf-trace" => Format::MlperfTrace,
            "nvidia-smi" => Format::NvidiaSmi,
            "nvidia-smi-dmon" => Format::NvidiaSmiDmon,
            "dcgm" => Format::Dcgm,
            "guidellm" => Format::Guidellm,
            "inference-perf" => Format::InferencePerf,
            "mlc-endpoints" => Format::MlcEndpoints,
            _ => return None,
        })
    }

    /// One of inference-perf's files (read together: see `inference_perf::parse_set`).
    pub fn is_inference_perf(self) -> bool {
        matches!(self, Format::InferencePerf | Format::InferencePerfSummary | Format::InferencePerfStage | Format::InferencePerfConfig)
    }
}

/// A JSON Lines format, known by the keys of its first complete record (whatever its length:
/// an AIPerf line with 800 tokens of chunk latencies is over 8 KB).
fn detect_json_lines(bytes: &[u8]) -> Option<Format> {
    let first_line = bytes.split(|&b| b == b'\n').find(|l| !l.trim_ascii().is_empty()).unwrap_or(b"");
    let quoted = super::json::quote_python_floats(first_line);
    let v = serde_json::from_slice::<Value>(quoted.as_deref().unwrap_or(first_line)).ok()?;
    if v.get("metadata").is_some() && v.get("metrics").is_some() {
        return Some(Format::Aiperf);
    }
    if v.get("metadata").is_some() && v.get("responses").is_some() {
        return Some(Format::Unsupported("aiperf-raw"));
    }
    if v.get("telemetry_data").is_some() && v.get("gpu_uuid").is_some() {
        return Some(Format::AiperfGpu);
    }
    if has_all(&v, &["ttfts", "itls"])
        || (v.get("server_info").is_some() && v.get("backend").is_some())
        || has_all(&v, &["backend", "request_rate", "completed"])
    {
        // vLLM's --append-result also writes object lines; SGLang writes no start_times.
        return Some(if v.get("start_times").is_some() { Format::Vllm } else { Format::Sglang });
    }
    if v.get("event_type").is_some() && v.get("timestamp_ns").is_some() {
        return Some(Format::MlcEndpoints);
    }
    None
}

fn has_all(v: &Value, keys: &[&str]) -> bool {
    keys.iter().all(|k| v.get(*k).is_some())
}

/// Detects one file's format from its content.
pub fn detect(path: &Path, bytes: &[u8]) -> Result<Format, ImportError> {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(8192)]);
    let trimmed = head.trim_start();
    if head.contains(":::MLLOG") || head.contains("MLPerf Results Summary") {
        return Ok(Format::Mlperf);
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if head.contains("traceEvents") || (name.contains("mlperf_log_trace") && (bytes.iter().all(u8::is_ascii_whitespace) || trimmed.starts_with('['))) {
        return Ok(Format::MlperfTrace);
    }
    if trimmed.starts_with("timestamp")
        && (head.contains("power.draw") || head.contains("clocks.") || head.contains("utilization.gpu") || head.contains("temperature.gpu"))
    {
        return Ok(Format::NvidiaSmi);
    }
    if trimmed.starts_with("# gpu") || trimmed.starts_with("#gpu") || trimmed.to_ascii_lowercase().starts_with("#date") {
        return Ok(Format::NvidiaSmiDmon);
    }
    if head.contains("DCGM_FI_") {
        return Ok(Format::Dcgm);
    }
    // Whole-file JSON first, then JSON Lines.
    let quoted = super::json::quote_python_floats(bytes);
    if let Ok(v) = serde_json::from_slice::<Value>(quoted.as_deref().unwrap_or(bytes)) {
        return match classify(&v) {
            Format::Unsupported("unknown-json") => Err(ImportError::worded(path, Message::new("skip-unknown-json"))
                .hint("pass --format if you know it; see `credence import --help` for the formats")),
            f => Ok(f),
        };
    }
    if let Some(f) = detect_json_lines(bytes) {
        return Ok(f);
    }
    // logs/aiperf.log: `2026-11-30 22:05:50.220 - aiperf.cli_runner… - INFO - Starting AIPerf System`.
    if trimmed.starts_with(|c: char| c.is_ascii_digit()) && (head.contains(" - aiperf.") || head.contains(" - PhaseRunner - ")) {
        return Ok(Format::AiperfLog);
    }
    if let Some(f) = detect_inference_perf_text(&head, bytes) {
        return Ok(f);
    }
    if let Some(f) = known_text_not_read(trimmed) {
        return Ok(f);
    }
    Err(ImportError::worded(path, Message::new("skip-unrecognised")).hint(
        "pass the format (vllm, sglang, perf-analyzer, aiperf, llmperf, guidellm, mlperf, inference-perf, mlc-endpoints, nvidia-smi, nvidia-smi-dmon, dcgm); a truncated JSON file is also reported this way: check that it is complete",
    ))
}

/// inference-perf's files that are not whole JSON: a per-request file cut short (still
/// recognisably its records, so that its parser names the record) and its YAML files (a stage
/// report, the resolved config); other text is no YAML credence reads.
fn detect_inference_perf_text(head: &str, bytes: &[u8]) -> Option<Format> {
    if super::inference_perf::looks_like_requests(head) {
        return Some(Format::InferencePerf);
    }
    let text = std::str::from_utf8(bytes).ok()?;
    if !text.trim_start().starts_with(|c: char| c.is_ascii_alphabetic()) || !text.contains(":\n") && !text.contains(": ") {
        return None;
    }
    let v: serde_yaml::Value = serde_yaml::from_str(text).ok()?;
    match super::inference_perf::yaml_kind(&v)? {
        super::inference_perf::Kind::StageReport => Some(Format::InferencePerfStage),
        super::inference_perf::Kind::Config => Some(Format::InferencePerfConfig),
        _ => None,
    }
}

/// Text files the tools write beside the files credence reads.
fn known_text_not_read(head: &str) -> Option<Format> {
    if head.starts_with("Metric,avg,min,max") {
        return Some(Format::Unsupported("aiperf-csv"));
    }
    if head.contains("NVIDIA AIPerf |") {
        return Some(Format::Unsupported("aiperf-console"));
    }
    None
}

/// JSON files the tools write beside the files credence reads.
fn known_json_not_read(v: &Value) -> Option<Format> {
    if v.get("global").is_some() && v.get("reports").is_some_and(Value::is_object) {
        return Some(Format::Unsupported("inference-perf-validation"));
    }
    if has_all(v, &["ready", "was_cancelled"]) {
        return Some(Format::Unsupported("aiperf-ready"));
    }
    if v.get("data").and_then(Value::as_array).and_then(|a| a.first()).is_some_and(|d| has_all(d, &["session_id", "payloads"])) {
        return Some(Format::Unsupported("aiperf-inputs"));
    }
    None
}

fn classify(v: &Value) -> Format {
    if let Some(f) = known_json_not_read(v) {
        return f;
    }
    if v.as_array().and_then(|a| a.first()).is_some_and(|r| r.get("ttft_s").is_some() && r.get("end_to_end_latency_s").is_some()) {
        return Format::Llmperf;
    }
    match super::inference_perf::json_kind(v) {
        Some(super::inference_perf::Kind::Requests) => return Format::InferencePerf,
        Some(super::inference_perf::Kind::Summary) => return Format::InferencePerfSummary,
        _ => {}
    }
    if v.get("experiments").is_some() && (v.get("service_kind").is_some() || v.get("version").is_some()) {
        return Format::PerfAnalyzer;
    }
    if v.get("time_to_first_token").is_some_and(|t| t.get("avg").is_some()) || v.get("request_throughput").is_some_and(|t| t.get("avg").is_some()) {
        return if v.get("benchmark_duration").is_some() || v.get("error_summary").is_some() { Format::AiperfAggregate } else { Format::GenaiPerfAggregate };
    }
    if v.get("phases").and_then(Value::as_array).and_then(|a| a.first()).is_some_and(|p| p.get("phase_kind").is_some() && p.get("start_ns").is_some()) {
        return Format::AiperfPhaseManifest;
    }
    if v.get("benchmarks").is_some() {
        return Format::Guidellm;
    }
    if v.get("results_ttft_s_quantiles_p50").is_some() {
        return Format::LlmperfSummary;
    }
    if v.get("server_info").is_some() && v.get("start_times").is_none() {
        return Format::Sglang;
    }
    if v.get("start_times").is_some() || v.get("request_throughput").is_some() || v.get("ttfts").is_some() {
        return Format::Vllm;
    }
    Format::Unsupported("unknown-json")
}
