//! Every summary number of a guidellm benchmark as a claim: each `DistributionSummary` under
//! `metrics` (all statuses, every statistic, percentile and confidence bound), the request
//! totals and the scheduler's averages. The raw values each is recomputed from are rebuilt
//! from the records with guidellm's own selection and weights (see `families`, `modalities`).

use std::path::Path;

use serde_json::Value;

use super::families::{FAMILIES, RATE_OVER_RUN, Shape, distribution, root_dispatch_delay};
use super::modalities::{Kind, MODALITIES, Side, distribution as modality_distribution};
use super::record::{Group, Record};
use super::scheduler::scheduler_claims;
use super::series::Weighted;
use crate::json::{number, short};
use crate::{ImportError, Imported};
use credence_run::claims::{COUNT_SUFFIX, Claim, Definition, WEIGHTS_SUFFIX, percentile_stat};

/// What one summary's claims are about.
pub struct Target<'a> {
    /// The summary's key in the file (`metrics.time_to_first_token_ms.successful`).
    pub key: String,
    pub metric: String,
    pub unit: &'a str,
    pub scale: f64,
    pub definition: Option<&'a str>,
    /// A rate: its mean is the throughput (stat `value`).
    pub rate: bool,
}

/// The status groups of a breakdown, with credence's suffix for the metric name.
const STATUSES: [(Option<Group>, &str, &str); 4] = [
    (Some(Group::Successful), "successful", ""),
    (Some(Group::Incomplete), "incomplete", ".incomplete"),
    (Some(Group::Errored), "errored", ".errored"),
    (None, "total", ".all"),
];

/// A number of a summary: a JSON number, or an error naming the key.
pub fn summary_number(path: &Path, v: &Value, key: &str) -> Result<f64, ImportError> {
    match number(v) {
        Some(x) if x.is_finite() => Ok(x),
        _ => Err(ImportError::new(path, Some(format!("key benchmarks[0].{key}")), format!("expected a finite number; found {}", short(v)))),
    }
}

/// Stores a distribution's raw values under the metric's name, with its weights and count.
pub fn insert_raw(out: &mut Imported, metric: &str, w: Weighted) {
    out.raw.insert(format!("{metric}{WEIGHTS_SUFFIX}"), w.weights);
    if let Some(c) = w.count {
        out.raw.insert(format!("{metric}{COUNT_SUFFIX}"), vec![c]);
    }
    out.raw.insert(metric.to_string(), w.values);
}

/// Pushes one claim.
fn claim(out: &mut Imported, t: &Target<'_>, key: String, stat: String, value: f64, unit: String) {
    out.claims.push(Claim { key, metric: t.metric.clone(), stat, value, unit, definition: t.definition.map(Definition::id) });
}

/// The claims of one `DistributionSummary` (null: none). An empty one (count 0) is all zeros
/// in guidellm's file: only its count is a claim.
pub fn summary_claims(path: &Path, d: &Value, t: &Target<'_>, confidence: f64, out: &mut Imported) -> Result<(), ImportError> {
    if d.is_null() {
        return Ok(());
    }
    let num = |k: &str| d.get(k).map(|v| summary_number(path, v, &format!("{}.{k}", t.key))).transpose();
    let Some(count) = num("count")? else {
        return Err(ImportError::new(path, Some(format!("key benchmarks[0].{}", t.key)), "expected a distribution summary with a count"));
    };
    claim(out, t, format!("{}.count", t.key), "count".into(), count, "count".into());
    if count == 0.0 {
        return Ok(());
    }
    let scaled = [
        ("mean", if t.rate { "value" } else { "mean" }),
        ("median", "median_lower"),
        ("mode", "mode"),
        ("std_dev", "std"),
        ("min", "min"),
        ("max", "max"),
        ("total_sum", "sum"),
    ];
    for (k, stat) in scaled {
        if let Some(x) = num(k)? {
            claim(out, t, format!("{}.{k}", t.key), stat.into(), x * t.scale, t.unit.into());
        }
    }
    if let Some(x) = num("variance")? {
        claim(out, t, format!("{}.variance", t.key), "variance".into(), x * t.scale * t.scale, format!("{}²", t.unit));
    }
    percentile_claims(path, d, t, out)?;
    interval_claims(path, d, t, confidence, out)
}

