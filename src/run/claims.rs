//! The source tool's own summary numbers ("claims"), recomputed from its raw per-request
//! values with the tool's definition, and set beside credence's steady-state estimate.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::stats::quantile::quantile_sorted;

/// One number the tool printed.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Claim {
    /// The key as the tool wrote it (`p99_ttft_ms`).
    pub key: String,
    /// credence's metric name (`ttft`, `tpot`, `itl`, `e2e`, `requests_per_s`, …).
    pub metric: String,
    /// `mean`, `median`, `min`, `max`, `std`, `p99`, `p99.9`, `value`, `sum`, `count`.
    pub stat: String,
    /// The tool's value, converted to ms for latencies.
    pub value: f64,
    pub unit: String,
    /// How the tool defines this number where credence defines it otherwise (guidellm's TPOT
    /// includes the TTFT): the audit gives it as the reason for a difference.
    pub definition: Option<String>,
}

/// Raw per-request values by metric (ms), with the tool's own definitions, for recomputation.
pub type RawValues = BTreeMap<String, Vec<f64>>;

/// A statistic of `values` the way numpy computes it (type-7 percentiles, population std).
/// `count` and `sum` are defined on no values too (0: a tool's "0 failures"); `value` is the
/// one number an importer derived with the tool's formula from its per-request data (a rate
/// over the tool's own window).
pub fn statistic(values: &[f64], stat: &str) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    match stat {
        "count" => return Some(v.len() as f64),
        "sum" => return Some(v.iter().sum()),
        "value" => return (v.len() == 1).then(|| v[0]),
        _ => {}
    }
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    match stat {
        "mean" => Some(mean),
        "median" => quantile_sorted(&v, 0.5),
        "min" => v.first().copied(),
        "max" => v.last().copied(),
        "std" => Some((v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()),
        // pandas' default (ddof = 1).
        "std_sample" if v.len() > 1 => Some((v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()),
        // guidellm: nearest rank (type 1), x[ceil(p·n) − 1], and the lower median.
        "median_lower" => Some(v[(v.len() - 1) / 2]),
        p if p.starts_with('p') && p.ends_with("_rank") => {
            p[1..p.len() - 5].parse::<f64>().ok().map(|q| v[((q / 100.0 * n).ceil() as usize).clamp(1, v.len()) - 1])
        }
        p if p.starts_with('p') => p[1..].parse::<f64>().ok().and_then(|q| quantile_sorted(&v, q / 100.0)),
        _ => None,
    }
}

/// `p99` from `99`, `p99.9` from `99.9`, `p50` from `50.0`.
pub fn percentile_stat(p: &str) -> String {
    match p.parse::<f64>() {
        Ok(x) if x.fract() == 0.0 => format!("p{}", x as i64),
        Ok(x) => format!("p{x}"),
        Err(_) => format!("p{p}"),
    }
}

/// MLPerf: the summary-file line that states the same number as a detail-log key, and the
/// factor that converts it to the claim's unit (the audit cross-checks the two files).
pub fn mlperf_summary_line_for(detail_key: &str) -> Option<(String, f64)> {
    let pct = |prefix: &str, suffix: &str| {
        detail_key.strip_prefix(prefix).and_then(|r| r.strip_suffix(suffix)).filter(|p| p.parse::<f64>().is_ok()).map(String::from)
    };
    if let Some(p) = pct("result_first_token_", "_percentile_latency_ns") {
        return Some((format!("{p} percentile first token latency (ns)"), 1e-6));
    }
    if let Some(p) = pct("result_time_per_output_token_", "_percentile_ns") {
        return Some((format!("{p} percentile time to output token (ns)"), 1e-6));
    }
    if let Some(p) = pct("result_", "_percentile_latency_ns") {
        return Some((format!("{p} percentile latency (ns)"), 1e-6));
    }
    match detail_key {
        "result_completed_samples_per_sec" => Some(("Completed samples per second".into(), 1.0)),
        "result_completed_tokens_per_second" => Some(("Completed tokens per second".into(), 1.0)),
        "result_samples_per_second" => Some(("Samples per second".into(), 1.0)),
        "result_tokens_per_second" => Some(("Tokens per second".into(), 1.0)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_definitions() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(statistic(&v, "median"), Some(2.5));
        assert!((statistic(&v, "p99").unwrap() - 3.97).abs() < 1e-12);
        assert_eq!(statistic(&v, "p75_rank"), Some(3.0), "nearest rank: x[ceil(0.75·4) − 1]");
        assert_eq!(statistic(&v, "median_lower"), Some(2.0));
        assert_eq!(statistic(&v, "std"), Some(1.118033988749895));
        assert_eq!(percentile_stat("99.90"), "p99.9");
        assert_eq!(percentile_stat("50"), "p50");
    }

    #[test]
    fn counts_sums_and_single_values() {
        assert_eq!(statistic(&[], "count"), Some(0.0), "a tool's 0 failures is recomputable from no rows");
        assert_eq!(statistic(&[], "sum"), Some(0.0));
        assert_eq!(statistic(&[1.0, f64::NAN, 1.0], "count"), Some(2.0), "a non-finite value is not counted");
        assert_eq!(statistic(&[27.0, 25.0], "sum"), Some(52.0));
        assert_eq!(statistic(&[3.5], "value"), Some(3.5));
        assert_eq!(statistic(&[3.5, 4.0], "value"), None, "a value is one derived number, not a distribution");
    }
}
