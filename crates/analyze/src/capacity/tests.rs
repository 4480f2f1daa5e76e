use super::search::{Ended, Next, SearchPlan};
use super::*;

/// A step at `load` whose one objective (`ttft_p99`, threshold 500 ms) has `p99` with the
/// interval ±`rel` (relative), its verdict decided by the interval.
fn step(load: f64, p99: f64, rel: f64, overloaded: bool) -> Step {
    let e = Estimate::two_sided(p99, (p99 * (1.0 - rel), p99 * (1.0 + rel)), 0.95, Method::OrderStatistic, 1000);
    let verdict = match (e.ci_low.unwrap(), e.ci_high.unwrap()) {
        (_, hi) if hi <= 500.0 => "met",
        (lo, _) if lo > 500.0 => "violated",
        _ => "undecided",
    };
    let objective = Objective { key: "ttft_p99".into(), threshold_ms: 500.0, estimate: e, verdict: verdict.into(), within_share: None };
    let outcome = match verdict {
        _ if overloaded => Outcome::Violated,
        "met" => Outcome::Met,
        "violated" => Outcome::Violated,
        _ => Outcome::Undecided,
    };
    let throughput = Estimate::two_sided(load.min(20.0), (load.min(20.0) * 0.98, load.min(20.0) * 1.02), 0.95, Method::StationaryBootstrap, 1000);
    Step { load, outcome, overloaded, objectives: vec![objective], throughput, goodput: None, attainment: None, run: format!("step-{load}") }
}

/// A server whose P99 TTFT is 100 ms · e^(load/10): 500 ms at 10·ln 5 ≈ 16.09 requests/s;
/// overloaded from 20 requests/s.
fn truth(load: f64) -> f64 {
    100.0 * (load / 10.0).exp()
}

fn server(load: f64) -> Step {
    step(load, truth(load), 0.05, load >= 20.0)
}

fn plan() -> SearchPlan {
    SearchPlan { start: 2.0, precision: 0.05, factor: 2.0, lowest: 0.1, highest: 1000.0, whole: false, max_steps: 20 }
}

/// Runs the search against `server` to its end.
fn search(plan: &SearchPlan, server: impl Fn(f64) -> Step) -> (Vec<Step>, Ended) {
    let mut steps = Vec::new();
    loop {
        match plan.next(&steps) {
            Next::Run(x) => steps.push(server(x)),
            Next::Done(e) => return (steps, e),
        }
    }
}

#[test]
fn the_crossing_is_interpolated_in_log_load_and_the_bands_bound_it() {
    let steps = vec![step(10.0, 200.0, 0.1, false), step(20.0, 800.0, 0.1, false)];
    let c = estimate("rate", "ttft_p99=500ms", steps, 0.95);
    assert_eq!(c.finding, Finding::Found);
    // (500 − 200) / (800 − 200) = ½ of the way in log load: √(10 · 20).
    let p = c.capacity.estimate.unwrap();
    assert!((p - 200f64.sqrt()).abs() < 1e-9, "{p}");
    // Upper band 220 → 880: (500 − 220)/(660) of the way; lower band 180 → 720: 320/540.
    let lo = (10f64.ln() + 280.0 / 660.0 * 2f64.ln()).exp();
    let hi = (10f64.ln() + 320.0 / 540.0 * 2f64.ln()).exp();
    assert!((c.capacity.ci_low.unwrap() - lo).abs() < 1e-9 && (c.capacity.ci_high.unwrap() - hi).abs() < 1e-9);
    assert_eq!(c.capacity.method, Method::CurveInversion);
    assert_eq!(c.limited_by.as_deref(), Some("ttft_p99"));
}

#[test]
fn the_search_brackets_then_refines_to_the_precision_and_covers_the_truth() {
    let (steps, ended) = search(&plan(), server);
    assert_eq!(ended, Ended::Precise);
    let (lo, hi) = bracket(&steps);
    let (lo, hi) = (lo.unwrap(), hi.unwrap());
    let true_capacity = 10.0 * 5f64.ln();
    // The bracket narrows to the steps that the intervals can decide: the loads whose P99 lies
    // within ±5 % of the threshold stay undecided (±0.5/s around the truth here), and a step
    // within half the precision beside them on each side decides the bracket's ends.
    assert!(lo <= true_capacity && true_capacity <= hi && hi / lo - 1.0 <= 0.12, "[{lo}, {hi}]");
    let c = estimate("rate", "ttft_p99=500ms", steps.clone(), 0.95);
    let e = &c.capacity;
    assert!(e.ci_low.unwrap() <= true_capacity && true_capacity <= e.ci_high.unwrap(), "{e:?}");
    assert!((e.estimate.unwrap() / true_capacity - 1.0).abs() < 0.05);
    // Doubling from 2 to 32 (the first beyond; 16 undecided), then bisecting each side of the
    // undecided zone to half the precision: about 15 steps, against 57 loads of a 5 % grid.
    assert!(steps.len() <= 16, "{:?}", steps.iter().map(|s| (s.load, s.outcome)).collect::<Vec<_>>());
}

