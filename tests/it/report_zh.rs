//! `--lang zh`: the Chinese PDF and Markdown of the demo carry the same numbers as the JSON,
//! render on every page, leave no English prose outside identifiers, units and run strings,
//! and are byte-identical across runs; the JSON does not depend on the language.


use std::path::Path;
use std::process::Command;

use crate::common::{Scratch, credence, stderr};

fn run_ok(args: &[&str]) {
    let o = credence(args);
    assert!(o.status.success(), "credence {args:?} failed: {}", stderr(&o));
}

fn pdftotext(pdf: &Path) -> String {
    let o = Command::new("pdftotext").arg(pdf).arg("-").output().expect("pdftotext (poppler-utils) is needed; .ci/run installs it");
    assert!(o.status.success(), "pdftotext failed on {}", pdf.display());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Text without any whitespace: the PDF wraps lines anywhere, and typst spaces Latin from CJK.
fn squeezed(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The demo as JSON (the Analysis), Chinese Markdown and Chinese PDF.
struct Demo {
    _dir: Scratch,
    json: serde_json::Value,
    markdown: String,
    pdf: std::path::PathBuf,
}

fn demo() -> Demo {
    let s = Scratch::new("zh_demo");
    let (json, md, pdf) = (s.path("demo.json"), s.path("demo.md"), s.path("demo.pdf"));
    run_ok(&["report", "--demo", "--lang", "zh", "--format", "json", "-o", json.to_str().unwrap()]);
    run_ok(&["report", "--demo", "--lang", "zh", "--format", "md", "-o", md.to_str().unwrap()]);
    run_ok(&["report", "--demo", "--lang", "zh", "-o", pdf.to_str().unwrap()]);
    Demo { json: serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap(), markdown: std::fs::read_to_string(&md).unwrap(), pdf, _dir: s }
}

/// `x [lo, hi]` with the digits the interval's half-width supports (as `format::estimate`).
fn interval(e: &serde_json::Value) -> String {
    let (x, lo, hi) = (e["estimate"].as_f64().unwrap(), e["ci_low"].as_f64().unwrap(), e["ci_high"].as_f64().unwrap());
    let d = (1.0 - ((hi - lo) / 2.0).log10().floor()).clamp(0.0, 6.0) as usize;
    format!("{x:.d$} [{lo:.d$}, {hi:.d$}]")
}

#[test]
fn the_chinese_pdf_states_the_markdowns_statement_with_the_jsons_numbers() {
    let d = demo();
    let text = squeezed(&pdftotext(&d.pdf));
    // The statement is the paragraph after the grade line, Markdown-escaped.
    let md_lines: Vec<&str> = d.markdown.lines().collect();
    let grade = md_lines.iter().position(|l| l.starts_with("**可信度：")).expect("a grade line");
    let statement = md_lines[grade + 2].replace('\\', "");
    assert!(statement.starts_with("可信度：低。本次为单次运行："), "{statement}");
    assert!(text.contains(&squeezed(&statement)), "the PDF lacks the statement:\n{statement}");
    let j = &d.json;
    let steady = &j["steady_state"];
    let numbers = [
        format!(
            "在{:.0}s的稳态窗口内测量了{}个请求",
            steady["end_s"].as_f64().unwrap() - steady["start_s"].as_f64().unwrap(),
            j["requests"]["in_steady_window"]
        ),
        format!("舍弃开头{:.0}s的预热（{}个请求）", steady["dropped_start_s"].as_f64().unwrap(), steady["dropped_start_requests"]),
        squeezed(&interval(&j["throughput"]["requests_per_s"])),
        squeezed(&interval(&j["throughput"]["output_tokens_per_s"])),
        format!("{}个请求中{}个失败", j["errors"]["requests"], j["errors"]["errors"]),
    ];
    for n in numbers {
        assert!(text.contains(&n), "the PDF lacks {n:?}");
    }
    let throughput = j["credibility"]["half_widths"].as_array().unwrap().iter().find(|w| w["metric"] == "throughput").unwrap();
    let half = format!("请求吞吐量±{:.1}%", throughput["relative"].as_f64().unwrap() * 100.0);
    assert!(text.contains(&half), "the PDF lacks {half}");
}

#[test]
fn every_chinese_page_renders_without_warnings_and_without_missing_glyphs() {
    let d = demo();
    let prefix = d.pdf.with_file_name("page");
    let o = Command::new("pdftoppm").args(["-r", "30", "-png"]).arg(&d.pdf).arg(&prefix).output().expect("pdftoppm (poppler-utils) is needed");
    assert!(o.status.success() && o.stderr.is_empty(), "pdftoppm: {}", String::from_utf8_lossy(&o.stderr));
    let pages = std::fs::read_dir(d.pdf.parent().unwrap()).unwrap().filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with("page")).count();
    assert!(pages >= 6, "{pages} pages rendered");
    let fonts = Command::new("pdffonts").arg(&d.pdf).output().expect("pdffonts (poppler-utils)");
    let fonts = String::from_utf8_lossy(&fonts.stdout).into_owned();
    assert!(fonts.contains("NotoSansCJK"), "the CJK font is not embedded:\n{fonts}");
    let text = pdftotext(&d.pdf);
    assert!(!text.contains('\u{fffd}'), "a replacement mark in the text");
}

/// Runs of three or more English words, one per match, from whitespace-collapsed lines.
fn english_runs(text: &str) -> Vec<String> {
    let mut runs = Vec::new();
    for line in text.lines() {
        let mut run: Vec<&str> = Vec::new();
        for word in line.split_whitespace().chain([""]) {
            let english = word.len() > 1 && word.trim_end_matches([',', ';', ':', '.']).chars().all(|c| c.is_ascii_alphabetic() || c == '\'' || c == '-');
            if english {
                run.push(word);
            } else {
                if run.len() >= 3 {
                    runs.push(run.join(" "));
                }
                run.clear();
            }
        }
    }
    runs
}

#[test]
fn no_english_prose_is_left_outside_run_strings() {
    let d = demo();
    let j = &d.json;
    // Strings of the run itself: its configuration and the devices that findings name.
    let config = &j["run"]["config"];
    let mut allowed: Vec<String> = ["engine", "hardware", "model"].iter().filter_map(|k| config[k].as_str().map(String::from)).collect();
    let episodes = j["findings"].as_array().unwrap().iter().flat_map(|f| f["episodes"].as_array().unwrap().iter());
    allowed.extend(episodes.map(|e| e["source"].as_str().unwrap().to_string()));
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let allowed: Vec<String> = allowed.iter().map(|a| flat(a)).collect();
    for (what, text) in [("PDF", pdftotext(&d.pdf)), ("Markdown", d.markdown.replace('\\', ""))] {
        let left: Vec<String> = english_runs(&text).into_iter().filter(|r| !allowed.iter().any(|a| a.contains(r.as_str()))).collect();
        assert!(left.is_empty(), "English prose left in the {what}: {left:#?}");
        // Two-word English that the run test above cannot see: the estimate's note.
        assert!(!text.contains("insufficient data") && !text.contains("(>="), "English estimate note left in the {what}");
    }
}

#[test]
fn the_chinese_pdf_is_byte_identical_across_runs_and_the_json_does_not_depend_on_the_language() {
    let s = Scratch::new("zh_repro");
    let out = |name: &str| s.path(name).to_str().unwrap().to_string();
    run_ok(&["report", "--demo", "--lang", "zh", "-o", &out("a.pdf")]);
    run_ok(&["report", "--demo", "--lang", "zh", "-o", &out("b.pdf")]);
    assert!(std::fs::read(out("a.pdf")).unwrap() == std::fs::read(out("b.pdf")).unwrap(), "two zh PDFs differ");
    run_ok(&["report", "--demo", "--lang", "zh", "--format", "json", "-o", &out("zh.json")]);
    run_ok(&["report", "--demo", "--format", "json", "-o", &out("en.json")]);
    assert!(std::fs::read(out("zh.json")).unwrap() == std::fs::read(out("en.json")).unwrap(), "--lang changed the JSON");
}

#[test]
fn an_unknown_language_is_refused_with_exit_2() {
    let s = Scratch::new("zh_refuse");
    let out = s.path("x.pdf");
    for command in [vec!["report", "--demo"], vec!["audit", "x.json"]] {
        let mut args = command.clone();
        args.extend(["--lang", "fr", "-o", out.to_str().unwrap()]);
        let o = credence(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--lang \"fr\""), "{}", stderr(&o));
    }
}

