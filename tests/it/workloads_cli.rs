//! `bench`'s workloads against `mock-server`'s prefix cache, whose counters are the truth:
//! shared prefixes, conversations and a replayed trace hit the cache as the mock counts; the
//! cache is reset on request and a server without the endpoint is refused; a warm cache
//! against a cold one is named by the comparison's cache-state gate.

use std::io::{Read, Write};
use std::path::Path;

use serde_json::Value;

use crate::common::{MockProcess, Scratch, credence, repo, stderr};

/// 16 slots, a cache of 16-word blocks that never fills, `prefill_ms` per uncached word (the
/// trace's long prompts get less, so that the mock keeps up with the trace's rate).
fn cached_mock(prefill_ms: &str) -> MockProcess {
    MockProcess::start(&[
        "--max-batch",
        "16",
        "--step-ms",
        "4",
        "--step-ms-per-seq",
        "0.25",
        "--output-tokens",
        "8",
        "--prefix-cache-blocks",
        "1000000",
        "--block-tokens",
        "16",
        "--prefill-ms-per-token",
        prefill_ms,
    ])
}

/// Every request succeeded: the hit rates compare whole runs.
fn all_ok(a: &Value) {
    assert_eq!(a["requests"]["errors"], 0, "{}", a["requests"]);
}

