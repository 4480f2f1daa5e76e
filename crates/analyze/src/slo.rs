//! Service-level objectives (`--slo ttft_p99=500ms,tpot_p99=50ms`): for each objective, the
//! percentile against its threshold, decided by its interval (met, violated or undecided);
//! the share of requests that meet every objective's threshold (SLO attainment) and the rate
//! of such requests (goodput, as DistServe defines it: OSDI 2024). A failed request meets no
//! objective: it is a miss, not absent.
//!
//! Attainment is a ratio of per-window counts over the steady window (requests meeting every
//! threshold / requests sent), its interval by the delta method with the flat-top long-run
//! variance (windows are dependent); goodput is the per-window count of such completions per
//! second with the throughput's stationary bootstrap.

use serde::{Deserialize, Serialize};

use crate::estimate::{Estimate, Method};
use crate::intervals::{IntervalOptions, percentile_key};
use crate::requests::RequestView;
use crate::until::spec::{TargetMetric, metric_of};
use credence_stats::block_length::long_run_variance;
use statrs::distribution::{ContinuousCDF, Normal};

/// The latency families an objective may name (per-request values).
const FAMILIES: [&str; 3] = ["ttft", "tpot", "e2e"];

/// One objective as given: `ttft_p99=500ms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveSpec {
    pub key: String,
    pub family: String,
    pub percentile: f64,
    pub threshold_ms: f64,
}

/// One objective, judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    pub key: String,
    pub threshold_ms: f64,
    /// The percentile, with its interval, as `metrics` has it.
    pub estimate: Estimate,
    /// `met` (the interval lies at or below the threshold), `violated` (above it) or
    /// `undecided`.
    pub verdict: String,
    /// Share of the measured window's requests within this objective's threshold alone.
    pub within_share: Option<f64>,
}

/// The objectives judged, attainment and goodput.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Slo {
    /// The objectives as given (`ttft_p99=500ms,tpot_p99=50ms`).
    pub spec: String,
    pub objectives: Vec<Objective>,
    /// Share of the measured window's requests meeting every threshold (failures miss).
    pub attainment: Estimate,
    /// Requests per second completed within every threshold.
    pub goodput_per_s: Estimate,
    /// The objective that fails first: the lowest share within its threshold (none when every
    /// request is within every threshold).
    pub limited_by: Option<String>,
}

/// Every key an objective may name, for the error message.
pub fn known_keys() -> Vec<String> {
    crate::until::spec::known_metrics().into_iter().filter(|k| FAMILIES.iter().any(|f| k.starts_with(&format!("{f}_")))).collect()
}

/// Parses `METRIC=THRESHOLD,…` (a threshold in ms or s); the error names the part and lists
/// what is accepted.
pub fn parse(spec: &str) -> Result<Vec<ObjectiveSpec>, String> {
    let accepted = || format!("expected METRIC=THRESHOLD separated by commas, e.g. ttft_p99=500ms,tpot_p99=50ms, with METRIC one of {} and THRESHOLD a positive number with ms or s", known_keys().join(", "));
    let mut out: Vec<ObjectiveSpec> = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').ok_or_else(|| format!("--slo {spec:?}: {part:?} has no '=': {}", accepted()))?;
        let key = key.trim();
        let (family, p) = match metric_of(key) {
            Some(TargetMetric::Latency { family, p }) if FAMILIES.contains(&family) => (family, p),
            _ => return Err(format!("--slo {spec:?}: unknown metric {key:?}: {}", accepted())),
        };
        let threshold_ms = threshold(value.trim()).ok_or_else(|| format!("--slo {spec:?}: the threshold of {key} is {:?}: {}", value.trim(), accepted()))?;
        if out.iter().any(|o| o.key == key) {
            return Err(format!("--slo {spec:?}: {key} is named twice"));
        }
        out.push(ObjectiveSpec { key: key.to_string(), family: family.to_string(), percentile: p, threshold_ms });
    }
    if out.is_empty() {
        return Err(format!("--slo {spec:?}: no objective: {}", accepted()));
    }
    Ok(out)
}

