//! Run to credibility: while `credence bench --until SPEC` loads a server, `Monitor` watches
//! the finished requests and decides when the numbers are good enough to stop.
//!
//! Each look re-runs the offline analysis's own steps on what has finished so far: the
//! steady-state detector (`steady::steady_state`) cuts the warmup, and the targets' estimates
//! and 95 % intervals come from `intervals::metric_estimates` and the throughput bootstrap over
//! the same resampling groups, so the dependence between requests is handled as `analyze`
//! handles it, and `analyze` on the finished run reproduces the estimates. With GPU telemetry
//! (`set_telemetry`), attribution finds environmental episodes (throttling, a power cap, another
//! process) and the estimates leave them out as the analysis's clean windows do. Every time is
//! counted from the first send, as the analysis counts (its detector's windows start there).
//!
//! The stopping rule is staged (Stein 1945; Hall 1981's three-stage procedure): a pilot
//! (`PILOT_GROUPS` resampling groups of steady data) projects how much steady data the goals
//! need (half-widths shrink as 1/√n); the run projects again on the way until a projection is
//! made on at least half the data it points to, and only at that planned point, with `MARGIN`
//! to spare, does it decide: stop when every target's half-width is within its goal, else plan
//! again from there. Stopping at the first look whose interval happens to be narrow enough
//! (the fixed-width rule of Chow and Robbins, looked at every few seconds) selects widths that
//! came out narrow by chance, and an interval whose width is underestimated under-covers: that
//! rule covered 0.90 where the staged one covers 0.93–0.94, as the same runs cut at fixed
//! durations do. Deciding only where a projection made on earlier data said to, with the goal
//! met there with room, takes few decisions and little of that selection. A decision is made on
//! the analysis's own intervals (its 9999 resamples and seed, not a look's 999), so `analyze`
//! reproduces them. The naive rule (a look every second, no pilot, stop at the first narrow
//! interval) is kept for the coverage study that shows the difference
//! (`tests/it/until_study.rs`).

pub mod between;
pub mod spec;

use serde::{Deserialize, Serialize};

use crate::attribute::TelemetrySeries;
use crate::attribute::episodes::{Span, merge};
use crate::cause::Cause;
use crate::intervals::{IntervalOptions, MetricSample, metric_estimates, percentile_key};
use crate::requests::RequestView;
use crate::steady::{Classification, SteadyOptions, steady_state_excluding};
use crate::{AnalyzeOptions, ResamplingGroups};
pub use credence_run::rows::Finished;
pub use spec::{Target, TargetMetric};

/// Resampling groups of steady data measured before a width may stop the run.
pub const PILOT_GROUPS: usize = 20;
/// Seconds between two looks of the sequential rule.
pub const LOOK_EVERY_S: f64 = 5.0;
/// The staged rule looks again only once the finished requests grew by this factor (or its
/// planned point is reached): a look re-reads every finished request.
const LOOK_GROWTH: f64 = 1.10;
/// A decision point lies this much beyond the steady data the projection says the goals need
/// (the half-width then projects to goal/√MARGIN ≈ 0.9 goal), so that the goals are met there
/// in most runs without selecting the ones whose width came out narrow.
const MARGIN: f64 = 1.25;
/// A plan that the goals missed moves the decision at least this much further.
const MIN_STEP: f64 = 1.1;
/// Consecutive looks that must project a goal out of reach before the run stops for it.
const UNREACHABLE_LOOKS: usize = 3;
/// A goal whose projection, once the pilot is done, needs more than this many times the steady
/// data `--max-duration` leaves is out of reach at once: the run stops there instead of spending
/// the bound. The projection scales as the squared half-width, whose relative error after a
/// pilot of `PILOT_GROUPS` groups is about 1/√(2·19) ≈ 16 % (so ±32 % on the projection, and
/// an early width runs long rather than short): a factor of 10 is seven such errors away.
pub const FAR_OUT_OF_REACH: f64 = 10.0;
/// Seconds of the most recent load an overload look judges, at least: a queue that started to
/// grow late in the run must not be averaged away by the earlier, healthy part.
pub const OVERLOAD_LOOK_S: f64 = 30.0;

