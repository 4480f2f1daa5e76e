//! A minimal streaming HTTP/1.1 client for OpenAI-compatible servers (HTTP or HTTPS, keep-alive).
//!
//! The hot path never parses full JSON: it finds SSE event boundaries, stamps each event's
//! arrival, checks whether an event carries text by a byte search, and parses only the event
//! that carries `"usage"` (token counts) and error bodies. Lines are read straight out of the
//! socket buffer: no allocation per chunk.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::tls::{TlsClient, Wire};

/// What one streamed request observed; times are `Instant`s, converted by the caller.
#[derive(Debug, Default)]
pub struct Observed {
    pub first_byte: Option<Instant>,
    /// The first token of any kind: a reasoning model's first thought counts.
    pub first_token: Option<Instant>,
    /// The first answer token (`text`, `content` or `tool_calls`), after any reasoning.
    pub first_content: Option<Instant>,
    pub chunks: Vec<Instant>,
    pub end: Option<Instant>,
    pub prompt_tokens: Option<u32>,
    pub completion_tokens: Option<u32>,
    /// The reasoning share of `completion_tokens`, when the usage chunk reports it.
    pub reasoning_tokens: Option<u32>,
    /// Prompt tokens the server served from its prefix cache
    /// (`prompt_tokens_details.cached_tokens`), when the usage chunk reports them.
    pub cached_tokens: Option<u32>,
    /// The answer's text, kept only when asked for (`Some` before the request: a
    /// conversation's next turn carries it).
    pub text: Option<String>,
    pub http_status: Option<u32>,
    /// (error kind, message) when the request failed.
    pub error: Option<(&'static str, String)>,
}

/// How a request ended, for the connection's next use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// The connection can carry the next request.
    Reuse,
    /// The connection must be closed.
    Close,
    /// A reused connection was found closed before the request reached the server (an idle
    /// keep-alive connection the server dropped): send again on a new connection.
    Stale,
}

/// A connection to `host:port`, reused across requests (keep-alive).
pub struct Conn {
    reader: BufReader<Wire>,
    /// Requests this connection has carried.
    pub used: u64,
}

impl Conn {
    /// Connects, and with `tls` completes the TLS handshake: a certificate the client does
    /// not trust fails here, as `refused`, with the fix in the message.
    pub fn open(hostport: &str, tls: Option<&TlsClient>, timeout: Duration) -> Result<Conn, (&'static str, String)> {
        let addr = std::net::ToSocketAddrs::to_socket_addrs(hostport)
            .map_err(|e| ("refused", format!("cannot resolve {hostport}: {e}")))?
            .next()
            .ok_or_else(|| ("refused", format!("{hostport} has no address")))?;
        let s = TcpStream::connect_timeout(&addr, timeout).map_err(|e| (io_kind(&e, "refused"), format!("cannot connect to {hostport}: {e}")))?;
        let setup = s.set_nodelay(true).and_then(|()| s.set_read_timeout(Some(timeout))).and_then(|()| s.set_write_timeout(Some(timeout)));
        setup.map_err(|e| ("client", format!("socket setup: {e}")))?;
        let wire = Wire::over(s, tls, hostport).map_err(|e| ("refused", e))?;
        Ok(Conn { reader: BufReader::with_capacity(64 << 10, wire), used: 0 })
    }

    /// A fresh connection whose server answers with `response`, read at most `piece` bytes
    /// at a time: the client's parsing without a socket.
    pub fn replaying(response: Vec<u8>, piece: usize) -> Conn {
        let wire = Wire::Replay(super::tls::Replay { response: std::io::Cursor::new(response), piece });
        Conn { reader: BufReader::with_capacity(64 << 10, wire), used: 0 }
    }
}

/// The error kind of an I/O error: timeouts, a peer that went away, or `other`.
fn io_kind(e: &std::io::Error, other: &'static str) -> &'static str {
    match e.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => "timeout",
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe | ErrorKind::UnexpectedEof => "disconnected",
        _ => other,
    }
}

/// What generated output one SSE payload carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Output {
    None,
    /// Only a reasoning model's thinking (`reasoning_content`, `reasoning`).
    Reasoning,
    /// Answer output: completion `text`, chat `content` or streamed `tool_calls`.
    Content,
}