#[test]
fn an_overloaded_step_limits_the_capacity_and_gives_the_saturation() {
    // A loose objective: the percentile stays within it until the queue grows at 20/s.
    let loose = |load: f64| step(load, truth(load) / 10.0, 0.05, load >= 20.0);
    let (steps, _) = search(&plan(), loose);
    let c = estimate("rate", "ttft_p99=500ms", steps, 0.95);
    assert_eq!(c.finding, Finding::Found);
    assert_eq!(c.limited_by.as_deref(), Some("overload"));
    // Between the last load decided within (about 19.9/s) and the first overloaded one.
    let (lo, p, hi) = (c.capacity.ci_low.unwrap(), c.capacity.estimate.unwrap(), c.capacity.ci_high.unwrap());
    assert!(lo <= 20.0 && 20.0 <= hi && hi / lo - 1.0 <= 0.05 && (p / 20.0 - 1.0).abs() < 0.05, "{:?}", c.capacity);
    assert_eq!(c.saturation.and_then(|s| s.estimate), Some(20.0));
}

#[test]
fn failing_at_the_lowest_load_or_holding_at_the_highest_is_said_not_numbered() {
    let strict = SearchPlan { lowest: 1.0, ..plan() };
    let (steps, ended) = search(&strict, |x| step(x, 900.0, 0.05, false));
    assert_eq!(ended, Ended::BelowLowest);
    let c = estimate("rate", "ttft_p99=500ms", steps, 0.95);
    assert_eq!((c.finding, c.capacity.estimate), (Finding::BelowLowest, None));

    let capped = SearchPlan { highest: 50.0, ..plan() };
    let (steps, ended) = search(&capped, |x| step(x, 100.0, 0.05, false));
    assert_eq!(ended, Ended::AboveHighest);
    let c = estimate("rate", "ttft_p99=500ms", steps, 0.95);
    assert_eq!((c.finding, c.capacity.estimate), (Finding::AboveHighest, None));
}

#[test]
fn clients_are_whole_and_the_search_ends_when_no_whole_load_is_left() {
    let clients = SearchPlan { start: 1.0, whole: true, ..plan() };
    let (steps, ended) = search(&clients, |x| step(x, 100.0 * x, 0.02, false));
    assert!(steps.iter().all(|s| s.load.fract() == 0.0));
    assert!(matches!(ended, Ended::NoRoom | Ended::Precise), "{ended:?}");
    // 5 clients sit on the threshold (500 ms ± 2 %): undecided, between the bracket's ends.
    assert_eq!(bracket(&steps), (Some(4.0), Some(6.0)));
    let c = estimate("concurrency", "ttft_p99=500ms", steps, 0.95);
    let e = c.capacity;
    assert!(e.ci_low.unwrap() >= 4.0 && e.ci_high.unwrap() <= 6.0 && (e.estimate.unwrap() - 5.0).abs() < 0.1, "{e:?}");
}

/// A found capacity with the interval [lo, hi].
fn found(p: f64, lo: f64, hi: f64) -> Capacity {
    let mut c = estimate("rate", "ttft_p99=500ms", vec![step(10.0, 200.0, 0.1, false), step(20.0, 800.0, 0.1, false)], 0.95);
    c.capacity = Estimate::two_sided(p, (lo, hi), 0.95, Method::CurveInversion, 2);
    c
}

#[test]
fn a_capacity_change_combines_both_intervals_on_the_log_scale() {
    use super::compare::compare;
    // ±5 % intervals (log half-width ln 1.05) on both: the change's half-width is √2 × that.
    let c = compare(found(100.0, 100.0 / 1.05, 105.0), found(130.0, 130.0 / 1.05, 136.5), 0.05, 0.95);
    let (lo, hi) = (c.change.ci_low.unwrap(), c.change.ci_high.unwrap());
    let h = 2f64.sqrt() * 1.05f64.ln();
    assert!((c.change.estimate.unwrap() - 0.3).abs() < 1e-12);
    assert!((lo - (1.3f64.ln() - h).exp() + 1.0).abs() < 1e-9 && (hi - (1.3f64.ln() + h).exp() + 1.0).abs() < 1e-9);
    assert_eq!(c.verdict, "improvement");
    assert_eq!(compare(found(100.0, 95.0, 105.0), found(101.0, 96.0, 106.0), 0.2, 0.95).verdict, "equivalent");
    assert_eq!(compare(found(100.0, 95.0, 105.0), found(101.0, 96.0, 106.0), 0.02, 0.95).verdict, "undecided");
    let mut other = found(100.0, 95.0, 105.0);
    other.slo = "ttft_p99=300ms".into();
    assert_eq!(compare(found(100.0, 95.0, 105.0), other, 0.05, 0.95).verdict, "not_comparable");
}
