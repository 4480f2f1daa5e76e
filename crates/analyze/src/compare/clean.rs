//! Verdicts on clean windows: the comparison again, each run restricted to its `clean`
//! condition (the steady window minus its environmental episodes, see `analyze::conditions`).
//!
//! When either arm has episodes, the as-measured verdict answers "what did these runs show?"
//! and the clean one "what does the change do when the environment behaves?". A throttled
//! candidate can hide a real regression or fake one; the clean verdict does neither. A run
//! without episodes contributes its whole steady window to both. The error rate is not split
//! by condition (errors are the system's own), so its clean verdict is the as-measured one.

use std::collections::BTreeMap;

use credence_messages::{Lang, Message, Sep};
use serde::Serialize;

use super::verdict::Verdict;
use super::{ArmRun, Arms, ChangeInterval, CompareOptions, MetricComparison, metric_specs, samples};
use crate::Estimate;
use crate::conditions::{Condition, clean};
use crate::intervals::Dependence;

/// Seconds of each arm's steady windows excluded from its clean condition (summed over runs).
#[derive(Debug, Clone, Serialize)]
pub struct Excluded {
    pub base_s: f64,
    pub cand_s: f64,
    /// The same as a share of the arm's steady windows.
    pub base_share: f64,
    pub cand_share: f64,
}

/// One metric's change on clean windows.
#[derive(Debug, Clone, Serialize)]
pub struct CleanMetric {
    pub change: ChangeInterval,
    /// Each arm's statistic in its clean windows (the mean over its runs).
    pub base: f64,
    pub cand: f64,
    pub tolerance: f64,
    pub verdict: Verdict,
    pub reason: Option<String>,
}

/// The comparison on clean windows.
#[derive(Debug, Clone, Serialize)]
pub struct CleanComparison {
    pub valid: bool,
    pub excluded: Excluded,
    /// Same names as the as-measured `metrics`.
    pub metrics: BTreeMap<String, CleanMetric>,
    /// The headline in the form "+X % in clean conditions; +Y % as measured (…)", on P50 TTFT:
    /// `sentence_message` in English.
    pub sentence: Option<String>,
    /// The same sentence as data, which every report language renders.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentence_message: Option<Message>,
}

/// Whether a request sent at `t` counts: every request of the steady window as measured, only
/// those in the run's clean windows with `clean` (all of them when the run has no episodes).
pub(super) fn sent_filter<'a>(run: &'a ArmRun<'_>, clean_only: bool) -> impl Fn(f64) -> bool + 'a {
    let windows = clean(&run.analysis.conditions).filter(|_| clean_only).map(|c| &c.windows);
    move |t: f64| windows.is_none_or(|w| w.iter().any(|s| s.contains(t)))
}

/// Renumbers the groups of `(value, group)` pairs in time order, leaving out empty groups, and
/// returns how many remain (at least 1). Groups of a full steady window are unchanged.
pub(super) fn renumber_groups(pairs: &mut [(f64, u32)], groups: usize) -> usize {
    let mut used = vec![false; groups];
    for p in pairs.iter() {
        used[p.1 as usize] = true;
    }
    let mut new_id = vec![0u32; groups];
    let mut next = 0u32;
    for (g, u) in used.iter().enumerate() {
        new_id[g] = next;
        next += u32::from(*u);
    }
    for p in pairs.iter_mut() {
        p.1 = new_id[p.1 as usize];
    }
    (next as usize).max(1)
}

/// `metrics.<metric>.<stat>` as `Analysis` keys its estimates.
type MetricEstimates = BTreeMap<String, BTreeMap<String, Estimate>>;

/// The run's estimates and dependence: its clean condition's with `clean` (when it has one).
pub(super) fn estimates<'a>(run: &'a ArmRun<'_>, clean_only: bool) -> (&'a MetricEstimates, &'a BTreeMap<String, Dependence>) {
    match clean(&run.analysis.conditions).filter(|_| clean_only) {
        Some(c) => (&c.metrics, &c.dependence),
        None => (&run.analysis.metrics, &run.analysis.dependence),
    }
}

/// The per-window counts of the steady window, only the windows wholly inside the run's clean
/// windows with `clean`.
pub(super) fn clean_windows(run: &ArmRun<'_>, per: Vec<f64>, clean_only: bool) -> Vec<f64> {
    let Some(c) = clean(&run.analysis.conditions).filter(|_| clean_only) else { return per };
    let (start, w) = (run.analysis.steady_state.start_s, run.analysis.options.window_s);
    let inside = |b: usize| {
        let (a, z) = (start + b as f64 * w, start + (b + 1) as f64 * w);
        c.windows.iter().any(|s| s.start_s <= a && z <= s.end_s)
    };
    per.into_iter().enumerate().filter(|(b, _)| inside(*b)).map(|(_, x)| x).collect()
}

