//! `credence report` through the real binary: PDFs read back with poppler (pdftotext,
//! pdftoppm; `.ci/run` installs them), Markdown and JSON, determinism, and untrusted text.

mod common;

use std::path::Path;
use std::process::Command;

use common::{Scratch, credence, fixture, stderr};
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

#[test]
fn comparison_report() {
    let s = Scratch::new("report_cmp");
    let pdf = s.path("cmp.pdf");
    let (b, c) = (fixture("ab/base"), fixture("ab/cand"));
    report(&["--base", b.to_str().unwrap(), "--cand", c.to_str().unwrap()], &pdf);
    let text = flat(&pdftotext(&pdf));
    for needle in ["Comparison", "Verdicts", "ttft_p50", "regression", "labels.effect", "Validity gates", "Base arm", "Candidate arm"] {
        assert!(text.contains(needle), "{needle} missing from the comparison PDF");
    }
    let v = json(&["--base", b.to_str().unwrap(), "--cand", c.to_str().unwrap()], &s, "cmp.json");
    assert_eq!(v["kind"], "comparison");
    assert_eq!(v["comparison"]["metrics"]["ttft_p50"]["verdict"], "regression");
    let md = s.path("cmp.md");
    report(&["--format", "md", "--base", b.to_str().unwrap(), "--cand", c.to_str().unwrap()], &md);
    let md = std::fs::read_to_string(md).unwrap();
    assert!(md.contains("**Credibility:") && md.contains("| ttft\\_p50 |") && md.contains("regression"), "{md}");
    let pages = s.path("pages");
    std::fs::create_dir_all(&pages).unwrap();
    assert!(render_pages(&pdf, &pages) >= 4);
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
    let data = credence::run::write::RunData {
        manifest: run.manifest,
        requests: run.requests,
        gpu: run.gpu,
        host: run.host,
        server: run.server,
        extra_files: Vec::new(),
    };
    credence::run::write::write_run(&dir, &data).unwrap();
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
