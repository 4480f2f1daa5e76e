//! MLPerf LoadGen logs: `mlperf_log_detail.txt` (`:::MLLOG {json}` lines) and
//! `mlperf_log_summary.txt`. Neither holds per-request timings (only the trace does), so they
//! are audited, not imported: the claims are the summary percentiles and throughput, the facts
//! the validity flags, which `audit` rechecks.
//!
//! Traps handled: interactive runs log as scenario Server; Offline has one query; key spellings
//! differ (`result_99.00_percentile_latency_ns`, `result_time_per_output_token_99.00_percentile_ns`);
//! `time_ms` can be garbage; values can be nested JSON; a truncated log has no `result_*` keys.
//!
//! `mlperf_log_trace.json` (Chrome trace events), when it is not empty, does hold per-sample
//! times: each "Sample" event's `ts` (µs since the log origin) is the scheduled time, and its
//! `issue_start_ns` / `complete_ns` are offsets from it. With the detail log's `test_datetime`
//! (ISO 8601 with a zone) as the origin, the times become absolute.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::time::{MAX_SECONDS, is_seconds, parse_datetime};
use super::{ImportError, ImportOptions, Imported};
use credence_run::claims::{Claim, percentile_stat};
use credence_run::manifest::SystemConfig;
use credence_run::manifest::{Capabilities, TimestampQuality};
use credence_run::rows::Request;

/// Keys of a detail log (the last value of each key wins).
pub fn detail_keys(path: &Path, text: &str) -> Result<BTreeMap<String, Value>, ImportError> {
    let mut keys = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let Some(json) = line.strip_prefix(":::MLLOG ") else { continue };
        let v: Value =
            serde_json::from_str(json).map_err(|e| ImportError::new(path, Some(format!("line {}", i + 1)), format!("not a valid :::MLLOG record: {e}")))?;
        if let (Some(k), Some(val)) = (v.get("key").and_then(Value::as_str), v.get("value")) {
            keys.insert(k.to_string(), val.clone());
        }
    }
    Ok(keys)
}

/// `Key : Value` lines of a summary file.
pub fn summary_keys(text: &str) -> BTreeMap<String, String> {
    text.lines().filter_map(|l| l.split_once(" : ")).map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect()
}

fn claims_from_detail(keys: &BTreeMap<String, Value>) -> Vec<Claim> {
    let mut out = Vec::new();
    for (k, v) in keys {
        let Some(x) = v.as_f64() else { continue };
        let pick = [
            ("result_first_token_", "_percentile_latency_ns", "ttft"),
            ("result_time_per_output_token_", "_percentile_ns", "tpot"),
            ("result_", "_percentile_latency_ns", "service"),
        ];
        for (prefix, suffix, metric) in pick {
            if let Some(p) = k.strip_prefix(prefix).and_then(|r| r.strip_suffix(suffix))
                && p.parse::<f64>().is_ok()
            {
                out.push(Claim { key: k.clone(), metric: metric.into(), stat: percentile_stat(p), value: x / 1e6, unit: "ms".into(), definition: None });
                break;
            }
        }
        for (key, metric) in [
            ("result_completed_samples_per_sec", "requests_per_s"),
            ("result_samples_per_second", "requests_per_s"),
            ("result_completed_tokens_per_second", "output_tokens_per_s"),
            ("result_tokens_per_second", "output_tokens_per_s"),
        ] {
            if k == key {
                out.push(Claim { key: k.clone(), metric: metric.into(), stat: "value".into(), value: x, unit: "per s".into(), definition: None });
            }
        }
    }
    out
}

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let text = std::str::from_utf8(bytes).map_err(|e| ImportError::new(path, None, format!("not UTF-8 text: {e}")))?;
    let mut out = Imported { tool: "MLPerf LoadGen".into(), ..Default::default() };
    if text.contains(":::MLLOG") {
        let keys = detail_keys(path, text)?;
        out.tool_version = keys.get("loadgen_version").and_then(Value::as_str).map(String::from);
        out.config = SystemConfig { engine: keys.get("sut_name").and_then(Value::as_str).map(String::from), ..Default::default() };
        out.claims = claims_from_detail(&keys);
        for k in [
            "effective_scenario",
            "result_validity",
            "result_perf_constraints_met",
            "result_min_duration_met",
            "result_min_queries_met",
            "early_stopping_met",
            "result_query_count",
            "effective_min_query_count",
            "effective_min_duration_ms",
            "result_invalid_reason",
            "test_datetime",
        ] {
            if let Some(v) = keys.get(k) {
                out.facts.push((format!("detail.{k}"), v.as_str().map_or_else(|| v.to_string(), String::from)));
            }
        }
        if !keys.keys().any(|k| k.starts_with("result_")) {
            out.facts.push(("detail.incomplete".into(), credence_run::claims::MLPERF_TRUNCATED.into()));
        }
    } else {
        for (k, v) in summary_keys(text) {
            out.facts.push((format!("summary.{k}"), v));
        }
    }
    out.aggregate_only = Some(
        "MLPerf detail and summary logs hold no per-request timings (LoadGen writes them only to mlperf_log_trace.json, whose import is not built yet)".into(),
    );
    Ok(out)
}

