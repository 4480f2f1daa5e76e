//! Run to credibility: while `credence bench --until SPEC` loads a server, `Monitor` watches
//! the finished requests and decides when the numbers are good enough to stop.
//!
//! Each look re-runs the offline analysis's own steps on what has finished so far: the
//! steady-state detector (`steady::steady_state`) cuts the warmup, and the targets' estimates
//! and 95 % intervals come from `intervals::metric_estimates` and the throughput bootstrap over
//! the same resampling groups, so the dependence between requests is handled as `analyze`
//! handles it, and `analyze` on the finished run reproduces the estimates.
//!
//! The stopping rule is a fixed-width sequential rule (Chow & Robbins 1965; for quantiles
//! Nádas 1969): stop when every target's relative half-width is at most its goal. It depends on
//! the data only through the intervals' widths, not their centres, which is why its coverage at
//! the stopping time tends to the nominal one as the goals tighten; what breaks it at finite
//! goals is stopping on a width that is itself noise (a P99's width shrinks with its estimate
//! when the tail happened to be light). So a width counts only after a pilot (`PILOT_GROUPS`
//! resampling groups of steady data, and `--min-duration`); looks are spaced (`LOOK_EVERY_S`,
//! and 5 % more data); a stop is decided on the analysis's own intervals (its 9999 resamples and
//! seed, not a look's 999), so no resampling noise is selected and `analyze` reproduces them;
//! and the goals must be met at `MET_LOOKS` consecutive looks. The naive rule (a look every
//! second, no pilot, one look) is kept for the coverage study that shows the difference
//! (`tests/it/until_study.rs`).

pub mod between;
pub mod spec;

use serde::{Deserialize, Serialize};

use crate::intervals::{IntervalOptions, MetricSample, metric_estimates, percentile_key};
use crate::requests::RequestView;
use crate::steady::{Classification, SteadyOptions, steady_state};
use crate::{AnalyzeOptions, ResamplingGroups};
pub use credence_run::rows::Finished;
pub use spec::{Target, TargetMetric};

/// Resampling groups of steady data measured before a width may stop the run.
pub const PILOT_GROUPS: usize = 20;
/// Seconds between two looks of the sequential rule.
pub const LOOK_EVERY_S: f64 = 5.0;
/// The sequential rule looks again only once the finished requests grew by this factor.
const LOOK_GROWTH: f64 = 1.05;
/// Consecutive looks at which every goal must be met before the run stops for them: a second
/// look, on 5 % more data at least, is a width measured again, so a stop is not decided on one
/// width that happened to come out narrow (which under-covers: see the module's notes).
const MET_LOOKS: usize = 2;
/// Consecutive looks that must project a goal out of reach before the run stops for it.
const UNREACHABLE_LOOKS: usize = 3;
/// Resamples per look: the estimates' intervals need far fewer than the report's 9999 to
/// settle a width to a few percent, and a look must cost little beside the load.
const LOOK_RESAMPLES: usize = 999;

/// When a stop is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A pilot, then looks every `LOOK_EVERY_S` (the default).
    Sequential,
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
    /// The error rate passed `--max-error-rate`.
    ErrorRate { rate: f64, limit: f64 },
    /// The load generator could not keep its schedule: its numbers measure the client.
    ClientSaturated,
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
            StopReason::ErrorRate { .. } => "error_rate",
            StopReason::ClientSaturated => "client_saturated",
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
    /// Seconds of steady data the goal needs, projected from how the width shrinks (∝ 1/√n).
    pub needed_s: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    WarmingUp,
    Measuring,
}

/// What a look found.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Look {
    pub t_s: f64,
    pub phase: Phase,
    /// Where the measured window starts (the warmup's end).
    pub warmup_end_s: Option<f64>,
    /// Seconds of steady data the estimates cover.
    pub measured_s: f64,
    pub requests: usize,
    pub errors: usize,
    pub targets: Vec<TargetState>,
    /// Seconds until every goal is projected to be met.
    pub eta_s: Option<f64>,
    pub stop: Option<StopReason>,
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
    /// Consecutive looks at which every goal was met.
    met_looks: usize,
    last: Option<Look>,
}

