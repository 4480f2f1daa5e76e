//! Conditions study (issue 18), on the simulator with fixed seeds:
//! - coverage: in the thermal-throttle, power-cap, foreign-process and client-saturation
//!   scenarios, do the clean intervals of P50 and P99 TTFT cover the undisturbed truth? Each
//!   scenario gets its own seeds (the same seed would replay the same workload and noise in
//!   all four, and count one draw four times). For reference, the as-measured intervals of
//!   undisturbed (`steady`) runs on the same seeds.
//! - A/B: a true +10 % TTFT effect with a throttle episode in the candidate: is the clean
//!   verdict "regression"? For reference, the same pairs with an undisturbed candidate.
//! - A/A: an episode in one arm only: is the clean verdict never a change?
//! - warmup: a slowly decaying warmup with a randomly placed throttle episode. When the episode
//!   lies clear of the warmup's end, is the cut where the same run without the episode has it,
//!   within max(5 s, 10 %) (the episode does not move it)? When that point falls inside the
//!   excluded episode, it cannot be placed; then the window must not start before it or before
//!   the episode's excluded end (the episode does not hide the warmup); a later start (the
//!   backlog an episode leaves can take a while to drain) is printed, not failed. The end counts
//!   as found whatever the run is classified; how many runs also kept their steady state (the
//!   drift check on the shorter clean window can demote one) and the distance to the
//!   simulator's end of the warmup are printed beside it.
//!
//! `conditions_fast` runs a few seeds in CI; the three `conditions_full_*` (ignored) are the
//! study whose numbers docs/method.md quotes. `CONDITIONS_SEEDS` sets their seeds per part.

use credence::analyze::compare::verdict::Verdict;
use credence::analyze::compare::{ArmRun, CompareOptions, compare};
use credence::analyze::conditions::{clean, excluded_spans};
use credence::analyze::requests::RequestView;
use credence::analyze::steady::Classification;
use credence::analyze::{Analysis, AnalyzeOptions, Status, analyze};
use credence::run::Run;
use credence::simulate::{Effect, EffectMetric, Scenario, SimOptions, Truth, simulate};

/// Coverage and warmup runs: the simulator's default 5 minutes at 20 requests/s.
const DURATION_S: f64 = 300.0;

/// The coverage study's run length: `CONDITIONS_DURATION_S` seconds (default 5 minutes).
fn coverage_duration_s() -> f64 {
    std::env::var("CONDITIONS_DURATION_S").ok().and_then(|v| v.parse().ok()).unwrap_or(DURATION_S)
}
/// A/B and A/A runs: 20 minutes. The test is about the clean verdict, not about power, so the
/// runs must be long enough for an undisturbed pair to decide +10 % at τ = 5 % nearly always:
/// at 8 minutes (20 requests/s) the undisturbed candidate was called a regression in 35 of 40
/// pairs and the clean verdict in 29 (its change unbiased, +10.3 % ± 1.9 %, but from the 75 %
/// of the candidate left after the episode); at 12 minutes in 36 and 34 of 40.
const PAIR_DURATION_S: f64 = 1200.0;

/// The study's pair run length: `CONDITIONS_PAIR_DURATION_S` seconds (default `PAIR_DURATION_S`).
fn pair_duration_s() -> f64 {
    std::env::var("CONDITIONS_PAIR_DURATION_S").ok().and_then(|v| v.parse().ok()).unwrap_or(PAIR_DURATION_S)
}
const COVERAGE_SCENARIOS: [Scenario; 4] = [Scenario::ThermalThrottle, Scenario::PowerCap, Scenario::ForeignProcess, Scenario::ClientSaturation];

/// One simulated run, analyzed: the run (for compare's request view), its analysis and truth.
struct Analyzed {
    run: Run,
    view: RequestView,
    analysis: Analysis,
    truth: Truth,
}

fn options(scenario: Scenario, seed: u64, duration_s: f64) -> SimOptions {
    let mut o = SimOptions::new(scenario, seed);
    o.duration_s = duration_s;
    o.compute_truth = false;
    o
}

