//! guidellm's time-based distributions (`rate_distribution_from_timings` and
//! `concurrency_distribution_from_timings` in `guidellm/schemas/base/statistics.py`), turned
//! into the weighted values its summary is taken over: a rate per event weighted by the time
//! it holds, a concurrency level weighted by how long it lasted.

/// guidellm merges event times closer than this (seconds): a tenth of a millisecond.
const MERGE_THRESHOLD_S: f64 = 1e-4;
/// guidellm's floor for the last event's duration.
const EPSILON: f64 = 1e-6;

/// The values a guidellm distribution summarises, with their weights, and its count when that
/// is not the sum of the weights.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Weighted {
    pub values: Vec<f64>,
    pub weights: Vec<f64>,
    pub count: Option<f64>,
}

impl Weighted {
    /// Values weighted one each, or by the weight that comes with them.
    pub fn from_pairs(pairs: Vec<(f64, f64)>) -> Weighted {
        let (values, weights) = pairs.into_iter().unzip();
        Weighted { values, weights, count: None }
    }

    /// guidellm's `from_values` of no values: count 0, whatever count was asked for.
    fn empty() -> Weighted {
        Weighted::default()
    }
}

/// Sorts `(time, weight)` pairs, sums the weights of equal times, then merges every time
/// within the threshold of the first time of its group into that time (guidellm 0.8.1's
/// `_merge_sorted_times_with_weights`: a group takes all times up to its first + threshold,
/// the next group starts at the first time after that).
fn merge_close_times(mut pairs: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut merged: Vec<(f64, f64)> = Vec::with_capacity(pairs.len());
    for (t, w) in pairs {
        match merged.last_mut() {
            Some(last) if last.0 == t => last.1 += w,
            _ => merged.push((t, w)),
        }
    }
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(merged.len());
    let mut group_start = f64::NEG_INFINITY;
    for (t, w) in merged {
        match out.last_mut() {
            Some(last) if t <= group_start + MERGE_THRESHOLD_S => last.1 += w,
            _ => {
                group_start = t;
                out.push((t, w));
            }
        }
    }
    out
}

/// Rates of events over time: each event's weight divided by the time from the midpoint with
/// its predecessor to the midpoint with its successor, weighted by that time. Events outside
/// `window` are dropped and its edges added as events of weight 0.
pub fn rates(events: Vec<(f64, f64)>, window: Option<(f64, f64)>) -> Weighted {
    let mut timed = events;
    if let Some((start, end)) = window {
        timed.retain(|e| e.0 >= start && e.0 <= end);
        timed.push((start, 0.0));
        timed.push((end, 0.0));
    }
    let timed = merge_close_times(timed);
    if timed.len() <= 1 {
        return Weighted::empty();
    }
    let n = timed.len();
    let mid: Vec<f64> = timed.windows(2).map(|w| (w[1].0 + w[0].0) / 2.0).collect();
    let mut durations = vec![0.0; n];
    durations[0] = mid[0] - timed[0].0;
    for i in 1..n - 1 {
        durations[i] = mid[i] - mid[i - 1];
    }
    durations[n - 1] = (timed[n - 1].0 - mid[n - 2]).max(EPSILON);
    let count = timed.iter().map(|e| e.1).sum::<f64>().round();
    let values = timed.iter().zip(&durations).map(|(e, d)| e.1 / d).collect();
    Weighted { values, weights: durations, count: Some(count) }
}

/// Concurrency over time from `(start, end, weight)` intervals: the level between successive
/// changes, weighted by how long it held. Intervals ending before the window or starting after
/// it are dropped; the level is cut to the window.
pub fn concurrency(intervals: Vec<(f64, f64, f64)>, window: Option<(f64, f64)>) -> Weighted {
    let kept: Vec<(f64, f64, f64)> = intervals.into_iter().filter(|i| window.is_none_or(|(start, end)| i.1 >= start && i.0 <= end)).collect();
    let count = kept.len() as f64;
    let changes: Vec<(f64, f64)> = kept.iter().map(|i| (i.0, i.2)).chain(kept.iter().map(|i| (i.1, -i.2))).collect();
    let mut changes = merge_close_times(changes);
    if let (Some((start, end)), false) = (window, changes.is_empty()) {
        let first_inside = changes.partition_point(|c| c.0 < start);
        let before: f64 = changes[..first_inside].iter().map(|c| c.1).sum();
        changes = std::iter::once((start, before)).chain(changes[first_inside..].iter().copied()).collect();
        let after_end = changes.partition_point(|c| c.0 <= end);
        changes.truncate(after_end);
        changes.push((end, 0.0));
    }
    let mut level = 0.0;
    let levels: Vec<f64> = changes
        .iter()
        .map(|c| {
            level += c.1;
            level.max(0.0)
        })
        .collect();
    if levels.len() <= 1 {
        return match levels.first() {
            Some(l) if count > 0.0 => Weighted::from_pairs(vec![(*l, 1.0)]),
            _ => Weighted::empty(),
        };
    }
    let durations: Vec<f64> = changes.windows(2).map(|w| (w[1].0 - w[0].0).max(0.0)).collect();
    if !durations.iter().any(|d| *d > 0.0) {
        return Weighted::empty();
    }
    Weighted { values: levels[..levels.len() - 1].to_vec(), weights: durations, count: Some(count) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_hold_from_midpoint_to_midpoint() {
        // Window 0..4, completions at 1 and 3: times 0, 1, 3, 4 hold 0.5, 1.5, 1.5, 0.5 s.
        let w = rates(vec![(1.0, 1.0), (3.0, 1.0), (9.0, 1.0)], Some((0.0, 4.0)));
        assert_eq!(w.weights, vec![0.5, 1.5, 1.5, 0.5]);
        assert_eq!(w.values, vec![0.0, 1.0 / 1.5, 1.0 / 1.5, 0.0]);
        assert_eq!(w.count, Some(2.0), "the event after the window is dropped");
        // Events within 0.1 ms of a group's first are one event.
        let w = rates(vec![(1.0, 1.0), (1.00005, 1.0), (1.00011, 1.0), (2.0, 1.0)], None);
        assert_eq!(w.values.len(), 3);
        assert_eq!(w.count, Some(4.0));
    }

    #[test]
    fn concurrency_levels_and_window() {
        // Two overlapping requests: 1 from 0 to 1, 2 from 1 to 2, 1 from 2 to 3.
        let w = concurrency(vec![(0.0, 2.0, 1.0), (1.0, 3.0, 1.0)], None);
        assert_eq!((w.values, w.weights, w.count), (vec![1.0, 2.0, 1.0], vec![1.0, 1.0, 1.0], Some(2.0)));
        // Cut to 1.5..2.5: the level at the start carries in (2), then 1.
        let w = concurrency(vec![(0.0, 2.0, 1.0), (1.0, 3.0, 1.0), (5.0, 6.0, 1.0)], Some((1.5, 2.5)));
        assert_eq!((w.values, w.weights, w.count), (vec![2.0, 1.0], vec![0.5, 0.5], Some(2.0)));
        assert_eq!(concurrency(Vec::new(), Some((0.0, 1.0))), Weighted::default());
    }
}
