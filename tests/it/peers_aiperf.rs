//! AIPerf 0.13.0's real outputs (fixtures/peers/aiperf-0.13.0/<case>/, made against
//! `credence mock-server`) through the real binary: every case imports, validates and
//! analyzes; its audit recomputes every claim of profile_export_aiperf.json that the files
//! can give from profile_export.jsonl with AIPerf's definitions; counts, phases, workload and
//! clock agree with what AIPerf wrote. Bad input is refused (exit 2, file and line named,
//! nothing written) or kept as an invalid_source_row.
//!
//! Expected values are read from AIPerf's own files, never typed in.


use std::path::{Path, PathBuf};

use arrow_array::Array;
use crate::common::{Scratch, credence, fixture, stderr};
use serde_json::Value;

const CASES: [&str; 8] = ["concurrency", "faults", "long-output", "max-duration-cut", "open-loop-poisson", "sigint", "warmup-off", "warmup-on"];

/// Why the files cannot give a claim's number, as the audit must say it, for the claims
/// that cannot be recomputed; None for every other claim.
fn not_recomputable_because(key: &str) -> Option<&'static str> {
    let warmup = key.starts_with("warmup_metrics.");
    let tag = key.trim_start_matches("warmup_metrics.").rsplit_once('.').unwrap().0;
    Some(match tag {
        "effective_latency" => return None,
        t if t.starts_with("effective_") || t.starts_with("active_") || t == "tokens_in_flight" => "sweep-line",
        "osl_mismatch_count" | "usage_discrepancy_count" => "environment",
        "context_overflow_count" => "not written to profile_export.jsonl",
        "request_throughput" | "output_token_throughput" | "input_token_throughput" | "total_token_throughput" if warmup => "phase_manifest.json",
        _ => return None,
    })
}

