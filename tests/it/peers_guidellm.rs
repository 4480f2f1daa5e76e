//! guidellm 0.8.1's real outputs (`fixtures/peers/guidellm-0.8.1/<case>/benchmarks.json`, made
//! against `credence mock-server`): every case imports, validates, analyzes and audits; every
//! summary number guidellm wrote is a claim recomputed from its own records with its own
//! definitions; outcomes, phases, workload and clock match what guidellm itself reports. Bad
//! input is refused with exit 2 naming the file, the record and the key, and nothing written.
//! A client that kept its schedule is not called saturated, and the audit compares guidellm's
//! numbers with credence's metric of the same meaning or says why there is none.
//! (`sigint/` holds no benchmarks.json: guidellm writes nothing when stopped with Ctrl-C.)


use std::path::{Path, PathBuf};

use arrow_array::Array;
use crate::common::{Scratch, credence, fixture, stderr};
use serde_json::Value;

fn cases() -> Vec<(String, PathBuf)> {
    let dir = fixture("peers/guidellm-0.8.1");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("benchmarks.json").exists())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p.join("benchmarks.json")))
        .collect();
    out.sort();
    out
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The tool's command line from the harness, e.g. `--profile kind=constant,rate=5`: a value of
/// one of its `key=value` options.
fn harness_option(case: &Path, option: &str, key: &str) -> Option<String> {
    let h = json(&case.parent().unwrap().join("harness.json"));
    let argv: Vec<&str> = h["command"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
    let arg = argv.windows(2).find(|w| w[0] == option && w[1].contains("kind=")).map(|w| w[1])?;
    arg.split(',').find_map(|kv| kv.strip_prefix(&format!("{key}="))).map(String::from)
}

/// Row counts of the imported run by (ok, error kind, phase).
struct Rows {
    errors: usize,
    cancelled: usize,
    phases: [usize; 3],
    sent: Vec<i64>,
    scheduled: Vec<Option<i64>>,
}

fn rows(run_dir: &Path) -> Rows {
    let run = credence::run::load(run_dir).unwrap();
    let kinds = run.requests.strings("error_kind").unwrap();
    let phase = run.requests.strings("phase").unwrap();
    let kind = |i: usize| kinds.is_valid(i).then(|| kinds.value(i));
    let n = run.requests.num_rows();
    let count_phase = |p: &str| (0..n).filter(|&i| phase.value(i) == p).count();
    Rows {
        errors: (0..n).filter(|&i| kind(i).is_some_and(|k| k != "cancelled")).count(),
        cancelled: (0..n).filter(|&i| kind(i) == Some("cancelled")).count(),
        phases: [count_phase("warmup"), count_phase("measure"), count_phase("cooldown")],
        sent: run.requests.timestamps("sent_ns").unwrap().iter().map(|x| x.unwrap()).collect(),
        scheduled: run.requests.timestamps("scheduled_ns").unwrap().to_vec(),
    }
}

/// 2026-01-01 and 2027-01-01 in epoch ns: the fixtures were made on 2026-11-30.
const YEAR_2026_NS: std::ops::Range<i64> = 1_767_225_600_000_000_000..1_798_761_600_000_000_000;

#[test]
fn every_case_imports_validates_analyzes_and_matches_guidellm() {
    let cases = cases();
    assert_eq!(cases.len(), 9, "every case but sigint has a benchmarks.json: {cases:?}");
    for (case, file) in &cases {
        let s = Scratch::new(&format!("gl-{case}"));
        let out = s.path("run");
        let o = credence(&["import", file.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{case}: {}", stderr(&o));
        let v = credence(&["validate", out.to_str().unwrap(), "--json"]);
        let report: Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(report["valid"], true, "{case}: {}", String::from_utf8_lossy(&v.stdout));
        let a = credence(&["analyze", out.to_str().unwrap(), "--json", "--resamples", "499"]);
        assert!(a.status.success(), "{case}: {}", stderr(&a));
        let analysis: Value = serde_json::from_slice(&a.stdout).unwrap();
        let g = json(file);
        let b = &g["benchmarks"][0];
        check_outcomes(case, b, &rows(&out), &analysis);
        check_phases(case, b, &rows(&out), &out);
        check_workload_and_clock(case, file, &out, &rows(&out));
    }
}

/// Errors and cancellations as guidellm counts them: its errored list is the scheduler's error
/// count; the incomplete list is what it cancelled itself, outside the error rate.
fn check_outcomes(case: &str, b: &Value, rows: &Rows, analysis: &Value) {
    let listed = |g: &str| b["requests"][g].as_array().unwrap().len();
    assert_eq!(rows.errors, listed("errored"), "{case}");
    assert_eq!(rows.errors as u64, b["scheduler_metrics"]["requests_made"]["errored"].as_u64().unwrap(), "{case}: guidellm's own error count");
    assert_eq!(rows.cancelled, listed("incomplete"), "{case}");
    let errors = &analysis["errors"];
    assert!(errors["errors"].as_u64().unwrap() <= rows.errors as u64 && errors["cancelled"].as_u64().unwrap() <= rows.cancelled as u64, "{case}: {errors}");
    if rows.errors == 0 {
        assert_eq!(errors["errors"], 0, "{case}: guidellm reports no errors");
        assert_eq!(errors["rate"]["estimate"], 0.0, "{case}: {errors}");
    }
    if case == "faults" {
        // The whole run is steady enough to hold every request: 9 errors (3 HTTP 500, 6 cut
        // short), the one request guidellm cancelled set apart.
        assert_eq!((errors["errors"].as_u64(), errors["cancelled"].as_u64()), (Some(9), Some(1)), "{errors}");
        let of_kind = |k: &str| (errors["by_kind"][k]["estimate"].as_f64().unwrap() * errors["by_kind"][k]["n"].as_f64().unwrap()).round();
        assert_eq!((of_kind("http_5xx"), of_kind("disconnected")), (3.0, 6.0), "{errors}");
    }
    if case == "max-duration-cut" {
        assert_eq!((rows.errors, rows.cancelled), (0, 6), "the six requests in flight at the end are cancelled, not errors");
    }
}

/// guidellm's counted requests are the `measure` rows; the rest are before or after its window.
fn check_phases(case: &str, b: &Value, rows: &Rows, run_dir: &Path) {
    let counted = b["metrics"]["request_totals"]["total"].as_u64().unwrap() as usize;
    assert_eq!(rows.phases[1], counted, "{case}: measure rows are the requests guidellm counted");
    let expected_warmup = if case == "warmup-on" { 13 } else { 0 };
    assert_eq!(rows.phases, [expected_warmup, counted, rows.sent.len() - counted - expected_warmup], "{case}");
    let m = json(&run_dir.join("run.json"));
    assert_eq!(m["phases"]["warmup_requests"], expected_warmup as u64, "{case}");
    assert_eq!(m["source"]["tool_version"], "0.8.1", "{case}");
}

/// The workload from guidellm's own configuration, as the harness asked for it, and the clock.
fn check_workload_and_clock(case: &str, file: &Path, run_dir: &Path, rows: &Rows) {
    let w = json(&run_dir.join("run.json"))["workload"].clone();
    let profile = |k: &str| harness_option(file, "--profile", k);
    match profile("kind").as_deref() {
        Some("constant") => assert_eq!(w["arrival"], "constant", "{case}"),
        Some("poisson") => assert_eq!(w["arrival"], "poisson", "{case}"),
        Some("concurrent") => assert_eq!(w["arrival"], "closed_loop", "{case}"),
        other => panic!("{case}: unexpected profile {other:?}"),
    }
    assert_eq!(w["rate_per_s"].as_f64(), profile("rate").map(|r| r.parse::<f64>().unwrap()), "{case}");
    assert_eq!(w["concurrency"].as_u64(), profile("streams").map(|r| r.parse::<u64>().unwrap()), "{case}");
    assert_eq!(w["duration_s"].as_f64(), harness_option(file, "--constraint", "seconds").map(|r| r.parse::<f64>().unwrap()), "{case}");
    assert_eq!(w["streaming"], true, "{case}");
    let clock = &json(&run_dir.join("run.json"))["clock"];
    assert_eq!(clock["timestamps"], "absolute", "{case}");
    assert!(clock["conversion"].as_str().unwrap().contains("epoch seconds"), "{case}: {clock}");
    assert!(rows.sent.iter().all(|t| YEAR_2026_NS.contains(t)), "{case}: every send time is in 2026");
    assert!(rows.scheduled.iter().flatten().all(|t| YEAR_2026_NS.contains(t)), "{case}: no scheduled time before 2026");
    let unscheduled = rows.scheduled.iter().filter(|t| t.is_none()).count();
    if case == "open-loop-poisson" {
        // targeted_start counted from -1.0 for the requests generated before the start offset.
        assert_eq!(unscheduled, 37, "{case}");
        assert!(clock["conversion"].as_str().unwrap().contains("37 of 97 requests have no scheduled time"), "{clock}");
    } else {
        assert_eq!(unscheduled, 0, "{case}");
    }
}

/// The claims guidellm's file cannot support: the scheduler's generator delays, its processing
/// delay against the wall clock, and its count of requests cancelled before they started.
fn not_recomputable(key: &str) -> bool {
    key.starts_with("scheduler_metrics.generation_delay.")
        || key == "scheduler_metrics.processed_delay_avg"
        || key == "scheduler_metrics.requests_made.incomplete"
        || key == "scheduler_metrics.requests_made.total"
}

#[test]
fn every_summary_number_is_reproduced_from_guidellms_own_records() {
    for (case, file) in cases() {
        let s = Scratch::new(&format!("gl-audit-{case}"));
        let out = s.path("audit.json");
        // The format may be named first, as for `import`.
        let o = credence(&["audit", "guidellm", file.to_str().unwrap(), "-o", out.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
        assert!(o.status.success(), "{case}: {}", stderr(&o));
        let v = json(&out);
        let claims = v["audit"]["claims"].as_array().unwrap();
        assert!(claims.len() > 1000, "{case}: {} claims", claims.len());
        for c in claims {
            let key = c["key"].as_str().unwrap();
            if not_recomputable(key) {
                assert_eq!(c["verdict"], "not_recomputable", "{case}: {c}");
                assert!(
                    c["reason"].as_str().unwrap().starts_with("the raw values behind this number are not in the files: "),
                    "{case}: the reason says why: {c}"
                );
                continue;
            }
            assert_eq!(c["verdict"], "reproduced", "{case}: {c}");
            // To guidellm's printed precision (full doubles): only its float sums differ.
            let (tool, mine) = (c["tool_value"].as_f64().unwrap(), c["recomputed"].as_f64().unwrap());
            let tolerance = 1e-9;
            assert!((tool - mine).abs() <= tolerance * tool.abs().max(mine.abs()) + 1e-12, "{case}: {c}");
        }
        let find = |key: &str| claims.iter().find(|c| c["key"] == key).unwrap_or_else(|| panic!("{case}: no claim {key}"));
        // Every family and statistic is there, named as credence names it.
        assert_eq!(find("metrics.time_to_first_token_ms.successful.median")["stat"], "median_lower");
        assert_eq!(find("metrics.time_to_first_token_ms.successful.percentiles.p999")["stat"], "p99.9_rank");
        assert_eq!(find("metrics.inter_token_latency_ms.successful.percentiles.p001")["stat"], "p0.1_rank");
        assert_eq!(find("metrics.request_latency.successful.variance")["metric"], "e2e");
        assert_eq!(find("metrics.requests_per_second.successful.mean")["stat"], "value");
        assert_eq!(find("metrics.output_token_count.errored.count")["metric"], "output_tokens.errored");
        assert!(find("metrics.time_per_output_token_ms.successful.mean")["reason"].as_str().is_some());
        let tpot_definition = "guidellm's TPOT is (last token - request start) / output tokens, so it includes the TTFT";
        let tpot = find("metrics.time_per_output_token_ms.successful.mean");
        let reason = tpot["reason"].as_str().unwrap();
        if reason.contains("credence's steady-state value differs") {
            assert!(reason.contains(&format!("({tpot_definition}")), "{case}: the definition is the first reason: {reason}");
        }
    }
}

/// `constant-10rps`: guidellm at 10 requests/s for 30 s on a busy 2-core host. It sent every
/// request on schedule with a P99 send lag of some tens of ms, under the 100 ms between sends:
/// not a client that limited the run (issue 42: the old rule, P99 lag above 5 ms, called it
/// saturated and the run LOW). Through `analyze` and `audit`.
#[test]
fn a_client_that_kept_its_schedule_is_not_called_saturated() {
    let file = fixture("peers/guidellm-0.8.1/constant-10rps/benchmarks.json");
    let s = Scratch::new("gl-client");
    let run = s.path("run");
    let o = credence(&["import", file.to_str().unwrap(), "--out", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let a = credence(&["analyze", run.to_str().unwrap(), "--json", "--resamples", "499"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let audit_out = s.path("audit.json");
    let o = credence(&["audit", file.to_str().unwrap(), "-o", audit_out.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let audited = json(&audit_out)["runs"][0].clone();
    for (what, v) in [("analyze", serde_json::from_slice::<Value>(&a.stdout).unwrap()), ("audit", audited)] {
        // The lag is real and above the old 5-ms limit; every request was sent.
        let lag = v["metrics"]["send_lag"]["p99"]["estimate"].as_f64().unwrap();
        assert!(lag > 5.0 && lag < 100.0, "{what}: P99 send lag {lag} ms");
        let detector = v["attribution"]["detectors"].as_array().unwrap().iter().find(|d| d["cause"] == "client_saturation").unwrap();
        assert_eq!(detector["status"], "checked", "{what}: the detector ran on the schedule: {detector}");
        let causes: Vec<&str> = v["findings"].as_array().unwrap().iter().filter_map(|f| f["cause"].as_str()).collect();
        assert!(!causes.contains(&"client_saturation"), "{what}: {causes:?}");
        let check = v["credibility"]["checks"].as_array().unwrap().iter().find(|c| c["name"] == "client_saturation").unwrap();
        assert_eq!(check["status"], "PASS", "{what}: {check}");
    }
}

/// Every guidellm number credence also estimates is set beside credence's value, under
/// credence's name where it differs; the ITL says why it is not a per-token ITL.
#[test]
fn the_audit_maps_guidellms_metrics_onto_credences() {
    let file = fixture("peers/guidellm-0.8.1/constant-10rps/benchmarks.json");
    let s = Scratch::new("gl-audit-notes");
    let out = s.path("audit.json");
    let o = credence(&["audit", file.to_str().unwrap(), "-o", out.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&out);
    let claims = v["audit"]["claims"].as_array().unwrap();
    let find = |key: &str| claims.iter().find(|c| c["key"] == key).unwrap_or_else(|| panic!("no claim {key}"));
    for (key, metric) in [
        ("metrics.request_scheduled_latency.successful.median", "service"),
        ("metrics.request_dispatch_delay.successful.percentiles.p99", "send_lag"),
        ("metrics.inter_token_latency_ms.successful.median", "tpot"),
    ] {
        let c = find(key);
        assert_eq!(c["credence_metric"], metric, "{c}");
        // A value; its interval only where the 20-s steady window allows one (it does not).
        assert!(c["credence"].as_f64().is_some(), "credence's steady-state value: {c}");
    }
    let itl = find("metrics.inter_token_latency_ms.successful.median");
    assert_eq!(
        itl["credence_note"],
        "guidellm saves no chunk times: per-token ITL cannot be computed; its ITL is the per-request mean gap, compared with credence's TPOT"
    );
    assert_eq!(find("metrics.time_to_first_output_token_ms.successful.median")["credence_metric"], "ttfot");
    let rate = find("metrics.requests_per_second.successful.median");
    assert!(rate["credence_note"].as_str().unwrap().starts_with("credence estimates requests_per_s as one rate"), "{rate}");
    let e2e = find("metrics.request_latency.successful.median");
    assert!(e2e["credence_metric"].is_null() && e2e["credence"].as_f64().is_some(), "{e2e}");
    // No note may say credence does not estimate a metric it estimates.
    for c in claims {
        let note = c["credence_note"].as_str().unwrap_or_default();
        for m in ["ttft", "tpot", "itl", "e2e", "service", "send_lag", "scheduled_e2e", "dispatch_delay", "requests_per_s", "output_tokens_per_s"] {
            assert_ne!(note, format!("credence does not estimate {m}"), "{c}");
        }
        assert!(!note.starts_with("no steady-state value") || c["metric"] != "itl", "{c}");
    }
}

/// Imports `text` as a guidellm file; returns the output and whether a run was written.
fn import_text(s: &Scratch, text: &str) -> (std::process::Output, PathBuf, bool) {
    let f = s.path("benchmarks.json");
    std::fs::write(&f, text).unwrap();
    let out = s.path("run");
    let o = credence(&["import", "guidellm", f.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let written = out.exists();
    (o, f, written)
}

/// A fixture's text with one request timing replaced (Python writes NaN as a bare token).
fn with_timing(case: &str, group: &str, index: usize, key: &str, value: &str) -> String {
    let mut v = json(&fixture(&format!("peers/guidellm-0.8.1/{case}/benchmarks.json")));
    let marker = "\"__REPLACED__\"";
    v["benchmarks"][0]["requests"][group][index]["info"]["timings"][key] = Value::String("__REPLACED__".into());
    v.to_string().replace(marker, value)
}

#[test]
fn bad_input_is_refused_naming_the_file_the_record_and_the_key() {
    let s = Scratch::new("gl-bad");
    let full = std::fs::read_to_string(fixture("peers/guidellm-0.8.1/chat-default/benchmarks.json")).unwrap();
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("truncated", full[..full.len() / 2].to_string(), vec!["benchmarks.json", "line ", "not valid JSON"]),
        (
            "wrong type",
            with_timing("chat-default", "successful", 3, "first_token_iteration", "\"soon\""),
            vec!["benchmarks.json", "benchmarks[0].requests.successful[3].info.timings.first_token_iteration", "expected a number or null", "\"soon\""],
        ),
        (
            "NaN send time",
            with_timing("chat-default", "successful", 5, "request_start", "NaN"),
            vec!["benchmarks.json", "record benchmarks[0].requests.successful[5]", "info.timings.request_start", "expected the send time", "NaN"],
        ),
    ];
    for (what, text, needles) in cases {
        let (o, _, written) = import_text(&s, &text);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        for n in needles {
            assert!(stderr(&o).contains(n), "{what}: expected {n:?} in {}", stderr(&o));
        }
        assert!(!written, "{what}: nothing is written");
    }
}

#[test]
fn a_first_token_after_the_end_or_a_nan_time_is_kept_as_an_invalid_row() {
    for (what, key, value, reason) in [
        ("first token after the end", "first_token_iteration", "1796077999.0", "first token at"),
        ("NaN last token", "last_token_iteration", "NaN", "info.timings.last_token_iteration is NaN"),
    ] {
        let s = Scratch::new("gl-invalid");
        let (o, _, written) = import_text(&s, &with_timing("chat-default", "successful", 2, key, value));
        assert!(o.status.success() && written, "{what}: {}", stderr(&o));
        assert!(stderr(&o).contains("1 source records break the requests contract") && stderr(&o).contains("benchmarks.json"), "{what}: {}", stderr(&o));
        let v = credence(&["validate", s.path("run").to_str().unwrap(), "--json"]);
        assert_eq!(serde_json::from_slice::<Value>(&v.stdout).unwrap()["valid"], true, "{what}");
        let run = credence::run::load(&s.path("run")).unwrap();
        let (kinds, messages) = (run.requests.strings("error_kind").unwrap(), run.requests.strings("error_message").unwrap());
        let bad: Vec<usize> = (0..kinds.len()).filter(|&i| kinds.is_valid(i) && kinds.value(i) == "invalid_source_row").collect();
        assert_eq!(bad.len(), 1, "{what}");
        let original = json(&fixture("peers/guidellm-0.8.1/chat-default/benchmarks.json"));
        let id = original["benchmarks"][0]["requests"]["successful"][2]["request_id"].as_str().unwrap().to_string();
        let message = messages.value(bad[0]);
        assert!(message.starts_with(&format!("benchmarks.json, request {id}: ")) && message.contains(reason), "{what}: {message}");
    }
}

/// guidellm's output folder is an input: its benchmarks.json is read, the harness's files are
/// listed as skipped, and the run is the one its file makes. The `sigint` case's folder, where
/// guidellm wrote nothing, is bad input naming the folder.
#[test]
fn the_output_folder_is_an_input() {
    let s = Scratch::new("peers_guidellm_folder");
    let (name, file) = cases().into_iter().find(|(n, _)| n == "concurrency").unwrap();
    let folder = file.parent().unwrap();
    let (by_folder, by_file) = (s.path("by-folder"), s.path("by-file"));
    let o = credence(&["audit", folder.to_str().unwrap(), "-o", by_folder.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(o.status.success(), "{name}: {}", stderr(&o));
    let skipped: Vec<String> = stderr(&o).lines().filter(|l| l.starts_with("skipped ")).map(String::from).collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped.iter().any(|l| l.contains("harness.json")) && skipped.iter().any(|l| l.contains("tool-stdout.txt")), "{skipped:?}");
    let o = credence(&["audit", file.to_str().unwrap(), "-o", by_file.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json(&by_folder), json(&by_file), "the folder and its benchmarks.json give the same audit");
    let sigint = fixture("peers/guidellm-0.8.1/sigint");
    let o = credence(&["import", sigint.to_str().unwrap(), "--out", s.path("run").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(&format!("{}: no file that credence reads (2 set aside)", sigint.display())), "{}", stderr(&o));
}
