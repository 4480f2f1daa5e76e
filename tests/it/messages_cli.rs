//! Page 1 says the same thing in every language. The statement and each check's reason are
//! messages that each language renders, so in the English and the Chinese Markdown of every
//! golden report, and of the fault scenarios, the statement and each check carry the same
//! numbers; the Chinese leaves no English prose behind (a three-run report once showed "wide
//! or unbounded intervals" as a run's name); and a report rendered from a saved analysis words
//! its checks exactly as one rendered from the run.

use crate::common::{Scratch, credence, fixture, numbers, stderr};

fn report_md(args: &[String], lang: &str, s: &Scratch) -> String {
    let out = s.path(&format!("report-{lang}.md"));
    let mut all: Vec<&str> = vec!["report"];
    all.extend(args.iter().map(String::as_str));
    all.extend(["--format", "md", "--lang", lang, "-o", out.to_str().unwrap()]);
    let o = credence(&all);
    assert!(o.status.success(), "credence {all:?}: {}", stderr(&o));
    std::fs::read_to_string(out).unwrap()
}

/// The credibility checks' rows, (name, reason), of every check table: the rows under a
/// `| check | status | reason |` header (`| 检查项 | 状态 | 原因 |` in Chinese).
fn check_rows(md: &str) -> Vec<(String, String)> {
    let cells = |line: &str| -> Vec<String> { line.trim().trim_matches('|').split(" | ").map(|c| c.trim().replace('\\', "")).collect() };
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in md.lines() {
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let c = cells(line);
        if c.len() == 3 && (c[0] == "check" || c[0] == "检查项") {
            in_table = true;
        } else if in_table && !c[0].starts_with("---") && c.len() == 3 {
            rows.push((c[0].clone(), c[2].clone()));
        }
    }
    rows
}

/// Page 1's statement: the paragraph after the grade line.
fn statement(md: &str) -> String {
    let lines: Vec<&str> = md.lines().collect();
    let grade = lines.iter().position(|l| l.starts_with("**Credibility") || l.starts_with("**可信度")).expect("a grade line");
    lines[grade + 2].replace('\\', "")
}

/// Two English words in a row: prose that was not worded in Chinese.
fn english_prose(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split(' ').collect();
    let lower_word = |w: &str| w.len() >= 2 && w.chars().all(|c| c.is_ascii_lowercase());
    words.windows(2).find(|w| lower_word(w[0]) && lower_word(w[1])).map(|w| w.join(" "))
}

fn cases() -> Vec<(&'static str, Vec<String>)> {
    let f = |p: &str| fixture(p).display().to_string();
    let mut cases = vec![
        ("demo", vec![f("demo")]),
        ("aa", vec![f("aa/a1"), f("aa/a2"), f("aa/a3")]),
        ("ab", vec!["--base".into(), f("ab/base"), "--cand".into(), f("ab/cand")]),
    ];
    for scenario in ["thermal-throttle", "power-cap", "client-saturation", "foreign-process", "no-steady-state", "error-burst", "memory-pressure"] {
        cases.push((scenario, vec![f(&format!("scenarios/{scenario}"))]));
    }
    cases
}

#[test]
fn every_check_carries_the_same_numbers_in_english_and_chinese() {
    let s = Scratch::new("messages_numbers");
    let mut checked = 0;
    for (name, args) in cases() {
        let (en_md, zh_md) = (report_md(&args, "en", &s), report_md(&args, "zh", &s));
        let (en, zh) = (check_rows(&en_md), check_rows(&zh_md));
        assert!(en.len() >= 18, "{name}: only {} check rows found in the English report", en.len());
        assert_eq!(en.iter().map(|r| &r.0).collect::<Vec<_>>(), zh.iter().map(|r| &r.0).collect::<Vec<_>>(), "{name}: the same checks");
        if !args.contains(&"--base".to_string()) {
            let (en_st, zh_st) = (statement(&en_md), statement(&zh_md));
            assert_eq!(numbers(&en_st), numbers(&zh_st), "{name}: page 1 states the same numbers\n  en: {en_st}\n  zh: {zh_st}");
            assert!(english_prose(&zh_st).is_none(), "{name}: English prose {:?} in the statement {zh_st}", english_prose(&zh_st));
        }
        for ((check, en), (_, zh)) in en.iter().zip(&zh) {
            assert_eq!(numbers(en), numbers(zh), "{name}, {check}: the same numbers\n  en: {en}\n  zh: {zh}");
            assert!(english_prose(zh).is_none(), "{name}, {check}: English prose {:?} in {zh}", english_prose(zh));
            checked += 1;
        }
    }
    assert!(checked >= 190, "only {checked} checks compared");
}