fn case(name: &str) -> PathBuf {
    fixture(&format!("peers/aiperf-0.13.0/{name}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json_file(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The records of a case's profile_export.jsonl.
fn records(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("profile_export.jsonl")).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// `aggregate[tag].avg`, or 0 when AIPerf did not write the tag (no errors: no error count).
fn avg(aggregate: &Value, tag: &str) -> f64 {
    aggregate[tag]["avg"].as_f64().unwrap_or(0.0)
}

fn audit(files: &[&Path], out: &Path) -> Value {
    let mut args = vec!["audit"];
    args.extend(files.iter().map(|p| s(p)));
    args.extend(["-o", s(out), "--format", "json", "--resamples", "500"]);
    let o = credence(&args);
    assert!(o.status.success(), "audit {files:?}: {}", stderr(&o));
    json_file(out)["audit"].clone()
}

fn fact<'a>(audit: &'a Value, name: &str) -> &'a Value {
    audit["facts"].as_array().unwrap().iter().find(|f| f["name"] == name).unwrap_or_else(|| panic!("no fact {name}: {}", audit["facts"]))
}

/// Every claim is reproduced, or not recomputable for one of the known reasons.
fn assert_claims_reproduced(name: &str, audit: &Value, aggregate: &Value) {
    let claims = audit["claims"].as_array().unwrap();
    assert!(claims.len() > 100, "{name}: every statistic of every tag is a claim, got {}", claims.len());
    for c in claims {
        let key = c["key"].as_str().unwrap();
        match (c["verdict"].as_str().unwrap(), not_recomputable_because(key)) {
            ("reproduced", None) => {}
            ("not_recomputable", Some(why)) => assert!(c["reason"].as_str().unwrap().contains(why), "{name}: {key} says why: {c}"),
            (v, _) => panic!("{name}: {key} is {v}: {c}"),
        }
    }
    assert_eq!(audit["differing"], 0, "{name}");
    let find = |k: &str| claims.iter().find(|c| c["key"] == k).unwrap_or_else(|| panic!("{name}: no claim {k}"));
    for key in [
        "request_throughput.avg",
        "output_token_throughput.avg",
        "time_to_first_token.p99",
        "inter_token_latency.avg",
        "request_count.avg",
        "benchmark_duration.avg",
    ] {
        assert_eq!(find(key)["verdict"], "reproduced", "{name}: {}", find(key));
    }
    assert_eq!(find("request_throughput.avg")["metric"], "requests_per_s");
    assert_eq!(find("request_throughput.avg")["tool_value"].as_f64(), aggregate["request_throughput"]["avg"].as_f64());
}

/// The run's rows by error kind, and the first send time.
fn run_kinds(dir: &Path) -> (usize, usize, usize, i64) {
    let run = credence::run::load(dir).unwrap();
    let kinds = run.requests.strings("error_kind").unwrap();
    let kind = |k: &str| (0..kinds.len()).filter(|&i| kinds.is_valid(i) && kinds.value(i) == k).count();
    let failed = (0..kinds.len()).filter(|&i| kinds.is_valid(i)).count();
    let first = run.requests.timestamps("sent_ns").unwrap().iter().flatten().min().copied().unwrap();
    (failed - kind("cancelled") - kind("invalid_source_row"), kind("cancelled"), kind("invalid_source_row"), first)
}

/// Sorted values of one metadata key over the records.
fn metadata_ns(recs: &[Value], key: &str) -> Vec<i64> {
    let mut v: Vec<i64> = recs.iter().filter_map(|r| r["metadata"][key].as_i64()).collect();
    v.sort();
    v
}

/// The rows carry the records' own times and outcomes: scheduled = credit_issued_ns, first
/// byte = request_ack_ns, one chunk per content chunk (inter_chunk_latency + 1), HTTP 500 with
/// its status, a cut stream as disconnected.
fn assert_fields_mapped(name: &str, out: &Path, recs: &[Value]) {
    let run = credence::run::load(out).unwrap();
    let sorted = |k: &str| {
        let mut v: Vec<i64> = run.requests.timestamps(k).unwrap().iter().flatten().copied().collect();
        v.sort();
        v
    };
    assert_eq!(sorted("scheduled_ns"), metadata_ns(recs, "credit_issued_ns"), "{name}");
    assert_eq!(sorted("first_byte_ns"), metadata_ns(recs, "request_ack_ns"), "{name}");
    assert_eq!(sorted("end_ns"), metadata_ns(recs, "request_end_ns"), "{name}");
    let chunks = run.requests.timestamp_lists("chunk_ns").unwrap();
    let rows: usize = (0..chunks.len()).filter_map(|i| chunks.get(i)).map(<[i64]>::len).sum();
    let expected: usize = recs.iter().filter_map(|r| r["metrics"]["inter_chunk_latency"]["value"].as_array()).map(|a| a.len() + 1).sum();
    assert_eq!(rows, expected, "{name}: chunk times");
    let kinds = run.requests.strings("error_kind").unwrap();
    let status = run.requests.u32s("http_status").unwrap();
    let of = |k: &str| (0..kinds.len()).filter(|&i| kinds.is_valid(i) && kinds.value(i) == k).collect::<Vec<_>>();
    let http_500 = recs.iter().filter(|r| r["error"]["code"] == 500).count();
    assert_eq!(of("http_5xx").len(), http_500, "{name}");
    assert!(of("http_5xx").iter().all(|&i| status[i] == Some(500)), "{name}");
    let cut = recs.iter().filter(|r| r["error"]["type"] == "ClientPayloadError").count();
    assert_eq!(of("disconnected").len(), cut, "{name}");
}

/// Imports the jsonl with the summary; checks validation, counts, phases, workload, clock.
fn import_case(name: &str, sc: &Scratch) -> PathBuf {
    let dir = case(name);
    let out = sc.path(&format!("run-{name}"));
    let o = credence(&["import", s(&dir.join("profile_export.jsonl")), s(&dir.join("profile_export_aiperf.json")), "--out", s(&out)]);
    assert!(o.status.success(), "{name}: {}", stderr(&o));
    let v = credence(&["validate", s(&out), "--json"]);
    let report: Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(report["valid"], true, "{name}: {}", String::from_utf8_lossy(&v.stdout));
    let aggregate = json_file(&dir.join("profile_export_aiperf.json"));
    let recs = records(&dir);
    let (errors, cancelled, invalid, first_sent) = run_kinds(&out);
    assert_eq!(errors as f64, avg(&aggregate, "error_request_count"), "{name}: AIPerf's error count");
    let was_cancelled = recs.iter().filter(|r| r["metadata"]["was_cancelled"] == true).count();
    assert_eq!(cancelled, was_cancelled, "{name}: AIPerf's cancelled records");
    assert_eq!(invalid, 0, "{name}: AIPerf's own files are valid");
    assert_fields_mapped(name, &out, &recs);
    let m = json_file(&out.join("run.json"));
    assert_eq!(m["source"]["tool_version"], aggregate["aiperf_version"]);
    assert_workload(name, &m["workload"], &aggregate);
    // Absolute epoch times, dated when the fixtures were made (2026-11-30), never 1970.
    assert_eq!(m["clock"]["timestamps"], "absolute");
    assert!(m["clock"]["conversion"].as_str().unwrap().contains("epoch ns"), "{}", m["clock"]);
    let (y2026, y2027) = (1_767_225_600_000_000_000i64, 1_798_761_600_000_000_000i64);
    assert!((y2026..y2027).contains(&first_sent), "{name}: first request sent at {first_sent} ns");
    let warmup = recs.iter().filter(|r| r["metadata"]["benchmark_phase"] == "warmup").count();
    assert_eq!(m["phases"]["warmup_requests"], warmup as u64, "{name}");
    let planned = phases_of(&aggregate).iter().find(|p| p["kind"] == "profiling").unwrap().clone();
    let note = m["phases"]["note"].as_str().unwrap();
    if let Some(n) = planned["requests"].as_u64() {
        assert!(note.contains(&format!("{n} requests")), "{name}: {note}");
    }
    if let Some(d) = planned["duration"].as_f64() {
        assert!(note.contains(&format!("{d} s")), "{name}: {note}");
    }
    out
}

fn phases_of(aggregate: &Value) -> &Vec<Value> {
    aggregate["input_config"]["phases"].as_array().unwrap()
}

/// The run's workload is the summary's profiling phase.
fn assert_workload(name: &str, w: &Value, aggregate: &Value) {
    let p = phases_of(aggregate).iter().find(|p| p["kind"] == "profiling").unwrap();
    let arrival = match p["type"].as_str().unwrap() {
        "concurrency" => "closed_loop",
        other => other,
    };
    assert_eq!(w["arrival"], arrival, "{name}: {w}");
    assert_eq!(w["rate_per_s"], p.get("rate").cloned().unwrap_or(Value::Null), "{name}");
    assert_eq!(w["concurrency"], p.get("concurrency").cloned().unwrap_or(Value::Null), "{name}");
    assert_eq!(w["duration_s"], p.get("duration").cloned().unwrap_or(Value::Null), "{name}");
    assert_eq!(w["streaming"], true);
}

#[test]
fn every_case_imports_and_its_summary_is_reproduced() {
    let sc = Scratch::new("peers_aiperf");
    for name in CASES {
        let dir = case(name);
        let run = import_case(name, &sc);
        let a = credence(&["analyze", s(&run), "--json", "--resamples", "500"]);
        assert!(a.status.success(), "{name}: {}", stderr(&a));
        let analysis: Value = serde_json::from_slice(&a.stdout).unwrap();
        let recs = records(&dir);
        let warmup = recs.iter().filter(|r| r["metadata"]["benchmark_phase"] == "warmup").count();
        assert_eq!(analysis["requests"]["declared_warmup"], warmup as u64, "{name}");
        assert_eq!(analysis["requests"]["total"], recs.len() as u64, "{name}: no record dropped");
        let aggregate_path = dir.join("profile_export_aiperf.json");
        let aggregate = json_file(&aggregate_path);
        let checked = audit(&[&dir.join("profile_export.jsonl"), &aggregate_path], &sc.path(&format!("audit-{name}.json")));
        assert_claims_reproduced(name, &checked, &aggregate);
        let summary = fact(&checked, "aiperf.error_summary");
        assert_eq!(summary["status"], "PASS", "{name}: {summary}");
        // The summary alone: claims only, none recomputable, honest LOW credibility.
        let out = sc.path(&format!("alone-{name}.json"));
        let o = credence(&["audit", s(&aggregate_path), "-o", s(&out), "--format", "json"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let report = json_file(&out);
        assert_eq!(report["credibility"]["grade"], "LOW", "{name}");
        assert_eq!(report["audit"]["claims"].as_array().unwrap().len(), checked["claims"].as_array().unwrap().len(), "{name}");
        assert_eq!(report["audit"]["reproduced"], 0, "{name}: nothing to recompute from");
        assert_eq!(fact(&report["audit"], "aiperf.error_summary")["status"], "NOT_CHECKED");
    }
}

/// `max-duration-cut`: 31 requests sent, 27 records; the summary still says complete. Only
/// the log tells: the audit warns with its evidence, and says it cannot check without it.
#[test]
fn requests_cut_by_the_duration_limit_are_surfaced() {
    let sc = Scratch::new("peers_aiperf_cut");
    let dir = case("max-duration-cut");
    let files = [dir.join("profile_export.jsonl"), dir.join("profile_export_aiperf.json")];
    let without = audit(&[&files[0], &files[1]], &sc.path("a.json"));
    let complete = fact(&without, "aiperf.is_complete");
    assert_eq!(complete["status"], "NOT_CHECKED", "{complete}");
    assert!(complete["reason"].as_str().unwrap().contains("logs/aiperf.log"), "{complete}");
    let log = dir.join("logs/aiperf.log");
    let with = audit(&[&files[0], &files[1], &log], &sc.path("b.json"));
    let complete = fact(&with, "aiperf.is_complete");
    assert_eq!(complete["status"], "WARN", "{complete}");
    let line = std::fs::read_to_string(&log).unwrap().lines().find(|l| l.contains("(profiling) complete |")).unwrap().to_string();
    let counts = line.split(" | ").nth(1).unwrap();
    assert!(counts.contains("cancelled=4") && complete["reason"].as_str().unwrap().contains(counts), "{complete}");
    assert_eq!(with["differing"], 0);
}

/// `sigint`: the summary says cancelled and incomplete; the jsonl still imports and its
/// claims reproduce (AIPerf's throughputs then divide by the requests' span); the log's
/// sent/completed counts give the requests lost in flight.
#[test]
fn a_run_stopped_by_sigint_is_flagged_incomplete() {
    let sc = Scratch::new("peers_aiperf_sigint");
    let dir = case("sigint");
    let log = dir.join("logs/aiperf.log");
    let a = audit(&[&dir.join("profile_export.jsonl"), &dir.join("profile_export_aiperf.json"), &log], &sc.path("a.json"));
    let complete = fact(&a, "aiperf.is_complete");
    assert_eq!(complete["status"], "WARN", "{complete}");
    let reason = complete["reason"].as_str().unwrap();
    assert!(reason.contains("sent=25, completed=22") && reason.contains("3 requests"), "{complete}");
    assert_eq!(a["differing"], 0);
}

/// `warmup-on`: phase_manifest.json gives the warm-up window, so the warm-up throughputs are
/// recomputed too, and its counts are checked against the records. The per-phase summaries
/// under phases/ are named for what they are, not misread.
#[test]
fn the_warmup_phase_files_are_used_or_named() {
    let sc = Scratch::new("peers_aiperf_warmup");
    let dir = case("warmup-on");
    let (jsonl, summary, manifest) = (dir.join("profile_export.jsonl"), dir.join("profile_export_aiperf.json"), dir.join("phase_manifest.json"));
    let key = "warmup_metrics.request_throughput.avg";
    let claim = |a: &Value| a["claims"].as_array().unwrap().iter().find(|c| c["key"] == key).unwrap().clone();
    let without = audit(&[&jsonl, &summary], &sc.path("a.json"));
    assert_eq!(claim(&without)["verdict"], "not_recomputable");
    assert!(claim(&without)["reason"].as_str().unwrap().contains("phase_manifest.json"), "{}", claim(&without));
    let with = audit(&[&jsonl, &summary, &manifest], &sc.path("b.json"));
    assert_eq!(claim(&with)["verdict"], "reproduced", "{}", claim(&with));
    for phase in ["warmup", "profiling"] {
        let f = fact(&with, &format!("aiperf.phase_manifest.{phase}"));
        assert_eq!(f["status"], "PASS", "{f}");
    }
    for phase in ["warmup", "profiling"] {
        let out = sc.path(&format!("run-{phase}"));
        let o = credence(&["import", s(&jsonl), s(&dir.join(format!("phases/{phase}/profile_export_aiperf.json"))), "--out", s(&out)]);
        assert_eq!(o.status.code(), Some(2), "{phase}");
        let err = stderr(&o);
        assert!(err.contains(&format!("phases/{phase}/profile_export_aiperf.json")) && err.contains("one phase's summary"), "{err}");
        assert!(!out.exists(), "nothing is written");
    }
    let out = sc.path("run-manifest");
    let o = credence(&["import", s(&jsonl), s(&manifest), s(&dir.join("logs/aiperf.log")), "--out", s(&out)]);
    assert!(o.status.success(), "the side files join the records: {}", stderr(&o));
}

/// The other files AIPerf writes are named for what they are when given alone.
#[test]
fn side_files_alone_are_named() {
    let sc = Scratch::new("peers_aiperf_side");
    let raw = case("open-loop-poisson").join("profile_export_raw.jsonl");
    let log = case("concurrency").join("logs/aiperf.log");
    for (file, says) in [(&raw, "AIPerf raw export"), (&log, "AIPerf's log only counts")] {
        let out = sc.path("run");
        let o = credence(&["import", s(file), "--out", s(&out)]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert!(!out.exists());
    }
}

/// A copy of the concurrency case's jsonl with `edit` applied to line `n` (1-based).
fn edited(sc: &Scratch, n: usize, edit: impl Fn(&str) -> String) -> PathBuf {
    let text = std::fs::read_to_string(case("concurrency").join("profile_export.jsonl")).unwrap();
    let lines: Vec<String> = text.lines().enumerate().map(|(i, l)| if i + 1 == n { edit(l) } else { l.to_string() }).collect();
    let p = sc.path("profile_export.jsonl");
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p
}

/// `line` with the value at JSON `pointer` replaced by the text `with` (which may be Python's
/// `NaN`, not JSON).
fn set(line: &str, pointer: &str, with: &str) -> String {
    let mut v: Value = serde_json::from_str(line).unwrap();
    *v.pointer_mut(pointer).unwrap() = Value::String("@@SET@@".into());
    v.to_string().replace("\"@@SET@@\"", with)
}

fn refused(sc: &Scratch, file: &Path, at: &str, says: &str) {
    let out = sc.path("run");
    let o = credence(&["import", s(file), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("profile_export.jsonl") && err.contains(at) && err.contains(says), "{err}");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn an_unusable_send_time_or_a_broken_line_is_refused() {
    let sc = Scratch::new("peers_aiperf_bad");
    let truncated = edited(&sc, 5, |l| l[..l.len() / 2].to_string());
    refused(&sc, &truncated, "line 5", "not valid JSON");
    let wrong_type = edited(&sc, 3, |l| set(l, "/metadata/request_start_ns", "\"soon\""));
    refused(&sc, &wrong_type, "line 3, key metadata.request_start_ns", "expected epoch ns (an integer); found \"soon\"");
    let nan = edited(&sc, 4, |l| set(l, "/metadata/request_start_ns", "NaN"));
    refused(&sc, &nan, "line 4, key metadata.request_start_ns", "found \"NaN\"");
    let perf_counter = edited(&sc, 2, |l| set(l, "/metadata/request_start_ns", "81234567890"));
    refused(&sc, &perf_counter, "line 2, key metadata.request_start_ns", "not a date between 2000 and 2200");
}

/// The invalid_source_row messages of a run.
fn invalid_messages(out: &Path) -> Vec<String> {
    let run = credence::run::load(out).unwrap();
    let (kinds, messages) = (run.requests.strings("error_kind").unwrap(), run.requests.strings("error_message").unwrap());
    (0..kinds.len()).filter(|&i| kinds.is_valid(i) && kinds.value(i) == "invalid_source_row").map(|i| messages.value(i).to_string()).collect()
}

#[test]
fn a_negative_gap_or_a_nan_time_marks_its_row() {
    let sc = Scratch::new("peers_aiperf_invalid");
    let gap = |l: &str| set(l, "/metrics/inter_chunk_latency/value/2", "-5.0");
    let ttft = |l: &str| set(l, "/metrics/time_to_first_token/value", "NaN");
    let wrong_type = |l: &str| set(l, "/metrics/http_req_waiting/value", "\"slow\"");
    for (n, edit, says) in [
        (6, &gap as &dyn Fn(&str) -> String, "line 6, key metrics.inter_chunk_latency.value[2] is negative"),
        (7, &ttft, "line 7, key metrics.time_to_first_token.value is \"NaN\""),
        (8, &wrong_type, "line 8, key metrics.http_req_waiting.value is \"slow\", not a finite number"),
    ] {
        let file = edited(&sc, n, edit);
        let out = sc.path(&format!("run{n}"));
        let o = credence(&["import", s(&file), "--out", s(&out)]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("1 source records break the requests contract"), "{}", stderr(&o));
        let v = credence(&["validate", s(&out), "--json"]);
        assert_eq!(serde_json::from_slice::<Value>(&v.stdout).unwrap()["valid"], true);
        let messages = invalid_messages(&out);
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].starts_with("profile_export.jsonl, request ") && messages[0].contains(says), "{messages:?}");
    }
}

/// A newcomer's one command: `credence audit FOLDER -o r.pdf` on an AIPerf artifacts folder.
/// It reads the records, the summary, the phase manifest and the log, lists what it leaves
/// (the per-phase summaries, the CSV and console twins, inputs.json, the ready marker) and
/// audits exactly as when those four files are named.
#[test]
fn audit_of_an_artifacts_folder_writes_the_pdf() {
    let sc = Scratch::new("peers_aiperf_folder");
    let dir = case("warmup-on");
    let pdf = sc.path("r.pdf");
    let o = credence(&["audit", s(&dir), "-o", s(&pdf)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    let err = stderr(&o);
    let skipped: Vec<&str> = err.lines().filter(|l| l.starts_with("skipped ")).collect();
    for (file, why) in [
        (".aiperf_results_ready.json", "results-ready marker"),
        ("inputs.json", "request payloads"),
        ("phases/profiling/profile_export_aiperf.json", "another aiperf-aggregate file is read for this run"),
        ("phases/warmup/profile_export_aiperf.json", "another aiperf-aggregate file is read for this run"),
        ("phases/profiling/profile_export_aiperf.csv", "CSV summary"),
        ("profile_export_aiperf.csv", "CSV summary"),
        ("profile_export_console.txt", "console tables"),
        ("harness.json", "no known benchmark format"),
    ] {
        let at = format!("{}: ", dir.join(file).display());
        assert!(skipped.iter().any(|l| l.contains(&at) && l.contains(why)), "{file}: {err}");
    }
    let files = ["logs/aiperf.log", "phase_manifest.json", "profile_export.jsonl", "profile_export_aiperf.json"].map(|f| dir.join(f));
    let by_folder = audit(&[dir.as_path()], &sc.path("folder.json"));
    let by_files = audit(&files.iter().map(PathBuf::as_path).collect::<Vec<_>>(), &sc.path("files.json"));
    assert_eq!(by_folder, by_files);
    assert_eq!(by_folder["differing"], 0, "{by_folder}");
}

/// The tool's top folder holds one artifacts folder per case: `import` writes them as a series
/// (one run each), and `audit`, which checks one run, names them.
#[test]
fn a_folder_of_artifacts_folders_imports_as_a_series() {
    let sc = Scratch::new("peers_aiperf_series");
    let top = crate::common::fixture("peers/aiperf-0.13.0");
    let out = sc.path("series");
    let o = credence(&["import", s(&top), "--out", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let series = json_file(&out.join("series.json"));
    let runs: Vec<&str> = series["runs"].as_array().unwrap().iter().map(|r| r["run"].as_str().unwrap()).collect();
    let mut cases: Vec<String> = std::fs::read_dir(&top).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    cases.sort();
    assert_eq!(runs, cases);
    for r in &runs {
        assert_eq!(json_file(&out.join(r).join("run.json"))["labels"]["imported_from"], "aiperf", "{r}");
    }
    let o = credence(&["audit", s(&top), "-o", s(&sc.path("r.pdf"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(&format!("holds {} runs", runs.len())), "{}", stderr(&o));
}