fn analyzed(o: &SimOptions, resamples: usize) -> Analyzed {
    let sim = simulate(o).unwrap();
    let d = sim.data;
    let run = Run { dir: "sim".into(), manifest: d.manifest, requests: d.requests, gpu: d.gpu, host: d.host, server: d.server, warnings: Vec::new() };
    let analysis = analyze(&run, &AnalyzeOptions { resamples, seed: o.seed, ..AnalyzeOptions::default() });
    let view = RequestView::from_table(&run.requests);
    Analyzed { run, view, analysis, truth: sim.truth }
}

#[derive(Default, Debug)]
struct Coverage {
    runs: usize,
    with_clean: usize,
    /// P50, P99: two-sided clean intervals, and those covering the truth.
    two_sided: [usize; 2],
    covered: [usize; 2],
    /// The same for the as-measured intervals of undisturbed runs on the same seeds.
    steady_two_sided: [usize; 2],
    steady_covered: [usize; 2],
}

/// Tallies one estimate against its target: (two-sided, covered).
fn tally(e: &credence::analyze::estimate::Estimate, target: f64) -> (usize, usize) {
    if e.status != Status::Ok {
        return (0, 0);
    }
    (1, usize::from(e.ci_low.unwrap() <= target && target <= e.ci_high.unwrap()))
}

fn coverage(seeds: &[u64], resamples: usize, with_reference: bool) -> Coverage {
    let duration_s = coverage_duration_s();
    let truth = credence::simulate::true_percentiles(&options(Scenario::Steady, 0, duration_s)).0.ttft;
    let targets = [truth.p50, truth.p99];
    let mut c = Coverage::default();
    for (k, scenario) in COVERAGE_SCENARIOS.into_iter().enumerate() {
        for &seed in seeds {
            let seed = seed + 10_000 * k as u64;
            if with_reference {
                let a = analyzed(&options(Scenario::Steady, seed, duration_s), resamples).analysis;
                for (i, key) in ["p50", "p99"].into_iter().enumerate() {
                    let (two, hit) = tally(&a.metrics["ttft"][key], targets[i]);
                    c.steady_two_sided[i] += two;
                    c.steady_covered[i] += hit;
                }
            }
            let a = analyzed(&options(scenario, seed, duration_s), resamples).analysis;
            c.runs += 1;
            let Some(cl) = clean(&a.conditions) else {
                eprintln!("{scenario} seed {seed}: no clean condition");
                continue;
            };
            c.with_clean += 1;
            for (i, key) in ["p50", "p99"].into_iter().enumerate() {
                let e = &cl.metrics["ttft"][key];
                let (two, hit) = tally(e, targets[i]);
                c.two_sided[i] += two;
                c.covered[i] += hit;
                if two == 1 && hit == 0 {
                    eprintln!(
                        "{scenario} seed {seed}: clean {key} [{:.2}, {:.2}] misses the truth {:.2} ({:.0} s clean, {} requests)",
                        e.ci_low.unwrap(),
                        e.ci_high.unwrap(),
                        targets[i],
                        cl.duration_s,
                        cl.requests
                    );
                }
            }
        }
    }
    eprintln!(
        "coverage: {} runs, {} with a clean condition; clean P50 {}/{} covered, P99 {}/{}; undisturbed as measured P50 {}/{}, P99 {}/{}",
        c.runs,
        c.with_clean,
        c.covered[0],
        c.two_sided[0],
        c.covered[1],
        c.two_sided[1],
        c.steady_covered[0],
        c.steady_two_sided[0],
        c.steady_covered[1],
        c.steady_two_sided[1]
    );
    c
}

fn arm<'a>(x: &'a Analyzed, name: &str) -> ArmRun<'a> {
    ArmRun { name: name.into(), manifest: &x.run.manifest, view: &x.view, analysis: &x.analysis }
}

