//! The open loop's growing connection pool. Each connection thread claims the next slot of the
//! schedule while idle (see `connection_worker`); the pool keeps enough idle, connected
//! threads ahead of the schedule that a request never waits for a connection: when a send
//! leaves fewer than `spare` idle, the keeper thread opens another connection, and once the
//! first requests have ended it opens enough for the concurrency they imply (Little's law:
//! rate × their median latency), so TCP and TLS setup do not land on measured requests.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Requests whose latency sets the expected concurrency.
const FIRST_REQUESTS: usize = 16;

#[derive(Default)]
struct State {
    /// Connection threads started (connecting, idle or sending) and not yet ended.
    threads: u32,
    /// Of those, threads not sending (connecting, or waiting for their slot's time).
    idle: u32,
    /// Most threads alive at once.
    peak: u32,
    /// The schedule is over (or a stop came): start no more threads.
    done: bool,
    /// Latencies (seconds) of the first requests, until the expected concurrency is set.
    first_latencies: Vec<f64>,
    /// Rate × the first requests' median latency, plus the spare: the pool's target size.
    expected: u32,
    /// Why the OS refused a new thread, if it did (the pool then stops growing).
    refused: Option<String>,
}

/// The pool's shared state; the keeper waits on `wake` for a send that left too few idle.
pub struct Pool {
    state: Mutex<State>,
    wake: Condvar,
    /// At most this many threads (the in-flight bound).
    limit: u32,
    /// Idle threads to keep ahead of the schedule.
    spare: u32,
    rate: f64,
}

/// What the pool did, for the manifest and the end-of-run verdict.
#[derive(Debug, Clone, Default)]
pub struct PoolReport {
    /// Connections opened before time zero.
    pub prewarmed: u32,
    pub peak: u32,
    pub refused: Option<String>,
}

impl Pool {
    /// A pool for `rate` requests/s bounded by `limit` connections.
    pub fn new(rate: f64, limit: u32) -> Pool {
        let spare = spare_for(rate).min(limit);
        Pool { state: Mutex::new(State::default()), wake: Condvar::new(), limit, spare, rate }
    }
    /// Connections to open before time zero.
    pub fn prewarm(&self) -> u32 {
        self.spare
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// A thread is starting (counted idle: it will claim a slot once connected).
    pub fn started(&self) {
        let mut s = self.lock();
        s.threads += 1;
        s.idle += 1;
        s.peak = s.peak.max(s.threads);
    }
    /// A thread is about to send: one fewer idle; wakes the keeper when too few are left.
    pub fn sending(&self) {
        let mut s = self.lock();
        s.idle = s.idle.saturating_sub(1);
        if self.needs_more(&s) {
            self.wake.notify_one();
        }
    }
    /// A thread's request ended after `latency_s`: idle again.
    pub fn ended(&self, latency_s: f64) {
        let mut s = self.lock();
        s.idle += 1;
        if s.expected == 0 && s.first_latencies.len() < FIRST_REQUESTS {
            s.first_latencies.push(latency_s);
            if s.first_latencies.len() == FIRST_REQUESTS {
                s.expected = self.expected_concurrency(&mut s.first_latencies);
                self.wake.notify_one();
            }
        }
    }
    /// A thread ended; the first to end marks the schedule over (the others follow).
    pub fn exited(&self) {
        let mut s = self.lock();
        s.threads = s.threads.saturating_sub(1);
        s.idle = s.idle.saturating_sub(1);
        s.done = true;
        self.wake.notify_one();
    }
    /// Rate × the median latency of the first requests, plus the spare, within the limit.
    fn expected_concurrency(&self, latencies: &mut [f64]) -> u32 {
        latencies.sort_by(f64::total_cmp);
        let median = latencies[latencies.len() / 2];
        ((self.rate * median).ceil() as u32).saturating_add(self.spare).min(self.limit)
    }
    fn needs_more(&self, s: &State) -> bool {
        !s.done && s.refused.is_none() && s.threads < self.limit && (s.idle < self.spare || s.threads < s.expected)
    }
    /// Blocks until the pool needs another thread (true) or the run is over (false).
    pub fn wait_for_need(&self) -> bool {
        let mut s = self.lock();
        loop {
            if s.done || s.refused.is_some() {
                return false;
            }
            if self.needs_more(&s) {
                return true;
            }
            // A timeout as well as the notification: a missed wake-up costs at most 50 ms.
            s = self.wake.wait_timeout(s, Duration::from_millis(50)).map_or_else(|e| e.into_inner().0, |r| r.0);
        }
    }
    /// The OS refused the thread just counted as started: the pool stops growing, and the
    /// reason goes to the verdict.
    pub fn refuse(&self, why: String) {
        let mut s = self.lock();
        s.threads = s.threads.saturating_sub(1);
        s.idle = s.idle.saturating_sub(1);
        s.refused = Some(why);
    }
    /// Marks the run over, so that the keeper stops.
    pub fn finish(&self) {
        self.lock().done = true;
        self.wake.notify_all();
    }
    pub fn report(&self) -> PoolReport {
        let s = self.lock();
        PoolReport { prewarmed: self.spare, peak: s.peak, refused: s.refused.clone() }
    }
}

/// Idle connections kept ahead of the schedule: the sends of 50 ms at the mean rate (a
/// Poisson burst while the keeper opens the next connection), at least 4.
fn spare_for(rate: f64) -> u32 {
    ((rate * 0.05).ceil() as u32).clamp(4, 512)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_grows_when_sends_leave_too_few_idle_and_to_the_expected_concurrency() {
        // 100/s: 5 spare; the first requests take 2 s, so about 200 in flight are expected.
        let pool = Pool::new(100.0, 1000);
        assert_eq!(pool.prewarm(), 5);
        for _ in 0..5 {
            pool.started();
        }
        assert!(!pool.needs_more(&pool.lock()));
        pool.sending();
        assert!(pool.wait_for_need(), "4 idle of 5 spare: one more");
        pool.started();
        for _ in 0..FIRST_REQUESTS {
            pool.ended(2.0);
        }
        assert_eq!(pool.lock().expected, 205);
        assert!(pool.needs_more(&pool.lock()));
        pool.finish();
        assert!(!pool.wait_for_need(), "no growth once the run is over");
        assert_eq!(pool.lock().threads, 6);
        // The bound holds whatever the latency says.
        let capped = Pool::new(100.0, 8);
        assert_eq!(capped.expected_concurrency(&mut [2.0; 16]), 8);
    }
}
