//! inference-perf's own definitions (0.7.0, `reportgen/base.py` `summarize_requests` and the
//! BR 0.2 `reportgen/br/v0_2/adapter.py`), applied to the records of one summary's population,
//! so that each number of its summaries can be recomputed from its per-request file.

use super::records::Record;

/// What changes the definitions: `report.request_lifecycle.use_server_output_tokens` and
/// whether a tokenizer re-counted the chunks (`config.yaml`; defaults when it is not given).
#[derive(Debug, Clone, Copy)]
pub struct Defs {
    pub use_server_output_tokens: bool,
    pub tokenizer: bool,
}

impl Default for Defs {
    fn default() -> Self {
        Defs { use_server_output_tokens: false, tokenizer: true }
    }
}

/// `effective_output_tokens`: the client's count of the whole text, or the server's with
/// `use_server_output_tokens`; 0 without response metrics.
fn effective(r: &Record, d: Defs) -> f64 {
    if !r.has_response_metrics {
        return 0.0;
    }
    let server = r.usage.as_ref().and_then(|u| u.output).filter(|_| d.use_server_output_tokens);
    server.or(r.client_output_tokens).unwrap_or(0.0)
}

fn e2e(r: &Record) -> f64 {
    r.end - r.start
}

/// Requests with more than one per-token time: the tool's "streamable" ones.
fn streamed(r: &Record) -> bool {
    r.ok() && r.token_times.len() > 1
}

/// `correct_streamed_response_metrics`: the per-chunk token count disagrees with the server's
/// `completion_tokens`.
fn mismatched(r: &Record, d: Defs) -> bool {
    let expected = r.usage.as_ref().and_then(|u| u.completion_tokens);
    d.tokenizer && r.response_chunks > 0 && expected.is_some_and(|e| e != r.token_times.len() as f64)
}

/// `make_concise_label`: the label `failures.by_label` counts an error under. Its
/// case-insensitive regexes are alternations of `a.?b.?c`, written here as [a, b, c].
pub fn label(error_type: &str, error_msg: &str) -> String {
    type Patterns = &'static [&'static [&'static str]];
    const HTTP: [(&str, Patterns); 4] = [
        ("Context Window", &[&["context", "window"], &["context length"], &["maximum context"], &["max", "tokens"], &["token", "limit"]]),
        (
            "Invalid JSON",
            &[
                &["invalid", "json"],
                &["json", "parse"],
                &["malformed", "json"],
                &["unexpected", "token"],
                &["expecting value"],
                &["unterminated string"],
                &["expecting ',' delimiter"],
            ],
        ),
        ("Timeout", &[&["timeout"], &["timed", "out"]]),
        ("Model Not Found", &[&["model", "not", "found"], &["no such model"]]),
    ];
    let msg = inner_message(error_msg).to_lowercase();
    let any = |pats: Patterns| pats.iter().any(|p| loose(&msg, p));
    if let Some(code) = error_type.strip_prefix("HTTP Error ") {
        let code = code.split_whitespace().last().unwrap_or("?");
        let by_code = match code {
            "429" => Some("Rate Limit"),
            "500" => Some("Internal Server Error"),
            "502" => Some("Bad Gateway"),
            "503" => Some("Service Unavailable"),
            "504" => Some("Gateway Timeout"),
            _ => None,
        };
        let by_text = HTTP.iter().find(|(_, pats)| any(pats)).map(|x| x.0);
        return format!("{code} - {}", by_code.or(by_text).unwrap_or("other"));
    }
    if any(&[&["timeout"], &["timed", "out"]]) {
        "Timeout".into()
    } else if any(&[&["connection", "refused"], &["connect"]]) {
        "Connection Error".into()
    } else {
        error_type.to_lowercase().trim().to_string()
    }
}

/// Whether `text` matches the regex `parts[0].?parts[1].?…` somewhere.
fn loose(text: &str, parts: &[&str]) -> bool {
    let Some((first, rest)) = parts.split_first() else { return true };
    text.match_indices(first).any(|(i, _)| follows(&text[i + first.len()..], rest))
}

/// Whether `text` starts with `parts[0]`, after at most one character, and so on.
fn follows(text: &str, parts: &[&str]) -> bool {
    let Some((first, rest)) = parts.split_first() else { return true };
    let skip_one = text.chars().next().map_or(text.len(), char::len_utf8);
    [0, skip_one].iter().any(|&k| text.get(k..).is_some_and(|t| t.starts_with(first) && follows(&t[first.len()..], rest)))
}

/// `parse_error_message`: the inner `error.message` of a JSON error body, else the text.
fn inner_message(raw: &str) -> String {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(raw) else { return raw.to_string() };
    let e = v.get("error").filter(|e| !e.is_null()).unwrap_or(&v);
    match e.get("message") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(m) => m.to_string(),
        None => raw.to_string(),
    }
}

