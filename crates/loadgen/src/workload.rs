//! What the requests say, beyond independent prompts: shared system prompts
//! (`--prefix-groups`), a replayed timestamped trace (`--trace`, the Mooncake format) and
//! conversations (`--sessions`). Each is built from the seed and the request number alone, so
//! the same flags send the same bytes whichever connection sends them.
//!
//! Prompts are words, about one token each on a real server and exactly one on `mock-server`,
//! whose prefix cache counts words. Identical leading words are what a prefix cache can reuse.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::lengths::Vocab;

/// `--prefix-groups G --prefix-len L`: G system prompts of L words; each request draws one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SharedPrefix {
    pub groups: u32,
    pub len: u32,
}

impl SharedPrefix {
    /// The group request `k` draws (from its own seeded stream, after its lengths).
    pub fn group(&self, rng: &mut ChaCha8Rng) -> u32 {
        rng.random_range(0..self.groups)
    }
}

/// `len` words drawn from `key` alone: one system prompt, one trace block.
pub fn block_words(seed: u64, key: u64, len: u32, out: &mut String, vocab: &Vocab) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5052_4546_4958);
    rng.set_stream(key);
    // With common words the first names the key, so that two keys never share a leading block
    // (a tokenizer's random words do not by chance; see `synthetic_prompt`).
    let tag = matches!(vocab, Vocab::Words).then(|| format!("k{key}"));
    for i in 0..len {
        if !out.is_empty() {
            out.push(' ');
        }
        match &tag {
            Some(tag) if i == 0 => out.push_str(tag),
            _ => out.push_str(vocab.word(&mut rng)),
        }
    }
}

/// One record of a replayed trace.
#[derive(Debug, Clone, PartialEq)]
pub struct TraceEntry {
    /// Seconds after the trace's first record (its own times, before `--trace-speed`).
    pub at_s: f64,
    pub input_len: u32,
    pub output_len: u32,
    /// Block ids: equal ids are identical blocks of `block` words.
    pub hash_ids: Vec<u64>,
}

/// `--trace FILE [--trace-speed S] [--trace-block B]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    pub path: String,
    pub entries: Vec<TraceEntry>,
    pub block: u32,
    /// Time runs this many times faster than the trace's own.
    pub speed: f64,
}

impl Trace {
    /// Seconds from time zero of record `k`'s send.
    pub fn due_s(&self, k: usize) -> Option<f64> {
        self.entries.get(k).map(|e| e.at_s / self.speed)
    }

    /// The trace's mean offered rate at its speed (requests/s).
    pub fn mean_rate(&self) -> f64 {
        let span = self.entries.last().map_or(0.0, |e| e.at_s) / self.speed;
        self.entries.len() as f64 / span.max(1e-3)
    }

    /// Record `k`'s prompt: its blocks in order, cut at its input length.
    pub fn prompt(&self, seed: u64, k: usize, vocab: &Vocab) -> String {
        let e = &self.entries[k];
        let mut p = String::new();
        let mut left = e.input_len;
        for id in &e.hash_ids {
            let n = left.min(self.block);
            block_words(seed, *id, n, &mut p, vocab);
            left -= n;
        }
        p
    }

    /// The share of prompt words a cache of whole `cache_block`-word blocks, never full, would
    /// serve: each record's leading run of ids seen before, in full blocks of the cache.
    pub fn expected_hit_rate(&self, cache_block: u32) -> f64 {
        let mut seen = std::collections::HashSet::new();
        let (mut hit, mut total) = (0u64, 0u64);
        for e in &self.entries {
            let leading = e.hash_ids.iter().take_while(|id| seen.contains(*id)).count() as u64;
            let words = (leading * u64::from(self.block)).min(u64::from(e.input_len));
            // The cache stores full blocks of its own: a partial last block never hits.
            hit += words / u64::from(cache_block) * u64::from(cache_block);
            total += u64::from(e.input_len);
            seen.extend(e.hash_ids.iter().copied());
        }
        hit as f64 / total.max(1) as f64
    }
}

/// Parses a Mooncake trace: JSONL records with `timestamp` (ms), `input_length`,
/// `output_length` and `hash_ids`, in time order, each id covering `block` tokens.
pub fn parse_trace(text: &str, path: &str, block: u32) -> Result<Vec<TraceEntry>, String> {
    let mut out: Vec<TraceEntry> = Vec::new();
    let mut first_ms = None;
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = |what: String| format!("{path}, line {}: {what}", i + 1);
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| at(format!("not JSON: {e}")))?;
        let number = |key: &str| v.get(key).and_then(serde_json::Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0);
        let count = |key: &str| {
            let n = v.get(key).and_then(serde_json::Value::as_u64).filter(|n| *n <= 1 << 20);
            n.map(|n| n as u32).ok_or_else(|| at(format!("{key}: expected a token count from 0 to 1048576")))
        };
        let ms = number("timestamp").ok_or_else(|| at("timestamp: expected milliseconds, 0 or more".into()))?;
        let (input_len, output_len) = (count("input_length")?, count("output_length")?.max(1));
        let ids = v.get("hash_ids").and_then(serde_json::Value::as_array).ok_or_else(|| at("hash_ids: expected a list of block ids".into()))?;
        let hash_ids = ids.iter().map(serde_json::Value::as_u64).collect::<Option<Vec<u64>>>().ok_or_else(|| at("hash_ids: expected whole numbers".into()))?;
        if hash_ids.len() as u64 != u64::from(input_len).div_ceil(u64::from(block)) {
            return Err(at(format!(
                "hash_ids: {} blocks, but input_length {input_len} at {block} tokens a block needs {} (give --trace-block if the trace's block size differs)",
                hash_ids.len(),
                u64::from(input_len).div_ceil(u64::from(block))
            )));
        }
        let t0 = *first_ms.get_or_insert(ms);
        let at_s = (ms - t0) / 1e3;
        if let Some(last) = out.last().filter(|l| at_s < l.at_s) {
            return Err(at(format!("timestamp: {ms} ms is before the previous record's {} ms (records must be in time order)", t0 + last.at_s * 1e3)));
        }
        out.push(TraceEntry { at_s, input_len, output_len, hash_ids });
    }
    if out.is_empty() {
        return Err(format!("{path}: no records"));
    }
    Ok(out)
}

