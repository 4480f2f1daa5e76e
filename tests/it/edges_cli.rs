//! Five edges a new user met (issue 59), each through the CLI against `mock-server`: a stop
//! `bench --until` made itself is no ramp-down, and a goal far out of reach stops after the
//! pilot; server metrics are read by their framing, every failed scrape counted, warned and
//! checked; a sweep says its own loop; and a peer tool's result file or folder is read
//! wherever a run is.

use std::path::Path;
use std::time::Duration;

use crate::common::{MockProcess, Scratch, credence, fixture, stderr};
use credence::bench::mock_server::{MockConfig, spawn};
use serde_json::Value;

fn json_file(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

fn analyze(path: &Path) -> Value {
    let o = credence(&["analyze", path.to_str().unwrap(), "--json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The causes of an analysis's findings.
fn causes(a: &Value) -> Vec<String> {
    a["findings"].as_array().unwrap().iter().map(|f| f["cause"].as_str().unwrap().to_string()).collect()
}

/// A check of an analysis's credibility, by id.
fn check<'a>(a: &'a Value, id: &str) -> Option<&'a Value> {
    a["credibility"]["checks"].as_array().unwrap().iter().find(|c| c["name"] == id)
}

/// `--until ttft_p50=0.03%` at 20 requests/s against a jittered mock: after the 100-s pilot the
/// goal projects to dozens of times the 10 minutes `--max-duration` allows, so the run stops
/// there as unreachable; `analyze` then finds no ramp-down from the stop to the bound (the
/// load generator ended the sends on purpose) and its statement names none.
#[test]
fn a_goal_far_out_of_reach_stops_after_the_pilot_and_the_stop_is_no_ramp_down() {
    let config = MockConfig { ttft: Duration::from_millis(20), token_delay: Duration::from_millis(2), output_tokens: Some(8), ttft_jitter: 0.1, ..MockConfig::default() };
    let server = spawn(config, 0).unwrap();
    let s = Scratch::new("edges_unreachable");
    let out = s.path("run");
    let url = server.url();
    let args = ["bench", "--url", &url, "--model", "m", "--rate", "20", "--until", "ttft_p50=0.03%", "--max-duration", "10m", "--min-duration", "10s"];
    let o = credence(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let stop = &json_file(&out.join("run.json"))["phases"]["stop"];
    assert_eq!(stop["reason"], "unreachable", "{stop}");
    let stopped_at = stop["stopped_at_s"].as_f64().unwrap();
    let warmup = stop["warmup_end_s"].as_f64().unwrap_or(0.0);
    assert!(stopped_at < warmup + 100.0 + 30.0, "stopped at {stopped_at} s, the pilot ends near {} s", warmup + 100.0);
    let needed: f64 = stop["detail"].as_str().unwrap().split_whitespace().find_map(|w| w.parse().ok()).unwrap();
    assert!(needed > 10.0 * (600.0 - warmup), "needed {needed} s of the {} s left", 600.0 - warmup);
    let a = analyze(&out);
    assert!(!causes(&a).contains(&"ramp_down".to_string()), "{:?}", causes(&a));
    assert!(!a["credibility"]["statement"].to_string().contains("ramped down"), "{}", a["credibility"]["statement"]);
}

/// `bench --server-metrics URL` with `--rate 5` for `seconds`, against `mock` (a `mock-server`
/// process); the run's `run.json` and stderr.
fn bench_scraping(mock: &MockProcess, s: &Scratch, seconds: &str) -> (Value, String) {
    let out = s.path("run");
    let metrics = format!("{}/metrics", mock.url);
    let args = ["bench", "--url", &mock.url, "--model", "m", "--rate", "5", "--duration", seconds, "--server-metrics", &metrics, "--out", out.to_str().unwrap()];
    let o = credence(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    (json_file(&out.join("run.json")), stderr(&o))
}

/// The edges issue's second case as it happened: the server answers every scrape with 200 and
/// a Content-Length but keeps the connection open despite `Connection: close`. Read by its
/// framing, each scrape is recorded.
#[test]
fn a_metrics_endpoint_that_keeps_its_connection_open_is_recorded() {
    let mock = MockProcess::start(&["--metrics-keep-open", "--ttft", "10ms", "--token-delay", "1ms", "--output-tokens", "4"]);
    let s = Scratch::new("edges_keep_open");
    let (m, err) = bench_scraping(&mock, &s, "6s");
    let scrapes = &m["server_scrapes"];
    assert!(scrapes["succeeded"].as_u64().unwrap() >= 5, "{scrapes}");
    assert_eq!(scrapes["failed"], serde_json::json!({}), "{scrapes}");
    assert!(!err.contains("scrape failed"), "{err}");
    let run = credence::run::load(&s.path("run")).unwrap();
    let server = run.server.expect("server.parquet");
    assert!(server.num_rows() > 50, "{} rows", server.num_rows());
}

/// An endpoint that answers HTTP 500 from 2 s to 5 s of the load, then recovers: the failure
/// is said on the terminal as it happens, the gap counted in `run.json`, and the analysis's
/// `server_metrics` check warns naming the endpoint. One that never answers during the load is
/// warned as recording nothing.
#[test]
fn failed_scrapes_are_counted_warned_and_checked() {
    let mock = MockProcess::start(&["--metrics-outage", "2s-5s", "--ttft", "10ms", "--token-delay", "1ms", "--output-tokens", "4"]);
    let s = Scratch::new("edges_outage");
    let (m, err) = bench_scraping(&mock, &s, "9s");
    let scrapes = &m["server_scrapes"];
    let failed = scrapes["failed"]["http_status"].as_u64().unwrap_or(0);
    assert!((2..=4).contains(&failed), "{scrapes}");
    assert!(scrapes["succeeded"].as_u64().unwrap() >= 4, "{scrapes}");
    assert_eq!(scrapes["first_failure"], "HTTP 500", "{scrapes}");
    assert!(err.contains("a scrape failed") && err.contains("HTTP 500"), "{err}");
    assert!(err.contains(&format!("{failed} of")), "the closing count: {err}");
    let a = analyze(&s.path("run"));
    let c = check(&a, "server_metrics").expect("a server_metrics check");
    assert_eq!(c["status"], "WARN", "{c}");
    assert!(c["reason"].as_str().unwrap().contains(&format!("{}/metrics", mock.url)), "{c}");

    // A run none of whose scrapes succeeded (its run.json so edited) is warned as unobserved.
    let path = s.path("run").join("run.json");
    let mut m = json_file(&path);
    m["server_scrapes"]["succeeded"] = 0.into();
    std::fs::write(&path, m.to_string()).unwrap();
    let c = check(&analyze(&s.path("run")), "server_metrics").cloned().unwrap();
    assert!(c["status"] == "WARN" && c["reason"].as_str().unwrap().starts_with("no scrape of"), "{c}");
}

/// A scrape that fails before the load starts is bad input, as an unreachable `--url` is:
/// nothing is sent and the reason is named.
#[test]
fn a_metrics_endpoint_that_fails_before_the_load_is_exit_2() {
    let mock = MockProcess::start(&[]);
    let s = Scratch::new("edges_preflight");
    for (endpoint, says) in [(format!("{}/nowhere", mock.url), "HTTP 404"), ("http://127.0.0.1:1/metrics".to_string(), "no connection")] {
        let out = s.path("run");
        let o = credence(&["bench", "--url", &mock.url, "--model", "m", "--rate", "5", "--duration", "2s", "--server-metrics", &endpoint, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(says) && stderr(&o).contains("before anything starts"), "{}", stderr(&o));
        assert!(!out.exists());
    }
}

/// `--sweep rate=…` needs no `--rate`, and `--sweep concurrency=…` runs closed-loop steps; a
/// sweep whose loop contradicts `--rate` or `--concurrency` is exit 2.
#[test]
fn a_sweep_says_its_own_loop() {
    let mock = MockProcess::start(&["--ttft", "5ms", "--token-delay", "1ms", "--output-tokens", "4"]);
    let s = Scratch::new("edges_sweep");
    let sweep = |name: &str, extra: &[&str]| {
        let out = s.path(name);
        let mut args = vec!["bench", "--url", mock.url.as_str(), "--model", "m", "--duration", "2s", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        (credence(&args), out)
    };
    let (o, out) = sweep("rates", &["--sweep", "rate=10,20"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_file(&out.join("sweep.json"));
    assert_eq!(v["parameter"], "rate");
    assert_eq!(v["steps"][1]["rate_per_s"], 20.0);
    assert_eq!(json_file(&out.join("step-02-rate-20/run.json"))["workload"]["rate_per_s"], 20.0);

    let (o, out) = sweep("clients", &["--sweep", "concurrency=2,4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_file(&out.join("sweep.json"));
    assert_eq!(v["parameter"], "concurrency");
    let step = json_file(&out.join("step-02-concurrency-4/run.json"));
    assert_eq!((step["workload"]["arrival"].as_str(), step["workload"]["concurrency"].as_u64()), (Some("closed_loop"), Some(4)));

    for (extra, says) in [(&["--sweep", "rate=5,10", "--concurrency", "4"][..], "drop --concurrency"), (&["--sweep", "concurrency=2", "--rate", "5"], "drop --rate"), (&["--sweep", "concurrency=2.5"], "expected rate=")] {
        let (o, _) = sweep("bad", extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{extra:?}: {}", stderr(&o));
    }
}

/// `report`, `analyze` and `compare` take a peer tool's result file or output folder where a
/// run is expected (vLLM's `--save-result` JSON and its folder, AIPerf's artifacts folder and
/// its profile_export.jsonl, guidellm's benchmarks.json: the committed real outputs), imported
/// in memory: nothing is written beside them.
#[test]
fn peer_files_and_folders_are_read_where_a_run_is() {
    let s = Scratch::new("edges_peers");
    let vllm_dir = fixture("peers/vllm-0.33.0/open-loop-10rps");
    let vllm = vllm_dir.join("openai-10.0qps-mock-20261207-033859.json");
    let aiperf = fixture("peers/aiperf-0.13.0/open-loop-poisson");
    let guidellm = fixture("peers/guidellm-0.8.1/constant-10rps/benchmarks.json");
    let inputs = [vllm.clone(), vllm_dir.clone(), aiperf.clone(), aiperf.join("profile_export.jsonl"), guidellm.clone()];
    for path in &inputs {
        let a = analyze(path);
        assert!(a["requests"]["total"].as_u64().unwrap() >= 50, "{}: {}", path.display(), a["requests"]);
        assert_eq!(a["run"]["source_kind"], "importer", "{}", path.display());
        let md = s.path("r.md");
        let o = credence(&["report", path.to_str().unwrap(), "--format", "md", "--resamples", "499", "-o", md.to_str().unwrap()]);
        assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
        assert!(std::fs::read_to_string(&md).unwrap().contains("Credibility"), "{}", path.display());
    }
    // The vLLM file's times are perf_counter seconds dated by its local `date`: --tz anchors them.
    let o = credence(&["report", vllm.to_str().unwrap(), "--tz", "+00:00", "-o", s.path("r.pdf").to_str().unwrap(), "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let concurrency = fixture("peers/vllm-0.33.0/concurrency-8/openai-infqps-concurrency8-mock-20261207-033915.json");
    let o = credence(&["compare", "--base", vllm.to_str().unwrap(), "--cand", concurrency.to_str().unwrap(), "--allow-workload-mismatch", "--resamples", "499"]);
    assert!(matches!(o.status.code(), Some(0) | Some(3)), "{}", stderr(&o));
    let before: Vec<_> = std::fs::read_dir(aiperf.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    let o = credence(&["compare", "--base", aiperf.to_str().unwrap(), "--cand", guidellm.to_str().unwrap(), "--allow-workload-mismatch", "--resamples", "499"]);
    assert!(matches!(o.status.code(), Some(0) | Some(3)), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("ttft"), "{}", String::from_utf8_lossy(&o.stdout));
    let after: Vec<_> = std::fs::read_dir(aiperf.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(before, after, "nothing is written beside the inputs");
}

/// A path that is none of the things a command takes gets one error: what it looks like (the
/// detected format, or unknown) and what the command takes; a summary with no requests points
/// to `audit`.
#[test]
fn a_path_of_no_known_kind_is_named_for_what_it_looks_like() {
    let s = Scratch::new("edges_unknown");
    let text = s.path("notes.txt");
    std::fs::write(&text, "these are my notes\n").unwrap();
    for command in [&["analyze"][..], &["report", "-o", s.path("r.pdf").to_str().unwrap()]] {
        let o = credence(&[command, &[text.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("looks like: unknown") && err.contains("not a run directory"), "{err}");
        assert!(err.contains(&format!("{} takes a run directory", command[0])) && err.contains("vLLM"), "{err}");
    }
    let o = credence(&["compare", "--base", text.to_str().unwrap(), "--cand", text.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("credence compare") && stderr(&o).contains("looks like: unknown"), "{}", stderr(&o));
    let summary = fixture("peers/aiperf-0.13.0/open-loop-poisson/profile_export_aiperf.json");
    let o = credence(&["analyze", summary.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no per-request data") && stderr(&o).contains("credence audit"), "{}", stderr(&o));
    let missing = s.path("missing.json");
    let o = credence(&["analyze", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no such file or folder"), "{}", stderr(&o));
}

/// `collect --server-metrics` keeps the same rules: read by framing (a connection kept open),
/// every scrape counted in `run.json`, and an endpoint that fails before anything starts is
/// exit 2.
#[test]
fn collect_scrapes_as_bench_does() {
    let mock = MockProcess::start(&["--metrics-keep-open"]);
    let s = Scratch::new("edges_collect");
    let out = s.path("run");
    let metrics = format!("{}/metrics", mock.url);
    let o = credence(&["collect", "--out", out.to_str().unwrap(), "--duration", "4s", "--server-metrics", &metrics]);
    assert!(o.status.success(), "{}", stderr(&o));
    let scrapes = &json_file(&out.join("run.json"))["server_scrapes"];
    assert!(scrapes["succeeded"].as_u64().unwrap() >= 3 && scrapes["failed"] == serde_json::json!({}), "{scrapes}");
    let o = credence(&["collect", "--out", s.path("no").to_str().unwrap(), "--duration", "2s", "--server-metrics", "http://127.0.0.1:1/metrics"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("before anything starts") && !s.path("no").exists(), "{}", stderr(&o));
}
