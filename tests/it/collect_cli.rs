//! `credence collect` through the real binary: fake GPUs (the CREDENCE_FAKE_GPUS hook), host
//! sampling of a CPU-burning command, a Prometheus scrape from a local server, the environment
//! snapshot, crash safety (kill -9, SIGTERM) and bad input.


use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::{Scratch, stderr};
use credence::analyze::attribute::detectors::gpu_detectors;
use credence::analyze::attribute::signals::gpu_series;
use serde_json::Value;

fn collect(args: &[&str], fake: Option<&str>) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_credence"));
    c.arg("collect").args(args);
    if let Some(f) = fake {
        c.env("CREDENCE_FAKE_GPUS", f);
    }
    c.output().unwrap()
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

fn valid(dir: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_credence")).args(["validate", dir.to_str().unwrap(), "--json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["valid"], true, "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn fake_throttle_and_a_busy_command() {
    let s = Scratch::new("collect_busy");
    let out = s.path("run");
    // A command that burns one core for about 4 s, then exits 3.
    let o = collect(
        &[
            "--out",
            out.to_str().unwrap(),
            "--interval",
            "500ms",
            "--duration",
            "30s",
            "--",
            "sh",
            "-c",
            "end=$(($(date +%s)+4)); while [ $(date +%s) -lt $end ]; do :; done; exit 3",
        ],
        Some("2:throttle=2-4"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    valid(&out);
    let m = manifest(&out);
    assert_eq!(m["config"]["extra"]["command_exit_code"], "3", "the command's exit code is recorded");
    assert!(m["config"]["extra"]["collector_cpu_pct_of_one_core"].as_str().unwrap().parse::<f64>().unwrap() < 20.0);
    let run = credence::run::load(&out).unwrap();
    // The command's CPU shows up as the client's, near one core.
    let host = run.host.as_ref().unwrap();
    let cpu: Vec<f64> = host.f64s("lg_cpu_pct").unwrap().iter().flatten().copied().collect();
    let peak = cpu.iter().copied().fold(0.0, f64::max);
    // A busy shell loop: well above an idle process even on a loaded 2-core machine.
    assert!(peak > 25.0 && peak < 130.0, "client CPU {cpu:?}");
    assert!(host.f64s("cpu_idle_pct").unwrap().iter().flatten().all(|x| (0.0..=100.0).contains(x)));
    // The throttle lands with its reason bit, and the detector finds it on the last GPU.
    let gpu = run.gpu.as_ref().unwrap();
    assert!(gpu.u64s("clocks_event_reasons").unwrap().contains(&Some(0x20)));
    let t0 = gpu.timestamps("ts_ns").unwrap().iter().flatten().min().copied().unwrap();
    let d = gpu_detectors(&gpu_series(gpu, t0), &Default::default());
    let thermal = d.iter().find(|x| x.cause == "thermal_throttle").unwrap();
    assert_eq!(thermal.episodes.len(), 1, "{:?}", thermal.episodes.iter().map(|e| e.span).collect::<Vec<_>>());
    assert!(thermal.episodes[0].source.render(credence_messages::Lang::En).contains("GPU 1"));
    assert!(d.iter().find(|x| x.cause == "power_cap").unwrap().episodes.is_empty(), "thermal is not power");
    // The environment snapshot.
    let env = &m["environment"];
    assert!(env["kernel"]["value"].is_string() && env["cpu_model"]["value"].is_string());
    assert_eq!(env["gpu_temp_at_start_c"]["value"], 62.0);
    assert_eq!(env["persistence_mode"]["value"], true);
    assert_eq!(env["cuda_version"]["value"], "12.4");
    assert!(env["clocks_locked"]["value"].is_null() && env["clocks_locked"]["note"].as_str().unwrap().contains("nvidia-smi"));
    assert_eq!(env["foreign_gpu_processes"]["value"], serde_json::json!([]));
    assert_eq!(env["page_cache_dropped"]["value"], false);
    assert!(env["page_cache_dropped"]["note"].as_str().unwrap().contains("--drop-caches"));
    assert!(env["server_restarted"]["value"].is_null() && env["server_restarted"]["note"].is_string());
}

#[test]
fn scrapes_a_local_prometheus_endpoint() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(mut st) = stream else { continue };
            let mut buf = [0u8; 1024];
            let _ = st.read(&mut buf);
            let body = format!(
                "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{{model_name=\"m\"}} {n}\nvllm:gpu_cache_usage_perc{{model_name=\"m\"}} 0.5\n"
            );
            let _ = write!(st, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        }
    });
    let s = Scratch::new("collect_scrape");
    let out = s.path("run");
    let url = format!("http://127.0.0.1:{port}/metrics");
    let o = collect(&["--out", out.to_str().unwrap(), "--gpu", "off", "--interval", "200ms", "--duration", "2s", "--server-metrics", &url], None);
    assert!(o.status.success(), "{}", stderr(&o));
    valid(&out);
    let run = credence::run::load(&out).unwrap();
    let server = run.server.as_ref().unwrap();
    assert!(server.num_rows() >= 4, "{} rows: at least two scrapes of two metrics", server.num_rows());
    assert!(credence::analyze::attribute::signals::server_series(server, 0).contains_key("vllm:num_requests_waiting"));
    assert!(run.gpu.is_none());
    assert!(manifest(&out)["config"]["extra"]["gpu"].as_str().unwrap().contains("--gpu off"));
}

