//! ray-project/llmperf: `*_individual_responses.json` (one object per request, in completion
//! order, **no timestamps**) and `*_summary.json` (the claims).
//!
//! Traps handled: rate-limited rows (`error_code` 429) carry zeros and must not enter latency
//! statistics; `error_code` −100 ("Output too few tokens") rows look real but are errors;
//! `inter_token_latency_s` is a per-request mean that includes the TTFT; output tokens are
//! re-counted with a fixed Llama tokenizer; `results_error_code_frequency` is a Python dict
//! repr, not JSON.

use std::path::Path;

use serde_json::Value;

use super::json::{Fields, parse as parse_json};
use super::time::is_seconds;
use super::{ImportError, ImportOptions, Imported};
use credence_run::claims::{Claim, percentile_stat};
use credence_run::manifest::{Arrival, Capabilities, SystemConfig, TimestampQuality, Workload};
use credence_run::rows::{Request, error_kind};

/// A record's `error_code`: null on success, else a number (HTTP status, or -100 for a client error).
fn error_code(r: &Value, f: &Fields<'_>) -> Result<Option<f64>, ImportError> {
    match r.get("error_code") {
        None => Err(f.err("error_code", "null or an error code")),
        Some(Value::Null) => Ok(None),
        Some(x) => Ok(Some(x.as_f64().ok_or_else(|| f.err("error_code", "null or a number"))?)),
    }
}

/// The individual-responses file.
pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let v = parse_json(path, bytes)?;
    let rows = v.as_array().ok_or_else(|| ImportError::new(path, None, "expected a JSON array of request objects (llmperf *_individual_responses.json)"))?;
    let mut out = Imported { tool: "llmperf".into(), ..Default::default() };
    let (mut ttft, mut e2e, mut itl, mut thr) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, r) in rows.iter().enumerate() {
        let f = Fields::new(path, r, format!("[{i}]"));
        let code = error_code(r, &f)?;
        let t = f.number("ttft_s")?;
        let l = f.number("end_to_end_latency_s")?;
        let ok = code.is_none();
        let msg = f.opt_str("error_msg").unwrap_or("").to_string();
        let http = code.filter(|c| *c >= 100.0).map(|c| c as u32);
        // No timestamps: requests keep their file (completion) order, 1 µs apart.
        let sent = i as i64 * 1_000;
        if ok {
            ttft.push(t * 1e3);
            e2e.push(l * 1e3);
            itl.push(f.f64("inter_token_latency_s")? * 1e3);
            thr.push(f.f64("request_output_throughput_token_per_s")?);
        }
        out.requests.push(Request {
            id: format!("{i}"),
            sent_ns: sent,
            // A value that is no time (NaN, or beyond ±MAX_SECONDS) stands in as 0 and marks
            // the row invalid, so it never overflows the nanosecond clock.
            first_token_ns: ok.then(|| sent + (if is_seconds(t) { t } else { 0.0 } * 1e9) as i64),
            end_ns: sent + (if is_seconds(l) { l } else { 0.0 } * 1e9) as i64,
            invalid_source: [("ttft_s", t), ("end_to_end_latency_s", l)]
                .iter()
                .find(|(k, x)| !is_seconds(*x) && (ok || *k == "end_to_end_latency_s"))
                .map(|(k, x)| format!("record [{i}], key {k} is {x:?}, not a time")),
            input_tokens: f.opt_f64("number_input_tokens")?.map(|x| x as u32),
            output_tokens: f.opt_f64("number_output_tokens")?.map(|x| x as u32),
            ok,
            error_kind: (!ok).then(|| if code == Some(-100.0) { "client" } else { error_kind(&msg, http) }),
            error_message: (!ok).then(|| if msg.is_empty() { format!("error_code {}", code.unwrap_or(f64::NAN)) } else { msg.clone() }),
            http_status: http,
            ..Default::default()
        });
    }
    out.raw.insert("ttft".into(), ttft);
    out.raw.insert("e2e".into(), e2e);
    out.raw.insert("itl_mean_incl_ttft".into(), itl);
    out.raw.insert("request_tokens_per_s".into(), thr);
    out.timestamps = Some(TimestampQuality::Absent);
    out.conversion.push("llmperf records no per-request timestamps: requests are in completion order, spaced 1 µs apart as placeholders".into());
    out.workload = Some(Workload { arrival: Arrival::ClosedLoop, streaming: Some(true), ..Workload::unknown() });
    out.capabilities = Some(Capabilities {
        timestamps: "absent".into(),
        scheduled_times: false,
        itl: "mean_only".into(),
        warmup: "unknown".into(),
        notes: vec![
            "no timestamps: steady state, drift and throughput over time cannot be checked".into(),
            "inter_token_latency_s is a per-request mean that includes the TTFT".into(),
            "output tokens are re-counted with a fixed Llama tokenizer for every model".into(),
        ],
    });
    Ok(out)
}

/// llmperf metric names → credence's, with the unit factor to ms.
const METRICS: [(&str, &str, f64); 4] = [
    ("ttft_s", "ttft", 1e3),
    ("end_to_end_latency_s", "e2e", 1e3),
    ("inter_token_latency_s", "itl_mean_incl_ttft", 1e3),
    ("request_output_throughput_token_per_s", "request_tokens_per_s", 1.0),
];

/// The summary file: claims only.
pub fn parse_summary(path: &Path, bytes: &[u8]) -> Result<Imported, ImportError> {
    let v = parse_json(path, bytes)?;
    let obj = v.as_object().ok_or_else(|| ImportError::new(path, None, "expected a JSON object (llmperf *_summary.json)"))?;
    let mut out = Imported { tool: "llmperf".into(), ..Default::default() };
    out.tool_version = obj.get("version").and_then(Value::as_str).map(String::from);
    out.config = SystemConfig { model: obj.get("model").and_then(Value::as_str).map(String::from), ..Default::default() };
    for (key, val) in obj {
        let Some(x) = val.as_f64() else { continue };
        for (tool, metric, scale) in METRICS {
            let Some(stat) = key.strip_prefix(&format!("results_{tool}_")) else { continue };
            let stat = match stat.strip_prefix("quantiles_p") {
                Some(p) => percentile_stat(p),
                None if matches!(stat, "mean" | "min" | "max") => stat.to_string(),
                None if stat == "stddev" => "std_sample".to_string(),
                None => continue,
            };
            out.claims.push(Claim {
                key: key.clone(),
                metric: metric.into(),
                stat,
                value: x * scale,
                unit: if scale == 1.0 { "tokens/s".into() } else { "ms".into() },
                definition: None,
            });
        }
    }
    for k in ["results_error_rate", "results_number_errors", "results_num_completed_requests", "results_error_code_frequency", "num_concurrent_requests"] {
        if let Some(x) = obj.get(k) {
            out.facts.push((k.to_string(), x.as_str().map_or_else(|| x.to_string(), String::from)));
        }
    }
    out.aggregate_only = Some("llmperf's summary file holds summary statistics only; the per-request data is in *_individual_responses.json".into());
    Ok(out)
}