/// Where an overload look's window starts, `load_s` seconds into the load: the last
/// `OVERLOAD_LOOK_S`, or the last half of the load when that is longer. A window of T seconds
/// resolves an unserved rate of about 3.3·√(1.2λ/T) at rate λ (`overload::arrival_slope_se`):
/// 30 s show a server 15 % short of its offered rate, and a longer run, growing its window,
/// shows a smaller shortfall (a half keeps a late queue from being averaged away).
pub fn overload_look_since(load_s: f64) -> f64 {
    (load_s - OVERLOAD_LOOK_S.max(0.5 * load_s)).max(0.0)
}
/// Seconds of load before a look may judge the server overloaded.
pub const OVERLOAD_MIN_S: f64 = 15.0;
/// The confidence of an online overload look: a run is looked at every few seconds, and each
/// look is a test. Its error is floored at the arrivals' random walk (`overload::
/// arrival_slope_se`), larger than a server that keeps up gives it, so 99 % per look leaves a
/// long step at a rate the server carries unstopped (the capacity study: no such stop in 40
/// searches), while a plain overload (a tenth of the offered rate unserved) shows within a
/// minute at a few requests per second, and at once at tens.
pub const OVERLOAD_LOOK_CONFIDENCE: f64 = 0.99;
/// Resamples per look: the estimates' intervals need far fewer than the report's 9999 to
/// settle a width to a few percent, and a look must cost little beside the load.
const LOOK_RESAMPLES: usize = 999;

/// When a stop is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A pilot, then decisions only at planned points (the default).
    Staged,
    /// A look every second from the first steady group on, each on its own 999 resamples
    /// (for the study only).
    Naive,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct UntilOptions {
    pub targets: Vec<Target>,
    pub min_duration_s: f64,
    pub max_duration_s: f64,
    /// Stop when the error rate is surely above this (its 95 % Wilson lower bound).
    pub max_error_rate: Option<f64>,
    /// A warmup given by the user (seconds); none: measured online.
    pub warmup_s: Option<f64>,
    pub rule: Rule,
    pub seed: u64,
}

/// Why the run stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum StopReason {
    /// Every target reached its goal.
    TargetsMet,
    /// Every threshold target is decided (its interval on one side of its threshold), or one is
    /// surely above its threshold (a capacity step that violates an objective need not wait for
    /// the others).
    Decided,
    /// The error rate passed `--max-error-rate`.
    ErrorRate { rate: f64, limit: f64 },
    /// The load generator could not keep its schedule: its numbers measure the client.
    ClientSaturated,
    /// The open loop offered more than the server completed: its queue grew, and no steady
    /// state exists at this rate (`overload::load` on the last `OVERLOAD_LOOK_S`).
    Overloaded { offered: f64, completed: f64, unserved: f64 },
    /// No steady state by `--max-duration`.
    NoSteadyState,
    /// A target cannot be reached within `--max-duration`: it would need `needed_s` of steady data.
    Unreachable { key: String, needed_s: f64 },
    /// `--max-duration` passed with targets unmet.
    MaxDuration,
}

impl StopReason {
    /// The reason's id, as `run.json` records it (`targets_met`).
    pub fn id(&self) -> &'static str {
        match self {
            StopReason::TargetsMet => "targets_met",
            StopReason::Decided => "decided",
            StopReason::ErrorRate { .. } => "error_rate",
            StopReason::ClientSaturated => "client_saturated",
            StopReason::Overloaded { .. } => "overloaded",
            StopReason::NoSteadyState => "no_steady_state",
            StopReason::Unreachable { .. } => "unreachable",
            StopReason::MaxDuration => "max_duration",
        }
    }
}

/// One target's state at a look.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TargetState {
    pub key: String,
    pub goal: f64,
    pub estimate: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The interval's larger half-width relative to the estimate; none while it is unbounded.
    pub half_width: Option<f64>,
    pub met: bool,
    /// A threshold target whose interval lies above its threshold (met, and violated).
    #[serde(default)]
    pub violated: bool,
    /// A threshold target's threshold (ms): decided when the interval lies on one side of it.
    #[serde(default)]
    pub threshold_ms: Option<f64>,
    /// Seconds of steady data the goal needs, projected from how the width shrinks (∝ 1/√n).
    pub needed_s: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    WarmingUp,
    Measuring,
    /// Inside an environmental episode (throttling, say) that the numbers leave out.
    Episode,
    /// No steady state at this look, though an earlier look found one (the level moved).
    Unsettled,
}

