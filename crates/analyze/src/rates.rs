//! Throughput and error rates over the steady window.
//!
//! Throughput = completions (or tokens) in the steady window's whole time windows divided by
//! their duration; its interval comes from the stationary block bootstrap over the per-window
//! counts (Politis–White block length, percentile interval). Error rates use the Wilson
//! interval, per kind and overall.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::estimate::{Estimate, Method};
use super::intervals::IntervalOptions;
use super::requests::RequestView;
use credence_stats::block_length::politis_white;
use credence_stats::resample::stat_id;
use credence_stats::stationary::{percentile_of, series_mean_bootstrap};
use credence_stats::wilson::wilson_interval;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Throughput {
    pub requests_per_s: Estimate,
    pub output_tokens_per_s: Estimate,
    pub input_tokens_per_s: Estimate,
    /// Whole windows the rates are computed over.
    pub windows: usize,
    pub window_s: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ErrorRates {
    /// Requests with an outcome: those the load generator cancelled itself are not counted.
    pub requests: u64,
    pub errors: u64,
    /// Requests the load generator cancelled (in flight when its run ended, or stopped by the
    /// user): neither a success nor a failure of the server, so outside the rate.
    pub cancelled: u64,
    /// Share of requests that failed, with a Wilson interval.
    pub rate: Estimate,
    pub by_kind: BTreeMap<String, Estimate>,
    /// The most frequent error messages of the whole run (untrusted text, shown as data).
    pub examples: Vec<ErrorExample>,
}

/// An error message as the server or tool reported it, with how often it occurred.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ErrorExample {
    pub kind: String,
    /// Control characters escaped, cut to 200 characters.
    pub message: String,
    pub count: u64,
}

/// The five most frequent (kind, message) pairs of the failed requests in the table.
pub fn error_examples(t: &credence_run::Table) -> Vec<ErrorExample> {
    let mut counter = ErrorExampleCounter::default();
    counter.push(t);
    counter.finish()
}

/// Counts (kind, message) pairs of failed requests over a table read in batches.
#[derive(Default)]
pub struct ErrorExampleCounter {
    counts: BTreeMap<(String, String), u64>,
}

impl ErrorExampleCounter {
    pub fn push(&mut self, t: &credence_run::Table) {
        use arrow_array::Array;
        let (Some(msg), Some(status)) = (t.strings("error_message"), t.strings("status")) else { return };
        let kind = t.strings("error_kind");
        for i in 0..t.num_rows() {
            if status.is_null(i) || status.value(i) != "error" || msg.is_null(i) {
                continue;
            }
            let k = kind.filter(|k| !k.is_null(i)).map_or("other", |k| k.value(i)).to_string();
            let m: String = credence_run::text::sanitize(msg.value(i)).chars().take(200).collect();
            *self.counts.entry((k, m)).or_default() += 1;
        }
    }

    /// The five most frequent pairs, most frequent first.
    pub fn finish(self) -> Vec<ErrorExample> {
        let mut v: Vec<ErrorExample> = self.counts.into_iter().map(|((kind, message), count)| ErrorExample { kind, message, count }).collect();
        v.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.kind.cmp(&b.kind)).then_with(|| a.message.cmp(&b.message)));
        v.truncate(5);
        v
    }
}

/// Most windows a rate's bootstrap resamples: an hour of 1-second windows. The Politis–White
/// block length costs k^1.5 and each resample k / block, so a 93-hour run's 335 000 windows
/// took seconds; longer series are averaged over runs of consecutive windows first (the same
/// mean), and the block length is still reported in windows.
const MAX_RATE_WINDOWS: usize = 3600;

pub(crate) fn rate(name: &str, per_window: &[f64], window_s: f64, o: &IntervalOptions) -> Estimate {
    let k = per_window.len();
    let total: f64 = per_window.iter().sum();
    if k < 2 {
        return Estimate::not_applicable(o.confidence, total as u64, "the steady window holds fewer than 2 whole windows");
    }
    let point = total / (k as f64 * window_s);
    let merge = k.div_ceil(MAX_RATE_WINDOWS);
    let merged: Vec<f64>;
    let series = if merge > 1 {
        merged = per_window.chunks(merge).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect();
        &merged[..]
    } else {
        per_window
    };
    let block = politis_white(series).map_or(1.0, |b| b.stationary);
    let dist = series_mean_bootstrap(series, block, o.resamples, o.seed, stat_id(name));
    match percentile_of(&dist, o.confidence) {
        Some((lo, hi)) => Estimate::two_sided(point, (lo / window_s, hi / window_s), o.confidence, Method::StationaryBootstrap, k as u64).resampled(
            o.seed,
            o.resamples,
            Some(block * merge as f64),
        ),
        None => Estimate::insufficient(point, None, None, o.confidence, Method::StationaryBootstrap, k as u64, "empty bootstrap distribution"),
    }
}

