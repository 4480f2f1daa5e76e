//! Capacity at an SLO as a user finds it (issue 60): `simulate --find-capacity` searches the
//! simulated engine (16 batch slots) through the same search, monitor and estimate as `bench`;
//! `report` leads with the capacity; two searches, the second with a known +30 % throughput
//! effect, compare with a verdict in `compare` (exit 3 on a regression with `--fail-on`) and
//! in every report format. Against `mock-server`, whose capacity is exact, the search is the
//! ignored `a_bench_search_brackets_the_mocks_capacity` (minutes of wall time).

use std::path::Path;

use crate::common::{MockProcess, Scratch, credence, stderr, stdout};
use credence::run::json_schema::check;
use serde_json::{Value, json};

const SLO: &str = "ttft_p90=500ms";

/// A simulated search from 2 requests/s; `extra` adds flags (an effect, another seed).
fn search(out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["simulate", "--scenario", "steady", "--find-capacity", "--slo", SLO, "--rate", "2", "--max-batch", "16", "--output-median", "64"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    credence(&args)
}

/// `schemas/capacity.schema.json`, or one of its definitions.
fn schema(def: Option<&str>) -> Value {
    let root: Value = serde_json::from_str(&std::fs::read_to_string(crate::common::repo().join("schemas/capacity.schema.json")).unwrap()).unwrap();
    match def {
        Some(name) => json!({"$ref": format!("#/$defs/{name}"), "$defs": root["$defs"].clone()}),
        None => root,
    }
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

/// A search ends with the capacity and its two-sided interval in `capacity.json`, every step a
/// run that `validate` accepts, and `report` leads with the capacity in each format.
#[test]
fn a_search_finds_a_capacity_and_the_report_leads_with_it() {
    let s = Scratch::new("capacity_search");
    let dir = s.path("base");
    let o = search(&dir, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("Capacity at P90 TTFT ≤ 500 ms: "), "{}", stderr(&o));
    let c = json(&dir.join("capacity.json"));
    let violations = check(&schema(None), &c);
    assert!(violations.is_empty(), "capacity.json violates schemas/capacity.schema.json:\n{}", violations.join("\n"));
    assert_eq!(c["kind"], "credence capacity");
    let cap = &c["capacity"];
    assert_eq!(cap["finding"], "found", "{cap}");
    let e = &cap["capacity"];
    let (v, lo, hi) = (e["estimate"].as_f64().unwrap(), e["ci_low"].as_f64().unwrap(), e["ci_high"].as_f64().unwrap());
    assert!(lo < v && v < hi && hi / lo < 1.5, "{e}");
    assert_eq!(e["method"], "curve_inversion");
    for step in cap["steps"].as_array().unwrap() {
        let run = dir.join(step["run"].as_str().unwrap());
        assert!(credence(&["validate", run.to_str().unwrap()]).status.success(), "{}", run.display());
    }
    // The same seed, the same search: byte-identical files.
    let again = s.path("again");
    assert!(search(&again, &[]).status.success());
    assert_eq!(std::fs::read(dir.join("capacity.json")).unwrap(), std::fs::read(again.join("capacity.json")).unwrap());
    let md = s.path("base.md");
    let o = credence(&["report", dir.to_str().unwrap(), "--out", md.to_str().unwrap(), "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&md).unwrap();
    let first = text.lines().find(|l| l.starts_with("**")).unwrap();
    assert!(first.starts_with("**Capacity at P90 TTFT ≤ 500 ms: ") && first.contains("limited by P90 TTFT"), "{first}");
    let out = s.path("base.json");
    assert!(credence(&["report", dir.to_str().unwrap(), "--out", out.to_str().unwrap(), "--resamples", "499"]).status.success());
    let r = json(&out);
    assert_eq!(r["kind"], "capacity");
    assert_eq!(r["capacity"]["capacity"]["estimate"], cap["capacity"]["estimate"], "the report recomputes the same capacity from the runs");
}

/// The candidate serves 30 % faster (the simulator's `throughput` effect): its capacity is an
/// improvement beyond ±5 %; swapped, a regression, and `--fail-on regression` exits 3. The
/// report of the pair leads with the change in English and Chinese.
#[test]
fn two_searches_compare_with_a_verdict() {
    let s = Scratch::new("capacity_compare");
    let (base, cand) = (s.path("base"), s.path("cand"));
    assert!(search(&base, &[]).status.success());
    assert!(search(&cand, &["--effect", "throughput=+30%"]).status.success());
    let out = s.path("cmp.json");
    let o = credence(&["compare", "--base", base.to_str().unwrap(), "--cand", cand.to_str().unwrap(), "--fail-on", "regression", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("Capacity at P90 TTFT ≤ 500 ms: +"), "{}", stdout(&o));
    assert!(stdout(&o).contains("an improvement beyond ±5 %"), "{}", stdout(&o));
    let c = json(&out);
    let violations = check(&schema(Some("capacity_comparison")), &c);
    assert!(violations.is_empty(), "compare --out violates $defs.capacity_comparison:\n{}", violations.join("\n"));
    assert_eq!(c["verdict"], "improvement", "{c}");
    assert_eq!(c["change"]["method"], "log_ratio");
    assert!(c["change"]["ci_low"].as_f64().unwrap() > 0.05, "{}", c["change"]);

    let o = credence(&["compare", "--base", cand.to_str().unwrap(), "--cand", base.to_str().unwrap(), "--fail-on", "regression"]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(stdout(&o).contains("a regression beyond ±5 %"), "{}", stdout(&o));

    for (file, lang, words) in [("cmp.md", "en", "an improvement beyond ±5 %"), ("cmp-zh.md", "zh", "提升，超出 ±5 %"), ("cmp.html", "en", "capacity_comparison")] {
        let path = s.path(file);
        let o = credence(&["report", "--base", base.to_str().unwrap(), "--cand", cand.to_str().unwrap(), "--lang", lang, "--out", path.to_str().unwrap(), "--resamples", "499"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(words), "{file}:\n{}", &text[..text.len().min(2000)]);
    }
}

/// A search whose objective fails at its lowest load ends "below the lowest load" (the search
/// ran: exit 0, `finding` says what it found);
/// a search without objectives, a precision outside its range, or one beside --until is exit 2
/// before any load.
#[test]
fn a_search_without_a_capacity_or_with_bad_flags_says_so() {
    let s = Scratch::new("capacity_flags");
    let o = credence(&["simulate", "--scenario", "steady", "--find-capacity", "--slo", "ttft_p90=1ms", "--rate", "2", "--max-batch", "16", "--output-median", "64", "--out", s.path("low").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("below the lowest load tried"), "{}", stderr(&o));
    assert_eq!(json(&s.path("low").join("capacity.json"))["capacity"]["finding"], "below_lowest");

    let bad: [(&[&str], &str); 3] = [
        (&["simulate", "--scenario", "steady", "--find-capacity"], "--find-capacity needs --slo SPEC"),
        (&["simulate", "--scenario", "steady", "--find-capacity", "--slo", SLO, "--precision", "0%"], "--precision \"0%\""),
        (&["bench", "--url", "http://127.0.0.1:1", "--model", "m", "--find-capacity", "--slo", SLO, "--until", "ttft_p50=3%"], "drop --until"),
    ];
    for (i, (args, words)) in bad.iter().enumerate() {
        let out = s.path(&format!("bad-{i}"));
        let mut args = args.to_vec();
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let o = credence(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

/// Against the mock engine (4 slots, 20 requests/s at most), a search with fixed 50-s steps
/// from 8 requests/s: the steps past 20/s are overloaded, the saturation throughput is the
/// mock's, and the capacity at P90 TTFT ≤ 300 ms lies below it.
#[test]
#[ignore = "about 7 minutes of wall time against mock-server; run with --ignored"]
fn a_bench_search_brackets_the_mocks_capacity() {
    let mock = MockProcess::start(&["--max-batch", "4", "--step-ms", "10", "--step-ms-per-seq", "2.5", "--output-tokens", "10"]);
    let s = Scratch::new("capacity_mock");
    let dir = s.path("search");
    let args = ["bench", "--url", mock.url.as_str(), "--model", "m", "--timeout", "10s", "--find-capacity", "--slo", "ttft_p90=300ms", "--rate", "8"];
    let mut args = args.to_vec();
    args.extend_from_slice(&["--duration", "50s", "--precision", "20%", "--out", dir.to_str().unwrap()]);
    let o = credence(&args);
    eprintln!("{}", stderr(&o));
    let c = json(&dir.join("capacity.json"));
    let cap = &c["capacity"];
    let saturation = cap["saturation"]["estimate"].as_f64().unwrap();
    assert!((saturation / 20.0 - 1.0).abs() < 0.05, "saturation {saturation}/s against the mock's 20/s");
    let capacity = cap["capacity"]["estimate"].as_f64().unwrap();
    assert!(capacity < 20.0 && capacity > 10.0, "{cap}");
}

/// A rate sweep of simulated runs (4 to 20 requests/s, 3 minutes each) under `dir`, linked by
/// `sweep.json` as `bench --sweep` links its steps.
fn sweep(dir: &Path, extra: &[&str]) {
    let mut steps = Vec::new();
    for rate in ["4", "8", "12", "16", "20"] {
        let name = format!("step-rate-{rate}");
        let mut args = vec!["simulate", "--scenario", "steady", "--rate", rate, "--duration", "180s", "--max-batch", "16", "--output-median", "64"];
        args.extend_from_slice(extra);
        let out = dir.join(&name);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let o = credence(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        steps.push(json!({"run": name, "rate_per_s": rate.parse::<f64>().unwrap()}));
    }
    std::fs::write(dir.join("sweep.json"), json!({"parameter": "rate", "steps": steps}).to_string()).unwrap();
}

/// Two sweeps read as searches with `--slo`: `report SWEEP --slo` leads with the sweep's
/// capacity, and `compare --slo` compares the two capacities; without `--slo` a sweep has no
/// objectives to read one against, and `--slo` on plain runs is refused (exit 2).
#[test]
fn two_sweeps_compare_their_capacities_at_the_objectives() {
    let s = Scratch::new("capacity_sweeps");
    let (base, cand) = (s.path("base"), s.path("cand"));
    sweep(&base, &[]);
    sweep(&cand, &["--effect", "throughput=+30%"]);
    let md = s.path("base.md");
    let o = credence(&["report", base.to_str().unwrap(), "--slo", SLO, "--out", md.to_str().unwrap(), "--resamples", "499"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("**Capacity at P90 TTFT ≤ 500 ms: "), "{}", &text[..text.len().min(1500)]);
    let out = s.path("cmp.json");
    let o = credence(&["compare", "--base", base.to_str().unwrap(), "--cand", cand.to_str().unwrap(), "--slo", SLO, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c = json(&out);
    assert_eq!(c["base"]["slo"], "ttft_p90=500ms", "{}", c["base"]["slo"]);
    assert!(["improvement", "undecided"].contains(&c["verdict"].as_str().unwrap()), "{}", stdout(&o));
    assert!(c["change"]["estimate"].as_f64().unwrap() > 0.1, "{}", c["change"]);

    let o = credence(&["compare", "--base", base.join("step-rate-4").to_str().unwrap(), "--cand", cand.join("step-rate-4").to_str().unwrap(), "--slo", SLO]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--slo compares capacities"), "{}", stderr(&o));
}

/// vLLM's `--goodput ttft:500` claim, audited: without objectives credence says it needs them;
/// with `--slo ttft_p99=500ms` (the same per-request limit) its own goodput, with an interval,
/// stands beside the claim and agrees with it within a few percent (the file is a real vLLM
/// 0.33.0 result against the engine mock, `fixtures/peers/capacity/regenerate.sh`).
#[test]
fn a_vllm_goodput_claim_is_audited_beside_credences_goodput() {
    let dir = crate::common::fixture("peers/capacity/vllm-0.33.0/goodput-detailed-rate-16");
    let file = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).find(|p| p.file_name().unwrap().to_string_lossy().starts_with("openai-")).unwrap();
    let s = Scratch::new("capacity_goodput_audit");
    let claim = |slo: Option<&str>| {
        let out = s.path("audit.json");
        let mut args = vec!["audit", file.to_str().unwrap(), "-o", out.to_str().unwrap(), "--format", "json", "--resamples", "499"];
        if let Some(spec) = slo {
            args.extend_from_slice(&["--slo", spec]);
        }
        let o = credence(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let v = json(&out);
        v["audit"]["claims"].as_array().unwrap().iter().find(|c| c["key"] == "request_goodput").cloned().expect("the goodput claim")
    };
    let bare = claim(None);
    assert!(bare["credence"].is_null() && bare["credence_note"].as_str().unwrap().contains("audit with --slo"), "{bare}");
    let judged = claim(Some("ttft_p99=500ms"));
    let (tool, ours) = (judged["tool_value"].as_f64().unwrap(), judged["credence"].as_f64().unwrap());
    assert!((ours / tool - 1.0).abs() < 0.1, "credence {ours}/s against vLLM's {tool}/s: {judged}");
    assert!(judged["credence_ci"].is_array(), "{judged}");
}

/// A closed loop searches its clients (whole numbers): the capacity is in clients, between two
/// decided steps one client apart or closer.
#[test]
fn a_closed_loop_searches_its_clients() {
    let s = Scratch::new("capacity_closed");
    let dir = s.path("clients");
    let args = ["simulate", "--scenario", "steady", "--find-capacity", "--slo", SLO, "--arrival", "closed-loop", "--concurrency", "2", "--max-batch", "16"];
    let o = credence(&[&args[..], &["--output-median", "64", "--out", dir.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let cap = &json(&dir.join("capacity.json"))["capacity"];
    assert_eq!(cap["parameter"], "concurrency");
    assert_eq!(cap["finding"], "found", "{cap}");
    assert!(cap["steps"].as_array().unwrap().iter().all(|st| st["load"].as_f64().unwrap().fract() == 0.0), "{}", cap["steps"]);
    let (lo, hi) = (cap["bracket"][0].as_f64().unwrap(), cap["bracket"][1].as_f64().unwrap());
    assert!(hi - lo <= 2.0, "bracket [{lo}, {hi}]");
    assert!(stderr(&o).contains(" clients, limited by P90 TTFT"), "{}", stderr(&o));
}
