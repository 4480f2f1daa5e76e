//! The simulator: determinism, validity of every scenario, the truth.json contract, and the
//! realism properties that make detection non-trivial.


use crate::common::{Scratch, credence, dir_bytes, fixture, stderr};
use credence::run::{Table, TableKind};
use credence::simulate::{ArrivalProcess, Effect, EffectMetric, Scenario, SimOptions, simulate};
use credence::stats::quantile::quantile_sorted;

fn short(scenario: Scenario, seed: u64) -> SimOptions {
    let mut o = SimOptions::new(scenario, seed);
    o.duration_s = 90.0;
    o.arrival = ArrivalProcess::Poisson { rate: 10.0 };
    o.lengths.output_median = 48.0;
    o
}

#[test]
fn every_scenario_simulates_and_validates_clean() {
    let scratch = Scratch::new("scenarios");
    for s in Scenario::ALL {
        let sim = simulate(&short(s, 5)).unwrap();
        let dir = scratch.path(s.name());
        credence::run::write::write_run(&dir, &sim.data).unwrap();
        let report = credence::run::validate::validate(&dir);
        assert!(report.valid && report.warnings == 0, "{s}: {:#?}", report.problems);
        assert_eq!(sim.truth.scenario, s.name());
        let causes: Vec<_> = sim.truth.anomalies.iter().map(|a| a.cause).collect();
        match s {
            Scenario::Steady | Scenario::Warmup => assert!(causes.is_empty()),
            _ => assert_eq!(causes.len(), 1, "{s}"),
        }
        assert_eq!(sim.truth.warmup_end_s > 0.0, matches!(s, Scenario::Warmup | Scenario::WarmupThrottle));
    }
}

#[test]
fn closed_loop_and_constant_arrivals_validate() {
    let scratch = Scratch::new("arrivals");
    for (i, arrival) in [ArrivalProcess::ClosedLoop { clients: 16 }, ArrivalProcess::Constant { rate: 8.0 }].into_iter().enumerate() {
        let mut o = short(Scenario::ErrorBurst, 9);
        o.arrival = arrival;
        let sim = simulate(&o).unwrap();
        let dir = scratch.path(&format!("a{i}"));
        credence::run::write::write_run(&dir, &sim.data).unwrap();
        let report = credence::run::validate::validate(&dir);
        assert!(report.valid, "{arrival:?}: {:#?}", report.problems);
        let sched = sim.data.requests.timestamps("scheduled_ns").unwrap();
        let closed = matches!(arrival, ArrivalProcess::ClosedLoop { .. });
        assert_eq!(sched.iter().all(Option::is_none), closed);
    }
}

