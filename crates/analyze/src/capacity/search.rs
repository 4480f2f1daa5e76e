//! Which load a capacity search tries next: bracket geometrically (double while every
//! objective holds, halve while one fails), then bisect the bracket in log load until the
//! highest load decided within the objectives and the lowest decided beyond them are within
//! the precision of each other. A step left undecided (its percentile's interval straddles
//! the threshold) lies where the curve crosses it: the search bisects the widest gap left in
//! the bracket instead, and ends when every gap there is within half the precision.

use serde::{Deserialize, Serialize};

use super::{Outcome, Step, bracket};

/// How the search moves.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SearchPlan {
    /// The first load tried.
    pub start: f64,
    /// The bracket's relative width at which the search ends (0.05 for 5 %).
    pub precision: f64,
    /// The factor of the bracketing steps.
    pub factor: f64,
    /// Loads below or above these are not tried.
    pub lowest: f64,
    pub highest: f64,
    /// The load is a count of clients (whole numbers).
    pub whole: bool,
    /// Steps at most.
    pub max_steps: usize,
}

/// Why a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ended {
    /// The bracket is within the precision.
    Precise,
    /// The objectives failed at the lowest load allowed.
    BelowLowest,
    /// The objectives held at the highest load allowed.
    AboveHighest,
    /// The step limit (or the time budget) came first.
    Budget,
    /// The next load would repeat one tried (clients are whole).
    NoRoom,
}

/// The next step: a load to run, or the end.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Next {
    Run(f64),
    Done(Ended),
}

impl SearchPlan {
    fn round(&self, x: f64) -> f64 {
        if self.whole { x.round().max(1.0) } else { x }
    }

    /// The next load after `steps` (in any order).
    pub fn next(&self, steps: &[Step]) -> Next {
        if steps.is_empty() {
            return Next::Run(self.round(self.start.clamp(self.lowest, self.highest)));
        }
        if steps.len() >= self.max_steps {
            return Next::Done(Ended::Budget);
        }
        let loads = || steps.iter().map(|s| s.load);
        let (lo, hi) = bracket(steps);
        let candidate = match (lo, hi) {
            // Nothing beyond the objectives yet: go up from the highest load tried.
            (_, None) => {
                let top = loads().fold(f64::MIN, f64::max);
                if top >= self.highest {
                    return Next::Done(Ended::AboveHighest);
                }
                (top * self.factor).min(self.highest)
            }
            // Nothing within them below the lowest failure: go down.
            (None, Some(h)) => {
                // A step below it that only lacked requests (lower loads send fewer) stands in
                // for the bracket's low end: loads nearer the crossing send more.
                let provisional = steps.iter().filter(|s| s.load < h && short_of_data(s)).map(|s| s.load).max_by(f64::total_cmp);
                if let Some(u) = provisional {
                    return match self.refine(steps, u, h) {
                        Ok((x, middle)) => self.untried(steps, &[x, middle]),
                        Err(e) => Next::Done(e),
                    };
                }
                let bottom = loads().filter(|x| *x < h).fold(h, f64::min);
                if bottom <= self.lowest {
                    return Next::Done(Ended::BelowLowest);
                }
                (bottom / self.factor).max(self.lowest)
            }
            (Some(l), Some(h)) => match self.refine(steps, l, h) {
                // Clients are whole: the load beside the crossing may round onto one tried, the
                // middle of its gap may not.
                Ok((x, middle)) => return self.untried(steps, &[x, middle]),
                Err(e) => return Next::Done(e),
            },
        };
        self.untried(steps, &[candidate])
    }

    /// The first of `candidates` (rounded) not yet tried.
    fn untried(&self, steps: &[Step], candidates: &[f64]) -> Next {
        let tried = |x: f64| steps.iter().any(|s| (s.load - x).abs() <= 1e-9 * x.max(1.0));
        candidates.iter().map(|x| self.round(*x)).find(|x| !tried(*x)).map_or(Next::Done(Ended::NoRoom), Next::Run)
    }

    /// Inside the bracket `[l, h]`: a load just beside the curve's crossing (a step within
    /// half the precision, geometrically, of where the steps so far put it), on the side whose
    /// gap is wider; undecided steps mark where the crossing lies, so the gaps that matter run
    /// from the bracket's ends to them, and are bisected. The end when those gaps are within
    /// half the precision.
    /// Also the middle of that side's gap.
    fn refine(&self, steps: &[Step], l: f64, h: f64) -> Result<(f64, f64), Ended> {
        let half = (1.0 + self.precision).sqrt();
        if h / l <= half * half * (1.0 + 1e-9) {
            return Err(Ended::Precise);
        }
        let mut undecided: Vec<f64> = steps.iter().filter(|s| s.outcome == Outcome::Undecided && s.load > l && s.load < h).map(|s| s.load).collect();
        undecided.sort_by(f64::total_cmp);
        let (a, b) = match (undecided.first(), undecided.last()) {
            (Some(a), Some(b)) => (*a, *b),
            _ => {
                let c = super::estimate("", "", steps.to_vec(), 0.95).capacity.estimate.unwrap_or((l * h).sqrt()).clamp(l, h);
                (c, c)
            }
        };
        let (low_gap, high_gap) = (a / l, h / b);
        if low_gap <= half * (1.0 + 1e-9) && high_gap <= half * (1.0 + 1e-9) {
            return Err(Ended::Precise);
        }
        // Beside the crossing, where a decision is likely, while no step there was left
        // undecided; once one was (a noisy or flat curve there), the wider gap's middle.
        let beside = undecided.is_empty();
        Ok(if low_gap >= high_gap {
            let middle = (l * a).sqrt();
            (if beside && a / half > l * half.sqrt() { a / half } else { middle }, middle)
        } else {
            let middle = (b * h).sqrt();
            (if beside && b * half < h / half.sqrt() { b * half } else { middle }, middle)
        })
    }
}

/// An undecided step whose percentiles lie within their thresholds but have no upper bound:
/// it needed more requests, not a lower load.
fn short_of_data(s: &Step) -> bool {
    s.outcome == Outcome::Undecided
        && s.objectives.iter().any(|o| o.estimate.ci_high.is_none() && o.estimate.estimate.is_some_and(|v| v <= o.threshold_ms))
}