/// A token rate, honest about missing counts: none when no completion carries one (a server
/// that sends no usage), a lower bound when only some do.
fn token_rate(name: &str, per_window: &[f64], (known, counted): (usize, usize), window_s: f64, o: &IntervalOptions) -> Estimate {
    if known == 0 && counted > 0 {
        return Estimate::not_applicable(o.confidence, 0, "no completed request carries a token count (the server sent no usage)");
    }
    let est = rate(name, per_window, window_s, o);
    if known < counted {
        let why = format!("{} of {counted} completed requests lack a token count: this rate counts only the others (a lower bound)", counted - known);
        return Estimate::insufficient(est.estimate.unwrap_or(f64::NAN), est.ci_low, None, o.confidence, est.method, est.n, why);
    }
    est
}

/// Throughput over `[start_s, end_s)`, by completion time, in whole windows.
pub fn throughput(r: &RequestView, start_s: f64, end_s: f64, window_s: f64, o: &IntervalOptions) -> Throughput {
    throughput_over(r, &[(start_s, end_s)], window_s, o)
}

/// Throughput over the whole windows of several spans (a condition's windows, in time order),
/// their per-window counts joined into one series for the block bootstrap.
pub fn throughput_over(r: &RequestView, spans: &[(f64, f64)], window_s: f64, o: &IntervalOptions) -> Throughput {
    // Each span's whole windows, and where they start in the joined series.
    let whole: Vec<usize> = spans.iter().map(|(a, b)| ((b - a) / window_s).floor().max(0.0) as usize).collect();
    let offsets: Vec<usize> = whole
        .iter()
        .scan(0, |acc, k| {
            let at = *acc;
            *acc += k;
            Some(at)
        })
        .collect();
    let k: usize = whole.iter().sum();
    let (mut req, mut out_tok, mut in_tok) = (vec![0.0; k], vec![0.0; k], vec![0.0; k]);
    // Completions counted, and how many of them carry each token count.
    let (mut counted, mut out_known, mut in_known) = (0usize, 0usize, 0usize);
    for i in 0..r.len() {
        let e = r.end_s[i];
        if !r.ok[i] || !e.is_finite() {
            continue;
        }
        let Some(j) = spans.iter().position(|(a, b)| e >= *a && e < *b) else { continue };
        let w = ((e - spans[j].0) / window_s).floor() as usize;
        if w < whole[j] {
            let w = offsets[j] + w;
            req[w] += 1.0;
            counted += 1;
            if r.output_tokens[i].is_finite() {
                out_tok[w] += f64::from(r.output_tokens[i]);
                out_known += 1;
            }
            if r.input_tokens[i].is_finite() {
                in_tok[w] += f64::from(r.input_tokens[i]);
                in_known += 1;
            }
        }
    }
    Throughput {
        requests_per_s: rate("throughput.requests", &req, window_s, o),
        output_tokens_per_s: token_rate("throughput.output_tokens", &out_tok, (out_known, counted), window_s, o),
        input_tokens_per_s: token_rate("throughput.input_tokens", &in_tok, (in_known, counted), window_s, o),
        windows: k,
        window_s,
    }
}

/// Error rates among requests sent in `[first, last)` (send order indices), those the load
/// generator cancelled set aside.
pub fn error_rates(r: &RequestView, first: usize, last: usize, cl: f64) -> ErrorRates {
    let mut by_kind: BTreeMap<String, u64> = BTreeMap::new();
    let (mut errors, mut cancelled) = (0u64, 0u64);
    for i in first..last {
        if !r.ok[i] {
            let k = r.error_kind[i].map_or("other", RequestView::kind_name);
            if k == "cancelled" {
                cancelled += 1;
                continue;
            }
            errors += 1;
            *by_kind.entry(k.to_string()).or_insert(0) += 1;
        }
    }
    let n = last.saturating_sub(first) as u64 - cancelled;
    let est = |k: u64| match wilson_interval(k, n, cl) {
        Some(ci) => Estimate::two_sided(k as f64 / n as f64, ci, cl, Method::Wilson, n),
        None => Estimate::not_applicable(cl, n, "no requests in the steady window"),
    };
    ErrorRates { requests: n, errors, cancelled, rate: est(errors), by_kind: by_kind.into_iter().map(|(k, c)| (k, est(c))).collect(), examples: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status;

    #[test]
    fn token_rates_say_when_counts_are_missing() {
        let o = IntervalOptions { confidence: 0.95, seed: 1, resamples: 999, extra_percentiles: Vec::new(), percentiles_only: false };
        let per_window = [40.0, 44.0, 38.0, 41.0, 43.0, 39.0];
        let none = token_rate("t", &[0.0; 6], (0, 60), 1.0, &o);
        assert_eq!((none.status, none.estimate), (Status::NotApplicable, None), "a server without usage is not 0 tokens/s");
        let some = token_rate("t", &per_window, (50, 60), 1.0, &o);
        assert_eq!(some.status, Status::InsufficientData);
        assert!(some.ci_high.is_none() && some.note.as_deref().unwrap().starts_with("10 of 60 completed requests lack a token count"));
        let all = token_rate("t", &per_window, (60, 60), 1.0, &o);
        assert_eq!((all.status, all.estimate), (Status::Ok, Some(245.0 / 6.0)));
    }
}
