use std::collections::{BTreeMap, BTreeSet};

use super::*;

/// The messages of one catalog file and the variables each names: `id = …` starts a message at
/// the start of a line; `$name` anywhere in its lines is a variable.
fn messages_of(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current = None;
    for line in text.lines() {
        let starts_message = line.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && line.contains(" =");
        if starts_message {
            let id = line.split(" =").next().unwrap_or_default().to_string();
            out.entry(id.clone()).or_default();
            current = Some(id);
        }
        if line.starts_with('-') {
            current = None; // a term: its variables are its callers' arguments
        }
        let Some(id) = &current else { continue };
        for part in line.split('$').skip(1) {
            let name: String = part.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            out.get_mut(id).unwrap().insert(name);
        }
    }
    out
}

fn files(code: &str) -> &'static [(&'static str, &'static str)] {
    CATALOGS.iter().find(|c| c.0 == code).map(|c| c.1).unwrap()
}

#[test]
fn every_catalog_parses() {
    for (code, files) in CATALOGS {
        for (file, text) in *files {
            if let Err((_, errors)) = FluentResource::try_new(text.to_string()) {
                panic!("locales/{code}/{file}: {errors:?}");
            }
        }
    }
}

#[test]
fn every_language_has_the_same_messages_with_the_same_variables() {
    let english = files("en");
    for lang in Lang::ALL {
        let theirs = files(lang.code());
        assert_eq!(theirs.iter().map(|f| f.0).collect::<Vec<_>>(), english.iter().map(|f| f.0).collect::<Vec<_>>(), "{}: files", lang.code());
        for ((file, en), (_, other)) in english.iter().zip(theirs) {
            let (en, other) = (messages_of(en), messages_of(other));
            assert_eq!(en.keys().collect::<Vec<_>>(), other.keys().collect::<Vec<_>>(), "locales/{}/{file}: message ids", lang.code());
            for (id, vars) in &en {
                assert_eq!(vars, &other[id], "locales/{}/{file}: the variables of {id}", lang.code());
            }
        }
    }
}

/// Every id the analysis names (`Message::new("…")` in the crates' sources) is in the catalog.
#[test]
fn every_id_the_code_names_is_in_the_catalog() {
    let crates = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut named = 0;
    let mut stack: Vec<std::path::PathBuf> = vec![crates.into()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("messages/src/tests.rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                // A message by its id, and a tool's definition named by its id alone (importers).
                let messages = text.split("Message::new(\"").skip(1).map(|part| part.split('"').next().unwrap().to_string());
                let definitions = text.split("\"def-").skip(1).map(|part| format!("def-{}", part.split('"').next().unwrap()));
                for id in messages.chain(definitions) {
                    let id = id.as_str();
                    named += 1;
                    for lang in Lang::ALL {
                        assert!(bundle(lang).has_message(id), "{}: {id} is not in locales/{}", path.display(), lang.code());
                    }
                }
            }
        }
    }
    assert!(named > 20, "only {named} ids found: the scan no longer sees the code's messages");
}

#[test]
fn selectors_numbers_lists_and_nesting() {
    let processes = |n: i64| Message::new("check-foreign-processes").int("n", n);
    assert_eq!(processes(0).render(Lang::En), "no other compute process on the GPUs at the start");
    assert_eq!(processes(1).render(Lang::En), "1 other compute process on the GPUs at the start: it competes for compute and memory");
    assert_eq!(processes(3).render(Lang::En), "3 other compute processes on the GPUs at the start: they compete for compute and memory");
    assert_eq!(processes(3).render(Lang::Zh), "开始时 GPU 上有 3 个其他计算进程：它们会争用算力和显存");

    let width = |metric: &str, percent: f64| Message::new("interval-half-width").msg("label", Message::new("headline-label").text("metric", metric)).num("percent", percent, 1);
    let check = Message::new("check-interval-width").text("status", "warn").list("items", vec![width("throughput", 6.04), width("ttft_p99", 12.25)], Sep::Comma);
    assert_eq!(check.render(Lang::En), "wide or unbounded intervals: throughput ±6.0 %, P99 TTFT ±12.2 %");
    assert_eq!(check.render(Lang::Zh), "置信区间过宽或无界：请求吞吐量 ±6.0 %，P99 TTFT ±12.2 %");

    let in_run = Message::new("in-run").text("run", "a2").msg("reason", check);
    assert_eq!(in_run.render(Lang::Zh), "a2：置信区间过宽或无界：请求吞吐量 ±6.0 %，P99 TTFT ±12.2 %");
    assert_eq!(Message::new("no-such-message").render(Lang::En), "{no-such-message}");
}