/// `--lora a,b,c [--lora-assignment random|round-robin]`: each request names one adapter as its
/// `model`, as vLLM serves LoRA adapters.
#[derive(Debug, Clone, PartialEq)]
pub struct Adapters {
    pub names: Vec<String>,
    pub round_robin: bool,
}

impl Adapters {
    /// The adapter of request `k` (in conversations, of session `k`): the k-th in turn, or
    /// one drawn from the request's own seeded stream.
    pub fn of(&self, seed: u64, k: u64) -> &str {
        let i = if self.round_robin {
            (k % self.names.len() as u64) as usize
        } else {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x4c4f_5241);
            rng.set_stream(k);
            rng.random_range(0..self.names.len())
        };
        &self.names[i]
    }
}

/// `--sessions N --turns T[,LO-HI] --think-time D`: conversations of several turns, each
/// turn's prompt holding the earlier turns and the server's actual replies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sessions {
    pub count: u64,
    /// Turns per session, uniform on `lo..=hi`.
    pub turns: (u32, u32),
    /// Seconds between a reply's end and the next turn's send.
    pub think_s: f64,
}

impl Sessions {
    /// Session `s`'s number of turns (its own seeded draw).
    pub fn turns_of(&self, seed: u64, s: u64) -> u32 {
        let (lo, hi) = self.turns;
        if lo == hi {
            return lo;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5455_524e);
        rng.set_stream(s);
        rng.random_range(lo..=hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mooncake_trace_parses_and_its_blocks_repeat() {
        let text = r#"{"timestamp": 0, "input_length": 10, "output_length": 3, "hash_ids": [1, 2, 3]}
{"timestamp": 500, "input_length": 9, "output_length": 3, "hash_ids": [1, 2, 4]}
"#;
        let entries = parse_trace(text, "t.jsonl", 4).unwrap();
        assert_eq!(entries[1].at_s, 0.5);
        let trace = Trace { path: "t.jsonl".into(), entries, block: 4, speed: 2.0 };
        assert_eq!(trace.due_s(1), Some(0.25));
        let (a, b) = (trace.prompt(7, 0, &Vocab::Words), trace.prompt(7, 1, &Vocab::Words));
        assert_eq!(a.split_whitespace().count(), 10);
        assert_eq!(b.split_whitespace().count(), 9);
        let shared = a.split_whitespace().zip(b.split_whitespace()).take_while(|(x, y)| x == y).count();
        assert_eq!(shared, 8, "blocks 1 and 2 are the same words in both prompts");
        // The second record reuses 8 of its 9 words, in full blocks of 4: 8 of 19 words.
        assert!((trace.expected_hit_rate(4) - 8.0 / 19.0).abs() < 1e-12);
    }

    #[test]
    fn a_bad_trace_names_its_line_and_field() {
        let e = parse_trace("{\"timestamp\": 5, \"input_length\": 10, \"output_length\": 3, \"hash_ids\": [1]}\n", "t.jsonl", 4).unwrap_err();
        assert!(e.contains("t.jsonl, line 1: hash_ids: 1 blocks") && e.contains("needs 3"), "{e}");
        let two = "{\"timestamp\": 5, \"input_length\": 4, \"output_length\": 3, \"hash_ids\": [1]}\n{\"timestamp\": 4, \"input_length\": 4, \"output_length\": 3, \"hash_ids\": [1]}\n";
        let e = parse_trace(two, "t.jsonl", 4).unwrap_err();
        assert!(e.contains("line 2: timestamp: 4 ms is before"), "{e}");
        let e = parse_trace("{\"timestamp\": \"x\"}\n", "t.jsonl", 4).unwrap_err();
        assert!(e.contains("line 1: timestamp"), "{e}");
        assert!(parse_trace("not json\n", "t.jsonl", 4).unwrap_err().contains("line 1: not JSON"));
    }

    #[test]
    fn group_prompts_and_session_turns_follow_the_seed() {
        let (mut a, mut b) = (String::new(), String::new());
        block_words(1, 3, 20, &mut a, &Vocab::Words);
        block_words(1, 3, 20, &mut b, &Vocab::Words);
        assert_eq!(a, b);
        let mut c = String::new();
        block_words(1, 4, 20, &mut c, &Vocab::Words);
        assert_ne!(a.split(' ').next(), c.split(' ').next(), "two groups differ from their first word");
        let s = Sessions { count: 100, turns: (2, 5), think_s: 0.0 };
        let t: Vec<u32> = (0..100).map(|i| s.turns_of(1, i)).collect();
        assert!(t.iter().all(|x| (2..=5).contains(x)) && t.contains(&2) && t.contains(&5));
        assert_eq!(t, (0..100).map(|i| s.turns_of(1, i)).collect::<Vec<_>>());
    }
}
