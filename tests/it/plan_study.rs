//! `credence plan` against the simulator's truth: planned vs achieved power, the between-run
//! variance estimate, and a 3-run series' credibility. The simulator has no run-to-run
//! variation of its own, so each run's TTFT is scaled by a known factor exp(σ·z) (z standard
//! normal, drawn from the run's seed): the true between-run CV of P50 TTFT is σ.
//! Full study (minutes): `cargo test --release --test it plan_study:: -- --ignored --nocapture`;
//! the CI-sized versions run by default.

use credence::analyze::compare::verdict::Verdict;
use credence::analyze::compare::{ArmRun, CompareOptions, compare};
use credence::analyze::credibility::{CheckStatus, Grade, assess};
use credence::analyze::plan::{PlanOptions, pilot_from_runs, plan};
use credence::analyze::requests::RequestView;
use credence::analyze::{Analysis, AnalyzeOptions, analyze_view};
use credence::run::Manifest;
use credence::simulate::{ArrivalProcess, Effect, EffectMetric, Scenario, SimOptions, simulate};
use rand::{Rng, SeedableRng};

const RATE: f64 = 10.0;

struct Run {
    manifest: Manifest,
    view: RequestView,
    analysis: Analysis,
}

/// A run's TTFT factor exp(σ·z), z drawn from `seed` (Box–Muller).
fn run_factor(seed: u64, cv: f64) -> f64 {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_F00D);
    let (u1, u2): (f64, f64) = (1.0 - rng.random::<f64>(), rng.random::<f64>());
    (cv * (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()).exp()
}

/// A steady simulated run of `duration_s` at 10 requests/s (output median 48) whose TTFT is
/// scaled by `ttft_factor`.
fn sim_run(seed: u64, duration_s: f64, ttft_factor: f64, resamples: usize) -> Run {
    let mut o = SimOptions::new(Scenario::Steady, seed);
    o.duration_s = duration_s;
    o.arrival = ArrivalProcess::Poisson { rate: RATE };
    o.lengths.output_median = 48.0;
    o.compute_truth = false;
    o.effect = Some(Effect { metric: EffectMetric::Ttft, relative: ttft_factor - 1.0 });
    let sim = simulate(&o).unwrap();
    let view = RequestView::from_table(&sim.data.requests);
    let opts = AnalyzeOptions { resamples, ..AnalyzeOptions::default() };
    let analysis = analyze_view(&sim.data.manifest, &view, &credence::analyze::attribute::Telemetry::none(), &opts);
    Run { manifest: sim.data.manifest, view, analysis }
}

fn arm<'r>(runs: &'r [Run], tag: &str) -> Vec<ArmRun<'r>> {
    runs.iter().enumerate().map(|(i, r)| ArmRun { name: format!("{tag}{i}"), manifest: &r.manifest, view: &r.view, analysis: &r.analysis }).collect()
}

fn compare_options() -> CompareOptions {
    CompareOptions { tolerance: 0.05, resamples: 999, seed: 1, ..Default::default() }
}

/// Plans from one 240 s pilot run with the true between-run CV given as the assumption, then
/// simulates `pairs` experiments of the recommended design with a true +10 % TTFT effect.
/// Returns (planned power, achieved share of regression verdicts, runs per arm, run length).
fn power_study(pairs: u64, cv: f64, target: f64) -> (f64, f64, usize, f64) {
    power_study_from(7, pairs, cv, target)
}

