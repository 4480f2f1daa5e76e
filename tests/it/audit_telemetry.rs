//! `credence audit` of GPU captures alone (no request records), through the real binary, on
//! the committed captures in `tests/data/telemetry/` (described in its README): episodes at
//! the right times, idle GPUs set aside, request-based checks NOT_CHECKED, no sentence that
//! claims work that was not done, a PDF that renders, and bad input refused with its place.


use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Scratch, credence, repo, stderr};
use serde_json::Value;

fn capture(name: &str) -> PathBuf {
    repo().join("tests/data/telemetry").join(name)
}

const SMI: &str = "nvidia_smi_two_gpus.csv";
const DMON: &str = "dmon.txt";
const DCGM: &str = "dcgm_exporter.prom";

/// 2026-06-11 13:30:00.100 UTC (15:30:00.100 at +02:00): the nvidia-smi capture's first sample.
const SMI_T0_NS: i64 = 1_781_184_600_100_000_000;
/// 2026-06-12 07:00:00 UTC: the first sample of the dmon (09:00:00 at +02:00) and DCGM captures.
const JUNE_12_0700_NS: i64 = 1_781_247_600_000_000_000;

/// Sentences that would claim checks or detectors that never ran on a GPU capture.
const FALSE_SENTENCES: [&str; 5] = ["0 claims", "No cause was found", "Every detector had its evidence", "Every detector with its evidence", "detectors ran"];

/// Runs `audit` on `files` (with `--tz +02:00`) into `out` in `format`; returns the output's bytes.
fn audit(s: &Scratch, files: &[PathBuf], format: &str, out: &str) -> (Vec<u8>, String) {
    let out = s.path(out);
    let mut args = vec!["audit".to_string()];
    args.extend(files.iter().map(|p| p.display().to_string()));
    args.extend(["--tz", "+02:00", "--format", format, "-o"].map(String::from));
    args.push(out.display().to_string());
    let o = credence(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "audit {files:?} failed: {}", stderr(&o));
    (std::fs::read(&out).unwrap(), stderr(&o))
}

fn audit_json(s: &Scratch, files: &[PathBuf]) -> Value {
    serde_json::from_slice(&audit(s, files, "json", "audit.json").0).unwrap()
}

fn check<'v>(v: &'v Value, name: &str) -> &'v Value {
    v["credibility"]["checks"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap_or_else(|| panic!("no check {name}: {}", v["credibility"]))
}

fn gpu<'v>(v: &'v Value, label_part: &str) -> &'v Value {
    v["telemetry"]["gpus"].as_array().unwrap().iter().find(|g| g["gpu"].as_str().unwrap().contains(label_part)).unwrap_or_else(|| panic!("no GPU {label_part}"))
}

fn assert_no_false_sentence(text: &str, what: &str) {
    for s in FALSE_SENTENCES {
        assert!(!text.contains(s), "{what} says {s:?}:\n{text}");
    }
}

