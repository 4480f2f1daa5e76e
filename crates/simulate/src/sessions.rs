//! Conversations (`simulate --sessions N --turns T --think-time D`), as `bench --sessions`
//! sends them: each turn's prompt holds the earlier turns and their replies, so the engine's
//! prefix cache serves that history and prefills only the new words; a later turn is due the
//! think time after the last reply ended; a failed turn ends its session. Open loop, sessions
//! start on the seeded schedule (`--rate` counts sessions a second); closed loop, each client
//! runs sessions back to back.

use crate::engine::{Job, Turn};
use crate::rng::{SimRng, Stream};

/// The conversations of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimSessions {
    /// Sessions started at most.
    pub count: u64,
    /// Turns per session, uniform on `lo..=hi`.
    pub turns: (u32, u32),
    /// Seconds between a reply's end and the next turn's send.
    pub think_s: f64,
}

impl SimSessions {
    /// The turns a session sends on average.
    pub fn mean_turns(&self) -> f64 {
        (f64::from(self.turns.0) + f64::from(self.turns.1)) / 2.0
    }
}

/// Sessions started so far, and the stream each one's number of turns is drawn from (its own,
/// so that the other draws stay those of the same run without conversations).
pub(crate) struct SessionDraws {
    spec: SimSessions,
    started: u64,
    rng: SimRng,
}

impl SessionDraws {
    pub fn new(spec: SimSessions, seed: u64) -> SessionDraws {
        SessionDraws { spec, started: 0, rng: SimRng::new(seed ^ 0x7475_726e, Stream::Lengths) }
    }

    /// The first turn of the next session; none once `count` sessions have started.
    pub fn first_turn(&mut self) -> Option<Turn> {
        if self.started >= self.spec.count {
            return None;
        }
        let session = u32::try_from(self.started).ok()?;
        self.started += 1;
        let (lo, hi) = self.spec.turns;
        let of = lo + ((self.rng.uniform() * f64::from(hi - lo + 1)) as u32).min(hi - lo);
        Some(Turn { session, index: 1, of, history: 0 })
    }

    /// The turn after `done` (which succeeded and was not its session's last), due the think
    /// time after `free_at`: its send time, when it is due, and the turn, whose prompt opens
    /// with everything `done` carried and the reply it got.
    pub fn next_turn(&self, done: &Job, free_at: i64) -> Option<(i64, Turn)> {
        let t = done.turn?;
        if t.index >= t.of || done.failure.is_some() {
            return None;
        }
        let due = free_at + (self.spec.think_s * 1e9) as i64;
        Some((due, Turn { index: t.index + 1, history: done.input_tokens + done.output_tokens, ..t }))
    }
}
