//! perf_analyzer / GenAI-Perf raw `profile_export.json`: epoch-ns request and response times,
//! one response timestamp per streamed chunk. Token counts need a tokenizer, so they are not
//! imported (the manifest says so).

use std::path::Path;

use serde_json::Value;

use super::json::{Fields, parse as parse_json};
use super::{ImportError, ImportOptions, Imported};
use credence_run::manifest::{Arrival, Capabilities, TimestampQuality, Workload};
use credence_run::rows::Request;

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let v = parse_json(path, bytes)?;
    let f = Fields::new(path, &v, "");
    let exp = the_experiment(&f)?;
    let mut out = Imported { tool: "perf_analyzer".into(), tool_version: f.opt_str("version").map(String::from), ..Default::default() };
    let mode = exp.get("experiment").and_then(|e| e.get("mode")).and_then(Value::as_str).unwrap_or("");
    let value = exp.get("experiment").and_then(|e| e.get("value")).and_then(Value::as_f64);
    out.workload = Some(Workload {
        arrival: if mode == "concurrency" { Arrival::ClosedLoop } else { Arrival::Unknown },
        rate_per_s: (mode == "request_rate").then_some(value).flatten(),
        concurrency: (mode == "concurrency").then_some(value).flatten().map(|c| c as u32),
        ..Workload::unknown()
    });
    let reqs =
        exp.get("requests").and_then(Value::as_array).ok_or_else(|| ImportError::new(path, Some("key experiments[0].requests".into()), "expected an array"))?;
    let mut raw_ttft = Vec::new();
    for (i, r) in reqs.iter().enumerate() {
        let request = request(path, i, r)?;
        // A first token is recorded exactly when the request got a response.
        if let Some(first) = request.first_token_ns {
            raw_ttft.push((first - request.sent_ns) as f64 / 1e6);
        }
        out.requests.push(request);
    }
    out.raw.insert("ttft".into(), raw_ttft);
    out.timestamps = Some(TimestampQuality::Absolute);
    out.conversion.push("perf_analyzer timestamps are system_clock epoch ns".into());
    out.capabilities = Some(Capabilities {
        timestamps: "absolute".into(),
        scheduled_times: false,
        itl: "chunk".into(),
        warmup: "excluded".into(),
        notes: vec!["token counts need a tokenizer and are not imported: TPOT and token throughput are unavailable".into()],
    });
    Ok(out)
}

/// The file's one experiment: a sweep of several cannot be one run directory.
fn the_experiment<'a>(f: &Fields<'a>) -> Result<&'a Value, ImportError> {
    let path = f.path;
    let experiments = f.array("experiments")?;
    match experiments.len() {
        1 => Ok(&experiments[0]),
        0 => Err(ImportError::new(path, Some("key experiments".into()), "is empty: no requests")),
        n => Err(ImportError::new(path, Some("key experiments".into()), format!("holds {n} experiments (a sweep); one run directory holds one"))
            .hint("split the file per experiment")),
    }
}

/// Request `i`: its send time and one response time per streamed chunk; no response is a failure.
fn request(path: &Path, i: usize, r: &Value) -> Result<Request, ImportError> {
    let at = |k: &str| Some(format!("key experiments[0].requests[{i}].{k}"));
    let ts = r.get("timestamp").and_then(Value::as_i64).ok_or_else(|| ImportError::new(path, at("timestamp"), "expected epoch ns (an integer)"))?;
    let resp: Vec<i64> = r
        .get("response_timestamps")
        .and_then(Value::as_array)
        .ok_or_else(|| ImportError::new(path, at("response_timestamps"), "expected an array of epoch ns"))?
        .iter()
        .enumerate()
        .map(|(k, t)| t.as_i64().ok_or_else(|| ImportError::new(path, at(&format!("response_timestamps[{k}]")), "expected epoch ns (an integer)")))
        .collect::<Result<_, _>>()?;
    let ok = !resp.is_empty();
    Ok(Request {
        id: format!("{i}"),
        sent_ns: ts,
        first_token_ns: resp.first().copied(),
        end_ns: resp.last().copied().unwrap_or(ts),
        chunk_ns: ok.then(|| resp.clone()),
        ok,
        error_kind: (!ok).then_some("other"),
        error_message: (!ok).then(|| "no response recorded".to_string()),
        ..Default::default()
    })
}
