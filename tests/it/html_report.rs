//! `credence report -o report.html` through the real binary, and the page in a real browser:
//! Debian's headless Chromium (`.ci/run` installs it) loads the demo, a comparison and a
//! history, runs the page's self-test (`#selftest`: no console error, no network request,
//! every chart drawn, a drag across one timeline, as dispatched mouse events, zooms every
//! linked chart) and takes a screenshot whose pixels
//! are checked not to be blank.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::common::{Scratch, credence, fixture, stderr};
use serde_json::Value;

/// `credence ARGS… -o OUT`.
fn write(args: &[&str], out: &Path) {
    let mut all = args.to_vec();
    all.extend_from_slice(&["-o", out.to_str().unwrap()]);
    let o = credence(&all);
    assert!(o.status.success(), "credence {all:?}: {}", stderr(&o));
}

/// The JSON document the page carries.
fn page_data(html: &str) -> Value {
    let open = r#"<script type="application/json" id="credence-data">"#;
    let start = html.find(open).expect("the data element") + open.len();
    let end = start + html[start..].find("</script>").expect("its end");
    serde_json::from_str(&html[start..end]).expect("the page's data is JSON")
}

/// Nothing that could fetch: no external script, stylesheet, image or font, no URL in CSS.
fn assert_self_contained(html: &str) {
    for needle in ["<script src", "<link", "@import", "url(http", "src=\"http", "src='http"] {
        assert!(!html.contains(needle), "the page holds {needle:?}");
    }
    assert!(html.contains("Content-Security-Policy"), "the page forbids any network request");
}

fn chromium() -> Command {
    let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("chromium is needed; .ci/run installs Debian's chromium");
    let mut c = Command::new(path);
    c.args(["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--hide-scrollbars"]);
    c
}

fn url(page: &Path) -> String {
    format!("file://{}", page.canonicalize().unwrap().display())
}

