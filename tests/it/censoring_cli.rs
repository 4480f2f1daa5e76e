//! Timed-out requests are right-censored latencies (issue 60, item 3), end to end through the
//! binary: a run whose slowest requests timed out before their first token reports its P99
//! TTFT as a bound beyond the timeout, never as a number.

use std::path::Path;

use serde_json::Value;

use crate::common::{Scratch, credence, fixture, stdout};

/// The steady fixture with every request whose TTFT exceeds its 93rd percentile timed out at
/// that level before its first token (no first token, no chunks, failed as `timeout`, ended
/// at sent + the timeout): the censoring a client timeout makes. Returns the timeout, in ms.
fn with_timeouts(dir: &Path) -> f64 {
    use credence::run::table::{Column, utf8_column};
    let mut run = credence::run::load(&fixture("scenarios/steady")).unwrap();
    let n = run.requests.num_rows();
    let sent = run.requests.timestamps("sent_ns").unwrap().to_vec();
    let first = run.requests.timestamps("first_token_ns").unwrap().to_vec();
    let mut ttft: Vec<i64> = (0..n).filter_map(|i| Some(first[i]? - sent[i]?)).collect();
    ttft.sort_unstable();
    let timeout_ns = ttft[ttft.len() * 93 / 100];
    let timed_out: Vec<bool> = (0..n).map(|i| matches!((sent[i], first[i]), (Some(s), Some(f)) if f - s > timeout_ns)).collect();
    let keep = |col: &str| -> Vec<Option<i64>> { run.requests.timestamps(col).unwrap().to_vec() };
    let (mut first_col, mut end_col) = (keep("first_token_ns"), keep("end_ns"));
    let status_col: Vec<Option<&str>> = timed_out.iter().map(|t| Some(if *t { "error" } else { "ok" })).collect();
    let kind_col: Vec<Option<&str>> = timed_out.iter().map(|t| t.then_some("timeout")).collect();
    let mut chunks = credence::run::table::TimestampLists::new();
    for i in 0..n {
        if timed_out[i] {
            first_col[i] = None;
            end_col[i] = sent[i].map(|s| s + timeout_ns);
        }
        chunks.push(if timed_out[i] { None } else { run.requests.timestamp_lists("chunk_ns").and_then(|l| l.get(i)) });
    }
    let r = &mut run.requests;
    r.replace_column("first_token_ns", Column::Timestamp(first_col)).unwrap();
    r.replace_column("end_ns", Column::Timestamp(end_col)).unwrap();
    r.replace_column("status", utf8_column(status_col)).unwrap();
    r.replace_column("error_kind", utf8_column(kind_col)).unwrap();
    r.replace_column("chunk_ns", Column::TimestampList(chunks)).unwrap();
    credence::run::write::write_run(dir, &run.into()).unwrap();
    timeout_ns as f64 / 1e6
}

#[test]
fn a_p99_beyond_the_timeout_is_a_bound_in_json_and_text() {
    let s = Scratch::new("censoring_cli");
    let dir = s.path("run");
    let timeout_ms = with_timeouts(&dir);
    let out = credence(&["analyze", dir.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let a: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let p99 = &a["metrics"]["ttft"]["p99"];
    assert_eq!(p99["estimate"], Value::Null, "{p99}");
    assert_eq!(p99["ci_high"], Value::Null, "{p99}");
    assert_eq!(p99["status"], "insufficient_data", "{p99}");
    assert_eq!(p99["method"], "kaplan_meier", "{p99}");
    let bound = p99["ci_low"].as_f64().unwrap();
    assert!(bound <= timeout_ms + 1e-6 && bound > 0.9 * timeout_ms, "the bound is the timeout level: {bound} vs {timeout_ms}");
    let share = p99["censored"]["share"].as_f64().unwrap();
    assert!((0.05..0.09).contains(&share), "about 7 % timed out: {p99}");
    assert_eq!(p99["censored"]["before"], "first_token");
    assert!(p99["note"].as_str().unwrap().contains("beyond the censoring level"), "{p99}");
    // The median is a number, and the timed-out requests count in it (n is every request).
    let p50 = &a["metrics"]["ttft"]["p50"];
    assert!(p50["estimate"].is_number() && p50["status"] == "ok", "{p50}");
    assert_eq!(p50["n"], p99["n"]);
    assert_eq!(a["metrics"]["ttft"]["mean"]["method"], "restricted_mean");
    // The text prints the bound, never a number in the estimate's place.
    let text = stdout(&credence(&["analyze", dir.to_str().unwrap()]));
    let line = text.lines().find(|l| l.starts_with("ttft (")).unwrap_or_else(|| panic!("no TTFT line:\n{text}"));
    assert!(line.contains("% timed out or cancelled before their first token"), "{line}");
    let shown: Vec<f64> = line.split("> ").skip(1).filter_map(|cell| cell.split(" (").next()?.parse().ok()).collect();
    assert!(shown.iter().any(|x| (x / bound - 1.0).abs() < 0.01), "the P99 cell shows its bound {bound}: {line}");
}

/// A comparison against a run whose P99 TTFT is a bound leaves that metric out, with why.
#[test]
fn compare_computes_no_change_from_a_bound() {
    let s = Scratch::new("censoring_compare");
    let dir = s.path("run");
    with_timeouts(&dir);
    let json = s.path("compare.json");
    let base = fixture("scenarios/steady");
    let out = credence(&["compare", "--resamples", "999", "--out", json.to_str().unwrap(), "--base", base.to_str().unwrap(), "--cand", dir.to_str().unwrap()]);
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let c: Value = serde_json::from_str(&text).unwrap();
    assert!(c["metrics"].get("ttft_p99").is_none(), "{}", c["metrics"]["ttft_p99"]);
    let why = c["not_compared"]["ttft_p99"].as_str().unwrap();
    assert!(why.contains("beyond the censoring level") && why.contains("no change"), "{why}");
    assert!(c["metrics"]["ttft_p50"]["change"]["estimate"].is_number());
}