/// P50 TTFT verdicts of one pair: clean (when the candidate has a clean condition) and as measured.
fn verdicts(base: &Analyzed, cand: &Analyzed, resamples: usize) -> (Option<Verdict>, Verdict, f64) {
    let o = CompareOptions {
        tolerance: 0.05,
        per_metric_tolerance: Default::default(),
        resamples,
        seed: 1,
        allow_workload_mismatch: true,
        order: None,
        ..Default::default()
    };
    let cmp = compare(&[arm(base, "base")], &[arm(cand, "cand")], &o);
    let measured = &cmp.metrics["ttft_p50"];
    let cl = cmp.clean.as_ref().map(|c| &c.metrics["ttft_p50"]);
    (cl.map(|m| m.verdict), measured.verdict, cl.map_or(f64::NAN, |m| m.change.estimate))
}

/// The pairs part: for each seed, a steady base against (a) a throttled candidate with +10 %
/// TTFT, (b) an undisturbed candidate with +10 % (reference), (c) a throttled candidate without
/// an effect (A/A).
#[derive(Default, Debug)]
struct Pairs {
    pairs: usize,
    /// A/B: clean verdicts "regression"; pairs without a clean section.
    ab_clean_regression: usize,
    ab_no_clean: usize,
    ab_measured_regression: usize,
    /// Reference: undisturbed candidate with the effect, as measured.
    reference_regression: usize,
    /// A/A: clean verdicts that are no change (neither regression nor improvement).
    aa_clean_no_change: usize,
    aa_no_clean: usize,
    aa_measured_no_change: usize,
}

fn is_change(v: Verdict) -> bool {
    matches!(v, Verdict::Regression | Verdict::Improvement)
}

fn pairs(seeds: &[u64], resamples: usize, duration_s: f64) -> Pairs {
    let effect = Some(Effect { metric: EffectMetric::Ttft, relative: 0.10 });
    let mut p = Pairs::default();
    for &seed in seeds {
        let base = analyzed(&options(Scenario::Steady, seed, duration_s), resamples);
        let with_effect = |scenario| analyzed(&SimOptions { effect, ..options(scenario, seed + 50_000, duration_s) }, resamples);
        let (ab_clean, ab_measured, ab_change) = verdicts(&base, &with_effect(Scenario::ThermalThrottle), resamples);
        let (_, reference, _) = verdicts(&base, &with_effect(Scenario::Steady), resamples);
        let (aa_clean, aa_measured, aa_change) =
            verdicts(&base, &analyzed(&options(Scenario::ThermalThrottle, seed + 60_000, duration_s), resamples), resamples);
        p.pairs += 1;
        p.ab_clean_regression += usize::from(ab_clean == Some(Verdict::Regression));
        p.ab_no_clean += usize::from(ab_clean.is_none());
        p.ab_measured_regression += usize::from(ab_measured == Verdict::Regression);
        p.reference_regression += usize::from(reference == Verdict::Regression);
        p.aa_clean_no_change += usize::from(aa_clean.is_some_and(|v| !is_change(v)));
        p.aa_no_clean += usize::from(aa_clean.is_none());
        p.aa_measured_no_change += usize::from(!is_change(aa_measured));
        eprintln!(
            "pair {seed}: A/B clean {ab_clean:?} {ab_change:+.3}, as measured {ab_measured:?}; undisturbed {reference:?}; A/A clean {aa_clean:?} {aa_change:+.3}, as measured {aa_measured:?}"
        );
    }
    eprintln!("pairs: {p:?}");
    p
}

#[derive(Default, Debug)]
struct Warmups {
    runs: usize,
    /// Warmup end where expected: as without the episode, or not before the episode hiding it
    /// ended (the target).
    end_found: usize,
    /// Of those, runs that also kept a steady state the run without the episode has.
    as_expected: usize,
    /// Runs called `no_steady_state` with the episode, and without it (the drift check on the
    /// shorter clean window, and PELT's late-level rule).
    no_steady_with: usize,
    no_steady_without: usize,
    /// Runs whose reference cut falls inside the excluded episode, and of those the seconds the
    /// window starts after the episode's excluded end.
    hidden: usize,
    hidden_delay_s: Vec<f64>,
    /// Within max(5 s, 10 %) of the simulator's end of the warmup, with and without the episode.
    near_truth: usize,
    reference_near_truth: usize,
    /// Runs where the thermal episode was attributed.
    throttle_found: usize,
}

