//! Outputs pinned to committed copies: the analysis JSON of every fixture run and the reports
//! (PDF, Markdown, JSON) of the demo, the A/A runs, the A/B comparison, a capacity search, two
//! capacity searches compared and two audits, and the Chinese reports (PDF, Markdown) of the
//! demo, the A/A runs, the comparisons, the capacity search and an audit. A
//! refactor must leave them byte-identical; a deliberate change re-blesses them with
//! `CREDENCE_BLESS=1 cargo test --release --test it golden::` and shows up in the diff.
//!
//! PDFs are pinned by their SHA-256 (`tests/expected/pdf.sha256`) to keep the repository
//! small; their text and numbers are pinned by the JSON and Markdown beside them.


use std::path::PathBuf;

use crate::common::{Scratch, credence, fixture, repo, stderr};
use sha2::{Digest, Sha256};

fn expected(name: &str) -> PathBuf {
    repo().join("tests/expected").join(name)
}

fn bless() -> bool {
    std::env::var_os("CREDENCE_BLESS").is_some()
}

/// Compares `actual` with the committed file `name` (or writes it when blessing).
fn check_bytes(name: &str, actual: &[u8]) {
    let path = expected(name);
    if bless() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let want = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (bless with CREDENCE_BLESS=1)", path.display()));
    if want != actual {
        let (w, a) = (String::from_utf8_lossy(&want), String::from_utf8_lossy(actual));
        let line = w.lines().zip(a.lines()).position(|(x, y)| x != y).map_or(w.lines().count().min(a.lines().count()), |i| i);
        panic!(
            "{} differs from the committed output at line {}:\n  expected: {}\n  actual:   {}",
            path.display(),
            line + 1,
            w.lines().nth(line).unwrap_or("<end>"),
            a.lines().nth(line).unwrap_or("<end>")
        );
    }
}

