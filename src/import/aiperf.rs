//! AIPerf `profile_export.jsonl`: one record per request with epoch-ns metadata and metrics.

use std::path::Path;

use serde_json::Value;

use super::json::parse_lines;
use super::{ImportError, ImportOptions, Imported};
use crate::run::manifest::{Capabilities, TimestampQuality, Workload};
use crate::run::rows::{GpuSample, Request, chunk_times, error_kind};

fn metric<'a>(v: &'a Value, name: &str) -> Option<&'a Value> {
    v.get("metrics")?.get(name)?.get("value")
}

/// A metric in ms (AIPerf records the unit beside each value).
fn ms(v: &Value, name: &str) -> Option<f64> {
    let m = v.get("metrics")?.get(name)?;
    let x = m.get("value")?.as_f64()?;
    Some(match m.get("unit").and_then(Value::as_str).unwrap_or("ms") {
        "ns" => x / 1e6,
        "us" => x / 1e3,
        "s" => x * 1e3,
        _ => x,
    })
}

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let mut out = Imported { tool: "aiperf".into(), ..Default::default() };
    let (mut raw_ttft, mut raw_e2e) = (Vec::new(), Vec::new());
    let mut warmup = 0u64;
    for (line, v) in parse_lines(path, bytes)? {
        let (request, ttft) = record(path, line, &v)?;
        if request.phase == Some("warmup") {
            warmup += 1;
        }
        if request.ok && request.phase != Some("warmup") {
            if let Some(t) = ttft {
                raw_ttft.push(t);
            }
            if let Some(l) = ms(&v, "request_latency") {
                raw_e2e.push(l);
            }
        }
        out.requests.push(request);
    }
    out.raw.insert("ttft".into(), raw_ttft);
    out.raw.insert("e2e".into(), raw_e2e);
    out.timestamps = Some(TimestampQuality::Absolute);
    out.conversion.push("AIPerf metadata times are epoch ns (request_start_ns, request_end_ns)".into());
    out.workload = Some(Workload { streaming: Some(true), ..Workload::unknown() });
    out.phases.warmup_requests = Some(warmup);
    out.phases.warmup_included = Some(warmup > 0);
    out.capabilities = Some(Capabilities {
        timestamps: "absolute".into(),
        scheduled_times: false,
        itl: "chunk".into(),
        warmup: if warmup > 0 { "included".into() } else { "unknown".into() },
        notes: vec!["for reasoning models time_to_first_token counts reasoning tokens".into()],
    });
    Ok(out)
}

/// One line's request, and its TTFT in ms as AIPerf measured it.
fn record(path: &Path, line: usize, v: &Value) -> Result<(Request, Option<f64>), ImportError> {
    let md = v.get("metadata").ok_or_else(|| {
        ImportError::new(path, Some(format!("line {line}, key metadata")), "expected an object with request_start_ns and request_end_ns; it is missing")
    })?;
    let get = |k: &str| md.get(k).and_then(Value::as_i64);
    let start = get("request_start_ns")
        .ok_or_else(|| ImportError::new(path, Some(format!("line {line}, key metadata.request_start_ns")), "expected epoch ns (an integer)"))?;
    let end = get("request_end_ns")
        .or(get("cancellation_time_ns"))
        .ok_or_else(|| ImportError::new(path, Some(format!("line {line}, key metadata.request_end_ns")), "expected epoch ns (an integer)"))?;
    let err = v.get("error").filter(|e| !e.is_null());
    let cancelled = md.get("was_cancelled").and_then(Value::as_bool).unwrap_or(false);
    let ok = err.is_none() && !cancelled;
    let ttft = ms(v, "time_to_first_token");
    let first = ttft.filter(|_| ok).map(|t| start + (t * 1e6) as i64);
    let chunks = first.and_then(|f0| Some(chunk_times(f0, metric(v, "inter_chunk_latency")?.as_array()?.iter().filter_map(Value::as_f64), 1e6)));
    let phase = match md.get("benchmark_phase").and_then(Value::as_str) {
        Some("warmup") => Some("warmup"),
        Some(_) => Some("measure"),
        None => None,
    };
    let message = err.map(|e| e.get("message").and_then(Value::as_str).unwrap_or("").to_string());
    let code = err.and_then(|e| e.get("code")).and_then(Value::as_u64).map(|c| c as u32);
    let request = Request {
        id: md.get("x_request_id").and_then(Value::as_str).map_or_else(|| format!("line{line}"), String::from),
        sent_ns: start,
        first_token_ns: first,
        end_ns: end.max(chunks.as_ref().and_then(|c| c.last().copied()).unwrap_or(end)),
        chunk_ns: chunks,
        input_tokens: metric(v, "input_sequence_length").and_then(Value::as_f64).map(|x| x as u32),
        output_tokens: metric(v, "output_sequence_length").or(metric(v, "output_token_count")).and_then(Value::as_f64).map(|x| x as u32),
        ok,
        error_kind: (!ok).then(|| if cancelled { "cancelled" } else { error_kind(message.as_deref().unwrap_or(""), code) }),
        error_message: message,
        http_status: code,
        phase,
        ..Default::default()
    };
    Ok((request, ttft))
}