#[test]
fn nvidia_smi_capture_finds_the_thermal_stretch_and_sets_the_idle_gpu_aside() {
    let s = Scratch::new("tel_smi");
    let v = audit_json(&s, &[capture(SMI)]);
    assert_eq!(v["kind"], "telemetry");
    assert_eq!(v["runs"].as_array().unwrap().len(), 0, "no request was recorded: no run is analyzed");
    assert!(v["audit"].is_null(), "no summary file: no claims table");
    let t = &v["telemetry"];
    assert_eq!(t["t0_ns"], SMI_T0_NS);
    assert_eq!(t["samples"], 180);
    assert_eq!(t["load_threshold_pct"], 50.0);
    assert!(t["load_rule"].as_str().unwrap().contains("at least 50 %"));

    // GPU 1 never reaches the threshold: set aside, with the numbers, and not analyzed.
    let idle = gpu(&v, "GPU-5d1a2f3c-0000-4c1e-9b9e-2222bbbb0001");
    assert_eq!(idle["load"]["state"], "idle");
    assert_eq!(idle["load"]["loaded_samples"], 0);
    assert_eq!(idle["load"]["idle_bit_samples"], 90);
    assert!(idle["load"]["reason"].as_str().unwrap().contains("0 of 90 samples"), "{}", idle["load"]["reason"]);
    assert!(idle["stability"].is_null(), "an idle GPU's clocks are not read as a workload's");

    // GPU 0: the 0x20 stretch from 15:30:30.100 to 15:30:49.100 local, 20 samples.
    let episodes = t["episodes"].as_array().unwrap();
    assert_eq!(episodes.len(), 1, "{episodes:?}");
    let e = &episodes[0];
    assert!(e["gpu"].as_str().unwrap().contains("GPU-5d1a2f3c-0000-4c1e-9b9e-1111aaaa0000"));
    assert_eq!((e["reason"].as_str(), e["basis"].as_str(), e["fault"].as_bool()), (Some("thermal_slowdown"), Some("reason_bits"), Some(true)));
    assert_eq!((e["start_s"].as_f64(), e["end_s"].as_f64(), e["duration_s"].as_f64()), (Some(30.0), Some(50.0), Some(20.0)));
    assert_eq!(e["start_ns"], SMI_T0_NS + 30_000_000_000);
    assert_eq!(e["end_ns"], SMI_T0_NS + 50_000_000_000);
    assert_eq!(e["samples"], 20);
    assert_eq!(e["reason_bits"], "0x0000000000000020");
    assert_eq!(e["evidence"]["sm_clock_min_mhz"], 1410.0);
    assert_eq!(e["evidence"]["sm_clock_reference_mhz"], 1980.0);
    assert_eq!(e["evidence"]["temp_max_c"], 88.0);
    assert_eq!(e["evidence"]["power_limit_w"], 700.0);

    // Stability over the 85 loaded samples (the first 5 s were idle): 20 of them below 90 %.
    let busy = gpu(&v, "GPU-5d1a2f3c-0000-4c1e-9b9e-1111aaaa0000");
    assert_eq!(busy["load"]["state"], "loaded");
    let st = &busy["stability"];
    assert_eq!(st["loaded_samples"], 85);
    assert_eq!(st["sm_clock_max_observed_mhz"], 1980.0);
    assert_eq!(st["sm_clock_max_rated_mhz"], 1980.0);
    assert!((st["share_below_90pct_of_max_observed"].as_f64().unwrap() - 20.0 / 85.0).abs() < 1e-12);
    assert_eq!(st["stable"], false);
    assert_eq!(busy["flagged_s"]["thermal_slowdown"], 20.0);
    // The chart data: 90 SM-clock points in MHz.
    let clock = busy["timeline"]["sm_clock_mhz"].as_array().unwrap();
    assert_eq!(clock.len(), 90);
    assert_eq!(clock[40], 1410.0);

    // What could not run says so; what ran says what it found.
    assert_eq!(v["credibility"]["grade"], "LOW");
    assert_eq!(check(&v, "per_request_data")["status"], "FAIL");
    assert_eq!(check(&v, "throttling")["status"], "FAIL");
    assert_eq!(check(&v, "clock_stability")["status"], "WARN");
    assert_eq!(check(&v, "gpus_under_load")["status"], "PASS");
    for name in ["steady_state", "sample_size.ttft_p99", "dependence", "client_saturation", "error_rate", "interval_width", "attribution", "claims"] {
        let c = check(&v, name);
        assert_eq!(c["status"], "NOT_CHECKED", "{name}: {c}");
        assert!(!c["reason"].as_str().unwrap().is_empty(), "{name} says why");
    }
    let statement = v["credibility"]["statement"].as_str().unwrap();
    assert!(statement.contains("GPU telemetry only") && statement.contains("cannot show latency, throughput, error rates"), "{statement}");
    assert_no_false_sentence(statement, "the statement");
}

#[test]
fn dmon_capture_reports_a_clock_drop_whose_cause_it_cannot_see() {
    let s = Scratch::new("tel_dmon");
    let v = audit_json(&s, &[capture(DMON)]);
    let t = &v["telemetry"];
    assert_eq!(t["t0_ns"], JUNE_12_0700_NS);
    let episodes = t["episodes"].as_array().unwrap();
    assert_eq!(episodes.len(), 1, "{episodes:?}");
    let e = &episodes[0];
    assert!(e["gpu"].as_str().unwrap().contains("GPU 1"), "{}", e["gpu"]);
    assert_eq!((e["reason"].as_str(), e["basis"].as_str(), e["fault"].as_bool()), (Some("clock_drop"), Some("clock_only"), Some(false)));
    assert_eq!((e["start_s"].as_f64(), e["end_s"].as_f64()), (Some(20.0), Some(32.0)));
    assert_eq!(e["start_ns"], JUNE_12_0700_NS + 20_000_000_000);
    assert!(e["reason_bits"].is_null(), "dmon records no reason bits");
    assert!(e["evidence"].get("power_limit_w").is_none(), "dmon records no power limit: absent, not invented");
    assert_eq!(e["evidence"]["sm_clock_median_mhz"], 1095.0);
    assert_eq!(gpu(&v, "GPU 0")["stability"]["stable"], true);
    assert_eq!(gpu(&v, "GPU 1")["stability"]["stable"], false);
    assert_eq!(check(&v, "throttling")["status"], "WARN");
    assert!(check(&v, "throttling")["reason"].as_str().unwrap().contains("no clock-event reasons were captured"));
}

