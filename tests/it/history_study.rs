//! The simulation study of `credence history` (issue 20): series of per-run estimates with
//! intervals, simulated here (not through `credence simulate`: a 30-run series of full
//! analyses per seed would take hours on CI), with known steps, drift or nothing.
//!
//! Each run's true level is 100 ms times the scenario's factor times run-to-run noise
//! (log-normal, 3 %); its reported estimate adds within-run noise (1.5 %) and its 95 %
//! interval is ±1.96 × 1.5 % on the log scale, as a steady 5-minute run's P50 TTFT is.
//! The CI test runs 40 seeds per scenario; `cargo test --release --test it history_study:: --
//! --ignored --nocapture` runs the full study (500 seeds, 999 permutations; also at 2 % and
//! 5 % run-to-run noise) and prints the rates.


use std::collections::BTreeMap;

use credence::analyze::history::detect::DriftVerdict;
use credence::analyze::history::{History, HistoryMetric, HistoryOptions, Order, RunPoint, RunValue, history};
use credence::stats::edivisive::EDivisiveOptions;
use credence::stats::resample::resample_rng;
use rand::Rng;

/// Run-to-run noise of the CI test (log-normal sd); the full study also runs 2 % and 5 %.
const RUN_TO_RUN: f64 = 0.03;
const WITHIN_RUN: f64 = 0.015;

fn normal(rng: &mut impl Rng) -> f64 {
    (0..12).map(|_| rng.random::<f64>()).sum::<f64>() - 6.0
}

/// A series of `n` runs whose true level at run `i` is 100 ms × `factor(i)`.
fn series(n: usize, seed: u64, factor: impl Fn(usize) -> f64) -> Vec<RunPoint> {
    series_with_noise(n, seed, RUN_TO_RUN, factor)
}

fn series_with_noise(n: usize, seed: u64, run_to_run: f64, factor: impl Fn(usize) -> f64) -> Vec<RunPoint> {
    let mut rng = resample_rng(seed, 0x5EED, 0);
    (0..n)
        .map(|i| {
            let truth = 100.0 * factor(i) * (run_to_run * normal(&mut rng)).exp();
            let estimate = truth * (WITHIN_RUN * normal(&mut rng)).exp();
            let half = 1.96 * WITHIN_RUN;
            let value = RunValue { estimate, ci_low: Some(estimate * (-half).exp()), ci_high: Some(estimate * half.exp()), confidence: 0.95 };
            RunPoint {
                run_id: format!("night-{i:04}"),
                start_ns: Some(1_700_000_000_000_000_000 + i as i64 * 86_400_000_000_000),
                fingerprint: "cfg".into(),
                configuration: "simulated".into(),
                grade: "MEDIUM".into(),
                values: BTreeMap::from([(HistoryMetric::TtftP50, value)]),
            }
        })
        .collect()
}

fn options(permutations: usize, seed: u64) -> HistoryOptions {
    HistoryOptions {
        metrics: vec![HistoryMetric::TtftP50],
        order: Order::Time,
        change_points: EDivisiveOptions { significance: 0.01, permutations, min_size: 3, seed },
        resamples: 500,
        seed,
        ..HistoryOptions::default()
    }
}

/// Rates over `seeds` seeds: (step found at 20 ± 1, any change point, drift reported, mean
/// change estimate at the found step).
struct Rates {
    step_found: f64,
    null_clean: f64,
    drift_as_drift: f64,
    drift_no_step: f64,
    step_verdict_regression: f64,
}

fn study(seeds: u64, permutations: usize, run_to_run: f64) -> Rates {
    let (mut step_found, mut null_clean, mut drift_as_drift, mut drift_no_step, mut regression) = (0, 0, 0, 0, 0);
    for seed in 0..seeds {
        let o = options(permutations, seed);
        let step: History = history(&series_with_noise(30, seed, run_to_run, |i| if i >= 20 { 1.10 } else { 1.0 }), &o);
        let cps: Vec<usize> = step.change_points.iter().map(|c| c.index).collect();
        if cps.iter().any(|&i| (19..=21).contains(&i)) {
            step_found += 1;
        }
        if step.newest.as_ref().is_some_and(|n| !n.regressions.is_empty()) {
            regression += 1;
        }
        let null = history(&series_with_noise(30, seed + 10_000, run_to_run, |_| 1.0), &o);
        if null.change_points.is_empty() {
            null_clean += 1;
        }
        let drift = history(&series_with_noise(30, seed + 20_000, run_to_run, |i| 1.01f64.powi(i as i32)), &o);
        if drift.drift.iter().any(|d| d.verdict == DriftVerdict::Drift && d.direction == Some("worse")) {
            drift_as_drift += 1;
        }
        if drift.change_points.is_empty() {
            drift_no_step += 1;
        }
    }
    let rate = |k: u32| k as f64 / seeds as f64;
    Rates {
        step_found: rate(step_found),
        null_clean: rate(null_clean),
        drift_as_drift: rate(drift_as_drift),
        drift_no_step: rate(drift_no_step),
        step_verdict_regression: rate(regression),
    }
}

