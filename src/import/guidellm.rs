//! guidellm `benchmarks.json` (GenerativeBenchmarksReport), one benchmark.
//!
//! Traps handled: the request lists include warmup and cooldown requests that the metrics
//! exclude (the counted ones overlap `[measure_start_time, measure_end_time]`: the others are
//! marked warmup or cooldown); stored percentiles are nearest-rank (type 1), so the claims are
//! recomputed that way; times are epoch seconds; there are no per-token timestamps.

use std::path::Path;

use serde_json::Value;

use super::json::parse as parse_json;
use super::{ImportError, ImportOptions, Imported};
use crate::run::claims::{Claim, percentile_stat};
use crate::run::manifest::{Arrival, Capabilities, SystemConfig, TimestampQuality, Workload};
use crate::run::rows::{Request, error_kind};

fn secs(v: &Value, k: &str) -> Option<f64> {
    v.get(k).and_then(Value::as_f64)
}

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let v = parse_json(path, bytes)?;
    let b = the_benchmark(path, &v)?;
    let mut out = Imported { tool: "guidellm".into(), ..Default::default() };
    out.tool_version = v.get("metadata").and_then(|m| m.get("guidellm_version").or(m.get("version"))).and_then(Value::as_str).map(String::from);
    let warm = requests(path, b, &mut out)?;
    if let Some(m) = b.get("metrics") {
        claims(m, &mut out);
    }
    out.workload = Some(workload(b));
    out.config = SystemConfig::default();
    out.timestamps = Some(TimestampQuality::Absolute);
    out.conversion.push("guidellm times are epoch seconds (float)".into());
    out.phases.warmup_requests = Some(warm);
    out.phases.warmup_included = Some(true);
    out.phases.note = Some("guidellm lists warmup and cooldown requests; they are marked by their overlap with the measurement window".into());
    out.capabilities = Some(Capabilities {
        timestamps: "absolute".into(),
        scheduled_times: false,
        itl: "mean_only".into(),
        warmup: "included".into(),
        notes: vec!["no per-token timestamps: ITL is a per-request mean".into(), "guidellm's percentiles are nearest-rank (type 1)".into()],
    });
    Ok(out)
}

/// The report's one benchmark: a sweep of several cannot be one run directory.
fn the_benchmark<'a>(path: &Path, v: &'a Value) -> Result<&'a Value, ImportError> {
    let benches = v
        .get("benchmarks")
        .and_then(Value::as_array)
        .ok_or_else(|| ImportError::new(path, Some("key benchmarks".into()), "expected an array of benchmarks"))?;
    match benches.len() {
        1 => Ok(&benches[0]),
        0 => Err(ImportError::new(path, Some("key benchmarks".into()), "is empty")),
        n => Err(ImportError::new(path, Some("key benchmarks".into()), format!("holds {n} benchmarks (a sweep); one run directory holds one"))
            .hint("split the report per benchmark")),
    }
}

/// Imports every listed request, with the TTFT and TPOT samples of the counted ones; returns how many are warmup.
fn requests(path: &Path, b: &Value, out: &mut Imported) -> Result<u64, ImportError> {
    let sm = b.get("scheduler_metrics");
    let window = (sm.and_then(|s| secs(s, "measure_start_time")), sm.and_then(|s| secs(s, "measure_end_time")));
    let reqs = b.get("requests").ok_or_else(|| {
        ImportError::new(path, Some("key benchmarks[0].requests".into()), "expected {successful, errored, incomplete}; it is missing")
            .hint("guidellm writes request data unless --metrics sample_size=0")
    })?;
    let (mut ttft, mut tpot) = (Vec::new(), Vec::new());
    let mut warm = 0u64;
    for (group, ok) in [("successful", true), ("errored", false), ("incomplete", false)] {
        let Some(list) = reqs.get(group).and_then(Value::as_array) else { continue };
        for (i, r) in list.iter().enumerate() {
            let at = |k: &str| Some(format!("key benchmarks[0].requests.{group}[{i}].{k}"));
            let start = secs(r, "request_start_time")
                .or_else(|| secs(r, "start_time"))
                .ok_or_else(|| ImportError::new(path, at("request_start_time"), "expected epoch seconds"))?;
            let end = secs(r, "request_end_time").or_else(|| secs(r, "end_time")).unwrap_or(start);
            let phase = phase(window, start, end);
            if phase == Some("warmup") {
                warm += 1;
            }
            if ok && phase != Some("warmup") && phase != Some("cooldown") {
                if let Some(t) = secs(r, "time_to_first_token_ms") {
                    ttft.push(t);
                }
                if let Some(x) = secs(r, "time_per_output_token_ms") {
                    tpot.push(x);
                }
            }
            out.requests.push(request(r, (group, i), ok, (start, end), phase));
        }
    }
    out.raw.insert("ttft".into(), ttft);
    out.raw.insert("tpot".into(), tpot);
    Ok(warm)
}

