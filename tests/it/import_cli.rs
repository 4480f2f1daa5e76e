//! `credence import` and `credence audit` through the real binary: the real samples in
//! fixtures/samples (llmperf, MLPerf LoadGen), small hand-built files for the other formats
//! with their traps, round trips (import, validate clean, analyze), and malformed input.


use std::path::{Path, PathBuf};

use crate::common::{Scratch, credence, fixture, stderr};
use serde_json::{Value, json};

fn samples() -> PathBuf {
    crate::common::repo().join("fixtures/samples")
}

fn write(s: &Scratch, name: &str, text: &str) -> PathBuf {
    let p = s.path(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn import(args: &[&str], out: &Path) -> std::process::Output {
    let mut all = vec!["import"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out.to_str().unwrap()]);
    credence(&all)
}

/// Imports, validates with no error, analyzes; returns the analysis.
fn round_trip(args: &[&str], s: &Scratch, name: &str) -> Value {
    let out = s.path(name);
    let o = import(args, &out);
    assert!(o.status.success(), "import {args:?}: {}", stderr(&o));
    let v = credence(&["validate", out.to_str().unwrap(), "--json"]);
    let report: Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(report["valid"], true, "{}", String::from_utf8_lossy(&v.stdout));
    let a = credence(&["analyze", out.to_str().unwrap(), "--json", "--resamples", "499"]);
    assert!(a.status.success(), "{}", stderr(&a));
    serde_json::from_slice(&a.stdout).unwrap()
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

/// A vLLM `--save-detailed` result: perf_counter start times, a failed request, chunk ITLs
/// shorter than the token count (speculative decoding).
fn vllm_result(n: usize) -> Value {
    let starts: Vec<f64> = (0..n).map(|i| 81234.5 + i as f64 * 0.1).collect();
    let ttfts: Vec<f64> = (0..n).map(|i| if i == 3 { 0.0 } else { 0.030 + 0.001 * (i % 7) as f64 }).collect();
    let itls: Vec<Vec<f64>> = (0..n).map(|i| if i == 3 { vec![] } else { vec![0.02; 30] }).collect();
    let lat: Vec<f64> = (0..n).map(|i| if i == 3 { 0.5 } else { ttfts[i] + 0.6 }).collect();
    let outs: Vec<u32> = (0..n).map(|i| if i == 3 { 0 } else { 64 }).collect();
    let errors: Vec<&str> = (0..n).map(|i| if i == 3 { "Traceback: aiohttp ServerTimeoutError: Timeout on reading data" } else { "" }).collect();
    json!({
        "date": "20260611-152708", "backend": "vllm", "model_id": "meta-llama/Llama-3.1-8B", "request_rate": 10.0, "burstiness": 1.0,
        "max_concurrency": null, "duration": n as f64 * 0.1, "completed": n - 1, "failed": 1,
        "request_throughput": 9.5, "output_throughput": 600.0,
        "mean_ttft_ms": 33.0, "median_ttft_ms": 33.0, "p99_ttft_ms": 36.0,
        "input_lens": vec![512; n], "output_lens": outs, "ttfts": ttfts, "itls": itls, "latencies": lat, "start_times": starts, "errors": errors
    })
}

#[test]
fn vllm_perf_counter_times_are_anchored_with_tz() {
    let s = Scratch::new("imp_vllm");
    let f = write(&s, "vllm.json", &vllm_result(200).to_string());
    let a = round_trip(&["vllm", f.to_str().unwrap(), "--tz", "+02:00"], &s, "run");
    assert_eq!(a["requests"]["errors"], 1);
    let m = manifest(&s.path("run"));
    assert_eq!(m["clock"]["timestamps"], "absolute");
    assert_eq!(m["clock"]["timezone_assumed"], "+02:00");
    assert!(m["clock"]["conversion"].as_str().unwrap().contains("perf_counter"));
    assert_eq!(m["source"]["capabilities"]["itl"], "chunk");
    assert_eq!(m["source"]["files"][0]["sha256"].as_str().unwrap().len(), 64);
    // 2026-06-11 15:27:08 at +02:00 is 13:27:08 UTC: the last completion lands there.
    let end_utc = 1_781_184_428i64;
    let run = credence::run::load(&s.path("run")).unwrap();
    let last = run.requests.timestamps("end_ns").unwrap().iter().flatten().max().copied().unwrap();
    assert!((last / 1_000_000_000 - end_utc).abs() <= 1, "{last}");
    // Without --tz the times stay relative, and the manifest says so.
    let o = import(&[f.to_str().unwrap()], &s.path("rel"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(manifest(&s.path("rel"))["clock"]["timestamps"], "relative");
}

#[test]
fn other_request_formats_round_trip() {
    let s = Scratch::new("imp_fmt");
    // SGLang JSONL with --output-details (no start times).
    let mut sg = vllm_result(60);
    sg.as_object_mut().unwrap().remove("start_times");
    sg["server_info"] = json!({"version": "0.4"});
    sg["tag"] = json!("x");
    let f = write(&s, "sglang.jsonl", &format!("{sg}\n"));
    let a = round_trip(&[f.to_str().unwrap()], &s, "sglang");
    assert_eq!(a["run"]["timestamps"], "absent");
    // AIPerf profile_export.jsonl with a warmup record.
    let t0 = 1_781_184_000_000_000_000i64;
    let mut lines = String::new();
    for i in 0..80i64 {
        let start = t0 + i * 100_000_000;
        let phase = if i < 5 { "warmup" } else { "profiling" };
        lines += &json!({"metadata": {"x_request_id": format!("r{i}"), "request_start_ns": start, "request_end_ns": start + 700_000_000, "benchmark_phase": phase, "was_cancelled": false},
            "metrics": {"time_to_first_token": {"value": 40.0, "unit": "ms"}, "request_latency": {"value": 700.0, "unit": "ms"}, "inter_chunk_latency": {"value": vec![20.0; 30], "unit": "ms"},
                        "input_sequence_length": {"value": 512, "unit": "tokens"}, "output_sequence_length": {"value": 31, "unit": "tokens"}}, "error": null}).to_string();
        lines.push('\n');
    }
    let f = write(&s, "profile_export.jsonl", &lines);
    let a = round_trip(&[f.to_str().unwrap()], &s, "aiperf");
    assert_eq!(a["requests"]["declared_warmup"], 5);
    // With AIPerf's GPU telemetry export: a power-capped stretch, violation counter in µs.
    let mut gl = String::new();
    for k in 0..10i64 {
        gl += &json!({"timestamp_ns": t0 + k * 1_000_000_000, "dcgm_url": "http://node1:9401/metrics", "gpu_index": 0, "gpu_uuid": "GPU-9", "gpu_model_name": "H100", "hostname": "node1",
            "telemetry_data": {"gpu_power_usage": 690.0, "power_management_limit": 700.0, "gpu_utilization": 98.0, "sm_clock_frequency": 1700.0, "gpu_memory_used": 70.0, "gpu_memory_total": 80.0, "power_violation": (k * 900_000) as f64}}).to_string();
        gl.push('\n');
    }
    let g = write(&s, "gpu_telemetry_export.jsonl", &gl);
    let out = s.path("aiperf_gpu");
    let o = import(&[f.to_str().unwrap(), g.to_str().unwrap()], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    assert_eq!(run.gpu.as_ref().unwrap().u64s("viol_power_ns").unwrap()[2], Some(1_800_000_000));
    // perf_analyzer profile_export.json.
    let reqs: Vec<Value> = (0..50i64).map(|i| json!({"timestamp": t0 + i * 200_000_000, "request_inputs": {"payload": "{}"}, "response_timestamps": (0..20).map(|k| t0 + i * 200_000_000 + 30_000_000 + k * 15_000_000).collect::<Vec<_>>(), "response_outputs": []})).collect();
    let pa = json!({"experiments": [{"experiment": {"mode": "concurrency", "value": 4}, "requests": reqs, "window_boundaries": []}], "version": "2.59", "service_kind": "openai", "endpoint": "v1/chat/completions"});
    let f = write(&s, "profile_export.json", &pa.to_string());
    let a = round_trip(&[f.to_str().unwrap()], &s, "pa");
    assert!((a["metrics"]["ttft"]["p50"]["estimate"].as_f64().unwrap() - 30.0).abs() < 1e-6);
}

#[test]
fn llmperf_sample_imports_without_timestamps() {
    let s = Scratch::new("imp_llmperf");
    let f = samples().join("llmperf/leaderboard_individual_bedrock_70b.json");
    let a = round_trip(&[f.to_str().unwrap()], &s, "run");
    assert_eq!(a["run"]["timestamps"], "absent");
    let steady = a["credibility"]["checks"].as_array().unwrap().iter().find(|c| c["name"] == "steady_state").unwrap().clone();
    assert_eq!(steady["status"], "NOT_CHECKED", "no timestamps gives NOT_CHECKED, never PASS or FAIL");
}

#[test]
fn nvidia_smi_joins_a_request_file() {
    let s = Scratch::new("imp_smi");
    let f = write(&s, "vllm.json", &vllm_result(200).to_string());
    // Local time +02:00; the run ends 15:27:08 local. Older throttle spelling, sentinels.
    let mut csv = String::from(
        "timestamp, index, uuid, power.draw [W], enforced.power.limit [W], temperature.gpu, temperature.memory, clocks.current.sm [MHz], clocks.max.sm [MHz], utilization.gpu [%], memory.used [MiB], memory.total [MiB], clocks_throttle_reasons.active\n",
    );
    for k in 0..30 {
        let reasons = if (10..20).contains(&k) { "0x0000000000000020" } else { "0x0000000000000000" };
        let clock = if (10..20).contains(&k) { 1400 } else { 1980 };
        let sec = 45 + k; // 15:26:45 to 15:27:14 local, covering the 20-second run
        csv += &format!(
            "2026/06/11 15:{}:{:02}.100, 0, GPU-abc, 400.5 W, 700.00 W, 80, [N/A], {clock} MHz, 1980 MHz, 97 %, 60000 MiB, 81559 MiB, {reasons}\n",
            26 + sec / 60,
            sec % 60
        );
    }
    let g = write(&s, "smi.csv", &csv);
    let out = s.path("run");
    let o = import(&[f.to_str().unwrap(), g.to_str().unwrap(), "--tz", "+02:00"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let gpu = run.gpu.as_ref().expect("gpu table");
    assert_eq!(gpu.num_rows(), 30);
    assert_eq!(gpu.u64s("clocks_event_reasons").unwrap()[15], Some(0x20));
    assert!(gpu.f64s("temp_mem_c").unwrap().iter().all(Option::is_none), "[N/A] becomes null");
    let a = credence(&["analyze", out.to_str().unwrap(), "--json", "--resamples", "499"]);
    let a: Value = serde_json::from_slice(&a.stdout).unwrap();
    assert!(a["findings"].as_array().unwrap().iter().any(|f| f["cause"] == "thermal_throttle"), "{}", a["findings"]);
    // Without --tz the zone-less times are refused with the fix.
    let o = import(&[f.to_str().unwrap(), g.to_str().unwrap()], &s.path("notz"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--tz"), "{}", stderr(&o));
    assert!(!s.path("notz").exists());
}

#[test]
fn malformed_and_aggregate_only_input_exit_2_and_write_nothing() {
    let s = Scratch::new("imp_bad");
    let full = vllm_result(20).to_string();
    let truncated = write(&s, "trunc.json", &full[..full.len() / 2]);
    let mut wrong = vllm_result(20);
    wrong["ttfts"][4] = json!("fast");
    let wrong = write(&s, "wrong.json", &wrong.to_string());
    let mut short = vllm_result(20);
    short["errors"] = json!([""]);
    let short = write(&s, "short.json", &short.to_string());
    let genai = write(
        &s,
        "profile_export_genai_perf.json",
        &json!({"time_to_first_token": {"unit": "ms", "avg": 30.0, "p99": 40.0}, "request_throughput": {"unit": "requests/sec", "avg": 9.0}}).to_string(),
    );
    let csv = write(&s, "smi.csv", "timestamp, power.draw [W], temperature.gpu\n2026/06/11 15:26:38.100, 400 W, 80\n2026/06/11 15:26:39.100, 400 W\n");
    let cases: [(&[&str], &str); 5] = [
        (&["vllm", truncated.to_str().unwrap()], "line 1"),
        (&[wrong.to_str().unwrap()], "ttfts[4]"),
        (&[short.to_str().unwrap()], "errors"),
        (&[genai.to_str().unwrap()], "profile_export.json"),
        (&[csv.to_str().unwrap(), "--tz", "UTC"], "line 3"),
    ];
    for (i, (args, needle)) in cases.iter().enumerate() {
        let out = s.path(&format!("out{i}"));
        let o = import(args, &out);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: expected {needle:?} in: {}", stderr(&o));
        assert!(!out.exists(), "a failed import left {}", out.display());
        assert!(
            std::fs::read_dir(s.path("")).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().contains(&format!("out{i}"))),
            "a temporary folder was left behind"
        );
    }
}

#[test]
fn audit_reproduces_the_tools_own_numbers() {
    let s = Scratch::new("audit");
    // llmperf: every summary quantile recomputes from the individual file.
    let out = s.path("llmperf.json");
    let (ind, sum) = (samples().join("llmperf/leaderboard_individual_groq_70b.json"), samples().join("llmperf/leaderboard_summary_groq_70b.json"));
    let o = credence(&["audit", ind.to_str().unwrap(), sum.to_str().unwrap(), "-o", out.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let claims = v["audit"]["claims"].as_array().unwrap();
    assert!(claims.len() >= 30);
    for c in claims {
        assert_eq!(c["verdict"], "reproduced", "{c}");
    }
    // MLPerf: the summary's percentiles equal the detail log's, and validity rechecks.
    let dir = samples().join("mlperf_loadgen/llama2-70b-99_Server");
    let out = s.path("mlperf.json");
    let o = credence(&[
        "audit",
        dir.join("mlperf_log_detail.txt").to_str().unwrap(),
        dir.join("mlperf_log_summary.txt").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["kind"], "audit");
    assert_eq!(v["credibility"]["grade"], "LOW", "no per-request data");
    let claims = v["audit"]["claims"].as_array().unwrap();
    assert!(claims.iter().any(|c| c["key"] == "result_99.00_percentile_latency_ns" && c["verdict"] == "reproduced" && c["recomputed_from"] == "summary"));
    assert!(v["audit"]["facts"].as_array().unwrap().iter().any(|f| f["name"] == "mlperf.validity" && f["status"] == "PASS"));
    // The truncated log is reported incomplete, not a crash; and a PDF audit renders.
    let pdf = s.path("auto.pdf");
    let o = credence(&[
        "audit",
        samples().join("mlperf_loadgen/automotive_3d_object_detection/mlperf_log_detail.txt").to_str().unwrap(),
        "-o",
        pdf.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&std::process::Command::new("pdftotext").arg(&pdf).arg("-").output().expect("pdftotext").stdout).into_owned();
    assert!(text.contains("mlperf.complete") && text.contains("FAIL"), "{text}");
}

#[test]
fn guidellm_inference_perf_and_mlc_endpoints_round_trip() {
    let s = Scratch::new("imp_more");
    let t0 = 1_781_184_000.0f64;
    // guidellm 0.8.1: warmup and cooldown requests are listed but not counted; TTFT counts the
    // requests whose [start, first token] overlaps the measure window; nearest-rank claims.
    let reqs: Vec<Value> = (0..40)
        .map(|i| {
            let start = t0 + i as f64 * 0.5;
            let ttft = 30.0 + (i % 9) as f64;
            let timings = json!({"request_start": start, "first_token_iteration": start + ttft / 1000.0, "last_token_iteration": start + 0.79, "request_end": start + 0.8, "resolve_end": start + 0.801, "token_iterations": 64, "request_iterations": 66});
            json!({"request_id": format!("r{i}"), "info": {"status": "completed", "timings": timings}, "input_metrics": {"total_tokens": 256}, "output_metrics": {"total_tokens": 64}})
        })
        .collect();
    // Counted: requests whose first token comes at or after t0 + 3 and that start by t0 + 17.
    let counted: Vec<f64> = (0..40)
        .filter(|i| {
            let st = t0 + *i as f64 * 0.5;
            st + (30.0 + (i % 9) as f64) / 1000.0 >= t0 + 3.0 && st <= t0 + 17.0
        })
        .map(|i| 30.0 + (i % 9) as f64)
        .collect();
    let mut sorted = counted.clone();
    sorted.sort_by(f64::total_cmp);
    let p90 = sorted[((0.9 * sorted.len() as f64).ceil() as usize) - 1];
    let ttft = json!({"count": counted.len(), "mean": counted.iter().sum::<f64>() / counted.len() as f64, "median": sorted[(sorted.len() - 1) / 2], "percentiles": {"p90": p90}});
    let g = json!({"metadata": {"guidellm_version": "0.8.1"}, "benchmarks": [{
        "config": {"strategy": {"type_": "poisson", "rate": 2.0}},
        "scheduler_metrics": {"measure_start_time": t0 + 3.0, "measure_end_time": t0 + 17.0},
        "metrics": {"time_to_first_token_ms": {"successful": ttft}},
        "requests": {"successful": reqs, "errored": [], "incomplete": []}, "duration": 20.0}]});
    let f = write(&s, "benchmarks.json", &g.to_string());
    let a = round_trip(&[f.to_str().unwrap()], &s, "guidellm");
    assert!(a["requests"]["declared_warmup"].as_u64().unwrap() > 0);
    assert_eq!(a["run"]["arrival"], "poisson");
    let out = s.path("g_audit.json");
    let o = credence(&["audit", f.to_str().unwrap(), "-o", out.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
    assert_eq!(v["audit"]["claims"].as_array().unwrap().len(), 4, "count, mean, median and p90");
    for c in v["audit"]["claims"].as_array().unwrap() {
        assert_eq!(c["verdict"], "reproduced", "nearest-rank and the measurement window reproduce guidellm: {c}");
    }
    // inference-perf: records as 0.7.0 writes them (perf_counter seconds, chunk times under
    // info.response_metrics), anchored with --start as no stage report is given.
    let list: Vec<Value> = (0..50)
        .map(|i| {
            let st = 5000.0 + i as f64 * 0.2;
            let chunks: Vec<f64> = (0..10).map(|k| st + 0.04 + k as f64 * 0.045).collect();
            let metrics = json!({"output_tokens": 11, "server_usage": {"prompt_tokens": 100, "completion_tokens": 10}, "chunk_times": chunks, "output_token_times": chunks});
            json!({"start_time": st, "end_time": st + 0.5, "info": {"input_tokens": 100, "request_metrics": {"text": {"input_tokens": 100}}, "response_metrics": metrics}, "error": null})
        })
        .collect();
    let f = write(&s, "per_request_lifecycle_metrics.json", &Value::Array(list).to_string());
    let a = round_trip(&["inference-perf", f.to_str().unwrap(), "--start", "2026-06-11T12:00:00Z"], &s, "ip");
    assert!((a["metrics"]["itl"]["p50"]["estimate"].as_f64().unwrap() - 45.0).abs() < 0.01);
    assert!((a["metrics"]["ttft"]["p50"]["estimate"].as_f64().unwrap() - 40.0).abs() < 0.01, "the first chunk is the first token");
    // MLCommons endpoints events.jsonl: monotonic, warmup before tracking starts.
    let mut ev = String::new();
    ev += &json!({"event_type": "session.started", "timestamp_ns": 0}).to_string();
    ev.push('\n');
    for i in 0..60i64 {
        let t = 1_000_000_000 + i * 100_000_000;
        if i == 5 {
            ev += &json!({"event_type": "session.start_performance_tracking", "timestamp_ns": t - 1}).to_string();
            ev.push('\n');
        }
        for (e, dt) in [("sample.issued", 0), ("sample.recv_first", 40_000_000), ("sample.recv_non_first", 60_000_000), ("sample.complete", 80_000_000)] {
            ev += &json!({"event_type": e, "timestamp_ns": t + dt, "sample_uuid": format!("s{i}")}).to_string();
            ev.push('\n');
        }
    }
    let f = write(&s, "events.jsonl", &ev);
    let a = round_trip(&[f.to_str().unwrap()], &s, "mlc");
    assert_eq!(a["requests"]["declared_warmup"], 5);
    assert_eq!(a["run"]["timestamps"], "relative");
}

#[test]
fn dcgm_and_dmon_telemetry_with_sentinels() {
    let s = Scratch::new("imp_dcgm");
    let f = write(&s, "vllm.json", &vllm_result(200).to_string());
    // UTC run end 13:27:08; scrapes every second from 13:26:45 UTC.
    let mut prom = String::new();
    for k in 0..30i64 {
        prom += &format!("# scrape_time {}\n", 1_781_184_405 + k);
        prom += "# HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).\n# TYPE DCGM_FI_DEV_SM_CLOCK gauge\n";
        let clock = if (10..20).contains(&k) { 1400 } else { 1980 };
        prom += &format!("DCGM_FI_DEV_SM_CLOCK{{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"node1\"}} {clock}\n");
        prom += "DCGM_FI_DEV_MEMORY_TEMP{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"node1\"} 9223372036854775794\n";
        prom += &format!("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS{{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"node1\"}} {}\n", if (10..20).contains(&k) { 32 } else { 0 });
        prom += "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\",Hostname=\"node1\"} 97\n";
    }
    let d = write(&s, "dcgm.prom", &prom);
    let out = s.path("run");
    let o = import(&[f.to_str().unwrap(), d.to_str().unwrap(), "--tz", "+02:00"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let gpu = run.gpu.as_ref().unwrap();
    assert_eq!(gpu.num_rows(), 30);
    assert!(gpu.f64s("temp_mem_c").unwrap().iter().all(Option::is_none), "the DCGM blank sentinel becomes null");
    assert_eq!(gpu.strings("host").unwrap().value(0), "node1", "label names match case-insensitively");
    // dmon with -o DT (local time +02:00), header repeated.
    let mut dm = String::new();
    for k in 0..30i64 {
        if k % 10 == 0 {
            dm += "#Date       Time        gpu    pwr  gtemp  mtemp     sm    mem   mclk   pclk\n#YYYYMMDD   HH:MM:SS    Idx      W      C      C      %      %    MHz    MHz\n";
        }
        let sec = 45 + k;
        dm += &format!(
            " 20260611   15:{}:{:02}      0    400     80      -     97     60   2619   {}\n",
            26 + sec / 60,
            sec % 60,
            if (10..20).contains(&k) { 1400 } else { 1980 }
        );
    }
    let g = write(&s, "dmon.txt", &dm);
    let out = s.path("run2");
    let o = import(&[f.to_str().unwrap(), g.to_str().unwrap(), "--tz", "+02:00"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    assert_eq!(run.gpu.as_ref().unwrap().num_rows(), 30);
    assert!(run.gpu.as_ref().unwrap().f64s("temp_mem_c").unwrap().iter().all(Option::is_none), "`-` is null");
}

/// Found by fuzzing (`import_mlperf_trace`): an offset near i64::MAX overflowed the sum of
/// the schedule and the issue time (a panic in a build with overflow checks, a wrapped time in
/// release). Such a sample, and a `ts` beyond ±1e15 µs, are refused naming the event.
#[test]
fn mlperf_trace_times_off_the_nanosecond_clock_are_refused_with_the_event() {
    let s = Scratch::new("imp_trace_range");
    let sample =
        |ts: f64, issue: i64| json!({"name": "Sample", "ph": "b", "ts": ts, "args": {"sample_seq": 1, "issue_start_ns": issue, "complete_ns": 50_000_000}});
    for (case, bad) in [("huge-issue", sample(2000.0, i64::MAX - 10)), ("huge-ts", sample(1e300, 200_000))] {
        let events = vec![sample(1000.0, 200_000), bad];
        std::fs::create_dir_all(s.path(case)).unwrap();
        let trace = write(&s, &format!("{case}/mlperf_log_trace.json"), &json!({"traceEvents": events}).to_string());
        let out = s.path(&format!("run-{case}"));
        let o = import(&[trace.to_str().unwrap()], &out);
        assert_eq!(o.status.code(), Some(2), "{case}: {}", stderr(&o));
        assert!(stderr(&o).contains("mlperf_log_trace.json") && stderr(&o).contains("traceEvents[1]"), "{case}: {}", stderr(&o));
        assert!(!out.exists(), "nothing is written");
    }
}

#[test]
fn mlperf_trace_imports_with_the_detail_logs_date() {
    let s = Scratch::new("imp_trace");
    // 300 samples scheduled every 10 ms; latency from the schedule 50–79 ms.
    let lat: Vec<i64> = (0..300).map(|i| 50_000_000 + (i * 7919 % 30) * 1_000_000).collect();
    let events: Vec<Value> = (0..300).map(|i| json!({"name": "Sample", "ph": "b", "ts": 1000.0 + i as f64 * 10_000.0, "args": {"sample_seq": i, "query_seq": i, "sample_idx": i, "issue_start_ns": 200_000, "complete_ns": lat[i as usize]}})).collect();
    let trace = write(&s, "mlperf_log_trace.json", &json!({"traceEvents": events}).to_string());
    let mut sorted: Vec<f64> = lat.iter().map(|x| *x as f64).collect();
    sorted.sort_by(f64::total_cmp);
    let p99 = credence::stats::quantile::quantile_sorted(&sorted, 0.99).unwrap();
    let detail = write(
        &s,
        "mlperf_log_detail.txt",
        &format!(
            ":::MLLOG {{\"key\": \"test_datetime\", \"value\": \"2026-06-01T12:00:00Z\", \"time_ms\": 0.0, \"namespace\": \"mlperf::logging\", \"event_type\": \"POINT_IN_TIME\", \"metadata\": {{}}}}\n:::MLLOG {{\"key\": \"result_99.00_percentile_latency_ns\", \"value\": {p99}, \"time_ms\": 1.0, \"namespace\": \"mlperf::logging\", \"event_type\": \"POINT_IN_TIME\", \"metadata\": {{}}}}\n"
        ),
    );
    let out = s.path("run");
    let o = import(&[trace.to_str().unwrap(), detail.to_str().unwrap()], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = manifest(&out);
    assert_eq!(m["clock"]["timestamps"], "absolute");
    assert_eq!(m["source"]["capabilities"]["scheduled_times"], true);
    let run = credence::run::load(&out).unwrap();
    assert_eq!(run.requests.timestamps("scheduled_ns").unwrap()[0], Some(1_780_315_200_000_000_000 + 1_000_000));
    // The audit recomputes LoadGen's P99 (measured from the schedule) from the trace.
    let aj = s.path("audit.json");
    let o = credence(&["audit", trace.to_str().unwrap(), detail.to_str().unwrap(), "-o", aj.to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(aj).unwrap()).unwrap();
    let c = &v["audit"]["claims"][0];
    assert_eq!(c["verdict"], "reproduced", "{c}");
    assert_eq!(c["recomputed_from"], "raw");
    // An empty trace (what submissions usually ship) is refused with the way forward.
    std::fs::create_dir_all(s.path("empty")).unwrap();
    let empty = write(&s, "empty/mlperf_log_trace.json", "");
    let o = import(&[empty.to_str().unwrap()], &s.path("e"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("trace is empty") && stderr(&o).contains("credence audit"), "{}", stderr(&o));
}

/// `import FORMAT FILE` takes FORMAT as the format's name even when a folder of that name
/// sits in the working directory; a first word that is neither lists every format.
#[test]
fn a_format_name_wins_over_a_path_of_that_name() {
    let s = Scratch::new("imp_fmtname");
    let f = write(&s, "result.json", &vllm_result(50).to_string());
    std::fs::create_dir_all(s.path("vllm")).unwrap();
    let out = s.path("run");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_credence"))
        .current_dir(&s.0)
        .args(["import", "vllm", f.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = import(&["sglangg", f.to_str().unwrap()], &s.path("run2"));
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("neither a file nor a format") && err.contains("inference-perf") && err.contains("dcgm"), "{err}");
    assert!(!s.path("run2").exists(), "nothing is written on bad input");
}

/// AIPerf 0.13.0's own files (fixtures/peers): a first line over 8 KB (800-token outputs) is
/// still detected, and `audit` takes an optional format name first, as `import` does.
#[test]
fn aiperf_long_first_line_is_detected() {
    let s = Scratch::new("imp_aiperf_long");
    let jsonl = fixture("peers/aiperf-0.13.0/long-output/profile_export.jsonl");
    let first = std::fs::read_to_string(&jsonl).unwrap();
    assert!(first.lines().next().unwrap().len() > 8192, "the fixture's point is a long first line");
    let o = import(&[jsonl.to_str().unwrap()], &s.path("run"));
    assert!(o.status.success(), "{}", stderr(&o));
    let md = s.path("audit.md");
    let o = credence(&["audit", "aiperf", jsonl.to_str().unwrap(), "--format", "md", "-o", md.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Python's `json.dump` writes `Infinity` and `NaN` (vLLM's default `request_rate` is inf, and
/// a statistic of no values is NaN): the file is detected and imported, not refused as
/// "not valid JSON".
#[test]
fn python_nan_and_infinity_are_read() {
    let s = Scratch::new("imp_python_nan");
    let text = vllm_result(50).to_string().replace("\"request_rate\":10.0", "\"request_rate\":Infinity").replace("\"p99_ttft_ms\":36.0", "\"p99_ttft_ms\":NaN");
    assert!(text.contains("Infinity") && text.contains("NaN"));
    let f = write(&s, "vllm-python.json", &text);
    let a = round_trip(&[f.to_str().unwrap()], &s, "run");
    assert_eq!(a["requests"]["errors"], 1);
}

/// A folder of vLLM result JSONs: each file is one run, and the runs go into one series folder
/// that `report` reads as replicated runs; a file of no known format is listed as skipped.
#[test]
fn a_folder_of_vllm_results_becomes_a_series() {
    let s = Scratch::new("imp_folder_vllm");
    let results = s.path("results");
    std::fs::create_dir_all(&results).unwrap();
    for (i, n) in [40, 50, 60].iter().enumerate() {
        std::fs::write(results.join(format!("qps10-{i}.json")), vllm_result(*n).to_string()).unwrap();
    }
    std::fs::write(results.join("notes.txt"), "three repeats of the same configuration\n").unwrap();
    let out = s.path("series");
    let o = import(&[results.to_str().unwrap(), "--tz", "+02:00"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let skipped: Vec<&str> = err.lines().filter(|l| l.starts_with("skipped ")).collect();
    assert_eq!(skipped.len(), 1, "{err}");
    assert!(skipped[0].contains("notes.txt") && skipped[0].contains("could not be recognised"), "{err}");
    let series: Value = serde_json::from_str(&std::fs::read_to_string(out.join("series.json")).unwrap()).unwrap();
    assert_eq!(series["kind"], "credence series");
    let runs: Vec<&str> = series["runs"].as_array().unwrap().iter().map(|r| r["run"].as_str().unwrap()).collect();
    assert_eq!(runs, ["qps10-0", "qps10-1", "qps10-2"]);
    for (name, n) in runs.iter().zip([40, 50, 60]) {
        let v = credence(&["validate", out.join(name).to_str().unwrap(), "--json"]);
        assert!(v.status.success(), "{name}: {}", String::from_utf8_lossy(&v.stdout));
        assert_eq!(credence::run::load(&out.join(name)).unwrap().requests.num_rows(), n, "{name}");
    }
    let r = credence(&["report", out.to_str().unwrap(), "-o", s.path("r.json").to_str().unwrap(), "--format", "json", "--resamples", "499"]);
    assert!(r.status.success(), "the series folder reports: {}", stderr(&r));
    // audit checks one run's claims: a folder of several is refused, naming them.
    let a = credence(&["audit", results.to_str().unwrap(), "-o", s.path("a.pdf").to_str().unwrap(), "--tz", "+02:00"]);
    assert_eq!(a.status.code(), Some(2));
    assert!(stderr(&a).contains("holds 3 runs (qps10-0, qps10-1, qps10-2)"), "{}", stderr(&a));
}

/// An empty folder, or one holding nothing credence reads, is bad input naming the folder; a
/// symbolic link is not followed out of the folder, and the walk stops at a bounded depth.
#[test]
fn a_folder_with_nothing_to_read_exits_2_and_links_are_not_followed() {
    let s = Scratch::new("imp_folder_bad");
    let empty = s.path("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = import(&[empty.to_str().unwrap()], &s.path("out-empty"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(&format!("{}: an empty folder", empty.display())), "{}", stderr(&o));
    let unknown = s.path("unknown");
    std::fs::create_dir_all(&unknown).unwrap();
    std::fs::write(unknown.join("a.json"), r#"{"hello": 1}"#).unwrap();
    std::fs::write(unknown.join("b.txt"), "text\n").unwrap();
    let o = import(&[unknown.to_str().unwrap()], &s.path("out-unknown"));
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains(&format!("{}: no file that credence reads (2 set aside)", unknown.display())), "{err}");
    assert!(err.contains("a.json: a JSON file of no known benchmark format"), "{err}");
    assert!(!s.path("out-unknown").exists() && !s.path("out-empty").exists());
    // A link to a result outside the folder, and a result 8 folders down: neither is read.
    let outside = write(&s, "outside.json", &vllm_result(20).to_string());
    let linked = s.path("linked");
    std::fs::create_dir_all(&linked).unwrap();
    std::os::unix::fs::symlink(&outside, linked.join("result.json")).unwrap();
    let deep = (0..8).fold(linked.clone(), |d, i| d.join(format!("d{i}")));
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("deep.json"), vllm_result(20).to_string()).unwrap();
    let o = import(&[linked.to_str().unwrap()], &s.path("out-linked"));
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("result.json: a symbolic link: not followed"), "{err}");
    assert!(err.contains("d6: a folder more than 6 levels down: not searched"), "{err}");
}
