//! SGLang `bench_serving` JSONL (one run per line) with `--output-details`.
//!
//! SGLang writes no start times: requests keep their order and the timestamps are absent.
//! The latency of OpenAI-compatible streams is taken at the last chunk read (including
//! `[DONE]`), not at the last token.

use std::path::Path;

use serde_json::Value;

use super::json::{Fields, parse_lines};
use super::time::is_seconds;
use super::vllm::{PerRequest, latency_claims, non_finite, per_request};
use super::{ImportError, ImportOptions, Imported};
use credence_run::manifest::{Arrival, Capabilities, SystemConfig, TimestampQuality, Workload};
use credence_run::rows::chunk_times;

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let lines = parse_lines(path, bytes)?;
    let (line, v) = match lines.len() {
        0 => return Err(ImportError::new(path, None, "the file is empty")),
        1 => lines.into_iter().next().expect("one line"),
        n => {
            return Err(ImportError::new(path, None, format!("the file holds {n} runs (bench_serving appends one line per run)"))
                .hint("keep the line of the run to import in its own file"));
        }
    };
    let f = Fields::new(path, &v, format!("line {line}"));
    let mut out = Imported { tool: "sglang bench_serving".into(), ..Default::default() };
    out.config = SystemConfig { engine: Some(format!("SGLang ({} backend)", f.opt_str("backend").unwrap_or("unknown"))), ..Default::default() };
    out.workload = Some(Workload {
        arrival: if v.get("request_rate").and_then(Value::as_f64).is_some() { Arrival::Poisson } else { Arrival::Unknown },
        rate_per_s: v.get("request_rate").and_then(Value::as_f64).filter(|r| r.is_finite()),
        concurrency: v.get("max_concurrency").and_then(Value::as_u64).map(|c| c as u32),
        dataset: f.opt_str("dataset_name").map(String::from),
        streaming: Some(true),
        duration_s: v.get("duration").and_then(Value::as_f64),
        ..Workload::unknown()
    });
    out.claims = latency_claims(&v, &[("ttft", "ttft"), ("tpot", "tpot"), ("itl", "itl"), ("e2e_latency", "e2e")]);
    if !f.has("ttfts") {
        out.aggregate_only = Some("this SGLang result was written without --output-details: it holds summary statistics only".into());
        return Ok(out);
    }
    let arrays = per_request(&f)?;
    let PerRequest { ttfts, gaps: all_gaps, errors, .. } = &arrays;
    let n = ttfts.len();
    let (mut raw_ttft, mut raw_itl) = (Vec::new(), Vec::new());
    for i in 0..n {
        let gaps = &all_gaps[i];
        let ok = errors[i].is_empty();
        let sent = i as i64 * 1_000;
        let first = ok.then(|| sent.saturating_add((ttfts[i] * 1e9) as i64));
        let chunks = chunk_times(first.unwrap_or(sent), gaps.iter().copied(), 1e9);
        // The latency is taken at the last chunk read.
        let end = *chunks.last().expect("the first token is a chunk");
        if ok {
            raw_ttft.push(ttfts[i] * 1e3);
            raw_itl.extend(gaps.iter().map(|g| g * 1e3));
        }
        let mut row = arrays.request(i, sent, first, end, ok.then_some(chunks));
        // A failed request's end is its last chunk too: its gaps must be times as well.
        row.invalid_source = non_finite(&arrays, i, None).or_else(|| {
            let k = gaps.iter().position(|g| !is_seconds(*g))?;
            Some(format!("itls[{i}][{k}] is {}, not a time", gaps[k]))
        });
        out.requests.push(row);
    }
    out.raw.insert("ttft".into(), raw_ttft);
    out.raw.insert("itl".into(), raw_itl);
    out.timestamps = Some(TimestampQuality::Absent);
    out.conversion.push("SGLang writes no start times: requests keep their order; times are relative placeholders".into());
    out.capabilities = Some(Capabilities {
        timestamps: "absent".into(),
        scheduled_times: false,
        itl: "chunk".into(),
        warmup: "excluded".into(),
        notes: vec!["no start times: steady state and drift cannot be checked".into(), "E2E is taken at the last chunk read, including [DONE]".into()],
    });
    Ok(out)
}
