//! Capacity found, measured against the truth. The simulator's engine (continuous batching,
//! 16 slots, the same model as `overload_sim`) is run very long at a fine grid of offered rates:
//! the rate where the pooled P90 TTFT crosses the objective is the true capacity at that SLO.
//! Then capacity searches (`credence simulate --find-capacity`'s code: the search, the
//! monitor deciding each step against the threshold, the curve's inversion) run over many
//! seeds, and the study records how far each capacity lies from the truth, whether its interval
//! covers it, and the simulated time the search took against a fixed grid at the same
//! precision (`CAPACITY_SEEDS` seeds, 40 by default, in the ignored study; 3 in CI).

use rayon::prelude::*;

use credence::analyze::capacity::search::SearchPlan;
use credence::analyze::capacity::{Capacity, Finding};
use credence::analyze::requests::RequestView;
use credence::ops::bench::capacity::{CapacityPlan, find_capacity};
use credence::ops::bench::sweep::SweepParameter;
use credence::ops::capacity_sim::SimSource;
use credence::simulate::{ArrivalProcess, Scenario, SimOptions, simulate};

const SLO: &str = "ttft_p90=500ms";
const THRESHOLD_MS: f64 = 500.0;
const MAX_BATCH: u32 = 16;

fn base(seed: u64) -> SimOptions {
    let mut o = SimOptions::new(Scenario::Steady, seed);
    o.compute_truth = false;
    o.engine.max_batch = MAX_BATCH;
    o
}

/// P90 TTFT of the successful requests after the first minute, pooled over `seeds` runs of
/// `seconds` at `rate`.
fn long_run_p90(rate: f64, seeds: std::ops::Range<u64>, seconds: f64) -> f64 {
    let mut ttft: Vec<f64> = seeds
        .into_par_iter()
        .flat_map_iter(|seed| {
            let mut o = base(10_000 + seed);
            (o.duration_s, o.arrival) = (seconds, ArrivalProcess::Poisson { rate });
            let v = RequestView::from_table(&simulate(&o).unwrap().data.requests);
            (0..v.len()).filter(|&i| v.ok[i] && v.sent_s[i] >= 60.0).map(|i| v.ttft_ms[i]).collect::<Vec<_>>()
        })
        .collect();
    ttft.sort_by(f64::total_cmp);
    ttft[(0.9 * (ttft.len() - 1) as f64).round() as usize]
}

/// The true capacity at the SLO: the crossing of the long runs' P90 TTFT, interpolated in log
/// rate on a grid of 1 % steps.
fn true_capacity() -> f64 {
    let (mut rate, mut before) = (4.0, long_run_p90(4.0, 0..4, 3600.0));
    loop {
        let next = rate * 1.01;
        let p90 = long_run_p90(next, 0..4, 3600.0);
        if p90 > THRESHOLD_MS {
            let f = (THRESHOLD_MS - before) / (p90 - before);
            return (rate.ln() + f * (next.ln() - rate.ln())).exp();
        }
        (rate, before) = (next, p90);
        assert!(rate < 20.0, "no crossing below 20/s");
    }
}

fn plan(seed: u64) -> CapacityPlan {
    let search = SearchPlan { start: 2.0, precision: 0.05, factor: 2.0, lowest: 2.0 / 64.0, highest: 2.0 * 4096.0, whole: false, max_steps: 24 };
    let objectives = credence::analyze::slo::parse(SLO).unwrap();
    CapacityPlan {
        search,
        parameter: SweepParameter::Rate,
        objectives,
        slo: SLO.into(),
        max_step_s: 600.0,
        min_step_s: 60.0,
        fixed_step_s: None,
        max_total_s: 3.0 * 3600.0,
        seed,
    }
}

