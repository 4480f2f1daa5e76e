//! Every number of inference-perf's summaries as a claim: `summary_lifecycle_metrics.json`,
//! `stage_N_lifecycle_metrics.json` (and per-adapter files), and the statistics of the stage
//! reports `inference-perf.partial.stage_N.yaml` (BR 0.2.1). Each claim names the series of
//! the tool's own definitions it is recomputed from (see `recompute`). Keys are
//! `{file}:{key path}`, a stage report's from `results.request_performance.aggregate`.

use super::recompute::{Defs, derived, series};
use super::records::Record;
use crate::claims::{Claim, Definition};

/// Which records a summary file describes.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    All,
    Stage(u32),
    Adapter(String),
    AdapterStage(String, u32),
    /// A file name that does not say (renamed).
    Unknown,
}

/// The scope a summary's file name gives (`{prefix}stage_2_lifecycle_metrics.json`, …).
pub fn scope_of(name: &str) -> Scope {
    let stage = super::side::stage_number(name, "stage_");
    if let Some(rest) = name.split("adapter_").nth(1) {
        let adapter = rest.split("_stage_").next().unwrap_or(rest).trim_end_matches(".json").trim_end_matches("_lifecycle_metrics");
        return match stage.filter(|_| rest.contains("_stage_")) {
            Some(k) => Scope::AdapterStage(adapter.to_string(), k),
            None => Scope::Adapter(adapter.to_string()),
        };
    }
    match stage {
        Some(k) if name.contains("_lifecycle_metrics") => Scope::Stage(k),
        _ if name.contains("summary_lifecycle_metrics") => Scope::All,
        _ => Scope::Unknown,
    }
}

/// What one number is and where its recomputation comes from.
struct Target {
    metric: String,
    stat: String,
    unit: &'static str,
    /// Tool units to the claim's (s to ms).
    scale: f64,
    definition: Option<&'static str>,
    source: Source,
}