/// An environmental episode the numbers leave out, as attribution found it in the telemetry:
/// its affected window (the episode, widened as `conditions::affected_windows` widens it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Excluded {
    pub cause: Cause,
    pub start_s: f64,
    pub end_s: f64,
}

/// What a look found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Look {
    pub t_s: f64,
    pub phase: Phase,
    /// Where the measured window starts (the warmup's end).
    pub warmup_end_s: Option<f64>,
    /// Seconds of steady data the estimates cover (episodes left out).
    pub measured_s: f64,
    /// Episodes inside the steady window that the estimates leave out.
    pub excluded: Vec<Excluded>,
    pub requests: usize,
    pub errors: usize,
    pub targets: Vec<TargetState>,
    /// Seconds until every goal is projected to be met.
    pub eta_s: Option<f64>,
    pub stop: Option<StopReason>,
}

/// A point the staged rule set: at `at_s` seconds of steady data it plans again, or decides.
#[derive(Debug, Clone, Copy)]
struct Plan {
    at_s: f64,
    decides: bool,
}

/// Watches finished requests and decides when to stop.
pub struct Monitor {
    o: UntilOptions,
    done: Vec<Finished>,
    last_look_s: f64,
    /// Finished requests at the last look.
    last_look_n: usize,
    /// Consecutive looks that projected a target beyond `--max-duration`.
    unreachable_looks: usize,
    /// Where the staged rule plans or decides next; none before the pilot ends.
    plan: Option<Plan>,
    /// Telemetry so far, on the analysis's clock (empty without `--collect-gpu`).
    telemetry: TelemetrySeries,
    /// Every episode attribution has found so far (affected windows, per cause): an episode
    /// stays found, so that a look whose steady state is in doubt (just after the episode, its
    /// level is the series' last but one) does not put it back into the estimates.
    episodes: Vec<(Cause, Span)>,
    /// Whether a look has found a steady state.
    ever_steady: bool,
    /// The earliest send among the finished requests (the load generator's seconds).
    first_sent_s: f64,
    last: Option<Look>,
    /// The open loop's offered rate (none for a closed loop: it cannot overload the server).
    offered_per_s: Option<f64>,
    /// When the requests still in flight were sent: a queue is seen as it grows, not only
    /// once its requests finish (which, overloaded, is ever later).
    in_flight_sent_s: Vec<f64>,
}

impl Monitor {
    pub fn new(o: UntilOptions) -> Monitor {
        Monitor {
            o,
            done: Vec::new(),
            last_look_s: f64::NEG_INFINITY,
            last_look_n: 0,
            unreachable_looks: 0,
            plan: None,
            telemetry: TelemetrySeries::default(),
            episodes: Vec::new(),
            ever_steady: false,
            first_sent_s: f64::INFINITY,
            last: None,
            offered_per_s: None,
            in_flight_sent_s: Vec::new(),
        }
    }

    /// The open loop's offered rate: with it, a look stops an overloaded run.
    pub fn set_offered(&mut self, offered_per_s: Option<f64>) {
        self.offered_per_s = offered_per_s;
    }

    /// When the requests in flight now were sent (the load generator's seconds).
    pub fn set_in_flight(&mut self, sent_s: Vec<f64>) {
        self.in_flight_sent_s = sent_s;
    }

    pub fn push(&mut self, f: Finished) {
        self.first_sent_s = self.first_sent_s.min(f.sent_s);
        self.done.push(f);
    }

    /// The first send, in the load generator's seconds: the analysis's clock starts there, so
    /// every time a look reports (warmup end, episodes, its own time) counts from it, as
    /// `analyze` counts (the steady-state detector's windows start there too).
    pub fn origin_s(&self) -> f64 {
        if self.first_sent_s.is_finite() { self.first_sent_s } else { 0.0 }
    }

    /// The telemetry sampled so far, on the analysis's clock (seconds from the first send,
    /// `origin_s`): attribution finds environmental episodes in it, and the estimates leave them
    /// out as `analyze`'s clean windows do. Needed only when a look is `due`.
    pub fn set_telemetry(&mut self, telemetry: TelemetrySeries) {
        self.telemetry = telemetry;
    }

