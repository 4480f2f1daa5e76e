//! Conditions: the run's numbers in clean windows and during each environmental episode.
//!
//! Attribution finds episodes with an environmental cause (throttling, a power cap, another
//! process on the GPU, a saturated client, the network, the host). Left in the measured window
//! they are noise that is not noise: they make the series non-stationary, inflate the design
//! effect and with it every interval (the demo's P50 TTFT had 16 effective observations of
//! 5,770). Here each such finding's affected windows (its episodes, widened by the lag found
//! between the cause and the latency, and by at least one analysis window on each side)
//! become a condition:
//! - `clean`: the steady window minus every affected window;
//! - one per cause: the steady window inside that cause's affected windows.
//!
//! Each condition gets the same estimates as the whole window, from a block bootstrap over the
//! resampling groups of that condition only (groups renumbered in time order, so blocks run
//! across a gap as if it were not there), and its throughput over its whole windows. Nothing
//! is excluded silently: each condition records the seconds and requests it leaves out.
//! Causes of the system under test itself (server queueing, error bursts, drift, a ramp-down)
//! are not conditions: they are what the benchmark measures.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::attribute::episodes::{Span, merge};
use super::attribute::{ANOMALY_WINDOW_S, Finding};
use super::cause::Cause;
use super::estimate::Estimate;
use super::intervals::{Dependence, IntervalOptions};
use super::rates::{Throughput, throughput_over};
use super::requests::RequestView;
use super::steady::SteadyState;
use super::{MetricTables, ResamplingGroups};

/// Name of the condition without any episode.
pub const CLEAN: &str = "clean";

/// One condition of a run: where it held, what it left out, and the numbers inside it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Condition {
    /// `clean`, or the cause (`thermal_throttle`, …).
    pub name: String,
    /// The cause of the episodes; null for `clean`.
    pub cause: Option<Cause>,
    /// The cause in words (`GPU thermal throttling`), or `clean windows`.
    pub title: String,
    /// Seconds of the steady window this entry takes out of the clean condition: for `clean`,
    /// every affected window; for a cause, its own.
    pub excluded_s: f64,
    /// Requests of the steady window sent in those seconds.
    pub excluded_requests: usize,
    /// `excluded_s` as a share of the steady window.
    pub excluded_share: f64,
    /// Seconds and requests (by send time) the condition's numbers are computed over.
    pub duration_s: f64,
    pub requests: usize,
    /// Where the condition held, inside the steady window.
    pub windows: Vec<Span>,
    /// `metrics.<metric>.<stat>`, as `Analysis.metrics`, over this condition's requests.
    pub metrics: BTreeMap<String, BTreeMap<String, Estimate>>,
    /// Dependence of each metric inside the condition.
    pub dependence: BTreeMap<String, Dependence>,
    pub throughput: Throughput,
}

/// The affected windows of each finding with an environmental cause, per cause (merged, in time
/// order, run clock): each episode widened by the lag between the cause and the latency (after
/// it when the latency follows, before it when it leads) plus one window on each side: the
/// attribution window (`ANOMALY_WINDOW_S`, the resolution at which episodes and lags are
/// measured) or `window_s` if longer. A queue built during an episode takes seconds to drain.
pub fn affected_windows(findings: &[Finding], window_s: f64) -> Vec<(Cause, String, Vec<Span>)> {
    let pad = window_s.max(ANOMALY_WINDOW_S);
    findings
        .iter()
        .filter(|f| f.cause.is_environmental() && !f.episodes.is_empty())
        .map(|f| {
            let lag = f.strength.lag_s.unwrap_or(0.0);
            let spans = f.episodes.iter().map(|e| Span { start_s: e.start_s - pad - (-lag).max(0.0), end_s: e.end_s + pad + lag.max(0.0) }).collect();
            (f.cause, f.title.clone(), merge(spans, 0.0))
        })
        .collect()
}

/// Every affected window of every environmental cause, merged: what the clean series leaves out.
pub fn excluded_spans(findings: &[Finding], window_s: f64) -> Vec<Span> {
    merge(affected_windows(findings, window_s).into_iter().flat_map(|(_, _, s)| s).collect(), 0.0)
}

/// `spans` clipped to `[from, to)`, empty pieces dropped.
fn clip(spans: &[Span], from: f64, to: f64) -> Vec<Span> {
    spans.iter().map(|s| Span { start_s: s.start_s.max(from), end_s: s.end_s.min(to) }).filter(|s| s.end_s > s.start_s).collect()
}

