//! `credence compare` through the real binary: verdicts, gates and exit codes.

mod common;

use common::{Scratch, credence, fixture, stderr, stdout};
use serde_json::Value;

fn sim(s: &Scratch, name: &str, args: &[&str]) -> String {
    let out = s.path(name);
    let mut all = vec!["simulate", "--duration", "240s", "--rate", "15", "--output-median", "48", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = credence(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    out.to_str().unwrap().to_string()
}

fn compare(args: &[&str]) -> (i32, Value, String) {
    let s = Scratch::new("cmpout");
    let out = s.path("compare.json");
    let mut all = vec!["compare", "--resamples", "999", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = credence(&all);
    let code = o.status.code().unwrap_or(-1);
    let json = std::fs::read_to_string(&out).map(|t| serde_json::from_str(&t).unwrap()).unwrap_or(Value::Null);
    (code, json, stdout(&o) + &stderr(&o))
}

#[test]
fn json_contract_on_the_fixture_pair() {
    let (code, v, text) = compare(&["--base", fixture("ab/base").to_str().unwrap(), "--cand", fixture("ab/cand").to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(v["valid"], true);
    assert!(v["gates"].as_array().unwrap().iter().all(|g| g["name"].is_string() && g["status"].is_string() && g["reason"].is_string()));
    for m in ["ttft_p50", "ttft_p99", "tpot_p50", "tpot_p99", "e2e_p50", "e2e_p99", "output_tokens_per_s", "requests_per_s", "error_rate"] {
        let x = &v["metrics"][m];
        assert!(x["change"]["estimate"].is_number() && x["change"]["ci_low"].is_number() && x["change"]["ci_high"].is_number(), "{m}");
        assert!(x["tolerance"].is_number(), "{m}");
        assert!(["regression", "improvement", "equivalent", "inconclusive"].contains(&x["verdict"].as_str().unwrap()), "{m}");
        // Each arm's value sits inside its own interval.
        for arm in ["base", "cand"] {
            let (value, ci) = (x[arm].as_f64().unwrap(), &x[format!("{arm}_ci")]);
            assert!(ci[0].as_f64().unwrap() <= value && value <= ci[1].as_f64().unwrap(), "{m} {arm}: {value} outside {ci}");
        }
    }
    // The printed summary leads with the verdict (issue 23).
    assert!(text.starts_with("Regression: P50 TTFT +9."), "{text}");
    // The known +10 % TTFT effect: detected as a regression at the default 5 % tolerance (the
    // pair runs 8 minutes so that a single run per arm has the power; tests/compare_study.rs).
    assert_eq!(v["metrics"]["ttft_p50"]["verdict"], "regression", "{text}");
    for m in ["tpot_p50", "e2e_p50"] {
        assert_ne!(v["metrics"][m]["verdict"], "regression", "{m} did not change: {text}");
    }
    // Inconclusive verdicts say how much more data would decide, from the variance components.
    for (m, x) in v["metrics"].as_object().unwrap() {
        assert_eq!(x["verdict"] == "inconclusive", x["more_data"].is_object(), "{m}");
        assert_eq!(x["variance"]["base"]["runs"], 1, "{m}");
    }
    assert!(text.contains("single-run"));
    assert!(v["what_changed"][0]["key"] == "labels.effect");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(common::repo().join("schemas/compare.schema.json")).unwrap()).unwrap();
    let violations = credence::run::json_schema::check(&schema, &v);
    assert!(violations.is_empty(), "compare.json violates schemas/compare.schema.json:\n{}", violations.join("\n"));
}

#[test]
fn a_large_regression_fails_the_gate() {
    let s = Scratch::new("cmpreg");
    let base = sim(&s, "base", &["--scenario", "steady", "--seed", "31"]);
    let cand = sim(&s, "cand", &["--scenario", "steady", "--seed", "32", "--effect", "ttft=+40%"]);
    let (code, v, text) = compare(&["--base", &base, "--cand", &cand, "--fail-on", "regression"]);
    assert_eq!(v["metrics"]["ttft_p50"]["verdict"], "regression", "{text}");
    assert_eq!(code, 3, "{text}");
    let (code, _, _) = compare(&["--base", &base, "--cand", &cand]);
    assert_eq!(code, 0, "without --fail-on the comparison itself succeeds");
}

#[test]
fn workload_mismatch_is_caught() {
    let s = Scratch::new("cmpwl");
    let base = sim(&s, "base", &["--scenario", "steady", "--seed", "41"]);
    let out = s.path("cand");
    let o = credence(&[
        "simulate",
        "--duration",
        "240s",
        "--rate",
        "15",
        "--output-median",
        "96",
        "--scenario",
        "steady",
        "--seed",
        "42",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let (code, v, text) = compare(&["--base", &base, "--cand", out.to_str().unwrap(), "--fail-on", "regression"]);
    assert_eq!(v["valid"], false, "{text}");
    assert_eq!(code, 3);
    let gate = v["gates"].as_array().unwrap().iter().find(|g| g["name"] == "same_workload.output_lengths").unwrap();
    assert_eq!(gate["status"], "FAIL");
    let (_, v, _) = compare(&["--base", &base, "--cand", out.to_str().unwrap(), "--allow-workload-mismatch"]);
    assert_eq!(v["valid"], true);
}

#[test]
fn drift_between_bracketing_base_runs_is_flagged() {
    let s = Scratch::new("cmpdrift");
    let b1 = sim(&s, "base1", &["--scenario", "steady", "--seed", "51"]);
    let c1 = sim(&s, "cand1", &["--scenario", "steady", "--seed", "52"]);
    let b2 = sim(&s, "base2", &["--scenario", "steady", "--seed", "53", "--effect", "ttft=+30%"]);
    let (_, v, text) = compare(&["--base", &b1, &b2, "--cand", &c1, "--order", "base1,cand1,base2"]);
    let gate = v["gates"].as_array().unwrap().iter().find(|g| g["name"] == "drift").expect("a drift gate");
    assert_eq!(gate["status"], "FAIL", "{text}");
    assert_eq!(v["metrics"]["ttft_p50"]["verdict"], "inconclusive");
}

#[test]
fn bad_input_exits_2() {
    let s = Scratch::new("cmpbad");
    let (code, _, text) = compare(&["--base", s.path("nope").to_str().unwrap(), "--cand", fixture("ab/cand").to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    let (code, _, _) = compare(&["--base", fixture("ab/base").to_str().unwrap(), "--cand", fixture("ab/cand").to_str().unwrap(), "--tolerance", "lots"]);
    assert_eq!(code, 2);
}

#[test]
fn baseline_save_and_check() {
    let s = Scratch::new("baseline");
    let dir = s.path("baselines");
    let dir = dir.to_str().unwrap();
    let o = credence(&["baseline", "save", "main", fixture("aa/a1").to_str().unwrap(), fixture("aa/a2").to_str().unwrap(), "--dir", dir]);
    assert!(o.status.success(), "{}", stderr(&o));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(s.path("baselines/main/baseline.json")).unwrap()).unwrap();
    assert_eq!(saved["runs"].as_array().unwrap().len(), 2);
    assert!(saved["noise_floor"]["ttft_p50"].as_f64().unwrap() > 0.0);
    // A rerun of the same configuration passes.
    let o = credence(&["baseline", "check", "main", fixture("aa/a3").to_str().unwrap(), "--dir", dir]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // A +10 % TTFT candidate is a regression: exit 3, and with the same configuration the
    // baseline is reported as drifted.
    // The verdict comes first (issue 23).
    let o = credence(&["baseline", "check", "main", fixture("ab/cand").to_str().unwrap(), "--dir", dir]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(stdout(&o).contains("the baseline itself has drifted"));
    assert!(stdout(&o).starts_with("Regression: P50 TTFT +"), "{}", stdout(&o));
    // Saving over an existing baseline, a bad name, and a missing baseline are bad input.
    let o = credence(&["baseline", "save", "main", fixture("aa/a1").to_str().unwrap(), "--dir", dir]);
    assert_eq!(o.status.code(), Some(2));
    let o = credence(&["baseline", "save", "../escape", fixture("aa/a1").to_str().unwrap(), "--dir", dir]);
    assert_eq!(o.status.code(), Some(2));
    let o = credence(&["baseline", "check", "nope", fixture("aa/a1").to_str().unwrap(), "--dir", dir]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("hint: save one"));
}

#[test]
fn several_runs_per_arm_report_variance_components() {
    let f = |n: &str| fixture(n).to_str().unwrap().to_string();
    let (code, v, text) = compare(&["--base", &f("aa/a1"), &f("aa/a2"), "--cand", &f("aa/a3")]);
    assert_eq!(code, 0, "{text}");
    let m = &v["metrics"]["ttft_p50"];
    assert_eq!(m["change"]["method"], "hierarchical_bootstrap");
    assert_eq!(m["variance"]["base"]["runs"], 2);
    assert!(m["variance"]["base"]["between"].is_number() && m["variance"]["base"]["between_share"].is_number(), "{m}");
    assert!(m["variance"]["cand"]["between"].is_null(), "one candidate run: no between-run component");
    // Same configuration on both sides: never a regression or improvement.
    for (name, x) in v["metrics"].as_object().unwrap() {
        assert!(!matches!(x["verdict"].as_str(), Some("regression" | "improvement")), "{name}: {text}");
    }
}

#[test]
fn a_steady_window_too_short_to_measure_dependence_decides_nothing() {
    // 45-s runs whose warmup ends near 20 s: each steady window holds under 8 five-second
    // resampling groups, too few to measure how dependent the requests are. `analyze` gives
    // such a run's percentiles no interval; `compare` must not turn the same bootstrap into a
    // verdict (the candidate is 20 % slower in truth, and an interval assuming independent
    // requests would call it a regression).
    let s = Scratch::new("cmpshort");
    let run = |name: &str, seed: &str, extra: &[&str]| {
        let out = s.path(name);
        let mut args = vec!["simulate", "--scenario", "warmup", "--duration", "45s", "--seed", seed, "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = credence(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        out.to_str().unwrap().to_string()
    };
    let (base, cand) = (run("base", "4", &[]), run("cand", "14", &["--effect", "ttft=+20%"]));
    let (code, v, text) = compare(&["--base", &base, "--cand", &cand]);
    assert_eq!(code, 0, "{text}");
    for g in v["gates"].as_array().unwrap().iter().filter(|g| g["name"].as_str().unwrap().starts_with("steady_state")) {
        assert_eq!(g["status"], "PASS", "the premise: both runs have a steady state: {g}");
    }
    let p50 = &v["metrics"]["ttft_p50"];
    assert_eq!(p50["verdict"], "inconclusive", "{text}");
    let reason = p50["reason"].as_str().unwrap();
    assert!(reason.contains("resampling group(s) and at least 8 are needed"), "{reason}");
    assert!(p50["more_data"].is_null(), "no advice from a variance that was not measured: {p50}");
    assert!(p50["too_few_groups"].as_u64().is_some_and(|g| g < 8), "{p50}");
    assert!(v["metrics"]["error_rate"]["too_few_groups"].is_null(), "the error rate pools requests, no groups");
    assert!(text.contains("P50 TTFT, P99 TTFT, P50 TPOT, P99 TPOT, P50 E2E and P99 E2E: inconclusive, a run's steady window holds"), "{text}");
    // The effect shifts every token time alike, so TPOT did not change; these bootstraps called
    // P50 TPOT +19.9 % [+12.3 %, +27.8 %] and P99 TPOT +39 % regressions.
    for m in ["tpot_p50", "tpot_p99"] {
        assert_eq!(v["metrics"][m]["verdict"], "inconclusive", "{m}: {text}");
    }
    // The same run's own analysis gives the point without an interval.
    let o = credence(&["analyze", &base, "--json"]);
    let a: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(a["metrics"]["ttft"]["p50"]["ci_low"].is_null(), "{}", a["metrics"]["ttft"]["p50"]);
}

#[test]
fn a_run_without_steady_state_gets_no_verdict_and_no_advice() {
    // A 45-s base run that never settles (its final level comes after 75 % of the run): its
    // latency was some mix of warmup and level, and more of that data would not settle it.
    let s = Scratch::new("cmpunsteady");
    let run = |name: &str, seed: &str| {
        let out = s.path(name);
        let o = credence(&["simulate", "--scenario", "warmup", "--duration", "45s", "--seed", seed, "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        out.to_str().unwrap().to_string()
    };
    let (base, cand) = (run("base", "6"), run("cand", "16"));
    let (code, v, text) = compare(&["--base", &base, "--cand", &cand]);
    assert_eq!(code, 0, "{text}");
    let base_gate = v["gates"].as_array().unwrap().iter().find(|g| g["name"] == "steady_state.base").cloned().unwrap_or(Value::Null);
    assert_eq!(base_gate["status"], "FAIL", "the premise: the base run has no steady state: {base_gate}");
    for m in ["ttft_p50", "ttft_p99", "tpot_p50", "tpot_p99", "e2e_p50", "e2e_p99", "output_tokens_per_s", "requests_per_s"] {
        let x = &v["metrics"][m];
        assert_eq!(x["verdict"], "inconclusive", "{m}");
        assert_eq!(x["reason"], "a run has no steady state", "{m}");
        assert!(x["more_data"].is_null(), "{m}: {x}");
    }
}
