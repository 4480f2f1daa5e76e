//! Conversations in the simulator, measured against their truth (`truth.json`'s `turns`, from
//! long independent runs of the same model): across seeds, each turn's P50 TTFT interval and
//! the run's prefix-cache hit-rate interval cover the true values about 95 % of the time, and
//! each turn's hit rate is the truth's (turn 1 finds nothing cached, each later turn more).

use credence::analyze::{AnalyzeOptions, Status, analyze};
use credence::run::Run;
use credence::simulate::{Scenario, SimOptions, SimSessions, simulate};

/// 5 minutes of sessions of 2 to 6 turns, 3 new sessions a second (about 12 requests a
/// second), 1 s think time.
fn conversations(seed: u64) -> SimOptions {
    let mut o = SimOptions::new(Scenario::Steady, seed);
    o.arrival = credence::simulate::ArrivalProcess::Poisson { rate: 3.0 };
    o.sessions = Some(SimSessions { count: 1_000_000, turns: (2, 6), think_s: 1.0 });
    o
}

#[test]
fn simulated_conversations_cover_each_turns_truth() {
    let truth = simulate(&conversations(0)).unwrap().truth.turns.expect("conversations have a per-turn truth");
    // The truth is the model's, whatever a run's own cap on its sessions.
    let capped = SimOptions { sessions: Some(SimSessions { count: 40, turns: (2, 6), think_s: 1.0 }), ..conversations(0) };
    assert_eq!(simulate(&capped).unwrap().truth.turns.as_ref(), Some(&truth));
    let hit_truth = truth.iter().map(|t| t.cached_tokens).sum::<u64>() as f64 / truth.iter().map(|t| t.prompt_tokens).sum::<u64>() as f64;
    let (mut ttft, mut ttft_covered, mut hit, mut hit_covered) = (0, 0, 0, 0);
    for seed in 1..=20 {
        let sim = simulate(&SimOptions { compute_truth: false, ..conversations(seed) }).unwrap();
        let run =
            Run { dir: "sim".into(), manifest: sim.data.manifest, requests: sim.data.requests, gpu: None, host: None, server: None, warnings: Vec::new() };
        let a = analyze(&run, &AnalyzeOptions { resamples: 999, ..AnalyzeOptions::default() });
        let cache = a.cache.expect("a conversation run reports its cache");
        assert_eq!(cache.turns.len(), truth.len(), "seed {seed}: {:?}", cache.turns);
        for (measured, t) in cache.turns.iter().zip(&truth) {
            let rate = measured.hit_rate.unwrap();
            assert!((rate - t.hit_rate).abs() < 0.05, "seed {seed}, turn {}: hit rate {rate} against {}", t.turn, t.hit_rate);
            let e = &measured.ttft_p50;
            if e.status == Status::Ok {
                ttft += 1;
                ttft_covered += usize::from(e.ci_low.unwrap() <= t.ttft_p50_ms && t.ttft_p50_ms <= e.ci_high.unwrap());
            }
        }
        assert_eq!(cache.turns[0].hit_rate, Some(0.0), "seed {seed}: turn 1 has no history");
        let h = &cache.hit_rate;
        if h.status == Status::Ok {
            hit += 1;
            hit_covered += usize::from(h.ci_low.unwrap() <= hit_truth && hit_truth <= h.ci_high.unwrap());
        }
    }
    let share = |a: usize, b: usize| a as f64 / b.max(1) as f64;
    eprintln!("per-turn P50 TTFT: {ttft_covered} of {ttft} intervals cover the truth; hit rate: {hit_covered} of {hit} (truth {hit_truth:.4})");
    assert!(ttft >= 100 && share(ttft_covered, ttft) >= 0.88, "per-turn P50 TTFT coverage {ttft_covered}/{ttft}");
    assert!(hit >= 18 && share(hit_covered, hit) >= 0.8, "hit-rate coverage {hit_covered}/{hit}");
}
