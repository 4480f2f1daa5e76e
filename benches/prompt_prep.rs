//! Bench: how long `bench` takes to prepare its prompts. Each request's prompt is built from the
//! seed and its number just before its send (no preparation pass), so this measures the
//! per-request cost times the count: 100 000 synthetic prompts of 8 192 words, and the same
//! from a Mooncake trace's blocks (512 words a block, half the blocks shared), single-threaded;
//! then the same synthetic prompts of exact token length with the test tokenizer
//! (`fixtures/tokenizer`, `bench --tokenizer`), where loading the tokenizer is timed apart;
//! last, verse prompts (`bench --sonnet`) of 1 000 tokens, each encoded once to confirm its
//! count (SONNET_PROMPTS of them, default 10 000).
//!
//! `cargo bench --bench prompt_prep`. Environment: PROMPTS=100000, WORDS=8192 and TOKENIZER
//! (a tokenizer.json; default the test tokenizer).

use std::time::Instant;

use credence::bench::lengths::{Vocab, request_rng, synthetic_prompt};
use credence::bench::sonnet::Sonnet;
use credence::bench::tokens::TokenWords;
use credence::bench::workload::{Trace, TraceEntry};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    let (n, words) = (env_or("PROMPTS", 100_000), env_or("WORDS", 8192) as u32);
    let t0 = Instant::now();
    let mut bytes = 0usize;
    for k in 0..n as u64 {
        bytes += synthetic_prompt(k, words, &mut request_rng(1, k), &Vocab::Words).len();
    }
    let synthetic = t0.elapsed().as_secs_f64();
    let blocks = words.div_ceil(512) as usize;
    let entries = (0..n)
        .map(|i| TraceEntry {
            at_s: i as f64 * 1e-3,
            input_len: words,
            output_len: 64,
            // The first half of the blocks is one of 8 shared documents; the rest is the record's own.
            hash_ids: (0..blocks).map(|b| if b < blocks / 2 { (i % 8 * 1000 + b) as u64 } else { (1_000_000 + i * blocks + b) as u64 }).collect(),
        })
        .collect();
    let trace = Trace { path: "bench".into(), entries, block: 512, speed: 1.0 };
    let t1 = Instant::now();
    for k in 0..n {
        bytes += trace.prompt(1, k, &Vocab::Words).len();
    }
    let traced = t1.elapsed().as_secs_f64();
    let path = std::env::var("TOKENIZER").unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/tokenizer/tokenizer.json").into());
    let t2 = Instant::now();
    let vocab = Vocab::Tokens(std::sync::Arc::new(TokenWords::load(std::path::Path::new(&path)).expect("the tokenizer loads")));
    let load = t2.elapsed().as_secs_f64();
    let t3 = Instant::now();
    for k in 0..n as u64 {
        bytes += synthetic_prompt(k, words, &mut request_rng(1, k), &vocab).len();
    }
    let tokens = t3.elapsed().as_secs_f64();
    println!("{n} prompts of exactly {words} tokens ({path}): {tokens:.2} s ({:.1} µs each) after {load:.2} s loading the tokenizer", tokens / n as f64 * 1e6);
    // `bench` builds each prompt on the connection thread that sends it: two threads, as on
    // two cores, each taking every other request.
    let t4 = Instant::now();
    let built: usize = std::thread::scope(|s| {
        let vocab = &vocab;
        let halves: Vec<_> = (0..2u64).map(|h| s.spawn(move || (h..n as u64).step_by(2).map(|k| synthetic_prompt(k, words, &mut request_rng(1, k), vocab).len()).sum::<usize>())).collect();
        halves.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    });
    println!("the same on two threads: {:.2} s ({:.1} GB)", t4.elapsed().as_secs_f64(), built as f64 / 1e9);
    let sonnet_n = env_or("SONNET_PROMPTS", 10_000);
    let sonnet = Sonnet::new(&vocab, 0);
    let t5 = Instant::now();
    let verse: u64 = (0..sonnet_n as u64).map(|k| u64::from(sonnet.verse(1000, &vocab, &mut request_rng(1, k)).1)).sum();
    let v = t5.elapsed().as_secs_f64();
    println!("{sonnet_n} verse prompts of 1000 tokens (--sonnet): {v:.2} s ({:.1} µs each; {} tokens each on average)", v / sonnet_n as f64 * 1e6, verse / sonnet_n as u64);
    println!("{n} prompts of {words} words: synthetic {synthetic:.2} s ({:.1} µs each), from trace blocks {traced:.2} s ({:.1} µs each); {:.1} GB built", synthetic / n as f64 * 1e6, traced / n as f64 * 1e6, bytes as f64 / 1e9);
}
