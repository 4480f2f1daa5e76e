//! inference-perf 0.7.0's real outputs (fixtures/peers/inference-perf-0.7.0/): every case is
//! imported, validated, analyzed and audited through the real binary. The claims of its
//! summaries must be reproduced from its own per-request file, the error counts must be the
//! tool's (and the mock server's), the workload the config's, and the clock anchor must hold
//! the harness's exact perf_counter/epoch pair within the precision the import states.


use std::path::{Path, PathBuf};

use arrow_array::Array;
use crate::common::{Scratch, credence, fixture, stderr};
use serde_json::{Value, json};

const CASES: [&str; 6] = ["concurrency", "constant-two-stages", "faults", "long-output", "open-loop-poisson", "sigint"];

fn dir(case: &str) -> PathBuf {
    fixture("peers/inference-perf-0.7.0").join(case)
}

/// The case's files whose names pass `keep`, sorted.
fn named(case: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir(case))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| keep(p.file_name().unwrap().to_str().unwrap()))
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    out.sort();
    out
}

/// What `import` is given: the per-request file, the stage reports and the config.
fn import_inputs(case: &str) -> Vec<String> {
    named(case, |n| n == "per_request_lifecycle_metrics.json" || n == "config.yaml" || n.starts_with("inference-perf.partial.stage_"))
}

/// The tool's lifecycle summaries.
fn summaries(case: &str) -> Vec<String> {
    named(case, |n| n.ends_with("_lifecycle_metrics.json") && n != "per_request_lifecycle_metrics.json")
}

