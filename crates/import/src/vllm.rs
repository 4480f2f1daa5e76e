//! vLLM `vllm bench serve` / benchmark_serving result JSON (with `--save-detailed`).
//!
//! Traps handled: `start_times` are `time.perf_counter()` seconds (arbitrary origin), anchored
//! to `date` (end of run, local time, no zone: `--tz` gives the offset); files from before
//! January 2026 have no `start_times` (then the timestamps are absent); ITL entries are per SSE
//! chunk, not per token; failed requests carry `ttft = 0` and an `errors` text; `latencies` may
//! be missing (then E2E = TTFT + Σ ITL); `request_rate` may be the string "inf".

use std::path::Path;

use serde_json::Value;

use super::json::numbers_at;
use super::json::{Fields, parse as parse_json, parse_lines};
use super::time::{MAX_SECONDS, is_seconds, parse_datetime};
use super::{ImportError, ImportOptions, Imported};
use credence_run::claims::{Claim, Definition, percentile_stat};
use credence_run::manifest::{Arrival, Capabilities, DeclaredPhases, SystemConfig, TimestampQuality, Workload};
use credence_run::rows::{Request, chunk_times, error_kind};

/// One result object (a file may hold several with `--append-result`).
pub fn one_object(path: &Path, bytes: &[u8]) -> Result<Value, ImportError> {
    match parse_json(path, bytes) {
        Ok(v) => Ok(v),
        Err(whole) => {
            let lines = parse_lines(path, bytes).map_err(|_| whole)?;
            match lines.len() {
                1 => Ok(lines.into_iter().next().expect("one").1),
                n => Err(ImportError::new(path, None, format!("the file holds {n} results (written with --append-result)"))
                    .hint("split it into one file per result and import each into its own run directory")),
            }
        }
    }
}

/// The tool's summary keys: `{mean,median,std}_{m}_ms` and `p{P}_{m}_ms`.
pub fn latency_claims(v: &Value, names: &[(&str, &str)]) -> Vec<Claim> {
    let mut out = Vec::new();
    let Some(obj) = v.as_object() else { return out };
    for (key, val) in obj {
        let Some(x) = val.as_f64() else { continue };
        let Some(body) = key.strip_suffix("_ms") else { continue };
        for (tool_metric, metric) in names {
            let Some(stat) = body.strip_suffix(&format!("_{tool_metric}")) else { continue };
            let stat = match stat {
                "mean" | "median" | "std" => stat.to_string(),
                p if p.starts_with('p') => percentile_stat(&p[1..]),
                _ => continue,
            };
            out.push(Claim { key: key.clone(), metric: metric.to_string(), stat, value: x, unit: "ms".into(), definition: None });
        }
    }
    out
}

/// The index-aligned per-request arrays vLLM and SGLang share (seconds, token counts, errors).
pub struct PerRequest {
    pub ttfts: Vec<f64>,
    pub gaps: Vec<Vec<f64>>,
    pub inputs: Vec<f64>,
    pub outputs: Vec<f64>,
    pub errors: Vec<String>,
}

impl PerRequest {
    /// Request `i` with the times the caller derived (epoch ns).
    pub fn request(&self, i: usize, sent: i64, first: Option<i64>, end: i64, chunks: Option<Vec<i64>>) -> Request {
        let ok = self.errors[i].is_empty();
        Request {
            id: format!("{i}"),
            sent_ns: sent,
            first_token_ns: first,
            end_ns: end,
            chunk_ns: chunks,
            input_tokens: Some(self.inputs[i] as u32),
            output_tokens: Some(self.outputs[i] as u32),
            ok,
            error_kind: (!ok).then(|| error_kind(&self.errors[i], None)),
            error_message: (!ok).then(|| self.errors[i].clone()),
            ..Default::default()
        }
    }
}

/// Reads the per-request arrays and checks that they align.
pub fn per_request(f: &Fields<'_>) -> Result<PerRequest, ImportError> {
    let ttfts = f.numbers("ttfts")?;
    let n = ttfts.len();
    let itls = f.array("itls")?;
    let inputs = f.numbers("input_lens")?;
    let outputs = f.numbers("output_lens")?;
    let errors: Vec<String> = f.array("errors")?.iter().map(|e| e.as_str().unwrap_or("").to_string()).collect();
    let at = |k: &str| Some(if f.at.is_empty() { format!("key {k}") } else { format!("{}, key {k}", f.at) });
    for (name, len) in [("itls", itls.len()), ("input_lens", inputs.len()), ("output_lens", outputs.len()), ("errors", errors.len())] {
        if len != n {
            return Err(ImportError::new(f.path, at(name), format!("has {len} entries but ttfts has {n}: the per-request arrays must align")));
        }
    }
    let gaps = itls
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let at = at(&format!("itls[{i}]")).unwrap_or_default();
            a.as_array().ok_or_else(|| ImportError::new(f.path, Some(at.clone()), "expected an array of seconds")).and_then(|a| numbers_at(f.path, a, &at))
        })
        .collect::<Result<_, _>>()?;
    Ok(PerRequest { ttfts, gaps, inputs, outputs, errors })
}

