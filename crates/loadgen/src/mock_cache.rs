//! The mock server's prefix cache (`mock-server --prefix-cache-blocks N`): the truth that
//! credence's cache measurements are checked against.
//!
//! As in vLLM's automatic prefix caching, a prompt is cut into blocks of `block_tokens`
//! tokens (whitespace-separated words, or a tokenizer's ids with `--tokenizer`); each full block is named by a
//! hash of itself and every block before it, so a block hits only when the whole prefix up to
//! it was seen. A prompt's cached tokens are those of its leading run of hits; every full
//! block is then stored, and the least recently used blocks go once the cache is full.
//! Counters are in tokens, as vLLM's `prefix_cache_queries` and `prefix_cache_hits` are.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Mutex;
use std::time::Duration;

/// The cache's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CacheConfig {
    /// Tokens per block (vLLM's default is 16).
    pub block_tokens: u32,
    /// Blocks the cache holds before it evicts the least recently used.
    pub capacity_blocks: u64,
    /// Prefill time per prompt token not served from the cache: what a hit saves.
    pub prefill_per_token: Duration,
}

/// What one lookup found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookup {
    /// Prompt tokens.
    pub tokens: u64,
    /// Leading tokens served from the cache (whole blocks).
    pub cached: u64,
}

#[derive(Default)]
struct Blocks {
    /// Block hash → its last use.
    last_use: HashMap<u64, u64>,
    /// Last use → block hash: the eviction order.
    by_age: BTreeMap<u64, u64>,
    clock: u64,
    queries: u64,
    hits: u64,
    resets: u64,
}

/// A prefix cache of blocks, shared by the server's connections.
pub struct PrefixCache {
    config: CacheConfig,
    blocks: Mutex<Blocks>,
}

impl PrefixCache {
    pub fn new(config: CacheConfig) -> PrefixCache {
        PrefixCache { config, blocks: Mutex::new(Blocks::default()) }
    }

    pub fn config(&self) -> CacheConfig {
        self.config
    }

    /// Looks a prompt's tokens up, counts the query and its hits, then stores its full blocks.
    pub fn lookup<T: Hash>(&self, tokens: impl Iterator<Item = T>) -> Lookup {
        let hashes = block_hashes(tokens, self.config.block_tokens);
        let mut b = self.blocks.lock().expect("prefix cache");
        let leading = hashes.blocks.iter().take_while(|h| b.last_use.contains_key(h)).count() as u64;
        let found = Lookup { tokens: hashes.tokens, cached: leading * u64::from(self.config.block_tokens) };
        b.queries += found.tokens;
        b.hits += found.cached;
        for h in hashes.blocks {
            b.touch(h);
        }
        while b.last_use.len() as u64 > self.config.capacity_blocks {
            b.evict_oldest();
        }
        found
    }

    /// The prefill time of a lookup: its uncached tokens at the configured rate.
    pub fn prefill(&self, l: Lookup) -> Duration {
        self.config.prefill_per_token.saturating_mul((l.tokens - l.cached).min(u64::from(u32::MAX)) as u32)
    }

    /// Empties the cache (vLLM's `POST /reset_prefix_cache`, SGLang's `POST /flush_cache`);
    /// the counters run on, as the servers' do.
    pub fn reset(&self) {
        let mut b = self.blocks.lock().expect("prefix cache");
        b.last_use.clear();
        b.by_age.clear();
        b.resets += 1;
    }

    /// (tokens queried, tokens hit, resets) since the server started.
    pub fn counters(&self) -> (u64, u64, u64) {
        let b = self.blocks.lock().expect("prefix cache");
        (b.queries, b.hits, b.resets)
    }
}

impl Blocks {
    fn touch(&mut self, h: u64) {
        self.clock += 1;
        if let Some(old) = self.last_use.insert(h, self.clock) {
            self.by_age.remove(&old);
        }
        self.by_age.insert(self.clock, h);
    }

    fn evict_oldest(&mut self) {
        if let Some((_, h)) = self.by_age.pop_first() {
            self.last_use.remove(&h);
        }
    }
}

/// A prompt's token count and the chained hashes of its full blocks.
struct BlockHashes {
    tokens: u64,
    blocks: Vec<u64>,
}

fn block_hashes<T: Hash>(tokens: impl Iterator<Item = T>, block_tokens: u32) -> BlockHashes {
    let mut out = BlockHashes { tokens: 0, blocks: Vec::new() };
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let mut in_block = 0;
    for t in tokens {
        t.hash(&mut hasher);
        out.tokens += 1;
        in_block += 1;
        if in_block == block_tokens {
            // The hasher runs on: each block's hash covers every token before it.
            out.blocks.push(hasher.finish());
            in_block = 0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(capacity_blocks: u64) -> PrefixCache {
        PrefixCache::new(CacheConfig { block_tokens: 4, capacity_blocks, prefill_per_token: Duration::from_micros(100) })
    }

    fn words(s: &str) -> std::str::SplitWhitespace<'_> {
        s.split_whitespace()
    }

    #[test]
    fn a_shared_prefix_hits_in_whole_blocks() {
        let c = cache(100);
        assert_eq!(c.lookup(words("a b c d e f g h i j")), Lookup { tokens: 10, cached: 0 });
        // The first two blocks are shared; the third is not full in either prompt.
        assert_eq!(c.lookup(words("a b c d e f g h x y")), Lookup { tokens: 10, cached: 8 });
        // A change in the first block spoils every block after it.
        assert_eq!(c.lookup(words("z b c d e f g h i j")), Lookup { tokens: 10, cached: 0 });
        assert_eq!(c.counters(), (30, 8, 0));
        assert_eq!(c.prefill(Lookup { tokens: 10, cached: 8 }), Duration::from_micros(200));
    }

    #[test]
    fn the_least_recently_used_block_goes_first_and_a_reset_empties_all() {
        let c = cache(2);
        c.lookup(words("a b c d e f g h"));
        c.lookup(words("p q r s"));
        // Two blocks fit: "a b c d" was used least recently and is gone, and with it the chain.
        assert_eq!(c.lookup(words("a b c d e f g h")).cached, 0);
        assert_eq!(c.lookup(words("a b c d e f g h")).cached, 8);
        c.reset();
        assert_eq!(c.lookup(words("a b c d e f g h")).cached, 0);
        assert_eq!(c.counters().2, 1);
    }
}