/// Excluded seconds of an arm, and their share of its steady windows.
fn excluded(arm: &[ArmRun<'_>]) -> (f64, f64) {
    let s = arm.iter().filter_map(|r| clean(&r.analysis.conditions)).fold(0.0, |acc, c| acc + c.excluded_s);
    let total: f64 = arm.iter().map(|r| r.analysis.steady_state.end_s - r.analysis.steady_state.start_s).sum();
    (s, if total > 0.0 { s / total } else { 0.0 })
}

/// The causes an arm's runs excluded, as their titles.
fn causes(arm: &[ArmRun<'_>]) -> Vec<Message> {
    let mut out: Vec<(String, crate::cause::Cause)> = arm
        .iter()
        .flat_map(|r| r.analysis.conditions.iter().filter_map(|c: &Condition| Some((c.title.clone(), c.cause?))))
        .collect();
    out.sort();
    out.dedup();
    out.into_iter().map(|(_, cause)| cause.title()).collect()
}

/// "+X % in clean conditions; +Y % as measured (the candidate was affected by … for Z % of its
/// window)" on P50 TTFT.
fn sentence(
    clean_m: &BTreeMap<String, CleanMetric>,
    measured: &BTreeMap<String, MetricComparison>,
    base: &[ArmRun<'_>],
    cand: &[ArmRun<'_>],
) -> Option<Message> {
    let (c, m) = (clean_m.get("ttft_p50")?, measured.get("ttft_p50")?);
    let pct = |x: f64| format!("{:+.1} %", x * 100.0);
    let verdict = |v: Verdict| Message::new("verdict-word").text("verdict", format!("{v:?}").to_lowercase());
    let mut arms = Vec::new();
    for (who, arm) in [("base", base), ("cand", cand)] {
        let (_, share) = excluded(arm);
        let what = causes(arm);
        if !what.is_empty() {
            arms.push(Message::new("clean-compare-arm").text("arm", who).list("causes", what, Sep::And).num("share", share * 100.0, 0));
        }
    }
    Some(
        Message::new("clean-compare")
            .text("clean", pct(c.change.estimate))
            .text("clean_lo", pct(c.change.ci_low))
            .text("clean_hi", pct(c.change.ci_high))
            .msg("clean_verdict", verdict(c.verdict))
            .text("measured", pct(m.change.estimate))
            .text("measured_lo", pct(m.change.ci_low))
            .text("measured_hi", pct(m.change.ci_high))
            .msg("measured_verdict", verdict(m.verdict))
            .list("arms", arms, Sep::Semicolon),
    )
}

/// The comparison on clean windows; None when neither arm has episodes.
pub(super) fn clean_comparison(
    base: &[ArmRun<'_>],
    cand: &[ArmRun<'_>],
    o: &CompareOptions,
    valid: bool,
    (no_steady, drift): (bool, Option<f64>),
    measured: &BTreeMap<String, MetricComparison>,
) -> Option<CleanComparison> {
    let has = |arm: &[ArmRun<'_>]| arm.iter().any(|r| clean(&r.analysis.conditions).is_some());
    if !has(base) && !has(cand) {
        return None;
    }
    let base_samples = base.iter().map(|r| samples(r, true)).collect();
    let cand_samples = cand.iter().map(|r| samples(r, true)).collect();
    let arms = Arms { base, cand, base_samples, cand_samples, o, no_steady, drift, secondary: false };
    let mut metrics: BTreeMap<String, CleanMetric> = BTreeMap::new();
    for (name, better, stat) in &metric_specs(o, true) {
        if let Some(m) = arms.metric(name, *better, stat) {
            metrics.insert(
                name.clone(),
                CleanMetric { change: m.change, base: m.base, cand: m.cand, tolerance: m.tolerance, verdict: m.verdict, reason: m.reason },
            );
        }
    }
    if let Some(e) = measured.get("error_rate") {
        let reason = Some("the error rate is not split by condition: as measured".to_string());
        metrics.insert(
            "error_rate".into(),
            CleanMetric { change: e.change.clone(), base: e.base, cand: e.cand, tolerance: e.tolerance, verdict: e.verdict, reason },
        );
    }
    let ((base_s, base_share), (cand_s, cand_share)) = (excluded(base), excluded(cand));
    let sentence_message = sentence(&metrics, measured, base, cand);
    let sentence = sentence_message.as_ref().map(|m| m.render(Lang::En));
    Some(CleanComparison { valid, excluded: Excluded { base_s, cand_s, base_share, cand_share }, metrics, sentence, sentence_message })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_renumbered_in_time_order_without_gaps() {
        let mut pairs = vec![(1.0, 0), (2.0, 3), (3.0, 3), (4.0, 7)];
        assert_eq!(renumber_groups(&mut pairs, 8), 3);
        assert_eq!(pairs.iter().map(|p| p.1).collect::<Vec<_>>(), vec![0, 1, 1, 2]);
        let mut full = vec![(1.0, 0), (2.0, 1)];
        assert_eq!(renumber_groups(&mut full, 2), 2);
    }
}