fn print(r: &Rates, seeds: u64, run_to_run: f64) {
    eprintln!(
        "{seeds} seeds, run-to-run noise {:.0} %: +10 % step found at 20 ± 1: {:.3}; newest segment a regression: {:.3}; no change point without change: {:.3}; +1 %/run drift reported as drift: {:.3}; drift without a step: {:.3}",
        run_to_run * 100.0,
        r.step_found,
        r.step_verdict_regression,
        r.null_clean,
        r.drift_as_drift,
        r.drift_no_step
    );
}

#[test]
fn step_null_and_drift_on_forty_seeds() {
    let r = study(40, 199, RUN_TO_RUN);
    print(&r, 40, RUN_TO_RUN);
    assert!(r.step_found >= 0.9, "step found in {:.2} of seeds", r.step_found);
    assert!(r.null_clean >= 0.95, "no change point in {:.2} of null seeds", r.null_clean);
    assert!(r.drift_as_drift >= 0.9, "drift reported in {:.2} of seeds", r.drift_as_drift);
    assert!(r.drift_no_step >= 0.9, "drift taken for a step in {:.2} of seeds", 1.0 - r.drift_no_step);
}

/// Issue 42: a regression fixed ten runs later (+8 % from run 10 to 19), every other run graded
/// LOW (the grade does not decide whether a run enters the series): both ends are found.
#[test]
fn a_step_and_its_fix_on_forty_seeds() {
    let mut both = 0;
    for seed in 0..40 {
        let mut points = series_with_noise(30, seed + 30_000, 0.02, |i| if (10..20).contains(&i) { 1.08 } else { 1.0 });
        for p in points.iter_mut().step_by(2) {
            p.grade = "LOW".into();
        }
        let h = history(&points, &options(199, seed));
        let cps: Vec<usize> = h.change_points.iter().map(|c| c.index).collect();
        both += usize::from(cps.iter().any(|i| (9..=11).contains(i)) && cps.iter().any(|i| (19..=21).contains(i)));
    }
    eprintln!("+8 % from run 10 to 19 at 2 % run-to-run noise: both ends found in {both}/40 seeds");
    assert!(both >= 32, "both ends found in {both}/40 seeds");
}

#[test]
#[ignore = "the full study: 500 seeds per scenario, 999 permutations (minutes)"]
fn full_study() {
    for noise in [0.02, 0.05] {
        print(&study(500, 999, noise), 500, noise);
    }
    let r = study(500, 999, RUN_TO_RUN);
    print(&r, 500, RUN_TO_RUN);
    assert!(r.step_found >= 0.9 && r.null_clean >= 0.95 && r.drift_as_drift >= 0.9 && r.drift_no_step >= 0.9);
}

#[test]
#[ignore = "timing: a 1,000-run series of six metrics"]
fn thousand_runs_in_under_ten_seconds() {
    let mut points = series(1000, 1, |i| if i >= 700 { 1.10 } else { 1.0 });
    for p in &mut points {
        let v = p.values[&HistoryMetric::TtftP50];
        for m in HistoryMetric::DEFAULT {
            p.values.insert(m, v);
        }
    }
    let o = HistoryOptions { metrics: HistoryMetric::DEFAULT.to_vec(), ..HistoryOptions::default() };
    let t = std::time::Instant::now();
    let h = history(&points, &o);
    let s = t.elapsed().as_secs_f64();
    eprintln!("history over 1000 runs × {} metrics: {s:.2} s, {} change points", o.metrics.len(), h.change_points.len());
    assert!(s < 10.0);
}

