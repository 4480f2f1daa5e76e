//! Bench: the analysis pipeline as a library call, `credence::ops::pipeline::analyze_dir`, the
//! one function behind `analyze`, `compare`, `report`, `baseline`, `history` and `plan`. No
//! process start, no JSON writing: the cost of loading and analyzing alone, per run size.
//! Run with `cargo bench --bench pipeline`. Environment:
//! - `REQUESTS` (default `100000,1000000`): run sizes, one hour each (the `analyze_10m` shape);
//! - `ROUNDS` (default 5): analyses per size; the median and the fastest are printed;
//! - `RESAMPLES` (default 9999, the command's default).
//!
//! `analyze_10m` and `analyze_long` still start the binary: they read each analysis's own peak
//! memory from the child process and kill one that runs past its limit, which an in-process call
//! cannot give.

mod synth;

use std::time::Instant;

use credence::analyze::AnalyzeOptions;
use credence::ops::pipeline::analyze_dir;

fn env_list(name: &str, default: &str) -> Vec<usize> {
    std::env::var(name).unwrap_or_else(|_| default.into()).split(',').filter_map(|v| v.trim().parse().ok()).collect()
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 }
}

fn main() {
    let sizes = env_list("REQUESTS", "100000,1000000");
    let rounds = env_list("ROUNDS", "5").first().copied().unwrap_or(5).max(1);
    let resamples = env_list("RESAMPLES", "9999").first().copied().unwrap_or(9999);
    let base = std::env::temp_dir().join(format!("credence-bench-pipeline-{}", std::process::id()));
    let opts = AnalyzeOptions { resamples, ..AnalyzeOptions::default() };
    println!("analyze_dir, {resamples} resamples, {rounds} rounds, {} threads", rayon::current_num_threads());
    for n in sizes {
        let dir = base.join(format!("run-{n}"));
        synth::generate(&dir, &synth::Shape { requests: n, duration_s: 3600.0, level_rate_per_s: n as f64 / 3600.0, warmup_s: 0.0 });
        let mut walls: Vec<f64> = (0..rounds)
            .map(|_| {
                let start = Instant::now();
                let analyzed = analyze_dir(&dir, &opts).expect("the synthetic run analyzes");
                std::hint::black_box(&analyzed.analysis);
                start.elapsed().as_secs_f64()
            })
            .collect();
        walls.sort_by(f64::total_cmp);
        println!("{n:>10} requests: median {:.3} s, fastest {:.3} s ({:.0} ns per request)", median(&walls), walls[0], median(&walls) / n as f64 * 1e9);
    }
    let _ = std::fs::remove_dir_all(&base);
}
