//! `per_request_lifecycle_metrics.json`: the records as inference-perf wrote them (times in
//! `time.perf_counter()` seconds), and the request rows they become once the clock is anchored.

use std::path::Path;

use serde_json::Value;

use crate::import::ImportError;
use crate::import::json::{Fields, number, numbers_at, short};
use crate::run::rows::{Request, error_kind};

/// The server's `usage` of one response, under either API's key names.
#[derive(Debug, Default, Clone)]
pub struct Usage {
    /// `prompt_tokens`, else `input_tokens` (Anthropic).
    pub prompt: Option<f64>,
    /// `completion_tokens`, else `output_tokens` (Anthropic).
    pub output: Option<f64>,
    /// `completion_tokens` alone: the count the tool's token-mismatch check compares with.
    pub completion_tokens: Option<f64>,
    /// `prompt_tokens_details.cached_tokens`.
    pub cached: Option<f64>,
}

/// One record, with what the tool's own summaries are computed from.
#[derive(Debug, Default)]
pub struct Record {
    pub index: usize,
    /// `start_time` (perf_counter s): when the request was sent.
    pub start: f64,
    pub end: f64,
    /// `error.error_type` and `error.error_msg`.
    pub error: Option<(String, String)>,
    /// Whether `info.response_metrics` is an object (null on failures).
    pub has_response_metrics: bool,
    /// `info.response_metrics.chunk_times`: one per content-bearing chunk.
    pub chunk_times: Vec<f64>,
    /// How many `response_chunks` the record keeps (the tool re-tokenizes them).
    pub response_chunks: usize,
    /// `info.response_metrics.output_token_times`: each chunk's arrival once per token of the
    /// chunk tokenized alone; the tool's TTFT, TPOT and ITL come from these.
    pub token_times: Vec<f64>,
    /// `info.response_metrics.output_tokens`: the client's count of the whole text.
    pub client_output_tokens: Option<f64>,
    pub usage: Option<Usage>,
    /// `info.request_metrics.text.input_tokens`: the server's prompt count where it gave one.
    pub input_tokens: f64,
    /// `info.input_tokens` (the stage report's input length).
    pub info_input_tokens: f64,
    /// UTF-8 bytes of `request` (the body sent), when the record keeps it.
    pub request_bytes: Option<f64>,
    /// `info.request_metrics.{image,video,audio}`.
    pub media: [Option<Value>; 3],
    pub lora_adapter: Option<String>,
}

impl Record {
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }
}

/// Parses the whole array; a record that cannot be read is an error naming it.
pub fn parse(path: &Path, v: &Value) -> Result<Vec<Record>, ImportError> {
    let list = v.as_array().ok_or_else(|| ImportError::new(path, None, "expected a JSON array of request records"))?;
    list.iter().enumerate().map(|(i, r)| record(path, i, r)).collect()
}

fn record(path: &Path, i: usize, r: &Value) -> Result<Record, ImportError> {
    let at = format!("record [{i}]");
    if !r.is_object() {
        return Err(ImportError::new(path, Some(at), format!("expected an object; found {}", short(r))));
    }
    let f = Fields::new(path, r, at.clone());
    let start = f.number("start_time")?;
    if !start.is_finite() {
        return Err(f.err("start_time", "the send time in perf_counter seconds (a finite number)"));
    }
    let mut rec = Record { index: i, start, end: f.number("end_time")?, error: error(&f)?, ..Default::default() };
    if let Some(b) = r.get("request") {
        let text = b.as_str().ok_or_else(|| f.err("request", "the request body as a string"))?;
        rec.request_bytes = Some(text.len() as f64);
    }
    match r.get("info") {
        None | Some(Value::Null) => {}
        Some(info) if info.is_object() => read_info(path, &format!("{at}, key info"), info, &mut rec)?,
        Some(_) => return Err(f.err("info", "an object or null")),
    }
    Ok(rec)
}

