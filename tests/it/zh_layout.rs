//! The PDFs' layout in both languages, read back with poppler: no number is parted from its
//! unit across a line break, "数据不足" (insufficient data) is never split, no word runs past
//! the page's right margin (a cell wider than its table), no character is a replacement mark,
//! and a Chinese document takes at most one page more than the English. Run over the demo, a
//! comparison, the audit with the longest real claim keys and a history (the longest
//! fingerprints and start times).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Scratch, credence, fixture, stderr};

/// The documents: (name, arguments before `--lang` and `-o`).
fn documents() -> Vec<(&'static str, Vec<String>)> {
    let f = |p: &str| fixture(p).display().to_string();
    vec![
        ("demo", vec!["report".into(), f("demo")]),
        ("comparison", vec!["report".into(), "--base".into(), f("ab/base"), "--cand".into(), f("ab/cand")]),
        ("audit", vec!["audit".into(), f("samples/llmperf/leaderboard_individual_groq_70b.json"), f("samples/llmperf/leaderboard_summary_groq_70b.json")]),
        ("history", vec!["history".into(), f("aa/a1"), f("aa/a2"), f("aa/a3"), f("ab/cand"), "--format".into(), "pdf".into()]),
    ]
}

fn poppler(tool: &str, args: &[&str], pdf: &Path) -> String {
    let o = Command::new(tool).args(args).arg(pdf).arg("-").output().unwrap_or_else(|_| panic!("{tool} (poppler-utils) is needed; .ci/run installs it"));
    assert!(o.status.success(), "{tool} failed on {}", pdf.display());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn pages(pdf: &Path) -> usize {
    let info = Command::new("pdfinfo").arg(pdf).output().expect("pdfinfo (poppler-utils)");
    let text = String::from_utf8_lossy(&info.stdout).into_owned();
    text.lines().find_map(|l| l.strip_prefix("Pages:")).and_then(|n| n.trim().parse().ok()).unwrap_or(0)
}

/// Breaks that part what belongs together, in the text's own order (`pdftotext -raw`): a line
/// that ends in a digit and a next one that opens with a unit, a rate's unit split at its
/// slash, and "数据不足" in two lines.
fn torn(raw: &str) -> Vec<String> {
    let lines: Vec<&str> = raw.lines().map(str::trim).collect();
    let units = ["%", "ms", "pp", "s", "req/s", "tokens/s", "°C", "MHz", "W", "GiB"];
    let mut out = Vec::new();
    for pair in lines.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let unit = b.split(|c: char| c.is_whitespace() || "，。；）]、,".contains(c)).next().unwrap_or("");
        if a.ends_with(|c: char| c.is_ascii_digit()) && units.contains(&unit) {
            out.push(format!("number | unit: {a:?} / {b:?}"));
        }
        if a.ends_with("req/") || a.ends_with("tokens/") {
            out.push(format!("rate: {a:?} / {b:?}"));
        }
        for (head, tail) in [("数", "据不足"), ("数据", "不足"), ("数据不", "足")] {
            if a.ends_with(head) && b.starts_with(tail) {
                out.push(format!("数据不足: {a:?} / {b:?}"));
            }
        }
    }
    out
}

/// Words whose right edge is past the page's right margin (1.5 cm), from `pdftotext -bbox`.
fn past_the_margin(bbox: &str) -> Vec<String> {
    let attr = |tag: &str, name: &str| -> f64 {
        let at = tag.find(&format!("{name}=\"")).map(|i| i + name.len() + 2).unwrap_or(0);
        tag[at..].split('"').next().and_then(|v| v.parse().ok()).unwrap_or(0.0)
    };
    let mut width = f64::INFINITY;
    let mut out = Vec::new();
    for tag in bbox.split('<').filter(|t| t.starts_with("page ") || t.starts_with("word ")) {
        if tag.starts_with("page ") {
            width = attr(tag, "width");
        } else if attr(tag, "xMax") > width - 42.5 + 2.0 {
            out.push(tag.split('>').nth(1).unwrap_or("").to_string());
        }
    }
    out
}

fn render(dir: &Scratch, name: &str, args: &[String], lang: &str) -> PathBuf {
    let pdf = dir.path(&format!("{name}.{lang}.pdf"));
    let mut all: Vec<&str> = args.iter().map(String::as_str).collect();
    all.extend(["--lang", lang, "-o", pdf.to_str().unwrap()]);
    let o = credence(&all);
    assert!(o.status.success(), "credence {all:?}: {}", stderr(&o));
    pdf
}

#[test]
fn chinese_and_english_pdfs_keep_numbers_with_units_terms_whole_and_cells_inside_the_page() {
    let s = Scratch::new("zh_layout");
    for (name, args) in documents() {
        let mut page_counts = Vec::new();
        for lang in ["en", "zh"] {
            let pdf = render(&s, name, &args, lang);
            let raw = poppler("pdftotext", &["-raw"], &pdf);
            assert!(!raw.contains('\u{fffd}'), "{name}.{lang}: a replacement mark");
            let torn = torn(&raw);
            assert!(torn.is_empty(), "{name}.{lang}: {torn:#?}");
            let outside = past_the_margin(&poppler("pdftotext", &["-bbox"], &pdf));
            assert!(outside.is_empty(), "{name}.{lang}: past the right margin: {outside:?}");
            page_counts.push(pages(&pdf));
        }
        assert!(page_counts[1] <= page_counts[0] + 1, "{name}: {} pages in Chinese against {} in English", page_counts[1], page_counts[0]);
    }
}

#[test]
fn the_layout_checks_can_fail() {
    assert_eq!(torn("P99 TTFT 42.0\nms 以上\n~1072（≥ 798，数据\n不足）\nreq/\ns").len(), 3);
    assert!(torn("共 12 个请求\n数据不足的格").is_empty());
    let bbox = r#"<page width="595.0" height="842.0"><word xMin="40" xMax="300">fits</word><word xMin="500" xMax="590">9d6cec3ef5b4aaaa</word></page>"#;
    assert_eq!(past_the_margin(bbox), vec!["9d6cec3ef5b4aaaa".to_string()]);
}