enum Source {
    /// A per-request series and the statistic of it.
    Series(String),
    /// One number derived from the population.
    Derived(String),
    /// Not recomputable from per-request data, and why.
    Not(&'static str),
}

const TTFT: &str = "def-inference-perf-ttft";
const TPOT: &str = "def-inference-perf-tpot";
const ITL: &str =
    "def-inference-perf-itl";
const NTPOT: &str = "def-inference-perf-ntpot";
const RATE: &str = "def-inference-perf-token-rate";
const ACHIEVED: &str = "def-inference-perf-request-rate";
const SCHEDULE: &str = "def-inference-perf-schedule-delay";
const CONFIGURED: &str = "def-inference-perf-configured";

/// A distribution series: (series, metric, seconds?, definition).
fn json_series(path: &str) -> Option<(&'static str, &'static str, bool, Option<&'static str>)> {
    Some(match path {
        "successes.latency.request_latency" => ("e2e", "e2e", true, None),
        "successes.latency.normalized_time_per_output_token" => ("ntpot", "normalized_tpot", true, Some(NTPOT)),
        "successes.latency.time_per_output_token" => ("tpot", "tpot", true, Some(TPOT)),
        "successes.latency.time_to_first_token" => ("ttft", "ttft", true, Some(TTFT)),
        "successes.latency.inter_token_latency" => ("itl", "itl", true, Some(ITL)),
        "successes.request_size_bytes" => ("request_bytes", "request_bytes", false, None),
        "successes.prompt_tokens" => ("input_tokens", "input_tokens", false, Some("def-inference-perf-input-tokens")),
        "successes.output_len" => ("output_client", "output_tokens_client", false, Some("def-inference-perf-retokenized")),
        "successes.output_tokens" => ("output_server", "output_tokens", false, Some("def-inference-perf-output-tokens")),
        "failures.request_latency" => ("failed_e2e", "failed_e2e", true, None),
        "failures.prompt_tokens" => ("failed_input_tokens", "failed_input_tokens", false, None),
        _ => return None,
    })
}

/// The stage report's (BR 0.2.1) series under `results.request_performance.aggregate`.
fn br_series(path: &str, d: Defs) -> Option<(&'static str, &'static str, bool, Option<&'static str>)> {
    let out_metric = if d.use_server_output_tokens { "output_tokens" } else { "output_tokens_client" };
    Some(match path {
        "requests.input_length" => ("info_input_tokens", "input_tokens", false, None),
        "requests.output_length" => ("output_effective", out_metric, false, None),
        "latency.request_latency" => ("e2e", "e2e", true, None),
        "latency.time_to_first_token" => ("ttft", "ttft", true, Some(TTFT)),
        "latency.time_per_output_token" => ("tpot", "tpot", true, Some(TPOT)),
        "latency.inter_token_latency" => ("itl", "itl", true, Some(ITL)),
        "latency.normalized_time_per_output_token" => ("ntpot_nonzero", "normalized_tpot", true, Some(NTPOT)),
        _ => return None,
    })
}

fn target(metric: &str, stat: &str, unit: &'static str, scale: f64, definition: Option<&'static str>, source: Source) -> Target {
    Target { metric: metric.into(), stat: stat.into(), unit, scale, definition, source }
}

/// Scalars of the lifecycle summaries.
fn json_scalar(path: &str) -> Option<Target> {
    let count = |metric: &str, s: &str| target(metric, "count", "requests", 1.0, None, Source::Series(s.into()));
    let value = |metric: &str, unit: &'static str, def: Option<&'static str>, d: &str| target(metric, "value", unit, 1.0, def, Source::Derived(d.into()));
    if let Some(label) = path.strip_prefix("failures.by_label.").and_then(|p| p.strip_suffix(".count")) {
        return Some(count("failed_requests", &format!("label:{label}")));
    }
    Some(match path {
        "benchmark_time_seconds" => value("duration", "s", Some("def-inference-perf-duration"), "span"),
        "load_summary.count" => count("requests", "all"),
        "load_summary.send_duration" => value("send_duration", "s", Some("def-inference-perf-send-span"), "send_duration"),
        "load_summary.requested_rate" => target("requested_rate", "value", "per s", 1.0, None, Source::Not(CONFIGURED)),
        "load_summary.concurrency" => target("concurrency", "value", "requests", 1.0, None, Source::Not(CONFIGURED)),
        "load_summary.achieved_rate" => value("offered_requests_per_s", "per s", Some(ACHIEVED), "achieved_rate"),
        "successes.count" => count("successful_requests", "successes"),
        "successes.throughput.requests_per_sec" => value("requests_per_s", "per s", Some(RATE), "requests_per_s"),
        "successes.throughput.input_tokens_per_sec" => value("input_tokens_per_s", "per s", Some(RATE), "input_per_s"),
        "successes.throughput.output_tokens_per_sec" => value("output_tokens_per_s", "per s", Some(RATE), "output_per_s"),
        "successes.throughput.total_tokens_per_sec" => value("total_tokens_per_s", "per s", Some(RATE), "total_per_s"),
        "successes.throughput.images_per_sec" => value("images_per_s", "per s", Some(RATE), "image_per_s"),
        "successes.throughput.videos_per_sec" => value("videos_per_s", "per s", Some(RATE), "video_per_s"),
        "successes.throughput.audios_per_sec" => value("audios_per_s", "per s", Some(RATE), "audio_per_s"),
        "successes.token_count_mismatches" => count("token_count_mismatches", "mismatch"),
        "successes.client_fallback_requests.prompt" => count("client_counted_prompts", "fallback_prompt"),
        "successes.client_fallback_requests.output" => count("client_counted_outputs", "fallback_output"),
        "failures.count" => count("failed_requests", "failures"),
        "successes.prompt_tokens.uncached" => value("uncached_input_tokens", "tokens", None, "uncached"),
        "failures.prompt_tokens.uncached" => value("failed_uncached_input_tokens", "tokens", None, "failed_uncached"),
        _ => return None,
    })
}

/// The statistic a summary key names: `median`, `p0.1`, BR's `p0p1` and `stddev` (ddof 1).
fn stat_of(leaf: &str) -> Option<String> {
    match leaf {
        "mean" | "min" | "max" | "median" => Some(leaf.into()),
        "stddev" => Some("std_sample".into()),
        "total" => Some("sum".into()),
        p if p.starts_with('p') && p[1..].replace('p', ".").parse::<f64>().is_ok() => Some(format!("p{}", p[1..].replace('p', "."))),
        _ => None,
    }
}

/// What the number at `path` (key segments) of a lifecycle summary is.
fn json_target(segs: &[String]) -> Target {
    let path = segs.join(".");
    if let Some(t) = json_scalar(&path) {
        return t;
    }
    let (series_path, leaf) = (segs[..segs.len() - 1].join("."), segs[segs.len() - 1].as_str());
    let media = media_series(&series_path);
    let known = json_series(&series_path).map(|(s, m, secs, d)| (s.to_string(), m.to_string(), secs, d)).or(media);
    match (known, stat_of(leaf), leaf) {
        (Some((s, m, _, _)), _, "cached") => target(
            &format!("cached_{m}"),
            "sum",
            "tokens",
            1.0,
            None,
            Source::Series(format!("{}cached_{}", if s.starts_with("failed_") { "failed_" } else { "" }, s.trim_start_matches("failed_"))),
        ),
        (Some((s, m, secs, d)), Some(stat), _) => {
            let (unit, scale) = match (secs, m.contains("token"), m.contains("bytes")) {
                (true, _, _) => ("ms", 1e3),
                (_, true, _) => ("tokens", 1.0),
                (_, _, true) => ("bytes", 1.0),
                _ => ("count", 1.0),
            };
            target(&m, &stat, unit, scale, d, Source::Series(s))
        }
        _ if series_path == "load_summary.schedule_delay" => {
            target("schedule_delay", &stat_of(leaf).unwrap_or_default(), "ms", 1e3, None, Source::Not(SCHEDULE))
        }
        _ => target(&path, "value", "", 1.0, None, Source::Not("def-no-recomputation")),
    }
}

/// `successes.image.count`, `successes.video.frames`, …: (series, metric, false, None).
fn media_series(path: &str) -> Option<(String, String, bool, Option<&'static str>)> {
    let rest = path.strip_prefix("successes.")?;
    let (kind, field) = rest.split_once('.')?;
    if !["image", "video", "audio"].contains(&kind) {
        return None;
    }
    Some(if field == "count" {
        (format!("media_count:{kind}"), format!("{kind}s_per_request"), false, None)
    } else {
        (format!("media:{kind}:{field}"), format!("{kind}_{field}"), false, None)
    })
}

/// What the number at `path` (segments under `results`) of a stage report is.
fn br_target(segs: &[String], d: Defs) -> Target {
    let not = |path: &str| target(path, "value", "", 1.0, None, Source::Not("def-no-recomputation"));
    let Some(segs) = segs.strip_prefix(&["request_performance".to_string(), "aggregate".to_string()]).filter(|s| s.len() > 1) else {
        return not(&segs.join("."));
    };
    let path = segs.join(".");
    let count = |metric: &str, s: &str| target(metric, "count", "requests", 1.0, None, Source::Series(s.into()));
    let rate = |metric: &str, s: &str| target(metric, "value", "per s", 1.0, Some(RATE), Source::Derived(s.into()));
    match path.as_str() {
        "requests.total" => return count("requests", "all"),
        "requests.failures" => return count("failed_requests", "failures"),
        "throughput.input_token_rate.mean" => return rate("input_tokens_per_s", "br_input_per_s"),
        "throughput.output_token_rate.mean" => return rate("output_tokens_per_s", "output_per_s"),
        "throughput.total_token_rate.mean" => return rate("total_tokens_per_s", "br_total_per_s"),
        "throughput.request_rate.mean" => return rate("requests_per_s", "requests_per_s"),
        _ => {}
    }
    let (series_path, leaf) = (segs[..segs.len() - 1].join("."), segs[segs.len() - 1].as_str());
    match (br_series(&series_path, d), stat_of(leaf)) {
        (Some((s, m, secs, def)), Some(stat)) => {
            let (unit, scale) = if secs { ("ms", 1e3) } else { ("tokens", 1.0) };
            target(m, &stat, unit, scale, def, Source::Series(s.into()))
        }
        _ => not(&path),
    }
}

/// Every number under `v` with its key segments (strings, nulls and message lists skipped).
pub fn numbers(v: &serde_json::Value, prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, f64)>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                prefix.push(k.clone());
                numbers(x, prefix, out);
                prefix.pop();
            }
        }
        serde_json::Value::Number(n) => out.extend(n.as_f64().map(|x| (prefix.clone(), x))),
        _ => {}
    }
}