/// AIPerf `gpu_telemetry_export.jsonl`: one record per GPU per scrape of dcgm-exporter
/// (`timestamp_ns`, `gpu_uuid`, `telemetry_data{…}`; memory in GB, violations in µs).
pub fn parse_gpu(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let mut out = Imported { tool: "aiperf".into(), ..Default::default() };
    for (line, v) in parse_lines(path, bytes)? {
        let ts = v
            .get("timestamp_ns")
            .and_then(Value::as_i64)
            .ok_or_else(|| ImportError::new(path, Some(format!("line {line}, key timestamp_ns")), "expected an integer"))?;
        if ts < 1_000_000_000_000_000_000 {
            return Err(ImportError::new(
                path,
                Some(format!("line {line}, key timestamp_ns")),
                "is not epoch time (older AIPerf wrote perf_counter_ns): it cannot be joined with the requests",
            ));
        }
        let d = v.get("telemetry_data").cloned().unwrap_or_default();
        let f = |k: &str| d.get(k).and_then(Value::as_f64);
        let gb = |k: &str| f(k).map(|x| (x * 1e9) as u64);
        let idx = v.get("gpu_index").and_then(Value::as_u64).unwrap_or(0) as u32;
        out.gpu.rows.push(GpuSample {
            ts_ns: ts,
            host: v.get("hostname").and_then(Value::as_str).or(v.get("dcgm_url").and_then(Value::as_str)).unwrap_or("aiperf").to_string(),
            gpu_index: idx,
            gpu_uuid: v.get("gpu_uuid").and_then(Value::as_str).map_or_else(|| format!("index-{idx}"), String::from),
            source: "dcgm",
            sm_clock_mhz: f("sm_clock_frequency").map(|x| x as u32),
            mem_clock_mhz: f("memory_clock_frequency").map(|x| x as u32),
            temp_gpu_c: f("gpu_temperature"),
            temp_mem_c: f("memory_temperature"),
            power_w: f("gpu_power_usage"),
            power_limit_w: f("power_management_limit"),
            util_gpu_pct: f("gpu_utilization"),
            util_mem_pct: f("memory_copy_utilization"),
            mem_used_bytes: gb("gpu_memory_used"),
            mem_total_bytes: gb("gpu_memory_total"),
            viol_power_ns: f("power_violation").map(|us| (us * 1e3) as u64),
            viol_thermal_ns: f("thermal_violation").map(|us| (us * 1e3) as u64),
            ..Default::default()
        });
    }
    out.conversion.push("AIPerf GPU telemetry timestamp_ns is wall-clock epoch ns".into());
    out.aggregate_only = Some("AIPerf's GPU telemetry export is telemetry: import it together with profile_export.jsonl".into());
    Ok(out)
}