// ---------------------------------------------------------------------------------------------
// Issue 42: series of simulated runs, analyzed by credence, as a nightly job would see them.
//
// Each run is `credence simulate --scenario steady --seed N --duration 120s --rate 10` (1,200
// requests; many of its P99 checks fail, so many runs are graded LOW), analyzed in-process
// (499 resamples), and enters the series with its P50 TTFT estimate and interval. The simulator
// applies `--effect ttft=+X%` after the engine, to each request's first-token time
// (`simulate/observe.rs`), so a run with the effect is the run without it with every TTFT
// times 1 + X: a run is analyzed once and its P50 TTFT estimate and interval are scaled for the
// runs with an effect (`effect_runs_are_scaled_runs` checks this on real simulated runs).
// A full analysis costs about a CPU-second, so the studies draw their series from one pool of
// 300 analyzed runs (seeds 100_000..100_299, cached under the target's tmp folder): series s is
// 30 runs drawn without replacement from the pool in an order seeded by s. Each series is a
// valid sequence of independent runs; series share runs, so 100 series carry less independent
// information than 100 × 30 fresh runs would (the rates below are about as precise as those of
// ~40–60 independent series).
//
// One command each (the first analyzes the pool, ~15 min on 2 busy cores; later ones reuse it):
//   cargo test --release --locked --test it -- --ignored history_study::simulator_steps --nocapture
//   cargo test --release --locked --test it -- --ignored history_study::simulator_step_and_fix --nocapture
//   cargo test --release --locked --test it -- --ignored history_study::simulator_drift --nocapture
// `benches/history_side_by_side.sh` runs Apache Otava and MongoDB's E-divisive on the same
// per-run estimates (`export_simulated_series` writes them).

use credence::simulate::{ArrivalProcess, Effect, EffectMetric, Scenario, SimOptions};

const SIM_SERIES: usize = 100;
const SIM_RUNS: usize = 30;
const SIM_POOL: usize = 300;

fn sim_options(seed: u64, effect: Option<f64>) -> SimOptions {
    let mut o = SimOptions::new(Scenario::Steady, seed);
    o.duration_s = 120.0;
    o.arrival = ArrivalProcess::Poisson { rate: 10.0 };
    o.compute_truth = false;
    o.effect = effect.map(|r| Effect { metric: EffectMetric::Ttft, relative: r });
    o
}

/// One simulated run, analyzed: its `RunPoint` (all metrics, as `history` reads them).
fn simulated_point(seed: u64, effect: Option<f64>) -> RunPoint {
    let (_, _, a) = crate::common::simulated(&sim_options(seed, effect), 499);
    let mut p = credence::analyze::history::run_point(&serde_json::to_value(&a).unwrap()).unwrap();
    p.run_id = format!("seed-{seed}");
    p
}

/// The run with every TTFT times `factor`: its P50 TTFT estimate and interval scaled.
fn scaled(p: &RunPoint, factor: f64) -> RunPoint {
    let mut q = p.clone();
    if let Some(v) = q.values.get_mut(&HistoryMetric::TtftP50) {
        *v = RunValue { estimate: v.estimate * factor, ci_low: v.ci_low.map(|x| x * factor), ci_high: v.ci_high.map(|x| x * factor), ..*v };
    }
    q
}

/// `SIM_SERIES` series of `SIM_RUNS` runs drawn from the pool (see above). The pool's P50 TTFT
/// (estimate, interval) and grade of each run are analyzed once and cached as JSON lines
/// ($HISTORY_POOL, else the target's tmp folder).
fn pool() -> Vec<Vec<RunPoint>> {
    use rand::seq::SliceRandom;
    let path = std::env::var("HISTORY_POOL")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("history-pool-{SIM_POOL}.jsonl")));
    let cached: Vec<serde_json::Value> =
        std::fs::read_to_string(&path).map(|t| t.lines().filter_map(|l| serde_json::from_str(l).ok()).collect()).unwrap_or_default();
    let rows: Vec<serde_json::Value> = if cached.len() == SIM_POOL {
        cached
    } else {
        use rayon::prelude::*;
        let t = std::time::Instant::now();
        let rows: Vec<serde_json::Value> = (0..SIM_POOL)
            .into_par_iter()
            .map(|k| {
                let p = simulated_point(100_000 + k as u64, None);
                let v = p.values[&HistoryMetric::TtftP50];
                serde_json::json!({"seed": 100_000 + k, "grade": p.grade, "estimate": v.estimate, "ci_low": v.ci_low, "ci_high": v.ci_high, "confidence": v.confidence})
            })
            .collect();
        eprintln!("analyzed {} simulated runs in {:.0} s", rows.len(), t.elapsed().as_secs_f64());
        std::fs::write(&path, rows.iter().map(|r| r.to_string() + "\n").collect::<String>()).unwrap();
        rows
    };
    let point = |r: &serde_json::Value, i: usize| RunPoint {
        run_id: format!("seed-{}", r["seed"]),
        start_ns: Some(1_700_000_000_000_000_000 + i as i64 * 86_400_000_000_000),
        fingerprint: "steady-10rps".into(),
        configuration: "simulated steady, 120 s at 10 requests/s".into(),
        grade: r["grade"].as_str().unwrap().to_string(),
        values: BTreeMap::from([(
            HistoryMetric::TtftP50,
            RunValue {
                estimate: r["estimate"].as_f64().unwrap(),
                ci_low: r["ci_low"].as_f64(),
                ci_high: r["ci_high"].as_f64(),
                confidence: r["confidence"].as_f64().unwrap(),
            },
        )]),
    };
    (0..SIM_SERIES as u64)
        .map(|s| {
            let mut order: Vec<usize> = (0..SIM_POOL).collect();
            order.shuffle(&mut resample_rng(s, 0x9001, 0));
            order[..SIM_RUNS].iter().enumerate().map(|(i, &k)| point(&rows[k], i)).collect()
        })
        .collect()
}