/// The trace file: per-sample scheduled, issue and completion times. `origin_ns` is the log
/// origin in epoch ns when the detail log gives it.
pub fn parse_trace(path: &Path, bytes: &[u8], origin_ns: Option<i64>) -> Result<Imported, ImportError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ImportError::new(path, None, "the trace is empty (LoadGen submissions usually ship it empty): no per-sample timings")
            .hint("audit the detail and summary logs instead: `credence audit mlperf_log_detail.txt mlperf_log_summary.txt`"));
    }
    let v = super::json::parse(path, bytes)?;
    let events = v
        .get("traceEvents")
        .and_then(Value::as_array)
        .or_else(|| v.as_array())
        .ok_or_else(|| ImportError::new(path, None, "expected Chrome trace JSON (an array or {traceEvents: [...]})"))?;
    let mut out = Imported { tool: "MLPerf LoadGen".into(), ..Default::default() };
    let base = origin_ns.unwrap_or(0);
    let mut lat = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if e.get("name").and_then(Value::as_str) != Some("Sample") {
            continue;
        }
        let Some(args) = e.get("args") else { continue };
        let (Some(issue), Some(done)) = (args.get("issue_start_ns").and_then(Value::as_i64), args.get("complete_ns").and_then(Value::as_i64)) else { continue };
        let ts_us = e.get("ts").and_then(Value::as_f64).ok_or_else(|| ImportError::new(path, Some(format!("traceEvents[{i}].ts")), "expected microseconds"))?;
        let (scheduled, sent, end) = sample_times(base, ts_us, issue, done).ok_or_else(|| {
            ImportError::new(
                path,
                Some(format!("traceEvents[{i}]")),
                format!("times out of range (ts {ts_us} µs, issue_start_ns {issue}, complete_ns {done}): expected a ts within ±{MAX_SECONDS:e} s and offsets that keep the times on the nanosecond clock"),
            )
        })?;
        lat.push(done as f64 / 1e6);
        out.requests.push(Request {
            id: args.get("sample_seq").map_or_else(|| format!("{i}"), |x| x.to_string()),
            scheduled_ns: Some(scheduled),
            sent_ns: sent,
            end_ns: end,
            ok: true,
            ..Default::default()
        });
    }
    out.raw.insert("service".into(), lat);
    let quality = if origin_ns.is_some() { TimestampQuality::Absolute } else { TimestampQuality::Relative };
    out.timestamps = Some(quality);
    out.conversion.push(if origin_ns.is_some() {
        "trace ts (µs since the log origin) anchored at the detail log's test_datetime".into()
    } else {
        "trace ts are µs since the log origin; no detail log gave its date, so times are relative".into()
    });
    out.capabilities = Some(Capabilities {
        timestamps: if origin_ns.is_some() { "absolute".into() } else { "relative".into() },
        scheduled_times: true,
        itl: "none".into(),
        warmup: "excluded".into(),
        notes: vec![
            "LoadGen measures latency from the scheduled time (coordinated-omission free)".into(),
            "the trace has no first-token times: TTFT and TPOT are unavailable".into(),
        ],
    });
    Ok(out)
}

/// A sample's scheduled, issue and completion times in epoch ns: its `ts` (µs from the log
/// origin at `base`) plus the issue and completion offsets. None when `ts` is not a time
/// (`time::is_seconds`) or a sum leaves the i64 nanosecond clock.
fn sample_times(base: i64, ts_us: f64, issue: i64, done: i64) -> Option<(i64, i64, i64)> {
    if !is_seconds(ts_us / 1e6) {
        return None;
    }
    let scheduled = base.checked_add((ts_us * 1e3) as i64)?;
    Some((scheduled, scheduled.checked_add(issue)?, scheduled.checked_add(done.max(issue))?))
}

/// `test_datetime` of a detail log, as epoch ns.
pub fn origin_of(text: &str) -> Option<i64> {
    let keys = detail_keys(Path::new(""), text).ok()?;
    parse_datetime(keys.get("test_datetime")?.as_str()?, 0).map(|x| x.0)
}