/// Per-request values of a named series over `pop` (the tool's units: seconds, tokens, bytes);
/// counts are ones. None when the records lack what the series needs.
pub fn series(name: &str, pop: &[&Record], d: Defs) -> Option<Vec<f64>> {
    let ok = || pop.iter().filter(|r| r.ok());
    let failed = || pop.iter().filter(|r| !r.ok());
    let ones = |n: usize| vec![1.0; n];
    Some(match name {
        "all" => ones(pop.len()),
        "successes" => ones(ok().count()),
        "failures" => ones(failed().count()),
        "e2e" => ok().map(|r| e2e(r)).collect(),
        "failed_e2e" => failed().map(|r| e2e(r)).collect(),
        "ntpot" => ok().map(|r| if effective(r, d) > 0.0 { e2e(r) / effective(r, d) } else { 0.0 }).collect(),
        "ntpot_nonzero" => ok().filter(|r| effective(r, d) > 0.0).map(|r| e2e(r) / effective(r, d)).collect(),
        "ttft" => pop.iter().filter(|r| streamed(r)).map(|r| r.token_times[0] - r.start).collect(),
        "tpot" => pop
            .iter()
            .filter(|r| streamed(r) && effective(r, d) > 1.0)
            .map(|r| (r.token_times[r.token_times.len() - 1] - r.token_times[0]) / (effective(r, d) - 1.0))
            .collect(),
        "itl" => pop.iter().filter(|r| streamed(r)).flat_map(|r| r.token_times.windows(2).map(|w| w[1] - w[0])).collect(),
        "request_bytes" => ok().map(|r| r.request_bytes).collect::<Option<Vec<f64>>>()?,
        "input_tokens" => ok().map(|r| r.input_tokens).collect(),
        "failed_input_tokens" => failed().map(|r| r.input_tokens).collect(),
        "cached_input_tokens" => ok().map(|r| cached(r)).collect(),
        "failed_cached_input_tokens" => failed().map(|r| cached(r)).collect(),
        "info_input_tokens" => ok().map(|r| r.info_input_tokens).collect(),
        "output_client" => ok().filter(|r| r.has_response_metrics).filter_map(|r| r.client_output_tokens).collect(),
        "output_server" => ok().map(|r| server_or_client(r)).collect(),
        "output_effective" => ok().filter(|r| r.has_response_metrics).map(|r| effective(r, d)).collect(),
        "mismatch" => ones(ok().filter(|r| mismatched(r, d)).count()),
        "fallback_prompt" => ones(ok().filter(|r| r.usage.as_ref().and_then(|u| u.prompt).is_none()).count()),
        "fallback_output" => ones(ok().filter(|r| r.usage.as_ref().and_then(|u| u.output).is_none()).count()),
        _ => return media_or_label(name, pop),
    })
}

