//! `credence compare` through the real binary: verdicts, gates and exit codes.


use crate::common::{Scratch, copy_dir, credence, fixture, stderr, stdout};
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
    // pair runs 8 minutes so that a single run per arm has the power; tests/it/compare_study.rs).
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
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(crate::common::repo().join("schemas/compare.schema.json")).unwrap()).unwrap();
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
    assert!(saved["run_spread"]["ttft_p50"].as_f64().unwrap() > 0.0);
    // A rerun of the same configuration passes.
    let o = credence(&["baseline", "check", "main", fixture("aa/a3").to_str().unwrap(), "--dir", dir]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // A +10 % TTFT candidate is a regression: exit 3. Its label names the switch
    // (`effect`), so the change is the switch's; the verdict comes first (issue 23).
    let o = credence(&["baseline", "check", "main", fixture("ab/cand").to_str().unwrap(), "--dir", dir]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(!stdout(&o).contains("the baseline itself has drifted"), "{}", stdout(&o));
    assert!(stdout(&o).starts_with("Regression: P50 TTFT +"), "{}", stdout(&o));
    // The same run with nothing switched (no label): the baseline itself has drifted.
    let rerun = s.path("rerun");
    copy_dir(&fixture("ab/cand"), &rerun);
    let mut manifest: Value = serde_json::from_str(&std::fs::read_to_string(rerun.join("run.json")).unwrap()).unwrap();
    manifest["labels"].as_object_mut().unwrap().remove("effect");
    std::fs::write(rerun.join("run.json"), serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    let o = credence(&["baseline", "check", "main", rerun.to_str().unwrap(), "--dir", dir]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(stdout(&o).contains("the baseline itself has drifted"), "{}", stdout(&o));
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
    assert_eq!(m["change"]["method"], credence::analyze::compare::METHOD);
    assert!(m["pooled"]["between_df"].as_f64().unwrap() > 6.0, "the prior's 6 plus the base arm's 1: {m}");
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

#[test]
fn the_tolerance_stays_the_users_however_far_the_runs_spread() {
    // Three base runs and three candidate runs of one configuration: the runs spread, and that
    // spread is in the interval (run_spread, the run_spread gate), never in the tolerance.
    let f = |n: &str| fixture(n).to_str().unwrap().to_string();
    let (code, v, text) = compare(&["--base", &f("aa/a1"), &f("aa/a2"), &f("aa/a3"), "--cand", &f("aa/a3"), &f("aa/a2"), &f("aa/a1")]);
    assert_eq!(code, 0, "{text}");
    for (name, m) in v["metrics"].as_object().unwrap() {
        let want = if name == "error_rate" { 0.005 } else { 0.05 };
        assert!((m["tolerance"].as_f64().unwrap() - want).abs() < 1e-12, "{name}: {m}");
    }
    let p50 = &v["metrics"]["ttft_p50"];
    assert!(p50["run_spread"].as_f64().unwrap() > 0.0, "{p50}");
    let gate = v["gates"].as_array().unwrap().iter().find(|g| g["name"] == "run_spread").cloned().unwrap();
    assert!(gate["reason"].as_str().unwrap().starts_with("runs of one arm differ by up to"), "{gate}");
    assert_eq!(p50["verdict"], "equivalent", "the same runs on both sides: {text}");
}

/// Copies `from` to `to` with its manifest edited by `edit`.
fn with_manifest(from: &str, to: &std::path::Path, edit: impl Fn(&mut Value)) -> String {
    crate::common::copy_dir(&fixture(from), to);
    let path = to.join("run.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut m);
    std::fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    to.to_str().unwrap().to_string()
}

#[test]
fn what_changed_is_configuration_and_the_measured_environment_is_context() {
    let s = Scratch::new("cmpenv");
    let base = with_manifest("ab/base", &s.path("base"), |m| {
        m["environment"]["host_memory_used_bytes"]["value"] = 439_980_032u64.into();
        m["environment"]["gpu_temp_at_start_c"]["value"] = 38.0.into();
    });
    let cand = with_manifest("ab/cand", &s.path("cand"), |m| {
        m["environment"]["host_memory_used_bytes"]["value"] = 439_644_160u64.into();
        m["environment"]["gpu_temp_at_start_c"]["value"] = 61.0.into();
        m["environment"]["driver_version"]["value"] = "560.35.03".into();
    });
    let (_, v, text) = compare(&["--base", &base, "--cand", &cand]);
    let keys: Vec<&str> = v["what_changed"].as_array().unwrap().iter().map(|d| d["key"].as_str().unwrap()).collect();
    assert!(keys.contains(&"labels.effect") && keys.contains(&"environment.driver_version.value"), "{keys:?}");
    assert!(!keys.iter().any(|k| k.contains("memory_used") || k.contains("temp_at_start")), "measured values are no switch: {keys:?}");
    let env: Vec<&str> = v["environment_changed"].as_array().unwrap().iter().map(|d| d["key"].as_str().unwrap()).collect();
    assert!(env.contains(&"environment.gpu_temp_at_start_c.value") && env.contains(&"environment.host_memory_used_bytes.value"), "{env:?}");
    assert!(text.contains("GPU temperature at start: 38 °C → 61 °C"), "{text}");
    assert!(v["gates"].as_array().unwrap().iter().any(|g| g["name"] == "what_changed" && g["reason"].as_str().unwrap().contains("2 things differ")), "{text}");
}

#[test]
fn a_run_without_steady_state_is_left_out_of_an_arm_of_several() {
    let s = Scratch::new("cmpleftout");
    let run = |name: &str, scenario: &str, seed: &str, duration: &str| {
        let out = s.path(name);
        let o = credence(&["simulate", "--scenario", scenario, "--duration", duration, "--seed", seed, "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        out.to_str().unwrap().to_string()
    };
    // The same base runs as `a_run_without_steady_state_gets_no_verdict_and_no_advice`: a 45-s
    // warmup run that never settles, beside steady runs.
    let unsteady = run("b0", "warmup", "6", "45s");
    let (b1, b2) = (run("b1", "steady", "35", "120s"), run("b2", "steady", "36", "120s"));
    let (c1, c2) = (run("c1", "steady", "37", "120s"), run("c2", "steady", "38", "120s"));
    let (code, v, text) = compare(&["--base", &unsteady, &b1, &b2, "--cand", &c1, &c2]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(v["left_out"], serde_json::json!(["b0"]), "{text}");
    assert_eq!(v["base_runs"], serde_json::json!(["b1", "b2"]));
    let gate = v["gates"].as_array().unwrap().iter().find(|g| g["name"] == "steady_state.b0").cloned().unwrap();
    assert_eq!(gate["status"], "WARN", "{gate}");
    assert!(gate["reason"].as_str().unwrap().contains("left out of its arm"), "{gate}");
    for m in ["ttft_p50", "tpot_p50", "e2e_p50"] {
        assert_ne!(v["metrics"][m]["reason"], "a run has no steady state", "{m}: {text}");
    }
    // Left with one run, an arm keeps it, and the old veto stands.
    let (_, v, text) = compare(&["--base", &unsteady, &b1, "--cand", &c1, &c2]);
    assert_eq!(v["metrics"]["ttft_p50"]["reason"], "a run has no steady state", "{text}");
}

#[test]
fn several_short_runs_per_arm_are_their_own_replicates() {
    // 40-s runs hold too few resampling groups each to measure their dependence; with three
    // runs per arm the runs themselves show the spread, so no per-run rule vetoes the verdict.
    let s = Scratch::new("cmpshortruns");
    let runs: Vec<String> = (0..6)
        .map(|i| {
            let out = s.path(&format!("r{i}"));
            let seed = (40 + i).to_string();
            let o = credence(&["simulate", "--scenario", "steady", "--duration", "40s", "--seed", &seed, "--out", out.to_str().unwrap()]);
            assert!(o.status.success(), "{}", stderr(&o));
            out.to_str().unwrap().to_string()
        })
        .collect();
    let (_, v, text) = compare(&["--base", &runs[0], &runs[1], &runs[2], "--cand", &runs[3], &runs[4], &runs[5]]);
    for (name, m) in v["metrics"].as_object().unwrap() {
        assert!(m["too_few_groups"].is_null(), "{name}: {text}");
        assert!(!m["reason"].as_str().unwrap_or("").contains("resampling group"), "{name}: {text}");
    }
    // One run per arm of the same runs: the rule stands.
    let (_, v, text) = compare(&["--base", &runs[0], "--cand", &runs[3]]);
    assert!(v["metrics"]["ttft_p50"]["too_few_groups"].is_u64(), "{text}");
}

#[test]
fn the_first_sentence_gives_the_deciding_verdict_and_the_exit_code_follows_it() {
    // Both arms throttle for about a quarter of their windows; the candidate is 12 % slower in
    // TTFT. As measured the throttling hides the change; in clean windows it shows, and since
    // the episodes took the same share of both arms the clean verdict decides.
    let s = Scratch::new("cmpdecide");
    let run = |name: &str, seed: &str, extra: &[&str]| {
        let out = s.path(name);
        let mut args = vec!["simulate", "--scenario", "thermal-throttle", "--duration", "600s", "--seed", seed, "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = credence(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        out.to_str().unwrap().to_string()
    };
    let (base, cand) = (run("base", "11", &[]), run("cand", "12", &["--effect", "ttft=+12%"]));
    let (code, v, text) = compare(&["--base", &base, "--cand", &cand, "--fail-on", "regression"]);
    assert_eq!(v["decision"]["deciding"], "clean", "{text}");
    assert_eq!(v["decision"]["verdicts_differ"], true, "{text}");
    assert_eq!(v["clean"]["metrics"]["ttft_p50"]["verdict"], "regression", "the premise: {text}");
    assert_ne!(v["metrics"]["ttft_p50"]["verdict"], "regression", "the premise: {text}");
    assert!(text.starts_with("Regression in clean conditions: P50 TTFT +"), "{text}");
    let first = text.lines().next().unwrap();
    assert!(first.contains("as measured") && first.contains("so the clean verdict decides"), "{first}");
    assert_eq!(v["headline"].as_str().unwrap(), first, "the JSON headline is the printed first line");
    assert_eq!(code, 3, "the deciding (clean) verdict is a regression: {text}");
    // Naming the condition overrides the decision.
    let (code, _, _) = compare(&["--base", &base, "--cand", &cand, "--fail-on", "regression", "--condition", "as-measured"]);
    assert_eq!(code, 0);
    // The Markdown for a pull request leads with the same sentence.
    let o = credence(&["compare", "--base", &base, "--cand", &cand, "--resamples", "999", "--format", "md"]);
    let md = stdout(&o);
    let headline = md.lines().find(|l| l.contains("P50 TTFT")).unwrap();
    assert!(headline.contains("Regression in clean conditions"), "{md}");
    // In Chinese the Markdown leads with the same verdict and the same numbers.
    let o = credence(&["compare", "--base", &base, "--cand", &cand, "--resamples", "999", "--format", "md", "--lang", "zh"]);
    let zh = stdout(&o);
    let lead = |md: &str| md.lines().find(|l| !l.is_empty() && !l.starts_with('#')).unwrap().to_string();
    let (en_lead, zh_lead) = (lead(&md), lead(&zh));
    assert!(en_lead.starts_with("Regression in clean conditions"), "{md}");
    assert!(zh_lead.starts_with("退化"), "{zh}");
    assert_eq!(crate::common::numbers(&zh_lead), crate::common::numbers(&en_lead), "en: {en_lead}\nzh: {zh_lead}");
    assert!(!zh.contains("in clean conditions"), "the clean sentence is worded in Chinese: {zh}");
    // So does the plain text, whose clean-window lines are worded too.
    let o = credence(&["compare", "--base", &base, "--cand", &cand, "--resamples", "999", "--lang", "zh"]);
    let zh_text = stdout(&o);
    let zh_first = zh_text.lines().next().unwrap();
    assert_eq!(crate::common::numbers(zh_first), crate::common::numbers(first), "en: {first}\nzh: {zh_first}");
    assert!(zh_text.contains("干净窗口（基线排除") && !zh_text.contains("on clean windows"), "{zh_text}");
}

/// The plain text speaks Chinese with `--lang zh`, and with `--lang auto` under a Chinese
/// locale; a language credence lacks exits 2.
#[test]
fn the_plain_text_summary_speaks_the_language_asked_for() {
    let (base, cand) = (fixture("ab/base"), fixture("ab/cand"));
    let (base, cand) = (base.to_str().unwrap(), cand.to_str().unwrap());
    let en = stdout(&credence(&["compare", "--base", base, "--cand", cand]));
    let zh = stdout(&credence(&["compare", "--base", base, "--cand", cand, "--lang", "zh"]));
    assert!(zh.starts_with("退化：P50 TTFT"), "{zh}");
    assert_eq!(crate::common::numbers(zh.lines().next().unwrap()), crate::common::numbers(en.lines().next().unwrap()));
    for english in ["what changed:", "credibility MEDIUM", "[PASS]", "Base (base)"] {
        assert!(en.contains(english) && !zh.contains(english), "{english:?} in the Chinese summary: {zh}");
    }
    let auto = std::process::Command::new(env!("CARGO_BIN_EXE_credence"))
        .args(["compare", "--base", base, "--cand", cand, "--lang", "auto"])
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "zh_CN.UTF-8")
        .output()
        .unwrap();
    assert_eq!(stdout(&auto), zh, "--lang auto under LANG=zh_CN.UTF-8");
    let o = credence(&["compare", "--base", base, "--cand", cand, "--lang", "fr", "--format", "md"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("expected en, zh or auto"), "{}", stderr(&o));
}
