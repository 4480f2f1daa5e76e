//! `--until SPEC`: the precision each metric must reach before a run may stop, e.g.
//! `ttft_p99=3%,tpot_p50=2%,throughput=2%` (each the 95 % interval's half-width relative to
//! its estimate).

use serde::{Deserialize, Serialize};

/// A metric a target can name: a latency percentile or the request throughput.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TargetMetric {
    /// `family` is `ttft`, `tpot`, `itl` or `e2e`; `p` a fraction (0.99).
    Latency { family: &'static str, p: f64 },
    /// Completed requests per second.
    Throughput,
}

/// One target: the metric as the user named it, and the relative half-width it must reach.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Target {
    pub key: String,
    /// The goal, a fraction: 0.03 for `3%`.
    pub goal: f64,
    /// A threshold to decide against instead of a width to reach (a capacity step's objective,
    /// in ms): the target is met once its interval lies on one side of it, so the width it
    /// needs is the estimate's distance to the threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold_ms: Option<f64>,
}

impl Target {
    /// The metric its key names (a parsed target always names one).
    pub fn metric(&self) -> Option<TargetMetric> {
        metric_of(&self.key)
    }
}

const FAMILIES: [&str; 4] = ["ttft", "tpot", "e2e", "itl"];
const PERCENTILES: [(&str, f64); 4] = [("p50", 0.5), ("p90", 0.9), ("p95", 0.95), ("p99", 0.99)];

/// Every metric a target can name, for the error message.
pub fn known_metrics() -> Vec<String> {
    let mut out: Vec<String> = FAMILIES.iter().flat_map(|f| PERCENTILES.iter().map(move |(k, _)| format!("{f}_{k}"))).collect();
    out.push("throughput".into());
    out
}

/// The metric a key names (`ttft_p99`, `throughput`).
pub fn metric_of(key: &str) -> Option<TargetMetric> {
    if key == "throughput" {
        return Some(TargetMetric::Throughput);
    }
    let (family, percentile) = key.split_once('_')?;
    let family = FAMILIES.into_iter().find(|f| *f == family)?;
    let p = PERCENTILES.iter().find(|(k, _)| *k == percentile)?.1;
    Some(TargetMetric::Latency { family, p })
}

/// Parses `METRIC=GOAL%,…`; the error names the part that is wrong and what is expected.
pub fn parse(spec: &str) -> Result<Vec<Target>, String> {
    let expected = || format!("expected METRIC=GOAL% separated by commas, e.g. ttft_p99=3%,throughput=2%, with METRIC one of {}", known_metrics().join(", "));
    let mut targets: Vec<Target> = Vec::new();
    for part in spec.split(',').map(str::trim) {
        let Some((key, goal)) = part.split_once('=') else {
            return Err(format!("--until {spec:?}: {part:?} has no '=': {}", expected()));
        };
        let key = key.trim();
        metric_of(key).ok_or_else(|| format!("--until {spec:?}: unknown metric {key:?}: {}", expected()))?;
        let number = goal.trim().strip_suffix('%').ok_or_else(|| format!("--until {spec:?}: the goal of {key} must be a percentage, e.g. 3%"))?;
        let goal =
            number.trim().parse::<f64>().ok().filter(|g| g.is_finite()).ok_or_else(|| format!("--until {spec:?}: {goal:?} is not a number: {}", expected()))?;
        if goal <= 0.0 || goal >= 100.0 {
            return Err(format!("--until {spec:?}: the goal of {key} must lie between 0 % and 100 % (exclusive), not {goal} %"));
        }
        if targets.iter().any(|t| t.key == key) {
            return Err(format!("--until {spec:?}: {key} is named twice"));
        }
        targets.push(Target { key: key.to_string(), goal: goal / 100.0, threshold_ms: None });
    }
    Ok(targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_names_its_metrics_and_goals() {
        let t = parse("ttft_p99=3%, tpot_p50=2%,throughput=2.5%").unwrap();
        assert_eq!(t.iter().map(|t| (t.key.as_str(), t.goal)).collect::<Vec<_>>(), [("ttft_p99", 0.03), ("tpot_p50", 0.02), ("throughput", 0.025)]);
        assert_eq!(t[0].metric(), Some(TargetMetric::Latency { family: "ttft", p: 0.99 }));
        assert_eq!(t[2].metric(), Some(TargetMetric::Throughput));
    }

    #[test]
    fn bad_specs_say_what_is_wrong_and_list_the_metrics() {
        for (spec, says) in [
            ("ttft_p42=3%", "unknown metric \"ttft_p42\""),
            ("latency=3%", "ttft_p99"),
            ("ttft_p99=0%", "between 0 % and 100 %"),
            ("ttft_p99=-1%", "between 0 % and 100 %"),
            ("ttft_p99=3", "must be a percentage"),
            ("ttft_p99", "has no '='"),
            ("ttft_p99=x%", "is not a number"),
            ("ttft_p99=3%,ttft_p99=2%", "named twice"),
        ] {
            let e = parse(spec).unwrap_err();
            assert!(e.contains(says), "{spec}: {e}");
        }
        assert!(parse("foo=1%").unwrap_err().contains("throughput"), "the error lists the metrics");
    }
}
