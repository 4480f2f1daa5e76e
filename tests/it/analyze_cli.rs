//! `credence analyze` through the real binary: the JSON contract, determinism, overrides and
//! bad input.


use crate::common::{Scratch, credence, fixture, stderr, stdout};
use credence::run::json_schema::check;
use serde_json::Value;

fn analyze_json(dir: &str, extra: &[&str], env: &[(&str, &str)]) -> (Value, String) {
    let s = Scratch::new("analyze");
    let out = s.path("analysis.json");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_credence"));
    cmd.args(["analyze", fixture(dir).to_str().unwrap(), "--out", out.to_str().unwrap(), "--resamples", "999"]).args(extra);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    (serde_json::from_str(&text).unwrap(), text)
}

#[test]
fn json_contract_and_schema() {
    let (a, _) = analyze_json("demo", &[], &[]);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(crate::common::repo().join("schemas/analysis.schema.json")).unwrap()).unwrap();
    let violations = check(&schema, &a);
    assert!(violations.is_empty(), "analysis.json violates schemas/analysis.schema.json:\n{}", violations.join("\n"));
    assert!(["flat", "warmup", "slowdown", "no_steady_state"].contains(&a["steady_state"]["classification"].as_str().unwrap()));
    assert!(a["steady_state"]["start_s"].is_number() && a["steady_state"]["end_s"].is_number());
    for m in ["ttft", "tpot", "itl", "e2e", "service"] {
        for s in ["p50", "p90", "p99", "p999", "mean"] {
            let e = &a["metrics"][m][s];
            for k in ["estimate", "ci_low", "ci_high", "confidence", "method", "n", "status"] {
                assert!(e.get(k).is_some(), "metrics.{m}.{s}.{k}");
            }
            if e["status"] == "ok" {
                assert!(e["ci_low"].as_f64() <= e["estimate"].as_f64() && e["estimate"].as_f64() <= e["ci_high"].as_f64());
            }
        }
    }
    for t in ["requests_per_s", "output_tokens_per_s"] {
        let e = &a["throughput"][t];
        assert_eq!(e["status"], "ok");
        assert_eq!(e["method"], "stationary_bootstrap");
        assert!(e["seed"].is_u64());
    }
    // The demo throttles mid-run: the detector keeps the run, judges it without the episode
    // (no break left), and the episode becomes a condition beside the clean windows.
    let detectors = a["steady_state"]["detectors"].as_array().unwrap();
    assert!(detectors.iter().any(|d| d["name"] == "clean_series" && d["verdict"] == "excluded"), "{detectors:?}");
    assert!(a["steady_state"]["breaks"].as_array().unwrap().is_empty());
    let names: Vec<&str> = a["conditions"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["clean", "thermal_throttle"]);
}

#[test]
fn same_input_gives_byte_identical_json_on_any_thread_count() {
    let (_, one) = analyze_json("scenarios/warmup", &[], &[("RAYON_NUM_THREADS", "1")]);
    let (_, four) = analyze_json("scenarios/warmup", &[], &[("RAYON_NUM_THREADS", "4")]);
    let (_, again) = analyze_json("scenarios/warmup", &[], &[]);
    assert!(one == four && four == again, "analysis JSON differs between runs or thread counts");
    let (_, other_seed) = analyze_json("scenarios/warmup", &["--seed", "7"], &[]);
    assert_ne!(one, other_seed);
}

#[test]
fn steady_window_override_is_recorded() {
    let (a, _) = analyze_json("scenarios/steady", &["--steady-from", "30s", "--steady-to", "90s"], &[]);
    let s = &a["steady_state"];
    assert_eq!(s["overridden"], true);
    assert_eq!(s["start_s"], 30.0);
    assert_eq!(s["end_s"], 90.0);
    assert!(a["options"]["steady_override"].is_array());
    let n = a["requests"]["in_steady_window"].as_u64().unwrap();
    assert!((500..700).contains(&n), "about 60 s at 10 requests/s: {n}");
}