/// `error`: null, or `{error_type, error_msg}`.
fn error(f: &Fields<'_>) -> Result<Option<(String, String)>, ImportError> {
    match f.v.get("error") {
        None | Some(Value::Null) => Ok(None),
        Some(e) => {
            let ef = Fields::new(f.path, e, format!("{}, key error", f.at));
            let kind = ef.opt_str("error_type").ok_or_else(|| ef.err("error_type", "a string"))?;
            let msg = ef.opt_str("error_msg").unwrap_or_default();
            Ok(Some((kind.to_string(), msg.to_string())))
        }
    }
}

fn read_info(path: &Path, at: &str, info: &Value, rec: &mut Record) -> Result<(), ImportError> {
    let f = Fields::new(path, info, at);
    let count = |v: &Value, k: &str, at: String| -> Result<f64, ImportError> {
        match v.get(k) {
            None | Some(Value::Null) => Ok(0.0),
            Some(x) => number(x).ok_or_else(|| Fields::new(path, v, at).err(k, "a token count")),
        }
    };
    rec.info_input_tokens = count(info, "input_tokens", at.to_string())?;
    let rm = info.get("request_metrics").filter(|x| !x.is_null());
    if let Some(rm) = rm {
        let text = rm.get("text").filter(|x| !x.is_null());
        rec.input_tokens = text.map_or(Ok(0.0), |t| count(t, "input_tokens", format!("{at}.request_metrics.text")))?;
        for (slot, k) in ["image", "video", "audio"].iter().enumerate() {
            rec.media[slot] = rm.get(*k).filter(|x| !x.is_null()).cloned();
        }
    }
    rec.lora_adapter = f.opt_str("lora_adapter").map(String::from);
    match info.get("response_metrics") {
        None | Some(Value::Null) => Ok(()),
        Some(m) if m.is_object() => response_metrics(path, &format!("{at}.response_metrics"), m, rec),
        Some(_) => Err(f.err("response_metrics", "an object or null")),
    }
}

fn response_metrics(path: &Path, at: &str, m: &Value, rec: &mut Record) -> Result<(), ImportError> {
    let f = Fields::new(path, m, at);
    rec.has_response_metrics = true;
    let times = |k: &str| match m.get(k) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => numbers_at(path, a, &format!("{at}, key {k}")),
        Some(_) => Err(f.err(k, "an array of perf_counter seconds")),
    };
    rec.chunk_times = times("chunk_times")?;
    rec.token_times = times("output_token_times")?;
    rec.response_chunks = m.get("response_chunks").and_then(Value::as_array).map_or(0, Vec::len);
    rec.client_output_tokens = match m.get("output_tokens") {
        None | Some(Value::Null) => None,
        Some(x) => Some(number(x).ok_or_else(|| f.err("output_tokens", "a token count or null"))?),
    };
    rec.usage = match m.get("server_usage") {
        None | Some(Value::Null) => None,
        Some(u) if u.is_object() => Some(usage(path, &format!("{at}.server_usage"), u)?),
        Some(_) => return Err(f.err("server_usage", "an object or null")),
    };
    Ok(())
}

fn usage(path: &Path, at: &str, u: &Value) -> Result<Usage, ImportError> {
    let f = Fields::new(path, u, at);
    let get = |k: &str| -> Result<Option<f64>, ImportError> {
        match u.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(x) => number(x).map(Some).ok_or_else(|| f.err(k, "a token count or null")),
        }
    };
    let cached = match u.get("prompt_tokens_details").and_then(|d| d.get("cached_tokens")) {
        None | Some(Value::Null) => None,
        Some(x) => Some(number(x).ok_or_else(|| f.err("prompt_tokens_details", "cached_tokens as a token count"))?),
    };
    Ok(Usage {
        prompt: get("prompt_tokens")?.or(get("input_tokens")?),
        output: get("completion_tokens")?.or(get("output_tokens")?),
        completion_tokens: get("completion_tokens")?,
        cached,
    })
}

/// Parses JSON; a syntax error (a file cut short) names the record it is in.
pub fn parse_json_located(path: &Path, bytes: &[u8]) -> Result<Value, ImportError> {
    crate::import::json::parse(path, bytes).map_err(|mut e| {
        if let Some(k) = record_at_error(bytes, &e.at) {
            e.at = Some(format!("record [{k}], {}", e.at.unwrap_or_default()));
        }
        e
    })
}