    /// The last look's state (for the live view between looks).
    pub fn last(&self) -> Option<&Look> {
        self.last.as_ref()
    }

    /// A look at `now_s`. `complete_before_s`: every request sent before it has finished
    /// (requests still in flight would bias the latest seconds toward the fast ones), and
    /// `client_saturated` whether the load generator fell behind its schedule. Returns None
    /// between looks.
    pub fn look(&mut self, now_s: f64, complete_before_s: f64, client_saturated: bool) -> Option<Look> {
        if !self.due(now_s) {
            return None;
        }
        (self.last_look_s, self.last_look_n) = (now_s, self.done.len());
        let look = self.evaluate(now_s, complete_before_s.min(now_s), client_saturated);
        self.last = Some(look.clone());
        Some(look)
    }

    /// Whether a look at `now_s` would evaluate (else `look` returns None at once). A look
    /// re-reads every finished request: spacing them by the data's growth as well as by time
    /// keeps the monitor's total cost linear in the run's length; a planned point and
    /// `--max-duration` are looked at when reached.
    pub fn due(&self, now_s: f64) -> bool {
        let (every, growth) = match self.o.rule {
            Rule::Staged => (LOOK_EVERY_S, LOOK_GROWTH),
            Rule::Naive => (1.0, 1.0),
        };
        let t_s = now_s - self.origin_s();
        let planned = self.plan.zip(self.last.as_ref()).is_some_and(|(p, l)| l.measured_s + (t_s - l.t_s) >= p.at_s);
        let grown = self.done.len() as f64 >= growth * self.last_look_n as f64;
        (now_s - self.last_look_s >= every && (grown || planned)) || now_s >= self.o.max_duration_s
    }

    fn evaluate(&mut self, now_s: f64, until_s: f64, client_saturated: bool) -> Look {
        let origin = self.origin_s();
        let view = view_of(&self.done, until_s, origin);
        let until_s = until_s - origin;
        let errors = view.ok.iter().filter(|ok| !**ok).count();
        let mut look = Look {
            t_s: now_s - origin,
            phase: Phase::WarmingUp,
            warmup_end_s: None,
            measured_s: 0.0,
            excluded: Vec::new(),
            requests: view.len(),
            errors,
            targets: self.o.targets.iter().map(|t| TargetState::unknown(t)).collect(),
            eta_s: None,
            stop: None,
        };
        if let Some(stop) = self.early_stop(&view, errors, client_saturated).or_else(|| self.overloaded(now_s)) {
            look.stop = Some(stop);
            return look;
        }
        let Some((start_s, excluded)) = self.steady_window(&view, until_s) else {
            look.phase = if self.ever_steady { Phase::Unsettled } else { Phase::WarmingUp };
            look.stop = (now_s >= self.o.max_duration_s).then_some(StopReason::NoSteadyState);
            return look;
        };
        self.ever_steady = true;
        let ongoing = excluded.last().is_some_and(|e| e.end_s >= until_s);
        look.phase = if ongoing { Phase::Episode } else { Phase::Measuring };
        look.warmup_end_s = Some(start_s);
        let spans: Vec<Span> = excluded.iter().map(|e| Span { start_s: e.start_s, end_s: e.end_s }).collect();
        let window = Window { start_s, end_s: until_s, excluded: &spans };
        look.measured_s = window.measured_s();
        look.excluded = excluded;
        if look.measured_s < self.pilot_s() {
            // The pilot: no width counts yet.
            look.eta_s = Some(self.pilot_s() - look.measured_s);
            look.stop = (now_s >= self.o.max_duration_s).then_some(StopReason::MaxDuration);
            return look;
        }
        look.targets = estimates(&view, &window, &self.o.targets, self.o.seed, LOOK_RESAMPLES);
        let deciding = self.deciding(&look, now_s);
        if deciding && self.o.rule == Rule::Staged {
            // A decision is made on the analysis's own intervals (its resamples and seed), not
            // on a look's 999 resamples: `analyze` then reproduces them.
            let d = AnalyzeOptions::default();
            look.targets = estimates(&view, &window, &self.o.targets, d.seed, d.resamples);
        }
        look.stop = self.decide(&look, now_s, deciding);
        look.eta_s = self.eta(&look);
        look
    }