#[test]
fn summary_and_warnings_are_printed() {
    let o = credence(&["analyze", fixture("scenarios/no-steady-state").to_str().unwrap(), "--resamples", "499"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.contains("steady state: NoSteadyState"), "{text}");
    assert!(text.contains("warning: No steady state was found"), "{text}");
    assert!(text.contains("ttft (ms)") && text.contains("throughput:"), "{text}");
    assert!(stderr(&o).is_empty(), "no progress output when stderr is not a terminal");
}

#[test]
fn closed_loop_service_latency_is_not_applicable() {
    let s = Scratch::new("closed");
    let run = s.path("run");
    let o = credence(&[
        "simulate",
        "--scenario",
        "steady",
        "--arrival",
        "closed-loop",
        "--concurrency",
        "8",
        "--duration",
        "60s",
        "--output-median",
        "32",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = credence(&["analyze", run.to_str().unwrap(), "--json", "--resamples", "299"]);
    let a: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(a["metrics"]["service"]["p50"]["status"], "not_applicable");
    assert_eq!(a["metrics"]["ttft"]["p50"]["status"], "ok");
}

#[test]
fn bad_input_exits_2() {
    let s = Scratch::new("badanalyze");
    let o = credence(&["analyze", s.path("missing").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a run directory"), "{}", stderr(&o));
    let o = credence(&["analyze", fixture("demo").to_str().unwrap(), "--confidence", "1.5"]);
    assert_eq!(o.status.code(), Some(2));
    let o = credence(&["analyze", fixture("demo").to_str().unwrap(), "--out", s.path("no/such/dir/a.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not exist"));
    // A broken table is bad input too, with a hint to validate.
    let run = s.path("run");
    crate::common::copy_dir(&fixture("scenarios/steady"), &run);
    std::fs::write(run.join("requests.parquet"), b"garbage").unwrap();
    let o = credence(&["analyze", run.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("hint: run `credence validate RUN`"), "{}", stderr(&o));
}

/// Every number in the credibility statement equals a JSON field (recomputed here).
#[test]
fn the_statement_numbers_come_from_the_json() {
    for fixture in ["demo", "scenarios/client-saturation"] {
        let (a, _) = analyze_json(fixture, &[], &[]);
        let c = &a["credibility"];
        let text = c["statement"].as_str().unwrap();
        let s = &a["steady_state"];
        let f = |v: &Value| v.as_f64().unwrap();
        let expect = [
            format!("Credibility {}.", c["grade"].as_str().unwrap()),
            format!("measured {} requests", s["requests_in_window"]),
            format!("over {:.0} s of steady state", f(&s["end_s"]) - f(&s["start_s"])),
            format!("dropping {:.0} s ({} requests) of warmup", f(&s["dropped_start_s"]), s["dropped_start_requests"]),
        ];
        // The tail is named only where one was dropped.
        let tail = format!("{:.0} s ({} requests) at the end", f(&s["dropped_end_s"]), s["dropped_end_requests"]);
        assert_eq!(text.contains(&tail), s["dropped_end_requests"].as_u64() != Some(0), "{fixture}: {tail:?} in:\n{text}");
        for e in &expect {
            assert!(text.contains(e.as_str()), "{fixture}: statement lacks {e:?}:\n{text}");
        }
        // Half-widths: from the estimates themselves, not from credibility.half_widths.
        let est = [
            ("throughput", &a["throughput"]["requests_per_s"]),
            ("P50 TTFT", &a["metrics"]["ttft"]["p50"]),
            ("P99 TTFT", &a["metrics"]["ttft"]["p99"]),
            ("P50 TPOT", &a["metrics"]["tpot"]["p50"]),
        ];
        for (label, e) in est {
            if e["status"] == "ok" {
                let h = (f(&e["ci_high"]) - f(&e["ci_low"])) / 2.0 / f(&e["estimate"]) * 100.0;
                assert!(text.contains(&format!("{label} ±{h:.1} %")), "{fixture}: statement lacks {label} ±{h:.1} %:\n{text}");
            } else {
                assert!(text.contains(label) && text.contains("cannot be bounded"), "{fixture}: {label} should be named unbounded:\n{text}");
            }
        }
        let failed: Vec<&str> = c["checks"].as_array().unwrap().iter().filter(|k| k["status"] == "FAIL").map(|k| k["name"].as_str().unwrap()).collect();
        for name in failed.iter().filter(|n| !n.starts_with("environment.")) {
            assert!(text.contains(name), "{fixture}: failed check {name} missing from the statement");
        }
        assert_eq!(c["grade"] == "LOW", !failed.is_empty());
    }
    // The findings show in the text output, with the action.
    let o = credence(&["analyze", fixture("demo").to_str().unwrap(), "--resamples", "499"]);
    let text = stdout(&o);
    assert!(text.contains("GPU thermal throttling [thermal_throttle]") && text.contains("action:") && text.contains("credibility: LOW"), "{text}");
}
