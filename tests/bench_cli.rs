//! `credence bench` against a small local OpenAI-style streaming server started by the test:
//! timing, token counts from the usage chunk, warmup marking, coordinated omission made
//! visible, and the warning about the load generator's own limits.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

use common::{Scratch, credence, stderr};
use serde_json::Value;

/// Serves streaming completions: `ttft` before the first chunk, then `chunks` chunks `gap`
/// apart, a usage chunk and [DONE], chunked transfer encoding, keep-alive.
fn server(ttft: Duration, chunks: u32, gap: Duration) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut out = stream;
                loop {
                    let mut len = 0usize;
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let l = line.trim_end();
                        if l.is_empty() {
                            break;
                        }
                        if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
                            len = v.trim().parse().unwrap_or(0);
                        }
                    }
                    let mut body = vec![0u8; len];
                    if reader.read_exact(&mut body).is_err() {
                        return;
                    }
                    let _ = out.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
                    let send = |out: &mut std::net::TcpStream, data: &str| {
                        let ev = format!("data: {data}\n\n");
                        let _ = write!(out, "{:x}\r\n{ev}\r\n", ev.len());
                        let _ = out.flush();
                    };
                    std::thread::sleep(ttft);
                    for i in 0..chunks {
                        if i > 0 {
                            std::thread::sleep(gap);
                        }
                        send(&mut out, &format!("{{\"choices\":[{{\"text\":\"tok{i} \"}}]}}"));
                    }
                    send(&mut out, &format!("{{\"choices\":[],\"usage\":{{\"prompt_tokens\":32,\"completion_tokens\":{chunks}}}}}"));
                    send(&mut out, "[DONE]");
                    let _ = out.write_all(b"0\r\n\r\n");
                }
            });
        }
    });
    port
}

