//! Ground truth: the true steady-state percentiles of the generating model.
//!
//! They come from long independent runs of the same model (same rate, lengths, engine and
//! effect, but undisturbed: no warmup, no anomaly), with fixed seeds that do not depend on
//! the sample's seed, totalling 100× the sample's duration. The sample itself is never used.

use serde::Serialize;

use super::observe::Effect;
use super::scenario::{Anomaly, Scenario, Timeline};
use super::{SimOptions, simulate_requests};
use credence_stats::quantile::quantile_sorted;

/// Number of independent truth runs; together they last `TRUTH_FACTOR` × the sample.
const TRUTH_RUNS: u64 = 10;
const TRUTH_FACTOR: f64 = 100.0;
/// Seeds of the truth runs (independent of every sample seed used in practice).
const TRUTH_SEED_BASE: u64 = 0x7472_7574_6800_0000;

/// True percentiles of one metric, in ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Percentiles {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
}

/// True steady-state percentiles of TTFT, TPOT and E2E.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TruePercentiles {
    pub ttft: Percentiles,
    pub tpot: Percentiles,
    pub e2e: Percentiles,
}

/// `truth.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Truth {
    pub scenario: String,
    pub seed: u64,
    pub duration_s: f64,
    /// Seconds from the run start (the first scheduled send) to the end of warmup; 0 if none.
    pub warmup_end_s: f64,
    pub anomalies: Vec<Anomaly>,
    #[serde(rename = "true")]
    pub true_percentiles: TruePercentiles,
    pub effect: Option<Effect>,
    /// How `true` was computed.
    pub method: String,
    /// Requests behind `true`.
    pub truth_requests: usize,
    /// With shared prefixes: the share of the served requests' prompt tokens the engine's
    /// prefix cache served (the whole run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix_cache_hit_rate: Option<f64>,
    /// With conversations: each turn's true TTFT and hit rate, from the same runs as `true`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turns: Option<Vec<TurnTruth>>,
}

/// One turn of the conversations, over every session that reached it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TurnTruth {
    /// From 1.
    pub turn: u32,
    pub requests: usize,
    pub ttft_p50_ms: f64,
    /// Cached over prompt tokens of the turn's served requests.
    pub hit_rate: f64,
    pub prompt_tokens: u64,
    pub cached_tokens: u64,
}

pub(super) fn compute(opts: &SimOptions, timeline: &Timeline) -> Truth {
    let (true_percentiles, truth_requests, turns) = if opts.compute_truth {
        truth_runs(opts)
    } else {
        let nan = Percentiles { p50: f64::NAN, p90: f64::NAN, p99: f64::NAN };
        (TruePercentiles { ttft: nan, tpot: nan, e2e: nan }, 0, None)
    };
    Truth {
        scenario: opts.scenario.name().to_string(),
        seed: opts.seed,
        duration_s: opts.duration_s,
        warmup_end_s: timeline.warmup_end_s(),
        anomalies: timeline.anomalies(),
        true_percentiles,
        effect: opts.effect,
        method: format!(
            "{TRUTH_RUNS} independent undisturbed runs of the same model, {} s each ({}x the sample's duration in all), with fixed seeds; type-7 percentiles of successful requests sent after the first 60 s and before the last 30 s of each run",
            opts.duration_s * TRUTH_FACTOR / TRUTH_RUNS as f64,
            TRUTH_FACTOR
        ),
        truth_requests,
        prefix_cache_hit_rate: None,
        turns,
    }
}

/// True percentiles of the undisturbed model (depends on the options, not on the seed).
pub fn true_percentiles(opts: &SimOptions) -> (TruePercentiles, usize) {
    let (p, n, _) = truth_runs(opts);
    (p, n)
}

/// The truth runs: the true percentiles, the requests behind them and, with conversations,
/// each turn's truth.
fn truth_runs(opts: &SimOptions) -> (TruePercentiles, usize, Option<Vec<TurnTruth>>) {
    let run_s = opts.duration_s * TRUTH_FACTOR / TRUTH_RUNS as f64;
    let timeline = Timeline { scenario: Scenario::Steady, duration_s: run_s, seed: 0, with_episode: false };
    // The sessions' process, uncapped: a run's `--sessions N` ends its load, not the model.
    let opts = &SimOptions { sessions: opts.sessions.map(|s| super::SimSessions { count: u64::MAX, ..s }), ..opts.clone() };
    let (mut ttft, mut tpot, mut e2e) = (Vec::new(), Vec::new(), Vec::new());
    let mut by_turn = TurnSums::default();
    let (lo, hi) = (60e9 as i64, ((run_s - 30.0) * 1e9) as i64);
    for k in 0..TRUTH_RUNS {
        let (records, _) = simulate_requests(opts, &timeline, TRUTH_SEED_BASE + k, false);
        for r in records.iter().filter(|r| r.sent >= lo && r.sent < hi && r.failure.is_none()) {
            let Some(first) = r.observed.first_token_ns else {
                continue;
            };
            ttft.push((first - r.sent) as f64 / 1e6);
            by_turn.add(r, (first - r.sent) as f64 / 1e6);
            e2e.push((r.observed.end_ns - r.sent) as f64 / 1e6);
            if r.output > 1 {
                tpot.push((r.observed.end_ns - first) as f64 / 1e6 / (r.output - 1) as f64);
            }
        }
    }
    let n = ttft.len();
    let pct = |v: &mut Vec<f64>| {
        v.sort_unstable_by(f64::total_cmp);
        let q = |p| quantile_sorted(v, p).unwrap_or(f64::NAN);
        Percentiles { p50: q(0.5), p90: q(0.9), p99: q(0.99) }
    };
    let turns = opts.sessions.map(|_| by_turn.truth());
    (TruePercentiles { ttft: pct(&mut ttft), tpot: pct(&mut tpot), e2e: pct(&mut e2e) }, n, turns)
}

/// Per turn: the TTFTs (ms), and cached and prompt tokens.
#[derive(Default)]
struct TurnSums(Vec<(Vec<f64>, u64, u64)>);

impl TurnSums {
    fn add(&mut self, r: &super::Record, ttft_ms: f64) {
        let Some((_, turn)) = r.turn else { return };
        let i = turn as usize - 1;
        if self.0.len() <= i {
            self.0.resize_with(i + 1, Default::default);
        }
        let t = &mut self.0[i];
        t.0.push(ttft_ms);
        t.1 += u64::from(r.cached.unwrap_or(0));
        t.2 += u64::from(r.input);
    }

    fn truth(mut self) -> Vec<TurnTruth> {
        let turn = |(i, (ttft, cached, input)): (usize, &mut (Vec<f64>, u64, u64))| {
            ttft.sort_unstable_by(f64::total_cmp);
            let ttft_p50_ms = quantile_sorted(ttft, 0.5).unwrap_or(f64::NAN);
            let hit_rate = *cached as f64 / (*input).max(1) as f64;
            TurnTruth { turn: i as u32 + 1, requests: ttft.len(), ttft_p50_ms, hit_rate, prompt_tokens: *input, cached_tokens: *cached }
        };
        self.0.iter_mut().enumerate().map(turn).collect()
    }
}
