//! `credence mock-server` as the peer tools meet it: a JSON body when the request does not ask
//! for a stream, prompt tokens counted in content parts, the model name it was given,
//! reasoning tokens before the content, Python's JSON separators, and HEAD answered without a
//! body so that a kept-alive connection stays in step.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use credence::bench::mock_server::{MockConfig, spawn};
use serde_json::{Value, json};

fn config() -> MockConfig {
    MockConfig { ttft: Duration::ZERO, token_delay: Duration::ZERO, ..MockConfig::default() }
}

/// Sends one request with `Connection: close` and returns the whole response as text.
fn exchange(port: u16, method: &str, path: &str, body: Option<&Value>) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(s, "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len())
        .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

fn body_json(response: &str) -> Value {
    serde_json::from_str(response.split_once("\r\n\r\n").unwrap().1).unwrap()
}

/// The `data:` payloads of an SSE response, `[DONE]` left out.
fn events(response: &str) -> Vec<Value> {
    response.lines().filter_map(|l| l.strip_prefix("data: ")).filter(|d| *d != "[DONE]").map(|d| serde_json::from_str(d).unwrap()).collect()
}

#[test]
fn a_request_without_stream_gets_one_json_body() {
    let server = spawn(config(), 0).unwrap();
    let r = exchange(server.port, "POST", "/v1/completions", Some(&json!({"model": "m", "prompt": "one two three", "max_tokens": 5})));
    assert!(r.contains("Content-Type: application/json"), "{r}");
    let v = body_json(&r);
    assert_eq!(v["choices"][0]["text"], "tok0 tok1 tok2 tok3 tok4 ");
    assert_eq!(v["usage"]["prompt_tokens"], 3);
    assert_eq!(v["usage"]["completion_tokens"], 5);
}

#[test]
fn content_parts_count_and_max_completion_tokens_is_honoured() {
    let server = spawn(config(), 0).unwrap();
    let messages = json!([{"role": "user", "content": [{"type": "text", "text": "four words in here"}, {"type": "text", "text": "and two"}]}]);
    let req = json!({"model": "m", "messages": messages, "max_completion_tokens": 3, "stream": true});
    let r = exchange(server.port, "POST", "/v1/chat/completions", Some(&req));
    let ev = events(&r);
    let usage = &ev.last().unwrap()["usage"];
    assert_eq!((usage["prompt_tokens"].as_u64(), usage["completion_tokens"].as_u64()), (Some(6), Some(3)), "{r}");
}

#[test]
fn models_lists_the_given_name_and_head_keeps_the_connection_in_step() {
    let server = spawn(MockConfig { model: "Qwen/Qwen3-0.6B".into(), ..config() }, 0).unwrap();
    let v = body_json(&exchange(server.port, "GET", "/v1/models", None));
    assert_eq!(v["data"][0]["id"], "Qwen/Qwen3-0.6B");
    // HEAD then GET on one kept-alive connection: the GET's answer must start its own response.
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(s, "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    assert_eq!(out.matches("HTTP/1.1 200 OK").count(), 2, "{out}");
    assert!(!out.contains("mock_requests_total"), "HEAD sent a body: {out}");
}

#[test]
fn reasoning_tokens_stream_before_the_content() {
    let server = spawn(MockConfig { reasoning_tokens: 3, ..config() }, 0).unwrap();
    let req = json!({"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 2, "stream": true});
    let ev = events(&exchange(server.port, "POST", "/v1/chat/completions", Some(&req)));
    let deltas: Vec<&Value> = ev.iter().filter_map(|e| e["choices"].get(0).map(|c| &c["delta"])).collect();
    assert_eq!(deltas[1]["reasoning_content"], "think0 ");
    assert!(deltas[1]["content"].is_null());
    assert_eq!(deltas[4]["content"], "tok0 ", "content follows the three reasoning tokens");
    let usage = &ev.last().unwrap()["usage"];
    assert_eq!(usage["completion_tokens"], 5);
    assert_eq!(usage["completion_tokens_details"]["reasoning_tokens"], 3);
}

#[test]
fn spaced_json_uses_pythons_separators() {
    let server = spawn(MockConfig { spaced_json: true, ..config() }, 0).unwrap();
    let r = exchange(server.port, "POST", "/v1/completions", Some(&json!({"model": "m", "prompt": "x", "max_tokens": 2, "stream": true})));
    assert!(r.contains(r#""text": "tok0 ""#) && r.contains(r#""choices": ["#) && r.contains(r#"{"index": 0, "#), "{r}");
    assert_eq!(events(&r).len(), 3, "two tokens and the usage chunk, all still valid JSON");
}