pub fn parse_file(path: &Path, bytes: &[u8], o: &ImportOptions) -> Result<Imported, ImportError> {
    let v = one_object(path, bytes)?;
    let f = Fields::new(path, &v, "");
    let mut out = Imported { tool: "vllm bench serve".into(), ..Default::default() };
    out.config = SystemConfig {
        model: f.opt_str("model_id").map(String::from),
        engine: Some(format!("vLLM ({} backend)", f.opt_str("backend").unwrap_or("unknown"))),
        ..Default::default()
    };
    out.workload = Some(workload(&v));
    out.claims = latency_claims(&v, &[("ttft", "ttft"), ("tpot", "tpot"), ("itl", "itl"), ("e2el", "e2e")]);
    for (k, m) in [("request_throughput", "requests_per_s"), ("output_throughput", "output_tokens_per_s")] {
        if let Some(x) = v.get(k).and_then(Value::as_f64) {
            out.claims.push(Claim { key: k.into(), metric: m.into(), stat: "value".into(), value: x, unit: "per s".into(), definition: None });
        }
    }
    // Written only with --goodput (null otherwise); its limits are not in the file.
    if let Some(x) = v.get("request_goodput").and_then(Value::as_f64) {
        let definition = Some(Definition::id("def-vllm-goodput"));
        out.claims.push(Claim { key: "request_goodput".into(), metric: "goodput_per_s".into(), stat: "value".into(), value: x, unit: "per s".into(), definition });
    }
    if !f.has("ttfts") {
        out.aggregate_only = Some("this vLLM result was saved without --save-detailed: it holds summary statistics only".into());
        return Ok(out);
    }
    let arrays = per_request(&f)?;
    let n = arrays.ttfts.len();
    let aligned = |key: &str| -> Result<Option<Vec<f64>>, ImportError> {
        if !f.has(key) {
            return Ok(None);
        }
        let values = f.numbers(key)?;
        if values.len() != n {
            return Err(ImportError::new(
                path,
                Some(format!("key {key}")),
                format!("has {} entries but ttfts has {n}: the per-request arrays must align", values.len()),
            ));
        }
        Ok(Some(values))
    };
    let (latencies, starts) = (aligned("latencies")?, aligned("start_times")?);
    if let Some(i) = starts.as_ref().and_then(|s| s.iter().position(|x| !is_seconds(*x))) {
        // A request without a send time cannot be placed on the run's clock.
        let found = starts.as_ref().map_or(f64::NAN, |s| s[i]);
        return Err(ImportError::new(
            path,
            Some(format!("key start_times[{i}]")),
            format!("expected a finite send time in seconds within ±{MAX_SECONDS:e}; found {found}"),
        ));
    }
    let e2e: Vec<f64> = (0..n).map(|i| latencies.as_ref().map_or_else(|| arrays.ttfts[i] + arrays.gaps[i].iter().sum::<f64>(), |l| l[i])).collect();
    let (anchor_ns, quality, conversion) = anchor(&f, o, starts.as_deref(), &e2e, &mut out)?;
    out.timestamps = Some(quality);
    out.conversion.push(conversion);
    requests(&arrays, anchor_ns, starts.as_deref(), &e2e, &mut out);
    declare(quality, &mut out);
    Ok(out)
}

/// The workload the result declares; a rate of "inf" sends everything at once.
fn workload(v: &Value) -> Workload {
    let rate = match v.get("request_rate") {
        Some(Value::String(s)) if s == "inf" => None,
        Some(x) => x.as_f64(),
        None => None,
    };
    Workload {
        arrival: match (rate, v.get("burstiness").and_then(Value::as_f64)) {
            (Some(_), Some(b)) if (b - 1.0).abs() < 1e-9 => Arrival::Poisson,
            (Some(_), None) => Arrival::Poisson,
            _ => Arrival::Unknown,
        },
        rate_per_s: rate,
        concurrency: v.get("max_concurrency").and_then(Value::as_u64).map(|c| c as u32),
        streaming: Some(true),
        duration_s: v.get("duration").and_then(Value::as_f64),
        ..Workload::unknown()
    }
}