/// A simulated steady run whose manifest names `model`.
fn run_with_model(s: &Scratch, model: &str) -> std::path::PathBuf {
    let run = s.path("run");
    run_ok(&["simulate", "--scenario", "steady", "--duration", "60s", "--out", run.to_str().unwrap()]);
    let manifest = run.join("run.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    m["config"]["model"] = model.into();
    std::fs::write(&manifest, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    run
}

#[test]
fn a_model_named_in_chinese_renders_in_the_pdf_and_the_markdown() {
    let s = Scratch::new("zh_model");
    let run = run_with_model(&s, "通义千问-7B-对话版");
    let (pdf, md) = (s.path("r.pdf"), s.path("r.md"));
    run_ok(&["report", run.to_str().unwrap(), "--lang", "zh", "-o", pdf.to_str().unwrap()]);
    run_ok(&["report", run.to_str().unwrap(), "--lang", "zh", "--format", "md", "-o", md.to_str().unwrap()]);
    let title = squeezed(pdftotext(&pdf).lines().next().unwrap_or(""));
    assert!(title.starts_with("压测报告：通义千问-7B-对话版"), "{title}");
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.starts_with("# 压测报告：通义千问-7B-对话版"), "{}", md.lines().next().unwrap_or(""));
    assert!(md.contains("模型 通义千问-7B-对话版"), "{md}");
}

/// `report --base BASE --cand CAND --lang zh` as Markdown and as JSON: their paths.
fn compare_in_chinese(s: &Scratch, base: &Path, cand: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (md, json) = (s.path("c.md"), s.path("c.json"));
    for (out, format) in [(&md, "md"), (&json, "json")] {
        let (base, cand, out) = (base.to_str().unwrap(), cand.to_str().unwrap(), out.to_str().unwrap());
        run_ok(&["report", "--base", base, "--cand", cand, "--lang", "zh", "--format", format, "-o", out]);
    }
    (md, json)
}

#[test]
fn a_chinese_comparison_leads_with_its_verdict_and_the_compare_jsons_numbers() {
    let s = Scratch::new("zh_compare");
    let (base, cand) = (crate::common::fixture("ab/base"), crate::common::fixture("ab/cand"));
    let (md, json) = compare_in_chinese(&s, &base, &cand);
    let md = std::fs::read_to_string(&md).unwrap().replace('\\', "");
    let top: Vec<&str> = md.lines().take(30).collect();
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let headline = top[2];
    let mut decided = 0;
    for (name, m) in j["comparison"]["metrics"].as_object().unwrap() {
        let pct = |x: &serde_json::Value| format!("{:+.1} %", x.as_f64().unwrap() * 100.0);
        let change = format!("{} [{}, {}]", pct(&m["change"]["estimate"]), pct(&m["change"]["ci_low"]), pct(&m["change"]["ci_high"]));
        if m["verdict"] == "regression" || m["verdict"] == "improvement" {
            decided += 1;
            assert!(headline.contains(&change), "{name}: the headline lacks {change}: {headline}");
        }
    }
    assert!(decided > 0 && headline.starts_with("退化：") && headline.ends_with('。'), "{headline}");
    assert!(top.iter().any(|l| l.starts_with("| 指标 | 基线 [95 % 置信区间] | 候选 [95 % 置信区间] | 变化 [95 % 置信区间] | 容差 | 判定 |")), "{top:#?}");
    assert!(top.iter().any(|l| l.starts_with("有效性门槛：")), "{top:#?}");
}

#[test]
fn a_character_no_font_has_is_its_code_point_with_one_warning_never_tofu() {
    let s = Scratch::new("zh_rare_glyph");
    // U+2A6A5 is outside GB 2312 and the embedded subset.
    let run = run_with_model(&s, "模型𪚥-7B");
    let pdf = s.path("r.pdf");
    let o = credence(&["report", run.to_str().unwrap(), "--lang", "zh", "-o", pdf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let title = squeezed(pdftotext(&pdf).lines().next().unwrap_or(""));
    let warnings = stderr(&o).matches("no embedded or system font has").count();
    if title.contains('𪚥') {
        // A system CJK font with the character is installed: it is set from that font, silently.
        assert_eq!(warnings, 0, "{}", stderr(&o));
    } else {
        assert!(title.contains("模型[U+2A6A5]-7B") && !title.contains('\u{fffd}'), "{title}");
        assert_eq!(warnings, 1, "{}", stderr(&o));
        assert!(stderr(&o).contains('𪚥'), "{}", stderr(&o));
    }
}

#[test]
fn a_chinese_audit_words_its_summary_verdicts_and_reasons_in_chinese() {
    let s = Scratch::new("zh_audit");
    let md = s.path("audit.md");
    let f = |p: &str| crate::common::fixture(p).display().to_string();
    let (raw, summary) = (f("samples/llmperf/leaderboard_individual_groq_70b.json"), f("samples/llmperf/leaderboard_summary_groq_70b.json"));
    run_ok(&["audit", &raw, &summary, "--lang", "zh", "--format", "md", "-o", md.to_str().unwrap()]);
    let md = std::fs::read_to_string(&md).unwrap().replace('\\', "");
    assert!(md.contains("## 工具声称值核验"), "{md}");
    assert!(md.contains("共有 40 项工具声称值。其中 40 项已复现"), "{md}");
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| results_")).collect();
    assert!(!rows.is_empty() && rows.iter().all(|r| r.contains("已复现") && r.contains("汇总值与该工具自身的原始数据一致")), "{rows:#?}");
    assert!(!md.contains("not recorded by") && md.contains("llmperf 未记录此项"), "{md}");
}

/// The words of a text without punctuation, one space apart: a tool's message quoted in a
/// report keeps its words but not always its quoting.
fn words(s: &str) -> String {
    let plain: String = s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { ' ' }).collect();
    format!(" {} ", plain.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// English runs of `text` that no input file contains: strings a tool wrote (its error
/// messages, its `incomplete_reason`) are in its files; credence's own sentences are not. A
/// run is looked up in its parts around colons, as credence joins a tool's error type and
/// message with one.
fn credence_english(text: &str, inputs: &[std::path::PathBuf]) -> Vec<String> {
    let written: String = inputs.iter().filter(|p| p.is_file()).map(|p| words(&String::from_utf8_lossy(&std::fs::read(p).unwrap()))).collect();
    english_runs(text).into_iter().filter(|r| !r.split(": ").all(|part| written.contains(&words(part)))).collect()
}

/// Runs `audit --lang zh` on `inputs` into Markdown (and a PDF when `pdf`); returns both texts.
fn audit_zh(s: &Scratch, name: &str, inputs: &[std::path::PathBuf], extra: &[&str], pdf: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let formats: &[&str] = if pdf { &["md", "pdf"] } else { &["md"] };
    for format in formats {
        let file = s.path(&format!("{name}.{format}"));
        let mut args: Vec<&str> = vec!["audit"];
        args.extend(extra);
        args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
        args.extend(["--lang", "zh", "--format", format, "--resamples", "200", "-o", file.to_str().unwrap()]);
        run_ok(&args);
        let text = if *format == "pdf" { pdftotext(&file) } else { std::fs::read_to_string(&file).unwrap().replace('\\', "") };
        out.push((format!("{name}.{format}"), text));
    }
    out
}

/// The files of a peer fixture's case an audit is given: everything the tool wrote that
/// credence reads (the per-request file, the summaries, the log and the manifest).
fn peer_inputs(tool: &str, case: &str) -> Vec<std::path::PathBuf> {
    let dir = crate::common::fixture(&format!("peers/{tool}/{case}"));
    let names = [
        "profile_export.jsonl",
        "profile_export_aiperf.json",
        "logs/aiperf.log",
        "phase_manifest.json",
        "per_request_lifecycle_metrics.json",
        "summary_lifecycle_metrics.json",
        "stage_0_lifecycle_metrics.json",
        "stage_1_lifecycle_metrics.json",
        "config.yaml",
        "inference-perf.partial.stage_0.yaml",
        "inference-perf.partial.stage_1.yaml",
    ];
    names.iter().map(|n| dir.join(n)).filter(|p| p.is_file()).collect()
}

fn cases(tool: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(crate::common::fixture(&format!("peers/{tool}")))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

#[test]
fn chinese_audits_of_every_peer_fixture_leave_no_english_prose() {
    let s = Scratch::new("zh_audit_peers");
    let mut left = Vec::new();
    for tool in ["aiperf-0.13.0", "inference-perf-0.7.0"] {
        for case in cases(tool) {
            let inputs = peer_inputs(tool, &case);
            for (name, text) in audit_zh(&s, &format!("{tool}-{case}"), &inputs, &[], case == "sigint" || case == "faults") {
                left.extend(credence_english(&text, &inputs).into_iter().map(|r| format!("{name}: {r}")));
            }
        }
    }
    for case in cases("guidellm-0.8.1") {
        let inputs = vec![crate::common::fixture(&format!("peers/guidellm-0.8.1/{case}/benchmarks.json"))];
        if inputs[0].is_file() {
            for (name, text) in audit_zh(&s, &format!("guidellm-{case}"), &inputs, &["guidellm"], case == "faults") {
                left.extend(credence_english(&text, &inputs).into_iter().map(|r| format!("{name}: {r}")));
            }
        }
    }
    assert!(left.is_empty(), "English prose left in Chinese audits: {left:#?}");
}

#[test]
fn chinese_audits_of_summary_files_alone_word_their_facts_and_definitions() {
    let s = Scratch::new("zh_audit_summaries");
    let mut left = Vec::new();
    for case in ["sigint", "max-duration-cut", "warmup-on"] {
        let inputs = vec![crate::common::fixture(&format!("peers/aiperf-0.13.0/{case}/profile_export_aiperf.json"))];
        for (name, text) in audit_zh(&s, case, &inputs, &[], case == "sigint") {
            assert!(text.contains("可信度") && !text.contains("仅 GPU 遥测"), "{name}: {text}");
            left.extend(credence_english(&text, &inputs).into_iter().map(|r| format!("{name}: {r}")));
        }
    }
    assert!(left.is_empty(), "English prose left: {left:#?}");
}

#[test]
fn chinese_audits_of_the_mlperf_and_llmperf_samples_leave_no_english_prose() {
    let s = Scratch::new("zh_audit_samples");
    let sample = |p: &str| crate::common::fixture(&format!("samples/{p}"));
    let groups = [
        (
            "mlperf",
            vec![sample("mlperf_loadgen/llama2-70b-99_Server/mlperf_log_detail.txt"), sample("mlperf_loadgen/llama2-70b-99_Server/mlperf_log_summary.txt")],
        ),
        ("mlperf-truncated", vec![sample("mlperf_loadgen/automotive_3d_object_detection/mlperf_log_detail.txt")]),
        ("llmperf", vec![sample("llmperf/leaderboard_individual_groq_70b.json"), sample("llmperf/leaderboard_summary_groq_70b.json")]),
    ];
    let mut left = Vec::new();
    for (name, inputs) in &groups {
        for (file, text) in audit_zh(&s, name, inputs, &[], true) {
            left.extend(credence_english(&text, inputs).into_iter().map(|r| format!("{file}: {r}")));
            if name.starts_with("mlperf") {
                assert!(text.contains("mlperf."), "{file}: the facts are missing:\n{text}");
            }
        }
    }
    assert!(left.is_empty(), "English prose left: {left:#?}");
}

#[test]
fn a_chinese_telemetry_only_audit_leaves_no_english_prose() {
    let s = Scratch::new("zh_audit_telemetry");
    let telemetry = |n: &str| crate::common::repo().join("tests/data/telemetry").join(n);
    let mut left = Vec::new();
    for (name, file, extra) in [("dcgm", "dcgm_exporter.prom", vec![]), ("smi", "nvidia_smi_two_gpus.csv", vec!["--tz", "+02:00"])] {
        let inputs = vec![telemetry(file)];
        for (out, text) in audit_zh(&s, name, &inputs, &extra, true) {
            assert!(text.contains("仅 GPU 遥测") && text.contains("没有记录任何请求"), "{out}:\n{text}");
            left.extend(credence_english(&text, &inputs).into_iter().map(|r| format!("{out}: {r}")));
        }
    }
    assert!(left.is_empty(), "English prose left: {left:#?}");
}

#[test]
fn a_chinese_comparison_whose_workloads_differ_says_why_in_chinese() {
    let s = Scratch::new("zh_compare_mismatch");
    let cand = s.path("cand");
    crate::common::copy_dir(&crate::common::fixture("ab/cand"), &cand);
    let manifest = cand.join("run.json");
    let mut m: serde_json::Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    m["workload"]["rate_per_s"] = 20.0.into();
    m["workload"]["streaming"] = false.into();
    std::fs::write(&manifest, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    let (md, json) = compare_in_chinese(&s, &crate::common::fixture("ab/base"), &cand);
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let gate = j["comparison"]["gates"].as_array().unwrap().iter().find(|g| g["name"] == "same_workload.arrival").unwrap();
    assert_eq!(gate["status"], "FAIL", "{gate}");
    assert!(gate["reason"].as_str().unwrap().starts_with("base poisson arrivals"), "the JSON keeps the English reason: {gate}");
    let md = std::fs::read_to_string(&md).unwrap().replace('\\', "");
    let row = md.lines().find(|l| l.starts_with("| same_workload.arrival")).expect("the arrival gate's row");
    assert!(row.contains("基线：泊松到达，每秒 10.0 个请求，流式；候选：泊松到达，每秒 20.0 个请求，非流式"), "{row}");
    let config = &j["runs"][0]["run"]["config"];
    let allowed: Vec<String> = ["engine", "hardware", "model"].iter().filter_map(|k| config[k].as_str().map(String::from)).collect();
    let left: Vec<String> = english_runs(&md).into_iter().filter(|r| !allowed.iter().any(|a| a.contains(r.as_str()))).collect();
    assert!(left.is_empty(), "English prose left in the comparison: {left:#?}");
}

#[test]
fn a_chinese_sweep_report_leaves_no_english_prose() {
    let s = Scratch::new("zh_sweep");
    let dir = s.path("sweep");
    for step in ["step-01", "step-02"] {
        run_ok(&["simulate", "--scenario", "steady", "--duration", "30s", "--out", dir.join(step).to_str().unwrap()]);
    }
    std::fs::write(dir.join("sweep.json"), r#"{"steps": [{"run": "step-01", "rate_per_s": 5}, {"run": "step-02", "rate_per_s": 10}]}"#).unwrap();
    let md = s.path("sweep.md");
    run_ok(&["report", dir.to_str().unwrap(), "--lang", "zh", "--format", "md", "--resamples", "200", "-o", md.to_str().unwrap()]);
    let md = std::fs::read_to_string(&md).unwrap().replace('\\', "");
    assert!(md.contains("共 2 档，给定速率 5.00 至 10.0 req/s。"), "{md}");
    let m: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("step-01/run.json")).unwrap()).unwrap();
    let allowed: Vec<String> = ["engine", "hardware", "model"].iter().filter_map(|k| m["config"][k].as_str().map(String::from)).collect();
    let left: Vec<String> = english_runs(&md).into_iter().filter(|r| !allowed.iter().any(|a| a.contains(r.as_str()))).collect();
    assert!(left.is_empty(), "English prose left in the sweep: {left:#?}");
}
