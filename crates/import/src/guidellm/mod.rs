//! guidellm `benchmarks.json` (a `GenerativeBenchmarksReport`, checked against guidellm
//! 0.8.1), one benchmark: every listed request as a row, and every summary number as a claim
//! recomputed from the records with guidellm's own definitions.
//!
//! Traps handled: the request lists hold requests before and after the measure window that the
//! metrics leave out (marked `warmup` / `cooldown`: guidellm counts the requests whose span
//! overlaps `[measure_start_time, measure_end_time]`); the `incomplete` list is requests
//! guidellm itself cancelled when its run ended (`cancelled`, not errors); percentiles are
//! nearest rank on the cumulative weight, TPOT includes the TTFT and is weighted by output
//! tokens; with a Poisson profile some `targeted_start` values are counted from -1.0, not the
//! epoch; there are no per-token timestamps (ITL is a per-request mean).

mod claims;
mod derived;
mod families;
mod modalities;
mod record;
mod rows;
mod scheduler;
mod series;
mod window;
mod workload;

use std::path::Path;

use serde_json::Value;

use super::json::{parse as parse_json, short};
use super::{ImportError, ImportOptions, Imported};
use credence_run::manifest::{Capabilities, DeclaredPhases, SystemConfig, TimestampQuality};
use record::{Group, Record};

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let v = parse_json(path, bytes)?;
    let b = the_benchmark(path, &v)?;
    let mut out = Imported { tool: "guidellm".into(), tool_version: version(path, &v)?, config: SystemConfig::default(), ..Default::default() };
    let window = measure_window(path, b)?;
    let records = read_records(path, b)?;
    out.requests.rows = records.iter().map(|r| rows::request(r, window)).collect();
    claims::claims(path, b, &records, window, &mut out)?;
    out.workload = Some(workload::workload(path, &v, b)?);
    out.timestamps = Some(TimestampQuality::Absolute);
    out.conversion = conversion(b, &out);
    out.phases = phases(b, &out);
    out.capabilities = Some(capabilities(&out));
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

/// `metadata.guidellm_version`.
fn version(path: &Path, v: &Value) -> Result<Option<String>, ImportError> {
    match v.get("metadata").and_then(|m| m.get("guidellm_version")) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(ImportError::new(path, Some("key metadata.guidellm_version".into()), format!("expected a version string; found {}", short(other)))),
    }
}

/// `[measure_start_time, measure_end_time]` (epoch s): the requests overlapping it are counted.
fn measure_window(path: &Path, b: &Value) -> Result<(f64, f64), ImportError> {
    let sm = b.get("scheduler_metrics");
    let time = |k: &str| {
        let at = || Some(format!("key benchmarks[0].scheduler_metrics.{k}"));
        match sm.and_then(|s| s.get(k)) {
            Some(x) => x.as_f64().filter(|t| t.is_finite()).ok_or_else(|| ImportError::new(path, at(), format!("expected epoch seconds; found {}", short(x)))),
            None => Err(ImportError::new(path, at(), "expected epoch seconds; it is missing")),
        }
    };
    Ok((time("measure_start_time")?, time("measure_end_time")?))
}

/// Every record of the `successful`, `incomplete` and `errored` lists.
fn read_records(path: &Path, b: &Value) -> Result<Vec<Record>, ImportError> {
    let reqs = b.get("requests").filter(|r| r.is_object()).ok_or_else(|| {
        ImportError::new(path, Some("key benchmarks[0].requests".into()), "expected {successful, incomplete, errored}; it is missing")
            .hint("guidellm writes its request lists in benchmarks.json (not in the CSV or HTML outputs)")
    })?;
    let mut records = Vec::new();
    for group in Group::ALL {
        let list = match reqs.get(group.key()) {
            None | Some(Value::Null) => continue,
            Some(Value::Array(a)) => a,
            Some(other) => {
                let at = Some(format!("key benchmarks[0].requests.{}", group.key()));
                return Err(ImportError::new(path, at, format!("expected an array of requests; found {}", short(other))));
            }
        };
        for (i, r) in list.iter().enumerate() {
            records.push(record::read(path, r, group, i)?);
        }
    }
    Ok(records)
}

/// How the times were converted, and what was left out.
fn conversion(b: &Value, out: &Imported) -> Vec<String> {
    let mut notes = vec!["guidellm writes epoch seconds (Python time.time() floats); converted to ns (x 1e9, rounded)".to_string()];
    let rows = &out.requests.rows;
    let unscheduled = rows.iter().filter(|r| r.scheduled_ns.is_none()).count();
    if unscheduled > 0 {
        notes.push(format!(
            "{unscheduled} of {} requests have no scheduled time: their info.timings.targeted_start is null or not an epoch time (with a Poisson profile guidellm counts it from -1.0 for requests generated before its start offset)",
            rows.len()
        ));
    }
    let sample = b.get("config").and_then(|c| c.get("sample_size")).and_then(Value::as_f64);
    if let Some(n) = sample {
        notes.push(format!("guidellm kept at most {n} requests per status (sample_size): its metrics cover all of them, so claims may not recompute"));
    }
    if b.get("metrics").and_then(|m| m.get("turns")).is_some_and(|t| !t.is_null()) {
        notes.push("guidellm's per-turn metrics (metrics.turns) are not claims".into());
    }
    notes
}

/// guidellm's phases: the requests outside the measure window are listed, marked by phase.
fn phases(b: &Value, out: &Imported) -> DeclaredPhases {
    let count = |p: &str| out.requests.rows.iter().filter(|r| r.phase == Some(p)).count();
    let (warm, cool) = (count("warmup"), count("cooldown"));
    DeclaredPhases {
        warmup_requests: Some(warm as u64),
        warmup_s: b.get("warmup_duration").and_then(Value::as_f64),
        warmup_included: Some(true),
        note: Some(format!(
            "guidellm lists every request it ran and counts those whose [start, end] overlaps [measure_start_time, measure_end_time]; the {warm} that ended before are marked warmup, the {cool} that started after cooldown"
        )),
        stop: None,
    }
}

fn capabilities(out: &Imported) -> Capabilities {
    Capabilities {
        timestamps: "absolute".into(),
        scheduled_times: out.requests.rows.iter().any(|r| r.scheduled_ns.is_some()),
        itl: "mean_only".into(),
        warmup: "included".into(),
        notes: vec![
            "no per-token timestamps: guidellm's ITL is a per-request mean; its last token time is used only to recompute its TPOT, ITL and token rates".into(),
            "first byte is guidellm's first streamed event (first_request_iteration)".into(),
            "guidellm's percentiles are nearest rank on the cumulative weight; TPOT includes the TTFT and is weighted by output tokens".into(),
            "an empty guidellm distribution (count 0) is all zeros in its file: only its count is a claim".into(),
            "input tokens are guidellm's prompt_tokens: the server's count on successful requests, the client's on failed ones".into(),
        ],
    }
}