#[test]
fn a_report_from_a_saved_analysis_words_its_checks_as_one_from_the_run() {
    let s = Scratch::new("messages_saved");
    let saved = s.path("demo.json");
    let o = credence(&["analyze", fixture("demo").to_str().unwrap(), "--out", saved.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    for lang in ["en", "zh"] {
        let from_run = check_rows(&report_md(&[fixture("demo").display().to_string()], lang, &s));
        let from_saved = check_rows(&report_md(&[saved.display().to_string()], lang, &s));
        assert!(!from_run.is_empty());
        assert_eq!(from_run, from_saved, "{lang}");
    }
}

#[test]
fn the_number_scanner_and_the_prose_finder() {
    assert_eq!(numbers("TTFT design effect 3.1: effective n 1582 of 4883."), ["1582", "3.1", "4883"]);
    assert_eq!(english_prose("置信区间过宽或无界：P99 TTFT ±9.8 %"), None);
    assert_eq!(english_prose("wide or unbounded intervals：置信区间"), Some("wide or".into()));
}

/// The Markdown of `command args` in `lang` (`-o` given last).
fn markdown_of(command: &str, args: &[String], lang: &str, s: &Scratch) -> String {
    let out = s.path(&format!("{command}-{lang}.md"));
    let mut all: Vec<&str> = vec![command];
    all.extend(args.iter().map(String::as_str));
    all.extend(["--format", "md", "--lang", lang, "-o", out.to_str().unwrap()]);
    let o = credence(&all);
    assert!(o.status.success(), "credence {all:?}: {}", stderr(&o));
    std::fs::read_to_string(out).unwrap()
}

/// The view is built once per language from the same fields, so a whole report (page 1, the
/// comparison's headline and verdicts, every check, finding, table and appendix row) carries
/// the same multiset of numbers in English and in Chinese: a sentence one language dropped or
/// added (the missing "Excluded 85 s" and "at least 61037 / 44282 requests per arm")
/// shows up here. Reports, a comparison, an audit and a history.
#[test]
fn the_whole_report_carries_the_same_numbers_in_english_and_chinese() {
    let s = Scratch::new("messages_whole");
    let f = |p: &str| fixture(p).display().to_string();
    let mut documents: Vec<(String, &str, Vec<String>)> = cases().into_iter().map(|(name, args)| (name.to_string(), "report", args)).collect();
    let llmperf = |k: &str| f(&format!("samples/llmperf/leaderboard_{k}_groq_70b.json"));
    documents.push(("audit llmperf".into(), "audit", vec![llmperf("individual"), llmperf("summary")]));
    documents.push(("history".into(), "history", vec![f("aa/a1"), f("aa/a2"), f("aa/a3"), f("ab/cand")]));
    for (name, command, args) in documents {
        let (en, zh) = (markdown_of(command, &args, "en", &s), markdown_of(command, &args, "zh", &s));
        let (en_numbers, zh_numbers) = (numbers(&en), numbers(&zh));
        assert!(en_numbers.len() > 30, "{name}: only {} numbers in the English Markdown", en_numbers.len());
        assert_eq!(en_numbers, zh_numbers, "{name}: the same numbers in English and Chinese");
    }
}