/// `500ms` or `0.5s` in milliseconds; positive and finite, its unit required.
fn threshold(text: &str) -> Option<f64> {
    let (number, scale) = match text.strip_suffix("ms") {
        Some(n) => (n, 1.0),
        None => (text.strip_suffix('s')?, 1e3),
    };
    number.trim().parse::<f64>().ok().map(|v| v * scale).filter(|v| v.is_finite() && *v > 0.0)
}

/// A request's value of `family` (ms).
fn value(r: &RequestView, family: &str, i: usize) -> f64 {
    match family {
        "ttft" => r.ttft_ms[i],
        "tpot" => r.tpot_ms[i],
        _ => r.e2e_ms[i],
    }
}

/// Whether request `i` is within `o`'s threshold: failed requests never are; a value the
/// request lacks (no TPOT for a one-token answer) breaks no threshold.
fn within(r: &RequestView, o: &ObjectiveSpec, i: usize) -> bool {
    let v = value(r, &o.family, i);
    r.ok[i] && (v.is_nan() || v <= o.threshold_ms)
}

/// One spelling of the objectives (`1s` and `1000ms` alike), so that runs and searches compare.
pub fn canonical(specs: &[ObjectiveSpec]) -> String {
    specs.iter().map(|s| format!("{}={}ms", s.key, s.threshold_ms)).collect::<Vec<_>>().join(",")
}