#[test]
fn kill_9_keeps_sealed_segments_and_sigterm_finalizes() {
    let s = Scratch::new("collect_kill");
    for (sig, wait) in [("-9", 11_500), ("-TERM", 2_500)] {
        let out = s.path(&format!("run{sig}"));
        let child = Command::new(env!("CARGO_BIN_EXE_credence"))
            .args(["collect", "--out", out.to_str().unwrap(), "--interval", "250ms", "--duration", "120s"])
            .env("CREDENCE_FAKE_GPUS", "8")
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(wait));
        assert!(Command::new("kill").args([sig, &child.id().to_string()]).status().unwrap().success());
        let mut child = child;
        let _ = child.wait();
        valid(&out);
        let run = credence::run::load(&out).unwrap();
        let rows = run.host.as_ref().map_or(0, |h| h.num_rows());
        if sig == "-9" {
            // Lost at most the unsealed seconds: the first 10 s were sealed.
            assert!(rows >= 30, "{rows} host rows after kill -9");
            assert!(manifest(&out)["config"]["extra"].get("collector_cpu_pct_of_one_core").is_none(), "not finalized");
        } else {
            assert!(rows >= 6, "{rows} host rows after SIGTERM");
            assert!(manifest(&out)["config"]["extra"]["collector_cpu_pct_of_one_core"].is_string(), "SIGTERM finalizes run.json");
            assert_eq!(run.gpu.as_ref().unwrap().num_rows(), rows * 8);
        }
    }
}

#[test]
fn bad_input_and_refusals_exit_2() {
    let s = Scratch::new("collect_bad");
    // An unwritable place fails fast.
    let o = collect(&["--out", "/proc/credence-nope/run", "--duration", "1s", "--gpu", "off"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // --strict-env refuses a warm GPU (the fake ones sit at 62 °C) and says what to fix.
    let out = s.path("strict");
    let o = collect(&["--out", out.to_str().unwrap(), "--duration", "1s", "--strict-env"], Some("1"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cool"), "{}", stderr(&o));
    assert!(!out.exists(), "a refused start leaves nothing behind");
    // --gpu on without NVML fails with the reason; on a GPU machine it collects.
    let out = s.path("gpu_on");
    let o = collect(&["--out", out.to_str().unwrap(), "--duration", "1s", "--gpu", "on"], None);
    match o.status.code() {
        Some(2) => assert!(stderr(&o).contains("NVML"), "{}", stderr(&o)),
        Some(0) => assert!(credence::run::load(&out).unwrap().gpu.is_some()),
        c => panic!("unexpected exit {c:?}: {}", stderr(&o)),
    }
    let o = collect(&["--out", s.path("x").to_str().unwrap(), "--interval", "fast"], None);
    assert_eq!(o.status.code(), Some(2));
}

/// A busy child under `sh -c` is counted while it runs and not again when the shell reaps it:
/// no sample shows more than the one core it used (before, the last sample showed 610 % on a
/// 2-core machine).
#[test]
fn a_reaped_child_is_counted_once() {
    let s = Scratch::new("collect_reaped");
    let out = s.path("run");
    let script = "timeout 3 sh -c 'while :; do :; done'; sleep 1.5";
    let o = collect(&["--out", out.to_str().unwrap(), "--interval", "500ms", "--gpu", "off", "--", "sh", "-c", script], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let cpu: Vec<f64> = run.host.as_ref().unwrap().f64s("lg_cpu_pct").unwrap().iter().flatten().copied().collect();
    let peak = cpu.iter().copied().fold(0.0, f64::max);
    assert!(peak > 25.0, "the busy child is counted while it runs: {cpu:?}");
    assert!(peak < 130.0, "one busy thread, counted once: {cpu:?}");
}
