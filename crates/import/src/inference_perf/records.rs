//! `per_request_lifecycle_metrics.json`: the records as inference-perf wrote them (times in
//! `time.perf_counter()` seconds), and the request rows they become once the clock is anchored.

use std::path::Path;

use serde_json::Value;

use crate::ImportError;
use crate::json::{number, numbers_at, short};
use credence_run::rows::{Request, error_kind};

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
    list.iter().enumerate().map(|(i, r)| record(Obj { path, record: i, prefix: String::new(), v: r })).collect()
}

/// One JSON object of record `record`, at key path `prefix` (`info.response_metrics.`), whose
/// errors name the file, the record and the whole key.
struct Obj<'a> {
    path: &'a Path,
    record: usize,
    prefix: String,
    v: &'a Value,
}

impl<'a> Obj<'a> {
    fn at(&self, k: &str) -> String {
        format!("record [{}], key {}{k}", self.record, self.prefix)
    }

    fn err(&self, k: &str, expected: &str) -> ImportError {
        let got = self.v.get(k).map_or_else(|| "it is missing".to_string(), |x| format!("found {}", short(x)));
        ImportError::new(self.path, Some(self.at(k)), format!("expected {expected}; {got}"))
    }

    /// The value at `k`; None when missing or null.
    fn get(&self, k: &str) -> Option<&'a Value> {
        self.v.get(k).filter(|x| !x.is_null())
    }

    /// A number (Python's NaN and Infinity included, for the caller to judge), or None.
    fn opt_number(&self, k: &str, expected: &str) -> Result<Option<f64>, ImportError> {
        self.get(k).map(|x| number(x).ok_or_else(|| self.err(k, expected))).transpose()
    }

    fn number(&self, k: &str, expected: &str) -> Result<f64, ImportError> {
        self.opt_number(k, expected)?.ok_or_else(|| self.err(k, expected))
    }

    fn opt_str(&self, k: &str, expected: &str) -> Result<Option<&'a str>, ImportError> {
        self.get(k).map(|x| x.as_str().ok_or_else(|| self.err(k, expected))).transpose()
    }

    fn opt_object(&self, k: &str) -> Result<Option<Obj<'a>>, ImportError> {
        match self.get(k) {
            None => Ok(None),
            Some(v) if v.is_object() => Ok(Some(Obj { path: self.path, record: self.record, prefix: format!("{}{k}.", self.prefix), v })),
            Some(_) => Err(self.err(k, "an object or null")),
        }
    }

    /// An array of perf_counter seconds; empty when missing or null.
    fn times(&self, k: &str) -> Result<Vec<f64>, ImportError> {
        match self.get(k) {
            None => Ok(Vec::new()),
            Some(Value::Array(a)) => numbers_at(self.path, a, &self.at(k)),
            Some(_) => Err(self.err(k, "an array of perf_counter seconds")),
        }
    }
}

fn record(o: Obj<'_>) -> Result<Record, ImportError> {
    if !o.v.is_object() {
        return Err(ImportError::new(o.path, Some(format!("record [{}]", o.record)), format!("expected an object; found {}", short(o.v))));
    }
    const SECONDS: &str = "the send time in perf_counter seconds (a finite number)";
    let start = o.number("start_time", SECONDS)?;
    if !start.is_finite() {
        return Err(o.err("start_time", SECONDS));
    }
    let end = o.number("end_time", "the end time in perf_counter seconds")?;
    let mut rec = Record { index: o.record, start, end, error: error(&o)?, ..Default::default() };
    rec.request_bytes = o.opt_str("request", "the request body as a string")?.map(|t| t.len() as f64);
    if let Some(info) = o.opt_object("info")? {
        read_info(&info, &mut rec)?;
    }
    Ok(rec)
}

/// `error`: null, or `{error_type, error_msg}`.
fn error(o: &Obj<'_>) -> Result<Option<(String, String)>, ImportError> {
    let Some(e) = o.opt_object("error")? else { return Ok(None) };
    let kind = e.opt_str("error_type", "a string")?.ok_or_else(|| e.err("error_type", "a string"))?;
    let msg = e.opt_str("error_msg", "a string")?.unwrap_or_default();
    Ok(Some((kind.to_string(), msg.to_string())))
}

fn read_info(info: &Obj<'_>, rec: &mut Record) -> Result<(), ImportError> {
    // The tool reads a missing count as 0 (`safe_float`).
    rec.info_input_tokens = info.opt_number("input_tokens", "a token count")?.unwrap_or(0.0);
    if let Some(rm) = info.opt_object("request_metrics")? {
        if let Some(text) = rm.opt_object("text")? {
            rec.input_tokens = text.opt_number("input_tokens", "a token count")?.unwrap_or(0.0);
        }
        for (slot, k) in ["image", "video", "audio"].iter().enumerate() {
            rec.media[slot] = rm.get(k).cloned();
        }
    }
    rec.lora_adapter = info.opt_str("lora_adapter", "a string or null")?.map(String::from);
    if let Some(m) = info.opt_object("response_metrics")? {
        response_metrics(&m, rec)?;
    }
    Ok(())
}

fn response_metrics(m: &Obj<'_>, rec: &mut Record) -> Result<(), ImportError> {
    rec.has_response_metrics = true;
    rec.chunk_times = m.times("chunk_times")?;
    rec.token_times = m.times("output_token_times")?;
    rec.response_chunks = m.get("response_chunks").and_then(Value::as_array).map_or(0, Vec::len);
    rec.client_output_tokens = m.opt_number("output_tokens", "a token count or null")?;
    if let Some(u) = m.opt_object("server_usage")? {
        let count = |k: &str| u.opt_number(k, "a token count or null");
        let cached = match u.opt_object("prompt_tokens_details")? {
            Some(d) => d.opt_number("cached_tokens", "a token count or null")?,
            None => None,
        };
        rec.usage = Some(Usage {
            prompt: count("prompt_tokens")?.or(count("input_tokens")?),
            output: count("completion_tokens")?.or(count("output_tokens")?),
            completion_tokens: count("completion_tokens")?,
            cached,
        });
    }
    Ok(())
}

/// Parses JSON; a syntax error (a file cut short) names the record it is in.
pub fn parse_json_located(path: &Path, bytes: &[u8]) -> Result<Value, ImportError> {
    crate::json::parse(path, bytes).map_err(|mut e| {
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
