//! A continuous-batching engine for `mock-server --max-batch N`: a server of finite capacity
//! whose truth is known.
//!
//! Decode steps run back to back while any sequence is running. A step with `b` sequences
//! takes `step + step_per_seq × b` (times the timeline's factor at that moment), and each
//! running sequence emits one token at the step's end. Waiting requests join, first come
//! first served, whenever a slot is free at a step's start; a request whose client went away
//! is dropped at the next step, waiting or running (vLLM aborts a request when its client
//! disconnects). A request's first token thus comes after its wait in the queue and one step.
//!
//! With every slot full and `L` output tokens per request, the engine completes
//! `B / (L × (step + step_per_seq × B))` requests per second: its saturation throughput.
//! Offered more, its queue grows without bound (or, with clients that time out and go away,
//! until the abandonments match the excess).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The engine's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineConfig {
    /// Sequences decoded together at most.
    pub max_batch: u32,
    /// A step's fixed time.
    pub step: Duration,
    /// A step's time per sequence in the batch.
    pub step_per_seq: Duration,
}

impl EngineConfig {
    /// A step's time with `batch` sequences running.
    pub fn step_time(&self, batch: u32) -> Duration {
        self.step + self.step_per_seq * batch
    }

    /// Requests per second the engine completes with every slot full, each of `tokens` output
    /// tokens (the timeline's factor at 1).
    pub fn saturation_per_s(&self, tokens: u32) -> f64 {
        f64::from(self.max_batch) / (f64::from(tokens.max(1)) * self.step_time(self.max_batch).as_secs_f64())
    }
}

/// One request in the engine: its tokens to go, where each token is announced, and whether its
/// client has gone.
struct Seq {
    remaining: u32,
    /// Prefill time of its prompt's uncached tokens, spent in the step it joins.
    prefill: Duration,
    tokens: Sender<()>,
    gone: Arc<AtomicBool>,
}

#[derive(Default)]
struct State {
    waiting: VecDeque<Seq>,
    running: Vec<Seq>,
}

/// The engine: a queue, a batch and the thread that steps it.
pub struct Engine {
    config: EngineConfig,
    state: Mutex<State>,
    work: Condvar,
    /// Requests dropped because their client went away.
    aborted: AtomicU64,
}

/// A request's side of the engine: its tokens arrive on `tokens`; dropping it (or calling
/// `abandon`) tells the engine the client has gone.
pub struct Ticket {
    pub tokens: Receiver<()>,
    gone: Arc<AtomicBool>,
}

impl Ticket {
    /// The client went away: the engine drops the request at its next step.
    pub fn abandon(&self) {
        self.gone.store(true, Ordering::Relaxed);
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.abandon();
    }
}

impl Engine {
    /// Starts the engine's step thread; `factor` gives the slowdown at seconds since the
    /// server's first request (warmup, throttling), 1 when none.
    pub fn start(config: EngineConfig, factor: impl Fn() -> f64 + Send + 'static) -> Arc<Engine> {
        let engine = Arc::new(Engine { config, state: Mutex::new(State::default()), work: Condvar::new(), aborted: AtomicU64::new(0) });
        let stepping = engine.clone();
        std::thread::spawn(move || stepping.run(factor));
        engine
    }

    /// Queues a request of `tokens` output tokens whose prompt needs `prefill` (its uncached
    /// tokens; zero without a prefix cache).
    pub fn submit(&self, tokens: u32, prefill: Duration) -> Ticket {
        let (tx, rx) = channel();
        let gone = Arc::new(AtomicBool::new(false));
        let seq = Seq { remaining: tokens.max(1), prefill, tokens: tx, gone: gone.clone() };
        self.state.lock().expect("engine state").waiting.push_back(seq);
        self.work.notify_one();
        Ticket { tokens: rx, gone }
    }

    /// Sequences running and waiting now.
    pub fn load(&self) -> (usize, usize) {
        let s = self.state.lock().expect("engine state");
        (s.running.len(), s.waiting.len())
    }

    /// Requests dropped because their client went away.
    pub fn aborted(&self) -> u64 {
        self.aborted.load(Ordering::Relaxed)
    }

    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// Steps the batch for ever: admit, wait out the step, emit a token to each running
    /// sequence, retire the finished and the abandoned.
    fn run(&self, factor: impl Fn() -> f64) {
        let mut next = Instant::now();
        loop {
            let (batch, prefill) = {
                let mut s = self.state.lock().expect("engine state");
                self.drop_abandoned(&mut s);
                while s.running.is_empty() && s.waiting.is_empty() {
                    s = self.work.wait(s).expect("engine state");
                    next = Instant::now();
                    self.drop_abandoned(&mut s);
                }
                let mut prefill = Duration::ZERO;
                while s.running.len() < self.config.max_batch as usize {
                    let Some(seq) = s.waiting.pop_front() else { break };
                    prefill += seq.prefill;
                    s.running.push(seq);
                }
                (s.running.len() as u32, prefill)
            };
            // Absolute deadlines: the engine's pace does not drift with the time spent here.
            // The prompts that joined are prefilled in this step (chunked prefill).
            next += (self.config.step_time(batch) + prefill).mul_f64(factor().max(0.0));
            if let Some(wait) = next.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            let mut s = self.state.lock().expect("engine state");
            s.running.retain_mut(|seq| {
                seq.remaining -= 1;
                if seq.tokens.send(()).is_err() {
                    self.aborted.fetch_add(1, Ordering::Relaxed);
                    return false;
                }
                seq.remaining > 0
            });
        }
    }

    /// Drops waiting and running requests whose client has gone.
    fn drop_abandoned(&self, s: &mut State) {
        let before = s.waiting.len() + s.running.len();
        s.waiting.retain(|q| !q.gone.load(Ordering::Relaxed));
        s.running.retain(|q| !q.gone.load(Ordering::Relaxed));
        self.aborted.fetch_add((before - s.waiting.len() - s.running.len()) as u64, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At full batch the engine completes what its parameters say: 4 slots, 10 tokens, steps of
    /// 2 + 0.5 × 4 = 4 ms: 4 / (10 × 4 ms) = 100 requests/s; offered 40 requests at once, they
    /// finish in about 10 batches of 40 ms.
    #[test]
    fn a_full_batch_completes_at_the_saturation_rate() {
        let config = EngineConfig { max_batch: 4, step: Duration::from_millis(2), step_per_seq: Duration::from_micros(500) };
        assert!((config.saturation_per_s(10) - 100.0).abs() < 1e-9);
        let engine = Engine::start(config, || 1.0);
        let t0 = Instant::now();
        let tickets: Vec<Ticket> = (0..40).map(|_| engine.submit(10, Duration::ZERO)).collect();
        for t in &tickets {
            assert_eq!(t.tokens.iter().count(), 10);
        }
        let took = t0.elapsed().as_secs_f64();
        assert!((0.38..0.6).contains(&took), "40 requests at 100/s took {took} s");
        assert_eq!(engine.load(), (0, 0));
    }

    /// A request whose client has gone is dropped, waiting or running, and frees its slot.
    #[test]
    fn an_abandoned_request_frees_its_slot() {
        let config = EngineConfig { max_batch: 1, step: Duration::from_millis(5), step_per_seq: Duration::ZERO };
        let engine = Engine::start(config, || 1.0);
        let first = engine.submit(1000, Duration::ZERO);
        let second = engine.submit(2, Duration::ZERO);
        first.tokens.recv().unwrap();
        drop(first);
        assert_eq!(second.tokens.iter().count(), 2, "the second runs once the first is gone");
        assert_eq!(engine.aborted(), 1);
    }
}