    /// Whether this look may stop the run for its goals: the naive rule at every look, the staged
    /// one at its planned points and at `--max-duration` (a fixed point selects nothing); never
    /// before `--min-duration`.
    fn deciding(&self, look: &Look, now_s: f64) -> bool {
        if now_s < self.o.min_duration_s {
            return false;
        }
        match self.o.rule {
            Rule::Naive => true,
            Rule::Staged => now_s >= self.o.max_duration_s || self.plan.is_some_and(|p| p.decides && look.measured_s >= p.at_s),
        }
    }

    /// The staged rule's next point after `look`: the projection with `MARGIN`, a decision,
    /// when it lies within twice the data measured (a decision is projected from at least half
    /// the data it is made on); else a point that only projects again, at the geometric mean of
    /// here and there (an early interval, from few groups, is wide and narrows faster than
    /// 1/√n, so a pilot's projection runs long). None while a target's width cannot project
    /// (an interval still unbounded).
    fn next_plan(&self, look: &Look) -> Option<Plan> {
        let needed = needed_s(look)?;
        let m = look.measured_s;
        let target = needed * MARGIN;
        let plan = if target <= 2.0 * m { Plan { at_s: target, decides: true } } else { Plan { at_s: (m * target).sqrt(), decides: false } };
        Some(Plan { at_s: plan.at_s.max(m * MIN_STEP), ..plan })
    }

    /// Seconds until every goal is projected to be met (for the staged rule: until the point
    /// where it will decide, with its margin).
    fn eta(&self, look: &Look) -> Option<f64> {
        let needed = needed_s(look)?;
        let at = match (self.o.rule, self.plan) {
            (Rule::Naive, _) => needed,
            (Rule::Staged, Some(p)) if p.decides => p.at_s,
            (Rule::Staged, _) => needed * MARGIN,
        };
        Some((at - look.measured_s).max(0.0))
    }

    /// An overloaded server, judged on the recent load up to `now_s` (`overload_look_since`),
    /// the requests still in flight counted as such: what it left unserved surely above 5 % of
    /// the offered rate.
    fn overloaded(&self, now_s: f64) -> Option<StopReason> {
        let offered = self.offered_per_s?;
        let origin = self.origin_s();
        // The first seconds' slope is the in-flight count filling (and a dozen windows' HAC
        // error is too small): a queue is judged on `OVERLOAD_MIN_S` of load at least.
        if now_s - origin < OVERLOAD_MIN_S {
            return None;
        }
        let view = view_in_flight(&self.done, &self.in_flight_sent_s, now_s, origin);
        let since = overload_look_since(now_s - origin);
        let l = crate::overload::load_since(&view, since, offered, AnalyzeOptions::default().window_s, OVERLOAD_LOOK_CONFIDENCE);
        l.overloaded().then(|| StopReason::Overloaded { offered, completed: l.completed_per_s.unwrap_or(0.0), unserved: l.unserved_per_s.estimate.unwrap_or(0.0) })
    }

    /// Stops that need no estimate: too many errors, a saturated client.
    fn early_stop(&self, view: &RequestView, errors: usize, client_saturated: bool) -> Option<StopReason> {
        if client_saturated {
            return Some(StopReason::ClientSaturated);
        }
        let limit = self.o.max_error_rate?;
        let n = view.len();
        let low = credence_stats::wilson::wilson_interval(errors as u64, n as u64, 0.95)?.0;
        (n >= 20 && low > limit).then(|| StopReason::ErrorRate { rate: errors as f64 / n as f64, limit })
    }

