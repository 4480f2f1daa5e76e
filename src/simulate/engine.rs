//! The server model: an inference engine with continuous batching.
//!
//! Time advances one engine iteration at a time. Each iteration admits waiting requests
//! (first come, first served) while batch slots and KV-cache tokens allow, runs their prefill
//! together with one decode step for every running request, and takes
//! `(base + per_seq · batch + per_prefill_token · prefill) · slowdown · noise`. A request's
//! first token comes at the end of its admission iteration and one more token at the end of
//! each following iteration, so latency responds to load through batch size and queueing.
//! The noise is autocorrelated (AR(1) on the log scale, Student-t innovations) with rare
//! stalls whose sizes have a power-law tail (Pareto, shape 2.5, capped at 1 s), as real
//! engines show. (A shape of 1.5 — infinite variance — made P99 of a 5-minute run hinge on
//! whether one multi-second stall happened at all; see the README's coverage numbers.)
//!
//! The engine records only iteration end times and each request's admission iteration; all
//! token times are read from those afterwards, so the cost is O(iterations + requests).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::rng::{SimRng, Stream};
use super::scenario::Timeline;

/// Nominal engine costs and capacities.
#[derive(Debug, Clone, Copy)]
pub struct EngineParams {
    pub base_ms: f64,
    pub per_seq_ms: f64,
    pub per_prefill_token_ms: f64,
    pub max_batch: u32,
    pub kv_tokens: u64,
    /// Log-scale SD of the stationary iteration noise.
    pub noise_sigma: f64,
    /// Lag-1 autocorrelation of the iteration noise.
    pub noise_phi: f64,
    /// Probability per iteration of a long stall (scheduler hiccup, allocator, GC).
    pub stall_probability: f64,
    /// Multiplier on capacity (the `throughput` effect): iterations take 1/scale as long.
    pub capacity_scale: f64,
}

impl Default for EngineParams {
    fn default() -> Self {
        EngineParams {
            base_ms: 12.0,
            per_seq_ms: 0.08,
            per_prefill_token_ms: 0.01,
            max_batch: 256,
            kv_tokens: 100_000,
            noise_sigma: 0.06,
            noise_phi: 0.995,
            stall_probability: 1.0 / 1500.0,
            capacity_scale: 1.0,
        }
    }
}

/// One request as the server sees it.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    /// Intended send time (open loop), ns from the run start.
    pub scheduled_ns: Option<i64>,
    /// Actual send time at the client, ns from the run start.
    pub sent_ns: i64,
    /// Arrival at the server, ns from the run start.
    pub arrival_ns: i64,
    pub input_tokens: u32,
    pub output_tokens: u32,
    /// A request that fails instead of being served.
    pub failure: Option<Failure>,
    /// Closed-loop client that sent it, if any.
    pub client: Option<u32>,
}

/// How a failing request fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Rejected with out-of-memory at admission.
    Oom,
    /// Never answered: the client gives up after its timeout.
    Timeout,
}

/// Client timeout of simulated requests.
pub const TIMEOUT_NS: i64 = 10_000_000_000;

/// Creates the next closed-loop request of a client whose request just ended.
pub type NextJob<'a> = dyn FnMut(u32, i64) -> Option<Job> + 'a;

/// What the engine did.
#[derive(Debug, Clone, Default)]
pub struct EngineTrace {
    /// End time of each iteration, ns from the run start.
    pub iter_end_ns: Vec<i64>,
    /// All jobs, including closed-loop ones created during the run, in creation order.
    pub jobs: Vec<Job>,
    /// Iteration in which each job was admitted.
    pub admit_iter: Vec<u64>,
    /// Per whole second from the run start: busy time (s) and batch-size × time (seq·s).
    pub busy_s: Vec<f64>,
    pub batch_time: Vec<f64>,
    /// KV tokens in use × time (token·s) per second.
    pub kv_time: Vec<f64>,
    /// Waiting requests × time per second.
    pub waiting_time: Vec<f64>,
}

impl EngineTrace {
    /// Token times of job `j`: first at index 0, one per output token.
    pub fn token_times(&self, j: usize) -> &[i64] {
        let a = self.admit_iter[j] as usize;
        let n = self.jobs[j].output_tokens.max(1) as usize;
        &self.iter_end_ns[a..a + n]
    }

