//! The metrics a history follows, and how one run's summary is read from its analysis JSON.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::compare::verdict::Better;

/// A per-run statistic followed across runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryMetric {
    TtftP50,
    TtftP99,
    TpotP50,
    TpotP99,
    E2eP50,
    E2eP99,
    OutputTokensPerS,
    RequestsPerS,
    ErrorRate,
}

impl HistoryMetric {
    pub const ALL: [HistoryMetric; 9] = [
        HistoryMetric::TtftP50,
        HistoryMetric::TtftP99,
        HistoryMetric::TpotP50,
        HistoryMetric::TpotP99,
        HistoryMetric::E2eP50,
        HistoryMetric::E2eP99,
        HistoryMetric::OutputTokensPerS,
        HistoryMetric::RequestsPerS,
        HistoryMetric::ErrorRate,
    ];

    /// What `--metric` selects when it is not given (the default list).
    pub const DEFAULT: [HistoryMetric; 6] = [
        HistoryMetric::TtftP50,
        HistoryMetric::TtftP99,
        HistoryMetric::TpotP50,
        HistoryMetric::E2eP99,
        HistoryMetric::OutputTokensPerS,
        HistoryMetric::ErrorRate,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HistoryMetric::TtftP50 => "ttft_p50",
            HistoryMetric::TtftP99 => "ttft_p99",
            HistoryMetric::TpotP50 => "tpot_p50",
            HistoryMetric::TpotP99 => "tpot_p99",
            HistoryMetric::E2eP50 => "e2e_p50",
            HistoryMetric::E2eP99 => "e2e_p99",
            HistoryMetric::OutputTokensPerS => "output_tokens_per_s",
            HistoryMetric::RequestsPerS => "requests_per_s",
            HistoryMetric::ErrorRate => "error_rate",
        }
    }

    pub fn from_name(name: &str) -> Option<HistoryMetric> {
        let name = if name == "throughput" { "output_tokens_per_s" } else { name };
        HistoryMetric::ALL.into_iter().find(|m| m.name() == name)
    }

    pub fn unit(self) -> &'static str {
        match self {
            HistoryMetric::OutputTokensPerS => "tokens/s",
            HistoryMetric::RequestsPerS => "requests/s",
            HistoryMetric::ErrorRate => "fraction",
            _ => "ms",
        }
    }

    pub fn better(self) -> Better {
        match self {
            HistoryMetric::OutputTokensPerS | HistoryMetric::RequestsPerS => Better::Higher,
            _ => Better::Lower,
        }
    }

    /// Where the analysis JSON keeps this statistic's estimate.
    fn pointer(self) -> &'static str {
        match self {
            HistoryMetric::TtftP50 => "/metrics/ttft/p50",
            HistoryMetric::TtftP99 => "/metrics/ttft/p99",
            HistoryMetric::TpotP50 => "/metrics/tpot/p50",
            HistoryMetric::TpotP99 => "/metrics/tpot/p99",
            HistoryMetric::E2eP50 => "/metrics/e2e/p50",
            HistoryMetric::E2eP99 => "/metrics/e2e/p99",
            HistoryMetric::OutputTokensPerS => "/throughput/output_tokens_per_s",
            HistoryMetric::RequestsPerS => "/throughput/requests_per_s",
            HistoryMetric::ErrorRate => "/errors/rate",
        }
    }
}

impl std::fmt::Display for HistoryMetric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One run's estimate of a metric and its interval, as its analysis reported them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RunValue {
    pub estimate: f64,
    /// None: the analysis gave no finite bound on that side.
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub confidence: f64,
}

impl RunValue {
    /// Whether the estimate has a two-sided interval: only then does the run enter the metric's
    /// series (a P99 from too few requests, with one bound or none, is shown but defines no
    /// change point).
    pub fn has_interval(&self) -> bool {
        self.ci_low.is_some() && self.ci_high.is_some()
    }

    /// Half the width of the 95 % interval, relative to the estimate (on the log scale when the
    /// estimate and bounds are positive); None without a two-sided interval.
    pub fn relative_half_width(&self) -> Option<f64> {
        let (lo, hi) = (self.ci_low?, self.ci_high?);
        if self.estimate > 0.0 && lo > 0.0 {
            Some((hi.ln() - lo.ln()) / 2.0)
        } else if self.estimate > 0.0 {
            Some((hi - lo) / 2.0 / self.estimate)
        } else {
            None
        }
    }
}

/// One run as a history sees it: identity, configuration, credibility and its estimates.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunPoint {
    pub run_id: String,
    /// Send time of the run's first request (ns since the Unix epoch); None when unknown.
    pub start_ns: Option<i64>,
    /// Hash of the configuration (see `fingerprint`); runs sharing it are one series.
    pub fingerprint: String,
    /// The configuration in words, e.g. `vllm · llama-3-8b · H100 · poisson 20/s`.
    pub configuration: String,
    /// Credibility grade of the run's analysis: HIGH, MEDIUM or LOW.
    pub grade: String,
    pub values: BTreeMap<HistoryMetric, RunValue>,
}

/// Reads a run's summary from its analysis JSON; the error names the missing field.
pub fn run_point(analysis: &Value) -> Result<RunPoint, String> {
    let text = |p: &str| analysis.pointer(p).and_then(Value::as_str).map(String::from).ok_or_else(|| format!("{p}: expected a string"));
    let run_id = text("/run/run_id")?;
    let grade = text("/credibility/grade")?;
    if !matches!(grade.as_str(), "HIGH" | "MEDIUM" | "LOW") {
        return Err(format!("/credibility/grade: expected HIGH, MEDIUM or LOW, found {grade:?}"));
    }
    let run = analysis.get("run").ok_or("/run: missing")?;
    let (fingerprint, configuration) = super::fingerprint::fingerprint(run);
    let timestamps_known = run.get("timestamps").and_then(Value::as_str) == Some("absolute");
    let start_ns = analysis.pointer("/timeseries/t0_ns").and_then(Value::as_i64).filter(|_| timestamps_known);
    let confidence = analysis.pointer("/options/confidence").and_then(Value::as_f64).unwrap_or(0.95);
    let mut values = BTreeMap::new();
    for m in HistoryMetric::ALL {
        if let Some(v) = analysis.pointer(m.pointer()).and_then(|e| run_value(e, confidence)) {
            values.insert(m, v);
        }
    }
    Ok(RunPoint { run_id, start_ns, fingerprint, configuration, grade, values })
}

/// An `Estimate` object as a `RunValue`; None when it has no finite point estimate.
fn run_value(e: &Value, default_confidence: f64) -> Option<RunValue> {
    let num = |k: &str| e.get(k).and_then(Value::as_f64).filter(|x| x.is_finite());
    Some(RunValue { estimate: num("estimate")?, ci_low: num("ci_low"), ci_high: num("ci_high"), confidence: num("confidence").unwrap_or(default_confidence) })
}
