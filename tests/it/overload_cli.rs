//! Overload as a user meets it (issue 60), against `mock-server --max-batch`, a server of
//! finite and known capacity: 4 slots, steps of 10 ms + 2.5 ms per sequence, 10 tokens per
//! response, so it completes 4 / (10 × 20 ms) = 20 requests/s at most. Offered 1.5 times that,
//! the analysis names overload first, with the completed rate and its interval, and finds no
//! steady state; offered 0.6 times that, it finds none; `bench --until` stops an overloaded run
//! within 30 s; a closed loop at saturation is a measurement, not overload.

use std::path::Path;

use crate::common::{MockProcess, Scratch, credence, stderr};
use serde_json::Value;

/// The engine's saturation throughput, requests/s.
const CAPACITY: f64 = 20.0;

fn engine_mock() -> MockProcess {
    MockProcess::start(&["--max-batch", "4", "--step-ms", "10", "--step-ms-per-seq", "2.5", "--output-tokens", "10"])
}

fn bench(mock: &MockProcess, out: &Path, load: &[&str]) {
    let mut args = vec!["bench", "--url", mock.url.as_str(), "--model", "m", "--timeout", "10s", "--out", out.to_str().unwrap()];
    args.extend_from_slice(load);
    let o = credence(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn analyze(dir: &Path) -> Value {
    let o = credence(&["analyze", dir.to_str().unwrap(), "--json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn check<'a>(a: &'a Value, id: &str) -> &'a Value {
    a["credibility"]["checks"].as_array().unwrap().iter().find(|c| c["name"] == id).unwrap()
}

/// The mock says its own truth on /metrics.
#[test]
fn the_engine_reports_its_saturation_throughput() {
    let mock = engine_mock();
    let o = std::process::Command::new("curl").args(["-s", &format!("{}/metrics", mock.url)]).output();
    let Ok(o) = o else { return };
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("mock_saturation_requests_per_second 20\n") && text.contains("vllm:num_requests_waiting"), "{text}");
}

/// 30 requests/s offered to a server that completes 20: overload leads the findings with the
/// completed rate (within 10 % of the truth) and the unserved rate's interval above zero;
/// steady state fails as overloaded, the timeouts fold into the finding, and the grade is LOW.
/// At 12 requests/s the same server keeps up and nothing is said of overload.
#[test]
fn an_overloaded_open_loop_is_named_and_a_light_one_is_not() {
    let mock = engine_mock();
    let s = Scratch::new("overload_open");
    bench(&mock, &s.path("over"), &["--rate", "30", "--duration", "30s"]);
    let a = analyze(&s.path("over"));
    let f = &a["findings"][0];
    assert_eq!(f["cause"], "overload", "{}", a["findings"]);
    let load = &a["load"];
    assert_eq!(load["verdict"], "overloaded", "{load}");
    let completed = load["completed_per_s"].as_f64().unwrap();
    assert!((completed / CAPACITY - 1.0).abs() < 0.1, "completed {completed}/s, capacity {CAPACITY}/s");
    assert!(load["unserved_per_s"]["ci_low"].as_f64().unwrap() > 0.05 * 30.0, "{load}");
    assert!(f["evidence"][0].as_str().unwrap().starts_with("offered 30.0/s, completed"), "{}", f["evidence"]);
    assert_eq!(a["steady_state"]["classification"], "no_steady_state");
    let steady = check(&a, "steady_state");
    assert!(steady["status"] == "FAIL" && steady["reason"].as_str().unwrap().contains("exceeds what the server completes"), "{steady}");
    assert_eq!(a["credibility"]["grade"], "LOW");
    let causes: Vec<&str> = a["findings"].as_array().unwrap().iter().map(|f| f["cause"].as_str().unwrap()).collect();
    assert!(!causes.contains(&"error_burst") && !causes.contains(&"drift"), "timeouts and a rising latency are the queue's consequences: {causes:?}");
    let statement = a["credibility"]["statement"].as_str().unwrap();
    assert!(statement.contains("was offered more than the server completes") && !statement.contains("of steady state"), "{statement}");

    // The objectives the overloaded run misses: its P99 TTFT is the queue's, far past 500 ms,
    // and its goodput is what the server completes in time (failed requests miss).
    let slo = analyze_slo(&s.path("over"), "ttft_p99=500ms,tpot_p50=30ms");
    assert_eq!(slo["objectives"][0]["verdict"], "violated", "{slo}");
    assert!(slo["goodput_per_s"]["estimate"].as_f64().unwrap() < CAPACITY, "{slo}");
    assert!(slo["attainment"]["ci_high"].as_f64().unwrap() < 0.5, "{slo}");

    // 50 s: a steady window of at least 8 five-second groups, so that intervals exist.
    bench(&mock, &s.path("light"), &["--rate", "12", "--duration", "50s"]);
    let a = analyze(&s.path("light"));
    assert_eq!(a["load"]["verdict"], "kept_up", "{}", a["load"]);
    assert!(!a["findings"].as_array().unwrap().iter().any(|f| f["cause"] == "overload"), "{}", a["findings"]);
    // Below capacity a request takes one step per token (10 + 2.5 × batch ms): both objectives
    // are met, every request is within them, and goodput is the offered rate. (A P99 from 30 s
    // of a queueing server cannot be bounded from above: it would be undecided.)
    let slo = analyze_slo(&s.path("light"), "ttft_p50=500ms,tpot_p50=30ms");
    assert!(slo["objectives"].as_array().unwrap().iter().all(|o| o["verdict"] == "met"), "{slo}");
    assert!(slo["attainment"]["estimate"].as_f64().unwrap() > 0.99, "{slo}");
    let goodput = slo["goodput_per_s"]["estimate"].as_f64().unwrap();
    assert!((goodput / 12.0 - 1.0).abs() < 0.1, "goodput {goodput}/s at 12/s offered");
}

/// `analyze --slo SPEC`'s judgement of the objectives.
fn analyze_slo(dir: &Path, spec: &str) -> Value {
    let o = credence(&["analyze", dir.to_str().unwrap(), "--json", "--resamples", "499", "--slo", spec]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice::<Value>(&o.stdout).unwrap()["slo"].clone()
}

/// `bench --until` on an overloaded server stops `overloaded` within 30 s, with the offered and
/// completed rates in `run.json`, and never says a goal was reached.
#[test]
fn until_stops_an_overloaded_run_within_30_s() {
    let mock = engine_mock();
    let s = Scratch::new("overload_until");
    let out = s.path("run");
    bench(&mock, &out, &["--rate", "30", "--until", "ttft_p50=3%", "--max-duration", "3m"]);
    let m: Value = serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let stop = &m["phases"]["stop"];
    assert_eq!(stop["reason"], "overloaded", "{stop}");
    assert!(stop["stopped_at_s"].as_f64().unwrap() <= 30.0, "{stop}");
    assert!(stop["detail"].as_str().unwrap().starts_with("offered 30.0/s, completed"), "{stop}");
    assert!(stop["targets"].as_array().unwrap().iter().all(|t| t["met"] == false));
}

/// 16 closed-loop clients keep the 4 slots full: the achieved rate is the saturation
/// throughput, a measurement: no overload finding, and the load is `closed_loop`.
#[test]
fn a_closed_loop_at_saturation_is_a_measurement() {
    let mock = engine_mock();
    let s = Scratch::new("overload_closed");
    bench(&mock, &s.path("run"), &["--concurrency", "16", "--duration", "20s"]);
    let a = analyze(&s.path("run"));
    assert_eq!(a["load"]["verdict"], "closed_loop");
    assert!(!a["findings"].as_array().unwrap().iter().any(|f| f["cause"] == "overload"), "{}", a["findings"]);
    let rate = a["throughput"]["requests_per_s"]["estimate"].as_f64().unwrap();
    assert!((rate / CAPACITY - 1.0).abs() < 0.1, "saturation throughput {rate}/s against {CAPACITY}/s");
}

/// An objective that names an unknown metric or percentile, lacks a unit or is not positive is
/// exit 2, listing what is accepted.
#[test]
fn a_bad_slo_is_exit_2_listing_what_is_accepted() {
    let demo = crate::common::fixture("demo");
    for spec in ["ttft_p98=500ms", "ttft_p99=500", "ttft_p99=0ms", "queue_p99=1s", "ttft_p99"] {
        let o = credence(&["analyze", demo.to_str().unwrap(), "--slo", spec]);
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", stderr(&o));
        assert!(stderr(&o).contains("ttft_p99, tpot_p50"), "{spec}: {}", stderr(&o));
    }
}

/// A sweep's fixed-length step past capacity stops once the server is surely overloaded (its
/// rest would only measure a growing queue); `sweep.json` says why, and the step below
/// capacity runs its full length.
#[test]
fn a_sweep_step_past_capacity_stops_as_overloaded() {
    let mock = engine_mock();
    let s = Scratch::new("overload_sweep");
    let out = s.path("sweep");
    bench(&mock, &out, &["--sweep", "rate=10,30", "--duration", "20s"]);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    let (light, over) = (&v["steps"][0], &v["steps"][1]);
    assert!(light["stop"].is_null() && light["stopped_early"] == false, "{light}");
    assert_eq!(over["stop"], "overloaded", "{over}");
    assert!(over["requests"].as_u64().unwrap() < 30 * 20 * 9 / 10, "the overloaded step stopped early: {over}");
    let a = analyze(&out.join(over["run"].as_str().unwrap()));
    assert_eq!(a["findings"][0]["cause"], "overload");
    assert!(!a["findings"].as_array().unwrap().iter().any(|f| f["cause"] == "ramp_down"), "a stop on purpose is no ramp-down: {}", a["findings"]);
}
