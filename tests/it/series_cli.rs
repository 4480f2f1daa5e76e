//! `credence bench --repeat N`: a series of runs into OUT/run-1…N with series.json, read by
//! compare, plan and report as replicated runs.


use crate::common::{MockProcess, Scratch, credence, stderr, stdout};
use serde_json::Value;

fn read_json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

#[test]
fn a_series_runs_before_each_command_and_reads_as_replicated_runs() {
    let srv = MockProcess::start(&["--ttft", "100ms", "--token-delay", "20ms", "--output-tokens", "8"]);
    let s = Scratch::new("series");
    let out = s.path("series");
    let marker = s.path("marker");
    let before = format!("echo restarted >> {}", marker.display());
    let args = ["bench", "--url", &srv.url, "--model", "m", "--out", out.to_str().unwrap(), "--rate", "20", "--duration", "25s", "--output-len", "8"];
    let mut all = args.to_vec();
    all.extend(["--repeat", "3", "--cooldown", "1s", "--before-each", &before]);
    let o = credence(&all);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&marker).unwrap().lines().count(), 3, "--before-each ran before every run");
    let series = read_json(&out.join("series.json"));
    assert_eq!(series["planned_runs"], 3);
    assert_eq!(series["cooldown_s"], 1.0);
    let runs = series["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(r["run"], format!("run-{}", i + 1));
        assert_eq!(r["before_each"]["exit_code"], 0);
        assert!(r["before_each"]["duration_s"].as_f64().unwrap() >= 0.0);
        assert!(out.join(format!("run-{}", i + 1)).join("run.json").is_file());
    }
    // compare reads the series as three replicated runs per arm.
    let cmp = s.path("compare.json");
    let o = credence(&["compare", "--resamples", "499", "--base", out.to_str().unwrap(), "--cand", out.to_str().unwrap(), "--out", cmp.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = read_json(&cmp);
    assert_eq!(v["base_runs"].as_array().unwrap().len(), 3, "{}", stdout(&o));
    let replication = v["gates"].as_array().unwrap().iter().find(|g| g["name"] == "replication").unwrap();
    assert_eq!(replication["status"], "PASS", "{replication}");
    assert_eq!(v["metrics"]["ttft_p50"]["change"]["method"], credence::analyze::compare::METHOD);
    assert!(v["metrics"]["ttft_p50"]["variance"]["base"]["between"].is_number());
    // plan measures the between-run variance from it.
    let o = credence(&["plan", out.to_str().unwrap(), "--metric", "ttft_p50"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 runs") && stdout(&o).contains("(measured)"), "{}", stdout(&o));
    // report grades the three runs together.
    let report = s.path("report.json");
    let o = credence(&["report", out.to_str().unwrap(), "--format", "json", "--out", report.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&report).unwrap();
    for i in 1..=3 {
        let id = read_json(&out.join(format!("run-{i}")).join("run.json"))["run_id"].as_str().unwrap().to_string();
        assert!(text.contains(&id), "the report covers run-{i} ({id})");
    }
    // analyze takes one run and says how to read a series.
    let o = credence(&["analyze", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a series of 3 runs"), "{}", stderr(&o));
}

#[test]
fn a_failing_before_each_stops_the_series_with_exit_2() {
    let srv = MockProcess::start(&["--ttft", "5ms", "--token-delay", "1ms", "--output-tokens", "4"]);
    let s = Scratch::new("seriesfail");
    let out = s.path("series");
    let o = credence(&[
        "bench",
        "--url",
        &srv.url,
        "--model",
        "m",
        "--out",
        out.to_str().unwrap(),
        "--rate",
        "20",
        "--requests",
        "10",
        "--output-len",
        "4",
        "--repeat",
        "2",
        "--before-each",
        "exit 3",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--before-each failed before repetition 1") && stderr(&o).contains("exit code 3"), "{}", stderr(&o));
    let series = read_json(&out.join("series.json"));
    assert_eq!(series["stopped_early"], true);
    assert_eq!(series["runs"][0]["before_each"]["exit_code"], 3);
    assert!(series["runs"][0]["run"].is_null() && !out.join("run-1").exists());
}

#[test]
fn repeat_zero_and_stray_series_flags_exit_2() {
    let s = Scratch::new("serieszero");
    let out = s.path("x");
    let base = ["bench", "--url", "http://127.0.0.1:9", "--model", "m", "--out", out.to_str().unwrap(), "--rate", "5", "--requests", "5"];
    for extra in [&["--repeat", "0"][..], &["--cooldown", "5s"], &["--repeat", "2", "--sweep", "rate=1,2"]] {
        let mut all = base.to_vec();
        all.extend_from_slice(extra);
        let o = credence(&all);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(!out.exists(), "{extra:?}: nothing is written");
    }
    let mut all = base.to_vec();
    all.extend(["--repeat", "0"]);
    assert!(stderr(&credence(&all)).contains("--repeat 0"));
}
