//! Coverage study: across simulated steady runs, do the 95 % intervals for P50 and P99 TTFT
//! cover the true value (from the generating model, not the sample) about 95 % of the time?
//! The naive i.i.d. order-statistic interval on the same autocorrelated data is computed for
//! comparison. `coverage_fast` runs in CI; `coverage_full` (ignored) runs 300 seeds.

use credence::analyze::{AnalyzeOptions, Status, analyze};
use credence::run::Run;
use credence::simulate::{Scenario, SimOptions, simulate};
use credence::stats::order_ci::{Alternative, order_statistic_indices};

struct Tally {
    runs: usize,
    two_sided: [usize; 2],
    covered: [usize; 2],
    naive_covered: [usize; 2],
}

fn study(seeds: std::ops::Range<u64>, resamples: usize) -> Tally {
    let mut base = SimOptions::new(Scenario::Steady, 0);
    base.duration_s = 300.0;
    let truth = credence::simulate::true_percentiles(&base).0.ttft;
    let targets = [truth.p50, truth.p99];
    let mut t = Tally { runs: 0, two_sided: [0; 2], covered: [0; 2], naive_covered: [0; 2] };
    for seed in seeds {
        let mut o = base.clone();
        o.seed = seed;
        o.compute_truth = false;
        let sim = simulate(&o).unwrap();
        let run =
            Run { dir: "sim".into(), manifest: sim.data.manifest, requests: sim.data.requests, gpu: None, host: None, server: None, warnings: Vec::new() };
        let a = analyze(&run, &AnalyzeOptions { resamples, ..AnalyzeOptions::default() });
        t.runs += 1;
        // Naive: all TTFTs of the steady window as if independent.
        let ttft = credence::analyze::requests::RequestView::from_table(&run.requests).ttft_ms;
        let mut v: Vec<f64> = ttft[a.steady_state.start_request..a.steady_state.end_request].iter().copied().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        if std::env::var("COVERAGE_DEBUG").is_ok() {
            let e = &a.metrics["ttft"]["p99"];
            eprintln!(
                "seed {seed}: p99 {:.2} [{:.2}, {:.2}] truth {:.2} start {} n_eff {:?} {:?}",
                e.estimate.unwrap_or(f64::NAN),
                e.ci_low.unwrap_or(f64::NAN),
                e.ci_high.unwrap_or(f64::NAN),
                targets[1],
                a.steady_state.start_s,
                e.n_eff,
                a.steady_state.classification
            );
        }
        for (k, (key, p)) in [("p50", 0.5), ("p99", 0.99)].into_iter().enumerate() {
            let e = &a.metrics["ttft"][key];
            if e.status == Status::Ok {
                t.two_sided[k] += 1;
                if e.ci_low.unwrap() <= targets[k] && targets[k] <= e.ci_high.unwrap() {
                    t.covered[k] += 1;
                }
            }
            let idx = order_statistic_indices(v.len(), p, 0.95, Alternative::TwoSided).unwrap();
            if let (Some(lo), Some(hi)) = (idx.lo, idx.hi)
                && v[lo] <= targets[k]
                && targets[k] <= v[hi]
            {
                t.naive_covered[k] += 1;
            }
        }
    }
    t
}

fn report(t: &Tally) -> [f64; 4] {
    let r = |a: usize, b: usize| a as f64 / b.max(1) as f64;
    let out = [r(t.covered[0], t.two_sided[0]), r(t.covered[1], t.two_sided[1]), r(t.naive_covered[0], t.runs), r(t.naive_covered[1], t.runs)];
    eprintln!(
        "runs {}: P50 coverage {:.3} ({} two-sided), P99 coverage {:.3} ({} two-sided); naive i.i.d. P50 {:.3}, P99 {:.3}",
        t.runs, out[0], t.two_sided[0], out[1], t.two_sided[1], out[2], out[3]
    );
    out
}

#[test]
fn coverage_fast() {
    let t = study(1000..1030, 499);
    let [p50, p99, naive50, naive99] = report(&t);
    // 30 fixed seeds: at a true 92 %, fewer than 24 covered happens with probability ~3 %.
    assert!(p50 >= 0.80 && p99 >= 0.80, "coverage too low: {p50} {p99}");
    assert!(naive50 < p50 || naive99 < p99, "the naive interval should under-cover");
    assert!(t.two_sided[1] >= 25, "most runs should support a two-sided P99");
}

#[test]
#[ignore = "the full 300-run study takes minutes; run with --ignored"]
fn coverage_full() {
    let t = study(2000..2300, 999);
    let [p50, p99, naive50, naive99] = report(&t);
    assert!((0.92..=0.98).contains(&p50), "P50 coverage {p50}");
    assert!((0.92..=0.98).contains(&p99), "P99 coverage {p99}");
    assert!(naive50 < p50 && naive99 < p99);
}
