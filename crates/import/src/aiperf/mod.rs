//! AIPerf (0.13.0): `profile_export.jsonl` (one record per request: the request source),
//! `profile_export_aiperf.json` (the summary: claims, facts, workload, version),
//! `logs/aiperf.log` and `phase_manifest.json` (facts), `gpu_telemetry_export.jsonl`
//! (telemetry). Given together, `combine` joins them: the summary's throughputs divide by the
//! phase window that only the other files record.
//!
//! fixtures/peers/FORMATS.md ("aiperf 0.13.0") describes every field and trap.

mod aggregate;
mod gpu;
mod records;
mod side_files;
mod totals;
mod values;

pub use aggregate::parse_aggregate;
pub use gpu::parse_gpu;
pub use records::parse;
pub use side_files::{parse_log, parse_phase_manifest};

use super::{Format, Part};
use credence_run::claims::RawValues;

/// credence's name for an AIPerf metric tag where credence has the metric, else the tag.
pub(crate) fn metric_name(tag: &str) -> &str {
    match tag {
        "time_to_first_token" => "ttft",
        "request_latency" => "e2e",
        // Per request, (last content chunk − first token) / (output tokens − 1): a TPOT.
        "inter_token_latency" => "tpot",
        // Every gap between content chunks, pooled: credence's ITL.
        "inter_chunk_latency" => "itl",
        "time_to_second_token" => "ttst",
        "output_sequence_length" => "output_tokens",
        "input_sequence_length" => "input_tokens",
        "request_throughput" => "requests_per_s",
        "output_token_throughput" => "output_tokens_per_s",
        "input_token_throughput" => "input_tokens_per_s",
        "total_token_throughput" => "total_tokens_per_s",
        other => other,
    }
}

/// AIPerf's definition of a number where credence's differs or where the files cannot give it
/// (the audit shows it as the reason).
pub(crate) fn definition(tag: &str, warmup: bool) -> Option<&'static str> {
    Some(match tag {
        "request_throughput" | "output_token_throughput" | "input_token_throughput" | "total_token_throughput" if warmup => {
            "def-aiperf-warmup-window"
        }
        "request_throughput" | "output_token_throughput" | "input_token_throughput" | "total_token_throughput" => {
            "def-aiperf-profiling-window"
        }
        "inter_token_latency" => {
            "def-aiperf-itl"
        }
        "benchmark_duration" => "def-aiperf-duration",
        t if t.starts_with("adj_") => "def-aiperf-error-adjusted",
        "osl_mismatch_count" => {
            "def-aiperf-osl-mismatch"
        }
        "usage_discrepancy_count" => {
            "def-aiperf-usage-discrepancy"
        }
        "context_overflow_count" => {
            "def-aiperf-context-overflow"
        }
        t if is_sweep(t) => {
            "def-aiperf-sweep-line"
        }
        _ => return None,
    })
}

/// The concurrency and throughput-over-time metrics AIPerf derives from its sweep line.
fn is_sweep(tag: &str) -> bool {
    (tag.starts_with("effective_") && tag != "effective_latency") || tag.starts_with("active_") || tag == "tokens_in_flight"
}

/// Joins AIPerf's files given together into the request source (`profile_export.jsonl`): the
/// summary's workload, model and version, and the throughputs, which divide the records' counts
/// by the phase window that only the summary, the phase manifest or the requests' span give.
pub(crate) fn combine(parts: &mut [Part]) {
    let Some(main) = parts.iter().position(|p| p.1 == Format::Aiperf) else { return };
    let side = |f: Format| parts.iter().find(|p| p.1 == f).map(|p| &p.2);
    let facts: Vec<(String, String)> =
        [Format::AiperfAggregate, Format::AiperfPhaseManifest].into_iter().filter_map(side).flat_map(|p| p.facts.iter().cloned()).collect();
    let summary = side(Format::AiperfAggregate).map(|a| (a.workload.clone(), a.tool_version.clone(), a.config.clone(), a.phases.note.clone()));
    let m = &mut parts[main].2;
    if let Some((workload, version, config, phases)) = summary {
        m.workload = workload.or(m.workload.take());
        m.tool_version = version.or(m.tool_version.take());
        m.config = config;
        m.phases.note = [m.phases.note.take(), phases].into_iter().flatten().reduce(|a, b| format!("{a}; {b}"));
    }
    let fact = |k: &str| facts.iter().find(|f| f.0 == k).and_then(|f| f.1.parse::<f64>().ok());
    let cancelled = facts.iter().any(|f| f.0 == "aiperf.was_cancelled" && f.1 == "true");
    // A cancelled run has no end of its requests: AIPerf falls back to benchmark_duration.
    let profiling = if cancelled {
        m.raw.get("benchmark_duration").and_then(|d| d.first().copied())
    } else {
        fact("aiperf.manifest.profiling.window_s").or_else(|| fact("aiperf.window_s"))
    };
    throughputs(&mut m.raw, "", profiling);
    throughputs(&mut m.raw, "warmup.", fact("aiperf.manifest.warmup.window_s"));
}

/// AIPerf's four throughputs of a phase (metrics prefixed by `prefix`) over `window_s`.
fn throughputs(raw: &mut RawValues, prefix: &str, window_s: Option<f64>) {
    let Some(w) = window_s.filter(|w| *w > 0.0) else { return };
    let total = |k: &str| raw.get(&format!("{prefix}{k}")).map(|v| v.iter().filter(|x| x.is_finite()).sum::<f64>());
    let (Some(count), Some(osl), Some(isl)) = (total("request_count"), total("output_tokens"), total("input_tokens")) else { return };
    for (k, x) in [("requests_per_s", count), ("output_tokens_per_s", osl), ("input_tokens_per_s", isl), ("total_tokens_per_s", osl + isl)] {
        raw.insert(format!("{prefix}{k}"), vec![x / w]);
    }
}