#[test]
fn a_message_round_trips_through_json() {
    let m = Message::new("check-error-rate").int("errors", 3).int("requests", 1200).num("percent", 0.25, 2).list("x", vec![Message::new("a").text("t", "b")], Sep::Semicolon);
    let json = serde_json::to_string(&m).unwrap();
    assert_eq!(json, r#"{"id":"check-error-rate","args":{"errors":3,"percent":{"value":0.25,"decimals":2},"requests":1200,"x":{"items":[{"id":"a","args":{"t":"b"}}],"sep":"semicolon"}}}"#);
    assert_eq!(serde_json::from_str::<Message>(&json).unwrap(), m);
    assert_eq!(m.render(Lang::En), "3 of 1200 requests failed (0.25 %)");
}

/// The Chinese catalog's prose, message by message: values only (no ids, comments, selector
/// keys or placeables).
fn chinese_prose() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (file, text) in files("zh") {
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let value = line.split_once(" = ").map_or(line, |(_, v)| v);
            let value = value.trim_start().trim_start_matches('*');
            let value = if value.starts_with('[') { value.split_once(']').map_or("", |x| x.1) } else { value };
            // Placeables: `{ $x }` and a selector's head `{ $x ->` to the end of its line.
            let mut prose = String::new();
            let mut depth = 0;
            for c in value.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth = (depth - 1_i32).max(0),
                    _ if depth == 0 => prose.push(c),
                    _ => {}
                }
            }
            out.push((file.to_string(), prose));
        }
    }
    out
}

#[test]
fn the_chinese_catalog_keeps_to_the_glossary() {
    let not = [
        "首token延迟", "请求速率", "结论", "稳定状态", "热身", "信赖区间", "节流", "负载生成器", "KV cache",
        // One name per method (GLOSSARY.md): block, hierarchical and resampling.
        "区块自助法", "分块自助法", "分层自助法", "重采样",
        // One name per window, per tail, per arm.
        "测量区间", "测量区段", "洁净", "末尾", "收尾请求", "基准", "有效样本量",
        // Output tokens/s, a verdict, a status.
        "输出速率", "输出 token 速率", "核验结果", "告警",
        // Units: req/s and tokens/s after a number.
        "请求/秒", "请求/s", "requests/s",
        // The grade in running text is 可信度：中.
        "可信度中", "可信度高", "可信度低",
        // A token is token.
        "词元",
    ];
    for (file, prose) in chinese_prose() {
        for word in not {
            assert!(!prose.contains(word), "locales/zh/{file}: {word:?} is not the glossary's term (GLOSSARY.md): {prose}");
        }
        assert!(!prose.replace("时钟事件", "").contains("事件"), "locales/zh/{file}: an episode is 时段: {prose}");
        // Requests/s is 请求吞吐量 and output tokens/s 输出 token 吞吐量: never a bare 吞吐量.
        assert!(!prose.replace("请求吞吐量", "").replace("token 吞吐量", "").contains("吞吐量"), "locales/zh/{file}: a bare 吞吐量: {prose}");
    }
    for (file, text) in files("zh") {
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            // A placeable's value stands where the prose test sees nothing: the raw line shows it.
            let squeezed = line.replace(' ', "");
            assert!(!squeezed.contains("可信度{"), "locales/zh/{file}: the grade in running text is 可信度：{{ $grade }}: {line}");
            let seconds = squeezed.match_indices('秒').any(|(i, _)| squeezed[..i].ends_with(|c: char| c.is_ascii_digit() || c == '}'));
            assert!(!seconds, "locales/zh/{file}: seconds after a number are s, not 秒: {line}");
        }
    }
}

/// English words in Chinese prose are metric names, units and identifiers only: options and
/// assignments (`--config model=…`), paths, and the few names below.
#[test]
fn chinese_prose_has_no_english_words() {
    let names = [
        "TTFT", "TPOT", "ITL", "E2E", "P50", "P99", "ms", "GPU", "CPU", "SM", "KV", "NVML", "OOM", "HW", "NIC", "PSU", "Mann", "Kendall", "credence", "s", "C",
        "performance", "off", "auto", "sysfs", "cpufreq", "nvidia", "smi", "collect", "compare", "token", "tokens", "KS", "D", "p", "Wilson",
        // Method names, a grade, a file format.
        "E-divisive", "Hamed", "Rao", "Sen", "Kalibera", "Jones", "PELT", "MSER-5", "MAD", "z", "Hyndman", "Fan", "numpy", "JSON", "t",
        // Units and protocols.
        "MHz", "W", "GiB", "UTC", "TCP",
        // Tools named in their facts, and a JSON literal they wrote.
        "AIPerf", "guidellm", "vLLM", "inference-perf", "true", "nvidia-smi", "dmon", "DCGM", "Hz", "HTTP", "WebSocket",
        // File formats and a protocol the import names.
        "CSV", "SSE",
    ];
    for (file, prose) in chinese_prose() {
        let prose: String = prose.split('`').step_by(2).collect();
        for token in prose.split(|c: char| !(c.is_ascii_alphanumeric() || "-_=./…".contains(c))) {
            let hex = token.starts_with("0x") && token.len() > 2 && token[2..].chars().all(|c| c.is_ascii_hexdigit());
            let identifier = hex || token.contains("--") || token.contains('=') || token.contains('_') || token.contains('/') || token.contains('.');
            let word = token.trim_matches(|c: char| !c.is_ascii_alphanumeric());
            if word.is_empty() || identifier || word.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            assert!(names.contains(&word), "locales/zh/{file}: English word {word:?} in Chinese prose: {prose}");
        }
    }
}