fn run_ok(args: &[&str]) {
    let o = credence(args);
    assert!(o.status.success(), "credence {args:?} failed: {}", stderr(&o));
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

const RUNS: &[&str] = &[
    "demo",
    "scenarios/steady",
    "scenarios/warmup",
    "scenarios/thermal-throttle",
    "scenarios/power-cap",
    "scenarios/client-saturation",
    "scenarios/memory-pressure",
    "scenarios/foreign-process",
    "scenarios/no-steady-state",
    "scenarios/error-burst",
    "scenarios/ramp-down",
    "ab/base",
    "ab/cand",
    "aa/a1",
    "aa/a2",
    "aa/a3",
];

#[test]
fn analysis_json_of_every_fixture_run_is_unchanged() {
    let s = Scratch::new("golden_analysis");
    for run in RUNS {
        let out = s.path("analysis.json");
        run_ok(&["analyze", fixture(run).to_str().unwrap(), "--out", out.to_str().unwrap()]);
        check_bytes(&format!("analysis/{}.json", run.replace('/', "-")), &std::fs::read(&out).unwrap());
    }
}

/// The reports: (name, arguments before `-o`).
fn reports() -> Vec<(&'static str, Vec<String>)> {
    let f = |p: &str| fixture(p).display().to_string();
    vec![
        ("demo", vec![f("demo")]),
        ("aa", vec![f("aa/a1"), f("aa/a2"), f("aa/a3")]),
        ("ab", vec!["--base".into(), f("ab/base"), "--cand".into(), f("ab/cand")]),
        ("thermal-throttle", vec![f("scenarios/thermal-throttle")]),
        ("capacity", vec![f("capacity/base")]),
        ("capacity-ab", vec!["--base".into(), f("capacity/base"), "--cand".into(), f("capacity/cand")]),
    ]
}

fn audits() -> Vec<(&'static str, Vec<String>)> {
    let f = |p: &str| fixture(p).display().to_string();
    vec![
        ("audit-llmperf", vec![f("samples/llmperf/leaderboard_individual_groq_70b.json"), f("samples/llmperf/leaderboard_summary_groq_70b.json")]),
        (
            "audit-mlperf",
            vec![
                f("samples/mlperf_loadgen/llama2-70b-99_Server/mlperf_log_summary.txt"),
                f("samples/mlperf_loadgen/llama2-70b-99_Server/mlperf_log_detail.txt"),
            ],
        ),
    ]
}

#[test]
fn reports_are_unchanged() {
    let s = Scratch::new("golden_reports");
    let mut hashes = String::new();
    let f = |p: &str| fixture(p).display().to_string();
    let history = ("history", "history", vec![f("aa/a1"), f("aa/a2"), f("aa/a3"), f("ab/cand")]);
    let jobs = reports().into_iter().map(|(n, a)| (n, "report", a)).chain(audits().into_iter().map(|(n, a)| (n, "audit", a))).chain([history]);
    // Chinese: every kind of report once (a run, several runs, a comparison, an audit, a
    // history); the JSON is the same in every language.
    let chinese = ["demo", "aa", "ab", "audit-llmperf", "history", "capacity", "capacity-ab"];
    let jobs = jobs.flat_map(|(n, c, a)| {
        let zh = chinese.contains(&n).then(|| (format!("{n}.zh"), c, [a.clone(), vec!["--lang".into(), "zh".into()]].concat()));
        std::iter::once((n.to_string(), c, a)).chain(zh)
    });
    for (name, command, args) in jobs {
        // A history's JSON is `history --out`, covered by its own tests.
        let formats: &[(&str, &str)] =
            if name.ends_with(".zh") || command == "history" { &[("pdf", "pdf"), ("md", "md")] } else { &[("pdf", "pdf"), ("md", "md"), ("json", "json")] };
        for &(format, ext) in formats {
            let out = s.path(&format!("{name}.{ext}"));
            let mut full: Vec<&str> = vec![command];
            full.extend(args.iter().map(String::as_str));
            full.extend(["--format", format, "-o", out.to_str().unwrap()]);
            run_ok(&full);
            let bytes = std::fs::read(&out).unwrap();
            if ext == "pdf" {
                hashes.push_str(&format!("{}  {name}.pdf\n", sha256_hex(&bytes)));
            } else {
                check_bytes(&format!("reports/{name}.{ext}"), &bytes);
            }
        }
    }
    check_bytes("pdf.sha256", hashes.as_bytes());
}

/// `report` renders a saved analysis (`analyze --out`) without analyzing again: every committed
/// analysis reads back to the same JSON, and the reports rendered from saved analyses are the
/// committed reports of their runs, byte for byte.
#[test]
fn saved_analyses_render_the_reports_of_their_runs() {
    if bless() {
        return;
    }
    let saved = |run: &str| expected(&format!("analysis/{}.json", run.replace('/', "-")));
    for run in RUNS {
        let text = std::fs::read_to_string(saved(run)).unwrap();
        let analysis = credence::ops::saved::read(&saved(run)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(serde_json::to_string_pretty(&analysis).unwrap() + "\n", text, "{run}: the analysis does not round-trip");
    }
    let hashes = std::fs::read_to_string(expected("pdf.sha256")).unwrap();
    let s = Scratch::new("golden_saved");
    let cases = [("demo", vec!["demo"]), ("thermal-throttle", vec!["scenarios/thermal-throttle"]), ("aa", vec!["aa/a1", "aa/a2", "aa/a3"])];
    for (name, runs) in cases {
        let inputs: Vec<String> = runs.iter().map(|r| saved(r).display().to_string()).collect();
        for (format, ext) in [("pdf", "pdf"), ("md", "md")] {
            let out = s.path(&format!("{name}.{ext}"));
            let mut args: Vec<&str> = vec!["report"];
            args.extend(inputs.iter().map(String::as_str));
            args.extend(["--format", format, "-o", out.to_str().unwrap()]);
            run_ok(&args);
            let bytes = std::fs::read(&out).unwrap();
            if ext == "pdf" {
                let line = format!("{}  {name}.pdf", sha256_hex(&bytes));
                assert!(hashes.lines().any(|l| l == line), "{name}.pdf from saved analyses differs from the run's");
            } else {
                check_bytes(&format!("reports/{name}.md"), &bytes);
            }
        }
    }
}
