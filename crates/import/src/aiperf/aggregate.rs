//! AIPerf `profile_export_aiperf.json`: the summary of the profiling phase (and, with a
//! warm-up, of the warm-up under `warmup_metrics`). Every statistic of every metric tag becomes
//! a claim; the run-level facts (cancelled, complete, error summary, the phase window) are kept
//! for the audit, and the workload, model and version for the run.

use std::path::Path;

use serde_json::Value;

use super::{definition, metric_name};
use crate::json::parse as parse_json;
use crate::time::parse_datetime;
use crate::{Claim, ImportError, ImportOptions, Imported};
use credence_run::manifest::{Arrival, SystemConfig, Workload};
use credence_run::claims::Definition;

pub fn parse_aggregate(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let v = parse_json(path, bytes)?;
    refuse_one_phase_summary(path, &v)?;
    let mut out = Imported { tool: "aiperf".into(), ..Default::default() };
    out.tool_version = v.get("aiperf_version").and_then(Value::as_str).map(String::from);
    out.claims = claims(&v, "", "");
    if let Some(w) = v.get("warmup_metrics").filter(|w| w.is_object()) {
        out.claims.extend(claims(w, "warmup_metrics.", "warmup."));
    }
    out.facts = facts(&v);
    let phase = profiling_phase(&v);
    out.workload = Some(workload(&v, phase));
    out.config = SystemConfig { model: model(&v), ..SystemConfig::default() };
    out.phases.note = phases_note(&v);
    out.aggregate_only =
        Some("AIPerf's profile_export_aiperf.json holds summary statistics only; its per-request data is profile_export.jsonl in the same folder".into());
    Ok(out)
}

/// The per-phase summaries AIPerf writes under `phases/<phase>/` when the run has a warm-up
/// have the same shape as the top-level one but do not say which phase they summarise: a
/// warm-up summary checked against the profiling records would be nonsense.
fn refuse_one_phase_summary(path: &Path, v: &Value) -> Result<(), ImportError> {
    let has_warmup_phase = phases(v).iter().any(|p| p.get("kind").and_then(Value::as_str) == Some("warmup"));
    if has_warmup_phase && v.get("warmup_metrics").is_none() {
        return Err(ImportError::new(
            path,
            None,
            "this is one phase's summary (AIPerf writes phases/warmup/ and phases/profiling/profile_export_aiperf.json beside the top-level file when the run has a warm-up); it does not say which phase it summarises",
        )
        .hint("pass the top-level profile_export_aiperf.json: it summarises the profiling phase and the warm-up (under warmup_metrics)"));
    }
    Ok(())
}