#[test]
fn dcgm_capture_infers_the_power_limit_from_power_and_clock() {
    let s = Scratch::new("tel_dcgm");
    // DCGM scrapes carry epoch times: the --tz the helper passes does not move them.
    let v = audit_json(&s, &[capture(DCGM)]);
    let t = &v["telemetry"];
    assert_eq!(t["t0_ns"], JUNE_12_0700_NS);
    let e = &t["episodes"][0];
    assert_eq!(t["episodes"].as_array().unwrap().len(), 1);
    assert_eq!((e["reason"].as_str(), e["basis"].as_str(), e["fault"].as_bool()), (Some("power_cap"), Some("power_at_limit"), Some(false)));
    assert_eq!((e["start_s"].as_f64(), e["end_s"].as_f64(), e["samples"].as_u64()), (Some(15.0), Some(27.0), Some(12)));
    assert!(e["evidence"]["power_share_of_limit_max"].as_f64().unwrap() >= 0.95);
    assert_eq!(e["evidence"]["sm_clock_median_mhz"], 1650.0);
    assert_eq!(check(&v, "throttling")["status"], "WARN", "power-limited is not a fault");
    let blanks = t["unreadable"].as_array().unwrap();
    assert!(blanks.iter().any(|u| u["field"] == "DCGM_FI_DEV_MEMORY_TEMP:blank" && u["samples"] == 40), "{blanks:?}");
}

#[test]
fn several_captures_keep_each_gpu_and_its_absolute_times() {
    let s = Scratch::new("tel_all");
    let v = audit_json(&s, &[capture(SMI), capture(DCGM), capture(DMON)]);
    let t = &v["telemetry"];
    assert_eq!(t["gpus"].as_array().unwrap().len(), 5);
    assert_eq!(t["t0_ns"], SMI_T0_NS, "time 0 is the earliest sample of all files");
    let reasons: Vec<(&str, i64)> =
        t["episodes"].as_array().unwrap().iter().map(|e| (e["reason"].as_str().unwrap(), e["start_ns"].as_i64().unwrap())).collect();
    assert_eq!(
        reasons,
        vec![
            ("thermal_slowdown", SMI_T0_NS + 30_000_000_000),
            ("power_cap", JUNE_12_0700_NS + 15_000_000_000),
            ("clock_drop", JUNE_12_0700_NS + 20_000_000_000)
        ]
    );
    assert_eq!(t["files"].as_array().unwrap().len(), 3);
}

#[test]
fn a_capture_of_idle_gpus_looks_for_no_episode_and_says_so() {
    let s = Scratch::new("tel_idle");
    let text = std::fs::read_to_string(capture(SMI)).unwrap();
    let idle_only: String = text.lines().filter(|l| l.starts_with("timestamp") || l.contains(", 1, GPU-")).map(|l| format!("{l}\n")).collect();
    let f = s.path("idle.csv");
    std::fs::write(&f, idle_only).unwrap();
    let v = audit_json(&s, std::slice::from_ref(&f));
    assert_eq!(v["telemetry"]["episodes"].as_array().unwrap().len(), 0);
    assert_eq!(check(&v, "gpus_under_load")["status"], "WARN");
    assert_eq!(check(&v, "throttling")["status"], "NOT_CHECKED");
    assert_eq!(check(&v, "clock_stability")["status"], "NOT_CHECKED");
    let md = String::from_utf8(audit(&s, &[f], "md", "idle.md").0).unwrap();
    assert!(md.contains("No GPU was under load, so no episode was looked for."), "{md}");
    assert!(!md.contains("No throttle"), "no GPU was loaded, so nothing was found or not found:\n{md}");
}

#[test]
fn markdown_names_what_was_found_and_claims_nothing_that_did_not_run() {
    let s = Scratch::new("tel_md");
    for (name, episode) in [(SMI, "13:30:30.100–13:30:50.100 UTC"), (DMON, "07:00:20.000–07:00:32.000 UTC"), (DCGM, "07:00:15.000–07:00:27.000 UTC")] {
        let (bytes, err) = audit(&s, &[capture(name)], "md", "audit.md");
        let md = String::from_utf8(bytes).unwrap();
        assert_no_false_sentence(&md, name);
        assert_no_false_sentence(&err, "the terminal line");
        assert!(err.contains("GPU telemetry only") && err.contains("no request-based check could run"), "{err}");
        for want in ["## GPU telemetry", "### Episodes", "### GPUs set aside", "### Clock stability under load", "| steady\\_state | NOT_CHECKED |", episode] {
            assert!(md.contains(want), "{name}: no {want:?} in\n{md}");
        }
        assert!(!md.contains("## Findings") && !md.contains("## Audit of the source's claims"), "{name}: no request-based section\n{md}");
    }
}

