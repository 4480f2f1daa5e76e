//! Steady-state detection against the simulator's ground truth, over several seeds.

use credence::analyze::steady::Classification;
use credence::analyze::{AnalyzeOptions, analyze};
use credence::run::Run;
use credence::simulate::{Scenario, SimOptions, simulate};

fn detect(scenario: Scenario, seed: u64) -> (Classification, f64, f64) {
    let mut o = SimOptions::new(scenario, seed);
    o.compute_truth = false;
    let sim = simulate(&o).unwrap();
    let warmup_end = sim.truth.warmup_end_s;
    let run = Run { dir: "sim".into(), manifest: sim.data.manifest, requests: sim.data.requests, gpu: None, host: None, server: None, warnings: Vec::new() };
    let a = analyze(&run, &AnalyzeOptions { resamples: 299, ..AnalyzeOptions::default() });
    (a.steady_state.classification, a.steady_state.start_s, warmup_end)
}

#[test]
fn warmup_end_is_found_within_tolerance() {
    for seed in 1..=5 {
        let (class, start, truth) = detect(Scenario::Warmup, seed);
        let tolerance = (0.1 * truth).max(5.0);
        assert_eq!(class, Classification::Warmup, "seed {seed}");
        assert!((start - truth).abs() <= tolerance, "seed {seed}: detected {start} s, truth {truth} s (tolerance {tolerance} s)");
    }
}

#[test]
fn steady_runs_are_flat() {
    for seed in 1..=5 {
        let (class, start, _) = detect(Scenario::Steady, seed);
        assert_eq!(class, Classification::Flat, "seed {seed}");
        assert!(start < 20.0, "seed {seed}: a steady run should lose only its fill-up, not {start} s");
    }
}

#[test]
fn no_steady_state_is_never_called_steady() {
    for seed in 1..=5 {
        let (class, _, _) = detect(Scenario::NoSteadyState, seed);
        assert!(matches!(class, Classification::NoSteadyState | Classification::Slowdown), "seed {seed}: {class:?}");
    }
}