/// What one pass over an SSE payload's keys found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Keys {
    output: Output,
    /// A `"usage"` key: the payload is worth parsing as JSON for token counts.
    usage: bool,
}

/// Keys whose non-empty value is generated output (vLLM and SGLang stream a reasoning model's
/// thinking as `reasoning_content`, others as `reasoning`), grouped by the letter after the
/// opening quote so that most quotes are dismissed by one byte comparison.
fn key_at(rest: &[u8]) -> Option<(usize, Option<Output>)> {
    const KEYS: [(&[u8], Option<Output>); 6] = [
        (b"\"text\"", Some(Output::Content)),
        (b"\"tool_calls\"", Some(Output::Content)),
        (b"\"content\"", Some(Output::Content)),
        (b"\"reasoning_content\"", Some(Output::Reasoning)),
        (b"\"reasoning\"", Some(Output::Reasoning)),
        (b"\"usage\"", None),
    ];
    let candidates: &[(&[u8], Option<Output>)] = match rest.get(1)? {
        b't' => &KEYS[0..2],
        b'c' => &KEYS[2..3],
        b'r' => &KEYS[3..5],
        b'u' => &KEYS[5..6],
        _ => return None,
    };
    candidates.iter().find(|(key, _)| rest.starts_with(key)).map(|(key, kind)| (key.len(), *kind))
}

/// Scans an SSE `data:` payload once, quote by quote, for output keys with a non-empty string
/// (or, for tool calls, a non-empty array) as their value, and for a usage key. Any valid JSON
/// spacing and key order is read (Python servers write `"content": "x"`); an empty string or a
/// null is not output. No JSON is parsed: this runs for every event.
fn scan(data: &[u8]) -> Keys {
    let mut keys = Keys { output: Output::None, usage: false };
    let mut from = 0;
    while let Some(q) = data[from..].iter().position(|c| *c == b'"') {
        let at = from + q;
        from = at + 1;
        // A key, not an escaped quote inside some string value.
        if at > 0 && data[at - 1] == b'\\' {
            continue;
        }
        let Some((len, kind)) = key_at(&data[at..]) else { continue };
        match kind {
            None => keys.usage = true,
            Some(kind) if value_is_output(&data[at + len..]) => {
                keys.output = keys.output.max(kind);
            }
            Some(_) => {}
        }
        from = at + len;
    }
    keys
}

/// Whether an SSE `data:` payload carries generated output of any kind.
#[cfg(test)]
fn has_text(data: &[u8]) -> bool {
    scan(data).output != Output::None
}

/// `b` without its leading JSON whitespace.
fn skip(b: &[u8]) -> &[u8] {
    b.trim_ascii_start()
}

/// After a key: optional whitespace, a colon, optional whitespace, then a string with at least
/// one character or an array with at least one element.
fn value_is_output(rest: &[u8]) -> bool {
    let Some(after_colon) = skip(rest).strip_prefix(b":") else { return false };
    match skip(after_colon) {
        [b'"', next, ..] => *next != b'"',
        [b'[', tail @ ..] => skip(tail).first().is_some_and(|c| *c != b']'),
        _ => false,
    }
}

/// A payload that cannot be one JSON object: the cheap check the hot path can afford.
fn malformed(data: &[u8]) -> bool {
    let t = data.trim_ascii();
    !(t.first() == Some(&b'{') && t.last() == Some(&b'}'))
}

/// Token counts of a usage chunk: prompt, completion and, for reasoning models, the reasoning
/// share of the completion (`completion_tokens_details.reasoning_tokens`, as OpenAI and vLLM
/// report it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Usage {
    prompt: Option<u32>,
    completion: Option<u32>,
    reasoning: Option<u32>,
    cached: Option<u32>,
}

/// Appends an event's answer text (a chat delta's `content` or a completion's `text`).
fn append_text(event: &[u8], text: &mut String) {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(event) else { return };
    let choice = &v["choices"][0];
    if let Some(t) = choice["delta"]["content"].as_str().or_else(|| choice["text"].as_str()) {
        text.push_str(t);
    }
}

