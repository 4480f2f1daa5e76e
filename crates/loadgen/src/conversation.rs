//! Conversations (`--sessions N --turns T --think-time D`): one connection carries a session
//! from its first turn to its last. Each turn's messages hold every earlier turn and the
//! server's actual reply, as a chat client sends them, so a prefix cache can serve the history.
//!
//! Open loop, sessions start on the seeded schedule (`--rate` counts sessions per second);
//! closed loop, each of `--concurrency` clients runs sessions back to back. A later turn is
//! due the think time after the last reply ended; a send after that is lag, as for any slot.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::record::Record;
use super::{NextRequest, Sender, api_path, body_of, claim_next, http, lengths, stopping, wait_until_due};

/// Turns per session at most: request numbers are `session × MAX_TURNS + turn`.
pub const MAX_TURNS: u32 = 1000;

/// The sessions one connection thread runs until the run is over.
pub(super) fn sessions_on_connection(sender: Sender<'_>, source: &NextRequest, conn: &mut Option<http::Conn>) -> Vec<Record> {
    let (o, live) = (sender.o, sender.live);
    let limits = sender.limits(o.sessions.map_or(0, |s| s.count));
    let mut records = Vec::new();
    while let Some((s, start)) = claim_next(o, live, sender.anchor, source, &limits) {
        if let Some(due) = start {
            if !wait_until_due(due) {
                break;
            }
            live.planned.fetch_add(1, Ordering::Relaxed);
        }
        let session = Session { sender, s, end_at: limits.end_at };
        records.extend(session.run(start, conn));
    }
    records
}

/// One conversation on one connection.
struct Session<'a> {
    sender: Sender<'a>,
    s: u64,
    end_at: Option<Instant>,
}

impl Session<'_> {
    /// Its turns in order, until the last, an error, the run's end or a stop.
    fn run(&self, start: Option<Instant>, conn: &mut Option<http::Conn>) -> Vec<Record> {
        let o = self.sender.o;
        let think = Duration::from_secs_f64(o.sessions.map_or(0.0, |x| x.think_s));
        // A ShareGPT conversation (`--dataset`) brings its own human turns; else synthetic ones.
        let script = (!o.prompts.is_empty()).then(|| &o.prompts[(self.s % o.prompts.len() as u64) as usize].turns).filter(|t| !t.is_empty());
        let turns = script.map_or_else(|| o.sessions.map_or(1, |x| x.turns_of(o.seed, self.s)), |t| t.len() as u32).min(MAX_TURNS - 1);
        let mut history: Vec<serde_json::Value> = Vec::new();
        // Each message's length, counted once (a tokenizer's count of a long history is not free).
        let mut lengths_so_far: Vec<u32> = Vec::new();
        let mut records: Vec<Record> = Vec::new();
        let mut due = start;
        for turn in 1..=turns {
            let k = self.s * u64::from(MAX_TURNS) + u64::from(turn);
            let mut rng = lengths::request_rng(o.seed, k);
            let mut max_tokens = o.output_len.sample(&mut rng);
            let user = match script.map(|t| &t[turn as usize - 1]) {
                Some((text, reply)) => {
                    max_tokens = reply.unwrap_or(max_tokens);
                    text.clone()
                }
                None => self.synthetic_turn(k, turn, &mut rng),
            };
            lengths_so_far.push(o.vocab.count(&user));
            history.push(serde_json::json!({"role": "user", "content": user}));
            let words = lengths_so_far.iter().sum::<u32>();
            // A conversation keeps its adapter (`--lora`): one per session.
            let (body, facts) = body_of(o, serde_json::json!({"model": o.model_of(self.s), "messages": history}), max_tokens);
            let prompt = super::record::PromptFacts { words, ..facts };
            let request = http::request_bytes(&o.hostport, api_path(o), o.headers.lines(), &body);
            if turn > 1 && (self.end_at.is_some_and(|e| due.is_some_and(|d| d >= e)) || !due.is_none_or(wait_until_due) || stopping()) {
                break;
            }
            let scheduled = due;
            let (sent, obs) = self.sender.send(conn, &request, (k, scheduled), true);
            let ok = obs.error.is_none();
            let reply = obs.text.clone().unwrap_or_default();
            due = Some(obs.end.unwrap_or(sent) + think);
            records.push(Record { k, scheduled, sent, obs, prompt, turn: Some((self.s, turn)) });
            if !ok {
                // A failed turn ends the conversation: the next would carry a reply never received.
                break;
            }
            lengths_so_far.push(o.vocab.count(&reply));
            history.push(serde_json::json!({"role": "assistant", "content": reply}));
        }
        records
    }

    /// A synthetic user turn. With common words it opens with its session and turn, so that no
    /// two conversations share a turn; a tokenizer's random words need no tag (see
    /// `lengths::synthetic_prompt`).
    fn synthetic_turn(&self, k: u64, turn: u32, rng: &mut rand_chacha::ChaCha8Rng) -> String {
        let o = self.sender.o;
        let words = o.input_len.sample(rng);
        let text = lengths::synthetic_prompt(k, words, rng, &o.vocab);
        match o.vocab {
            lengths::Vocab::Words => format!("s{} t{turn} {text}", self.s),
            lengths::Vocab::Tokens(_) => text,
        }
    }
}
