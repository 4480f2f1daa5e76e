//! `analyze` on degenerate runs: it must say what it cannot estimate, never panic.

use credence::analyze::{AnalyzeOptions, Status, analyze};
use credence::run::Run;
use credence::run::manifest::TimestampQuality;
use credence::run::table::{Column, utf8_column};
use credence::simulate::{Scenario, SimOptions, simulate};

fn base_run(duration_s: f64) -> Run {
    let mut o = SimOptions::new(Scenario::Steady, 3);
    o.duration_s = duration_s;
    o.compute_truth = false;
    let sim = simulate(&o).unwrap();
    Run { dir: "sim".into(), manifest: sim.data.manifest, requests: sim.data.requests, gpu: None, host: None, server: None, warnings: Vec::new() }
}

fn opts() -> AnalyzeOptions {
    AnalyzeOptions { resamples: 299, ..AnalyzeOptions::default() }
}

#[test]
fn empty_run() {
    let mut run = base_run(10.0);
    run.requests = credence::run::Table::empty(credence::run::TableKind::Requests);
    let a = analyze(&run, &opts());
    assert_eq!(a.requests.total, 0);
    assert_eq!(a.metrics["ttft"]["p50"].status, Status::NotApplicable);
    assert_eq!(a.throughput.requests_per_s.status, Status::NotApplicable);
    serde_json::to_string(&a).unwrap();
}

#[test]
fn every_request_failed() {
    let mut run = base_run(20.0);
    let n = run.requests.num_rows();
    run.requests.replace_column("status", utf8_column(std::iter::repeat_n(Some("error"), n))).unwrap();
    // Server errors are no latency observations: nothing is left to estimate.
    run.requests.replace_column("error_kind", utf8_column(std::iter::repeat_n(Some("http_5xx"), n))).unwrap();
    let a = analyze(&run, &opts());
    assert_eq!(a.metrics["ttft"]["p50"].status, Status::NotApplicable);
    assert_eq!(a.metrics["e2e"]["p50"].status, Status::NotApplicable);
    assert_eq!(a.errors.rate.estimate, Some(1.0));
    assert!(a.errors.by_kind.contains_key("http_5xx"));
    // Timeouts are: every E2E is censored (a bound), and the first tokens that came were waited
    // for like any other (issue 60).
    run.requests.replace_column("error_kind", utf8_column(std::iter::repeat_n(Some("timeout"), n))).unwrap();
    let a = analyze(&run, &opts());
    let e2e = &a.metrics["e2e"]["p50"];
    assert!(e2e.is_censored_bound() && e2e.censored.is_some_and(|c| c.share == 1.0), "{e2e:?}");
    assert!(a.metrics["ttft"]["p50"].estimate.is_some());
    assert!(a.errors.by_kind.contains_key("timeout"));
}

#[test]
fn no_first_tokens_and_no_chunks() {
    // A minute: E2E needs 8 five-second groups to measure its dependence and be bounded.
    let mut run = base_run(60.0);
    let n = run.requests.num_rows();
    run.requests.replace_column("first_token_ns", Column::Timestamp(vec![None; n])).unwrap();
    let mut lists = credence::run::TimestampLists::new();
    for _ in 0..n {
        lists.push(None);
    }
    run.requests.replace_column("chunk_ns", Column::TimestampList(lists)).unwrap();
    let a = analyze(&run, &opts());
    assert_eq!(a.metrics["ttft"]["p50"].status, Status::NotApplicable);
    assert_eq!(a.metrics["itl"]["p50"].status, Status::NotApplicable);
    assert_eq!(a.metrics["e2e"]["p50"].status, Status::Ok);
    assert!(a.requests.missing["ttft"] > 0 && a.requests.missing["itl"] > 0);
}

#[test]
fn absent_timestamps_disable_time_based_statistics() {
    let mut run = base_run(30.0);
    run.manifest.clock.timestamps = TimestampQuality::Absent;
    let a = analyze(&run, &opts());
    assert_eq!(a.steady_state.classification, credence::analyze::steady::Classification::NoSteadyState);
    assert_eq!(a.throughput.requests_per_s.status, Status::NotApplicable);
    assert!(a.warnings.iter().any(|w| w.kind == "timestamps"));
}

#[test]
fn a_handful_of_requests() {
    let run = base_run(10.0);
    let a = analyze(&run, &opts());
    assert!(a.requests.total > 0);
    let p999 = &a.metrics["ttft"]["p999"];
    assert_eq!(p999.status, Status::InsufficientData);
    serde_json::to_string(&a).unwrap();
}
