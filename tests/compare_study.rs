//! A/A false-alarm rate and power of `compare`, against the simulator's ground truth.
//! Ignored (minutes): `cargo test --release --test compare_study -- --ignored --nocapture`.

use credence::analyze::compare::verdict::Verdict;
use credence::analyze::compare::{ArmRun, CompareOptions, compare};
use credence::analyze::requests::RequestView;
use credence::analyze::{Analysis, AnalyzeOptions, analyze_view};
use credence::run::Manifest;
use credence::simulate::{ArrivalProcess, Effect, EffectMetric, Scenario, SimOptions, simulate};

const AB_FIXTURE_SECONDS: f64 = 480.0;

/// The A/B fixture's size (`fixtures/generate.sh`): 480 s at 10 requests/s, output median 64.
/// STUDY_DURATION=seconds changes the duration; STUDY_SIZE=default uses the simulator's
/// defaults (300 s at 20 requests/s, output median 128).
fn run(seed: u64, effect: Option<f64>) -> (Manifest, RequestView, Analysis) {
    let mut o = SimOptions::new(Scenario::Steady, seed);
    if std::env::var("STUDY_SIZE").as_deref() != Ok("default") {
        o.duration_s = std::env::var("STUDY_DURATION").ok().and_then(|d| d.parse().ok()).unwrap_or(AB_FIXTURE_SECONDS);
        o.arrival = ArrivalProcess::Poisson { rate: 10.0 };
        o.lengths.output_median = 64.0;
    }
    o.compute_truth = false;
    o.effect = effect.map(|r| Effect { metric: EffectMetric::Ttft, relative: r });
    let sim = simulate(&o).unwrap();
    let view = RequestView::from_table(&sim.data.requests);
    let a = analyze_view(
        &sim.data.manifest,
        &view,
        &credence::analyze::attribute::Telemetry::none(),
        &AnalyzeOptions { resamples: 499, ..AnalyzeOptions::default() },
    );
    (sim.data.manifest, view, a)
}

fn verdicts(pairs: u64, effect: Option<f64>) -> Vec<Verdict> {
    let opts =
        CompareOptions { tolerance: 0.05, per_metric_tolerance: Default::default(), resamples: 999, seed: 1, allow_workload_mismatch: false, order: None };
    let results: Vec<(Verdict, f64, f64)> = (0..pairs)
        .map(|k| {
            let (mb, vb, ab) = run(10_000 + 2 * k, None);
            let (mc, vc, ac) = run(10_001 + 2 * k, effect);
            let base = [ArmRun { name: "base".into(), manifest: &mb, view: &vb, analysis: &ab }];
            let cand = [ArmRun { name: "cand".into(), manifest: &mc, view: &vc, analysis: &ac }];
            let m = &compare(&base, &cand, &opts).metrics["ttft_p50"];
            (m.verdict, m.change.estimate, (m.change.ci_high - m.change.ci_low) / 2.0)
        })
        .collect();
    // The spread of the estimates against the mean interval half-width: for a calibrated
    // interval, half-width ≈ 1.96 × SD of the estimates.
    let n = results.len() as f64;
    let mean = results.iter().map(|r| r.1).sum::<f64>() / n;
    let sd = (results.iter().map(|r| (r.1 - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let half = results.iter().map(|r| r.2).sum::<f64>() / n;
    eprintln!("  estimate mean {:+.2} %, SD {:.2} %; mean 95 % half-width {:.2} % (= {:.2} SD)", mean * 100.0, sd * 100.0, half * 100.0, half / sd);
    results.into_iter().map(|r| r.0).collect()
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
