use super::*;

/// A pilot of `runs` runs with 1000 steady requests each over 100 s after 20 s of warm-up,
/// and one metric of within-run variance `within` and between-run variance `between`.
fn pilot(runs: usize, within: f64, between: Option<f64>) -> Pilot {
    Pilot {
        runs,
        steady_requests: 1000 * runs as u64,
        steady_s: 100.0,
        warmup_s: 20.0,
        metrics: [("ttft_p50".to_string(), MetricPilot { within, between, within_df: f64::INFINITY })].into_iter().collect(),
    }
}

fn options(effect: f64) -> PlanOptions {
    PlanOptions {
        tolerance: 0.05,
        effect,
        power: 0.9,
        cost_per_run_s: 60.0,
        between_run_cv: DEFAULT_BETWEEN_RUN_CV,
        compare_prior: crate::compare::pooled::DEFAULT_PRIOR,
    }
}

#[test]
fn an_effect_not_above_the_tolerance_is_refused() {
    let e = check_options(&options(0.05)).unwrap_err();
    assert!(e.contains("not above --tolerance"), "{e}");
    assert!(check_options(&options(0.10)).is_ok());
    assert!(check_options(&PlanOptions { power: 1.0, ..options(0.1) }).is_err());
}

#[test]
fn designs_reach_the_power_and_one_run_fewer_does_not() {
    let p = pilot(3, 4e-4, Some(1e-4));
    let o = options(0.10);
    let plan = plan(&p, &o);
    assert!(!plan.designs.is_empty() && plan.cannot_tell.is_none());
    for d in &plan.designs {
        assert!(d.power >= 0.9 && d.between_run == "measured", "{d:?}");
        let scale = (d.duration_s - 20.0) / 100.0;
        if d.runs_per_arm > 2 {
            let fewer = design(&p, &o, d.runs_per_arm - 1, scale);
            assert!(fewer.power < 0.9, "{fewer:?}");
        }
        assert!(requests_per_arm(d) <= 100.0 * 3000.0);
        assert_eq!(d.cost_s, 2.0 * d.runs_per_arm as f64 * (60.0 + d.duration_s));
    }
    let r = plan.recommended.as_ref().unwrap();
    assert!(plan.designs.iter().all(|d| d.cost_s >= r.cost_s));
}

#[test]
fn a_dearer_restart_buys_longer_runs() {
    let p = pilot(3, 4e-4, Some(1e-4));
    let cheap = plan(&p, &PlanOptions { cost_per_run_s: 0.0, ..options(0.10) }).recommended.unwrap();
    let dear = plan(&p, &PlanOptions { cost_per_run_s: 3600.0, ..options(0.10) }).recommended.unwrap();
    assert!(dear.runs_per_arm < cheap.runs_per_arm && dear.duration_s > cheap.duration_s, "{cheap:?} vs {dear:?}");
}

#[test]
fn one_pilot_run_plans_under_the_assumed_between_run_cv_and_says_so() {
    let p = pilot(1, 1e-4, None);
    let low = plan(&p, &PlanOptions { between_run_cv: 0.01, ..options(0.10) });
    let high = plan(&p, &PlanOptions { between_run_cv: 0.015, ..options(0.10) });
    assert!(low.designs.iter().chain(&high.designs).all(|d| d.between_run == "assumed"));
    assert_eq!(low.metrics["ttft_p50"].between_run, "assumed");
    assert!(low.assumptions[0].contains("ASSUMED") && low.assumptions[0].contains("1.0 %"), "{:?}", low.assumptions);
    let (l, h) = (low.recommended.unwrap(), high.recommended.unwrap());
    assert!(h.runs_per_arm > l.runs_per_arm, "a larger assumed CV needs more runs: {l:?} vs {h:?}");
}

#[test]
fn a_pilot_too_small_to_tell_gets_a_pilot_size_not_a_design() {
    // Runs of 20 requests with a 14 % CV each: every design that reaches the power needs
    // more than 100x the pilot's 40 requests per arm.
    let mut p = pilot(2, 0.02, Some(0.0));
    p.steady_requests = 40;
    let plan = plan(&p, &options(0.10));
    assert!(plan.designs.is_empty() && plan.recommended.is_none());
    let why = plan.cannot_tell.unwrap();
    assert!(why.starts_with("this pilot cannot tell") && why.contains("at least"), "{why}");
}

#[test]
fn run_to_run_noise_beyond_the_gap_has_no_design() {
    // A 10 % run-to-run CV against a 1-point gap between effect and tolerance.
    let plan = plan(&pilot(3, 1e-5, Some(0.01)), &options(0.06));
    assert!(plan.designs.is_empty());
    assert!(plan.cannot_tell.unwrap().contains("no design"));
}