/// The percent a percentile key names: p001 = 0.1, p01 = 1, p05 = 5, p999 = 99.9.
fn percent_of_key(key: &str) -> Option<String> {
    let digits = key.strip_prefix('p').filter(|d| d.len() >= 2 && d.chars().all(|c| c.is_ascii_digit()))?;
    Some(if digits.len() == 2 { digits.to_string() } else { format!("{}.{}", &digits[..2], &digits[2..]) })
}

/// A percentile key as credence's stat prefix (`p001` → `p0.1`), or an error naming it.
fn percentile_prefix(path: &Path, key: &str, pk: &str) -> Result<String, ImportError> {
    percent_of_key(pk)
        .map(|p| percentile_stat(&p))
        .ok_or_else(|| ImportError::new(path, Some(format!("key benchmarks[0].{key}.{pk}")), "expected a percentile key such as p50, p99 or p999"))
}

/// `percentiles.pNN`: nearest rank on the cumulative weight.
fn percentile_claims(path: &Path, d: &Value, t: &Target<'_>, out: &mut Imported) -> Result<(), ImportError> {
    let Some(p) = d.get("percentiles").filter(|p| !p.is_null()) else { return Ok(()) };
    let key = format!("{}.percentiles", t.key);
    let p = p.as_object().ok_or_else(|| ImportError::new(path, Some(format!("key benchmarks[0].{key}")), "expected an object of percentiles"))?;
    for (pk, v) in p {
        let stat = format!("{}_rank", percentile_prefix(path, &key, pk)?);
        let x = summary_number(path, v, &format!("{key}.{pk}"))?;
        claim(out, t, format!("{key}.{pk}"), stat, x * t.scale, t.unit.into());
    }
    Ok(())
}

/// `mean_ci` and `percentile_cis`: guidellm's confidence bounds at the run's confidence.
fn interval_claims(path: &Path, d: &Value, t: &Target<'_>, confidence: f64, out: &mut Imported) -> Result<(), ImportError> {
    let level = percentile_stat(&format!("{:.4}", confidence * 100.0));
    let level = level.trim_start_matches('p');
    let mut bounds: Vec<(String, String, &Value)> = Vec::new();
    if let Some(ci) = d.get("mean_ci").filter(|c| !c.is_null()) {
        bounds.push((format!("{}.mean_ci", t.key), "mean".into(), ci));
    }
    if let Some(cis) = d.get("percentile_cis").and_then(Value::as_object) {
        for (pk, ci) in cis.iter().filter(|(_, ci)| !ci.is_null()) {
            bounds.push((format!("{}.percentile_cis.{pk}", t.key), percentile_prefix(path, &format!("{}.percentile_cis", t.key), pk)?, ci));
        }
    }
    for (key, what, ci) in bounds {
        for (k, side) in [("lower", "low"), ("upper", "high")] {
            let v =
                ci.get(k).ok_or_else(|| ImportError::new(path, Some(format!("key benchmarks[0].{key}.{k}")), "expected a confidence bound; it is missing"))?;
            let x = summary_number(path, v, &format!("{key}.{k}"))?;
            claim(out, t, format!("{key}.{k}"), format!("{what}_ci{level}_{side}"), x * t.scale, t.unit.into());
        }
    }
    Ok(())
}