/// The usage object of a payload that has a `"usage"` key; parsed as JSON, once per request.
fn usage(data: &[u8]) -> Option<Usage> {
    let v: serde_json::Value = serde_json::from_slice(data).ok()?;
    let u = v.get("usage").filter(|u| !u.is_null())?;
    let count = |x: Option<&serde_json::Value>| x.and_then(serde_json::Value::as_u64).map(|x| x as u32);
    let reasoning = count(u.get("completion_tokens_details").and_then(|d| d.get("reasoning_tokens")));
    let cached = count(u.get("prompt_tokens_details").and_then(|d| d.get("cached_tokens")));
    Some(Usage { prompt: count(u.get("prompt_tokens")), completion: count(u.get("completion_tokens")), reasoning, cached })
}

/// Reads one line (CRLF or LF) into `buf`, without the terminator; false at EOF.
fn line(r: &mut BufReader<Wire>, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    buf.clear();
    let n = r.read_until(b'\n', buf)?;
    while buf.last().is_some_and(|c| *c == b'\n' || *c == b'\r') {
        buf.pop();
    }
    Ok(n > 0)
}

fn snippet(b: &[u8]) -> String {
    String::from_utf8_lossy(b).chars().take(300).collect()
}

/// Sends one streaming POST and observes the response.
pub fn post_stream(conn: &mut Conn, request: &[u8], o: &mut Observed) -> After {
    let reused = conn.used > 0;
    conn.used += 1;
    let mut buf = match send_and_await(conn, request, reused, o) {
        Ok(buf) => buf,
        Err(after) => return after,
    };
    let status: u32 = String::from_utf8_lossy(&buf).split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    o.http_status = Some(status);
    let (framing, close) = match read_headers(conn, &mut buf, o) {
        Ok(h) => h,
        Err(after) => return after,
    };
    let mut body = Body { framing, scratch: Vec::with_capacity(16) };
    let end = read_body(conn, &mut body, &mut buf, status, o);
    let now = Instant::now();
    o.end.get_or_insert(now);
    judge_end(o, status, &end, &body.framing);
    if close || !end.complete { After::Close } else { After::Reuse }
}

/// Writes the request and reads the status line into the returned buffer, stamping the first byte.
fn send_and_await(conn: &mut Conn, request: &[u8], reused: bool, o: &mut Observed) -> Result<Vec<u8>, After> {
    // One write for head and body: a second small write would wait on the peer's delayed ACK.
    if let Err(e) = conn.reader.get_mut().write_all(request) {
        if reused {
            return Err(After::Stale);
        }
        o.error = Some((io_kind(&e, "client"), format!("send failed: {e}")));
        return Err(After::Close);
    }
    let mut buf = Vec::with_capacity(512);
    match line(&mut conn.reader, &mut buf) {
        Ok(true) => o.first_byte = Some(Instant::now()),
        Ok(false) if reused => return Err(After::Stale),
        Ok(false) => {
            o.error = Some(("disconnected", "the server closed the connection before responding".into()));
            return Err(After::Close);
        }
        Err(e) if reused && io_kind(&e, "") == "disconnected" => return Err(After::Stale),
        Err(e) => {
            o.error = Some((io_kind(&e, "client"), format!("no response: {e}")));
            return Err(After::Close);
        }
    }
    Ok(buf)
}

/// Reads the response headers: how the body is framed, and whether the connection closes after it.
fn read_headers(conn: &mut Conn, buf: &mut Vec<u8>, o: &mut Observed) -> Result<(Framing, bool), After> {
    let (mut chunked, mut length, mut close) = (false, None::<usize>, false);
    loop {
        match line(&mut conn.reader, buf) {
            Ok(true) if buf.is_empty() => break,
            Ok(true) => {
                let h = String::from_utf8_lossy(buf).to_ascii_lowercase();
                if h.starts_with("transfer-encoding:") && h.contains("chunked") {
                    chunked = true;
                } else if let Some(v) = h.strip_prefix("content-length:") {
                    length = v.trim().parse().ok();
                } else if h.starts_with("connection:") && h.contains("close") {
                    close = true;
                }
            }
            Ok(false) => {
                o.error = Some(("disconnected", "the server closed the connection inside the response headers".into()));
                return Err(After::Close);
            }
            Err(e) => {
                o.error = Some((io_kind(&e, "client"), format!("response headers: {e}")));
                return Err(After::Close);
            }
        }
    }
    let framing = if chunked {
        Framing::Chunked { left: 0, done: false }
    } else if let Some(n) = length {
        Framing::Length(n)
    } else {
        close = true;
        Framing::ToEof
    };
    Ok((framing, close))
}