    /// Where the steady window starts (the warmup's end, given or as the offline detector finds
    /// it in what has finished) and the environmental episodes inside it that the estimates
    /// leave out; none while there is no steady state. As `analyze` does: attribution against
    /// the window found as measured, then steady state judged again without the episodes.
    fn steady_window(&mut self, view: &RequestView, until_s: f64) -> Option<(f64, Vec<Excluded>)> {
        let d = AnalyzeOptions::default();
        let so = SteadyOptions { window_s: d.window_s, penalty: d.penalty, delta: d.delta, override_window: self.o.warmup_s.map(|w| (Some(w), None)) };
        let steady = steady_state_excluding(view, &so, &[]);
        for (cause, span) in self.affected(view, &steady) {
            remember(&mut self.episodes, cause, span);
        }
        let affected = self.episodes.clone();
        let clean = if affected.is_empty() { steady } else { steady_state_excluding(view, &so, &merge(affected.iter().map(|(_, s)| *s).collect(), 0.0)) };
        if clean.classification == Classification::NoSteadyState {
            return None;
        }
        let start_s = self.o.warmup_s.unwrap_or(clean.start_s);
        let mut excluded: Vec<Excluded> = affected
            .into_iter()
            .map(|(cause, s)| Excluded { cause, start_s: s.start_s.max(start_s), end_s: s.end_s.min(until_s) })
            .filter(|e| e.end_s > e.start_s)
            .collect();
        excluded.sort_by(|a, b| a.start_s.total_cmp(&b.start_s));
        Some((start_s, excluded))
    }

    /// The affected windows of the environmental causes attribution finds in the telemetry so far.
    fn affected(&self, view: &RequestView, steady: &crate::steady::SteadyState) -> Vec<(Cause, Span)> {
        if self.telemetry.gpus.is_empty() && self.telemetry.hosts.is_empty() {
            return Vec::new();
        }
        let (findings, _, _) = crate::attribute::attribute(view, steady, &self.telemetry, crate::attribute::RunContext { mean_interarrival_ms: None, load_end: crate::attribute::LoadEnd::Unknown, load: None, seed: self.o.seed });
        let window_s = AnalyzeOptions::default().window_s;
        crate::conditions::affected_windows(&findings, window_s).into_iter().flat_map(|(cause, _, spans)| spans.into_iter().map(move |s| (cause, s))).collect()
    }

    /// Seconds of steady data measured before any width counts.
    fn pilot_s(&self) -> f64 {
        match self.o.rule {
            Rule::Staged => PILOT_GROUPS as f64 * crate::GROUP_MIN_S,
            Rule::Naive => crate::GROUP_MIN_S,
        }
    }

    /// The stop this look decides: goals met (at a deciding look), a goal out of reach, or the
    /// time limit; else, for the staged rule, where it looks next. Out of reach is decided only
    /// when sure: at once when a projection needs `FAR_OUT_OF_REACH` times the steady data the
    /// bound leaves; else once a third of `--max-duration` is measured (an early interval is
    /// wide for want of groups, and narrows faster than 1/√n), with the projection beyond 1.5 ×
    /// `--max-duration` at `UNREACHABLE_LOOKS` looks in a row. Neither ever reports a goal met.
    fn decide(&mut self, look: &Look, now_s: f64, deciding: bool) -> Option<StopReason> {
        if deciding && self.o.targets.iter().any(|t| t.threshold_ms.is_some()) && (look.targets.iter().all(|t| t.met) || look.targets.iter().any(|t| t.violated)) {
            return Some(StopReason::Decided);
        }
        if deciding && look.targets.iter().all(|t| t.met) {
            // Goals met on a run whose error rate fails its check are no goals met.
            let share = look.errors as f64 / look.requests.max(1) as f64;
            // The error-rate check's failure level: a run above it never stops with its goals met.
            let limit = crate::credibility::ERROR_FAIL;
            return Some(if share > limit { StopReason::ErrorRate { rate: share, limit } } else { StopReason::TargetsMet });
        }
        let due = self.plan.is_none_or(|p| look.measured_s >= p.at_s);
        if self.o.rule == Rule::Staged && due {
            self.plan = self.next_plan(look);
        }
        let start = look.warmup_end_s.unwrap_or(0.0);
        if let Some((key, needed_s)) = far_out_of_reach(look, self.o.max_duration_s - start) {
            return Some(StopReason::Unreachable { key, needed_s });
        }
        let enough = look.measured_s >= self.o.max_duration_s / 3.0;
        let beyond = look
            .targets
            .iter()
            .filter(|t| !t.met && enough)
            .find_map(|t| t.needed_s.filter(|n| start + n > 1.5 * self.o.max_duration_s).map(|n| (t.key.clone(), n)));
        self.unreachable_looks = if beyond.is_some() { self.unreachable_looks + 1 } else { 0 };
        if let Some((key, needed_s)) = beyond.filter(|_| self.unreachable_looks >= UNREACHABLE_LOOKS) {
            return Some(StopReason::Unreachable { key, needed_s });
        }
        (now_s >= self.o.max_duration_s).then_some(StopReason::MaxDuration)
    }
}

