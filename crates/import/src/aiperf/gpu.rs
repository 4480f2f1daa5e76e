//! AIPerf `gpu_telemetry_export.jsonl`: one record per GPU per scrape of dcgm-exporter.

use std::path::Path;

use serde_json::Value;

use crate::json::parse_lines;
use crate::{ImportError, ImportOptions, Imported};
use credence_run::rows::GpuSample;

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