/// `input_config.phases`, or none.
fn phases(v: &Value) -> &[Value] {
    v.get("input_config").and_then(|c| c.get("phases")).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// The profiling phase's configuration (`kind` "profiling"), when recorded.
fn profiling_phase(v: &Value) -> Option<&Value> {
    phases(v).iter().find(|p| p.get("kind").and_then(Value::as_str) == Some("profiling"))
}

/// One claim per statistic of each metric tag of `v` (keys `{key_prefix}{tag}.{stat}`, metrics
/// `{metric_prefix}{credence's name}`). A tag with only `avg` is a run total.
fn claims(v: &Value, key_prefix: &str, metric_prefix: &str) -> Vec<Claim> {
    let mut out = Vec::new();
    for (tag, entry) in v.as_object().into_iter().flatten() {
        let Some(stats) = entry.as_object().filter(|o| o.get("unit").is_some_and(Value::is_string)) else { continue };
        let unit = stats.get("unit").and_then(Value::as_str).unwrap_or_default();
        let total = stats.keys().all(|k| k == "unit" || k == "avg");
        for (stat_key, x) in stats {
            let Some(value) = x.as_f64() else { continue };
            let (metric, stat) = if total { total_claim(tag) } else { (metric_name(tag).to_string(), distribution_stat(tag, stat_key)) };
            out.push(Claim {
                key: format!("{key_prefix}{tag}.{stat_key}"),
                metric: format!("{metric_prefix}{metric}"),
                stat,
                value,
                unit: unit.to_string(),
                definition: definition(tag, !metric_prefix.is_empty()).map(Definition::id),
            });
        }
    }
    out
}

/// A run total's metric and statistic: a throughput or count AIPerf derived (`value`, from
/// the importer's recomputation), or a sum of a per-record metric (`total_osl`).
fn total_claim(tag: &str) -> (String, String) {
    if let Some(of) = tag.strip_prefix("total_").filter(|_| tag != "total_token_throughput") {
        let summed = match of {
            "osl" => "output_sequence_length",
            "isl" => "input_sequence_length",
            "output_tokens" => "output_token_count",
            other => other,
        };
        return (metric_name(summed).to_string(), "sum".into());
    }
    (metric_name(tag).to_string(), "value".into())
}

/// credence's name for one of AIPerf's statistic keys; the error-adjusted latencies use
/// numpy's `nearest` percentiles over values where each error is +∞, and count the errors.
fn distribution_stat(tag: &str, stat: &str) -> String {
    let adjusted = tag.starts_with("adj_");
    match stat {
        "avg" => "mean".into(),
        "count" if adjusted => "count_all".into(),
        p if adjusted && p.starts_with('p') => format!("{p}_nearest"),
        other => other.to_string(),
    }
}

/// The run-level facts the audit rechecks, named `aiperf.…`.
fn facts(v: &Value) -> Vec<(String, String)> {
    let mut f = Vec::new();
    for k in ["was_cancelled", "is_complete", "incomplete_reason"] {
        match v.get(k) {
            Some(Value::String(s)) => f.push((format!("aiperf.{k}"), s.clone())),
            Some(x) if !x.is_null() => f.push((format!("aiperf.{k}"), x.to_string())),
            _ => {}
        }
    }
    if let Some(summary) = v.get("error_summary").and_then(Value::as_array) {
        let counts: Vec<(u64, String)> = summary.iter().map(|e| (e.get("count").and_then(Value::as_u64).unwrap_or(0), error_name(e))).collect();
        f.push(("aiperf.error_summary.total".into(), counts.iter().map(|c| c.0).sum::<u64>().to_string()));
        let text: Vec<String> = counts.iter().map(|(n, name)| format!("{n} × {name}")).collect();
        f.push(("aiperf.error_summary".into(), text.join("; ")));
    }
    // Zone-less local times of the same clock: their difference needs no zone.
    let time = |k: &str| v.get(k).and_then(Value::as_str).and_then(|t| parse_datetime(t, 0)).map(|x| x.0);
    if let (Some(a), Some(b)) = (time("start_time"), time("end_time")) {
        f.push(("aiperf.window_s".into(), ((b - a) as f64 / 1e9).to_string()));
    }
    if let Some(p) = profiling_phase(v) {
        for (k, name) in [("duration", "aiperf.phase.duration_s"), ("grace_period", "aiperf.phase.grace_period_s")] {
            if let Some(x) = p.get(k).and_then(Value::as_f64) {
                f.push((name.into(), x.to_string()));
            }
        }
    }
    f
}

/// An `error_summary` entry's name: HTTP code and reason, or the exception type.
fn error_name(e: &Value) -> String {
    let d = e.get("error_details").unwrap_or(e);
    let text = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or("");
    match d.get("code").and_then(Value::as_u64) {
        Some(c) => format!("HTTP {c} {}", text("type")),
        None => text("type").to_string(),
    }
}

/// The load of the profiling phase: `type` constant, poisson or concurrency, with its rate,
/// concurrency and duration; the dataset's prompt and answer lengths.
fn workload(v: &Value, phase: Option<&Value>) -> Workload {
    let get = |k: &str| phase.and_then(|p| p.get(k));
    let config = v.get("input_config");
    let dataset = config.and_then(|c| c.get("datasets")).and_then(Value::as_array).and_then(|d| d.first());
    let length = |k: &str| {
        let l = dataset?.get("prompts")?.get(k)?;
        Some(format!("normal(mean={}, sd={})", l.get("mean")?.as_f64()?, l.get("stddev").and_then(Value::as_f64).unwrap_or(0.0)))
    };
    Workload {
        arrival: match get("type").and_then(Value::as_str) {
            Some("constant") => Arrival::Constant,
            Some("poisson") => Arrival::Poisson,
            Some("concurrency") => Arrival::ClosedLoop,
            Some("fixed_schedule") => Arrival::TraceReplay,
            _ => Arrival::Unknown,
        },
        rate_per_s: get("rate").and_then(Value::as_f64),
        concurrency: get("concurrency").and_then(Value::as_u64).and_then(|c| u32::try_from(c).ok()),
        dataset: dataset.and_then(|d| d.get("type").or(d.get("name"))).and_then(Value::as_str).map(String::from),
        input_length: length("isl"),
        output_length: length("osl"),
        streaming: config.and_then(|c| c.get("endpoint")).and_then(|e| e.get("streaming")).and_then(Value::as_bool),
        duration_s: get("duration").and_then(Value::as_f64),
        ..Workload::unknown()
    }
}

/// The phases as configured, in words: `profiling: constant at 5/s, 50 requests`.
fn phases_note(v: &Value) -> Option<String> {
    let words: Vec<String> = phases(v)
        .iter()
        .map(|p| {
            let num = |k: &str| p.get(k).and_then(Value::as_f64);
            let mut w = format!("{}: {}", p.get("name").and_then(Value::as_str).unwrap_or("?"), p.get("type").and_then(Value::as_str).unwrap_or("?"));
            if let Some(r) = num("rate") {
                w += &format!(" at {r}/s");
            }
            if let Some(c) = num("concurrency") {
                w += &format!(", concurrency {c}");
            }
            if let Some(n) = num("requests") {
                w += &format!(", {n} requests");
            }
            if let Some(d) = num("duration") {
                w += &format!(", {d} s (grace period {} s)", num("grace_period").map_or("default".into(), |g| g.to_string()));
            }
            w
        })
        .collect();
    (!words.is_empty()).then(|| format!("AIPerf's phases as configured: {}", words.join("; ")))
}

/// The first model of `input_config.models`.
fn model(v: &Value) -> Option<String> {
    let items = v.get("input_config")?.get("models")?.get("items")?.as_array()?;
    items.first()?.get("name")?.as_str().map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn of(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn every_statistic_is_a_claim_with_aiperf_names_mapped() {
        let v = Value::Object(of(r#"{"time_to_first_token": {"unit": "ms", "avg": 2.0, "p99": 3.0, "std": 0.5, "count": 4, "sum": 8.0},
            "request_throughput": {"unit": "requests/sec", "avg": 9.0}, "total_osl": {"unit": "tokens", "avg": 33.0},
            "adj_request_latency": {"unit": "ms", "p50": 7.0, "count": 5}, "schema_version": "1.4"}"#));
        let c = claims(&v, "", "");
        let find = |k: &str| c.iter().find(|x| x.key == k).unwrap_or_else(|| panic!("{k}: {c:?}"));
        assert_eq!(c.len(), 9);
        assert_eq!((find("time_to_first_token.avg").metric.as_str(), find("time_to_first_token.avg").stat.as_str()), ("ttft", "mean"));
        assert_eq!(find("time_to_first_token.p99").stat, "p99");
        assert_eq!((find("request_throughput.avg").metric.as_str(), find("request_throughput.avg").stat.as_str()), ("requests_per_s", "value"));
        assert_eq!((find("total_osl.avg").metric.as_str(), find("total_osl.avg").stat.as_str()), ("output_tokens", "sum"));
        assert_eq!(find("adj_request_latency.p50").stat, "p50_nearest");
        assert_eq!(find("adj_request_latency.count").stat, "count_all");
    }
}