impl TargetState {
    fn unknown(t: &Target) -> TargetState {
        let threshold_ms = t.threshold_ms;
        TargetState { key: t.key.clone(), goal: t.goal, estimate: None, low: None, high: None, half_width: None, met: false, violated: false, threshold_ms, needed_s: None }
    }
}

/// Adds `span` of `cause` to the episodes found: joined with one of the same cause it overlaps
/// (an ongoing episode grows between looks), else as a new one.
fn remember(episodes: &mut Vec<(Cause, Span)>, cause: Cause, span: Span) {
    match episodes.iter_mut().find(|(c, s)| *c == cause && s.start_s <= span.end_s && span.start_s <= s.end_s) {
        Some((_, s)) => *s = Span { start_s: s.start_s.min(span.start_s), end_s: s.end_s.max(span.end_s) },
        None => episodes.push((cause, span)),
    }
}

/// A goal whose projection at `look` needs more than `FAR_OUT_OF_REACH` times `left_s`, the
/// steady seconds the bound leaves: its key and the seconds it needs.
fn far_out_of_reach(look: &Look, left_s: f64) -> Option<(String, f64)> {
    look.targets.iter().filter(|t| !t.met).find_map(|t| t.needed_s.filter(|n| *n > FAR_OUT_OF_REACH * left_s).map(|n| (t.key.clone(), n)))
}

/// The steady seconds every goal needs, as projected at `look` (the longest of the targets');
/// none while a target cannot project.
fn needed_s(look: &Look) -> Option<f64> {
    look.targets.iter().map(|t| t.needed_s).try_fold(0.0f64, |a, n| n.map(|n| a.max(n)))
}

/// The finished requests sent before `until_s`, in send order, as the analysis reads them:
/// on its clock, seconds from `origin_s` (the first send).
pub fn view_of(done: &[Finished], until_s: f64, origin_s: f64) -> RequestView {
    let mut rows: Vec<&Finished> = done.iter().filter(|f| f.sent_s < until_s).collect();
    rows.sort_by(|a, b| a.sent_s.total_cmp(&b.sent_s));
    let col = |f: fn(&Finished) -> f64| rows.iter().map(|r| f(r)).collect::<Vec<f64>>();
    let from_origin = |v: Vec<f64>| v.into_iter().map(|t| t - origin_s).collect();
    RequestView {
        t0_ns: 0,
        sent_s: from_origin(col(|r| r.sent_s)),
        end_s: from_origin(col(|r| r.end_s)),
        scheduled_s: vec![f64::NAN; rows.len()],
        ok: rows.iter().map(|r| r.ok).collect(),
        error_kind: rows.iter().map(|r| (!r.ok).then_some(0)).collect(),
        warmup_declared: vec![false; rows.len()],
        input_tokens: vec![f32::NAN; rows.len()],
        output_tokens: rows.iter().map(|r| r.output_tokens).collect(),
        ttft_ms: col(|r| r.ttft_ms),
        ttfot_ms: Vec::new(),
        tpot_ms: col(|r| r.tpot_ms),
        e2e_ms: col(|r| r.e2e_ms),
        itl_offsets: Vec::new(),
        itl_ms: Vec::new(),
        cached_tokens: Vec::new(),
        intended_input_tokens: Vec::new(),
        turn: Vec::new(),
        adapter: Vec::new(),
        adapter_names: Vec::new(),
    }
}

/// The requests sent before `now_s`: those finished, and those still in flight (sent at
/// `in_flight_sent_s`, never ended), in seconds from `origin_s`: an overload look's data.
pub fn view_in_flight(done: &[Finished], in_flight_sent_s: &[f64], now_s: f64, origin_s: f64) -> RequestView {
    let open = |&sent_s: &f64| Finished { sent_s, end_s: f64::INFINITY, ok: false, ttft_ms: f64::NAN, tpot_ms: f64::NAN, e2e_ms: f64::NAN, output_tokens: f32::NAN };
    let rows: Vec<Finished> = done.iter().filter(|f| f.end_s <= now_s).copied().chain(in_flight_sent_s.iter().filter(|s| **s < now_s).map(open)).collect();
    view_of(&rows, now_s, origin_s)
}