/// `power_study` with the pilot drawn from `pilot_seed` (7 above); each pilot's pairs get their
/// own seeds.
fn power_study_from(pilot_seed: u64, pairs: u64, cv: f64, target: f64) -> (f64, f64, usize, f64) {
    let pilot = [sim_run(pilot_seed, 240.0, 1.0, 499)];
    let p = pilot_from_runs(&arm(&pilot, "pilot"), &["ttft_p50".to_string()], &compare_options()).unwrap();
    let o = PlanOptions {
        tolerance: 0.05,
        effect: 0.10,
        power: target,
        cost_per_run_s: 60.0,
        between_run_cv: cv,
        compare_prior: credence::analyze::compare::pooled::DEFAULT_PRIOR,
    };
    let plan = plan(&p, &o);
    eprintln!("pilot: within-run CV of P50 TTFT {:.2} %", p.metrics["ttft_p50"].within.sqrt() * 100.0);
    let d = plan.recommended.clone().unwrap_or_else(|| panic!("no design: {:?}", plan.cannot_tell));
    let mut hits = 0;
    for j in 0..pairs {
        let seed = |arm: u64, i: usize| 100_000 + pilot_seed.wrapping_sub(7).wrapping_mul(1_000_000) + j * 1000 + arm * 100 + i as u64;
        let base: Vec<Run> = (0..d.runs_per_arm).map(|i| sim_run(seed(0, i), d.duration_s, run_factor(seed(0, i), cv), 199)).collect();
        let cand: Vec<Run> = (0..d.runs_per_arm).map(|i| sim_run(seed(1, i), d.duration_s, 1.10 * run_factor(seed(1, i), cv), 199)).collect();
        let m = &compare(&arm(&base, "b"), &arm(&cand, "c"), &compare_options()).metrics["ttft_p50"];
        hits += usize::from(m.verdict == Verdict::Regression);
        if std::env::var_os("STUDY_VERBOSE").is_some() {
            eprintln!(
                "  pair {j}: change {:+.2} % [{:+.2}, {:+.2}], tolerance {:.2} %, {:?}",
                m.change.estimate * 100.0,
                m.change.ci_low * 100.0,
                m.change.ci_high * 100.0,
                m.tolerance * 100.0,
                m.verdict
            );
        }
    }
    let achieved = hits as f64 / pairs as f64;
    eprintln!(
        "power study: between-run CV {:.1} %, design {} runs/arm x {:.0} s, planned {:.1} %, achieved {:.1} % ({hits}/{pairs})",
        cv * 100.0,
        d.runs_per_arm,
        d.duration_s,
        d.power * 100.0,
        achieved * 100.0
    );
    (d.power, achieved, d.runs_per_arm, d.duration_s)
}

/// For each seed, `max_runs` pilot runs with a true between-run CV `cv`; for each pilot size
/// k in `sizes`, the share of seeds whose Kalibera–Jones estimate from the first k runs lies
/// within a factor 2 of the truth (on the variance).
fn between_run_study(seeds: u64, sizes: &[usize], cv: f64) -> Vec<(usize, f64, f64)> {
    let max_runs = *sizes.iter().max().unwrap();
    let truth = cv * cv;
    let mut within = vec![0usize; sizes.len()];
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); sizes.len()];
    for s in 0..seeds {
        // A steady run now and then shows no steady state to the detector (its false
        // alarm); plan refuses it as a pilot, so the study draws the next seed instead.
        let runs: Vec<Run> = (0..)
            .map(|i| 50_000 + s * 100 + i as u64)
            .map(|seed| sim_run(seed, 240.0, run_factor(seed, cv), 199))
            .filter(|r| r.analysis.steady_state.classification != credence::analyze::steady::Classification::NoSteadyState)
            .take(max_runs)
            .collect();
        for (j, &k) in sizes.iter().enumerate() {
            let p = pilot_from_runs(&arm(&runs[..k], "p"), &["ttft_p50".to_string()], &compare_options()).unwrap();
            let est = p.metrics["ttft_p50"].between.unwrap();
            ratios[j].push(est / truth);
            within[j] += usize::from(est >= truth / 2.0 && est <= truth * 2.0);
        }
    }
    sizes
        .iter()
        .enumerate()
        .map(|(j, &k)| {
            let mut r = ratios[j].clone();
            r.sort_by(f64::total_cmp);
            let share = within[j] as f64 / seeds as f64;
            eprintln!(
                "between-run study: {k} pilot runs, {seeds} seeds: estimate within 2x of the truth in {:.0} %, median ratio {:.2}",
                share * 100.0,
                r[r.len() / 2]
            );
            (k, share, r[r.len() / 2])
        })
        .collect()
}

#[test]
fn planned_power_matches_achieved_power_ci_sized() {
    // 10 pairs: a binomial share of 10 has an SD of up to 16 points, so the band is 30 points
    // here; the full study below holds it to 10 points over 50 pairs.
    let (planned, achieved, _, _) = power_study(10, 0.01, 0.8);
    assert!((planned - achieved).abs() <= 0.30, "planned {planned}, achieved {achieved}");
}

/// `PLAN_STUDY_PAIRS` pairs (default 50).
#[test]
#[ignore]
fn planned_power_matches_achieved_power() {
    let pairs = std::env::var("PLAN_STUDY_PAIRS").ok().and_then(|v| v.parse().ok()).unwrap_or(50);
    let (planned, achieved, _, _) = power_study(pairs, 0.01, 0.8);
    assert!((planned - achieved).abs() <= 0.10, "planned {planned}, achieved {achieved}");
}

