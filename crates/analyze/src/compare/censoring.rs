//! Latency percentiles that right-censoring leaves without a number (`crate::censored`): a
//! change computed from a bound would be a number the data do not hold, so such a metric is
//! not compared, and the comparison says why (`Comparison::not_compared`).

use std::collections::BTreeMap;

use super::ArmRun;

/// Why `run`'s percentile `key` of `metric` cannot enter a change: it lies beyond the
/// censoring level, or its interval reaches it (the change's interval could not be closed).
/// `None` when it can.
pub(super) fn censored_reason(run: &ArmRun<'_>, metric: &str, key: &str, clean: bool) -> Option<String> {
    let (metrics, _) = super::clean::estimates(run, clean);
    let e = metrics.get(metric)?.get(key)?;
    let c = e.censored?;
    let share = c.share * 100.0;
    if e.is_censored_bound() {
        let bound = e.ci_low.map_or(String::new(), |b| format!(" (only known to exceed {} ms)", credence_run::text::significant(b, 3)));
        Some(format!(
            "{}'s {metric} {key} is beyond the censoring level{bound}: {share:.0} % of its requests timed out or were cancelled first, so no change can be computed",
            run.name
        ))
    } else if e.ci_high.is_none() {
        Some(format!(
            "{}'s {metric} {key} has no upper bound ({share:.0} % of its requests timed out or were cancelled first), so the change's interval cannot be closed",
            run.name
        ))
    } else {
        None
    }
}

/// Per latency metric of the comparison (`ttft_p99`), the first run's reason not to compare
/// it; empty when censoring leaves every percentile a number.
pub(super) fn not_compared(base: &[ArmRun<'_>], cand: &[ArmRun<'_>], clean: bool) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (name, metric, p) in super::LATENCY {
        let key = super::super::intervals::percentile_key(p);
        if let Some(reason) = base.iter().chain(cand).find_map(|r| censored_reason(r, metric, &key, clean)) {
            out.insert(name.to_string(), reason);
        }
    }
    out
}