/// How the body read ended.
struct BodyEnd {
    /// The body was read to its end (not cut by an error).
    complete: bool,
    /// The body ended with an SSE event not yet terminated.
    inside_event: bool,
    /// The whole body of a non-200 response, or the first line of a 200 one: what the error
    /// message shows (one copy per request, none per chunk).
    raw_body: Vec<u8>,
}

/// Reads the body line by line, stamping each SSE event as it completes.
fn read_body(conn: &mut Conn, body: &mut Body, buf: &mut Vec<u8>, status: u32, o: &mut Observed) -> BodyEnd {
    let mut event: Vec<u8> = Vec::new();
    let mut raw_body = Vec::new();
    let mut complete = false;
    loop {
        match body.read_line(&mut conn.reader, buf) {
            Ok(true) => {}
            Ok(false) => {
                complete = true;
                break;
            }
            Err(e) => {
                o.error = Some((io_kind(&e, "client"), format!("stream broke after {} chunks: {e}", o.chunks.len())));
                break;
            }
        }
        if status != 200 {
            raw_body.extend_from_slice(buf);
            raw_body.push(b'\n');
            continue;
        }
        if raw_body.is_empty() && !buf.is_empty() {
            raw_body.extend_from_slice(buf);
        }
        if buf.is_empty() {
            // End of one SSE event.
            if event.is_empty() {
                continue;
            }
            end_of_event(&event, o);
            event.clear();
        } else if let Some(d) = buf.strip_prefix(b"data:") {
            // Multi-line data joins with a newline (SSE); other fields (event, id, retry,
            // comments) carry nothing we need.
            if !event.is_empty() {
                event.push(b'\n');
            }
            event.extend_from_slice(d.strip_prefix(b" ").unwrap_or(d));
        }
    }
    BodyEnd { complete, inside_event: !event.is_empty(), raw_body }
}

/// Stamps one complete SSE event: the end marker, a malformed payload, a text chunk, or usage.
fn end_of_event(event: &[u8], o: &mut Observed) {
    let now = Instant::now();
    if event == b"[DONE]" {
        o.end = Some(now);
    } else if malformed(event) {
        if o.error.is_none() {
            o.error = Some(("malformed", format!("event {} is not a JSON object: {}", o.chunks.len() + 1, snippet(event))));
        }
    } else {
        // Chunks that carry output only: the usage chunk and role-only deltas carry no
        // tokens and would shorten the inter-token gaps.
        let keys = scan(event);
        if keys.output != Output::None {
            o.chunks.push(now);
            o.first_token.get_or_insert(now);
        }
        if keys.output == Output::Content {
            o.first_content.get_or_insert(now);
            if let Some(text) = o.text.as_mut() {
                append_text(event, text);
            }
        }
        if let Some(u) = keys.usage.then(|| usage(event)).flatten() {
            o.prompt_tokens = u.prompt;
            o.completion_tokens = u.completion;
            o.reasoning_tokens = u.reasoning;
            o.cached_tokens = u.cached;
        }
    }
}

/// The request's error, if any, once the body has ended: an HTTP error, a cut stream or a cut event.
fn judge_end(o: &mut Observed, status: u32, end: &BodyEnd, framing: &Framing) {
    if status != 200 {
        let kind = match status {
            400..=499 => "http_4xx",
            500..=599 => "http_5xx",
            _ => "other",
        };
        o.error = Some((kind, snippet(&end.raw_body)));
    } else if !end.complete && o.error.is_none() {
        o.error = Some(("disconnected", format!("the stream ended after {} chunks without its end", o.chunks.len())));
    } else if end.complete && o.error.is_none() && matches!(framing, Framing::Chunked { .. }) && end.inside_event {
        o.error = Some(("malformed", "the stream ended inside an event".into()));
    } else if end.complete && o.error.is_none() && o.first_token.is_none() {
        // A 200 stream that ended well but carried nothing readable as output: a failure, so
        // that no success without a TTFT hides a format the client does not understand.
        o.error = Some(("no_tokens", format!("no event carried generated output; the response began: {}", snippet(&end.raw_body))));
    }
}

/// How the response body is delimited.
enum Framing {
    /// Chunked transfer encoding: bytes left in the current chunk, and whether the last
    /// (zero) chunk was read.
    Chunked { left: usize, done: bool },
    /// Content-Length: bytes left.
    Length(usize),
    /// Until the server closes the connection.
    ToEof,
}

