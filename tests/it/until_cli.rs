//! `credence bench --until SPEC` as a user runs it: bad specs are refused with exit 2 before
//! any request; against a mock server that warms up (3x slower, decaying over 10 s), the run
//! cuts the warmup online, stops on its own with its goals met, records why and when in
//! `run.json`, `analyze` reproduces its estimates, and the report's page 1 says how it
//! stopped; with a throttle its fake GPU shows too, the throttle is left out online; a sweep's
//! steps and a series' runs stop on their own.

use std::time::Duration;

use crate::common::{Scratch, credence, stderr};
use credence::bench::mock_server::{MockConfig, spawn};
use credence::bench::mock_timeline::{Episode, Timeline, Warmup};
use serde_json::Value;

/// The mock's request-to-request variation of TTFT (log-scale SD): service times that vary as a
/// real server's do keep the requests nearly independent, so loopback's bursts of jitter do
/// not make every interval wide.
const JITTER: f64 = 0.1;

/// `credence bench --url URL --model m --rate RATE EXTRA… --out OUT`.
fn bench(url: &str, rate: &str, extra: &[&str], out: &std::path::Path) -> std::process::Output {
    let mut args = vec!["bench", "--url", url, "--model", "m", "--rate", rate];
    args.extend_from_slice(extra);
    args.extend(["--out", out.to_str().unwrap()]);
    credence(&args)
}

