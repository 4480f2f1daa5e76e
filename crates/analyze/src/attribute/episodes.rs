//! Episodes: time spans where a condition held, built from per-sample flags, and their overlap.

use serde::{Deserialize, Serialize};

/// A span of the run, in seconds from the first send.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Span {
    pub start_s: f64,
    pub end_s: f64,
}

impl Span {
    pub fn duration(&self) -> f64 {
        (self.end_s - self.start_s).max(0.0)
    }

    /// Seconds shared with `other` after widening `other` by `tolerance` on both sides.
    pub fn overlap(&self, other: &Span, tolerance: f64) -> f64 {
        (self.end_s.min(other.end_s + tolerance) - self.start_s.max(other.start_s - tolerance)).max(0.0)
    }

    pub fn contains(&self, t: f64) -> bool {
        t >= self.start_s && t < self.end_s
    }
}

/// Typical spacing of sample times (the median gap), 1 s when unknown.
pub fn sample_interval(t_s: &[f64]) -> f64 {
    let mut gaps: Vec<f64> = t_s.windows(2).map(|w| w[1] - w[0]).filter(|g| g.is_finite() && *g > 0.0).collect();
    if gaps.is_empty() {
        return 1.0;
    }
    gaps.sort_by(f64::total_cmp);
    gaps[gaps.len() / 2]
}

/// Runs of flagged samples, as spans with the sample indices they cover. A run needs at least
/// `min_samples` flagged samples; runs separated by at most `max_gap_samples` unflagged samples
/// merge (a 1 Hz poll misses short clear moments inside one episode). A sample covers the time
/// up to the next sample.
pub fn flagged_spans(t_s: &[f64], flags: &[bool], min_samples: usize, max_gap_samples: usize) -> Vec<(Span, Vec<usize>)> {
    let dt = sample_interval(t_s);
    let mut runs: Vec<Vec<usize>> = Vec::new();
    let mut gap = usize::MAX;
    for (i, &on) in flags.iter().enumerate() {
        if !t_s[i].is_finite() {
            continue;
        }
        if on {
            match runs.last_mut() {
                Some(run) if gap <= max_gap_samples => run.push(i),
                _ => runs.push(vec![i]),
            }
            gap = 0;
        } else {
            gap = gap.saturating_add(1);
        }
    }
    runs.into_iter()
        .filter(|r| r.len() >= min_samples)
        .map(|r| {
            let (a, b) = (r[0], r[r.len() - 1]);
            (Span { start_s: t_s[a], end_s: t_s[b] + dt }, r)
        })
        .collect()
}

/// Merges overlapping or touching spans (within `gap_s`), sorted by start.
pub fn merge(mut spans: Vec<Span>, gap_s: f64) -> Vec<Span> {
    spans.sort_by(|a, b| a.start_s.total_cmp(&b.start_s));
    let mut out: Vec<Span> = Vec::new();
    for s in spans {
        match out.last_mut() {
            Some(last) if s.start_s <= last.end_s + gap_s => last.end_s = last.end_s.max(s.end_s),
            _ => out.push(s),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_become_spans_with_short_gaps_bridged() {
        let t: Vec<f64> = (0..20).map(f64::from).collect();
        let mut flags = vec![false; 20];
        for i in [3, 4, 5, 7, 8, 15] {
            flags[i] = true;
        }
        let spans = flagged_spans(&t, &flags, 2, 1);
        assert_eq!(spans.len(), 1, "the single sample at 15 is too short; 6 is bridged");
        assert_eq!(spans[0].0, Span { start_s: 3.0, end_s: 9.0 });
        assert_eq!(spans[0].1, vec![3, 4, 5, 7, 8]);
    }

    #[test]
    fn overlap_uses_the_tolerance() {
        let a = Span { start_s: 10.0, end_s: 20.0 };
        assert_eq!(a.overlap(&Span { start_s: 21.0, end_s: 30.0 }, 0.0), 0.0);
        assert_eq!(a.overlap(&Span { start_s: 21.0, end_s: 30.0 }, 2.0), 1.0);
        assert_eq!(merge(vec![Span { start_s: 5.0, end_s: 8.0 }, Span { start_s: 0.0, end_s: 4.5 }], 1.0), vec![Span { start_s: 0.0, end_s: 8.0 }]);
    }
}