/// The series with P50 TTFT times `factor(i)` at run i.
fn with_effect(series: &[RunPoint], factor: impl Fn(usize) -> f64) -> Vec<RunPoint> {
    series.iter().enumerate().map(|(i, p)| scaled(p, factor(i))).collect()
}

fn sim_history_options(seed: u64) -> HistoryOptions {
    HistoryOptions { metrics: vec![HistoryMetric::TtftP50], order: Order::Given, resamples: 500, seed, ..HistoryOptions::default() }
}

fn change_indices(h: &History) -> Vec<usize> {
    h.change_points.iter().map(|c| c.index).collect()
}

fn rate(hits: usize, n: usize) -> String {
    format!("{hits}/{n} ({:.0} %)", 100.0 * hits as f64 / n as f64)
}

/// The effect is applied to each TTFT after the engine: a run simulated with it has the P50 TTFT
/// of the run without it, times 1 + effect (so the studies may scale one analysis).
#[test]
#[ignore = "simulates and analyzes 4 runs of 120 s (seconds)"]
fn effect_runs_are_scaled_runs() {
    for seed in [500, 512] {
        let (plain, with) = (simulated_point(seed, None), simulated_point(seed, Some(0.10)));
        let (a, b) = (plain.values[&HistoryMetric::TtftP50], with.values[&HistoryMetric::TtftP50]);
        eprintln!(
            "seed {seed}: {:.3} → {:.3} ms (× {:.5}); interval [{:?}, {:?}] → [{:?}, {:?}]",
            a.estimate,
            b.estimate,
            b.estimate / a.estimate,
            a.ci_low,
            a.ci_high,
            b.ci_low,
            b.ci_high
        );
        assert!((b.estimate / a.estimate - 1.10).abs() < 0.002);
    }
}

#[test]
#[ignore = "issue 42 study: 100 simulated 30-run series (the pool of 300 runs takes ~15 min on 2 busy cores the first time)"]
fn simulator_steps() {
    let pool = pool();
    let low = pool.iter().flatten().filter(|p| p.grade == "LOW").count();
    eprintln!("{} series of {SIM_RUNS} runs; {} of {} runs graded LOW", pool.len(), low, pool.len() * SIM_RUNS);
    let (mut ten, mut five, mut null_any, mut ten_regression) = (0, 0, 0, 0);
    for (s, series) in pool.iter().enumerate() {
        let o = sim_history_options(s as u64);
        let h10 = history(&with_effect(series, |i| if i >= 20 { 1.10 } else { 1.0 }), &o);
        ten += usize::from(change_indices(&h10).iter().any(|i| (19..=21).contains(i)));
        ten_regression += usize::from(h10.newest.as_ref().is_some_and(|n| !n.regressions.is_empty()));
        let h5 = history(&with_effect(series, |i| if i >= 20 { 1.05 } else { 1.0 }), &o);
        five += usize::from(change_indices(&h5).iter().any(|i| (19..=21).contains(i)));
        null_any += usize::from(!history(series, &o).change_points.is_empty());
    }
    let n = pool.len();
    eprintln!("+10 % step at run 20 found at 20 ± 1: {}; newest segment a regression (τ = 5 %): {}", rate(ten, n), rate(ten_regression, n));
    eprintln!("+5 % step at run 20 found at 20 ± 1: {}", rate(five, n));
    eprintln!("no change: a change point in {}", rate(null_any, n));
    assert!(ten as f64 >= 0.9 * n as f64 && five as f64 >= 0.5 * n as f64 && null_any as f64 <= 0.05 * n as f64);
}