/// The steady data the estimates cover: `[start_s, end_s)` without the `excluded` spans.
struct Window<'a> {
    start_s: f64,
    end_s: f64,
    excluded: &'a [Span],
}

impl Window<'_> {
    /// The spans of the window that remain (in time order).
    fn kept(&self) -> Vec<(f64, f64)> {
        crate::conditions::complement(self.excluded, self.start_s, self.end_s).iter().map(|s| (s.start_s, s.end_s)).collect()
    }

    /// Seconds of steady data the window keeps.
    fn measured_s(&self) -> f64 {
        self.kept().iter().map(|(a, b)| b - a).sum()
    }
}

/// Each target's estimate and interval over the steady `window`, by the analysis's own methods
/// and resampling groups (`resamples` of them, from `seed`); episodes are left out as the
/// analysis's clean condition leaves them out (the groups inside them dropped and the rest
/// renumbered, throughput over the remaining spans).
fn estimates(view: &RequestView, window: &Window<'_>, targets: &[Target], seed: u64, resamples: usize) -> Vec<TargetState> {
    let d = AnalyzeOptions::default();
    let iopts = IntervalOptions { confidence: d.confidence, seed, resamples, extra_percentiles: Vec::new(), percentiles_only: false };
    let first = view.sent_s.partition_point(|t| *t < window.start_s);
    let last = view.sent_s.partition_point(|t| *t < window.end_s);
    let mut groups = ResamplingGroups::over(view, (window.start_s, window.end_s), first..last, d.window_s);
    if !window.excluded.is_empty() {
        groups = groups.filtered(|i| !crate::conditions::inside(window.excluded, view.sent_s[i]));
    }
    let (kept, measured_s) = (window.kept(), window.measured_s());
    targets
        .iter()
        .map(|t| {
            let e = match t.metric() {
                Some(TargetMetric::Latency { family, p }) => {
                    let column = match family {
                        "ttft" => &view.ttft_ms,
                        "tpot" => &view.tpot_ms,
                        _ => &view.e2e_ms,
                    };
                    let values = groups.idx.gather(column);
                    // Timed-out requests count as censored here too: a run must not stop on the
                    // precision of its survivors.
                    let censored = groups.idx.censored(view, family);
                    let censored = censored.as_ref().map(|(at_ms, before)| crate::censored::CensoredValues { at_ms, before: *before });
                    let sample = MetricSample { name: family, values: &values, window: &groups.win, windows: groups.groups, with_distribution: false, censored };
                    metric_estimates(&sample, &iopts).0.remove(&percentile_key(p))
                }
                Some(TargetMetric::Throughput) => Some(crate::rates::throughput_over(view, &kept, d.window_s, &iopts).requests_per_s),
                None => None,
            };
            state(t, e.as_ref(), measured_s)
        })
        .collect()
}

/// A target's state from its estimate: met when the larger half-width is within the goal, or,
/// for a threshold target, when the interval lies on one side of the threshold (the goal is
/// then the estimate's relative distance to the threshold: the width that decides it).
fn state(t: &Target, e: Option<&crate::estimate::Estimate>, measured_s: f64) -> TargetState {
    let mut s = TargetState::unknown(t);
    let Some(e) = e else { return s };
    s.estimate = e.estimate;
    (s.low, s.high) = (e.ci_low, e.ci_high);
    if let Some(threshold) = t.threshold_ms {
        // A bound (a percentile beyond the timeouts) above the threshold decides it too.
        s.violated = e.ci_low.is_some_and(|lo| lo > threshold);
        s.met = s.violated || e.ci_high.is_some_and(|hi| hi <= threshold);
    }
    if let (Some(x), Some(lo), Some(hi)) = (e.estimate, e.ci_low, e.ci_high)
        && x > 0.0
    {
        let h = (hi - x).max(x - lo) / x;
        s.half_width = Some(h);
        if let Some(threshold) = t.threshold_ms {
            s.goal = ((x - threshold).abs() / x).max(1e-6);
        } else {
            s.met = h <= t.goal;
        }
        s.needed_s = Some(measured_s * (h / s.goal).powi(2));
    }
    s
}

#[cfg(test)]
mod tests;