/// One search: its capacity and the simulated seconds its steps ran.
fn search(seed: u64) -> (Capacity, f64) {
    let dir = std::env::temp_dir().join(format!("credence-capacity-study-{}-{seed}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut source = SimSource { base: base(seed) };
    let (capacity, _) = find_capacity(&plan(seed), &mut source, &dir, credence_messages::Lang::En).unwrap();
    let record: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("capacity.json")).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (capacity, record["load_seconds"].as_f64().unwrap())
}

struct Summary {
    within_5: usize,
    covered: usize,
    found: usize,
    seconds: Vec<f64>,
    steps: Vec<usize>,
}

fn study(seeds: u64) -> (f64, Summary) {
    let truth = std::env::var("CAPACITY_TRUTH").ok().and_then(|t| t.parse().ok()).unwrap_or_else(true_capacity);
    let results: Vec<(Capacity, f64)> = (1..=seeds).into_par_iter().map(search).collect();
    let mut s = Summary { within_5: 0, covered: 0, found: 0, seconds: Vec::new(), steps: Vec::new() };
    for (c, seconds) in &results {
        let e = &c.capacity;
        eprintln!("capacity {:?} [{:?}, {:?}] ({} steps, {:.0} s)", e.estimate, e.ci_low, e.ci_high, c.steps.len(), seconds);
        if std::env::var("CAPACITY_TRACE").is_ok() && !e.estimate.is_some_and(|x| (x / truth - 1.0).abs() <= 0.05) {
            for st in &c.steps {
                let o = &st.objectives[0].estimate;
                eprintln!("    {:.3} {:?} over={} p90 {:?} [{:?}, {:?}] thr {:?}", st.load, st.outcome, st.overloaded, o.estimate, o.ci_low, o.ci_high, st.throughput.estimate);
            }
        }
        s.found += usize::from(c.finding == Finding::Found);
        s.within_5 += usize::from(e.estimate.is_some_and(|x| (x / truth - 1.0).abs() <= 0.05));
        s.covered += usize::from(e.ci_low.is_some_and(|lo| lo <= truth) && e.ci_high.is_some_and(|hi| truth <= hi));
        s.seconds.push(*seconds);
        s.steps.push(c.steps.len());
    }
    (truth, s)
}

/// A fixed grid at the same precision over the same range: 5 % steps from the start (2/s) to
/// the first overloaded rate's double, each 10 minutes, three runs per point (vLLM's `sweep
/// serve` default).
fn grid_seconds(truth: f64) -> f64 {
    let points = ((2.0 * truth / 2.0).ln() / 1.05f64.ln()).ceil();
    points * 3.0 * 600.0
}

fn report(seeds: u64) -> (f64, Summary) {
    let (truth, s) = study(seeds);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let steps: Vec<f64> = s.steps.iter().map(|x| *x as f64).collect();
    eprintln!(
        "true capacity at {SLO}: {truth:.3}/s; {} of {seeds} found; within ±5 %: {}; interval covers: {}; mean {:.1} steps, {:.0} s of load (grid: {:.0} s)",
        s.found,
        s.within_5,
        s.covered,
        mean(&steps),
        mean(&s.seconds),
        grid_seconds(truth)
    );
    (truth, s)
}

/// CI's share: three searches, each finding a capacity near the truth.
#[test]
fn searches_find_the_capacity_near_the_truth() {
    let (_, s) = report(3);
    assert_eq!(s.found, 3);
    assert!(s.within_5 >= 2 && s.covered >= 2, "within ±5 %: {}, covered: {}", s.within_5, s.covered);
}

#[test]
#[ignore = "a trace of one search: CAPACITY_SEED"]
fn capacity_trace() {
    let seed = std::env::var("CAPACITY_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let (c, _) = search(seed);
    for st in &c.steps {
        let o = &st.objectives[0].estimate;
        eprintln!("    {:.3} {:?} over={} p90 {:?} [{:?}, {:?}]", st.load, st.outcome, st.overloaded, o.estimate, o.ci_low, o.ci_high);
    }
}

#[test]
#[ignore = "the study: CAPACITY_SEEDS searches (40 by default)"]
fn capacity_study() {
    let seeds = std::env::var("CAPACITY_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(40);
    let (_, s) = report(seeds);
    let n = seeds as usize;
    assert!(s.within_5 * 10 >= n * 9, "within ±5 % in {} of {n}", s.within_5);
    assert!(s.covered * 10 >= n * 9, "covered in {} of {n}", s.covered);
}
