//! kubernetes-sigs/inference-perf `per_request_lifecycle_metrics.json`: an array of requests
//! with start and end times (epoch seconds) and **per-token** output times.

use std::path::Path;

use serde_json::Value;

use super::json::parse as parse_json;
use super::{ImportError, ImportOptions, Imported};
use crate::run::manifest::{Capabilities, TimestampQuality};
use crate::run::rows::{Request, error_kind};

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let v = parse_json(path, bytes)?;
    let list = v.as_array().ok_or_else(|| ImportError::new(path, None, "expected a JSON array of request lifecycles"))?;
    let mut out = Imported { tool: "inference-perf".into(), ..Default::default() };
    let mut ttft = Vec::new();
    for (i, r) in list.iter().enumerate() {
        let at = |k: &str| Some(format!("[{i}].{k}"));
        let start = r.get("start_time").and_then(Value::as_f64).ok_or_else(|| ImportError::new(path, at("start_time"), "expected epoch seconds"))?;
        let end = r.get("end_time").and_then(Value::as_f64).ok_or_else(|| ImportError::new(path, at("end_time"), "expected epoch seconds"))?;
        let info = r.get("info");
        let tokens: Vec<i64> = info
            .and_then(|x| x.get("output_token_times"))
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_f64).map(|t| (t * 1e9) as i64).collect())
            .unwrap_or_default();
        let err = r.get("error").filter(|e| !e.is_null());
        let ok = err.is_none();
        let sent = (start * 1e9) as i64;
        if ok && let Some(f) = tokens.first() {
            ttft.push((f - sent) as f64 / 1e6);
        }
        let message = err.map(|e| e.as_str().map_or_else(|| e.to_string(), String::from));
        out.requests.push(Request {
            id: format!("{i}"),
            sent_ns: sent,
            first_token_ns: tokens.first().copied().filter(|_| ok),
            end_ns: ((end * 1e9) as i64).max(tokens.last().copied().unwrap_or(sent)),
            chunk_ns: (ok && !tokens.is_empty()).then(|| tokens.clone()),
            input_tokens: info.and_then(|x| x.get("input_tokens")).and_then(Value::as_u64).map(|x| x as u32),
            output_tokens: info.and_then(|x| x.get("output_tokens")).and_then(Value::as_u64).map(|x| x as u32),
            ok,
            error_kind: (!ok).then(|| error_kind(message.as_deref().unwrap_or(""), None)),
            error_message: message,
            ..Default::default()
        });
    }
    out.raw.insert("ttft".into(), ttft);
    out.timestamps = Some(TimestampQuality::Absolute);
    out.conversion.push("inference-perf start_time, end_time and output_token_times taken as epoch seconds".into());
    out.capabilities = Some(Capabilities {
        timestamps: "absolute".into(),
        scheduled_times: false,
        itl: "token".into(),
        warmup: "unknown".into(),
        notes: vec!["per-token output times: ITL is per token".into()],
    });
    Ok(out)
}
