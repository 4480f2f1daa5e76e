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
//! whether one multi-second stall happened at all; see the coverage numbers in docs/limits.md.)
//!
//! The engine records only iteration end times and each request's admission iteration; all
//! token times are read from those afterwards, so the cost is O(iterations + requests).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::rng::{SimRng, Stream};
use super::scenario::{Conditions, Timeline};

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
    /// Shared prefix: (group, tokens) of the system prompt it opens with.
    pub prefix: Option<(u32, u32)>,
    /// A conversation's turn: its prompt opens with the earlier turns and their replies.
    pub turn: Option<Turn>,
}

/// One turn of a conversation (`--sessions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    pub session: u32,
    /// From 1.
    pub index: u32,
    /// Turns the session has.
    pub of: u32,
    /// Prompt tokens of the earlier turns and their replies, which this turn's prompt opens with.
    pub history: u32,
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

/// Creates the request that follows one that just ended (`free_at`): a closed-loop client's
/// next, or a conversation's next turn; none when nothing follows.
pub type NextJob<'a> = dyn FnMut(&Job, i64) -> Option<Job> + 'a;

/// What the engine did.
#[derive(Debug, Clone, Default)]
pub struct EngineTrace {
    /// End time of each iteration, ns from the run start.
    pub iter_end_ns: Vec<i64>,
    /// All jobs, including closed-loop ones created during the run, in creation order.
    pub jobs: Vec<Job>,
    /// Iteration in which each job was admitted.
    pub admit_iter: Vec<u64>,
    /// Prompt tokens each job found in the prefix cache at admission (0 before it is admitted).
    pub cached: Vec<u32>,
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
    let mut e = Engine::new(params, seed, jobs);
    loop {
        e.queue_arrivals();
        if e.running == 0 && e.waiting.is_empty() {
            match e.pending.peek() {
                Some(Reverse((at, _))) => {
                    e.t = *at;
                    continue;
                }
                None => break,
            }
        }
        let cond = timeline.conditions(e.t as f64 / 1e9);
        let max_batch = ((params.max_batch as f64 * cond.batch_share) as u32).max(1);
        let kv_cap = (params.kv_tokens as f64 * cond.kv_share) as u64;
        let prefill_tokens = e.admit(max_batch, kv_cap);
        let ms = e.iteration_ms(&cond, prefill_tokens);
        let dur = (ms * 1e6).round() as i64;
        e.trace.add_second_stats(e.t, dur, e.running, e.kv_used, e.waiting.len());
        e.t += dur;
        e.trace.iter_end_ns.push(e.t);
        e.depart(next_job);
        e.iter += 1;
    }
    e.trace
}

/// KV tokens a job holds while it runs: its prompt and its whole output.
fn need(j: &Job) -> u64 {
    (j.input_tokens + j.output_tokens) as u64
}

/// The engine's state between iterations: queues, the running batch, the clock and the noise.
struct Engine<'a> {
    params: &'a EngineParams,
    rng: SimRng,
    trace: EngineTrace,
    /// Jobs not yet arrived, by arrival time.
    pending: BinaryHeap<Reverse<(i64, usize)>>,
    waiting: VecDeque<usize>,
    /// Admitted jobs by the iteration in which they end.
    departures: BinaryHeap<Reverse<(u64, usize)>>,
    running: u32,
    kv_used: u64,
    t: i64,
    iter: u64,
    noise: f64,
    innovation_sd: f64,
    /// The prefix cache: the shared system prompts prefilled so far (it never fills).
    cached_groups: std::collections::HashSet<u32>,
}