/// `credence report RUN --format md`, as text.
fn markdown_report(s: &Scratch, run: &std::path::Path) -> String {
    let report = s.path("report.md");
    let r = credence(&["report", run.to_str().unwrap(), "--format", "md", "-o", report.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
    std::fs::read_to_string(report).unwrap()
}

/// `analyze` reproduces the P50 TTFT the run stopped on (`offline`), and the Markdown report's
/// stop line says `says` and that every goal was reached.
fn assert_reproduced_and_reported(s: &Scratch, run: &std::path::Path, stop: &Value, offline: f64, says: &str) {
    let online = stop["targets"][0]["estimate"].as_f64().unwrap();
    assert!((online / offline - 1.0).abs() < 0.02, "P50 TTFT online {online} offline {offline}");
    let md = markdown_report(s, run);
    assert!(md.contains(says) && md.contains("every goal reached"), "{md}");
}

/// The mock's time to first token outside its slowdowns (ms).
const TTFT_MS: f64 = 20.0;

/// A mock server with `timeline`: 20 ms to the first token (times a log-normal factor of
/// log-scale SD `JITTER`, median 1), 8 tokens 2 ms apart.
fn timeline_mock(timeline: Timeline) -> credence::bench::mock_server::MockServer {
    let config = MockConfig {
        ttft: Duration::from_secs_f64(TTFT_MS / 1e3),
        token_delay: Duration::from_millis(2),
        output_tokens: Some(8),
        timeline,
        ttft_jitter: JITTER,
        ..MockConfig::default()
    };
    spawn(config, 0).unwrap()
}

/// A mock server that answers at once (5 ms to the first token, 4 tokens).
fn quick_mock() -> credence::bench::mock_server::MockServer {
    let config = MockConfig { ttft: Duration::from_millis(5), token_delay: Duration::from_millis(1), output_tokens: Some(4), ..MockConfig::default() };
    spawn(config, 0).unwrap()
}

#[test]
fn bad_until_specs_are_refused_before_any_request() {
    let s = Scratch::new("until_bad");
    let out = s.path("run");
    let base = ["bench", "--url", "http://127.0.0.1:9", "--model", "m", "--rate", "5", "--out", out.to_str().unwrap()];
    for (extra, says) in [
        (vec!["--until", "ttft_p42=3%"], "unknown metric"),
        (vec!["--until", "ttft_p99=0%"], "between 0 % and 100 %"),
        (vec!["--until", "ttft_p99=three"], "must be a percentage"),
        (vec!["--until", "ttft_p99=3%", "--duration", "60s"], "drop --duration"),
        (vec!["--until", "ttft_p99=3%", "--requests", "100"], "drop --duration and --requests"),
        (vec!["--until", "ttft_p99=3%", "--max-error-rate", "150%"], "--max-error-rate"),
        (vec!["--until", "ttft_p99=3%", "--min-duration", "10m", "--max-duration", "5m"], "longer than --max-duration"),
        (vec!["--max-error-rate", "5%", "--duration", "10s"], "applies to --until only"),
        (vec!["--repeat", "auto", "--duration", "10s"], "give --until SPEC"),
        (vec!["--repeat", "auto", "--until", "ttft_p99=3%", "--max-runs", "2"], "at least 3 runs"),
        (vec!["--repeat", "some", "--duration", "10s"], "expected a number of runs, or auto"),
    ] {
        let mut args: Vec<&str> = base.to_vec();
        args.extend(extra.iter().copied());
        let o = credence(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{extra:?}: {}", stderr(&o));
        assert!(!out.exists(), "{extra:?}: nothing is written");
    }
    let o = credence(&[&base[..], &["--until", "latency=3%"]].concat());
    assert!(stderr(&o).contains("ttft_p99") && stderr(&o).contains("throughput"), "the error lists the metrics: {}", stderr(&o));
}

#[test]
fn a_run_stops_itself_once_its_goals_are_met_and_says_so() {
    // A warmup alone: a slowdown with no cause in evidence (no GPU telemetry) is part of what
    // the run measures, and one soon after the warmup may rightly move the cut past it (the
    // throttle with its telemetry is the acceptance test below).
    let timeline = Timeline { warmup: Some(Warmup { duration_s: 10.0, factor: 3.0 }), ..Timeline::default() };
    let server = timeline_mock(timeline);
    let s = Scratch::new("until_run");
    let out = s.path("run");
    let url = server.url();
    let o = bench(&url, "20", &["--until", "ttft_p50=5%,throughput=10%", "--max-duration", "240s"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("until: stopped at"), "{}", stderr(&o));
    let manifest: Value = serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    let stop = &manifest["phases"]["stop"];
    assert_eq!(stop["reason"], "targets_met", "{stop}");
    let (at, warmup) = (stop["stopped_at_s"].as_f64().unwrap(), stop["warmup_end_s"].as_f64().unwrap());
    assert!(at < 240.0, "stopped before --max-duration: {at}");
    // The mock's slowdown decays to nothing at 10 s: the online cut lies near it.
    assert!((3.0..=25.0).contains(&warmup), "warmup cut online at {warmup} s");
    // Requests scheduled before the cut are marked warmup: the schedule counts from its own
    // time zero, the cut from the first send, a few milliseconds later.
    let marked = manifest["phases"]["warmup_s"].as_f64().unwrap();
    assert!((0.0..0.5).contains(&(marked - warmup)), "requests before the cut ({warmup} s) are marked warmup: {marked} s");
    for t in stop["targets"].as_array().unwrap() {
        assert_eq!(t["met"], true, "{t}");
        assert!(t["half_width"].as_f64().unwrap() <= t["goal"].as_f64().unwrap(), "{t}");
    }
    // `analyze` on the run reproduces the estimates the run stopped on.
    let a = credence(&["analyze", out.to_str().unwrap(), "--json", "--resamples", "999"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let a: Value = serde_json::from_slice(&a.stdout).unwrap();
    let offline = a["metrics"]["ttft"]["p50"]["estimate"].as_f64().unwrap();
    // The mock's TTFT is 20 ms outside its slowdowns.
    assert!((20.0..24.0).contains(&offline), "P50 TTFT {offline} ms");
    assert_reproduced_and_reported(&s, &out, stop, offline, "| Stopped | stopped at");
}

#[test]
fn repeat_auto_ends_the_series_when_a_run_cannot_meet_its_targets() {
    // Each run is bounded at 12 s, far too short for the pilot: it stops at --max-duration
    // without meeting its targets, and a series that cannot meet them stops there too.
    let server = quick_mock();
    let s = Scratch::new("until_series");
    let out = s.path("series");
    let url = server.url();
    let until = ["--until", "ttft_p50=5%", "--max-duration", "12s", "--min-duration", "5s", "--repeat", "auto", "--max-runs", "4"];
    let o = bench(&url, "10", &until, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("--repeat auto ends here"), "{}", stderr(&o));
    let series: Value = serde_json::from_slice(&std::fs::read(out.join("series.json")).unwrap()).unwrap();
    assert_eq!(series["repeat"], "auto", "{series}");
    assert_eq!(series["planned_runs"], 4, "{series}");
    let runs = series["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "the series ends after the run that could not meet its targets: {series}");
    // Judged at --max-duration on everything that finished: 12 s is too short for the pilot,
    // and may be too short to find a steady state at all.
    assert!(runs[0]["stop"] == "max_duration" || runs[0]["stop"] == "no_steady_state", "{series}");
    let manifest: Value = serde_json::from_slice(&std::fs::read(out.join("run-1/run.json")).unwrap()).unwrap();
    assert_eq!(manifest["phases"]["stop"]["reason"], runs[0]["stop"]);
}

/// The acceptance run of `--until`, end to end over HTTP: a mock server that warms up (3x
/// slower, decaying over 60 s) and throttles (1.5x from 120 s to 150 s) while the fake GPU it
/// runs on throttles thermally at the same time. The run cuts the warmup online, finds the
/// throttle in the GPU telemetry and leaves it out of its estimates, stops with its goals met,
/// and the report's clean numbers cover the mock's true service time.
#[test]
fn a_run_cuts_the_warmup_and_leaves_a_throttle_out_online() {
    let timeline = Timeline {
        warmup: Some(Warmup { duration_s: 60.0, factor: 3.0 }),
        throttles: vec![Episode { start_s: 120.0, end_s: 150.0, value: 1.5 }],
        ..Timeline::default()
    };
    let true_ttft_ms = TTFT_MS;
    let server = timeline_mock(timeline);
    let s = Scratch::new("until_throttle");
    let out = s.path("run");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_credence"))
        .args(["bench", "--url", &server.url(), "--model", "m", "--rate", "20", "--out", out.to_str().unwrap()])
        .args(["--until", "ttft_p50=2%,throughput=5%", "--max-duration", "400s", "--collect-gpu", "on"])
        .env("CREDENCE_FAKE_GPUS", "1:throttle=120-150")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("episode: GPU thermal throttling"), "the live view says when it is in the episode: {}", stderr(&o));
    let manifest: Value = serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    let stop = &manifest["phases"]["stop"];
    assert_eq!(stop["reason"], "targets_met", "{stop}");
    let at = stop["stopped_at_s"].as_f64().unwrap();
    assert!(at > 150.0 && at < 400.0, "stopped after the episode and before --max-duration: {at}");
    let warmup = stop["warmup_end_s"].as_f64().unwrap();
    assert!((50.0..=75.0).contains(&warmup), "the mock's slowdown ends at 60 s; cut online at {warmup} s");
    let excluded = stop["excluded"].as_array().unwrap();
    assert!(
        excluded.iter().any(|e| e["cause"] == "thermal_throttle" && e["start_s"].as_f64().unwrap() <= 122.0 && e["end_s"].as_f64().unwrap() >= 148.0),
        "the throttle (120-150 s) was left out online: {excluded:?}"
    );
    // Offline, the clean windows leave the same episode out, and their intervals cover the
    // mock's true TTFT outside its slowdowns (20 ms × a log-normal factor: P50 20 ms, P99
    // 20 · exp(2.326 · 0.1) ms) plus the HTTP round trip on loopback (allowed up to 1 ms). The
    // whole steady window, episode included, holds the throttled requests at P99.
    let a = credence(&["analyze", out.to_str().unwrap(), "--json"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let a: Value = serde_json::from_slice(&a.stdout).unwrap();
    let clean = a["conditions"].as_array().unwrap().iter().find(|c| c["name"] == "clean").expect("a clean condition");
    for (p, truth) in [("p50", true_ttft_ms), ("p99", true_ttft_ms * (2.326 * JITTER).exp())] {
        let e = &clean["metrics"]["ttft"][p];
        let (lo, hi) = (e["ci_low"].as_f64().unwrap(), e["ci_high"].as_f64().unwrap_or(f64::INFINITY));
        assert!(lo <= truth + 1.0 && hi >= truth, "clean {p} TTFT [{lo}, {hi}] ms against the mock's true {truth} ms");
    }
    let whole = a["metrics"]["ttft"]["p99"]["estimate"].as_f64().unwrap();
    assert!(whole >= 1.3 * true_ttft_ms * (2.326 * JITTER).exp(), "the whole steady window's P99 TTFT {whole} ms holds the throttled requests");
    let offline = clean["metrics"]["ttft"]["p50"]["estimate"].as_f64().unwrap();
    assert_reproduced_and_reported(&s, &out, stop, offline, "of GPU thermal throttling left out");
}

#[test]
fn each_step_of_a_sweep_stops_on_its_own_and_sweep_json_says_why() {
    // Steps bounded at 6 s cannot finish the pilot: each stops at --max-duration.
    let server = quick_mock();
    let s = Scratch::new("until_sweep");
    let out = s.path("sweep");
    let o = bench(&server.url(), "5", &["--sweep", "rate=5,10", "--until", "throughput=5%", "--min-duration", "1s", "--max-duration", "6s"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let sweep: Value = serde_json::from_slice(&std::fs::read(out.join("sweep.json")).unwrap()).unwrap();
    let steps = sweep["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "{sweep}");
    for step in steps {
        // Judged at --max-duration on everything that finished: too short for a steady state.
        assert!(step["stop"] == "no_steady_state" || step["stop"] == "max_duration", "{step}");
        let run: Value = serde_json::from_slice(&std::fs::read(out.join(step["run"].as_str().unwrap()).join("run.json")).unwrap()).unwrap();
        assert!(run["phases"]["stop"]["stopped_at_s"].as_f64().unwrap() <= 8.0, "{}", run["phases"]["stop"]);
    }
}