#[test]
fn same_seed_gives_byte_identical_runs() {
    let scratch = Scratch::new("determinism");
    for (i, _) in [0, 1].iter().enumerate() {
        let out = credence(&[
            "simulate",
            "--scenario",
            "client-saturation",
            "--seed",
            "4",
            "--duration",
            "60s",
            "--rate",
            "8",
            "--output-median",
            "32",
            "--out",
            scratch.path(&format!("r{i}")).to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(dir_bytes(&scratch.path("r0")), dir_bytes(&scratch.path("r1")));
    let other = credence(&[
        "simulate",
        "--scenario",
        "client-saturation",
        "--seed",
        "5",
        "--duration",
        "60s",
        "--rate",
        "8",
        "--output-median",
        "32",
        "--out",
        scratch.path("r2").to_str().unwrap(),
    ]);
    assert!(other.status.success());
    assert_ne!(dir_bytes(&scratch.path("r0")), dir_bytes(&scratch.path("r2")));
}

#[test]
fn committed_fixture_regenerates_byte_identically() {
    // The same command as fixtures/generate.sh; a difference means the simulator changed and
    // the fixtures must be regenerated (fixtures/generate.sh), or determinism broke.
    let scratch = Scratch::new("fixture");
    let out = scratch.path("steady");
    let o = credence(&[
        "simulate",
        "--out",
        out.to_str().unwrap(),
        "--scenario",
        "steady",
        "--seed",
        "1",
        "--duration",
        "120s",
        "--rate",
        "10",
        "--output-median",
        "64",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir_bytes(&fixture("scenarios/steady")) == dir_bytes(&out), "fixtures/scenarios/steady differs from a fresh simulation: run fixtures/generate.sh");
}

#[test]
fn truth_json_has_the_contract_keys() {
    let text = std::fs::read_to_string(fixture("demo/truth.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["scenario"], "thermal-throttle");
    assert_eq!(v["seed"], 7);
    assert!(v["warmup_end_s"].is_number());
    let a = &v["anomalies"][0];
    assert_eq!(a["cause"], "thermal_throttle");
    assert!(a["start_s"].as_f64().unwrap() < a["end_s"].as_f64().unwrap());
    for m in ["ttft", "tpot", "e2e"] {
        for p in ["p50", "p90", "p99"] {
            assert!(v["true"][m][p].as_f64().unwrap() > 0.0, "{m}.{p}");
        }
        assert!(v["true"][m]["p50"].as_f64() < v["true"][m]["p99"].as_f64());
    }
    assert!(v["effect"].is_null());
    let cand: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(fixture("ab/cand/truth.json")).unwrap()).unwrap();
    assert_eq!(cand["effect"]["metric"], "ttft");
    assert!((cand["effect"]["relative"].as_f64().unwrap() - 0.10).abs() < 1e-12);
}

#[test]
fn truth_does_not_depend_on_the_sample_seed_and_scales_with_the_effect() {
    let base = simulate(&short(Scenario::Steady, 1)).unwrap().truth.true_percentiles;
    let other_seed = simulate(&short(Scenario::Steady, 2)).unwrap().truth.true_percentiles;
    assert_eq!(base, other_seed);
    let mut o = short(Scenario::Steady, 1);
    o.effect = Some(Effect { metric: EffectMetric::Ttft, relative: 0.10 });
    let cand = simulate(&o).unwrap().truth.true_percentiles;
    for (b, c) in [(base.ttft.p50, cand.ttft.p50), (base.ttft.p90, cand.ttft.p90), (base.ttft.p99, cand.ttft.p99)] {
        assert!((c / b - 1.10).abs() < 1e-3, "TTFT should scale by 1.10: {b} -> {c}");
    }
    assert!((cand.tpot.p50 / base.tpot.p50 - 1.0).abs() < 1e-3, "TPOT unchanged");
}

fn ttft_ms(t: &Table) -> Vec<(f64, f64)> {
    let sent = t.timestamps("sent_ns").unwrap();
    let first = t.timestamps("first_token_ns").unwrap();
    let t0 = sent[0].unwrap();
    sent.iter().zip(first).filter_map(|(s, f)| Some(((s.unwrap() - t0) as f64 / 1e9, (f.as_ref()? - s.unwrap()) as f64 / 1e6))).collect()
}

fn tpot_median(t: &Table) -> f64 {
    let first = t.timestamps("first_token_ns").unwrap();
    let end = t.timestamps("end_ns").unwrap();
    let out = t.u32s("output_tokens").unwrap();
    let mut v: Vec<f64> = (0..t.num_rows())
        .filter_map(|i| {
            let n = out[i]?;
            let (e, f) = (end[i]?, first[i]?);
            (n > 1).then(|| (e - f) as f64 / 1e6 / (n - 1) as f64)
        })
        .collect();
    v.sort_by(f64::total_cmp);
    quantile_sorted(&v, 0.5).unwrap()
}

#[test]
fn latency_responds_to_load() {
    let mut lo = short(Scenario::Steady, 3);
    lo.arrival = ArrivalProcess::Poisson { rate: 5.0 };
    let mut hi = lo.clone();
    hi.arrival = ArrivalProcess::Poisson { rate: 30.0 };
    let (a, b) = (simulate(&lo).unwrap(), simulate(&hi).unwrap());
    assert!(tpot_median(&b.data.requests) > 1.2 * tpot_median(&a.data.requests));
}

#[test]
fn noise_is_heavy_tailed_and_autocorrelated() {
    let mut o = SimOptions::new(Scenario::Steady, 8);
    o.duration_s = 300.0;
    let sim = simulate(&o).unwrap();
    let pts = ttft_ms(&sim.data.requests);
    let mut v: Vec<f64> = pts.iter().map(|p| p.1).collect();
    v.sort_by(f64::total_cmp);
    let (p50, p99, p999) = (quantile_sorted(&v, 0.5).unwrap(), quantile_sorted(&v, 0.99).unwrap(), quantile_sorted(&v, 0.999).unwrap());
    // Right-skewed, and a tail heavier than a normal's: for a normal,
    // (p99.9 − p50)/(p99 − p50) = 3.09/2.33 = 1.33.
    assert!(p99 > 1.6 * p50, "tails: p50 {p50}, p99 {p99}");
    assert!((p999 - p50) / (p99 - p50) > 1.4, "tails: p50 {p50}, p99 {p99}, p99.9 {p999}");
    // Per-second median TTFT: lag-1 autocorrelation well above zero.
    let mut secs: Vec<Vec<f64>> = vec![Vec::new(); 300];
    for (t, x) in &pts {
        if (*t as usize) < 300 {
            secs[*t as usize].push(*x);
        }
    }
    let m: Vec<f64> = secs
        .iter_mut()
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.sort_by(f64::total_cmp);
            quantile_sorted(s, 0.5).unwrap()
        })
        .collect();
    let mean = m.iter().sum::<f64>() / m.len() as f64;
    let var: f64 = m.iter().map(|x| (x - mean).powi(2)).sum();
    let cov: f64 = m.windows(2).map(|w| (w[0] - mean) * (w[1] - mean)).sum();
    assert!(cov / var > 0.2, "lag-1 autocorrelation {}", cov / var);
}

#[test]
fn anomalies_move_the_metrics() {
    let median_in = |sim: &credence::simulate::Simulated, lo: f64, hi: f64| {
        let mut v: Vec<f64> = ttft_ms(&sim.data.requests).into_iter().filter(|p| p.0 >= lo && p.0 < hi).map(|p| p.1).collect();
        v.sort_by(f64::total_cmp);
        quantile_sorted(&v, 0.5).unwrap()
    };
    for s in [Scenario::ThermalThrottle, Scenario::ForeignProcess, Scenario::MemoryPressure, Scenario::Warmup] {
        let sim = simulate(&short(s, 2)).unwrap();
        let (a, b) = match sim.truth.anomalies.first() {
            Some(x) => (x.start_s, x.end_s),
            None => (0.0, sim.truth.warmup_end_s),
        };
        let inside = median_in(&sim, a + 5.0, b);
        let outside = median_in(&sim, b + 10.0, 90.0);
        assert!(inside > 1.2 * outside, "{s}: TTFT inside {inside} vs outside {outside}");
    }
    // The throttle is visible in telemetry with the SW thermal bit.
    let sim = simulate(&short(Scenario::ThermalThrottle, 2)).unwrap();
    let gpu = sim.data.gpu.unwrap();
    assert!(gpu.u64s("clocks_event_reasons").unwrap().iter().any(|r| r.is_some_and(|r| r & 0x20 != 0)));
    let _ = TableKind::Gpu;
}

#[test]
fn bad_simulate_arguments_exit_2() {
    let scratch = Scratch::new("badargs");
    let out = scratch.path("x");
    let o = credence(&["simulate", "--scenario", "meteor-strike", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("hint: choose one of: steady"), "{}", stderr(&o));
    let o = credence(&["simulate", "--scenario", "steady", "--effect", "ttft=lots", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let o = credence(&["simulate", "--scenario", "steady", "--duration", "2s", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    std::fs::create_dir_all(&out).unwrap();
    let o = credence(&["simulate", "--scenario", "steady", "--duration", "20s", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already exists"));
}
