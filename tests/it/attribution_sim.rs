//! Attribution and credibility against the simulator's ground truth (`truth.json` anomalies).
//!
//! Recall: for every scenario with a cause, over 10 seeds, the true cause is among the findings
//! with an overlapping window. Precision: over all scenarios, findings that name a true cause
//! with an overlapping window. The `steady` scenario must yield no findings.

use credence::analyze::credibility::{CheckStatus, Grade, assess};
use credence::analyze::{Analysis, AnalyzeOptions, analyze};
use credence::run::Run;
use credence::simulate::{ArrivalProcess, Scenario, SimOptions, Truth, simulate};

const SEEDS: u64 = 10;
/// Alignment tolerance of the attribution, seconds.
const TOLERANCE_S: f64 = 2.0;

fn run(scenario: Scenario, seed: u64, small: bool) -> (Analysis, Truth) {
    let mut o = SimOptions::new(scenario, seed);
    if small {
        // The scenario fixtures' size (fixtures/generate.sh).
        o.duration_s = 120.0;
        o.arrival = ArrivalProcess::Poisson { rate: 10.0 };
        o.lengths.output_median = 64.0;
    }
    o.compute_truth = false;
    let sim = simulate(&o).unwrap();
    let d = sim.data;
    let run = Run { dir: "sim".into(), manifest: d.manifest, requests: d.requests, gpu: d.gpu, host: d.host, server: d.server, warnings: Vec::new() };
    (analyze(&run, &AnalyzeOptions { resamples: 199, ..AnalyzeOptions::default() }), sim.truth)
}

fn matches_truth(a: &Analysis, t: &Truth, cause: &str) -> bool {
    t.anomalies.iter().any(|x| {
        x.cause == cause
            && a.findings.iter().any(|f| f.cause == cause && f.episodes.iter().any(|e| e.start_s < x.end_s + TOLERANCE_S && e.end_s > x.start_s - TOLERANCE_S))
    })
}

#[test]
fn every_scenario_is_attributed_to_its_true_cause() {
    let (mut correct, mut total) = (0usize, 0usize);
    let mut report = String::new();
    for scenario in Scenario::ALL {
        // warmup-throttle is the conditions study's scenario (tests/it/conditions_sim.rs, which
        // counts its throttle attributions on 300-s runs): at this 120-s size its 36-s warmup
        // and 60-s episode leave too little of the run to judge anything else against.
        if scenario == Scenario::WarmupThrottle {
            continue;
        }
        let mut hits = 0;
        let mut wrong: Vec<String> = Vec::new();
        let mut truth_causes = 0;
        for seed in 0..SEEDS {
            let (a, t) = run(scenario, 100 + seed, true);
            total += a.findings.len();
            for f in &a.findings {
                if matches_truth(&a, &t, f.cause.id()) {
                    correct += 1;
                } else {
                    wrong.push(format!(
                        "seed {}: {} {:?}",
                        100 + seed,
                        f.cause,
                        f.episodes.iter().map(|e| (e.start_s.round(), e.end_s.round())).collect::<Vec<_>>()
                    ));
                }
            }
            if let Some(x) = t.anomalies.first() {
                truth_causes += 1;
                hits += usize::from(matches_truth(&a, &t, x.cause));
            }
        }
        report += &format!("{scenario}: recall {hits}/{truth_causes}; other findings: {wrong:?}\n");
        if truth_causes > 0 {
            assert!(hits as f64 >= 0.9 * truth_causes as f64, "{scenario}: recall {hits}/{truth_causes}\n{report}");
        }
        if scenario == Scenario::Steady || scenario == Scenario::Warmup {
            assert!(wrong.len() <= 1, "{scenario} should yield no cause findings: {wrong:?}");
        }
    }
    let precision = correct as f64 / total.max(1) as f64;
    eprintln!("{report}precision {correct}/{total} = {precision:.3}");
    assert!(precision >= 0.9, "precision {precision:.3}\n{report}");
}

#[test]
fn causes_are_named_correctly() {
    for seed in 0..3 {
        let (a, _) = run(Scenario::ThermalThrottle, 300 + seed, true);
        assert!(a.findings.iter().any(|f| f.cause == "thermal_throttle"));
        assert!(
            a.findings.iter().all(|f| f.cause != "power_cap"),
            "thermal reported as power cap: {:?}",
            a.findings.iter().map(|f| &f.cause).collect::<Vec<_>>()
        );
        let (a, _) = run(Scenario::ClientSaturation, 300 + seed, true);
        let causes: Vec<&str> = a.findings.iter().map(|f| f.cause.id()).collect();
        assert!(causes.contains(&"client_saturation"), "{causes:?}");
        assert!(
            causes.iter().all(|c| !matches!(*c, "thermal_throttle" | "power_cap" | "clock_change" | "server_queueing" | "memory_pressure" | "foreign_process")),
            "client saturation reported as a server slowdown: {causes:?}"
        );
    }
    // The power-capped GPU is "power-limited", not a fault.
    let (a, _) = run(Scenario::PowerCap, 310, true);
    assert!(a.findings.iter().any(|f| f.cause == "power_cap"));
    let throttling = a.credibility.checks.iter().find(|c| c.name == "throttling").unwrap();
    assert_eq!(throttling.status, CheckStatus::Warn, "{}", throttling.reason);
}

#[test]
fn grades_follow_the_rule() {
    // Steady with a full environment, at the simulator's default size (300 s at 20 requests/s).
    let steady: Vec<Analysis> = (0..3).map(|s| run(Scenario::Steady, 400 + s, false).0).collect();
    let single = &steady[0].credibility;
    assert_eq!(single.grade, Grade::Medium, "{:#?}", single.checks);
    // One run: `dependence` warns exactly when the design effect exceeds 10 or n_eff is below 100.
    let d = &steady[0].dependence["ttft"];
    let dependence = single.checks.iter().find(|c| c.name == "dependence").unwrap();
    assert_eq!(dependence.status == CheckStatus::Warn, d.design_effect > 10.0 || d.n_eff < 100.0, "{}", dependence.reason);
    let three = assess(&steady.iter().collect::<Vec<_>>());
    // Three undisturbed runs: HIGH, every check passing. The simulator's engine noise is
    // correlated (TTFT design effects of 12 to 15): one run's `dependence` warns (issue 18's rule),
    // three replicated runs' does not (their intervals come from the spread between runs).
    let short: Vec<_> = three.checks.iter().filter(|c| c.status != CheckStatus::Pass).collect();
    assert!(short.is_empty(), "{short:#?}");
    assert_eq!(three.grade, Grade::High);

    let (a, _) = run(Scenario::ClientSaturation, 401, false);
    assert_eq!(a.credibility.grade, Grade::Low);
    assert_eq!(a.credibility.checks.iter().find(|c| c.name == "client_saturation").unwrap().status, CheckStatus::Fail);
    let (a, _) = run(Scenario::NoSteadyState, 401, false);
    assert_eq!(a.credibility.grade, Grade::Low);
    assert_eq!(a.credibility.checks.iter().find(|c| c.name == "steady_state").unwrap().status, CheckStatus::Fail);
}