/// A request's phase by its overlap with the measurement window: counted by guidellm when it overlaps.
fn phase(window: (Option<f64>, Option<f64>), start: f64, end: f64) -> Option<&'static str> {
    match window {
        (Some(a), _) if end < a => Some("warmup"),
        (_, Some(z)) if start > z => Some("cooldown"),
        (Some(_), Some(_)) => Some("measure"),
        _ => None,
    }
}

/// One request of a group (`successful`, `errored`, `incomplete`) as a row.
fn request(r: &Value, (group, i): (&str, usize), ok: bool, (start, end): (f64, f64), phase: Option<&'static str>) -> Request {
    let t = secs(r, "time_to_first_token_ms");
    let sent = (start * 1e9) as i64;
    let err = r
        .get("info")
        .and_then(|x| x.get("error"))
        .or(r.get("error"))
        .and_then(Value::as_str)
        .unwrap_or(if group == "incomplete" { "incomplete at the end of the benchmark" } else { "" })
        .to_string();
    Request {
        id: r.get("request_id").and_then(Value::as_str).map_or_else(|| format!("{group}{i}"), String::from),
        sent_ns: sent,
        first_token_ns: t.filter(|_| ok).map(|t| sent + (t * 1e6) as i64),
        end_ns: ((end * 1e9) as i64).max(sent),
        input_tokens: secs(r, "prompt_tokens").map(|x| x as u32),
        output_tokens: secs(r, "output_tokens").map(|x| x as u32),
        ok,
        error_kind: (!ok).then(|| if group == "incomplete" { "cancelled" } else { error_kind(&err, None) }),
        error_message: (!ok).then_some(err),
        phase,
        ..Default::default()
    }
}

/// Claims: the stored distribution summaries of the successful requests (nearest rank).
fn claims(m: &Value, out: &mut Imported) {
    for (key, metric) in [("time_to_first_token_ms", "ttft"), ("time_per_output_token_ms", "tpot")] {
        let Some(d) = m.get(key).and_then(|x| x.get("successful")) else { continue };
        for stat in ["mean", "median"] {
            if let Some(x) = secs(d, stat) {
                out.claims.push(Claim {
                    key: format!("{key}.successful.{stat}"),
                    metric: metric.into(),
                    stat: if stat == "median" { "median_lower".into() } else { stat.into() },
                    value: x,
                    unit: "ms".into(),
                    definition: None,
                });
            }
        }
        if let Some(p) = d.get("percentiles").and_then(Value::as_object) {
            for (pk, pv) in p {
                let Some(x) = pv.as_f64() else { continue };
                if let Some(q) = percent_of_key(pk) {
                    out.claims.push(Claim {
                        key: format!("{key}.successful.percentiles.{pk}"),
                        metric: metric.into(),
                        stat: format!("{}_rank", percentile_stat(&q.to_string())),
                        value: x,
                        unit: "ms".into(),
                        definition: None,
                    });
                }
            }
        }
    }
}

/// The percent a percentile key names: p001 = 0.1 %, p01 = 1 %, p05 = 5 %, p999 = 99.9 %.
fn percent_of_key(pk: &str) -> Option<f64> {
    let digits = pk.trim_start_matches('p');
    match digits.len() {
        3 if digits.starts_with('0') => format!("0.{}", &digits[2..]).parse::<f64>().ok().map(|x| x * 1.0),
        3 => format!("{}.{}", &digits[..2], &digits[2..]).parse().ok(),
        _ => digits.parse::<f64>().ok(),
    }
}

/// The workload from the benchmark's profile (or strategy).
fn workload(b: &Value) -> Workload {
    let profile = b.get("config").and_then(|c| c.get("profile")).or(b.get("config").and_then(|c| c.get("strategy")));
    let kind = profile.and_then(|p| p.get("type_").or(p.get("type"))).and_then(Value::as_str).unwrap_or("");
    Workload {
        arrival: match kind {
            "poisson" => Arrival::Poisson,
            "constant" => Arrival::Constant,
            "concurrent" | "synchronous" => Arrival::ClosedLoop,
            _ => Arrival::Unknown,
        },
        rate_per_s: profile.and_then(|p| p.get("rate")).and_then(Value::as_f64),
        concurrency: profile.and_then(|p| p.get("streams")).and_then(Value::as_u64).map(|x| x as u32),
        streaming: Some(true),
        duration_s: secs(b, "duration"),
        ..Workload::unknown()
    }
}