#[test]
#[ignore = "issue 42 study: +8 % from run 10 to 19, then back, on 100 simulated 30-run series"]
fn simulator_step_and_fix() {
    let pool = pool();
    let (mut both, mut first, mut second) = (0, 0, 0);
    for (s, series) in pool.iter().enumerate() {
        let h = history(&with_effect(series, |i| if (10..20).contains(&i) { 1.08 } else { 1.0 }), &sim_history_options(s as u64));
        let cps = change_indices(&h);
        let (a, b) = (cps.iter().any(|i| (9..=11).contains(i)), cps.iter().any(|i| (19..=21).contains(i)));
        (first, second, both) = (first + usize::from(a), second + usize::from(b), both + usize::from(a && b));
    }
    let n = pool.len();
    eprintln!("+8 % from run 10 to 19, then back: regression at 10 ± 1 {}, fix at 20 ± 1 {}, both {}", rate(first, n), rate(second, n), rate(both, n));
    assert!(both as f64 >= 0.8 * n as f64);
}

#[test]
#[ignore = "issue 42 study: drift reported on 100 simulated no-change series, and a 0 → +10 % drift"]
fn simulator_drift() {
    let pool = pool();
    let (mut reported, mut significant, mut ramp_worse) = (0, 0, 0);
    for (s, series) in pool.iter().enumerate() {
        let o = sim_history_options(s as u64);
        let d = &history(series, &o).drift[0];
        reported += usize::from(d.verdict == DriftVerdict::Drift);
        significant += usize::from(matches!(d.verdict, DriftVerdict::Drift | DriftVerdict::WithinNoise));
        let ramp = history(&with_effect(series, |i| 1.0 + 0.10 * i as f64 / (SIM_RUNS - 1) as f64), &o);
        ramp_worse += usize::from(ramp.newest.as_ref().is_some_and(|n| !n.drifts.is_empty()));
    }
    let n = pool.len();
    eprintln!("no change: drift reported as worse/better {}; a significant trend (Mann–Kendall p < 0.05) {}", rate(reported, n), rate(significant, n));
    eprintln!("0 → +10 % drift over 30 runs: worse beyond ±5 % (what --fail-on drift pages on) {}", rate(ramp_worse, n));
    assert!(reported as f64 <= 0.05 * n as f64);
}

/// Writes, for `benches/history_side_by_side.sh`, credence's history JSON of 40 series per
/// scenario (no change, +10 % and +5 % steps at run 20, +8 % from 10 to 19, 0 → +10 % drift)
/// to $HISTORY_SIDE_BY_SIDE_OUT (one file per series).
#[test]
#[ignore = "export for benches/history_side_by_side.sh"]
fn export_simulated_series() {
    let Ok(out) = std::env::var("HISTORY_SIDE_BY_SIDE_OUT") else { panic!("set HISTORY_SIDE_BY_SIDE_OUT") };
    std::fs::create_dir_all(&out).unwrap();
    let pool = pool();
    type Factor = fn(usize) -> f64;
    let scenarios: [(&str, Factor); 5] = [
        ("none", |_| 1.0),
        ("step10", |i| if i >= 20 { 1.10 } else { 1.0 }),
        ("step5", |i| if i >= 20 { 1.05 } else { 1.0 }),
        ("fix8", |i| if (10..20).contains(&i) { 1.08 } else { 1.0 }),
        ("drift10", |i| 1.0 + 0.10 * i as f64 / 29.0),
    ];
    let series_per = std::env::var("HISTORY_SIDE_BY_SIDE_SERIES").ok().and_then(|v| v.parse().ok()).unwrap_or(40usize).min(pool.len());
    for (name, factor) in scenarios {
        for (s, series) in pool.iter().take(series_per).enumerate() {
            let h = history(&with_effect(series, factor), &sim_history_options(s as u64));
            std::fs::write(format!("{out}/{name}-{s:03}.json"), serde_json::to_string(&h).unwrap()).unwrap();
        }
    }
}
