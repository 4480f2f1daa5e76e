//! The source tool's own summary numbers ("claims"), recomputed from its raw per-request
//! values with the tool's definition, and set beside credence's steady-state estimate.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use credence_messages::{Lang, Message};
use credence_stats::quantile::quantile_sorted;

/// A tool's own definition of a number: a message of `locales/*/definitions.ftl`, so that a
/// report words it in its language. The JSON keeps its English text.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition(pub Message);

impl Definition {
    /// The definition with catalog id `id` (`def-guidellm-tpot`).
    pub fn id(id: &str) -> Definition {
        Definition(Message::new(id))
    }

    pub fn english(&self) -> String {
        self.0.render(Lang::En)
    }
}

impl Serialize for Definition {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.english())
    }
}

/// The sentence credence's MLPerf importer records as the `detail.incomplete` fact when a detail
/// log has no `result_*` key; the analysis and the renderers recognise it.
pub const MLPERF_TRUNCATED: &str = "the log ends before any result_* key: the run did not finish or the log was truncated";

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
    pub definition: Option<Definition>,
}

/// Raw per-request values by metric (ms), with the tool's own definitions, for recomputation.
/// A tool that weighs its values (guidellm weighs TPOT by output tokens, rates by the time they
/// held) stores the weights under `metric#weights`, and a count that is not their sum under
/// `metric#count`: such a metric is summarised by `distribution::statistic`.
pub type RawValues = BTreeMap<String, Vec<f64>>;

/// Suffix of the raw key holding the weights of a metric's values.
pub const WEIGHTS_SUFFIX: &str = "#weights";
/// Suffix of the raw key holding a weighted metric's observation count (one number).
pub const COUNT_SUFFIX: &str = "#count";

/// The claim's statistic recomputed from the raw values of its metric, weighted when the tool
/// stored weights for them.
pub fn recompute(raw: &RawValues, metric: &str, stat: &str) -> Option<f64> {
    let values = raw.get(metric)?;
    match raw.get(&format!("{metric}{WEIGHTS_SUFFIX}")) {
        Some(weights) => {
            let count = raw.get(&format!("{metric}{COUNT_SUFFIX}")).and_then(|c| c.first().copied());
            super::distribution::statistic(values, weights, count, stat)
        }
        None => statistic(values, stat),
    }
}

/// A statistic of `values` the way numpy computes it (type-7 percentiles, population std).
/// NaN is a missing value; +∞ stands for an unbounded one (a failed request in AIPerf's
/// error-adjusted latencies) and counts only in `count_all` and the `_nearest` percentiles.
/// `count` and `sum` are defined on no values too (0: a tool's "0 failures"); `value` is the
/// one number an importer derived with the tool's formula from its per-request data (a rate
/// over the tool's own window).
pub fn statistic(values: &[f64], stat: &str) -> Option<f64> {
    if stat == "count_all" || stat.ends_with("_nearest") {
        return unbounded_statistic(values, stat);
    }
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
        // Population variance and the most frequent value, the smallest on ties (guidellm's
        // `variance` and `mode`; its `count` and `total_sum` are `count` and `sum` above).
        "variance" => Some(v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n),
        "mode" => super::distribution::statistic(&v, &vec![1.0; v.len()], None, "mode"),
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

/// The percentile (a fraction) a claim's statistic names, whatever the tool's method:
/// `median`, `median_lower`, `p99`, `p99.9`, `p95_rank`, `p50_nearest`.
pub fn percentile_of_stat(stat: &str) -> Option<f64> {
    if stat == "median" || stat == "median_lower" {
        return Some(0.5);
    }
    let digits = stat.strip_prefix('p')?;
    let digits = digits.strip_suffix("_rank").or_else(|| digits.strip_suffix("_nearest")).unwrap_or(digits);
    digits.parse::<f64>().ok().filter(|p| *p > 0.0 && *p < 100.0).map(|p| p / 100.0)
}

/// `count_all` (every value that is not NaN) and numpy's `method="nearest"` percentiles
/// (`pN_nearest`: the value at index q/100·(n − 1) rounded half to even), with +∞ kept.
fn unbounded_statistic(values: &[f64], stat: &str) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| !x.is_nan() && *x != f64::NEG_INFINITY).collect();
    if v.is_empty() {
        return None;
    }
    if stat == "count_all" {
        return Some(v.len() as f64);
    }
    let q = stat.strip_prefix('p')?.strip_suffix("_nearest")?.parse::<f64>().ok().filter(|q| (0.0..=100.0).contains(q))?;
    v.sort_by(f64::total_cmp);
    let index = (q / 100.0 * (v.len() - 1) as f64).round_ties_even() as usize;
    Some(v[index])
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
        assert_eq!(statistic(&v, "variance"), Some(1.25));
        assert_eq!(statistic(&[3.0, 1.0, 3.0, 1.0, 2.0], "mode"), Some(1.0), "the smallest of the most frequent");
        assert_eq!((statistic(&v, "count"), statistic(&v, "sum")), (Some(4.0), Some(10.0)));
        assert_eq!((statistic(&[], "count"), statistic(&[], "mean")), (Some(0.0), None), "no values: only a count");
        assert_eq!(percentile_stat("99.90"), "p99.9");
        assert_eq!(percentile_stat("50"), "p50");
        assert_eq!(percentile_of_stat("median_lower"), Some(0.5));
        assert!((percentile_of_stat("p99.9").unwrap() - 0.999).abs() < 1e-15);
        assert_eq!(percentile_of_stat("p95_rank"), Some(0.95));
        assert_eq!(percentile_of_stat("std"), None);
    }

    #[test]
    fn unbounded_values_count_in_nearest_percentiles_only() {
        // AIPerf's adjusted latency: successes 1..=4 and two failures as +∞ (n = 6).
        let v = [4.0, 1.0, 3.0, 2.0, f64::INFINITY, f64::INFINITY, f64::NAN];
        assert_eq!(statistic(&v, "count_all"), Some(6.0));
        assert_eq!(statistic(&v, "count"), Some(4.0));
        // numpy.percentile(v, 50, method="nearest"): index 2.5 rounds half to even → 2.
        assert_eq!(statistic(&v, "p50_nearest"), Some(3.0));
        // index 0.75·5 = 3.75 → 4: a failure.
        assert_eq!(statistic(&v, "p75_nearest"), Some(f64::INFINITY));
        assert_eq!(statistic(&v, "p10_nearest"), Some(1.0));
        assert_eq!(statistic(&v, "max"), Some(4.0), "other statistics leave +∞ out");
    }

    #[test]
    fn weighted_metrics_are_recomputed_with_their_weights() {
        let mut raw = RawValues::new();
        raw.insert("tpot".into(), vec![10.0, 40.0]);
        assert_eq!(recompute(&raw, "tpot", "mean"), Some(25.0), "no weights: plain values");
        raw.insert(format!("tpot{WEIGHTS_SUFFIX}"), vec![3.0, 1.0]);
        assert_eq!(recompute(&raw, "tpot", "mean"), Some(17.5));
        raw.insert(format!("tpot{COUNT_SUFFIX}"), vec![9.0]);
        assert_eq!(recompute(&raw, "tpot", "count"), Some(9.0));
        assert_eq!(recompute(&raw, "itl", "mean"), None);
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