/// A response body, de-framed and read line by line out of the socket buffer.
struct Body {
    framing: Framing,
    /// Chunk-size lines and chunk terminators, reused so that no chunk allocates.
    scratch: Vec<u8>,
}

impl Body {
    /// Bytes of body available now (at most `want`), or 0 at the end of the body.
    fn budget(&mut self, r: &mut BufReader<Wire>) -> std::io::Result<usize> {
        match &mut self.framing {
            Framing::Chunked { left, done } => {
                if *done {
                    return Ok(0);
                }
                if *left == 0 {
                    let size = &mut self.scratch;
                    if !line(r, size)? {
                        return Err(ErrorKind::UnexpectedEof.into());
                    }
                    let digits = size.split(|c| *c == b';').next().unwrap_or(&[]).trim_ascii();
                    let n = std::str::from_utf8(digits)
                        .ok()
                        .and_then(|d| usize::from_str_radix(d, 16).ok())
                        .ok_or_else(|| std::io::Error::new(ErrorKind::InvalidData, format!("bad chunk size line {:?}", snippet(size))))?;
                    if n == 0 {
                        // Trailers up to the empty line.
                        while line(r, size)? && !size.is_empty() {}
                        *done = true;
                        return Ok(0);
                    }
                    *left = n;
                }
                Ok(*left)
            }
            Framing::Length(n) => Ok(*n),
            Framing::ToEof => Ok(usize::MAX),
        }
    }

    fn consumed(&mut self, r: &mut BufReader<Wire>, n: usize) -> std::io::Result<()> {
        match &mut self.framing {
            Framing::Chunked { left, .. } => {
                *left -= n;
                if *left == 0 {
                    line(r, &mut self.scratch)?;
                }
            }
            Framing::Length(left) => *left -= n,
            Framing::ToEof => {}
        }
        Ok(())
    }

    /// The next line of the body (without its terminator); false at the end of the body.
    fn read_line(&mut self, r: &mut BufReader<Wire>, buf: &mut Vec<u8>) -> std::io::Result<bool> {
        buf.clear();
        loop {
            let budget = self.budget(r)?;
            if budget == 0 {
                return Ok(!buf.is_empty());
            }
            let avail = r.fill_buf()?;
            if avail.is_empty() {
                if matches!(self.framing, Framing::ToEof) {
                    self.framing = Framing::Length(0);
                    return Ok(!buf.is_empty());
                }
                return Err(ErrorKind::UnexpectedEof.into());
            }
            let take = avail.len().min(budget);
            let (n, found) = match avail[..take].iter().position(|c| *c == b'\n') {
                Some(i) => (i + 1, true),
                None => (take, false),
            };
            buf.extend_from_slice(&avail[..n]);
            r.consume(n);
            self.consumed(r, n)?;
            if found {
                buf.pop();
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Ok(true);
            }
        }
    }
}