impl<'a> Engine<'a> {
    /// An idle engine at time zero with `jobs` still to arrive.
    fn new(params: &'a EngineParams, seed: u64, jobs: Vec<Job>) -> Engine<'a> {
        let rng = SimRng::new(seed, Stream::Engine);
        let trace = EngineTrace { admit_iter: vec![u64::MAX; jobs.len()], cached: vec![0; jobs.len()], jobs, ..Default::default() };
        let pending = trace.jobs.iter().enumerate().map(|(i, j)| Reverse((j.arrival_ns, i))).collect();
        Engine {
            params,
            rng,
            trace,
            pending,
            waiting: VecDeque::new(),
            departures: BinaryHeap::new(),
            running: 0,
            kv_used: 0,
            t: 0,
            iter: 0,
            noise: 0.0,
            innovation_sd: params.noise_sigma * (1.0 - params.noise_phi.powi(2)).sqrt(),
            cached_groups: std::collections::HashSet::new(),
        }
    }

    /// Moves every job that has arrived by now into the waiting queue.
    fn queue_arrivals(&mut self) {
        while let Some(Reverse((at, j))) = self.pending.peek().copied() {
            if at > self.t {
                break;
            }
            self.pending.pop();
            self.waiting.push_back(j);
        }
    }

    /// Admits waiting jobs in order while the batch and the KV cache have room; returns the prompt tokens to prefill.
    fn admit(&mut self, max_batch: u32, kv_cap: u64) -> u64 {
        let mut prefill_tokens = 0u64;
        while let Some(&j) = self.waiting.front() {
            let job = self.trace.jobs[j];
            let fits = self.running < max_batch && (self.kv_used + need(&job) <= kv_cap || self.running == 0);
            if !fits {
                break;
            }
            self.waiting.pop_front();
            self.trace.admit_iter[j] = self.iter;
            // A system prompt prefilled before is served from the cache, and so is a conversation's
            // history (its earlier turns were prefilled and decoded): only the rest is prefilled.
            let shared = job.prefix.map_or(0, |(group, len)| if self.cached_groups.insert(group) { 0 } else { len.min(job.input_tokens) });
            let cached = shared + job.turn.map_or(0, |t| t.history.min(job.input_tokens - shared));
            self.trace.cached[j] = cached;
            prefill_tokens += u64::from(job.input_tokens - cached);
            if job.failure.is_some() {
                self.departures.push(Reverse((self.iter, j)));
                continue;
            }
            self.running += 1;
            self.kv_used += need(&job);
            self.departures.push(Reverse((self.iter + job.output_tokens.max(1) as u64 - 1, j)));
        }
        prefill_tokens
    }

    /// How long this iteration takes: the batch's cost under the conditions, AR(1) noise and rare stalls.
    fn iteration_ms(&mut self, cond: &Conditions, prefill_tokens: u64) -> f64 {
        let params = self.params;
        self.noise = params.noise_phi * self.noise + self.innovation_sd * self.rng.student_t_unit(5);
        let mut ms = params.base_ms + params.per_seq_ms * self.running as f64 + params.per_prefill_token_ms * prefill_tokens as f64;
        ms *= cond.slowdown * self.noise.exp() / params.capacity_scale;
        if self.rng.chance(params.stall_probability) {
            ms += self.rng.pareto(30.0, 2.5).min(1_000.0);
        }
        ms
    }

    /// Retires the jobs that end with this iteration; a closed-loop client then sends its next request.
    fn depart(&mut self, next_job: &mut NextJob<'_>) {
        let t = self.t;
        while let Some(Reverse((done, j))) = self.departures.peek().copied() {
            if done > self.iter {
                break;
            }
            self.departures.pop();
            let done_job = self.trace.jobs[j];
            let free_at = match done_job.failure {
                None => {
                    self.running -= 1;
                    self.kv_used -= need(&done_job);
                    t
                }
                Some(Failure::Oom) => t,
                Some(Failure::Timeout) => t.max(done_job.arrival_ns + TIMEOUT_NS),
            };
            if let Some(job) = next_job(&done_job, free_at) {
                self.trace.jobs.push(job);
                self.trace.admit_iter.push(u64::MAX);
                self.trace.cached.push(0);
                self.pending.push(Reverse((job.arrival_ns, self.trace.jobs.len() - 1)));
            }
        }
    }
}