/// Every claim of the benchmark, and the raw values they are recomputed from.
pub fn claims(path: &Path, b: &Value, records: &[Record], window: (f64, f64), out: &mut Imported) -> Result<(), ImportError> {
    let metrics = b
        .get("metrics")
        .filter(|m| m.is_object())
        .ok_or_else(|| ImportError::new(path, Some("key benchmarks[0].metrics".into()), "expected guidellm's metrics object"))?;
    let confidence = match b.get("config").and_then(|c| c.get("confidence")) {
        None | Some(Value::Null) => 0.95,
        Some(v) => summary_number(path, v, "config.confidence")?,
    };
    request_totals(path, metrics, out)?;
    for f in &FAMILIES {
        let Some(node) = metrics.get(f.key).filter(|n| !n.is_null()) else { continue };
        let t = Target {
            key: format!("metrics.{}", f.key),
            metric: f.metric.into(),
            unit: f.unit,
            scale: f.scale,
            definition: f.definition,
            rate: matches!(f.shape, Shape::Rates(_)),
        };
        breakdown_claims(path, node, &t, confidence, out, |group| distribution(f, records, group, window))?;
    }
    if let Some(root) = metrics.get("root_dispatch_delay").filter(|n| !n.is_null()) {
        let t = Target {
            key: "metrics.root_dispatch_delay".into(),
            metric: "root_dispatch_delay".into(),
            unit: "ms",
            scale: 1000.0,
            definition: Some("def-guidellm-first-turn-dispatch"),
            rate: false,
        };
        summary_claims(path, root, &t, confidence, out)?;
        insert_raw(out, "root_dispatch_delay", root_dispatch_delay(records, window));
    }
    modality_claims(path, metrics, records, window, confidence, out)?;
    scheduler_claims(path, b, records, out)
}

/// `request_totals`: the requests of each status overlapping the measure window, recomputed as
/// the count of their request latencies (guidellm takes one per counted request).
fn request_totals(path: &Path, metrics: &Value, out: &mut Imported) -> Result<(), ImportError> {
    let Some(totals) = metrics.get("request_totals").filter(|t| !t.is_null()) else { return Ok(()) };
    for (_, status, suffix) in STATUSES {
        let Some(v) = totals.get(status) else { continue };
        let key = format!("metrics.request_totals.{status}");
        let value = summary_number(path, v, &key)?;
        let definition = Some(Definition::id("def-guidellm-status-overlap"));
        out.claims.push(Claim { key, metric: format!("e2e{suffix}"), stat: "count".into(), value, unit: "requests".into(), definition });
    }
    Ok(())
}

/// The claims of a status breakdown (`t.key` holds `successful`, `incomplete`, `errored` and
/// `total`), each group's raw values made by `of_group` (None: all groups).
fn breakdown_claims(
    path: &Path,
    node: &Value,
    t: &Target<'_>,
    confidence: f64,
    out: &mut Imported,
    of_group: impl Fn(Option<Group>) -> Weighted,
) -> Result<(), ImportError> {
    for (group, status, suffix) in STATUSES {
        let target = Target {
            key: format!("{}.{status}", t.key),
            metric: format!("{}{suffix}", t.metric),
            unit: t.unit,
            scale: t.scale,
            definition: t.definition,
            rate: t.rate,
        };
        summary_claims(path, node.get(status).unwrap_or(&Value::Null), &target, confidence, out)?;
        insert_raw(out, &target.metric, of_group(group));
    }
    Ok(())
}

/// `metrics.text`, `image`, `video`, `audio`, `tool_call`: every summary guidellm wrote.
fn modality_claims(path: &Path, metrics: &Value, records: &[Record], window: (f64, f64), confidence: f64, out: &mut Imported) -> Result<(), ImportError> {
    let side_and_kind = || Side::ALL.into_iter().flat_map(|side| Kind::ALL.into_iter().map(move |kind| (side, kind)));
    for (section, summaries) in MODALITIES {
        for (name, property) in summaries {
            let Some(summary) = metrics.get(section).and_then(|s| s.get(*name)).filter(|s| !s.is_null()) else { continue };
            for ((side, side_key), (kind, key_suffix, metric_suffix)) in side_and_kind() {
                let Some(node) = summary.get(format!("{side_key}{key_suffix}")).filter(|n| !n.is_null()) else { continue };
                let rate = matches!(kind, Kind::PerSecond);
                let unit = if rate { format!("{name}/s") } else { name.to_string() };
                let t = Target {
                    key: format!("metrics.{section}.{name}.{side_key}{key_suffix}"),
                    metric: format!("{section}.{name}.{side_key}{metric_suffix}"),
                    unit: &unit,
                    scale: 1.0,
                    definition: rate.then_some(RATE_OVER_RUN),
                    rate,
                };
                breakdown_claims(path, node, &t, confidence, out, |group| modality_distribution(records, window, property, side, kind, group))?;
            }
        }
    }
    Ok(())
}