/// The index of the top-level array element an error at `line L, column C` falls in.
fn record_at_error(bytes: &[u8], at: &Option<String>) -> Option<usize> {
    let nums: Vec<usize> = at.as_deref()?.split(|c: char| !c.is_ascii_digit()).filter_map(|x| x.parse().ok()).collect();
    let (line, col) = (*nums.first()?, *nums.get(1)?);
    let line_start = bytes.split_inclusive(|&b| b == b'\n').take(line.saturating_sub(1)).map(<[u8]>::len).sum::<usize>();
    let end = (line_start + col).min(bytes.len());
    let (mut depth, mut in_string, mut escaped, mut started) = (0usize, false, false, 0usize);
    for &b in &bytes[..end] {
        if in_string {
            (escaped, in_string) = (!escaped && b == b'\\', escaped || b != b'"');
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                started += usize::from(depth == 2);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    started.checked_sub(1)
}

/// Seconds to ns, on the same origin.
pub fn ns(s: f64) -> i64 {
    (s * 1e9).round() as i64
}

/// The row of one record, its times moved by `offset_ns` onto the wall clock.
pub fn row(r: &Record, offset_ns: i64) -> Request {
    let sent = ns(r.start) + offset_ns;
    let mut invalid = (!r.end.is_finite()).then(|| format!("key end_time is {}", r.end));
    if let Some(k) = r.chunk_times.iter().position(|t| !t.is_finite()) {
        invalid.get_or_insert_with(|| format!("key info.response_metrics.chunk_times[{k}] is {}", r.chunk_times[k]));
    }
    let chunks: Vec<i64> = r.chunk_times.iter().map(|&t| if t.is_finite() { ns(t) + offset_ns } else { sent }).collect();
    let usage = r.usage.as_ref();
    let ok = r.ok();
    let (kind, status) = r.error.as_ref().map_or((None, None), |(t, m)| {
        let (k, s) = kind_of(t, m);
        (Some(k), s)
    });
    Request {
        id: r.index.to_string(),
        sent_ns: sent,
        first_token_ns: chunks.first().copied().filter(|_| ok),
        end_ns: if r.end.is_finite() { ns(r.end) + offset_ns } else { sent },
        chunk_ns: (ok && !chunks.is_empty()).then_some(chunks),
        // A failed record's counts are the tool's zeros, not counts: left unknown.
        input_tokens: ok.then_some(r.input_tokens as u32),
        output_tokens: if ok { usage.and_then(|u| u.output).or(r.client_output_tokens).map(|x| x as u32) } else { None },
        cached_tokens: usage.and_then(|u| u.cached).filter(|_| ok).map(|x| x as u32),
        ok,
        error_kind: kind,
        error_message: r.error.as_ref().map(|(t, m)| format!("{t}: {m}")),
        http_status: status,
        phase: Some("measure"),
        invalid_source: invalid,
        ..Default::default()
    }
}

/// credence's error kind and the HTTP status for inference-perf's `error_type`: `HTTP Error
/// 500` is the status; aiohttp's exception names tell a cut stream (`ClientPayloadError`,
/// `ServerDisconnectedError`) from a timeout or a refused connection.
pub fn kind_of(error_type: &str, msg: &str) -> (&'static str, Option<u32>) {
    if let Some(code) = error_type.strip_prefix("HTTP Error ").and_then(|c| c.trim().parse::<u32>().ok()) {
        return (error_kind(msg, Some(code)), Some(code));
    }
    let kind = match error_type {
        "ClientPayloadError" | "ServerDisconnectedError" | "ClientOSError" | "StreamInterruptedError" => "disconnected",
        "TimeoutError" | "ServerTimeoutError" | "ConnectionTimeoutError" | "SocketTimeoutError" => "timeout",
        "ClientConnectorError" | "ClientConnectionError" | "ConnectionRefusedError" => "refused",
        "CancelledError" => "cancelled",
        "JSONDecodeError" | "ContentTypeError" => "malformed",
        _ => error_kind(&format!("{error_type} {msg}"), None),
    };
    (kind, None)
}