/// Warmup ends with an episode present, against the same runs without it.
fn warmups(seeds: &[u64], resamples: usize) -> Warmups {
    let mut w = Warmups::default();
    for &seed in seeds {
        let o = options(Scenario::WarmupThrottle, seed, DURATION_S);
        let with = analyzed(&o, resamples);
        let without = analyzed(&SimOptions { episode: false, ..o }, resamples).analysis;
        let (found, reference) = (with.analysis.steady_state.start_s, without.steady_state.start_s);
        let tolerance = (5.0f64).max(0.1 * reference);
        // A warmup end inside an excluded episode cannot be placed: the window starts after it.
        let spans = excluded_spans(&with.analysis.findings, with.analysis.options.window_s);
        let hiding = spans.iter().find(|s| s.start_s <= reference && reference < s.end_s);
        let expected = hiding.map_or(reference, |s| s.end_s);
        let steady_lost =
            with.analysis.steady_state.classification == Classification::NoSteadyState && without.steady_state.classification != Classification::NoSteadyState;
        let end_found = match hiding {
            None => (found - reference).abs() <= tolerance,
            Some(_) => found >= expected - tolerance,
        };
        let ok = !steady_lost && end_found;
        if hiding.is_some() {
            w.hidden_delay_s.push(found - expected);
        }
        let truth_end = with.truth.warmup_end_s;
        let truth_tolerance = (5.0f64).max(0.1 * truth_end);
        let episode = with.truth.anomalies.first().map(|a| (a.start_s, a.end_s)).unwrap_or_default();
        let throttle =
            with.analysis.findings.iter().any(|f| f.cause == "thermal_throttle" && f.episodes.iter().any(|e| e.start_s < episode.1 && e.end_s > episode.0));
        w.runs += 1;
        w.as_expected += usize::from(ok);
        w.end_found += usize::from(end_found);
        w.no_steady_with += usize::from(with.analysis.steady_state.classification == Classification::NoSteadyState);
        w.no_steady_without += usize::from(without.steady_state.classification == Classification::NoSteadyState);
        w.hidden += usize::from(hiding.is_some());
        w.near_truth += usize::from((found - truth_end).abs() <= truth_tolerance);
        w.reference_near_truth += usize::from((reference - truth_end).abs() <= truth_tolerance);
        w.throttle_found += usize::from(throttle);
        eprintln!(
            "warmup seed {seed}: found {found:.1} s ({:?}), without the episode {reference:.1} s ({:?}), expected {expected:.1} s{}; episode {:.0}–{:.0} s; {}",
            with.analysis.steady_state.classification,
            without.steady_state.classification,
            if hiding.is_some() { " (inside the episode)" } else { "" },
            episode.0,
            episode.1,
            match (end_found, ok) {
                (_, true) => "ok",
                (true, false) => "end found, steady state lost",
                _ => "MISSED",
            }
        );
    }
    eprintln!("warmups: {w:?}");
    w
}

fn share(k: usize, of: usize) -> f64 {
    k as f64 / of.max(1) as f64
}

#[test]
fn conditions_fast() {
    // Two seeds per scenario: 8 clean intervals each for P50 and P99; at a true 95 %, 2 misses
    // of 8 happen in 5 % of draws, so at most one is allowed.
    let c = coverage(&[1, 2], 499, false);
    assert_eq!(c.with_clean, c.runs, "every disturbed run should have a clean condition");
    assert!(c.two_sided[0] >= 7 && c.covered[0] + 1 >= c.two_sided[0], "clean P50 TTFT coverage: {c:?}");
    assert!(c.two_sided[1] >= 7 && c.covered[1] + 1 >= c.two_sided[1], "clean P99 TTFT coverage: {c:?}");
    let p = pairs(&[1, 2, 3], 499, PAIR_DURATION_S);
    assert!(p.ab_clean_regression >= 2, "clean A/B verdicts: {p:?}");
    assert_eq!(p.aa_clean_no_change, p.pairs, "clean A/A verdicts: {p:?}");
    let w = warmups(&[1, 2, 3], 499);
    assert!(w.as_expected >= 2, "warmup cuts: {w:?}");
}