/// `media_count:image`, `media:image:pixels` and `label:<label>` series.
fn media_or_label(name: &str, pop: &[&Record]) -> Option<Vec<f64>> {
    if let Some(l) = name.strip_prefix("label:") {
        return Some(vec![1.0; pop.iter().filter(|r| r.error.as_ref().is_some_and(|(t, m)| label(t, m) == l)).count()]);
    }
    let slot = |k: &str| ["image", "video", "audio"].iter().position(|x| *x == k);
    let ok = pop.iter().filter(|r| r.ok());
    if let Some(kind) = name.strip_prefix("media_count:") {
        let s = slot(kind)?;
        return Some(ok.map(|r| r.media[s].as_ref().and_then(|m| m.get("count")).and_then(serde_json::Value::as_f64).unwrap_or(0.0)).collect());
    }
    let (kind, field) = name.strip_prefix("media:")?.split_once(':')?;
    let s = slot(kind)?;
    let instances = ok.filter_map(|r| r.media[s].as_ref()?.get("instances")?.as_array().cloned()).flatten();
    Some(instances.map(|i| i.get(field).and_then(serde_json::Value::as_f64).unwrap_or(0.0)).collect())
}

fn cached(r: &Record) -> f64 {
    r.usage.as_ref().and_then(|u| u.cached).unwrap_or(0.0)
}

/// `summarize_output_token_usage`: the server's count, else the client's, else 0.
fn server_or_client(r: &Record) -> f64 {
    r.usage.as_ref().and_then(|u| u.output).or(r.client_output_tokens.filter(|_| r.has_response_metrics)).unwrap_or(0.0)
}

/// One number the tool derives from the population: its window, its rates.
pub fn derived(name: &str, pop: &[&Record], d: Defs) -> Option<f64> {
    let starts = pop.iter().map(|r| r.start);
    let first = starts.clone().reduce(f64::min)?;
    let span = pop.iter().map(|r| r.end).reduce(f64::max)? - first;
    let send = starts.reduce(f64::max)? - first;
    let per_span = |x: f64| if span > 0.0 { x / span } else { 0.0 };
    let ok: Vec<&&Record> = pop.iter().filter(|r| r.ok()).collect();
    let sum = |f: &dyn Fn(&Record) -> f64| ok.iter().map(|r| f(r)).sum::<f64>();
    Some(match name {
        "span" => span,
        "send_duration" => send,
        "achieved_rate" if send > 0.0 => pop.len() as f64 / send,
        "achieved_rate" => 0.0,
        "requests_per_s" => per_span(ok.len() as f64),
        "input_per_s" => per_span(sum(&|r| r.input_tokens)),
        "output_per_s" => per_span(sum(&|r| effective(r, d))),
        "total_per_s" => per_span(sum(&|r| r.input_tokens + effective(r, d))),
        "br_input_per_s" => per_span(sum(&|r| r.info_input_tokens)),
        "br_total_per_s" => per_span(sum(&|r| r.info_input_tokens + effective(r, d))),
        "uncached" => (sum(&|r| r.input_tokens) - sum(&cached)).max(0.0),
        "failed_uncached" => {
            let f = pop.iter().filter(|r| !r.ok());
            (f.clone().map(|r| r.input_tokens).sum::<f64>() - f.map(|r| cached(r)).sum::<f64>()).max(0.0)
        }
        m => per_span(series(&format!("media_count:{}", m.strip_suffix("_per_s")?), pop, d)?.iter().sum()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_make_concise_labels() {
        assert_eq!(label("HTTP Error 500", r#"{"error":{"message":"injected 500","code":500}}"#), "500 - Internal Server Error");
        assert_eq!(label("HTTP Error 400", r#"{"error":{"message":"This model's maximum context length is 4096"}}"#), "400 - Context Window");
        assert_eq!(label("HTTP Error 404", "The model-not-found here"), "404 - Model Not Found", "model.?not.?found");
        assert_eq!(label("HTTP Error 418", "teapot"), "418 - other");
        assert_eq!(label("ClientPayloadError", "Response payload is not completed: <TransferEncodingError: 400>"), "clientpayloaderror");
        assert_eq!(label("ClientConnectorError", "Cannot connect to host 127.0.0.1:8123"), "Connection Error");
        assert_eq!(label("TimeoutError", "Request timed-out"), "Timeout", "timed.?out");
    }
}