fn analyze(dir: &Path) -> Value {
    let o = credence(&["analyze", dir.to_str().unwrap(), "--json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn open_loop_records_honest_timing() {
    let port = server(Duration::from_millis(20), 8, Duration::from_millis(5));
    let s = Scratch::new("bench_open");
    let out = s.path("run");
    let url = format!("http://127.0.0.1:{port}");
    let o = credence(&[
        "bench",
        "--url",
        &url,
        "--model",
        "m",
        "--out",
        out.to_str().unwrap(),
        "--rate",
        "40",
        "--requests",
        "60",
        "--warmup",
        "5",
        "--connections",
        "16",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = credence(&["validate", out.to_str().unwrap(), "--json"]);
    assert_eq!(serde_json::from_slice::<Value>(&v.stdout).unwrap()["valid"], true, "{}", String::from_utf8_lossy(&v.stdout));
    let run = credence::run::load(&out).unwrap();
    let r = &run.requests;
    assert_eq!(r.num_rows(), 60);
    assert!(r.timestamps("scheduled_ns").unwrap().iter().all(Option::is_some), "open loop keeps every scheduled time");
    assert!(r.u32s("output_tokens").unwrap().iter().all(|t| *t == Some(8)), "token counts come from the usage chunk");
    assert_eq!(r.timestamp_lists("chunk_ns").unwrap().get(10).map(<[i64]>::len), Some(8));
    let phases = r.strings("phase").unwrap();
    assert_eq!((0..60).filter(|&i| phases.value(i) == "warmup").count(), 5);
    let a = analyze(&out);
    let ttft = a["metrics"]["ttft"]["p50"]["estimate"].as_f64().unwrap();
    assert!((19.0..60.0).contains(&ttft), "TTFT {ttft} ms against a 20 ms server");
    assert_eq!(a["requests"]["declared_warmup"], 5);
    let host = run.host.as_ref().unwrap();
    assert!(host.f64s("lg_cpu_pct").unwrap().iter().flatten().count() >= 1, "the generator samples its own CPU");
}

#[test]
fn a_bottlenecked_client_shows_send_lag_and_warns() {
    // One connection, 100 ms per request, 20 requests/s offered: the client cannot keep up.
    let port = server(Duration::from_millis(60), 5, Duration::from_millis(10));
    let s = Scratch::new("bench_lag");
    let out = s.path("run");
    let url = format!("http://127.0.0.1:{port}");
    let o = credence(&[
        "bench",
        "--url",
        &url,
        "--model",
        "m",
        "--out",
        out.to_str().unwrap(),
        "--rate",
        "20",
        "--arrival",
        "constant",
        "--requests",
        "20",
        "--connections",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("send lag"), "{}", stderr(&o));
    let a = analyze(&out);
    // Latency from the schedule includes the wait for the connection; E2E from the send hides it.
    let service = a["metrics"]["service"]["p50"]["estimate"].as_f64().unwrap();
    let e2e = a["metrics"]["e2e"]["p50"]["estimate"].as_f64().unwrap();
    assert!(service > 2.0 * e2e, "service {service} ms vs e2e {e2e} ms");
}

#[test]
fn closed_loop_and_bad_input() {
    let port = server(Duration::from_millis(5), 3, Duration::from_millis(2));
    let s = Scratch::new("bench_closed");
    let out = s.path("run");
    let url = format!("http://127.0.0.1:{port}");
    let o = credence(&["bench", "--url", &url, "--model", "m", "--out", out.to_str().unwrap(), "--concurrency", "3", "--requests", "30", "--api", "chat"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let g = s.path("gamma");
    let og = credence(&["bench", "--url", &url, "--model", "m", "--out", g.to_str().unwrap(), "--rate", "30", "--arrival", "gamma:2", "--requests", "20"]);
    assert!(og.status.success(), "{}", stderr(&og));
    assert_eq!(credence::run::load(&g).unwrap().requests.num_rows(), 20);
    // A dataset of prompts.
    let ds = s.path("prompts.jsonl");
    std::fs::write(&ds, "{\"prompt\": \"one\"}\n\"two\"\n").unwrap();
    let d = s.path("ds");
    let od = credence(&[
        "bench",
        "--url",
        &url,
        "--model",
        "m",
        "--out",
        d.to_str().unwrap(),
        "--concurrency",
        "2",
        "--requests",
        "6",
        "--dataset",
        ds.to_str().unwrap(),
    ]);
    assert!(od.status.success(), "{}", stderr(&od));
    assert_eq!(credence::run::load(&d).unwrap().manifest.workload.dataset.as_deref(), Some(ds.to_str().unwrap()));
    // Time-based warmup: requests scheduled in the first 0.5 s of a 30 req/s schedule.
    let w = s.path("warm");
    let ow = credence(&[
        "bench",
        "--url",
        &url,
        "--model",
        "m",
        "--out",
        w.to_str().unwrap(),
        "--rate",
        "30",
        "--arrival",
        "constant",
        "--requests",
        "30",
        "--warmup",
        "500ms",
    ]);
    assert!(ow.status.success(), "{}", stderr(&ow));
    let warm = credence::run::load(&w).unwrap().manifest.phases.warmup_requests.unwrap();
    assert!((14..=16).contains(&warm), "{warm} warmup requests in the first 0.5 s at 30/s");
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    assert_eq!(run.requests.num_rows(), 30);
    assert!(run.requests.timestamps("scheduled_ns").unwrap().iter().all(Option::is_none), "closed loop has no schedule");
    assert_eq!(run.manifest.workload.concurrency, Some(3));
    let bad = s.path("bad");
    for args in [vec!["--url", "https://x", "--rate", "1", "--requests", "1"], vec!["--url", &url, "--requests", "1"], vec!["--url", &url, "--rate", "1"]] {
        let mut all = vec!["bench", "--model", "m", "--out", bad.to_str().unwrap()];
        all.extend(args.iter().copied());
        let o = credence(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
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
fn gpus_are_sampled_beside_the_load() {
    let port = server(Duration::from_millis(5), 3, Duration::from_millis(2));
    let s = Scratch::new("bench_gpu");
    let out = s.path("run");
    let url = format!("http://127.0.0.1:{port}");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_credence"))
        .args(["bench", "--url", &url, "--model", "m", "--out", out.to_str().unwrap(), "--rate", "20", "--duration", "2500ms", "--collect-gpu", "auto"])
        .env("CREDENCE_FAKE_GPUS", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let gpu = run.gpu.as_ref().expect("a gpu table");
    assert!(gpu.num_rows() >= 4, "{} GPU rows", gpu.num_rows());
    assert!(run.manifest.tables.iter().any(|t| t == "gpu"));
    let v = credence(&["validate", out.to_str().unwrap(), "--json"]);
    assert_eq!(serde_json::from_slice::<Value>(&v.stdout).unwrap()["valid"], true, "{}", String::from_utf8_lossy(&v.stdout));
}

#[test]
fn a_sweep_writes_one_run_per_step_and_links_them() {
    let port = server(Duration::from_millis(5), 3, Duration::from_millis(2));
    let s = Scratch::new("bench_sweep");
    let out = s.path("sweep");
    let url = format!("http://127.0.0.1:{port}");
    let o = credence(&["bench", "--url", &url, "--model", "m", "--out", out.to_str().unwrap(), "--rate", "1", "--requests", "8", "--sweep", "rate=20,40"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let parent: Value = serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    let steps = parent["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    for st in steps {
        let run = credence::run::load(&out.join(st["run"].as_str().unwrap())).unwrap();
        assert_eq!(run.requests.num_rows(), 8);
        assert_eq!(run.manifest.workload.rate_per_s, st["rate_per_s"].as_f64());
    }
    assert!(stderr(&o).contains("sweep [#>]"), "{}", stderr(&o));
}