fn json_file(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn run(args: &[&str]) -> std::process::Output {
    credence(args)
}

fn import(inputs: &[String], out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["import", "inference-perf"];
    args.extend(inputs.iter().map(String::as_str));
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    run(&args)
}

fn audit(inputs: &[String], out: &Path) -> Value {
    let mut args = vec!["audit"];
    args.extend(inputs.iter().map(String::as_str));
    args.extend_from_slice(&["-o", out.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    let o = run(&args);
    assert!(o.status.success(), "audit {inputs:?}: {}", stderr(&o));
    json_file(out)
}

/// The workload each case's input-config.yaml asked for: arrival, rate, concurrency, duration.
fn expected_workload(case: &str) -> Value {
    match case {
        "concurrency" => json!(["closed_loop", null, 4, null]),
        "constant-two-stages" => json!(["constant", null, null, 8.0]),
        "faults" => json!(["poisson", 8.0, null, 6.0]),
        "long-output" => json!(["closed_loop", null, 2, null]),
        "open-loop-poisson" => json!(["poisson", 5.0, null, 8.0]),
        "sigint" => json!(["constant", 8.0, null, 30.0]),
        _ => unreachable!(),
    }
}

/// The two bounds of "true − stored ∈ [a s, b s]" in the clock's conversion text.
fn stated_precision(conversion: &str) -> (f64, f64) {
    let at = conversion.find("true − stored ∈ [").expect("the conversion states the anchor's precision") + "true − stored ∈ [".len();
    let rest = &conversion[at..];
    let inner = &rest[..rest.find(']').unwrap()];
    let mut bounds = inner.split(',').map(|x| x.trim().trim_end_matches(" s").parse::<f64>().unwrap());
    (bounds.next().unwrap(), bounds.next().unwrap())
}

/// The anchor holds the harness's clock pair (read on the same host, CLOCK_MONOTONIC) within the
/// stated precision, and the run is dated in 2026.
fn check_clock(case: &str, out: &Path) {
    let r = credence::run::load(out).unwrap();
    let clock = &r.manifest.clock;
    assert_eq!(serde_json::to_value(clock.timestamps).unwrap(), "absolute", "{case}");
    let (lo, hi) = stated_precision(clock.conversion.as_deref().unwrap());
    let records = json_file(&dir(case).join("per_request_lifecycle_metrics.json"));
    let first_perf = records.as_array().unwrap().iter().map(|x| x["start_time"].as_f64().unwrap()).fold(f64::INFINITY, f64::min);
    let sent: Vec<i64> = r.requests.timestamps("sent_ns").unwrap().iter().map(|x| x.unwrap()).collect();
    let stored_offset_s = (*sent.iter().min().unwrap() - (first_perf * 1e9).round() as i64) as f64 / 1e9;
    let h = json_file(&dir(case).join("harness.json"));
    let truth = h["clock_before_run"]["epoch_s"].as_f64().unwrap() - h["clock_before_run"]["perf_counter_s"].as_f64().unwrap();
    let delta = truth - stored_offset_s;
    assert!(lo - 1e-5 <= delta && delta <= hi + 1e-5, "{case}: true − stored = {delta:.4} s, stated [{lo}, {hi}]");
    // A bound that says something: these stages' reports pin the clock to about a second.
    assert!(hi < 1.6 && delta < 1.1, "{case}: stated [{lo}, {hi}], off by {delta:.4} s");
    let (y2026, y2027) = (1_767_225_600_000_000_000i64, 1_798_761_600_000_000_000i64);
    assert!(sent.iter().all(|s| (y2026..y2027).contains(s)), "{case}: dated in 2026");
}

/// The requests table's error kinds equal the tool's own failure counts (by label) and the
/// faults the mock server injected.
fn check_errors(case: &str, out: &Path, analysis: &Value) {
    let summary = json_file(&dir(case).join("summary_lifecycle_metrics.json"));
    let failures = summary["failures"]["count"].as_u64().unwrap();
    assert_eq!(analysis["errors"]["errors"].as_u64().unwrap(), failures, "{case}: credence's error count is the tool's");
    assert_eq!(analysis["errors"]["cancelled"], 0, "{case}: requests cancelled at teardown are absent, not errors");
    let r = credence::run::load(out).unwrap();
    let kinds = r.requests.strings("error_kind").unwrap();
    let count = |k: &str| (0..kinds.len()).filter(|&i| kinds.is_valid(i) && kinds.value(i) == k).count() as u64;
    let mut labelled = 0;
    for (label, v) in summary["failures"]["by_label"].as_object().into_iter().flatten() {
        let kind = match label.as_str() {
            "clientpayloaderror" => "disconnected",
            l if l.starts_with("500 ") => "http_5xx",
            l => panic!("{case}: no kind expected for label {l}"),
        };
        assert_eq!(count(kind), v["count"].as_u64().unwrap(), "{case}: {label}");
        labelled += count(kind);
    }
    assert_eq!(labelled, failures, "{case}: every failure has its kind");
    let served = h_metric(case, "mock_faults_total{kind=\"http_500\"}") + h_metric(case, "mock_faults_total{kind=\"drop\"}");
    assert_eq!(failures, served, "{case}: the failures are the faults the mock server injected");
}

fn h_metric(case: &str, name: &str) -> u64 {
    let h = json_file(&dir(case).join("harness.json"));
    let lines = h["mock_server_metrics_after_run"].as_array().unwrap();
    lines.iter().filter_map(|l| l.as_str()?.strip_prefix(name)?.trim().parse().ok()).next().unwrap_or(0)
}

#[test]
fn every_case_imports_validates_analyzes_and_reproduces_the_tools_claims() {
    let s = Scratch::new("peers_ip");
    for case in CASES {
        let out = s.path(case);
        let o = import(&import_inputs(case), &out, &[]);
        assert!(o.status.success(), "{case}: {}", stderr(&o));
        let v = run(&["validate", out.to_str().unwrap(), "--json"]);
        let report: Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(report["valid"], true, "{case}: {}", String::from_utf8_lossy(&v.stdout));
        let a = run(&["analyze", out.to_str().unwrap(), "--json", "--resamples", "499"]);
        assert!(a.status.success(), "{case}: {}", stderr(&a));
        let analysis: Value = serde_json::from_slice(&a.stdout).unwrap();
        let w = expected_workload(case);
        let got = &analysis["run"];
        assert_eq!(json!([got["arrival"], got["rate_per_s"], got["concurrency"]]), json!([w[0], w[1], w[2]]), "{case}");
        let m = credence::run::load(&out).unwrap().manifest;
        assert_eq!(m.workload.duration_s, w[3].as_f64(), "{case}");
        assert_eq!(m.workload.streaming, Some(true), "{case}");
        assert_eq!(m.config.model.as_deref(), Some("mock"), "{case}: the model from config.yaml");
        assert_eq!(
            m.workload.output_length.as_deref(),
            Some(match case {
                "long-output" => "fixed(800)",
                "sigint" => "fixed(48)",
                _ => "fixed(16)",
            }),
            "{case}"
        );
        check_clock(case, &out);
        check_errors(case, &out, &analysis);
        assert!(analysis["metrics"]["ttft"]["p50"]["estimate"].as_f64().unwrap() > 20.0, "{case}: the mock's TTFT is 20 ms; none lost");
        check_audit(case, &s);
    }
}

/// Every claim of the summaries and stage reports is reproduced to the tool's printed precision
/// (full doubles), except those the per-request file cannot support.
fn check_audit(case: &str, s: &Scratch) {
    let mut inputs = import_inputs(case);
    inputs.extend(summaries(case));
    let v = audit(&inputs, &s.path(&format!("{case}-audit.json")));
    let claims = v["audit"]["claims"].as_array().unwrap();
    assert!(claims.len() > 400, "{case}: every number of every summary is a claim ({})", claims.len());
    for c in claims {
        let key = c["key"].as_str().unwrap();
        if c["verdict"] == "not_recomputable" {
            let expected =
                key.contains("load_summary.schedule_delay.") || key.ends_with("load_summary.requested_rate") || key.ends_with("load_summary.concurrency");
            assert!(expected, "{case}: {c}");
            assert!(c["reason"].as_str().unwrap().contains("scheduled time") || c["reason"].as_str().unwrap().contains("configured"), "{c}");
            continue;
        }
        assert_eq!(c["verdict"], "reproduced", "{case}: {c}");
        let (tool, again) = (c["tool_value"].as_f64().unwrap(), c["recomputed"].as_f64().unwrap());
        assert!((tool - again).abs() <= 1e-9 * tool.abs().max(1e-9), "{case}: {key}: {tool} against {again}");
    }
    for file in summaries(case).iter().chain(&import_inputs(case)).filter(|f| !f.ends_with("per_request_lifecycle_metrics.json") && !f.ends_with("config.yaml"))
    {
        let name = Path::new(file).file_name().unwrap().to_str().unwrap();
        assert!(claims.iter().any(|c| c["key"].as_str().unwrap().starts_with(&format!("{name}:"))), "{case}: {name} has claims");
    }
}

#[test]
fn stages_are_told_apart_by_their_reports_windows() {
    let s = Scratch::new("peers_ip_stages");
    let case = "constant-two-stages";
    let out = s.path("run");
    let o = import(&import_inputs(case), &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = credence::run::load(&out).unwrap().manifest;
    let note = m.phases.note.unwrap();
    assert!(note.contains("stage 0: rate 3/s for 4 s (12 requests), 12 records; stage 1: rate 6/s for 4 s (24 requests), 24 records"), "{note}");
    assert_eq!(m.workload.rate_per_s, None, "two rates are no one rate");
    let notes = m.source.capabilities.unwrap().notes;
    assert!(notes.iter().any(|n| n.contains("several stages at different loads")), "{notes:?}");
    // Without stage 1's report its records cannot be placed: its claims say so.
    let d = dir(case);
    let inputs: Vec<String> = [
        "per_request_lifecycle_metrics.json",
        "inference-perf.partial.stage_0.yaml",
        "config.yaml",
        "stage_1_lifecycle_metrics.json",
        "stage_0_lifecycle_metrics.json",
    ]
    .iter()
    .map(|n| d.join(n).to_str().unwrap().to_string())
    .collect();
    let v = audit(&inputs, &s.path("audit.json"));
    for c in v["audit"]["claims"].as_array().unwrap() {
        let key = c["key"].as_str().unwrap();
        let not_from_requests = key.contains("schedule_delay") || key.ends_with("requested_rate");
        if key.starts_with("stage_1_lifecycle_metrics.json:") {
            assert_eq!(c["verdict"], "not_recomputable", "{c}");
            assert!(not_from_requests || c["reason"].as_str().unwrap().contains("inference-perf.partial.stage_1.yaml"), "{c}");
        } else if !not_from_requests {
            assert_eq!(c["verdict"], "reproduced", "{c}");
        }
    }
}

#[test]
fn without_a_stage_report_the_clock_needs_start_and_says_it_is_assumed() {
    let s = Scratch::new("peers_ip_start");
    let file = dir("faults").join("per_request_lifecycle_metrics.json").to_str().unwrap().to_string();
    let out = s.path("none");
    let o = import(std::slice::from_ref(&file), &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("per_request_lifecycle_metrics.json") && err.contains("perf_counter"), "{err}");
    assert!(err.contains("inference-perf.partial.stage_0.yaml") && err.contains("--start"), "the hint names both ways: {err}");
    assert!(!out.exists(), "nothing written");
    let o = import(std::slice::from_ref(&file), &out, &["--start", "2026-11-30 22:27:31"]);
    assert_eq!(o.status.code(), Some(2), "a --start without its zone is refused");
    assert!(stderr(&o).contains("zone"), "{}", stderr(&o));
    // Both anchors at once: refused, the stage report being the tool's own.
    let both = vec![file.clone(), dir("faults").join("inference-perf.partial.stage_0.yaml").to_str().unwrap().to_string()];
    let o = import(&both, &out, &["--start", "2026-11-30T22:27:31Z"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("both --start and a stage report"), "{}", stderr(&o));
    assert!(!out.exists());
    let o = import(std::slice::from_ref(&file), &out, &["--start", "2026-11-30T22:27:31.5Z"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = credence::run::load(&out).unwrap();
    let first = r.requests.timestamps("sent_ns").unwrap().iter().map(|x| x.unwrap()).min().unwrap();
    assert_eq!(first, 1_796_077_651_500_000_000, "the first request is sent at --start");
    assert!(r.manifest.clock.conversion.unwrap().contains("anchor ASSUMED from --start 2026-11-30T22:27:31.5Z"));
    assert!(r.manifest.source.capabilities.unwrap().notes.iter().any(|n| n.contains("ASSUMED")));
    // --start where nothing needs it.
    let o = import(&summaries("faults")[..1], &s.path("other"), &["--start", "2026-11-30T22:27:31Z"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--start anchors"), "{}", stderr(&o));
}

#[test]
fn summaries_alone_are_audited_but_not_recomputed() {
    let s = Scratch::new("peers_ip_aggr");
    let v = audit(&summaries("faults"), &s.path("a.json"));
    let claims = v["audit"]["claims"].as_array().unwrap();
    assert!(claims.len() > 200);
    for c in claims {
        assert_eq!(c["verdict"], "not_recomputable", "{c}");
    }
    let failures = claims.iter().find(|c| c["key"] == "summary_lifecycle_metrics.json:failures.count").unwrap();
    assert!(failures["reason"].as_str().unwrap().contains("per_request_lifecycle_metrics.json"), "{failures}");
}

/// The faults case's per-request file with `edit` applied (NaN written where a value is the
/// string "NaN!"), beside a copy of its stage report; returns both paths.
fn edited(s: &Scratch, edit: impl Fn(&mut Value)) -> Vec<String> {
    let mut v = json_file(&dir("faults").join("per_request_lifecycle_metrics.json"));
    edit(&mut v);
    let text = serde_json::to_string_pretty(&v).unwrap().replace("\"NaN!\"", "NaN");
    let p = s.path("per_request_lifecycle_metrics.json");
    std::fs::write(&p, text).unwrap();
    let y = s.path("inference-perf.partial.stage_0.yaml");
    std::fs::copy(dir("faults").join("inference-perf.partial.stage_0.yaml"), &y).unwrap();
    vec![p.to_str().unwrap().to_string(), y.to_str().unwrap().to_string()]
}

/// The index of the `n`-th successful record of the faults case.
fn ok_record(n: usize) -> usize {
    let v = json_file(&dir("faults").join("per_request_lifecycle_metrics.json"));
    v.as_array().unwrap().iter().enumerate().filter(|(_, r)| r["error"].is_null()).nth(n).unwrap().0
}

fn refused(inputs: &[String], out: &Path, must: &[&str]) {
    let o = import(inputs, out, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    for m in must {
        assert!(err.contains(m), "{m:?} in {err}");
    }
    assert!(!out.exists(), "nothing written");
}

#[test]
fn bad_records_are_refused_naming_the_file_and_the_record() {
    let s = Scratch::new("peers_ip_bad");
    // Cut short inside a record.
    let text = std::fs::read_to_string(dir("faults").join("per_request_lifecycle_metrics.json")).unwrap();
    let cut = text.len() * 3 / 5;
    let record = text[..cut].matches("\n  {").count() - 1;
    let p = s.path("per_request_lifecycle_metrics.json");
    std::fs::write(&p, &text[..cut]).unwrap();
    let y = dir("faults").join("inference-perf.partial.stage_0.yaml").to_str().unwrap().to_string();
    refused(&[p.to_str().unwrap().into(), y], &s.path("cut"), &["per_request_lifecycle_metrics.json", &format!("record [{record}]"), "not valid JSON"]);
    // A wrong type in a key.
    let k = ok_record(3);
    let inputs = edited(&s, |v| v[k]["info"]["response_metrics"]["chunk_times"] = json!("soon"));
    refused(
        &inputs,
        &s.path("type"),
        &["per_request_lifecycle_metrics.json", &format!("record [{k}], key info.response_metrics.chunk_times"), "expected an array", "\"soon\""],
    );
    // NaN where the send time must be.
    let inputs = edited(&s, |v| v[5]["start_time"] = json!("NaN!"));
    refused(&inputs, &s.path("nan"), &["per_request_lifecycle_metrics.json", "record [5], key start_time", "finite number", "NaN"]);
}

#[test]
fn a_nan_chunk_time_and_a_negative_chunk_gap_are_kept_as_invalid_rows() {
    let s = Scratch::new("peers_ip_invalid");
    let (a, b) = (ok_record(2), ok_record(7));
    let inputs = edited(&s, |v| {
        v[a]["info"]["response_metrics"]["chunk_times"][4] = json!("NaN!");
        let c = &mut v[b]["info"]["response_metrics"]["chunk_times"];
        let (t3, t4) = (c[3].clone(), c[4].clone());
        (c[3], c[4]) = (t4, t3);
    });
    let out = s.path("run");
    let o = import(&inputs, &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 source records break the requests contract"), "{}", stderr(&o));
    let v = run(&["validate", out.to_str().unwrap(), "--json"]);
    assert_eq!(serde_json::from_slice::<Value>(&v.stdout).unwrap()["valid"], true);
    let r = credence::run::load(&out).unwrap();
    let (ids, kinds, msgs) =
        (r.requests.strings("request_id").unwrap(), r.requests.strings("error_kind").unwrap(), r.requests.strings("error_message").unwrap());
    let message = |id: usize| {
        let i = (0..ids.len()).find(|&i| ids.value(i) == id.to_string()).unwrap();
        assert_eq!(kinds.value(i), "invalid_source_row");
        msgs.value(i).to_string()
    };
    assert_eq!(message(a), format!("per_request_lifecycle_metrics.json, request {a}: key info.response_metrics.chunk_times[4] is NaN"));
    let gap = message(b);
    assert!(gap.starts_with(&format!("per_request_lifecycle_metrics.json, request {b}: chunk 4 arrives")) && gap.contains("negative gap"), "{gap}");
}

#[test]
fn stage_reports_of_another_run_are_refused() {
    let s = Scratch::new("peers_ip_mixed");
    let file = |case: &str, name: &str| dir(case).join(name).to_str().unwrap().to_string();
    let records = file("faults", "per_request_lifecycle_metrics.json");
    // Another run's report: its request count does not match the records in its window.
    let other = [records.clone(), file("concurrency", "inference-perf.partial.stage_0.yaml")];
    refused(&other, &s.path("a"), &["concurrency", "inference-perf.partial.stage_0.yaml", "stage 0 counts 40 requests", "not the same run"]);
    // Reports of two runs together.
    let mixed = [records, file("faults", "inference-perf.partial.stage_0.yaml"), file("constant-two-stages", "inference-perf.partial.stage_1.yaml")];
    refused(&mixed, &s.path("b"), &["are of different runs (run.eid)"]);
}

/// The files inference-perf itself writes into its `reports/` folder (not the harness's).
fn tool_files(case: &str) -> Vec<String> {
    named(case, |n| !matches!(n, "harness.json" | "tool-stdout.txt" | "input-config.yaml"))
}

/// `credence import reports/` and `credence import reports/*` read the same files into the
/// same run, and name validation.json as skipped instead of failing on it; `audit reports/`
/// reads the summaries too.
#[test]
fn the_reports_folder_is_an_input_and_validation_json_is_skipped() {
    let sc = Scratch::new("peers_ip_folder");
    let reports = sc.path("reports");
    std::fs::create_dir_all(&reports).unwrap();
    for f in tool_files("faults") {
        let f = Path::new(&f);
        std::fs::copy(f, reports.join(f.file_name().unwrap())).unwrap();
    }
    let listed: Vec<String> = tool_files("faults").iter().map(|f| reports.join(Path::new(f).file_name().unwrap()).to_str().unwrap().to_string()).collect();
    assert!(listed.iter().any(|f| f.ends_with("validation.json")), "the fixture has a validation.json");
    let skipped_validation = |o: &std::process::Output| {
        let err = stderr(o);
        let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("skipped ")).collect();
        assert_eq!(lines.len(), 1, "{err}");
        assert!(
            lines[0].ends_with("validation.json: inference-perf's validation.json (its checks of its own reports; credence checks the reports itself)"),
            "{err}"
        );
    };
    let by_folder = sc.path("by-folder");
    let o = run(&["import", reports.to_str().unwrap(), "--out", by_folder.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    skipped_validation(&o);
    let by_glob = sc.path("by-glob");
    let mut args = vec!["import"];
    args.extend(listed.iter().map(String::as_str));
    args.extend_from_slice(&["--out", by_glob.to_str().unwrap()]);
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    skipped_validation(&o);
    assert_eq!(crate::common::dir_bytes(&by_folder), crate::common::dir_bytes(&by_glob), "the folder and its files make the same run");
    let m = json_file(&by_folder.join("run.json"));
    assert_eq!(m["source"]["files"].as_array().unwrap().len(), listed.len() - 1, "every file but validation.json is read");
    let report = sc.path("audit.json");
    let o = run(&["audit", reports.to_str().unwrap(), "-o", report.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a = &json_file(&report)["audit"];
    assert!(a["reproduced"].as_u64().unwrap() > 0 && a["differing"] == 0, "{a}");
}

/// The fixture's case folder also holds the harness's files: they are listed as skipped (the
/// config given to the tool as a second config, which the tool's resolved config.yaml wins).
#[test]
fn a_case_folder_with_the_harness_files_imports() {
    let sc = Scratch::new("peers_ip_case_folder");
    let out = sc.path("run");
    let o = run(&["import", dir("concurrency").to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let skipped: Vec<&str> = err.lines().filter(|l| l.starts_with("skipped ")).collect();
    assert_eq!(skipped.len(), 4, "{err}");
    assert!(err.contains("input-config.yaml: another inference-perf-config file is read for this run:"), "{err}");
    assert!(err.contains("harness.json: a JSON file of no known benchmark format"), "{err}");
    let v = run(&["validate", out.to_str().unwrap(), "--json"]);
    assert!(v.status.success());
}
