//! `credence report` through the real binary: PDFs read back with poppler (pdftotext,
//! pdftoppm; `.ci/run` installs them), Markdown and JSON, determinism, and untrusted text.


use std::path::Path;
use std::process::Command;

use crate::common::{Scratch, credence, fixture, stderr};
use serde_json::Value;

fn report(args: &[&str], out: &Path) {
    let mut all = vec!["report", "-o", out.to_str().unwrap(), "--resamples", "499"];
    all.extend_from_slice(args);
    let o = credence(&all);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn pdftotext(pdf: &Path) -> String {
    let o = Command::new("pdftotext").arg(pdf).arg("-").output().expect("pdftotext (poppler-utils) is needed; .ci/run installs it");
    assert!(o.status.success(), "pdftotext failed on {}", pdf.display());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The text of one page.
fn pdftotext_page(pdf: &Path, page: u32) -> String {
    let p = page.to_string();
    let o = Command::new("pdftotext").args(["-f", &p, "-l", &p]).arg(pdf).arg("-").output().expect("pdftotext (poppler-utils) is needed");
    assert!(o.status.success(), "pdftotext failed on {}", pdf.display());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Whitespace collapsed (the PDF wraps lines wherever it likes).
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Renders every page; returns how many.
fn render_pages(pdf: &Path, dir: &Path) -> usize {
    let prefix = dir.join("page");
    let o = Command::new("pdftoppm").args(["-r", "30", "-png"]).arg(pdf).arg(&prefix).output().expect("pdftoppm (poppler-utils) is needed");
    assert!(o.status.success(), "pdftoppm: {}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stderr.is_empty(), "pdftoppm complained: {}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_dir(dir).unwrap().filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with("page")).count()
}

fn json(args: &[&str], s: &Scratch, name: &str) -> Value {
    let out = s.path(name);
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    report(&all, &out);
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

fn interval_text(e: &Value) -> Option<String> {
    (e["status"] == "ok").then(|| {
        let (v, lo, hi) = (e["estimate"].as_f64().unwrap(), e["ci_low"].as_f64().unwrap(), e["ci_high"].as_f64().unwrap());
        let d = credence::report::format::decimals_for((hi - lo) / 2.0);
        format!("{v:.d$} [{lo:.d$}, {hi:.d$}]")
    })
}

#[test]
fn pdfs_carry_the_statement_and_the_json_numbers() {
    let s = Scratch::new("report");
    for name in ["demo", "scenarios/thermal-throttle", "scenarios/client-saturation"] {
        let dir = fixture(name);
        let pdf = s.path(&format!("{}.pdf", name.replace('/', "_")));
        report(&[dir.to_str().unwrap()], &pdf);
        let a = json(&[dir.to_str().unwrap()], &s, &format!("{}.json", name.replace('/', "_")));
        let text = flat(&pdftotext(&pdf));
        let statement = flat(a["credibility"]["statement"].as_str().unwrap());
        // pdftotext joins a word broken after a hyphen without it ("run-to-" + "run" reads "run-torun").
        let unhyphenated = |s: &str| s.replace('-', "");
        assert!(unhyphenated(&text).contains(&unhyphenated(&statement)), "{name}: the statement is not in the PDF:\n{statement}\n---\n{text}");
        assert!(text.contains(&format!("Credibility: {}", a["credibility"]["grade"].as_str().unwrap())), "{name}");
        for (m, p) in [("ttft", "p50"), ("tpot", "p50"), ("e2e", "p50")] {
            if let Some(t) = interval_text(&a["metrics"][m][p]) {
                assert!(text.contains(&t), "{name}: {m} {p} {t} missing from the PDF");
            }
        }
        let thr = interval_text(&a["throughput"]["requests_per_s"]).unwrap();
        assert!(text.contains(&thr), "{name}: throughput {thr} missing");
        for f in a["findings"].as_array().unwrap() {
            assert!(text.contains(f["title"].as_str().unwrap()), "{name}: finding {} missing", f["title"]);
        }
        for c in a["credibility"]["checks"].as_array().unwrap() {
            assert!(text.contains(c["name"].as_str().unwrap()), "{name}: check {} missing", c["name"]);
        }
        let pages = s.path(&format!("{}_pages", name.replace('/', "_")));
        std::fs::create_dir_all(&pages).unwrap();
        assert!(render_pages(&pdf, &pages) >= 4, "{name}: too few pages");
    }
}

/// How the report names a compared metric (the compare JSON's key).
fn metric_label(key: &str) -> &'static str {
    match key {
        "ttft_p50" => "P50 TTFT",
        "ttft_p99" => "P99 TTFT",
        "tpot_p50" => "P50 TPOT",
        "tpot_p99" => "P99 TPOT",
        "e2e_p50" => "P50 E2E",
        "e2e_p99" => "P99 E2E",
        "output_tokens_per_s" => "output tokens/s",
        "requests_per_s" => "requests/s",
        "error_rate" => "error rate",
        other => panic!("unexpected metric {other}"),
    }
}

fn is_latency(key: &str) -> bool {
    matches!(key.split('_').next(), Some("ttft" | "tpot" | "e2e"))
}

/// A relative change and its interval as the report writes it, from the compare JSON.
fn change_text(m: &Value) -> String {
    let p = |k: &str| format!("{:+.1} %", m["change"][k].as_f64().unwrap() * 100.0);
    format!("{} [{}, {}]", p("estimate"), p("ci_low"), p("ci_high"))
}

/// An arm's value and interval as the report writes it (digits from the narrower interval).
fn arm_text(m: &Value, arm: &str, unit: &str) -> String {
    let half = |k: &str| (m[k][1].as_f64().unwrap() - m[k][0].as_f64().unwrap()) / 2.0;
    let d = credence::report::format::decimals_for(half("base_ci").min(half("cand_ci")));
    let ci = &m[format!("{arm}_ci")];
    format!("{:.d$} [{:.d$}, {:.d$}] {unit}", m[arm].as_f64().unwrap(), ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap())
}

/// The Markdown and JSON reports of a comparison; checks the headline and the verdict table
/// against the compare JSON (issue 23) and returns (Markdown, report JSON).
fn comparison_md_agrees_with_json(s: &Scratch, base: &str, cand: &str) -> (String, Value) {
    let v = json(&["--base", base, "--cand", cand], s, "cmp.json");
    let md_path = s.path("cmp.md");
    report(&["--format", "md", "--base", base, "--cand", cand], &md_path);
    let md = std::fs::read_to_string(md_path).unwrap();
    let lines: Vec<&str> = md.lines().collect();
    assert!(lines[0].starts_with("# Comparison report"), "{md}");
    let headline = lines[2].replace('\\', "");
    let metrics = v["comparison"]["metrics"].as_object().unwrap();
    let mut decided = 0;
    for (key, m) in metrics {
        let (label, verdict) = (metric_label(key), m["verdict"].as_str().unwrap());
        if key != "error_rate" && matches!(verdict, "regression" | "improvement") {
            decided += 1;
            let base_to_cand = {
                let half = |k: &str| (m[k][1].as_f64().unwrap() - m[k][0].as_f64().unwrap()) / 2.0;
                let d = credence::report::format::decimals_for(half("base_ci").min(half("cand_ci")));
                format!("({:.d$} → {:.d$} ms)", m["base"].as_f64().unwrap(), m["cand"].as_f64().unwrap())
            };
            let tol = format!("±{:.1} %", m["tolerance"].as_f64().unwrap() * 100.0);
            let item = format!("{label} {} beyond {tol}", change_text(m));
            assert!(headline.contains(&item), "headline lacks {item}: {headline}");
            if is_latency(key) {
                assert!(headline.contains(&base_to_cand), "headline lacks {base_to_cand}: {headline}");
            }
        }
        // The verdict table: a row per metric with both arms' values and intervals.
        let at = lines.iter().position(|l| l.starts_with(&format!("| {label} |"))).unwrap_or_else(|| panic!("no row for {label}:\n{md}"));
        assert!(at < 30, "{label}'s row is line {}, beyond the first 30:\n{md}", at + 1);
        let row = lines[at].replace('\\', "");
        let unit = match key.as_str() {
            "output_tokens_per_s" => "tokens/s",
            "requests_per_s" => "requests/s",
            "error_rate" => "%",
            _ => "ms",
        };
        if key != "error_rate" {
            for arm in ["base", "cand"] {
                let want = arm_text(m, arm, unit);
                assert!(row.contains(&want), "{label}: the row lacks the {arm} value {want}: {row}");
            }
            assert!(row.contains(&change_text(m)), "{label}: {row}");
        }
        assert!(row.contains(verdict), "{label}: {row}");
    }
    let counts = |w: &str| metrics.values().filter(|m| m["verdict"] == w).count();
    assert!(headline.contains(&format!("{} inconclusive", counts("inconclusive"))), "{headline}");
    assert!(decided > 0, "the fixture pair should decide at least one metric");
    // The first 30 lines hold the headline and the whole table; the checks come later, folded.
    let top = lines[..30.min(lines.len())].join("\n");
    assert!(top.contains("| metric | base \\[95 % CI\\] | candidate \\[95 % CI\\] |"), "{top}");
    assert!(top.contains("Validity gates:"), "{top}");
    let checks_at = md.find("| check | status | reason |").unwrap();
    assert!(md[..checks_at].contains("<details>") && md[..checks_at].contains("| P50 TTFT |"), "{md}");
    (md, v)
}

#[test]
fn comparison_report_leads_with_the_verdict() {
    let s = Scratch::new("report_cmp");
    let (b, c) = (fixture("ab/base"), fixture("ab/cand"));
    let (b, c) = (b.to_str().unwrap(), c.to_str().unwrap());
    let (md, v) = comparison_md_agrees_with_json(&s, b, c);
    assert_eq!(v["kind"], "comparison");
    assert_eq!(v["comparison"]["metrics"]["ttft_p50"]["verdict"], "regression");
    assert!(md.lines().nth(2).unwrap().starts_with("Regression: P50 TTFT +9."), "{md}");
    // `compare --format md` prints the report's top part, for a CI job to post.
    let o = credence(&["compare", "--base", b, "--cand", c, "--resamples", "499", "--format", "md"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let top = String::from_utf8(o.stdout).unwrap();
    assert!(top.lines().count() <= 25 && md.starts_with(&top), "compare --format md:\n{top}\n---\nreport:\n{md}");
    // The PDF: page 1 carries the headline, the named table header, the verdicts and the
    // gates; the arms' checks come after the metrics.
    let pdf = s.path("cmp.pdf");
    report(&["--base", b, "--cand", c], &pdf);
    let text = flat(&pdftotext(&pdf));
    let page1 = flat(&pdftotext_page(&pdf, 1));
    let headline = flat(&md.lines().nth(2).unwrap().replace('\\', ""));
    assert!(page1.contains(&headline), "page 1 lacks the headline:\n{headline}\n---\n{page1}");
    // (pdftotext reads a table's columns in its own order: each header on its own.)
    for needle in [
        "base [95 % CI]",
        "candidate [95 % CI]",
        "change [95 % CI]",
        "tolerance",
        "verdict",
        "P50 TTFT",
        "output tokens/s",
        "regression",
        "equivalent",
        "Validity gates:",
        "Credibility: MEDIUM",
    ] {
        assert!(page1.contains(needle), "{needle} missing from page 1: {page1}");
    }
    assert!(!page1.contains("environment.clocks_locked"), "the arms' checks belong after the metrics: {page1}");
    for needle in ["Comparison details", "labels.effect", "Validity gates", "Credibility checks", "Base arm", "Candidate arm", "environment.clocks_locked"] {
        assert!(text.contains(needle), "{needle} missing from the comparison PDF");
    }
    assert!(text.find("Key metrics").unwrap() < text.find("Credibility checks").unwrap());
    let pages = s.path("pages");
    std::fs::create_dir_all(&pages).unwrap();
    assert!(render_pages(&pdf, &pages) >= 4);
}

#[test]
fn an_improvement_leads_the_headline_of_the_swapped_pair() {
    // A pair whose candidate is 20 % faster in TTFT. (The fixture pair swapped, -8.7 %, is
    // inconclusive with one run per arm since the interval carries run-to-run noise: ±4 % or
    // so, and the whole interval must lie beyond the 5 % tolerance.)
    let s = Scratch::new("report_cmp_swapped");
    let sim = |name: &str, extra: &[&str]| {
        let out = s.path(name);
        let mut args = vec!["simulate", "--scenario", "steady", "--duration", "300s", "--rate", "10", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = credence(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        out
    };
    let (b, c) = (sim("slow", &["--seed", "3", "--effect", "ttft=+25%"]), sim("fast", &["--seed", "4"]));
    let (md, v) = comparison_md_agrees_with_json(&s, b.to_str().unwrap(), c.to_str().unwrap());
    assert_eq!(v["comparison"]["metrics"]["ttft_p50"]["verdict"], "improvement");
    assert!(md.lines().nth(2).unwrap().starts_with("Improvements: P50 TTFT -"), "{md}");
}

#[test]
fn reports_are_byte_identical_and_the_demo_is_built_in() {
    let s = Scratch::new("report_same");
    let (p1, p2) = (s.path("a.pdf"), s.path("b.pdf"));
    report(&["--demo"], &p1);
    report(&["--demo"], &p2);
    assert_eq!(std::fs::read(&p1).unwrap(), std::fs::read(&p2).unwrap(), "two PDFs of the same input differ");
    // The built-in demo is the bundled fixture: the same analysis, byte for byte.
    let (j1, j2) = (s.path("demo.json"), s.path("fixture.json"));
    report(&["--format", "json", "--demo"], &j1);
    report(&["--format", "json", fixture("demo").to_str().unwrap()], &j2);
    assert_eq!(std::fs::read(&j1).unwrap(), std::fs::read(&j2).unwrap(), "--demo differs from fixtures/demo");
    let text = pdftotext(&p1);
    assert!(text.contains("2026-06-01"), "the report date comes from the run");
}

/// A run whose model name, labels and error messages are typst markup and code.
#[test]
fn untrusted_text_is_shown_literally() {
    let s = Scratch::new("report_inject");
    let evil = r#"#read("/etc/passwd") ] $x$ #import "@preview/evil:0.1.0": * #{panic("boom")} <label> @ref"#;
    let mut run = credence::run::load(&fixture("scenarios/error-burst")).unwrap();
    run.manifest.config.model = Some(evil.to_string());
    run.manifest.labels.insert("note".into(), evil.to_string());
    run.manifest.run_id = "inject".into();
    let n = run.requests.num_rows();
    let status: Vec<Option<String>> = {
        use arrow_array::Array;
        let st = run.requests.strings("status").unwrap();
        (0..n).map(|i| (!st.is_null(i) && st.value(i) == "error").then(|| evil.to_string())).collect()
    };
    run.requests.replace_column("error_message", credence::run::table::utf8_column(status.iter().map(|x| x.as_deref()))).unwrap();
    let dir = s.path("run");
    credence::run::write::write_run(&dir, &run.into()).unwrap();
    let pdf = s.path("inject.pdf");
    report(&[dir.to_str().unwrap()], &pdf);
    let text = flat(&pdftotext(&pdf));
    assert!(text.contains(r#"#read("/etc/passwd")"#), "the markup is not shown literally");
    assert!(text.contains(r#"#{panic("boom")}"#) && text.contains("$x$"), "the code is not shown literally");
    assert!(!text.contains("root:"), "a file was read");
    let md = s.path("inject.md");
    report(&["--format", "md", dir.to_str().unwrap()], &md);
    let md = std::fs::read_to_string(md).unwrap();
    assert!(md.contains(r#"\#read("/etc/passwd")"#) && !md.contains(r#" #read("#), "Markdown escapes the markup:\n{md}");
}

#[test]
fn bad_input_exits_2() {
    let s = Scratch::new("report_bad");
    let out = s.path("x.pdf");
    let not_analysis = s.path("bench-summary.json");
    std::fs::write(&not_analysis, br#"{"ttft_p50_ms": 41.2}"#).unwrap();
    let o = credence(&["report", not_analysis.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Not an analysis (it has no `run`), and no benchmark tool's format either: one error says both.
    let err = stderr(&o);
    assert!(err.contains("bench-summary.json: not a run directory") && err.contains("an analysis saved by `credence analyze --out`"), "{err}");
    assert!(err.contains("looks like: a JSON file of no known benchmark format"), "{err}");
    for args in [
        vec![s.path("missing").to_str().unwrap().to_string()],
        vec!["--demo".into(), "--date".into(), "yesterday".into()],
        vec!["--base".into(), fixture("ab/base").to_str().unwrap().into()],
        vec![],
    ] {
        let mut all: Vec<&str> = vec!["report", "-o", out.to_str().unwrap()];
        all.extend(args.iter().map(String::as_str));
        let o = credence(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!out.exists());
    }
}

/// A command in a sentence (`nvidia-smi -lgc` in a finding's action) is set in the monospace
/// font, in both languages; its backticks never reach the page.
#[test]
fn code_in_sentences_is_set_without_backticks() {
    let s = Scratch::new("report_code_spans");
    for lang in ["en", "zh"] {
        let pdf = s.path(&format!("demo-{lang}.pdf"));
        report(&[fixture("demo").to_str().unwrap(), "--lang", lang], &pdf);
        let text = flat(&pdftotext(&pdf));
        assert!(text.contains("nvidia-smi -lgc"), "{lang}: the action's command is on the page");
        assert!(!text.contains('`'), "{lang}: a backtick reached the page");
    }
}

/// `-o -` is standard output, as the shell's tools take it: the report is piped, and no file
/// named `-` appears.
#[test]
fn a_dash_writes_the_report_to_standard_output() {
    let s = Scratch::new("report-stdout");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_credence"))
        .args(["report", fixture("demo").to_str().unwrap(), "--format", "md", "-o", "-"])
        .current_dir(s.path(""))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("# "), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(!s.path("-").exists(), "a file named - was written");
}
