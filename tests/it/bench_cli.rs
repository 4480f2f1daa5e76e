//! `credence bench` against `credence::bench::mock_server`, an OpenAI-compatible streaming
//! server the test starts on loopback with scripted TTFT, token delay, lengths and faults:
//! timings held against the script, the open-loop schedule under a slow server and under a
//! starved client, error classification against the server's own fault count, length
//! distributions, sweeps, and the run validated, analyzed and reported end to end.


use std::path::Path;
use std::process::Output;
use std::time::Duration;

use arrow_array::Array;
use crate::common::{MockProcess, Scratch, credence, stderr};
use credence::bench::mock_server::{Fault, MockConfig, MockServer, spawn};
use serde_json::Value;

/// The tests here measure time: run them one at a time so they do not load each other's
/// clients and servers on a small CI machine.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn server(ttft_ms: u64, token_delay_ms: u64, tokens: Option<u32>) -> MockServer {
    let config =
        MockConfig { ttft: Duration::from_millis(ttft_ms), token_delay: Duration::from_millis(token_delay_ms), output_tokens: tokens, ..MockConfig::default() };
    spawn(config, 0).unwrap()
}

fn bench(server: &MockServer, out: &Path, extra: &[&str]) -> Output {
    let url = server.url();
    let mut args = vec!["bench", "--url", &url, "--model", "m", "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    credence(&args)
}

fn analyze(dir: &Path) -> Value {
    let o = credence(&["analyze", dir.to_str().unwrap(), "--json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn validate(dir: &Path) {
    let v = credence(&["validate", dir.to_str().unwrap(), "--json"]);
    assert_eq!(serde_json::from_slice::<Value>(&v.stdout).unwrap()["valid"], true, "{}", String::from_utf8_lossy(&v.stdout));
}

/// The in-flight count a late-send warning says the rate needed ("needed about N").
fn needed_in_flight(err: &str) -> f64 {
    let at = err.find("needed about ").unwrap_or_else(|| panic!("no Little's-law count in: {err}")) + "needed about ".len();
    err[at..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
fn timings_match_the_servers_script() {
    let _serial = serial();
    // 20 ms to the first token, then 8 tokens 5 ms apart.
    let srv = server(20, 5, Some(8));
    let s = Scratch::new("bench_timing");
    let out = s.path("run");
    let o = bench(&srv, &out, &["--rate", "40", "--requests", "60", "--warmup", "5", "--connections", "16", "--input-len", "16"]);
    assert!(o.status.success(), "{}", stderr(&o));
    validate(&out);
    let run = credence::run::load(&out).unwrap();
    let r = &run.requests;
    assert_eq!(r.num_rows(), 60);
    let (sched, sent, first_byte, first) = (
        r.timestamps("scheduled_ns").unwrap(),
        r.timestamps("sent_ns").unwrap(),
        r.timestamps("first_byte_ns").unwrap(),
        r.timestamps("first_token_ns").unwrap(),
    );
    assert!(sched.iter().all(Option::is_some), "open loop keeps every scheduled time");
    let ms = |a: i64, b: i64| (b - a) as f64 / 1e6;
    let ttft: Vec<f64> = (0..60).map(|i| ms(sent[i].unwrap(), first[i].unwrap())).collect();
    assert!(ttft.iter().all(|t| *t >= 19.9), "no TTFT below the scripted 20 ms: {ttft:?}");
    let m = median(ttft);
    assert!((20.0..24.0).contains(&m), "median TTFT {m} ms against a scripted 20 ms");
    // The status line arrives when the stream opens, before the first token.
    assert!((0..60).all(|i| first_byte[i].unwrap() >= sent[i].unwrap() && first_byte[i].unwrap() <= first[i].unwrap()));
    let chunks = r.timestamp_lists("chunk_ns").unwrap();
    let mut gaps = Vec::new();
    for i in 0..60 {
        let c = chunks.get(i).unwrap();
        assert_eq!(c.len(), 8, "one chunk per token");
        gaps.extend(c.windows(2).map(|w| ms(w[0], w[1])));
    }
    let g = median(gaps);
    assert!((4.9..7.0).contains(&g), "median inter-token gap {g} ms against a scripted 5 ms");
    assert!(r.u32s("output_tokens").unwrap().iter().all(|t| *t == Some(8)), "output tokens come from the usage chunk");
    assert!(r.u32s("input_tokens").unwrap().iter().all(|t| *t == Some(16)), "the mock counts the prompt's 16 words");
    let phases = r.strings("phase").unwrap();
    assert_eq!((0..60).filter(|&i| phases.value(i) == "warmup").count(), 5);
    let w = &run.manifest.workload;
    assert_eq!((w.connection_reuse, w.connections), (Some(true), Some(16)), "the connection policy is in the manifest");
    let a = analyze(&out);
    let ttft = a["metrics"]["ttft"]["p50"]["estimate"].as_f64().unwrap();
    assert!((20.0..24.0).contains(&ttft), "analyzed TTFT {ttft} ms");
    assert_eq!(a["requests"]["declared_warmup"], 5);
    let host = run.host.as_ref().unwrap();
    assert!(host.f64s("lg_cpu_pct").unwrap().iter().flatten().count() >= 1, "the generator samples its own CPU");
    assert_eq!(srv.served(), 60);
}

#[test]
fn the_schedule_holds_under_a_slow_server_and_slips_only_when_the_client_starves() {
    let _serial = serial();
    // About 400 ms per request: slow, but 64 connections keep up with 40 requests/s.
    let srv = server(200, 50, Some(5));
    let s = Scratch::new("bench_slow");
    let out = s.path("held");
    let o = bench(&srv, &out, &["--rate", "40", "--arrival", "constant", "--requests", "60", "--connections", "64"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // (A shared CI machine may still stall a thread now and then; what must not happen is a
    // request waiting for a connection.)
    assert!(!stderr(&o).contains("every connection busy"), "no queueing when connections were free: {}", stderr(&o));
    let a = analyze(&out);
    let lag = |p: &str| a["metrics"]["send_lag"][p]["estimate"].as_f64().unwrap();
    assert!(lag("p50") < 2.0 && lag("p90") < 10.0, "send lag P50 {} ms, P90 {} ms with free connections", lag("p50"), lag("p90"));
    let e2e = a["metrics"]["e2e"]["p50"]["estimate"].as_f64().unwrap();
    assert!(e2e > 390.0, "the server is slow: E2E {e2e} ms");

    // Two connections for the same load: the client starves, the lag grows and shows.
    let starved = s.path("starved");
    let o = bench(&srv, &starved, &["--rate", "40", "--arrival", "constant", "--requests", "30", "--connections", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    // The warning names the cap and, by Little's law, the in-flight count the rate needed:
    // 40/s × about 0.45 s is 18 (the suggestion was 2 × the pool before issue 48).
    assert!(err.contains("send lag") && err.contains("every connection busy") && err.contains("--connections 2 held requests in flight to 2"), "{err}");
    let needed = needed_in_flight(&err);
    assert!((14.0..24.0).contains(&needed), "needed {needed} in flight: {err}");
    let f = credence::run::load(&starved).unwrap().manifest.workload.in_flight.unwrap();
    assert_eq!((f.limit, f.limited_by.as_str(), f.prewarmed, f.peak), (2, "connections", 2, 2), "a fixed pool of 2");
    let a = analyze(&starved);
    let lag = a["metrics"]["send_lag"]["p50"]["estimate"].as_f64().unwrap();
    assert!(lag > 500.0, "P50 send lag {lag} ms when starved");
    let service = a["metrics"]["service"]["p50"]["estimate"].as_f64().unwrap();
    let e2e = a["metrics"]["e2e"]["p50"]["estimate"].as_f64().unwrap();
    assert!(service > 2.0 * e2e, "latency from the schedule {service} ms includes the wait; E2E {e2e} ms hides it");
    let findings: Vec<&str> = a["findings"].as_array().unwrap().iter().filter_map(|f| f["cause"].as_str()).collect();
    assert!(findings.contains(&"client_saturation"), "the analysis names the client: {findings:?}");
}

/// Send lags (ms) of a run's requests, sorted.
fn send_lags_ms(run: &credence::run::Run) -> Vec<f64> {
    let (sched, sent) = (run.requests.timestamps("scheduled_ns").unwrap(), run.requests.timestamps("sent_ns").unwrap());
    let mut lags: Vec<f64> = (0..run.requests.num_rows()).map(|i| (sent[i].unwrap() - sched[i].unwrap()) as f64 / 1e6).collect();
    lags.sort_by(f64::total_cmp);
    lags
}

#[test]
fn an_open_loop_opens_a_connection_whenever_none_is_idle() {
    let _serial = serial();
    // 1 s per request at 100/s: about 100 in flight, past the fixed pool of 64 that bench
    // had by default before issue 48.
    let srv = server(1000, 10, Some(2));
    let s = Scratch::new("bench_open");
    let out = s.path("run");
    let o = bench(&srv, &out, &["--rate", "100", "--arrival", "constant", "--requests", "150", "--output-len", "2", "--input-len", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.contains("every connection busy"), "no request waited for a connection: {err}");
    let run = credence::run::load(&out).unwrap();
    assert_eq!(run.requests.num_rows(), 150);
    let f = run.manifest.workload.in_flight.clone().unwrap();
    assert_eq!(f.limited_by, "fd_limit", "no explicit cap: the file-descriptor limit bounds it");
    assert!(f.fd_soft_limit.unwrap() > u64::from(f.limit) && f.fd_hard_limit >= f.fd_soft_limit, "{f:?}");
    assert!(f.peak > 64 && f.peak <= 150, "in flight grew past the old pool of 64: {f:?}");
    assert!(run.manifest.workload.connections.unwrap() >= f.peak, "a connection per request in flight");
    assert!(f.prewarmed >= 4, "connections opened before time zero: {f:?}");
    // (A shared CI machine may stall a thread now and then; a wait for a connection would be ~1 s.)
    let lags = send_lags_ms(&run);
    assert!(lags[lags.len() * 9 / 10] < 10.0 && lags[lags.len() - 1] < 300.0, "send lags {:?}", &lags[lags.len() - 5..]);
    validate(&out);
}

#[test]
fn max_in_flight_caps_the_pool_and_the_warning_names_it() {
    let _serial = serial();
    // 0.5 s per request at 50/s needs about 26 in flight; the cap allows 8.
    let srv = server(500, 10, Some(2));
    let s = Scratch::new("bench_cap");
    let out = s.path("run");
    let o = bench(&srv, &out, &["--rate", "50", "--arrival", "constant", "--requests", "40", "--output-len", "2", "--max-in-flight", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("--max-in-flight 8 held requests in flight to 8"), "{err}");
    let needed = needed_in_flight(&err);
    assert!((20.0..34.0).contains(&needed), "needed {needed} in flight: {err}");
    let run = credence::run::load(&out).unwrap();
    let f = run.manifest.workload.in_flight.clone().unwrap();
    assert_eq!((f.limit, f.limited_by.as_str()), (8, "max_in_flight"));
    assert!(f.peak == 8 && run.manifest.workload.connections == Some(8), "{f:?}");
    assert!(send_lags_ms(&run)[20] > 200.0, "the capped sends went out late, and keep their schedule");
}

#[test]
fn errors_are_classified_as_the_server_injected_them() {
    let _serial = serial();
    let config = MockConfig {
        ttft: Duration::from_millis(5),
        token_delay: Duration::from_millis(2),
        output_tokens: Some(4),
        faults: vec![(Fault::Http500, 0.1), (Fault::Http429, 0.05), (Fault::Drop, 0.1), (Fault::Stall, 0.05), (Fault::Malformed, 0.1)],
        stall_for: Duration::from_secs(3),
        seed: 7,
        natural_length: None,
        ..MockConfig::default()
    };
    let srv = spawn(config, 0).unwrap();
    let s = Scratch::new("bench_errors");
    let out = s.path("run");
    let o = bench(&srv, &out, &["--rate", "100", "--requests", "120", "--connections", "32", "--timeout", "1s"]);
    assert!(o.status.success(), "{}", stderr(&o));
    validate(&out);
    let run = credence::run::load(&out).unwrap();
    let r = &run.requests;
    assert_eq!(r.num_rows(), 120, "no request is dropped from the record");
    let kinds = r.strings("error_kind").unwrap();
    let count = |kind: &str| (0..120).filter(|&i| !kinds.is_null(i) && kinds.value(i) == kind).count() as u64;
    let mut injected = 0;
    for f in Fault::ALL {
        let n = srv.injected(f);
        injected += n;
        assert!(n > 0, "the seeded draws inject some {}", f.name());
        assert_eq!(count(f.error_kind()), n, "{} injected {n} times, recorded as {}", f.name(), f.error_kind());
    }
    let status = r.strings("status").unwrap();
    assert_eq!((0..120).filter(|&i| status.value(i) == "error").count() as u64, injected, "every other request succeeded");
    let http = r.u32s("http_status").unwrap();
    assert!((0..120).filter(|&i| kinds.value(i) == "http_5xx").all(|i| http[i] == Some(500)));
    let a = analyze(&out);
    let by_kind = &a["errors"]["by_kind"];
    for kind in ["http_5xx", "disconnected", "malformed", "timeout"] {
        assert!(by_kind[kind]["estimate"].as_f64().is_some_and(|r| r > 0.0), "{kind} in the analysis: {by_kind}");
    }
    // And the report renders it.
    let md = s.path("report.md");
    let rep = credence(&["report", out.to_str().unwrap(), "-o", md.to_str().unwrap(), "--format", "md"]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("disconnected") && text.contains("malformed"), "the report lists the error kinds");
    let pdf = s.path("report.pdf");
    let rep = credence(&["report", out.to_str().unwrap(), "-o", pdf.to_str().unwrap()]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF"));
}

#[test]
fn length_distributions_are_drawn_per_request_and_repeat_with_the_seed() {
    let _serial = serial();
    let srv = server(1, 0, None);
    let s = Scratch::new("bench_lengths");
    let args = ["--concurrency", "4", "--requests", "80", "--input-len", "uniform:5-50", "--output-len", "uniform:2-9", "--api", "chat"];
    let tokens_by_id = |dir: &Path| {
        let run = credence::run::load(dir).unwrap();
        let ids = run.requests.strings("request_id").unwrap();
        let (i, o) = (run.requests.u32s("input_tokens").unwrap(), run.requests.u32s("output_tokens").unwrap());
        let mut v: Vec<(u64, u32, u32)> = (0..ids.len()).map(|r| (ids.value(r).parse().unwrap(), i[r].unwrap(), o[r].unwrap())).collect();
        v.sort_unstable();
        (v, run.manifest.workload)
    };
    let (a, b) = (s.path("a"), s.path("b"));
    for dir in [&a, &b] {
        let o = bench(&srv, dir, &args);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let ((ta, wa), (tb, _)) = (tokens_by_id(&a), tokens_by_id(&b));
    assert_eq!(ta, tb, "the same seed gives request k the same lengths whichever connection sends it");
    assert!(ta.iter().all(|(_, i, o)| (5..=50).contains(i) && (2..=9).contains(o)));
    let distinct: std::collections::BTreeSet<u32> = ta.iter().map(|t| t.2).collect();
    assert_eq!(distinct.len(), 8, "every output length 2..9 drawn in 80 requests");
    assert_eq!(wa.output_length.as_deref(), Some("uniform(2..9) tokens (max_tokens, ignore_eos)"));
    assert!(wa.input_length.as_deref().unwrap().starts_with("uniform(5..50) words"));
    // A model that ends on its own after 5 tokens: ignore_eos (the default) runs to max_tokens,
    // --no-ignore-eos lets it stop.
    let eos = spawn(MockConfig { ttft: Duration::from_millis(1), token_delay: Duration::ZERO, natural_length: Some(5), ..MockConfig::default() }, 0).unwrap();
    for (flag, want) in [(None, 12), (Some("--no-ignore-eos"), 5)] {
        let dir = s.path(if flag.is_some() { "eos_off" } else { "eos_on" });
        let mut args = vec!["--concurrency", "2", "--requests", "6", "--output-len", "12"];
        args.extend(flag);
        let o = bench(&eos, &dir, &args);
        assert!(o.status.success(), "{}", stderr(&o));
        let run = credence::run::load(&dir).unwrap();
        assert!(run.requests.u32s("output_tokens").unwrap().iter().all(|t| *t == Some(want)), "{flag:?}");
        assert_eq!(run.manifest.workload.output_length.as_deref().unwrap().contains("ignore_eos"), flag.is_none());
    }
    for bad in [["--output-len", "uniform:9-2"], ["--input-len", "zipf:1"]] {
        let o = bench(&srv, &s.path("bad"), &[&["--rate", "1", "--requests", "1"][..], &bad[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn closed_loop_new_connections_datasets_and_bad_input() {
    let _serial = serial();
    let srv = server(5, 2, Some(3));
    let s = Scratch::new("bench_closed");
    let out = s.path("run");
    let o = bench(&srv, &out, &["--concurrency", "3", "--requests", "30", "--api", "chat", "--new-connection-per-request"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    assert_eq!(run.requests.num_rows(), 30);
    assert!(run.requests.timestamps("scheduled_ns").unwrap().iter().all(Option::is_none), "closed loop has no schedule");
    assert_eq!(run.manifest.workload.concurrency, Some(3));
    assert_eq!(run.manifest.workload.connection_reuse, Some(false));
    assert!(run.requests.strings("status").unwrap().iter().all(|v| v == Some("ok")));
    let g = s.path("gamma");
    let og = bench(&srv, &g, &["--rate", "30", "--arrival", "gamma:2", "--requests", "20"]);
    assert!(og.status.success(), "{}", stderr(&og));
    assert_eq!(credence::run::load(&g).unwrap().requests.num_rows(), 20);
    // A dataset of prompts.
    let ds = s.path("prompts.jsonl");
    std::fs::write(&ds, "{\"prompt\": \"one two three\"}\n\"four\"\n").unwrap();
    let d = s.path("ds");
    let od = bench(&srv, &d, &["--concurrency", "2", "--requests", "6", "--dataset", ds.to_str().unwrap()]);
    assert!(od.status.success(), "{}", stderr(&od));
    let run = credence::run::load(&d).unwrap();
    assert_eq!(run.manifest.workload.dataset.as_deref(), Some(ds.to_str().unwrap()));
    let mut inputs: Vec<u32> = run.requests.u32s("input_tokens").unwrap().iter().map(|v| v.unwrap()).collect();
    inputs.sort_unstable();
    assert_eq!(inputs, [1, 1, 1, 3, 3, 3], "prompts cycled from the dataset");
    // Time-based warmup: requests scheduled in the first 0.5 s of a 30 req/s schedule.
    let w = s.path("warm");
    let ow = bench(&srv, &w, &["--rate", "30", "--arrival", "constant", "--requests", "30", "--warmup", "500ms"]);
    assert!(ow.status.success(), "{}", stderr(&ow));
    let warm = credence::run::load(&w).unwrap().manifest.phases.warmup_requests.unwrap();
    assert!((14..=16).contains(&warm), "{warm} warmup requests in the first 0.5 s at 30/s");
    let bad = s.path("bad");
    let url = srv.url();
    for args in [
        vec!["--url", "ftp://x", "--rate", "1", "--requests", "1"],
        vec!["--url", &url, "--requests", "1"],
        vec!["--url", &url, "--rate", "1"],
        vec!["--url", &url, "--rate", "1", "--requests", "1", "--connections", "4", "--max-in-flight", "4"],
        vec!["--url", &url, "--concurrency", "2", "--requests", "1", "--max-in-flight", "4"],
        vec!["--url", &url, "--rate", "1", "--requests", "1", "--max-in-flight", "0"],
    ] {
        let mut all = vec!["bench", "--model", "m", "--out", bad.to_str().unwrap()];
        all.extend(args.iter().copied());
        let o = credence(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!bad.exists());
    }
    // An unreachable server: every request is recorded as refused, none is dropped.
    let dead = s.path("dead");
    let o = credence(&[
        "bench",
        "--url",
        "http://127.0.0.1:9",
        "--model",
        "m",
        "--out",
        dead.to_str().unwrap(),
        "--rate",
        "50",
        "--requests",
        "5",
        "--timeout",
        "1s",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&dead).unwrap();
    assert_eq!(run.requests.num_rows(), 5);
    assert!((0..5).all(|i| run.requests.strings("error_kind").unwrap().value(i) == "refused"));
}

#[test]
fn gpus_and_server_metrics_are_sampled_beside_the_load() {
    let _serial = serial();
    let srv = server(5, 2, Some(3));
    let s = Scratch::new("bench_gpu");
    let out = s.path("run");
    let metrics = format!("{}/metrics", srv.url());
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_credence"))
        .args(["bench", "--url", &srv.url(), "--model", "m", "--out", out.to_str().unwrap(), "--rate", "20", "--duration", "2500ms"])
        .args(["--collect-gpu", "auto", "--server-metrics", &metrics])
        .env("CREDENCE_FAKE_GPUS", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let gpu = run.gpu.as_ref().expect("a gpu table");
    assert!(gpu.num_rows() >= 4, "{} GPU rows", gpu.num_rows());
    assert!(run.manifest.tables.iter().any(|t| t == "gpu"));
    assert!(run.manifest.environment.gpu_temp_at_start_c.value.is_some(), "the pre-run checklist read the GPUs");
    let server = run.server.as_ref().expect("a server table");
    assert!(server.num_rows() >= 2, "the mock's /metrics was scraped");
    validate(&out);
}

#[test]
fn a_sweep_writes_one_run_per_step_and_links_them() {
    let _serial = serial();
    let srv = server(5, 2, Some(3));
    let s = Scratch::new("bench_sweep");
    let out = s.path("sweep");
    let o = bench(&srv, &out, &["--rate", "1", "--duration", "3s", "--sweep", "rate=20,40"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let parent: Value = serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    let steps = parent["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    for st in steps {
        let dir = out.join(st["run"].as_str().unwrap());
        validate(&dir);
        let run = credence::run::load(&dir).unwrap();
        let rate = st["rate_per_s"].as_f64().unwrap();
        assert_eq!(run.manifest.workload.rate_per_s, Some(rate));
        let n = run.requests.num_rows() as f64;
        assert!((n - 3.0 * rate).abs() < 4.0 * (3.0 * rate).sqrt(), "{n} requests in 3 s at {rate}/s");
    }
    assert!(stderr(&o).contains("sweep [#>]"), "{}", stderr(&o));
    // Each step carries its analyzed numbers, and the table is printed.
    for st in steps {
        let s = &st["summary"];
        // A 3-second step may leave too few whole windows for a throughput interval when the
        // machine is busy; then the summary says why instead of giving a number.
        let achieved = &s["achieved_requests_per_s"];
        assert!(achieved["estimate"].as_f64().is_some_and(|a| a > 0.0) || achieved["note"].as_str().is_some_and(|n| !n.is_empty()), "{s}");
        assert!(s["ttft_p50_ms"]["estimate"].as_f64().is_some_and(|t| t >= 5.0), "TTFT against a 5 ms server: {s}");
        assert!(s["credibility"].is_string());
    }
    assert!(stderr(&o).contains("achieved req/s"), "{}", stderr(&o));
    // `report` on the sweep folder, verdict first (issue 23): the sweep's summary right under
    // the title, then a row per step; the checks follow, folded.
    let md = s.path("sweep.md");
    let rep = credence(&["report", out.to_str().unwrap(), "-o", md.to_str().unwrap(), "--format", "md"]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.lines().nth(2).is_some_and(|l| l.starts_with("2 steps, 20.0 to 40.0 requests/s offered.")), "{text}");
    assert!(text.contains("load sweep") && text.contains("swept from 20.0 to 40.0 requests/s"), "{text}");
    let (table_at, checks_at) = (text.find("| offered req/s").unwrap(), text.find("| check | status | reason |").unwrap());
    assert!(table_at < checks_at && text[..checks_at].contains("<details>"), "{text}");
    let rows: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("| offered req/s")).skip(2).take_while(|l| l.starts_with('|')).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows[0].starts_with("| 20.0 |") && rows[1].starts_with("| 40.0 |"), "{rows:?}");
    let pdf = s.path("sweep.pdf");
    let rep = credence(&["report", out.to_str().unwrap(), "-o", pdf.to_str().unwrap()]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    // A sweep.json pointing outside its folder is refused, not followed.
    let evil = s.path("evil");
    std::fs::create_dir_all(&evil).unwrap();
    std::fs::write(evil.join("sweep.json"), r#"{"steps": [{"run": "../sweep/step-01-rate-20", "rate_per_s": 20}]}"#).unwrap();
    let rep = credence(&["report", evil.to_str().unwrap(), "-o", s.path("evil.md").to_str().unwrap(), "--format", "md"]);
    assert_eq!(rep.status.code(), Some(2), "{}", stderr(&rep));
    assert!(stderr(&rep).contains("sweep.json") && stderr(&rep).contains("steps[0].run"), "{}", stderr(&rep));
}

#[test]
fn a_terminal_gets_a_live_status_line() {
    let _serial = serial();
    // `script` (util-linux) gives the command a pseudo-terminal, as a user's shell would.
    if std::process::Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    }
    let srv = server(1, 0, Some(2));
    let s = Scratch::new("bench_tty");
    let out = s.path("run");
    let cmd = format!("{} bench --url {} --model m --out {} --rate 50 --duration 2500ms", env!("CARGO_BIN_EXE_credence"), srv.url(), out.display());
    let o = std::process::Command::new("script").args(["-qec", &cmd, "/dev/null"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let text = String::from_utf8_lossy(&o.stdout).replace('\r', "\n");
    let line = text.lines().rfind(|l| l.contains("left ·")).unwrap_or_else(|| panic!("no status line in {text:?}"));
    for part in ["s left", "offered", "achieved", "in flight", "errors 0", "P99 send lag"] {
        assert!(line.contains(part), "{part:?} missing from {line:?}");
    }
    // Offered counts slots that are due, not slots idle connections claimed ahead of time.
    let offered: f64 = line.split("offered ").nth(1).and_then(|x| x.split('/').next()).and_then(|x| x.parse().ok()).unwrap();
    assert!((35.0..65.0).contains(&offered), "offered {offered}/s at 50/s: {line}");
}

#[test]
fn ctrl_c_stops_the_load_and_keeps_what_was_measured() {
    let _serial = serial();
    let srv = server(5, 2, Some(3));
    let s = Scratch::new("bench_sigint");
    let out = s.path("run");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_credence"))
        .args(["bench", "--url", &srv.url(), "--model", "m", "--out", out.to_str().unwrap(), "--rate", "20", "--duration", "60s"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let t = std::time::Instant::now();
    // SAFETY: sends SIGINT to the child we just started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(t.elapsed() < Duration::from_secs(3), "stopped promptly: {:?}", t.elapsed());
    assert!(stderr(&o).contains("stopped by SIGINT"), "{}", stderr(&o));
    validate(&out);
    let run = credence::run::load(&out).unwrap();
    let n = run.requests.num_rows();
    assert!((15..=45).contains(&n), "{n} requests in about 1.5 s at 20/s");
    assert!(run.requests.strings("status").unwrap().iter().all(|v| v == Some("ok")), "requests in flight were completed, not cut");
    assert!(run.manifest.config.extra.contains_key("stopped_early"));
}

/// A server that writes Python's spaced JSON and streams reasoning before its content (a
/// reasoning model on vLLM or SGLang): every request gets its first-token time, taken at the
/// first reasoning token, the first generated token of any kind.
#[test]
fn spaced_json_and_reasoning_first_give_ttfts() {
    let _serial = serial();
    let config = MockConfig {
        ttft: Duration::from_millis(20),
        token_delay: Duration::from_millis(10),
        output_tokens: Some(3),
        reasoning_tokens: 4,
        spaced_json: true,
        ..MockConfig::default()
    };
    let srv = spawn(config, 0).unwrap();
    let s = Scratch::new("bench_spaced");
    let out = s.path("run");
    let o = bench(&srv, &out, &["--api", "chat", "--rate", "20", "--requests", "30", "--input-len", "8"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let r = &run.requests;
    let (sent, first) = (r.timestamps("sent_ns").unwrap(), r.timestamps("first_token_ns").unwrap());
    assert!(first.iter().all(Option::is_some), "every request has a TTFT");
    let ttft: Vec<f64> = (0..r.num_rows()).map(|i| (first[i].unwrap() - sent[i].unwrap()) as f64 / 1e6).collect();
    let m = median(ttft);
    assert!((20.0..28.0).contains(&m), "TTFT is the first reasoning token (20 ms scripted), not the first content (60 ms): {m} ms");
}

/// A reasoning model (`mock-server --reasoning-tokens 5`): the first token is the first thought,
/// the first answer token comes five tokens later and is recorded as `first_content_ns`, the
/// usage chunk's reasoning count as `reasoning_tokens`; `analyze` and the reports add the time
/// to first output token beside TTFT.
#[test]
fn reasoning_models_get_their_first_answer_token_and_reasoning_count() {
    let _serial = serial();
    let srv = MockProcess::start(&["--reasoning-tokens", "5", "--ttft", "10ms", "--token-delay", "5ms", "--output-tokens", "3"]);
    let s = Scratch::new("bench_reasoning");
    let out = s.path("run");
    let o = credence(&["bench", "--url", &srv.url, "--model", "m", "--out", out.to_str().unwrap(), "--api", "chat", "--rate", "20", "--requests", "40"]);
    assert!(o.status.success(), "{}", stderr(&o));
    validate(&out);
    let run = credence::run::load(&out).unwrap();
    let r = &run.requests;
    let (status, first, content) = (r.strings("status").unwrap(), r.timestamps("first_token_ns").unwrap(), r.timestamps("first_content_ns").unwrap());
    let ok: Vec<usize> = (0..r.num_rows()).filter(|&i| status.value(i) == "ok").collect();
    assert_eq!(ok.len(), 40, "every request succeeded");
    for &i in &ok {
        let (ft, fc) = (first[i].unwrap(), content[i].unwrap());
        // Five reasoning tokens 5 ms apart: the answer starts at least 20 ms after the first thought.
        assert!(fc - ft >= 19_000_000, "row {i}: first content {} ms after the first token", (fc - ft) as f64 / 1e6);
    }
    assert!(r.u32s("reasoning_tokens").unwrap().iter().all(|t| *t == Some(5)), "reasoning tokens from the usage chunk");
    assert!(r.u32s("output_tokens").unwrap().iter().all(|t| *t == Some(8)), "completion tokens include the reasoning");
    let a = analyze(&out);
    let p50 = |m: &str| a["metrics"][m]["p50"]["estimate"].as_f64().unwrap();
    assert!((10.0..16.0).contains(&p50("ttft")), "TTFT {} ms: the first thought, 10 ms scripted", p50("ttft"));
    assert!((35.0..45.0).contains(&p50("ttfot")), "time to first output token {} ms: 10 + 5 × 5 ms scripted", p50("ttfot"));
    assert!(a["metric_definitions"]["ttfot"]["definition"].as_str().unwrap().contains("after any reasoning"));
    for (format, file) in [("md", "r.md"), ("json", "r.json"), ("pdf", "r.pdf")] {
        let path = s.path(file);
        let rep = credence(&["report", out.to_str().unwrap(), "-o", path.to_str().unwrap(), "--format", format]);
        assert!(rep.status.success(), "{}", stderr(&rep));
        let text = if format == "pdf" {
            String::from_utf8_lossy(&std::process::Command::new("pdftotext").arg(&path).arg("-").output().expect("pdftotext").stdout).into_owned()
        } else {
            std::fs::read_to_string(&path).unwrap()
        };
        let needle = if format == "json" { "\"ttfot\"" } else { "Time to first output token" };
        assert!(text.contains(needle), "{format} report lacks {needle}:\n{text}");
    }
    // A run without first_content_ns (simulated) has no such metric and no such row.
    let md = s.path("demo.md");
    let rep = credence(&["report", crate::common::fixture("scenarios/steady").to_str().unwrap(), "-o", md.to_str().unwrap(), "--format", "md"]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    assert!(!std::fs::read_to_string(&md).unwrap().contains("first output token"));
}
