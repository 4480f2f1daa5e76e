//! A/A false-alarm rate and power of `compare`, against the simulator's ground truth.
//! Ignored (minutes): `cargo test --release --test compare_study -- --ignored --nocapture`.

use credence::analyze::compare::verdict::Verdict;
use credence::analyze::compare::{ArmRun, CompareOptions, compare};
use credence::analyze::requests::RequestView;
use credence::analyze::{Analysis, AnalyzeOptions, analyze_view};
use credence::run::Manifest;
use credence::simulate::{ArrivalProcess, Effect, EffectMetric, Scenario, SimOptions, simulate};

/// The fixtures' default size: 120 s at 10 requests/s, output median 64.
fn run(seed: u64, effect: Option<f64>) -> (Manifest, RequestView, Analysis) {
    let mut o = SimOptions::new(Scenario::Steady, seed);
    // STUDY_SIZE=default uses the simulator's defaults (300 s at 20 requests/s).
    if std::env::var("STUDY_SIZE").as_deref() != Ok("default") {
        o.duration_s = 120.0;
        o.arrival = ArrivalProcess::Poisson { rate: 10.0 };
        o.lengths.output_median = 64.0;
    }
    o.compute_truth = false;
    o.effect = effect.map(|r| Effect { metric: EffectMetric::Ttft, relative: r });
    let sim = simulate(&o).unwrap();
    let view = RequestView::from_table(&sim.data.requests);
    let a = analyze_view(&sim.data.manifest, &view, &AnalyzeOptions { resamples: 499, ..AnalyzeOptions::default() });
    (sim.data.manifest, view, a)
}

fn verdicts(pairs: u64, effect: Option<f64>) -> Vec<Verdict> {
    let opts = CompareOptions { tolerance: 0.05, per_metric_tolerance: Default::default(), resamples: 999, seed: 1, allow_workload_mismatch: false, order: None };
    (0..pairs)
        .map(|k| {
            let (mb, vb, ab) = run(10_000 + 2 * k, None);
            let (mc, vc, ac) = run(10_001 + 2 * k, effect);
            let base = [ArmRun { name: "base".into(), manifest: &mb, view: &vb, analysis: &ab }];
            let cand = [ArmRun { name: "cand".into(), manifest: &mc, view: &vc, analysis: &ac }];
            compare(&base, &cand, &opts).metrics["ttft_p50"].verdict
        })
        .collect()
}

fn share(v: &[Verdict], f: impl Fn(Verdict) -> bool) -> f64 {
    v.iter().filter(|x| f(**x)).count() as f64 / v.len() as f64
}

#[test]
#[ignore = "minutes: 200 simulated pairs"]
fn aa_false_alarm_rate() {
    let v = verdicts(200, None);
    let alarms = share(&v, |x| matches!(x, Verdict::Regression | Verdict::Improvement));
    eprintln!("A/A: regression or improvement in {:.1} % of 200 pairs; equivalent {:.1} %", alarms * 100.0, share(&v, |x| x == Verdict::Equivalent) * 100.0);
    assert!(alarms <= 0.05);
}

#[test]
#[ignore = "minutes: the power curve"]
fn power_curve() {
    for effect in [0.02, 0.05, 0.10] {
        let v = verdicts(50, Some(effect));
        eprintln!("+{:.0} % P50 TTFT: regression in {:.0} % of 50 pairs", effect * 100.0, share(&v, |x| x == Verdict::Regression) * 100.0);
    }
}