fn bench(mock: &MockProcess, out: &Path, workload: &[&str]) {
    let metrics = format!("{}/metrics", mock.url);
    let mut args =
        vec!["bench", "--url", mock.url.as_str(), "--model", "m", "--timeout", "20s", "--server-metrics", metrics.as_str(), "--out", out.to_str().unwrap()];
    args.extend_from_slice(workload);
    let o = credence(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn analyze(dir: &Path) -> Value {
    let o = credence(&["analyze", dir.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Cached over prompt tokens of every request of the run, as the responses reported them.
fn whole_run_rate(a: &Value) -> f64 {
    a["cache"]["run_cached_tokens"].as_f64().unwrap() / a["cache"]["run_prompt_tokens"].as_f64().unwrap()
}

/// The mock's own counter `name` (tokens), read from its /metrics.
fn mock_counter(mock: &MockProcess, name: &str) -> f64 {
    let addr = mock.url.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(s, "GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} not in {text}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

fn mock_hit_rate(mock: &MockProcess) -> f64 {
    mock_counter(mock, "vllm:prefix_cache_hits_total") / mock_counter(mock, "vllm:prefix_cache_queries_total")
}

fn run_json(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

#[test]
fn shared_prefixes_hit_the_cache_as_the_mock_counts() {
    let scratch = Scratch::new("wl-prefix");
    let mock = cached_mock("0.5");
    let out = scratch.path("run");
    bench(&mock, &out, &["--rate", "20", "--duration", "12s", "--prefix-groups", "4", "--prefix-len", "128", "--input-len", "32"]);
    let truth = mock_hit_rate(&mock);
    let a = analyze(&out);
    all_ok(&a);
    let cache = &a["cache"];
    let measured = whole_run_rate(&a);
    assert!((measured - truth).abs() <= 0.01, "measured {measured} against the mock's {truth}");
    // Only the first request of each group misses: the steady window's rate is the same.
    let steady = cache["hit_rate"]["estimate"].as_f64().unwrap();
    let server = cache["server"]["hit_rate"].as_f64().unwrap();
    assert!((server - truth).abs() <= 0.01, "the scraped counters say {server}, the mock {truth}");
    let (lo, hi) = (cache["hit_rate"]["ci_low"].as_f64().unwrap(), cache["hit_rate"]["ci_high"].as_f64().unwrap());
    assert!(lo <= steady && steady <= hi && hi - lo < 0.2 && (steady - truth).abs() < 0.05, "{steady} [{lo}, {hi}]");
    // 128 shared words are 8 whole blocks: the expected reuse is the mock's hit rate exactly.
    let m = run_json(&out);
    assert_eq!(m["config"]["extra"]["workload"], "shared_prefix");
    let expected: f64 = m["config"]["extra"]["expected_prefix_reuse"].as_str().unwrap().parse().unwrap();
    assert!((expected - truth).abs() < 0.001, "expected {expected}, mock {truth}");
    assert!(m["workload"]["input_length"].as_str().unwrap().contains("4 shared system prompts of 128 words"));
}

/// Verse prompts: exactly the length asked in the tokenizer's tokens, the poem's opening shared
/// by every request (hit in the mock's cache as its counters say), lines drawn by the seed.
#[test]
fn sonnet_prompts_share_the_poems_opening_at_exact_lengths() {
    let scratch = Scratch::new("wl-sonnet");
    let t = tokenizer();
    let mock = MockProcess::start(&[
        "--tokenizer",
        t.as_str(),
        "--output-tokens",
        "4",
        "--ttft",
        "2ms",
        "--token-delay",
        "1ms",
        "--prefix-cache-blocks",
        "100000",
        "--block-tokens",
        "16",
    ]);
    let out = scratch.path("run");
    bench(
        &mock,
        &out,
        &["--rate", "40", "--requests", "80", "--sonnet", "--prefix-len", "63", "--input-len", "uniform:40-200", "--tokenizer", t.as_str(), "--store-prompts"],
    );
    let (p, check) = prompt_lengths(&out);
    assert_eq!((p["share_equal"].as_f64(), check.as_str()), (Some(1.0), "PASS"), "{p}");
    let a = analyze(&out);
    let expected: f64 = run_json(&out)["config"]["extra"]["expected_prefix_reuse"].as_str().unwrap().parse().unwrap();
    // The BOS and 63 tokens are 4 whole blocks of 16: the mock hits exactly what is shared.
    let truth = mock_hit_rate(&mock);
    assert!((whole_run_rate(&a) - truth).abs() <= 0.01 && (expected - truth).abs() < 0.02, "run {}, expected {expected}, mock {truth}", whole_run_rate(&a));
    let prompts = std::fs::read_to_string(out.join("prompts.jsonl")).unwrap();
    assert_eq!(prompts.lines().count(), 80, "every prompt differs after the opening");
    assert!(prompts.lines().all(|l| l.contains("FROM fairest creatures")), "{}", &prompts[..300]);
    assert_eq!(run_json(&out)["config"]["extra"]["workload"], "sonnet");
    let o = credence(&[
        "bench",
        "--url",
        mock.url.as_str(),
        "--model",
        "m",
        "--sonnet",
        "--prefix-groups",
        "2",
        "--prefix-len",
        "8",
        "--out",
        scratch.path("no").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--sonnet chooses the prompts"), "{}", stderr(&o));
}

#[test]
fn conversations_carry_their_history_and_report_ttft_by_turn() {
    let scratch = Scratch::new("wl-sessions");
    let mock = cached_mock("0.5");
    let out = scratch.path("run");
    bench(&mock, &out, &["--api", "chat", "--concurrency", "4", "--sessions", "12", "--turns", "3", "--input-len", "200"]);
    let truth = mock_hit_rate(&mock);
    let a = analyze(&out);
    all_ok(&a);
    let turns = a["cache"]["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 3, "{turns:?}");
    assert!(turns.iter().all(|t| t["requests"] == 12));
    let rate = |t: usize| turns[t]["hit_rate"].as_f64().unwrap();
    // Turn 1 is new; each later turn repeats its history (earlier turns and the replies).
    assert_eq!(rate(0), 0.0);
    assert!(rate(1) > 0.4 && rate(2) > rate(1), "{:?}", [rate(0), rate(1), rate(2)]);
    let measured = whole_run_rate(&a);
    assert!((measured - truth).abs() <= 0.01, "measured {measured}, mock {truth}");
    // The cache at work: turn 3's prompt is three times turn 1's, its first token no later
    // than twice as late (only the new words are prefilled).
    let ttft = |t: usize| turns[t]["ttft_p50"]["estimate"].as_f64().unwrap();
    assert!(ttft(2) < 2.0 * ttft(0), "turn 1 {} ms, turn 3 {} ms", ttft(0), ttft(2));
    assert_eq!(run_json(&out)["config"]["extra"]["workload"], "conversations");
}

/// `--until` ends a run of sessions once its numbers are good enough (the pilot's 100 s of
/// steady data, then a deciding look), before the sessions run out, and says so in run.json;
/// the live view's offered rate counts the sessions' requests (4 sessions/s of 3 turns).
#[test]
fn until_stops_sessions_once_their_numbers_are_good_enough() {
    let scratch = Scratch::new("wl-until-sessions");
    let mock = MockProcess::start(&["--ttft", "5ms", "--token-delay", "1ms", "--output-tokens", "4", "--ttft-jitter", "0.1"]);
    let out = scratch.path("run");
    let args = ["--api", "chat", "--session-rate", "4", "--sessions", "4000", "--turns", "3", "--input-len", "20"];
    bench(&mock, &out, &[&args[..], &["--until", "ttft_p50=10%", "--max-duration", "240s"]].concat());
    let stop = &run_json(&out)["phases"]["stop"];
    assert_eq!(stop["reason"], "targets_met", "{stop}");
    assert!(stop["stopped_at_s"].as_f64().unwrap() < 200.0, "{stop}");
    let requests = credence::run::load(&out).unwrap().requests.num_rows();
    assert!(requests < 12_000, "{requests} requests: the sessions ran out before the stop");
    let a = analyze(&out);
    assert_eq!(a["cache"]["turns"].as_array().unwrap().len(), 3, "{}", a["cache"]);
    let offline = a["metrics"]["ttft"]["p50"]["estimate"].as_f64().unwrap();
    assert!((offline / stop["targets"][0]["estimate"].as_f64().unwrap() - 1.0).abs() < 0.05, "offline {offline}, {stop}");
}

/// `--until` ends a replayed trace once its numbers are good enough, and run.json says how much
/// of the trace was replayed; sessions that run out before the goals end the run as such, not as
/// the time limit.
#[test]
fn until_stops_a_trace_early_and_says_when_the_workload_ran_out() {
    let scratch = Scratch::new("wl-until-trace");
    let mock = MockProcess::start(&["--ttft", "5ms", "--token-delay", "1ms", "--output-tokens", "4", "--ttft-jitter", "0.1"]);
    // 20 records a second for 300 s, each prompt of its own 32-word block.
    let rows: Vec<String> =
        (0..6000).map(|i| format!("{{\"timestamp\": {}, \"input_length\": 32, \"output_length\": 4, \"hash_ids\": [{i}]}}", i * 50)).collect();
    let trace = scratch.path("trace.jsonl");
    std::fs::write(&trace, rows.join("\n")).unwrap();
    let out = scratch.path("trace");
    bench(&mock, &out, &["--trace", trace.to_str().unwrap(), "--trace-block", "32", "--until", "ttft_p50=10%", "--max-duration", "280s"]);
    let m = run_json(&out);
    assert_eq!(m["phases"]["stop"]["reason"], "targets_met", "{}", m["phases"]);
    let sent = credence::run::load(&out).unwrap().requests.num_rows();
    assert!(sent < 6000, "{sent} records: the trace ran out before the stop");
    assert_eq!(m["config"]["extra"]["trace_replayed"], format!("the first {sent} of 6000 records (the trace's first {:.0} s)", (sent - 1) as f64 * 0.05));
    let out = scratch.path("sessions");
    bench(&mock, &out, &["--api", "chat", "--session-rate", "10", "--sessions", "30", "--turns", "2", "--until", "ttft_p50=1%", "--max-duration", "60s"]);
    let stop = &run_json(&out)["phases"]["stop"];
    assert_eq!(stop["reason"], "workload_end", "{stop}");
    assert!(stop["stopped_at_s"].as_f64().unwrap() < 10.0, "{stop}");
    // The reason is one the schemas know, in run.json and in the analysis that carries it.
    for (schema, value) in [("run", run_json(&out)), ("analysis", analyze(&out))] {
        let text = std::fs::read_to_string(repo().join(format!("schemas/{schema}.schema.json"))).unwrap();
        let violations = credence::run::json_schema::check(&serde_json::from_str(&text).unwrap(), &value);
        assert!(violations.is_empty(), "{schema}: {}", violations.join("\n"));
    }
}

/// A sweep of sessions steps the session rate; `sweep.json` records each step's offered
/// requests (the session rate times the turns) beside it, and the sweep report reads it.
#[test]
fn a_sweep_of_sessions_offers_their_requests() {
    let scratch = Scratch::new("wl-sweep-sessions");
    let mock = MockProcess::start(&["--ttft", "5ms", "--token-delay", "1ms", "--output-tokens", "4"]);
    let out = scratch.path("sweep");
    bench(&mock, &out, &["--api", "chat", "--sweep", "rate=2,4", "--sessions", "1000", "--turns", "2-4", "--input-len", "20", "--duration", "6s"]);
    let sweep: Value = serde_json::from_slice(&std::fs::read(out.join("sweep.json")).unwrap()).unwrap();
    let steps = sweep["steps"].as_array().unwrap();
    for (step, sessions) in steps.iter().zip([2.0, 4.0]) {
        assert_eq!(step["session_rate_per_s"], sessions, "{step}");
        assert_eq!(step["rate_per_s"], sessions * 3.0, "{step}");
        let achieved = step["summary"]["achieved_requests_per_s"]["estimate"].as_f64().unwrap();
        assert!(achieved > 1.5 * sessions, "{achieved}/s completed at {sessions} sessions/s: {step}");
    }
    let report = scratch.path("report.md");
    let o = credence(&["report", out.to_str().unwrap(), "--format", "md", "-o", report.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("swept from 6.00 to 12.0 requests/s (conversations: 2.00 to 4.00 sessions/s)"), "{text}");
}

/// The share of a trace's prompt words a never-full cache of `cache_block`-word blocks serves,
/// computed here from the file (the test's own reading of the Mooncake format).
fn trace_truth(text: &str, trace_block: u64, cache_block: u64) -> (usize, f64) {
    let mut seen = std::collections::HashSet::new();
    let (mut hit, mut total, mut n) = (0u64, 0u64, 0usize);
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let ids: Vec<u64> = v["hash_ids"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
        let len = v["input_length"].as_u64().unwrap();
        let lead = ids.iter().take_while(|id| seen.contains(*id)).count() as u64;
        hit += (lead * trace_block).min(len) / cache_block * cache_block;
        total += len;
        seen.extend(ids);
        n += 1;
    }
    (n, hit as f64 / total as f64)
}

#[test]
fn a_replayed_trace_keeps_its_schedule_lengths_and_sharing() {
    let scratch = Scratch::new("wl-trace");
    let mock = cached_mock("0.02");
    let out = scratch.path("run");
    let trace = repo().join("fixtures/workloads/trace.jsonl");
    bench(&mock, &out, &["--trace", trace.to_str().unwrap(), "--trace-block", "64", "--trace-speed", "2x"]);
    let (records, expected) = trace_truth(&std::fs::read_to_string(&trace).unwrap(), 64, 16);
    let truth = mock_hit_rate(&mock);
    assert!((truth - expected).abs() <= 0.01, "the mock served {truth}, the trace implies {expected}");
    let a = analyze(&out);
    all_ok(&a);
    assert_eq!(a["requests"]["total"].as_u64().unwrap() as usize, records, "{}", a["requests"]);
    let m = run_json(&out);
    assert_eq!(m["workload"]["arrival"], "trace_replay");
    // The trace spans about 20 s; at 2× the schedule spans about 10 s and is kept.
    let lag = a["metrics"]["send_lag"]["p50"]["estimate"].as_f64().unwrap();
    assert!(lag < 5.0, "P50 send lag {lag} ms");
    let measured = whole_run_rate(&a);
    assert!((measured - truth).abs() <= 0.01, "measured {measured}, mock {truth}");
}

#[test]
fn a_warm_cache_against_a_cold_one_is_named_and_resets_make_them_alike() {
    let scratch = Scratch::new("wl-aa");
    let mock = cached_mock("0.02");
    let trace = repo().join("fixtures/workloads/trace.jsonl");
    let run = |name: &str, reset: bool| {
        let out = scratch.path(name);
        let mut args = vec!["--trace", trace.to_str().unwrap(), "--trace-block", "64", "--trace-speed", "2x"];
        if reset {
            args.push("--reset-prefix-cache");
        }
        bench(&mock, &out, &args);
        out
    };
    let (cold, warm) = (run("cold", true), run("warm", false));
    assert_eq!(run_json(&cold)["environment"]["prefix_cache_reset"]["value"], true);
    assert_eq!(run_json(&warm)["environment"]["prefix_cache_reset"]["value"], false);
    let json = scratch.path("compare.json");
    // The cache-state gate's status and reason, and P50 TTFT's change and verdict.
    let compare = |base: &Path, cand: &Path| -> (String, String, f64, String) {
        let o = credence(&["compare", "--base", base.to_str().unwrap(), "--cand", cand.to_str().unwrap(), "--out", json.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let g = v["gates"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == "cache_state")
            .cloned()
            .unwrap_or_else(|| panic!("no cache_state gate: {}", v["gates"]));
        let ttft = &v["metrics"]["ttft_p50"];
        (
            g["status"].as_str().unwrap().into(),
            g["reason"].as_str().unwrap().into(),
            ttft["change"]["estimate"].as_f64().unwrap(),
            ttft["verdict"].as_str().unwrap().into(),
        )
    };
    let (status, reason, change, _) = compare(&cold, &warm);
    assert_eq!(status, "WARN", "{reason}");
    assert!(reason.contains("measures the cache as well as the switch"), "{reason}");
    assert!(change < -0.3, "a warm cache flatters P50 TTFT: {change}");
    let again = run("cold-again", true);
    let (status, reason, change, verdict) = compare(&cold, &again);
    assert_eq!(status, "PASS", "{reason}");
    assert!(verdict != "improvement" && verdict != "regression" && change.abs() < 0.15, "{verdict} {change}");
}

#[test]
fn bad_workloads_are_refused_naming_what_is_wrong() {
    let scratch = Scratch::new("wl-bad");
    let plain = MockProcess::start(&[]);
    let out = scratch.path("run");
    let bad = |extra: &[&str], expect: &str| {
        let mut args = vec!["bench", "--url", plain.url.as_str(), "--model", "m", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = credence(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(expect), "{extra:?}: {}", stderr(&o));
        assert!(!out.exists(), "{extra:?} wrote a run");
    };
    let write = |name: &str, text: &str| {
        let p = scratch.path(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let disorder = write(
        "disorder.jsonl",
        "{\"timestamp\": 5, \"input_length\": 4, \"output_length\": 3, \"hash_ids\": [1]}\n{\"timestamp\": 1, \"input_length\": 4, \"output_length\": 3, \"hash_ids\": [2]}\n",
    );
    bad(&["--trace", &disorder, "--trace-block", "4"], "disorder.jsonl, line 2: timestamp");
    let blocks = write("blocks.jsonl", "{\"timestamp\": 0, \"input_length\": 1000, \"output_length\": 3, \"hash_ids\": [1]}\n");
    bad(&["--trace", &blocks], "blocks.jsonl, line 1: hash_ids: 1 blocks");
    let broken = write("broken.jsonl", "{\"timestamp\": 0,\n");
    bad(&["--trace", &broken], "broken.jsonl, line 1: not JSON");
    bad(&["--trace", &disorder, "--rate", "5"], "--trace sets the schedule");
    bad(&["--rate", "5", "--duration", "2s", "--sessions", "3"], "add --api chat");
    bad(&["--rate", "5", "--duration", "2s", "--prefix-groups", "3"], "--prefix-len L together");
    bad(&["--rate", "5", "--duration", "2s", "--sessions", "3", "--api", "chat", "--prefix-groups", "2", "--prefix-len", "8"], "give one of them");
    bad(&["--rate", "5", "--duration", "2s", "--reset-prefix-cache"], "neither POST /reset_prefix_cache");
    bad(&["--session-rate", "2", "--duration", "2s"], "add --sessions N");
    for steps in [["--sweep", "rate=1,2"], ["--find-capacity", "--slo=ttft_p99=1s"]] {
        bad(&[&["--trace", &disorder, "--trace-block", "4"], &steps[..]].concat(), "replays the trace on its own schedule, which fixes the load");
    }
    bad(&["--session-rate", "2", "--rate", "2", "--sessions", "3", "--api", "chat"], "cannot be used with");
}

/// Every request's prompt as built is the prompt the mock counted (its tokens are words): in
/// conversations that holds only if each turn carried the earlier turns and the actual replies.
#[test]
fn conversations_send_what_they_say_they_built() {
    let scratch = Scratch::new("wl-intended");
    let mock = cached_mock("0.1");
    let out = scratch.path("run");
    bench(&mock, &out, &["--api", "chat", "--session-rate", "4", "--sessions", "8", "--turns", "2-4", "--input-len", "30", "--output-len", "12"]);
    let run = credence::run::load(&out).unwrap();
    let r = &run.requests;
    let (built, counted, turn) = (r.u32s("intended_input_tokens").unwrap(), r.u32s("input_tokens").unwrap(), r.u32s("turn").unwrap());
    assert!(r.num_rows() >= 16, "{} requests", r.num_rows());
    for i in 0..r.num_rows() {
        assert_eq!(built[i], counted[i], "request {i} (turn {:?})", turn[i]);
    }
    // Turn t's prompt: t user messages of 32 words (2 naming the session and turn) and t − 1
    // replies of the mock's 8 tokens.
    for i in 0..r.num_rows() {
        let t = turn[i].unwrap();
        assert_eq!(counted[i], Some(32 * t + 8 * (t - 1)), "request {i}, turn {t}");
    }
}

#[test]
fn datasets_and_adapters_shape_each_request() {
    let scratch = Scratch::new("wl-dataset");
    let mock = MockProcess::start(&["--ttft", "2ms", "--token-delay", "0ms"]);
    let sharegpt = scratch.path("sharegpt.json");
    let conversation = |human: &str, gpt: &str| serde_json::json!({"conversations": [{"from": "human", "value": human}, {"from": "gpt", "value": gpt}]});
    let items = serde_json::json!([
        conversation("one two three", "a b c"),
        conversation("four five", "a b c d e"),
        conversation("six", "a b c d e f g"),
        conversation("seven eight nine ten", "a"),
    ]);
    std::fs::write(&sharegpt, items.to_string()).unwrap();
    let out = scratch.path("run");
    let o = credence(&[
        "bench",
        "--url",
        mock.url.as_str(),
        "--model",
        "base",
        "--out",
        out.to_str().unwrap(),
        "--rate",
        "50",
        "--requests",
        "40",
        "--dataset",
        sharegpt.to_str().unwrap(),
        "--dataset-sample",
        "3",
        "--lora",
        "a,b",
        "--lora-assignment",
        "round-robin",
        "--store-prompts",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let r = &run.requests;
    let (input, output) = (r.u32s("input_tokens").unwrap(), r.u32s("output_tokens").unwrap());
    // Three of the four conversations, each prompt with its reply's length as the output.
    let pairs: std::collections::BTreeSet<(u32, u32)> = (0..r.num_rows()).map(|i| (input[i].unwrap(), output[i].unwrap())).collect();
    let known = [(3, 3), (2, 5), (1, 7), (4, 1)];
    assert_eq!(pairs.len(), 3, "{pairs:?}");
    assert!(pairs.iter().all(|p| known.contains(p)), "{pairs:?}");
    // Three distinct prompts: three hashes, each stored once with the text sent.
    let hashes = r.strings("prompt_hash").unwrap();
    let distinct: std::collections::BTreeSet<&str> = (0..r.num_rows()).map(|i| hashes.value(i)).collect();
    let stored: Vec<Value> = std::fs::read_to_string(out.join("prompts.jsonl")).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(stored.len(), 3);
    assert_eq!(stored.iter().map(|p| p["prompt_hash"].as_str().unwrap()).collect::<std::collections::BTreeSet<_>>(), distinct);
    assert!(stored.iter().all(|p| ["one two three", "four five", "six", "seven eight nine ten"].contains(&p["prompt"].as_str().unwrap())), "{stored:?}");
    let adapters = r.strings("adapter").unwrap();
    let a = (0..r.num_rows()).filter(|&i| adapters.value(i) == "a").count();
    assert_eq!((a, r.num_rows() - a), (20, 20), "round-robin over two adapters");
    let v = analyze(&out);
    let split = v["adapters"].as_array().unwrap();
    assert_eq!(split.len(), 2, "{split:?}");
    assert!(split.iter().all(|s| s["ttft_p50"]["estimate"].as_f64().is_some()), "{split:?}");
    assert_eq!(run_json(&out)["config"]["extra"]["lora_adapters"], "a,b (round-robin)");
    let bad = credence(&[
        "bench",
        "--url",
        mock.url.as_str(),
        "--model",
        "m",
        "--out",
        scratch.path("x").to_str().unwrap(),
        "--rate",
        "5",
        "--requests",
        "3",
        "--dataset",
        sharegpt.to_str().unwrap(),
        "--dataset-sample",
        "9",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("the dataset has 4 prompts"), "{}", stderr(&bad));
}

/// The simulator's shared prefixes: the analysis measures the engine's true hit rate, and a
/// cold start over many prompts (the cache warms over the first minute) is named as cache
/// warming, with TTFT higher inside it; a few prompts warm at once and are not.
#[test]
fn a_simulated_cold_cache_is_measured_and_named() {
    let scratch = Scratch::new("wl-sim");
    let simulate = |name: &str, groups: &str| {
        let out = scratch.path(name);
        let o = credence(&[
            "simulate",
            "--scenario",
            "steady",
            "--seed",
            "3",
            "--duration",
            "180s",
            "--rate",
            "8",
            "--output-median",
            "32",
            "--prefix-groups",
            groups,
            "--prefix-len",
            "3000",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let truth: Value = serde_json::from_str(&std::fs::read_to_string(out.join("truth.json")).unwrap()).unwrap();
        (out.clone(), truth["prefix_cache_hit_rate"].as_f64().unwrap(), analyze(&out))
    };
    let (_, truth, a) = simulate("cold", "200");
    assert!((whole_run_rate(&a) - truth).abs() < 1e-6, "measured {}, truth {truth}", whole_run_rate(&a));
    let finding = a["findings"].as_array().unwrap().iter().find(|f| f["cause"] == "cache_warming").unwrap_or_else(|| panic!("{}", a["findings"]));
    let peak = &finding["episodes"][0]["peak"];
    assert!(peak["ttft_p50_ms_cold"].as_f64().unwrap() > peak["ttft_p50_ms_warm"].as_f64().unwrap(), "{peak}");
    let (_, _, warm) = simulate("warm", "2");
    assert!(!warm["findings"].as_array().unwrap().iter().any(|f| f["cause"] == "cache_warming"), "{}", warm["findings"]);
    assert!(warm["cache"]["hit_rate"]["estimate"].as_f64().unwrap() > 0.8);
}

/// The bundled conversation run (`fixtures/workloads/generate.sh`): valid, and its report leads
/// with the prefix cache and each turn's TTFT, in both languages.
#[test]
fn the_conversation_demo_reports_its_cache_and_turns() {
    let scratch = Scratch::new("wl-demo");
    let run = repo().join("fixtures/workloads/conversation");
    let o = credence(&["validate", run.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (lang, cache, turns) in [("en", "| Prefix cache |", "| TTFT by turn | turn 1: P50"), ("zh", "| 前缀缓存 |", "| 各轮 TTFT | 第 1 轮：P50")] {
        let md = scratch.path(&format!("conv.{lang}.md"));
        let o = credence(&["report", run.to_str().unwrap(), "--lang", lang, "-o", md.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(&md).unwrap();
        assert!(text.contains(cache) && text.contains(turns), "{lang}:\n{text}");
    }
    let m = run_json(&run);
    assert_eq!(m["config"]["extra"]["workload"], "conversations");
    assert!(m["workload"]["rate_per_s"].is_null(), "the rate counts sessions: {}", m["workload"]);
}

/// ShareGPT conversations as sessions: each session sends its conversation's human turns in
/// order, with the server's replies between them; a JSONL file has none and is refused.
/// `compare` by adapter: a candidate 10 ms slower to the first token regresses in each
/// adapter, with the change inside its interval; the same server twice gives no regression.
#[test]
fn compare_splits_by_adapter_with_intervals() {
    let scratch = Scratch::new("wl-adapter-compare");
    let fast = MockProcess::start(&["--ttft", "20ms", "--token-delay", "1ms", "--output-tokens", "4"]);
    let slow = MockProcess::start(&["--ttft", "30ms", "--token-delay", "1ms", "--output-tokens", "4"]);
    // 45 s each: an adapter's median gets its interval as the run's metrics do, which takes
    // 8 windows of 5 s to measure the requests' dependence. The three run side by side.
    let run = |mock: &MockProcess, name: &str| {
        let out = scratch.path(name);
        let args = ["--rate", "40", "--duration", "45s", "--lora", "a,b", "--lora-assignment", "round-robin", "--input-len", "16"];
        let mut all = vec!["bench", "--url", mock.url.as_str(), "--model", "m", "--out", out.to_str().unwrap()];
        all.extend(args);
        let o = credence(&all);
        assert!(o.status.success(), "{}", stderr(&o));
        out
    };
    let (base, same, cand) = std::thread::scope(|s| {
        let runs = [s.spawn(|| run(&fast, "base")), s.spawn(|| run(&fast, "same")), s.spawn(|| run(&slow, "cand"))];
        let [base, same, cand] = runs.map(|r| r.join().unwrap());
        (base, same, cand)
    });
    let compared = |other: &Path| -> Value {
        let out = scratch.path(&format!("cmp-{}.json", other.file_name().unwrap().to_str().unwrap()));
        let o =
            credence(&["compare", "--resamples", "999", "--base", base.to_str().unwrap(), "--cand", other.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert!(o.status.code().is_some_and(|c| c == 0 || c == 3), "{}", stderr(&o));
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap()
    };
    let slower = compared(&cand);
    let split = slower["adapters"].as_array().unwrap_or_else(|| panic!("no adapters in {slower}"));
    assert_eq!(split.iter().map(|a| a["adapter"].as_str().unwrap()).collect::<Vec<_>>(), ["a", "b"]);
    for a in split {
        let t = &a["ttft_p50"];
        let (change, lo, hi) = (t["change"].as_f64().unwrap(), t["ci_low"].as_f64().unwrap(), t["ci_high"].as_f64().unwrap());
        assert_eq!(t["verdict"], "regression", "{a}");
        assert!(lo <= change && change <= hi && (0.3..0.7).contains(&change), "{a}");
        assert!(a["base_requests"].as_u64().unwrap() > 100 && t["seed"].as_u64().is_some(), "{a}");
    }
    let alike = compared(&same);
    for a in alike["adapters"].as_array().unwrap() {
        let t = &a["ttft_p50"];
        assert_ne!(t["verdict"], "regression", "{a}");
        assert!(t["ci_low"].as_f64().unwrap() <= 0.0 && 0.0 <= t["ci_high"].as_f64().unwrap(), "{a}");
    }
    let md = scratch.path("cmp.md");
    let o = credence(&["report", "--base", base.to_str().unwrap(), "--cand", cand.to_str().unwrap(), "-o", md.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("**By adapter**") && text.contains("| a | P50 TTFT |"), "{text}");
}

#[test]
fn sharegpt_conversations_become_sessions() {
    let scratch = Scratch::new("wl-sharegpt-sessions");
    let mock = MockProcess::start(&["--ttft", "2ms", "--token-delay", "0ms", "--output-tokens", "3"]);
    let file = scratch.path("sharegpt.json");
    let turn = |from: &str, value: &str| serde_json::json!({"from": from, "value": value});
    let items = serde_json::json!([
        {"conversations": [turn("human", "a b"), turn("gpt", "x"), turn("human", "c d e"), turn("gpt", "y"), turn("human", "f")]},
        {"conversations": [turn("human", "g h i j")]},
    ]);
    std::fs::write(&file, items.to_string()).unwrap();
    // Two sessions, one at a time, from `dataset`.
    let sessions = |out: &Path, dataset: &Path| {
        let (out, dataset) = (out.to_str().unwrap(), dataset.to_str().unwrap());
        credence(&[
            "bench",
            "--url",
            mock.url.as_str(),
            "--model",
            "m",
            "--api",
            "chat",
            "--concurrency",
            "1",
            "--sessions",
            "2",
            "--out",
            out,
            "--dataset",
            dataset,
        ])
    };
    let out = scratch.path("run");
    let o = sessions(&out, &file);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = credence::run::load(&out).unwrap();
    let r = &run.requests;
    let (input, turn) = (r.u32s("input_tokens").unwrap(), r.u32s("turn").unwrap());
    let got: Vec<(u32, u32)> = (0..r.num_rows()).map(|i| (turn[i].unwrap(), input[i].unwrap())).collect();
    // Session 0: 2 words; then 2 + 3 (reply) + 3; then 8 + 3 + 1. Session 1: 4 words.
    assert_eq!(got, vec![(1, 2), (2, 8), (3, 12), (1, 4)], "{got:?}");
    let jsonl = scratch.path("d.jsonl");
    std::fs::write(&jsonl, "\"p\"\n").unwrap();
    let o = sessions(&scratch.path("other"), &jsonl);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("give a ShareGPT JSON file"), "{}", stderr(&o));
}

/// With --tokenizer a ShareGPT reply's length, the output asked for, is counted in its tokens
/// (punctuation and rare words are several each), not in its words.
#[test]
fn sharegpt_output_lengths_count_the_tokenizers_tokens() {
    let scratch = Scratch::new("wl-sharegpt-tokens");
    let mock = MockProcess::start(&["--ttft", "2ms", "--token-delay", "0ms"]);
    let file = scratch.path("sharegpt.json");
    let reply = "Summarize: throughput, latency; and goodput.";
    let items = serde_json::json!([{"conversations": [{"from": "human", "value": "hello"}, {"from": "gpt", "value": reply}]}]);
    std::fs::write(&file, items.to_string()).unwrap();
    let t = tokenizer();
    let asked = |name: &str, extra: &[&str]| -> Vec<Option<u32>> {
        let out = scratch.path(name);
        let mut args = vec!["--rate", "50", "--requests", "3", "--dataset", file.to_str().unwrap()];
        args.extend_from_slice(extra);
        bench(&mock, &out, &args);
        credence::run::load(&out).unwrap().requests.u32s("output_tokens").unwrap().to_vec()
    };
    let tokens = credence::bench::tokens::TokenWords::load(std::path::Path::new(&t)).unwrap().count(reply);
    assert!(tokens > 5, "the reply is more tokens ({tokens}) than words (5)");
    assert_eq!(asked("words", &[]), vec![Some(5); 3]);
    assert_eq!(asked("tokens", &["--tokenizer", t.as_str()]), vec![Some(tokens); 3]);
}

fn tokenizer() -> String {
    repo().join("fixtures/tokenizer/tokenizer.json").display().to_string()
}

/// The prompt-length comparison of a run, with its check's status.
fn prompt_lengths(dir: &Path) -> (Value, String) {
    let a = analyze(dir);
    all_ok(&a);
    let check = a["credibility"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "prompt_lengths")
        .map_or("absent".into(), |c| c["status"].as_str().unwrap().to_string());
    (a["prompt_lengths"].clone(), check)
}

#[test]
fn a_tokenizer_builds_prompts_of_exactly_the_length_asked() {
    let scratch = Scratch::new("wl-tokens");
    let t = tokenizer();
    // The mock counts with the same tokenizer, as a server of that model does (with its BOS).
    let mock = MockProcess::start(&["--tokenizer", t.as_str(), "--output-tokens", "4", "--ttft", "2ms", "--token-delay", "1ms"]);
    let runs: [(&str, Vec<&str>, f64); 3] = [
        ("text", vec!["--input-len", "uniform:1-400"], 0.0),
        ("ids", vec!["--input-len", "300", "--prompt-token-ids"], 300.0),
        ("chat-prefix", vec!["--api", "chat", "--input-len", "50", "--prefix-groups", "3", "--prefix-len", "64"], 114.0),
    ];
    for (name, flags, median) in runs {
        let out = scratch.path(name);
        let mut args = vec!["--rate", "50", "--requests", "120", "--tokenizer", t.as_str()];
        args.extend(flags);
        bench(&mock, &out, &args);
        let (p, check) = prompt_lengths(&out);
        assert_eq!((p["exact"].as_bool(), p["share_equal"].as_f64(), p["requests"].as_u64()), (Some(true), Some(1.0), Some(120)), "{name}: {p}");
        assert_eq!(check, "PASS", "{name}");
        if median > 0.0 {
            // Token ids carry no BOS; the chat messages are the system prompt and the user's.
            assert_eq!(p["intended_median"].as_f64(), Some(median), "{name}: {p}");
        }
    }
    let run = run_json(&scratch.path("text"));
    assert_eq!(run["config"]["extra"]["prompt_lengths"], "exact");
}

#[test]
fn a_server_that_counts_otherwise_is_named_and_word_prompts_say_they_are_approximate() {
    let scratch = Scratch::new("wl-token-mismatch");
    let dataset = scratch.path("prompts.jsonl");
    std::fs::write(&dataset, "\"Hello, world! How are you doing today?\"\n{\"prompt\": \"Summarize: throughput, latency; and goodput.\"}\n").unwrap();
    // The mock counts words: punctuation and rare words are more tokens than words.
    let mock = MockProcess::start(&["--output-tokens", "4", "--ttft", "2ms", "--token-delay", "1ms"]);
    let out = scratch.path("mismatch");
    bench(&mock, &out, &["--rate", "50", "--requests", "40", "--tokenizer", tokenizer().as_str(), "--dataset", dataset.to_str().unwrap()]);
    let (p, check) = prompt_lengths(&out);
    assert_eq!(check, "WARN", "{p}");
    assert!(p["relative_difference_median"].as_f64().unwrap() < -0.3, "{p}");
    let words = scratch.path("words");
    bench(&mock, &words, &["--rate", "50", "--requests", "40"]);
    let (p, check) = prompt_lengths(&words);
    assert_eq!((p["exact"].as_bool(), check.as_str()), (Some(false), "absent"), "{p}");
    assert_eq!(run_json(&words)["config"]["extra"]["prompt_lengths"], "approximate");
}

#[test]
fn a_tokenizer_that_cannot_load_or_be_used_is_exit_2() {
    let scratch = Scratch::new("wl-token-bad");
    let broken = scratch.path("tokenizer.json");
    std::fs::write(&broken, "{\"model\": 3}").unwrap();
    let out = scratch.path("never");
    let (out, broken) = (out.to_str().unwrap(), broken.to_str().unwrap());
    let t = tokenizer();
    let base = ["bench", "--url", "http://127.0.0.1:9", "--model", "m", "--rate", "1", "--requests", "1", "--out", out];
    for (flags, said) in [
        (vec!["--tokenizer", "/nonexistent/model"], "--tokenizer /nonexistent/model: no such file"),
        (vec!["--tokenizer", broken], "cannot load the tokenizer"),
        (vec!["--prompt-token-ids"], "--prompt-token-ids needs --tokenizer"),
        (vec!["--prompt-token-ids", "--tokenizer", t.as_str(), "--api", "chat"], "use --api completions"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(flags.iter().copied()).collect();
        let o = credence(&args);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(said), "{flags:?}: {}", stderr(&o));
    }
    let o = credence(&["mock-server", "--tokenizer", broken]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