/// Which file the numbers come from: a lifecycle summary (JSON) or a stage report (BR, the
/// numbers under its `results`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Layout {
    Lifecycle,
    StageReport,
}

/// The file's numbers as claims, with the raw values each is recomputed from (filed under the
/// claim's key) when the population is known.
pub fn claims(file: &str, numbers: &[(Vec<String>, f64)], layout: Layout, pop: Result<&[&Record], &Definition>, d: Defs) -> (Vec<Claim>, Vec<(String, Vec<f64>)>) {
    let (mut claims, mut raw) = (Vec::new(), Vec::new());
    const LACKING: &str = "def-lacking";
    for (segs, value) in numbers {
        let path = segs.join(".");
        // A stage report's statistics are keyed from `results.request_performance.aggregate`
        // (short enough to read in a report's table); anything else from `results`.
        let (t, shown) = match layout {
            Layout::Lifecycle => (json_target(segs), path),
            Layout::StageReport => {
                (br_target(segs, d), path.strip_prefix("request_performance.aggregate.").map_or_else(|| format!("results.{path}"), String::from))
            }
        };
        let key = format!("{file}:{shown}");
        let (values, why) = match (&t.source, pop) {
            (Source::Not(why), _) => (None, Some(Definition::id(why))),
            (_, Err(why)) => (None, Some(why.clone())),
            (Source::Series(s), Ok(p)) => (series(s, p, d).map(|v| v.iter().map(|x| x * t.scale).collect()), None),
            (Source::Derived(s), Ok(p)) => (derived(s, p, d).map(|x| vec![x * t.scale]), None),
        };
        let why = why.or_else(|| values.is_none().then(|| Definition::id(LACKING)));
        if let Some(v) = values {
            raw.push((key.clone(), v));
        }
        let definition = why.or(t.definition.map(Definition::id));
        claims.push(Claim { key, metric: t.metric, stat: t.stat, value: value * t.scale, unit: t.unit.into(), definition });
    }
    (claims, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_give_the_scope_and_keys_the_statistic() {
        assert_eq!(scope_of("summary_lifecycle_metrics.json"), Scope::All);
        assert_eq!(scope_of("run7-stage_12_lifecycle_metrics.json"), Scope::Stage(12));
        assert_eq!(scope_of("adapter_sql-lora_lifecycle_metrics.json"), Scope::Adapter("sql-lora".into()));
        assert_eq!(scope_of("adapter_sql-lora_stage_1_lifecycle_metrics.json"), Scope::AdapterStage("sql-lora".into(), 1));
        assert_eq!(scope_of("renamed.json"), Scope::Unknown);
        assert_eq!(stat_of("p0.1").as_deref(), Some("p0.1"));
        assert_eq!(stat_of("p0p1").as_deref(), Some("p0.1"), "BR writes p0p1");
        assert_eq!(stat_of("p99p9").as_deref(), Some("p99.9"));
        assert_eq!(stat_of("stddev").as_deref(), Some("std_sample"), "BR's stddev is numpy's ddof 1");
        assert_eq!(stat_of("units"), None);
    }
}