fn pdftotext(pdf: &Path) -> String {
    let o = Command::new("pdftotext").arg(pdf).arg("-").output().expect("pdftotext (poppler-utils) is needed");
    assert!(o.status.success(), "pdftotext failed on {}", pdf.display());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_pdf_renders_the_gpus_episodes_and_unchecked_checks() {
    let s = Scratch::new("tel_pdf");
    let (bytes, _) = audit(&s, &[capture(SMI)], "pdf", "audit.pdf");
    assert!(bytes.starts_with(b"%PDF"));
    let text = pdftotext(&s.path("audit.pdf"));
    for want in [
        "GPU telemetry only",
        "GPU telemetry",
        "Episodes",
        "13:30:30.100",
        "GPUs set aside",
        "Clock stability under load",
        "NOT_CHECKED",
        "SM clock",
        "under load in 0 of 90 samples",
    ] {
        assert!(text.contains(want), "the PDF lacks {want:?}:\n{text}");
    }
    assert_no_false_sentence(&text, "the PDF");
    // The same capture gives the same bytes.
    let (again, _) = audit(&s, &[capture(SMI)], "pdf", "again.pdf");
    assert!(again == bytes, "the PDF is not reproducible");
}

/// Runs `audit` expecting exit 2; returns stderr.
fn refused(s: &Scratch, file: &Path, extra: &[&str]) -> String {
    let out = s.path("refused.json");
    let mut args = vec!["audit", file.to_str().unwrap(), "--format", "json", "-o", out.to_str().unwrap()];
    args.extend(extra);
    let o = credence(&args);
    assert_eq!(o.status.code(), Some(2), "expected exit 2: {}", stderr(&o));
    assert!(!out.exists(), "nothing is written for bad input");
    stderr(&o)
}

#[test]
fn bad_captures_are_refused_with_file_line_and_column() {
    let s = Scratch::new("tel_bad");
    let text = std::fs::read_to_string(capture(SMI)).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[15] = lines[15].replace("1980 MHz, 1980 MHz", "fast MHz, 1980 MHz");
    let bad = s.path("bad_clock.csv");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let err = refused(&s, &bad, &["--tz", "+02:00"]);
    assert!(err.contains("bad_clock.csv") && err.contains("line 16, column clocks.current.sm") && err.contains("\"fast MHz\""), "{err}");

    let mut short = text.lines().map(String::from).collect::<Vec<_>>();
    short[5] = short[5].rsplit_once(", ").unwrap().0.to_string();
    let cut = s.path("cut.csv");
    std::fs::write(&cut, short.join("\n")).unwrap();
    let err = refused(&s, &cut, &["--tz", "+02:00"]);
    assert!(err.contains("cut.csv") && err.contains("line 6") && err.contains("columns"), "{err}");

    let err = refused(&s, &capture(SMI), &[]);
    assert!(err.contains("--tz"), "zone-less times need --tz: {err}");

    let dmon = std::fs::read_to_string(capture(DMON)).unwrap().replacen("   1395\n", "   13x5\n", 1);
    let bad_dmon = s.path("bad_dmon.txt");
    std::fs::write(&bad_dmon, dmon).unwrap();
    let err = refused(&s, &bad_dmon, &["--tz", "+02:00"]);
    assert!(err.contains("bad_dmon.txt") && err.contains("line 3, column pclk") && err.contains("13x5"), "{err}");

    let header_only = s.path("header_only.csv");
    std::fs::write(&header_only, format!("{}\n", text.lines().next().unwrap())).unwrap();
    let err = refused(&s, &header_only, &["--tz", "+02:00"]);
    assert!(err.contains("header_only.csv") && err.contains("nothing to audit"), "{err}");
}

#[test]
fn a_capture_without_clocks_does_not_claim_it_found_no_throttle() {
    let s = Scratch::new("tel_noclock");
    let mut csv = String::from("timestamp, index, utilization.gpu [%], power.draw [W]\n");
    for k in 0..20 {
        csv += &format!("2026/06/11 15:30:{k:02}.000, 0, 97 %, 400.00 W\n");
    }
    let f = s.path("no_clock.csv");
    std::fs::write(&f, csv).unwrap();
    let v = audit_json(&s, &[f]);
    assert_eq!(gpu(&v, "GPU 0")["load"]["state"], "loaded");
    assert_eq!(check(&v, "throttling")["status"], "NOT_CHECKED");
    assert_eq!(check(&v, "clock_stability")["status"], "NOT_CHECKED");
    let statement = v["credibility"]["statement"].as_str().unwrap();
    assert!(statement.contains("no episode could be looked for") && !statement.contains("No throttle"), "{statement}");
    assert!(statement.contains("(power, utilization)"), "only what was captured is listed: {statement}");
}