    fn add_second_stats(&mut self, start_ns: i64, dur_ns: i64, batch: u32, kv: u64, waiting: usize) {
        let sec = (start_ns.max(0) / 1_000_000_000) as usize;
        if self.busy_s.len() <= sec {
            let n = sec + 1;
            self.busy_s.resize(n, 0.0);
            self.batch_time.resize(n, 0.0);
            self.kv_time.resize(n, 0.0);
            self.waiting_time.resize(n, 0.0);
        }
        let d = dur_ns as f64 / 1e9;
        self.busy_s[sec] += d;
        self.batch_time[sec] += batch as f64 * d;
        self.kv_time[sec] += kv as f64 * d;
        self.waiting_time[sec] += waiting as f64 * d;
    }
}

/// Runs the engine over `jobs` (sorted or not) plus any closed-loop follow-ups.
pub fn run_engine(params: &EngineParams, timeline: &Timeline, seed: u64, jobs: Vec<Job>, next_job: &mut NextJob<'_>) -> EngineTrace {
    let mut rng = SimRng::new(seed, Stream::Engine);
    let mut trace = EngineTrace { admit_iter: vec![u64::MAX; jobs.len()], jobs, ..Default::default() };
    let mut pending: BinaryHeap<Reverse<(i64, usize)>> = trace.jobs.iter().enumerate().map(|(i, j)| Reverse((j.arrival_ns, i))).collect();
    let mut waiting: VecDeque<usize> = VecDeque::new();
    let mut departures: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut running: u32 = 0;
    let mut kv_used: u64 = 0;
    let mut t: i64 = 0;
    let mut iter: u64 = 0;
    let mut noise = 0.0_f64;
    let innovation_sd = params.noise_sigma * (1.0 - params.noise_phi.powi(2)).sqrt();
    let need = |j: &Job| (j.input_tokens + j.output_tokens) as u64;
    loop {
        while let Some(Reverse((at, j))) = pending.peek().copied() {
            if at > t {
                break;
            }
            pending.pop();
            waiting.push_back(j);
        }
        if running == 0 && waiting.is_empty() {
            match pending.peek() {
                Some(Reverse((at, _))) => {
                    t = *at;
                    continue;
                }
                None => break,
            }
        }
        let cond = timeline.conditions(t as f64 / 1e9);
        let max_batch = ((params.max_batch as f64 * cond.batch_share) as u32).max(1);
        let kv_cap = (params.kv_tokens as f64 * cond.kv_share) as u64;
        let mut prefill_tokens = 0u64;
        while let Some(&j) = waiting.front() {
            let job = trace.jobs[j];
            let fits = running < max_batch && (kv_used + need(&job) <= kv_cap || running == 0);
            if !fits {
                break;
            }
            waiting.pop_front();
            trace.admit_iter[j] = iter;
            prefill_tokens += job.input_tokens as u64;
            if job.failure.is_some() {
                departures.push(Reverse((iter, j)));
                continue;
            }
            running += 1;
            kv_used += need(&job);
            departures.push(Reverse((iter + job.output_tokens.max(1) as u64 - 1, j)));
        }
        noise = params.noise_phi * noise + innovation_sd * rng.student_t_unit(5);
        let mut ms = params.base_ms + params.per_seq_ms * running as f64 + params.per_prefill_token_ms * prefill_tokens as f64;
        ms *= cond.slowdown * noise.exp() / params.capacity_scale;
        if rng.chance(params.stall_probability) {
            ms += rng.pareto(30.0, 2.5).min(1_000.0);
        }
        let dur = (ms * 1e6).round() as i64;
        trace.add_second_stats(t, dur, running, kv_used, waiting.len());
        t += dur;
        trace.iter_end_ns.push(t);
        while let Some(Reverse((done, j))) = departures.peek().copied() {
            if done > iter {
                break;
            }
            departures.pop();
            let done_job = trace.jobs[j];
            let free_at = match done_job.failure {
                None => {
                    running -= 1;
                    kv_used -= need(&done_job);
                    t
                }
                Some(Failure::Oom) => t,
                Some(Failure::Timeout) => t.max(done_job.arrival_ns + TIMEOUT_NS),
            };
            if let Some(client) = done_job.client
                && let Some(job) = next_job(client, free_at)
            {
                trace.jobs.push(job);
                trace.admit_iter.push(u64::MAX);
                pending.push(Reverse((job.arrival_ns, trace.jobs.len() - 1)));
            }
        }
        iter += 1;
    }
    trace
}