/// Planned against achieved power over `PLAN_STUDY_PILOTS` pilots (default 8) of
/// `PLAN_STUDY_PAIRS` pairs each (default 30). One pilot's plan rests on its own noisy
/// estimate of the within-run noise, so a single pilot can miss by its luck; the planner's
/// promise is about the average over pilots.
#[test]
#[ignore]
fn planned_power_matches_achieved_power_over_pilots() {
    let var = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (pilots, pairs) = (var("PLAN_STUDY_PILOTS", 8), var("PLAN_STUDY_PAIRS", 30));
    let results: Vec<(f64, f64)> = (1..=pilots).map(|s| power_study_from(s, pairs, 0.01, 0.8)).map(|(p, a, _, _)| (p, a)).collect();
    let mean = |f: fn(&(f64, f64)) -> f64| results.iter().map(f).sum::<f64>() / results.len() as f64;
    let (planned, achieved) = (mean(|r| r.0), mean(|r| r.1));
    eprintln!("over {pilots} pilots of {pairs} pairs: planned {:.1} % on average, achieved {:.1} %", planned * 100.0, achieved * 100.0);
    assert!((planned - achieved).abs() <= 0.10, "planned {planned}, achieved {achieved}");
}

/// Issue 42: planned against achieved power for 3 pilots at true (and stated) run-to-run CVs
/// of 1 % and 3 %, each within 10 points. `PLAN_STUDY_PAIRS` pairs per design (default 40).
#[test]
#[ignore]
fn planned_power_matches_achieved_power_three_pilots_two_cvs() {
    let pairs = std::env::var("PLAN_STUDY_PAIRS").ok().and_then(|v| v.parse().ok()).unwrap_or(40);
    let mut misses = Vec::new();
    for cv in [0.01, 0.03] {
        for pilot in 1..=3 {
            let (planned, achieved, k, length) = power_study_from(pilot, pairs, cv, 0.8);
            eprintln!("| {:.0} % | pilot {pilot} | {k} x {length:.0} s | {:.1} % | {:.1} % |", cv * 100.0, planned * 100.0, achieved * 100.0);
            if (planned - achieved).abs() > 0.10 {
                misses.push(format!("cv {cv}, pilot {pilot}: planned {planned:.3}, achieved {achieved:.3}"));
            }
        }
    }
    assert!(misses.is_empty(), "{misses:?}");
}

#[test]
fn between_run_variance_is_measured_near_the_truth_ci_sized() {
    // 6 seeds of 5 runs at a 3 % true CV: the median estimate within a factor 2 of the truth.
    let r = between_run_study(6, &[5], 0.03);
    assert!(r[0].2 > 0.5 && r[0].2 < 2.0, "{r:?}");
}

#[test]
#[ignore]
fn between_run_variance_within_a_factor_2() {
    // The share within 2x grows with the pilot's runs (a variance from k runs has k − 1
    // degrees of freedom: with 2 runs about a third of seeds fall within 2x, whatever the
    // method); 80 % needs about 10 runs.
    let r = between_run_study(20, &[2, 3, 5, 10], 0.03);
    assert!(r.last().unwrap().1 >= 0.8, "{r:?}");
}

#[test]
fn a_three_run_steady_series_reaches_high_credibility() {
    let runs: Vec<Analysis> = (1..=3)
        .map(|seed| {
            let sim = simulate(&SimOptions { compute_truth: false, ..SimOptions::new(Scenario::Steady, 20 + seed) }).unwrap();
            let view = RequestView::from_table(&sim.data.requests);
            let d = &sim.data;
            let telemetry = credence::analyze::attribute::Telemetry { gpu: d.gpu.as_ref(), host: d.host.as_ref(), server: d.server.as_ref() };
            analyze_view(&d.manifest, &view, &telemetry, &AnalyzeOptions::default())
        })
        .collect();
    let three = assess(&runs.iter().collect::<Vec<_>>());
    // HIGH, every check passing (the runs' TTFT design effects exceed 10, which warns for one
    // run but not for three replicated ones), and the report's grade is the assessment's.
    let short: Vec<_> = three.checks.iter().filter(|c| c.status != CheckStatus::Pass).collect();
    assert!(short.is_empty(), "{short:#?}");
    assert_eq!(three.grade, Grade::High);
    assert_eq!(credence::report::Report::for_runs(runs, None, None).grade(), three.grade);
}