/// The full study's seeds: `CONDITIONS_SEEDS` of them (default 25), from 100.
fn study_seeds() -> Vec<u64> {
    let n: u64 = std::env::var("CONDITIONS_SEEDS").ok().and_then(|v| v.parse().ok()).unwrap_or(25);
    (100..100 + n).collect()
}

#[test]
#[ignore = "the full study takes many minutes; run with --ignored"]
fn conditions_full_coverage() {
    let seeds = study_seeds();
    let c = coverage(&seeds, 999, true);
    let (p50, p99) = (share(c.covered[0], c.two_sided[0]), share(c.covered[1], c.two_sided[1]));
    eprintln!(
        "STUDY coverage ({} seeds per scenario, {} runs of {} s): clean P50 {p50:.3} ({}/{}), P99 {p99:.3} ({}/{}); undisturbed as measured P50 {:.3} ({}/{}), P99 {:.3} ({}/{})",
        seeds.len(),
        c.runs,
        coverage_duration_s(),
        c.covered[0],
        c.two_sided[0],
        c.covered[1],
        c.two_sided[1],
        share(c.steady_covered[0], c.steady_two_sided[0]),
        c.steady_covered[0],
        c.steady_two_sided[0],
        share(c.steady_covered[1], c.steady_two_sided[1]),
        c.steady_covered[1],
        c.steady_two_sided[1]
    );
    assert!((0.92..=0.98).contains(&p50) && (0.92..=0.98).contains(&p99), "clean coverage outside 92–98 %");
}

#[test]
#[ignore = "the full study takes many minutes; run with --ignored"]
fn conditions_full_pairs() {
    let seeds = study_seeds();
    let p = pairs(&seeds, 999, pair_duration_s());
    let (ab, aa) = (share(p.ab_clean_regression, p.pairs), share(p.aa_clean_no_change, p.pairs));
    eprintln!(
        "STUDY pairs ({} pairs of {} s runs): A/B clean regression {ab:.3} ({}/{}), as measured {:.3}, undisturbed candidate {:.3}; A/A clean no change {aa:.3} ({}/{}), as measured {:.3}",
        p.pairs,
        pair_duration_s(),
        p.ab_clean_regression,
        p.pairs,
        share(p.ab_measured_regression, p.pairs),
        share(p.reference_regression, p.pairs),
        p.aa_clean_no_change,
        p.pairs,
        share(p.aa_measured_no_change, p.pairs)
    );
    // The clean verdict must recover what the same candidate shows undisturbed (within 10
    // points), and never call A/A pairs a change. With one run per arm, how often either calls
    // a +10 % change against 5 % is compare's single-run power, which since issue 42 carries
    // the prior's run-to-run noise (about ±3.8 %): 60-70 % at 20 minutes, not the 100 % an
    // interval without run-to-run noise claimed.
    let reference = share(p.reference_regression, p.pairs);
    assert!(ab >= reference - 0.10 && aa >= 0.95, "see the numbers above");
}

#[test]
#[ignore = "the full study takes many minutes; run with --ignored"]
fn conditions_full_warmup() {
    let seeds = study_seeds();
    let w = warmups(&seeds, 999);
    let found = share(w.end_found, w.runs);
    let mut delays = w.hidden_delay_s.clone();
    delays.sort_by(f64::total_cmp);
    eprintln!(
        "STUDY warmup ({} runs): warmup end found {found:.3} ({}/{}: where the run without the episode has it, within max(5 s, 10 %), or, in the {} runs whose end lies inside the episode, not before its excluded end; windows starting {:?} s after it); steady state also kept {:.3} ({}/{}); no_steady_state with the episode {}, without {}; within max(5 s, 10 %) of the simulator's end of the warmup {:.3}, without the episode {:.3}; throttle attributed {}/{}",
        w.runs,
        w.end_found,
        w.runs,
        w.hidden,
        delays.iter().map(|d| d.round()).collect::<Vec<_>>(),
        share(w.as_expected, w.runs),
        w.as_expected,
        w.runs,
        w.no_steady_with,
        w.no_steady_without,
        share(w.near_truth, w.runs),
        share(w.reference_near_truth, w.runs),
        w.throttle_found,
        w.runs
    );
    assert!(found >= 0.90, "see the numbers above");
}
