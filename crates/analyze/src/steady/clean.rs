//! The clean timeline: the run with its environmental episodes cut out.
//!
//! Steady-state detection segments a series of per-window levels. An explained episode (a
//! 75-s thermal throttle) inside that series is a level of its own: it inflates the noise used
//! to judge whether the leading segments equal the final level (a warmup 61 % slower was called
//! "equivalent" that way), and an episode during the warmup can end the transient early. The
//! detector therefore runs on a compressed clock: requests sent inside an excluded span are
//! left out, and every later time moves back by the excluded time before it, so the series
//! joins across the gap as if the episode had not happened. Every time the detector reports is
//! mapped back to the run's clock (`Cut::real`); a boundary that falls on a gap lands after it.

use std::borrow::Cow;

use super::super::attribute::episodes::{Span, merge};
use super::super::requests::RequestView;
use super::{Detector, SeriesVerdict};

/// Send and completion times as the detector reads them.
pub(super) struct Clock<'a> {
    /// NaN for a request sent inside an excluded span.
    pub sent_s: Cow<'a, [f64]>,
    pub end_s: Cow<'a, [f64]>,
}

/// The excluded spans, merged and in time order.
pub(super) struct Cut {
    spans: Vec<Span>,
}

impl Cut {
    /// The cut of `excluded` (any order, may overlap; spans before the run start are clipped).
    pub fn new(excluded: &[Span]) -> Cut {
        let clipped: Vec<Span> =
            excluded.iter().map(|s| Span { start_s: s.start_s.max(0.0), end_s: s.end_s }).filter(|s| s.end_s > s.start_s && s.start_s.is_finite()).collect();
        Cut { spans: merge(clipped, 0.0) }
    }

    /// Seconds excluded before `t` (run clock).
    fn excluded_before(&self, t: f64) -> f64 {
        self.spans.iter().map(|s| (t.min(s.end_s) - s.start_s).max(0.0)).sum()
    }

    /// `t` on the compressed clock; a time inside a span moves to the span's start.
    fn compress(&self, t: f64) -> f64 {
        t - self.excluded_before(t)
    }

    fn excluded(&self, t: f64) -> bool {
        self.spans.iter().any(|s| s.contains(t))
    }

    /// The detector's clock: the run's own when nothing is cut.
    pub fn clock<'a>(&self, r: &'a RequestView) -> Clock<'a> {
        if self.spans.is_empty() {
            return Clock { sent_s: Cow::Borrowed(&r.sent_s), end_s: Cow::Borrowed(&r.end_s) };
        }
        let sent = r.sent_s.iter().map(|&t| if !t.is_finite() || self.excluded(t) { f64::NAN } else { self.compress(t) }).collect();
        let end = r.end_s.iter().map(|&t| if t.is_finite() { self.compress(t) } else { t }).collect();
        Clock { sent_s: Cow::Owned(sent), end_s: Cow::Owned(end) }
    }

    /// The run-clock time of compressed time `c`: every span whose compressed position is at or
    /// before `c` adds its length, so a boundary on a gap lands after the episode.
    pub fn real(&self, c: f64) -> f64 {
        let mut shift = 0.0;
        for s in &self.spans {
            if s.start_s - shift <= c {
                shift += s.end_s - s.start_s;
            } else {
                break;
            }
        }
        c + shift
    }

    /// The run-clock start of a window whose first bucket spans compressed `[c, c + bucket_s)`.
    /// A gap inside that bucket moves the start past the gap: what the detector judged there
    /// was mostly measured after it, and the seconds before it belong to the level before.
    pub fn real_start(&self, c: f64, bucket_s: f64) -> f64 {
        let mut shift = 0.0;
        for s in &self.spans {
            let at = s.start_s - shift;
            if at > c && at < c + bucket_s {
                return self.real(at);
            }
            shift += s.end_s - s.start_s;
        }
        self.real(c)
    }

    /// Maps the series' and detectors' times back to the run clock (starts as `real_start`).
    pub fn restore_series(&self, series: &mut [SeriesVerdict], detectors: &mut [Detector], bucket_s: f64) {
        if self.spans.is_empty() {
            return;
        }
        for v in series.iter_mut() {
            v.start_s = self.real_start(v.start_s, bucket_s);
            for seg in v.segments.iter_mut() {
                seg.start_s = self.real(seg.start_s);
                seg.end_s = self.real(seg.end_s);
            }
        }
        for d in detectors.iter_mut() {
            d.start_s = d.start_s.map(|s| self.real(s));
        }
    }

    /// What was cut, as a detector line; none when nothing was.
    pub fn detector(&self) -> Option<Detector> {
        let total: f64 = self.spans.iter().map(Span::duration).sum();
        (!self.spans.is_empty()).then(|| Detector {
            name: "clean_series".into(),
            verdict: "excluded".into(),
            start_s: None,
            reason: format!(
                "{total:.0} s of episodes with an environmental cause were cut out of the detection series ({}): the warmup cut and the noise level are judged without them",
                self.spans.iter().map(|s| format!("{:.0}–{:.0} s", s.start_s, s.end_s)).collect::<Vec<_>>().join(", ")
            ),
            message: Default::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_map_back_across_the_gaps() {
        let cut = Cut::new(&[Span { start_s: 120.0, end_s: 195.0 }, Span { start_s: 10.0, end_s: 20.0 }]);
        assert_eq!(cut.compress(5.0), 5.0);
        assert_eq!(cut.compress(15.0), 10.0, "inside a span: its start");
        assert_eq!(cut.compress(200.0), 115.0);
        assert_eq!(cut.real(5.0), 5.0);
        assert_eq!(cut.real(10.0), 20.0, "a boundary on a gap lands after it");
        assert_eq!(cut.real(110.0), 195.0);
        assert_eq!(cut.real(115.0), 200.0);
        assert_eq!(Cut::new(&[]).real(42.0), 42.0);
        assert_eq!(cut.real_start(9.5, 1.0), 20.0, "a start whose bucket holds a gap lands after it");
        assert_eq!(cut.real_start(8.5, 1.0), 8.5);
        assert_eq!(cut.real_start(109.5, 1.0), 195.0, "the second gap, at compressed 110");
    }
}