/// The objectives of `spec` judged over the requests `range` (send order) of the steady window
/// `[start_s, end_s)`, against the percentiles in `metrics`.
pub fn evaluate(
    r: &RequestView,
    specs: &[ObjectiveSpec],
    (range, start_s, end_s): (std::ops::Range<usize>, f64, f64),
    metrics: &std::collections::BTreeMap<String, std::collections::BTreeMap<String, Estimate>>,
    (window_s, o): (f64, &IntervalOptions),
) -> Slo {
    let spec = canonical(specs);
    let n = range.len().max(1) as f64;
    let objectives: Vec<Objective> = specs
        .iter()
        .map(|s| {
            let estimate = metrics.get(&s.family).and_then(|m| m.get(&percentile_key(s.percentile))).cloned();
            let estimate = estimate.unwrap_or_else(|| Estimate::not_applicable(o.confidence, 0, "the percentile was not computed"));
            let within_share = (!range.is_empty()).then(|| range.clone().filter(|&i| within(r, s, i)).count() as f64 / n);
            Objective { key: s.key.clone(), threshold_ms: s.threshold_ms, verdict: verdict(&estimate, s.threshold_ms).into(), estimate, within_share }
        })
        .collect();
    let limited_by = objectives
        .iter()
        .filter_map(|o| Some((o, o.within_share.filter(|w| *w < 1.0)?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(o, _)| o.key.clone());
    let meets = |i: usize| specs.iter().all(|s| within(r, s, i));
    Slo {
        spec,
        attainment: attainment(r, &range, (start_s, end_s), &meets, (window_s, o.confidence)),
        goodput_per_s: goodput(r, (start_s, end_s), &meets, (window_s, o)),
        objectives,
        limited_by,
    }
}

/// Met when the percentile's interval lies at or below the threshold, violated when above it.
fn verdict(e: &Estimate, threshold_ms: f64) -> &'static str {
    match (e.ci_low, e.ci_high) {
        (_, Some(hi)) if hi <= threshold_ms => "met",
        (Some(lo), _) if lo > threshold_ms => "violated",
        _ => "undecided",
    }
}

/// The share of requests sent in each window that meet every threshold: a ratio of per-window
/// counts, its interval by the delta method with the flat-top long-run variance.
fn attainment(r: &RequestView, range: &std::ops::Range<usize>, (start_s, end_s): (f64, f64), meets: &dyn Fn(usize) -> bool, (window_s, cl): (f64, f64)) -> Estimate {
    let k = ((end_s - start_s) / window_s).floor().max(0.0) as usize;
    if k < 8 || range.is_empty() {
        return Estimate::not_applicable(cl, range.len() as u64, "fewer than 8 windows in the steady window");
    }
    let (mut met, mut sent) = (vec![0.0; k], vec![0.0; k]);
    for i in range.clone() {
        let w = ((r.sent_s[i] - start_s) / window_s).floor();
        if w >= 0.0 && (w as usize) < k {
            sent[w as usize] += 1.0;
            met[w as usize] += f64::from(u8::from(meets(i)));
        }
    }
    let (total, hits) = (sent.iter().sum::<f64>(), met.iter().sum::<f64>());
    if total <= 0.0 {
        return Estimate::not_applicable(cl, 0, "no requests in the steady window");
    }
    let share = hits / total;
    let z: Vec<f64> = met.iter().zip(&sent).map(|(m, s)| m - share * s).collect();
    let se = (long_run_variance(&z).unwrap_or(0.0) / k as f64).sqrt() / (total / k as f64);
    let q = Normal::standard().inverse_cdf(0.5 + cl / 2.0);
    // At or near 0 % or 100 % the delta method's interval collapses (no window varies); the
    // Wilson interval of the same counts still bounds it there, and the union of the two is kept.
    let (wl, wh) = credence_stats::wilson::wilson_interval(hits as u64, total as u64, cl).unwrap_or((share, share));
    let (lo, hi) = ((share - q * se).max(0.0).min(wl), (share + q * se).min(1.0).max(wh));
    Estimate::two_sided(share, (lo, hi), cl, Method::HacRatio, total as u64)
}

/// Completions per second within every threshold, over the steady window's whole windows.
fn goodput(r: &RequestView, (start_s, end_s): (f64, f64), meets: &dyn Fn(usize) -> bool, (window_s, o): (f64, &IntervalOptions)) -> Estimate {
    let k = ((end_s - start_s) / window_s).floor().max(0.0) as usize;
    let mut per_window = vec![0.0; k];
    for i in 0..r.len() {
        let e = r.end_s[i];
        if e.is_finite() && e >= start_s && meets(i) {
            let w = ((e - start_s) / window_s).floor() as usize;
            if w < k {
                per_window[w] += 1.0;
            }
        }
    }
    crate::rates::rate("slo.goodput", &per_window, window_s, o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objectives_parse_with_units_and_bad_ones_list_what_is_accepted() {
        let s = parse("ttft_p99=500ms, tpot_p50=0.05s,e2e_p90=5s").unwrap();
        assert_eq!((s[0].family.as_str(), s[0].percentile, s[0].threshold_ms), ("ttft", 0.99, 500.0));
        assert_eq!(s[1].threshold_ms, 50.0);
        assert_eq!(s[2].threshold_ms, 5000.0);
        for (bad, says) in [("ttft_p98=1s", "unknown metric"), ("ttft_p99=500", "threshold"), ("ttft_p99=-5ms", "threshold"), ("ttft_p99", "no '='"), ("", "no objective"), ("itl_p99=5ms", "unknown metric")] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains(says) && e.contains("ttft_p99"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_verdict_needs_the_whole_interval_on_one_side() {
        let e = |lo, hi| Estimate::two_sided(0.5 * (lo + hi), (lo, hi), 0.95, Method::OrderStatistic, 100);
        assert_eq!(verdict(&e(300.0, 450.0), 500.0), "met");
        assert_eq!(verdict(&e(520.0, 600.0), 500.0), "violated");
        assert_eq!(verdict(&e(480.0, 520.0), 500.0), "undecided");
    }

    /// A percentile beyond the timeouts is a lower bound: above the threshold it is violated
    /// (the percentile exceeds the bound), below it nothing is decided.
    #[test]
    fn a_bound_beyond_the_timeouts_violates_a_threshold_below_it() {
        use crate::estimate::{CensoredBefore, Censoring};
        let c = Censoring { count: 40, share: 0.4, before: CensoredBefore::FirstToken };
        let bound = |lo| Estimate::beyond_censoring(Some(lo), 0.95, Method::KaplanMeier, 100, c, "beyond");
        assert_eq!(verdict(&bound(20_000.0), 500.0), "violated");
        assert_eq!(verdict(&bound(400.0), 500.0), "undecided");
        // A number whose upper bound lies among the timed-out requests cannot be met.
        let open = Estimate::insufficient(450.0, Some(420.0), None, 0.95, Method::KaplanMeier, 100, "open");
        assert_eq!(verdict(&open, 500.0), "undecided");
    }
}
