//! The values behind AIPerf's summary, per phase, computed from `profile_export.jsonl` the way
//! AIPerf 0.13.0 computes them (`aiperf/metrics/`, `aiperf/metrics/derived_latency.py`), so
//! every claim of `profile_export_aiperf.json` can be recomputed:
//! - each metric tag's per-record values (lists such as `inter_chunk_latency` flattened), over
//!   the records that carry the tag: errors carry only `error_isl`, so the latency statistics
//!   cover the successful requests;
//! - `credit_to_start_latency` = start − credit issued and `effective_latency` = end − credit
//!   issued, over every record, clamped at 0;
//! - the error-adjusted `adj_*` latencies: the successful values plus one +∞ per error;
//! - the counts, the error rate (% of completed) and `benchmark_duration` (the last response,
//!   start + `request_latency`, minus the first start).
//!
//! The throughputs also need the phase's window, which only the other files give
//! (`super::combine`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::metric_name;
use super::records::Record;
use super::values::metric_value;
use crate::json::number;
use credence_run::claims::RawValues;

/// The AIPerf latencies whose error-adjusted distribution (`adj_<tag>`) it reports when a
/// phase has errors (`MetricFlags.PERCENTILE_INCLUDES_FAILED_REQUESTS`).
const ADJUSTED: [&str; 4] = ["request_latency", "time_to_first_token", "inter_token_latency", "decode_duration"];

/// One phase's records, summed up as AIPerf does.
#[derive(Default)]
pub(super) struct PhaseTotals {
    /// Every metric tag's values, as written (unit per tag, as in the aggregate).
    values: BTreeMap<String, Vec<f64>>,
    valid: u64,
    errors: u64,
    cancelled: u64,
    first_start_ns: Option<i64>,
    /// The latest start + `request_latency` (AIPerf's "maximum response timestamp").
    last_response_ns: Option<f64>,
    credit_to_start_ms: Vec<f64>,
    effective_ms: Vec<f64>,
}

impl PhaseTotals {
    /// Adds one record of this phase.
    pub fn add(&mut self, rec: &Record, metrics: &Value) {
        if rec.errored {
            self.errors += 1;
        } else {
            self.valid += 1;
        }
        self.cancelled += u64::from(rec.cancelled);
        let start = rec.request.sent_ns;
        self.first_start_ns = Some(self.first_start_ns.map_or(start, |s| s.min(start)));
        if let Some(latency) = metric_value(metrics, "request_latency").and_then(number).filter(|x| x.is_finite()) {
            let response = start as f64 + latency * 1e6;
            self.last_response_ns = Some(self.last_response_ns.map_or(response, |r| r.max(response)));
        }
        if let Some(credit) = rec.credit_ns {
            self.credit_to_start_ms.push((start - credit).max(0) as f64 / 1e6);
            if let Some(end) = rec.end_ns {
                self.effective_ms.push((end - credit).max(0) as f64 / 1e6);
            }
        }
        for (tag, m) in metrics.as_object().into_iter().flatten() {
            let values = self.values.entry(tag.clone()).or_default();
            match m.get("value") {
                Some(Value::Array(list)) => values.extend(list.iter().map(|x| number(x).unwrap_or(f64::NAN))),
                // A non-number is NaN here, which no statistic counts; the row says why.
                Some(x) => values.push(number(x).unwrap_or(f64::NAN)),
                None => {}
            }
        }
    }

    /// Records of this phase.
    pub fn records(&self) -> u64 {
        self.valid + self.errors
    }

    /// Moves the phase's values into `raw`, under credence's metric names prefixed by
    /// `prefix` (`""` for profiling, `"warmup."`), with AIPerf's counts and duration.
    pub fn finish(mut self, prefix: &str, raw: &mut RawValues) {
        if self.records() == 0 {
            return;
        }
        for tag in ADJUSTED {
            if self.errors > 0
                && let Some(ok) = self.values.get(tag)
            {
                let mut adjusted = ok.clone();
                adjusted.extend(std::iter::repeat_n(f64::INFINITY, self.errors as usize));
                raw.insert(format!("{prefix}adj_{tag}"), adjusted);
            }
        }
        for (tag, values) in std::mem::take(&mut self.values) {
            raw.insert(format!("{prefix}{}", metric_name(&tag)), values);
        }
        raw.insert(format!("{prefix}credit_to_start_latency"), std::mem::take(&mut self.credit_to_start_ms));
        raw.insert(format!("{prefix}effective_latency"), std::mem::take(&mut self.effective_ms));
        let completed = self.valid + self.errors;
        let mut one = |k: &str, x: f64| raw.insert(format!("{prefix}{k}"), vec![x]);
        one("request_count", self.valid as f64);
        one("error_request_count", self.errors as f64);
        one("completed_request_count", completed as f64);
        one("request_error_rate", self.errors as f64 / completed as f64 * 100.0);
        if let (Some(first), Some(last)) = (self.first_start_ns, self.last_response_ns) {
            one("benchmark_duration", (last - first as f64) / 1e9);
        }
    }

    /// The phase's record counts as facts named `{name}.…`, for the audit's fact checks.
    pub fn facts(&self, name: &str) -> Vec<(String, String)> {
        vec![
            (format!("{name}.profiling_records"), self.records().to_string()),
            (format!("{name}.errors"), self.errors.to_string()),
            (format!("{name}.cancelled"), self.cancelled.to_string()),
        ]
    }
}