/// `[from, to)` minus `spans` (merged, in order).
pub(crate) fn complement(spans: &[Span], from: f64, to: f64) -> Vec<Span> {
    let mut out = Vec::new();
    let mut at = from;
    for s in spans {
        if s.start_s > at {
            out.push(Span { start_s: at, end_s: s.start_s.min(to) });
        }
        at = at.max(s.end_s);
    }
    if to > at {
        out.push(Span { start_s: at, end_s: to });
    }
    out.into_iter().filter(|s| s.end_s > s.start_s).collect()
}

fn total(spans: &[Span]) -> f64 {
    spans.iter().map(Span::duration).sum()
}

pub(crate) fn inside(spans: &[Span], t: f64) -> bool {
    spans.iter().any(|s| s.contains(t))
}

/// What one condition is before its numbers: name, where it held, and what it leaves out.
struct Plan {
    name: String,
    cause: Option<Cause>,
    title: String,
    windows: Vec<Span>,
    excluded: Vec<Span>,
}

/// The conditions of a run: none when no environmental episode touches the steady window,
/// else `clean` then one per cause in the order of the findings.
pub(super) fn conditions(r: &RequestView, steady: &SteadyState, findings: &[Finding], window_s: f64, iopts: &IntervalOptions) -> Vec<Condition> {
    let (from, to) = (steady.start_s, steady.end_s);
    let causes: Vec<(Cause, String, Vec<Span>)> =
        affected_windows(findings, window_s).into_iter().map(|(c, t, s)| (c, t, clip(&s, from, to))).filter(|(_, _, s)| !s.is_empty()).collect();
    if causes.is_empty() {
        return Vec::new();
    }
    let all = merge(causes.iter().flat_map(|(_, _, s)| s.iter().copied()).collect(), 0.0);
    let mut plans = vec![Plan { name: CLEAN.into(), cause: None, title: "clean windows".into(), windows: complement(&all, from, to), excluded: all }];
    for (cause, title, spans) in causes {
        plans.push(Plan { name: cause.id().to_string(), cause: Some(cause), title, windows: spans.clone(), excluded: spans });
    }
    let groups = ResamplingGroups::of(r, steady, window_s);
    plans.into_iter().map(|p| condition(r, steady, &groups, p, window_s, iopts)).collect()
}

/// One condition's numbers over the requests sent inside its windows.
fn condition(r: &RequestView, steady: &SteadyState, groups: &ResamplingGroups, p: Plan, window_s: f64, iopts: &IntervalOptions) -> Condition {
    let g = groups.filtered(|i| inside(&p.windows, r.sent_s[i]));
    let excluded_requests = groups.idx.iter().filter(|&i| inside(&p.excluded, r.sent_s[i])).count();
    let mut tables = MetricTables::default();
    tables.add_columns(r, &g, iopts);
    tables.add_itl(r, &g, iopts);
    let spans: Vec<(f64, f64)> = p.windows.iter().map(|s| (s.start_s, s.end_s)).collect();
    let span_s = (steady.end_s - steady.start_s).max(f64::MIN_POSITIVE);
    Condition {
        name: p.name,
        cause: p.cause,
        title: p.title,
        excluded_s: total(&p.excluded),
        excluded_requests,
        excluded_share: total(&p.excluded) / span_s,
        duration_s: total(&p.windows),
        requests: g.idx.len(),
        metrics: tables.metrics,
        dependence: tables.dependence,
        throughput: throughput_over(r, &spans, window_s, iopts),
        windows: p.windows,
    }
}

/// The clean condition of an analysis, when it has episodes.
pub fn clean(conditions: &[Condition]) -> Option<&Condition> {
    conditions.iter().find(|c| c.name == CLEAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(a: f64, b: f64) -> Span {
        Span { start_s: a, end_s: b }
    }

    #[test]
    fn clean_windows_are_the_steady_window_minus_the_episodes() {
        let episodes = [s(119.0, 196.0), s(250.0, 260.0)];
        assert_eq!(complement(&episodes, 11.0, 300.0), vec![s(11.0, 119.0), s(196.0, 250.0), s(260.0, 300.0)]);
        assert_eq!(complement(&[s(0.0, 20.0)], 11.0, 300.0), vec![s(20.0, 300.0)]);
        assert_eq!(complement(&[s(290.0, 320.0)], 11.0, 300.0), vec![s(11.0, 290.0)]);
        assert_eq!(clip(&[s(0.0, 20.0), s(400.0, 410.0)], 11.0, 300.0), vec![s(11.0, 20.0)]);
    }
}