impl Monitor {
    pub fn new(o: UntilOptions) -> Monitor {
        Monitor { o, done: Vec::new(), last_look_s: f64::NEG_INFINITY, last_look_n: 0, unreachable_looks: 0, met_looks: 0, last: None }
    }

    pub fn push(&mut self, f: Finished) {
        self.done.push(f);
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
        let (every, growth) = match self.o.rule {
            Rule::Sequential => (LOOK_EVERY_S, LOOK_GROWTH),
            Rule::Naive => (1.0, 1.0),
        };
        // A look re-reads every finished request: spacing them by the data's growth as well as
        // by time keeps the monitor's total cost linear in the run's length.
        let due = now_s - self.last_look_s >= every && self.done.len() as f64 >= growth * self.last_look_n as f64;
        if !due && now_s < self.o.max_duration_s {
            return None;
        }
        (self.last_look_s, self.last_look_n) = (now_s, self.done.len());
        let look = self.evaluate(now_s, complete_before_s.min(now_s), client_saturated);
        self.last = Some(look.clone());
        Some(look)
    }

    fn evaluate(&mut self, now_s: f64, until_s: f64, client_saturated: bool) -> Look {
        let view = view_of(&self.done, until_s);
        let errors = view.ok.iter().filter(|ok| !**ok).count();
        let mut look = Look {
            t_s: now_s,
            phase: Phase::WarmingUp,
            warmup_end_s: None,
            measured_s: 0.0,
            requests: view.len(),
            errors,
            targets: self.o.targets.iter().map(|t| TargetState::unknown(t)).collect(),
            eta_s: None,
            stop: None,
        };
        if let Some(stop) = self.early_stop(&view, errors, client_saturated) {
            look.stop = Some(stop);
            return look;
        }
        let Some(start_s) = self.warmup_end(&view) else {
            look.stop = (now_s >= self.o.max_duration_s).then_some(StopReason::NoSteadyState);
            return look;
        };
        look.phase = Phase::Measuring;
        look.warmup_end_s = Some(start_s);
        look.measured_s = (until_s - start_s).max(0.0);
        if look.measured_s < self.pilot_s() {
            // The pilot: no width counts yet.
            look.eta_s = Some(self.pilot_s() - look.measured_s);
            look.stop = (now_s >= self.o.max_duration_s).then_some(StopReason::MaxDuration);
            return look;
        }
        look.targets = estimates(&view, start_s, until_s, &self.o.targets, self.o.seed, LOOK_RESAMPLES);
        if self.o.rule == Rule::Sequential && now_s >= self.o.min_duration_s && look.targets.iter().all(|t| t.met) {
            // A stop is decided on the analysis's own intervals (its resamples and seed), not
            // on a look's: a look's 999 resamples put noise in the widths, and stopping at the
            // first narrow one would select that noise. `analyze` then reproduces them.
            let d = AnalyzeOptions::default();
            look.targets = estimates(&view, start_s, until_s, &self.o.targets, d.seed, d.resamples);
        }
        look.eta_s = look.targets.iter().map(|t| t.needed_s.map(|n| (n - look.measured_s).max(0.0))).try_fold(0.0f64, |a, x| x.map(|x| a.max(x)));
        look.stop = self.decide(&look, now_s);
        look
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

    /// Where the steady window starts: the warmup's end, given or as the offline detector
    /// finds it in what has finished; none while there is no steady state.
    fn warmup_end(&self, view: &RequestView) -> Option<f64> {
        if let Some(w) = self.o.warmup_s {
            return Some(w);
        }
        let d = AnalyzeOptions::default();
        let s = steady_state(view, &SteadyOptions { window_s: d.window_s, penalty: d.penalty, delta: d.delta, override_window: None });
        (s.classification != Classification::NoSteadyState).then_some(s.start_s)
    }

    /// Seconds of steady data measured before any width counts.
    fn pilot_s(&self) -> f64 {
        match self.o.rule {
            Rule::Sequential => PILOT_GROUPS as f64 * crate::GROUP_MIN_S,
            Rule::Naive => crate::GROUP_MIN_S,
        }
    }

    /// The stop this look decides: goals met (after `--min-duration`), a goal out of reach,
    /// or the time limit. Out of reach is decided only when sure: a third of `--max-duration`
    /// measured (an early interval is wide for want of groups, and narrows faster than 1/√n),
    /// and the projection beyond 1.5 × `--max-duration` at `UNREACHABLE_LOOKS` looks in a row.
    fn decide(&mut self, look: &Look, now_s: f64) -> Option<StopReason> {
        let met = now_s >= self.o.min_duration_s && look.targets.iter().all(|t| t.met);
        self.met_looks = if met { self.met_looks + 1 } else { 0 };
        let needed = match self.o.rule {
            Rule::Sequential => MET_LOOKS,
            Rule::Naive => 1,
        };
        if self.met_looks >= needed {
            return Some(StopReason::TargetsMet);
        }
        let start = look.warmup_end_s.unwrap_or(0.0);
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
        TargetState { key: t.key.clone(), goal: t.goal, estimate: None, low: None, high: None, half_width: None, met: false, needed_s: None }
    }
}

/// The finished requests sent before `until_s`, in send order, as the analysis reads them.
pub fn view_of(done: &[Finished], until_s: f64) -> RequestView {
    let mut rows: Vec<&Finished> = done.iter().filter(|f| f.sent_s < until_s).collect();
    rows.sort_by(|a, b| a.sent_s.total_cmp(&b.sent_s));
    let col = |f: fn(&Finished) -> f64| rows.iter().map(|r| f(r)).collect::<Vec<f64>>();
    RequestView {
        t0_ns: 0,
        sent_s: col(|r| r.sent_s),
        end_s: col(|r| r.end_s),
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
    }
}

/// Each target's estimate and interval over the steady window `[start_s, end_s)`, by the
/// analysis's own methods and resampling groups (`resamples` of them, from `seed`).
fn estimates(view: &RequestView, start_s: f64, end_s: f64, targets: &[Target], seed: u64, resamples: usize) -> Vec<TargetState> {
    let d = AnalyzeOptions::default();
    let iopts = IntervalOptions { confidence: d.confidence, seed, resamples, extra_percentiles: Vec::new() };
    let first = view.sent_s.partition_point(|t| *t < start_s);
    let last = view.sent_s.partition_point(|t| *t < end_s);
    let groups = ResamplingGroups::over(view, (start_s, end_s), first..last, d.window_s);
    let measured_s = end_s - start_s;
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
                    let sample = MetricSample { name: family, values: &values, window: &groups.win, windows: groups.groups, with_distribution: false };
                    metric_estimates(&sample, &iopts).0.remove(&percentile_key(p))
                }
                Some(TargetMetric::Throughput) => Some(crate::rates::throughput(view, start_s, end_s, d.window_s, &iopts).requests_per_s),
                None => None,
            };
            state(t, e.as_ref(), measured_s)
        })
        .collect()
}

/// A target's state from its estimate: met when the larger half-width is within the goal.
fn state(t: &Target, e: Option<&crate::estimate::Estimate>, measured_s: f64) -> TargetState {
    let mut s = TargetState::unknown(t);
    let Some(e) = e else { return s };
    s.estimate = e.estimate;
    (s.low, s.high) = (e.ci_low, e.ci_high);
    if let (Some(x), Some(lo), Some(hi)) = (e.estimate, e.ci_low, e.ci_high)
        && x > 0.0
    {
        let h = (hi - x).max(x - lo) / x;
        s.half_width = Some(h);
        s.met = h <= t.goal;
        s.needed_s = Some(measured_s * (h / t.goal).powi(2));
    }
    s
}