/// Anchor: perf_counter start times, shifted so that the last completion is `date`; with the timestamps' quality and how they were converted.
fn anchor(f: &Fields<'_>, o: &ImportOptions, starts: Option<&[f64]>, e2e: &[f64], out: &mut Imported) -> Result<(i64, TimestampQuality, String), ImportError> {
    let date = f.opt_str("date");
    Ok(match (starts, date, o.tz_offset_s) {
        (Some(s), Some(d), Some(off)) => {
            let end_rel = (0..e2e.len()).map(|i| s[i] + e2e[i]).fold(f64::NEG_INFINITY, f64::max);
            let (end_ns, _) =
                parse_datetime(d, off).ok_or_else(|| ImportError::new(f.path, Some("key date".into()), format!("expected YYYYMMDD-HHMMSS; found {d:?}")))?;
            out.timezone_assumed = o.tz_text.clone();
            (
                end_ns.saturating_sub((end_rel * 1e9) as i64),
                TimestampQuality::Absolute,
                format!(
                    "start_times are time.perf_counter() seconds; shifted so that the last completion equals `date` ({d}, local time at UTC offset {}), ±1 s",
                    o.tz_text.clone().unwrap_or_default()
                ),
            )
        }
        (Some(_), _, _) => {
            let base = date.and_then(|d| parse_datetime(d, 0)).map_or(0, |x| x.0);
            (
                base,
                TimestampQuality::Relative,
                "start_times are time.perf_counter() seconds with no known epoch (no --tz for the zone-less `date`): times are relative within the run".into(),
            )
        }
        (None, _, _) => {
            (0, TimestampQuality::Absent, "the file has no start_times (vLLM before January 2026): requests keep their submission order only".into())
        }
    })
}

/// Every request on the anchored clock, with the raw TTFT, TPOT, ITL and E2E samples of the successful ones.
fn requests(arrays: &PerRequest, anchor_ns: i64, starts: Option<&[f64]>, e2e: &[f64], out: &mut Imported) {
    let PerRequest { ttfts, gaps, outputs, errors, .. } = arrays;
    let mut raw_ttft = Vec::new();
    let mut raw_tpot = Vec::new();
    let mut raw_itl = Vec::new();
    let mut raw_e2e = Vec::new();
    for i in 0..ttfts.len() {
        let ok = errors[i].is_empty();
        // Saturating: a time beyond ±MAX_SECONDS marks the row invalid (`non_finite`), and
        // must not overflow on the way.
        let sent = anchor_ns.saturating_add(starts.map_or(i as i64 * 1_000, |s| (s[i] * 1e9) as i64));
        let end = sent.saturating_add((e2e[i].max(0.0) * 1e9) as i64);
        let first = ok.then(|| sent.saturating_add((ttfts[i] * 1e9) as i64));
        let chunks = first.map(|f0| chunk_times(f0, gaps[i].iter().copied(), 1e9));
        if ok {
            raw_ttft.push(ttfts[i] * 1e3);
            raw_e2e.push(e2e[i] * 1e3);
            raw_itl.extend(gaps[i].iter().map(|g| g * 1e3));
            if outputs[i] > 1.0 {
                raw_tpot.push((e2e[i] - ttfts[i]) / (outputs[i] - 1.0) * 1e3);
            }
        }
        let end = end.max(first.unwrap_or(sent)).max(chunks.as_ref().and_then(|c| c.last().copied()).unwrap_or(sent));
        let mut row = arrays.request(i, sent, first, end, chunks);
        row.invalid_source = non_finite(arrays, i, Some(e2e[i]));
        out.requests.push(row);
    }
    out.raw.insert("ttft".into(), raw_ttft);
    out.raw.insert("tpot".into(), raw_tpot);
    out.raw.insert("itl".into(), raw_itl);
    out.raw.insert("e2e".into(), raw_e2e);
}

/// The first value request `i` needs that is not a time (Python's `NaN` or `Infinity`, or a
/// number beyond ±`MAX_SECONDS`), named by its key; a failed request needs only its latency.
pub fn non_finite(arrays: &PerRequest, i: usize, latency: Option<f64>) -> Option<String> {
    let ok = arrays.errors[i].is_empty();
    let mut values = vec![("latencies", latency)];
    if ok {
        values.push(("ttfts", Some(arrays.ttfts[i])));
        values.extend(arrays.gaps[i].iter().map(|g| ("itls", Some(*g))));
    }
    values.iter().find(|(_, x)| x.is_some_and(|x| !is_seconds(x))).map(|(k, x)| format!("{k}[{i}] is {}, not a time", x.unwrap_or(f64::NAN)))
}

/// What the result file can and cannot tell, and how it treats warmup.
fn declare(quality: TimestampQuality, out: &mut Imported) {
    let ts = match quality {
        TimestampQuality::Absolute => "absolute",
        TimestampQuality::Relative => "relative",
        TimestampQuality::Absent => "absent",
    };
    out.capabilities = Some(Capabilities {
        timestamps: ts.into(),
        scheduled_times: false,
        itl: "chunk".into(),
        warmup: "excluded".into(),
        notes: vec![
            "TTFT timers start when the HTTP request is issued, after the --max-concurrency semaphore: client queueing is not in TTFT".into(),
            "ITL entries are per SSE chunk; with speculative decoding a chunk holds several tokens".into(),
            "no scheduled send times: coordinated omission cannot be measured".into(),
        ],
    });
    out.phases = DeclaredPhases {
        warmup_requests: None,
        warmup_s: None,
        warmup_included: Some(false),
        note: Some("vLLM's --num-warmups requests are not in the result file".into()),
        stop: None,
    };
}

pub fn parse(path: &Path, bytes: &[u8], o: &ImportOptions) -> Result<Imported, ImportError> {
    parse_file(path, bytes, o)
}
