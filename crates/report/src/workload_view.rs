//! The workload's own rows: the server's prefix cache (the hit rate with its interval and the
//! server's own counters beside it), in conversations the median TTFT of each turn, and with
//! LoRA adapters the split by adapter, and how the server counted the prompts against the
//! lengths built (page 1's rows, the Markdown, the HTML page and the
//! terminal summary say the same).

use credence_analyze::adapters::AdapterSplit;
use credence_analyze::cache::CacheState;
use credence_analyze::prompt_lengths::PromptLengths;
use credence_messages::{Lang, Message, Sep};

use super::format::estimate_in;

/// "20.3 [16.2, 24.5] % of prompt tokens served from the cache (server counters: 19.4 %)"
pub fn hit_rate(c: &CacheState, lang: Lang) -> String {
    let server = c.server.as_ref().and_then(|s| s.hit_rate).map_or(Message::new("empty"), |h| Message::new("cache-server").text("rate", format!("{:.1}", h * 100.0)));
    Message::new("cache-hit-rate").text("rate", estimate_in(&c.hit_rate, 100.0, lang)).msg("server", server).render(lang)
}

/// "turn 1: 8.7 [7.9, 13.2] ms (0 % cached); turn 2: …", or none outside conversations.
pub fn turns(c: &CacheState, lang: Lang) -> Option<String> {
    if c.turns.is_empty() {
        return None;
    }
    let items = c
        .turns
        .iter()
        .map(|t| {
            let cached = t.hit_rate.map_or(Message::new("empty"), |h| Message::new("cache-turn-cached").text("rate", format!("{:.0}", h * 100.0)));
            Message::new("cache-turn").int("turn", t.turn).text("ttft", estimate_in(&t.ttft_p50, 1.0, lang)).int("n", t.requests).msg("cached", cached)
        })
        .collect();
    Some(Message::new("as-written").list("text", items, Sep::Semicolon).render(lang))
}

/// "exact: the server counted 513 tokens for 512 built (median, +0.2 %) in 240 requests", or
/// for word prompts "approximate (words): …".
pub fn prompt_lengths(p: &PromptLengths, lang: Lang) -> String {
    Message::new("prompt-lengths")
        .text("exact", if p.exact { "exact" } else { "approximate" })
        .num("server", p.server_median, 0)
        .num("intended", p.intended_median, 0)
        .text("difference", format!("{:+.1}", p.relative_difference_median * 100.0))
        .num("beyond", p.share_beyond_tolerance * 100.0, 0)
        .int("n", p.requests)
        .render(lang)
}

/// "a: P50 TTFT 41.2 [39.0, 44.1] ms, P50 TPOT 8.1 [8.0, 8.3] ms over 120 requests; b: …", or
/// none without adapters.
pub fn adapters(split: &[AdapterSplit], lang: Lang) -> Option<String> {
    if split.is_empty() {
        return None;
    }
    let items = split
        .iter()
        .map(|s| {
            Message::new("adapter-split")
                .text("adapter", s.adapter.as_str())
                .text("ttft", estimate_in(&s.ttft_p50, 1.0, lang))
                .text("tpot", estimate_in(&s.tpot_p50, 1.0, lang))
                .int("n", s.requests)
        })
        .collect();
    Some(Message::new("as-written").list("text", items, Sep::Semicolon).render(lang))
}