/// The page's self-test, as Chromium leaves it in the DOM, and how long Chromium took.
fn self_test(page: &Path) -> (Value, f64) {
    let started = Instant::now();
    let o = chromium().args(["--virtual-time-budget=10000", "--dump-dom"]).arg(format!("{}#selftest", url(page))).output().expect("chromium runs");
    let seconds = started.elapsed().as_secs_f64();
    let dom = String::from_utf8_lossy(&o.stdout);
    let open = dom.find(r#"<pre id="credence-selftest">"#).unwrap_or_else(|| panic!("no self-test in the DOM of {}: {}", page.display(), stderr(&o)));
    let body = &dom[open..];
    let text = &body[body.find('>').unwrap() + 1..body.find("</pre>").unwrap()];
    let text = text.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    (serde_json::from_str(&text).unwrap_or_else(|e| panic!("self-test JSON {text:?}: {e}")), seconds)
}

/// A screenshot of the page; returns the share of pixels that differ from the first one.
fn screenshot(page: &Path, png_path: &Path) -> f64 {
    let o = chromium()
        .args(["--window-size=1280,2400", "--virtual-time-budget=10000"])
        .arg(format!("--screenshot={}", png_path.display()))
        .arg(url(page))
        .output()
        .expect("chromium runs");
    assert!(png_path.is_file(), "no screenshot of {}: {}", page.display(), stderr(&o));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png_path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    pixels.iter().filter(|p| **p != pixels[0]).count() as f64 / pixels.len() as f64
}

/// Loads `page` in Chromium and checks the self-test; returns its time to interactive (ms).
fn check_in_browser(page: &Path, shot: &Path) -> f64 {
    check_page(page, shot, true)
}

/// `check_in_browser`, for a page that may have no chart (an audit of summary numbers).
fn check_page(page: &Path, shot: &Path, with_charts: bool) -> f64 {
    let (t, wall_s) = self_test(page);
    assert_eq!(t["errors"], Value::Array(vec![]), "{}: errors in the browser: {t}", page.display());
    let charts = t["charts"].as_u64().unwrap();
    assert!(charts > 0 || !with_charts, "{}: no chart: {t}", page.display());
    assert_eq!(t["drawn"].as_u64(), Some(charts), "{}: every chart drawn: {t}", page.display());
    // A drag across the first timeline (dispatched mouse events) zooms every linked chart.
    assert_eq!(t["zoom_linked"], true, "{}: a zoom on one chart moves the others: {t}", page.display());
    assert!(t["linked_charts"].as_u64().unwrap() >= 4 || !with_charts, "{}: the charts are linked: {t}", page.display());
    let ready_ms = t["interactive_ms"].as_f64().unwrap();
    eprintln!(
        "{}: {} bytes, {charts} charts, interactive after {ready_ms:.0} ms (Chromium ran {wall_s:.1} s)",
        page.display(),
        std::fs::metadata(page).unwrap().len()
    );
    let changed = screenshot(page, shot);
    assert!(changed > 0.02, "{}: the screenshot is blank ({:.3} of the pixels differ)", page.display(), changed);
    ready_ms
}

#[test]
fn the_demo_page_is_one_file_with_the_pdfs_facts_and_works_in_chromium() {
    let s = Scratch::new("html-demo");
    let page = s.path("demo.html");
    write(&["report", "--demo", "--resamples", "499"], &page);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_self_contained(&html);
    let data = page_data(&html);
    assert_eq!(data["kind"], "report");
    // The same view as the PDF and the Markdown: the statement the Markdown prints is the page's.
    let md = s.path("demo.md");
    write(&["report", "--demo", "--resamples", "499"], &md);
    let statement = data["view"]["statement"].as_str().unwrap();
    assert!(
        !statement.is_empty() && std::fs::read_to_string(&md).unwrap().contains(statement.split_whitespace().take(6).collect::<Vec<_>>().join(" ").as_str())
    );
    let run = &data["report"]["runs"][0];
    let scatter = &run["scatter"];
    assert_eq!(scatter["total"], run["requests"]["total"], "the scatter counts every request");
    assert_eq!(scatter["send_s"].as_array().unwrap().len(), scatter["phase"].as_array().unwrap().len());
    let ready_ms = check_in_browser(&page, &s.path("demo.png"));
    assert!(ready_ms < 2000.0, "interactive after {ready_ms} ms");
    // The README's picture: page 1 down to the first timelines, at half scale.
    if let Some(dir) = std::env::var_os("CREDENCE_HTML_SHOT") {
        let shot = PathBuf::from(dir).join("html-report-demo.png");
        let o = chromium().args(["--window-size=1200,4200", "--force-device-scale-factor=0.5", "--virtual-time-budget=10000"]).arg(format!("--screenshot={}", shot.display())).arg(url(&page)).output().unwrap();
        assert!(o.status.success() && shot.is_file(), "{}", stderr(&o));
    }
}

#[test]
fn a_comparison_and_a_chinese_page_work_in_chromium() {
    let s = Scratch::new("html-compare");
    let (base, cand) = (s.path("base"), s.path("cand"));
    for (dir, seed) in [(&base, "1"), (&cand, "2")] {
        let o = credence(&["simulate", "--scenario", "steady", "--duration", "120s", "--rate", "10", "--seed", seed, "--out", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let page = s.path("compare.html");
    write(&["report", "--base", base.to_str().unwrap(), "--cand", cand.to_str().unwrap(), "--resamples", "499"], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    assert!(data["report"]["comparison"].is_object(), "the comparison is in the page's data");
    check_in_browser(&page, &s.path("compare.png"));
    let zh = s.path("zh.html");
    write(&["report", "--demo", "--lang", "zh", "--resamples", "499"], &zh);
    let html = std::fs::read_to_string(&zh).unwrap();
    assert!(html.contains(r#"<html lang="zh-Hans">"#));
    assert!(page_data(&html)["view"]["statement"].as_str().unwrap().chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "the statement is in Chinese");
    check_in_browser(&zh, &s.path("zh.png"));
    // No hanzi is tofu, whether or not the machine has a CJK font (this one has none): the page
    // embeds the catalog's characters, and the full common set when a title needs more.
    let titled = s.path("titled.html");
    write(&["report", "--demo", "--lang", "zh", "--resamples", "499", "--title", "昇腾 910B 推理压测（鲲鹏服务器）"], &titled);
    for (page, embedded) in [(&zh, 100_000..400_000), (&titled, 2_000_000..3_000_000)] {
        let html = std::fs::read_to_string(page).unwrap();
        let font = html.split("base64,").nth(1).map_or(0, |rest| rest.find(')').unwrap_or(0));
        assert!(embedded.contains(&font), "{}: {font} bytes of embedded font", page.display());
        let glyphs = &self_test(page).0["glyphs"];
        assert!(glyphs["hanzi"].as_u64().unwrap() > 100 && glyphs["tofu"] == 0, "{}: {glyphs}", page.display());
    }
    let (en, _) = self_test(&page);
    assert_eq!(en["glyphs"]["tofu"], 0, "{en}");
}

#[test]
fn a_history_page_draws_its_trends_in_chromium() {
    let s = Scratch::new("html-history");
    let mut runs = Vec::new();
    for seed in 1..=8 {
        let dir = s.path(&format!("night-{seed}"));
        let o =
            credence(&["simulate", "--scenario", "steady", "--duration", "60s", "--rate", "10", "--seed", &seed.to_string(), "--out", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        runs.push(dir.to_str().unwrap().to_string());
    }
    let page = s.path("history.html");
    let mut args = vec!["history", "--order", "given", "--resamples", "499"];
    args.extend(runs.iter().map(String::as_str));
    write(&args, &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    assert_eq!(data["kind"], "history");
    assert_eq!(data["history"]["runs"].as_array().map(Vec::len), Some(8));
    check_in_browser(&page, &s.path("history.png"));
}

#[test]
fn an_audit_page_shows_the_claims_in_chromium() {
    let s = Scratch::new("html-audit");
    let (runs, summary) = (fixture("samples/llmperf/leaderboard_individual_groq_70b.json"), fixture("samples/llmperf/leaderboard_summary_groq_70b.json"));
    let page = s.path("audit.html");
    write(&["audit", runs.to_str().unwrap(), summary.to_str().unwrap(), "--resamples", "499"], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    assert!(data["view"]["audit"]["claims"].as_array().is_some_and(|c| !c.is_empty()), "the audit's claims are in the page's view");
    // llmperf's per-request file has no timeline to draw: the page is its tables.
    check_page(&page, &s.path("audit.png"), false);
}
