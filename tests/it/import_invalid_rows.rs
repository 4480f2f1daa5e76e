//! An importer never leaves a run that `validate` rejects: a source record that breaks the
//! requests contract (a negative gap, a first token after the end, a non-finite time) is either
//! kept as a failed row of kind `invalid_source_row`, counted in the analysis and named on
//! stderr, or refused with exit 2 naming the file and the record, with nothing written.
//! The peer-tool importers (AIPerf, guidellm, inference-perf) are tested with their fixtures.


use std::path::{Path, PathBuf};

use arrow_array::Array;
use crate::common::{Scratch, credence, stderr};
use serde_json::{Value, json};

fn write(s: &Scratch, name: &str, text: &str) -> PathBuf {
    let p = s.path(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Imports `file` (as `format`) into a fresh run, checks that it validates and that exactly
/// `expected` rows were kept as invalid source rows, each message naming the file; returns the
/// analysis.
fn imports_with_invalid_rows(s: &Scratch, format: &str, file: &Path, expected: u64) -> Value {
    let out = s.path(&format!("run-{format}"));
    let o = credence(&["import", format, file.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{format}: {}", stderr(&o));
    let name = file.file_name().unwrap().to_str().unwrap();
    assert!(stderr(&o).contains(&format!("{expected} source records break the requests contract")), "{format}: {}", stderr(&o));
    assert!(stderr(&o).contains(name), "the warning names the file: {}", stderr(&o));
    let v = credence(&["validate", out.to_str().unwrap(), "--json"]);
    let report: Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(report["valid"], true, "{format}: {}", String::from_utf8_lossy(&v.stdout));
    let run = credence::run::load(&out).unwrap();
    let kinds = run.requests.strings("error_kind").unwrap();
    let messages = run.requests.strings("error_message").unwrap();
    let invalid: Vec<usize> = (0..kinds.len()).filter(|&i| kinds.is_valid(i) && kinds.value(i) == "invalid_source_row").collect();
    assert_eq!(invalid.len() as u64, expected, "{format}");
    for i in invalid {
        assert!(messages.value(i).starts_with(&format!("{name}, request ")), "{}", messages.value(i));
    }
    let a = credence(&["analyze", out.to_str().unwrap(), "--json", "--resamples", "499"]);
    assert!(a.status.success(), "{}", stderr(&a));
    serde_json::from_slice(&a.stdout).unwrap()
}

fn vllm_result(n: usize) -> Value {
    json!({
        "date": "20260611-152708", "backend": "vllm", "model_id": "m", "request_rate": 10.0, "burstiness": 1.0, "duration": n as f64 * 0.1,
        "completed": n, "failed": 0,
        "input_lens": vec![100; n], "output_lens": vec![11; n], "ttfts": vec![0.03; n], "itls": vec![vec![0.02; 10]; n],
        "latencies": vec![0.23; n], "start_times": (0..n).map(|i| 500.0 + i as f64 * 0.1).collect::<Vec<_>>(), "errors": vec![""; n]
    })
}

#[test]
fn vllm_negative_gap_and_python_nan_are_kept_as_invalid_rows() {
    let s = Scratch::new("inv_vllm");
    let mut v = vllm_result(120);
    v["itls"][7][4] = json!(-0.05);
    let text = v.to_string().replacen("0.03,", "NaN,", 1);
    let f = write(&s, "vllm.json", &text);
    let a = imports_with_invalid_rows(&s, "vllm", &f, 2);
    let run = credence::run::load(&s.path("run-vllm")).unwrap();
    let messages = run.requests.strings("error_message").unwrap();
    let all: Vec<&str> = (0..messages.len()).filter(|&i| messages.is_valid(i)).map(|i| messages.value(i)).collect();
    assert!(all.iter().any(|m| m.contains("request 7: chunk 5 arrives 50.000 ms before chunk 4")), "{all:?}");
    assert!(all.iter().any(|m| m.contains("request 0: ttfts[0] is NaN")), "{all:?}");
    // The analysis counts them as errors of their own kind.
    assert_eq!(a["requests"]["invalid_source"], 2, "{}", a["requests"]);
    assert!(a["warnings"].as_array().unwrap().iter().any(|w| w["kind"] == "invalid_source"), "{}", a["warnings"]);
}

#[test]
fn vllm_without_a_send_time_is_refused_and_nothing_is_written() {
    let s = Scratch::new("inv_vllm_start");
    let text = vllm_result(20).to_string().replace("501.0", "NaN");
    let f = write(&s, "vllm.json", &text);
    let out = s.path("run");
    let o = credence(&["import", "vllm", f.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("vllm.json, key start_times[10]"), "{}", stderr(&o));
    assert!(!out.exists());
}

/// Found by fuzzing (`fuzz/regressions/import_auto/vllm-latency-beyond-i64-ns`): a latency of
/// 1e30 s overflowed the nanosecond clock (a panic with overflow checks, a wrapped time
/// without). Times beyond about 31 years are now invalid rows, like NaN; a send time that far
/// is refused.
#[test]
fn vllm_times_beyond_the_nanosecond_clock_are_invalid_rows_or_refused() {
    let s = Scratch::new("inv_vllm_huge");
    let mut v = vllm_result(120);
    v["latencies"][3] = json!(1e30);
    v["ttfts"][5] = json!(-1e300);
    v["itls"][9][2] = json!(1e25);
    let f = write(&s, "vllm.json", &v.to_string());
    imports_with_invalid_rows(&s, "vllm", &f, 3);
    let run = credence::run::load(&s.path("run-vllm")).unwrap();
    let messages = run.requests.strings("error_message").unwrap();
    let all: Vec<&str> = (0..messages.len()).filter(|&i| messages.is_valid(i)).map(|i| messages.value(i)).collect();
    assert!(all.iter().any(|m| m.contains("request 3: latencies[3] is 1000000000000000000000000000000, not a time")), "{all:?}");
    let mut v = vllm_result(20);
    v["start_times"][4] = json!(1e20);
    let f = write(&s, "vllm-start.json", &v.to_string());
    let o = credence(&["import", "vllm", f.to_str().unwrap(), "--out", s.path("run-start").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("vllm-start.json, key start_times[4]"), "{}", stderr(&o));
}

/// Found by fuzzing (`fuzz/regressions/import_vllm/start-times-shorter-than-ttfts`): a
/// `start_times` or `latencies` array shorter than `ttfts` was indexed past its end (a panic).
#[test]
fn vllm_arrays_of_other_lengths_than_ttfts_are_refused() {
    let s = Scratch::new("inv_vllm_align");
    for key in ["start_times", "latencies"] {
        let mut v = vllm_result(20);
        v[key].as_array_mut().unwrap().pop();
        let f = write(&s, &format!("{key}.json"), &v.to_string());
        let o = credence(&["import", "vllm", f.to_str().unwrap(), "--out", s.path(&format!("run-{key}")).to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{key}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("{key}.json, key {key}")) && stderr(&o).contains("has 19 entries but ttfts has 20"), "{key}: {}", stderr(&o));
    }
}

/// Found by fuzzing (`fuzz/regressions/import_dcgm/timestamp-ms-beyond-i64-ns`): an exposition
/// timestamp beyond i64 nanoseconds overflowed; a timestamp that is not integer milliseconds
/// was silently replaced by the scrape's time. Both are now lines that are not samples.
#[test]
fn dcgm_timestamps_out_of_range_or_not_integers_are_refused_with_the_line() {
    let s = Scratch::new("inv_dcgm_ts");
    for (name, ts) in [("huge.prom", "99999999999999999"), ("float.prom", "1781247600000.5")] {
        let text = format!(
            "# scrape_time 1781247600\nDCGM_FI_DEV_SM_CLOCK{{gpu=\"0\",UUID=\"GPU-0\"}} 1965 1781247600000\nDCGM_FI_DEV_SM_CLOCK{{gpu=\"0\",UUID=\"GPU-0\"}} 1965 {ts}\n"
        );
        let f = write(&s, name, &text);
        let o = credence(&["import", "dcgm", f.to_str().unwrap(), "--out", s.path(&format!("run-{name}")).to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("{name}, line 3")), "{name}: {}", stderr(&o));
    }
}

/// A llmperf time too large for the nanosecond clock (1e300 s) overflowed the sum of the send
/// time and the TTFT (a panic with overflow checks, a wrapped time named as "end before sent"
/// in release). It is now a value that is no time, named by its key.
#[test]
fn llmperf_times_beyond_the_nanosecond_clock_are_invalid_rows_named_by_key() {
    let s = Scratch::new("inv_llmperf_huge");
    let rows: Vec<Value> = (0..30)
        .map(|i| {
            let ttft = if i == 7 { 1e300 } else { 0.1 };
            json!({"error_code": null, "error_msg": "", "ttft_s": ttft, "end_to_end_latency_s": 1.0, "inter_token_latency_s": 0.02, "request_output_throughput_token_per_s": 50.0, "number_input_tokens": 10, "number_output_tokens": 50})
        })
        .collect();
    let f = write(&s, "huge_individual_responses.json", &Value::Array(rows).to_string());
    imports_with_invalid_rows(&s, "llmperf", &f, 1);
    let run = credence::run::load(&s.path("run-llmperf")).unwrap();
    let message = run.requests.strings("error_message").unwrap().value(7).to_string();
    assert!(message.contains("key ttft_s is 1e300, not a time"), "{message}");
}

#[test]
fn sglang_llmperf_perf_analyzer_and_mlc_rows_that_break_the_contract() {
    let s = Scratch::new("inv_more");
    // SGLang: the same arrays without start times; a negative gap.
    let mut sg = vllm_result(40);
    sg.as_object_mut().unwrap().remove("start_times");
    sg["server_info"] = json!({"version": "0.4"});
    sg["itls"][3][0] = json!(-1.0);
    let f = write(&s, "sglang.jsonl", &format!("{sg}\n"));
    imports_with_invalid_rows(&s, "sglang", &f, 1);
    // llmperf: a first token after the end, and a NaN latency on a failed request.
    let rows: Vec<Value> = (0..30)
        .map(|i| {
            let (ttft, e2e) = if i == 5 { (2.0, 1.0) } else { (0.1, 1.0) };
            json!({"error_code": null, "error_msg": "", "ttft_s": ttft, "end_to_end_latency_s": e2e, "inter_token_latency_s": 0.02, "request_output_throughput_token_per_s": 50.0, "number_input_tokens": 10, "number_output_tokens": 50})
        })
        .collect();
    let text = Value::Array(rows).to_string();
    let text = text.replacen(r#""end_to_end_latency_s":1.0"#, r#""end_to_end_latency_s":NaN"#, 1).replacen(r#""error_code":null"#, r#""error_code":500"#, 1);
    let f = write(&s, "llmperf_individual_responses.json", &text);
    imports_with_invalid_rows(&s, "llmperf", &f, 2);
    // perf_analyzer: a response timestamp before the request was sent.
    let t0 = 1_781_184_000_000_000_000i64;
    let reqs: Vec<Value> = (0..30i64)
        .map(|i| {
            let sent = t0 + i * 100_000_000;
            let first = if i == 9 { sent - 5_000_000 } else { sent + 30_000_000 };
            json!({"timestamp": sent, "response_timestamps": [first, sent + 60_000_000, sent + 90_000_000]})
        })
        .collect();
    let pa = json!({"experiments": [{"experiment": {"mode": "concurrency", "value": 2}, "requests": reqs}], "version": "2.59"});
    let f = write(&s, "profile_export.json", &pa.to_string());
    imports_with_invalid_rows(&s, "perf-analyzer", &f, 1);
    // MLCommons endpoints: a chunk after the sample completed, and a sample never issued.
    let mut ev = String::new();
    for i in 0..30i64 {
        let t = 1_000_000_000 + i * 100_000_000;
        let late = if i == 4 { 200_000_000 } else { 60_000_000 };
        let kinds: &[(&str, i64)] = if i == 8 {
            &[("sample.recv_first", 40_000_000), ("sample.complete", 80_000_000)]
        } else {
            &[("sample.issued", 0), ("sample.recv_first", 40_000_000), ("sample.recv_non_first", late), ("sample.complete", 80_000_000)]
        };
        for (e, dt) in kinds {
            ev += &format!("{}\n", json!({"event_type": e, "timestamp_ns": t + dt, "sample_uuid": format!("s{i:02}")}));
        }
    }
    let f = write(&s, "events.jsonl", &ev);
    imports_with_invalid_rows(&s, "mlc-endpoints", &f, 2);
}

/// Found by fuzzing (`import_sglang`): a failed request's gap of `-Infinity` put its end (its
/// last chunk) at the far end of the nanosecond clock, and the contract check's difference
/// overflowed. The gap is named instead, and the row kept as invalid.
#[test]
fn sglang_failed_request_with_an_infinite_gap_is_an_invalid_row_named_by_its_gap() {
    let s = Scratch::new("inv_sglang_inf");
    let mut sg = vllm_result(30);
    sg.as_object_mut().unwrap().remove("start_times");
    sg["errors"][3] = json!("Traceback: Timeout");
    let text = sg.to_string().replacen("[0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02]", "X", 4);
    let text = text.replacen("X", "[0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02,0.02]", 3).replacen("X", "[-Infinity]", 1);
    let f = write(&s, "sglang.jsonl", &format!("{text}\n"));
    let out = s.path("run");
    let o = credence(&["import", "sglang", f.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let messages = run.requests.strings("error_message").unwrap();
    assert!(
        (0..messages.len()).any(|i| messages.is_valid(i) && messages.value(i).contains("itls[3][0] is -inf, not a time")),
        "{:?}",
        (0..messages.len()).filter(|&i| messages.is_valid(i)).map(|i| messages.value(i)).collect::<Vec<_>>()
    );
    let v = credence(&["validate", out.to_str().unwrap()]);
    assert!(v.status.success(), "{}", stderr(&v));
}