/// The bytes of one POST request: head (with `extra_head`, header lines each ending in CRLF)
/// and JSON body.
pub fn request_bytes(hostport: &str, path: &str, extra_head: &[u8], body: &[u8]) -> Vec<u8> {
    let mut r = format!("POST {path} HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n").into_bytes();
    r.extend_from_slice(extra_head);
    r.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    r.extend_from_slice(body);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serves `response` (written in the given pieces, with pauses so that they arrive as
    /// separate reads) to one request on a fresh loopback connection; returns what the client
    /// observed and how the request ended.
    fn observe(pieces: Vec<Vec<u8>>) -> (Observed, After) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut head = [0u8; 4096];
            let _ = std::io::Read::read(&mut s, &mut head);
            for p in pieces {
                s.write_all(&p).unwrap();
                s.flush().unwrap();
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let hostport = format!("127.0.0.1:{port}");
        let mut conn = Conn::open(&hostport, None, Duration::from_secs(2)).unwrap();
        let mut o = Observed::default();
        let after = post_stream(&mut conn, &request_bytes(&hostport, "/v1/completions", b"", b"{}"), &mut o);
        server.join().unwrap();
        (o, after)
    }

    fn chunk(data: &str) -> Vec<u8> {
        format!("{:x}\r\n{data}\r\n", data.len()).into_bytes()
    }

    const OK_HEAD: &str = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

    #[test]
    fn a_stream_without_output_is_no_tokens() {
        let role = "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n";
        let pieces = vec![OK_HEAD.as_bytes().to_vec(), chunk(role), chunk("data: [DONE]\n\n"), b"0\r\n\r\n".to_vec()];
        let (o, _) = observe(pieces);
        let (kind, message) = o.error.unwrap();
        assert_eq!(kind, "no_tokens");
        assert!(message.contains("\"role\":\"assistant\""), "the event is shown verbatim: {message}");
    }

    #[test]
    fn events_split_across_chunks_and_reads_are_joined() {
        let ev = "data: {\"choices\":[{\"text\":\"a\"}]}\n\n";
        let (left, right) = ev.split_at(12);
        let pieces = vec![
            OK_HEAD.as_bytes().to_vec(),
            chunk(left),
            chunk(right),
            // CRLF line endings, a comment and a keep-alive ping carry no tokens.
            chunk(": ping\r\n\r\ndata: {\"choices\":[{\"text\":\"b\"}]}\r\n\r\n"),
            chunk("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n"),
            b"0\r\n\r\n".to_vec(),
        ];
        let (o, after) = observe(pieces);
        assert_eq!(o.error, None);
        assert_eq!(o.chunks.len(), 2, "two text events, whatever the framing");
        assert_eq!((o.prompt_tokens, o.completion_tokens), (Some(3), Some(2)));
        assert!(o.first_byte.unwrap() <= o.first_token.unwrap());
        assert_eq!(after, After::Reuse);
    }

    #[test]
    fn content_length_and_close_delimited_bodies() {
        let body = "data: {\"choices\":[{\"text\":\"a\"}]}\n\ndata: [DONE]\n\n";
        let (o, after) = observe(vec![format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}", body.len()).into_bytes()]);
        assert_eq!((o.error, o.chunks.len(), after), (None, 1, After::Reuse));
        // HTTP/1.0 style: the body ends when the server closes; the connection is not reused.
        let (o, after) = observe(vec![format!("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n{body}").into_bytes()]);
        assert_eq!((o.error, o.chunks.len(), after), (None, 1, After::Close));
    }

    #[test]
    fn a_stream_cut_mid_chunk_is_disconnected_and_garbage_is_malformed() {
        let (o, _) = observe(vec![OK_HEAD.as_bytes().to_vec(), chunk("data: {\"choices\":[{\"text\":\"a\"}]}\n\n"), b"40\r\ndata: {\"ch".to_vec()]);
        assert_eq!(o.error.map(|e| e.0), Some("disconnected"));
        let (o, _) = observe(vec![OK_HEAD.as_bytes().to_vec(), chunk("data: <html>oops</html>\n\n"), b"0\r\n\r\n".to_vec()]);
        assert_eq!(o.error.map(|e| e.0), Some("malformed"));
        let (o, _) = observe(vec![b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy".to_vec()]);
        assert_eq!((o.error.map(|e| e.0), o.http_status), (Some("http_5xx"), Some(503)));
        let (o, _) = observe(vec![]);
        assert_eq!(o.error.map(|e| e.0), Some("disconnected"), "closed before any response");
    }

    #[test]
    fn reasoning_and_answer_output_are_told_apart() {
        let kind = |d: &[u8]| scan(d).output;
        assert_eq!(kind(br#"{"choices":[{"delta":{"content":null,"reasoning_content":"think"}}]}"#), Output::Reasoning);
        assert_eq!(kind(br#"{"choices": [{"delta": {"reasoning": "think"}}]}"#), Output::Reasoning);
        assert_eq!(kind(br#"{"choices":[{"delta":{"reasoning_content":"","content":"x"}}]}"#), Output::Content);
        assert_eq!(kind(br#"{"choices":[{"delta":{"reasoning_content":"t","content":"x"}}]}"#), Output::Content, "both: the answer has begun");
        assert_eq!(kind(br#"{"choices":[{"text":"x"}]}"#), Output::Content);
        assert_eq!(kind(br#"{"choices":[{"delta":{"tool_calls":[{"index":0}]}}]}"#), Output::Content);
        assert_eq!(kind(br#"{"choices":[{"delta":{"role":"assistant","content":""}}]}"#), Output::None);
        // Keys only count as keys: the same letters inside a string value do not.
        assert_eq!(kind(br#"{"note":"\"content\": \"x\"","choices":[{"delta":{"reasoning":"t"}}]}"#), Output::Reasoning);
    }

    #[test]
    fn first_content_comes_after_the_reasoning() {
        let ev = |d: &str| chunk(&format!("data: {d}\n\n"));
        let pieces = vec![
            OK_HEAD.as_bytes().to_vec(),
            ev(r#"{"choices":[{"delta":{"reasoning_content":"a"}}]}"#),
            ev(r#"{"choices":[{"delta":{"reasoning_content":"b"}}]}"#),
            ev(r#"{"choices":[{"delta":{"content":"c"}}]}"#),
            ev(r#"{"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":3,"completion_tokens_details":{"reasoning_tokens":2}}}"#),
            chunk("data: [DONE]\n\n"),
            b"0\r\n\r\n".to_vec(),
        ];
        let (o, _) = observe(pieces);
        assert_eq!(o.error, None);
        assert_eq!(o.chunks.len(), 3, "reasoning chunks are tokens too");
        assert_eq!(o.first_token, Some(o.chunks[0]));
        assert_eq!(o.first_content, Some(o.chunks[2]), "the first answer token is the third chunk");
        assert!(o.first_content.unwrap() > o.first_token.unwrap());
        assert_eq!((o.completion_tokens, o.reasoning_tokens), (Some(3), Some(2)));
    }

    #[test]
    fn text_and_usage_detection() {
        assert!(has_text(br#"{"choices":[{"text":"Hi"}]}"#));
        assert!(!has_text(br#"{"choices":[{"text":""}]}"#));
        assert!(has_text(br#"{"choices":[{"delta":{"content":"x"}}]}"#));
        // Python's separators, other key orders, reasoning first, tool calls.
        assert!(has_text(br#"{"choices": [{"index": 0, "delta": {"content": "x"}}]}"#));
        assert!(has_text(b"{\"choices\":[{\"delta\":{\"content\" :\n \"x\"}}]}"));
        assert!(has_text(br#"{"choices":[{"delta":{"content":null,"reasoning_content":"think"}}]}"#));
        assert!(has_text(br#"{"choices":[{"delta":{"reasoning": "think"}}]}"#));
        assert!(has_text(br#"{"choices":[{"delta":{"content":null,"tool_calls":[{"index":0,"function":{"arguments":"{"}}]}}]}"#));
        // Not output: null, empty strings, empty arrays, a role-only delta, a key inside a string.
        assert!(!has_text(br#"{"choices":[{"delta":{"content": null, "reasoning_content": ""}}]}"#));
        assert!(!has_text(br#"{"choices":[{"delta":{"role":"assistant","content":"","tool_calls":[]}}]}"#));
        assert!(!has_text(br#"{"model":"m","note":"a \"content\": \"x\" quoted","choices":[{"delta":{}}]}"#));
        assert_eq!(
            usage(br#"{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7}}"#),
            Some(Usage { prompt: Some(5), completion: Some(7), reasoning: None, cached: None })
        );
        let with_details = br#"{"choices":[], "usage": {"prompt_tokens": 5, "completion_tokens": 7, "completion_tokens_details": {"reasoning_tokens": 4}}}"#;
        assert_eq!(usage(with_details), Some(Usage { prompt: Some(5), completion: Some(7), reasoning: Some(4), cached: None }));
        // vLLM's cached prompt tokens (`--enable-prompt-tokens-details`).
        let cached = br#"{"choices":[],"usage":{"prompt_tokens":50,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":32}}}"#;
        assert_eq!(usage(cached).and_then(|u| u.cached), Some(32));
        let mut text = String::new();
        append_text(br#"{"choices":[{"index":0,"delta":{"content":"tok0 "}}]}"#, &mut text);
        append_text(br#"{"choices":[{"index":0,"text":"tok1 "}]}"#, &mut text);
        assert_eq!(text, "tok0 tok1 ");
        assert!(scan(with_details).usage);
        assert!(!scan(br#"{"choices":[{"text":"a"}]}"#).usage);
        assert_eq!(usage(br#"{"choices":[{"text":"a"}]}"#), None);
        assert!(malformed(br#"{"choices":[{"text":"tr"#));
        assert!(malformed(b"<html>"));
        assert!(!malformed(br#" {"choices":[]} "#));
    }
}
