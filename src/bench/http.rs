//! A minimal streaming HTTP/1.1 client for OpenAI-compatible servers (plain HTTP, keep-alive).
//!
//! The hot path never parses full JSON: it finds SSE event boundaries, stamps each event's
//! arrival, checks whether an event carries text by a byte search, and parses only the event
//! that carries `"usage"` (token counts) and error bodies.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// What one streamed request observed; times are `Instant`s, converted by the caller.
#[derive(Debug, Default)]
pub struct Observed {
    pub first_byte: Option<Instant>,
    pub first_token: Option<Instant>,
    pub chunks: Vec<Instant>,
    pub end: Option<Instant>,
    pub prompt_tokens: Option<u32>,
    pub completion_tokens: Option<u32>,
    pub http_status: Option<u32>,
    /// (error kind, message) when the request failed.
    pub error: Option<(&'static str, String)>,
}

/// A connection to `host:port`, reused across requests (keep-alive).
pub struct Conn {
    reader: BufReader<TcpStream>,
}

impl Conn {
    pub fn open(hostport: &str, timeout: Duration) -> std::io::Result<Conn> {
        let addr = std::net::ToSocketAddrs::to_socket_addrs(hostport)?.next().ok_or_else(|| std::io::Error::other("no address"))?;
        let s = TcpStream::connect_timeout(&addr, timeout)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(timeout))?;
        s.set_write_timeout(Some(timeout))?;
        Ok(Conn { reader: BufReader::with_capacity(64 << 10, s) })
    }
}

/// Whether an SSE `data:` payload carries generated text (a non-empty `text` or `content`).
fn has_text(data: &[u8]) -> bool {
    for key in [&b"\"text\":\""[..], &b"\"content\":\""[..]] {
        if let Some(i) = data.windows(key.len()).position(|w| w == key) {
            if data.get(i + key.len()).is_some_and(|c| *c != b'"') {
                return true;
            }
        }
    }
    false
}

fn usage(data: &[u8]) -> Option<(Option<u32>, Option<u32>)> {
    if !data.windows(7).any(|w| w == b"\"usage\"") {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(data).ok()?;
    let u = v.get("usage").filter(|u| !u.is_null())?;
    let g = |k: &str| u.get(k).and_then(serde_json::Value::as_u64).map(|x| x as u32);
    Some((g("prompt_tokens"), g("completion_tokens")))
}

/// Reads one line (CRLF or LF) into `buf`, without the terminator; false at EOF.
fn line(r: &mut BufReader<TcpStream>, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    buf.clear();
    let n = r.read_until(b'\n', buf)?;
    while buf.last().is_some_and(|c| *c == b'\n' || *c == b'\r') {
        buf.pop();
    }
    Ok(n > 0)
}

/// Sends one streaming POST and observes the response. Returns whether the connection can be
/// reused.
pub fn post_stream(conn: &mut Conn, hostport: &str, path: &str, body: &[u8], o: &mut Observed) -> bool {
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let stream = conn.reader.get_mut();
    if let Err(e) = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body)) {
        o.error = Some(("refused", format!("send failed: {e}")));
        return false;
    }
    let mut buf = Vec::with_capacity(512);
    let timeout_kind =
        |e: &std::io::Error| if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) { "timeout" } else { "client" };
    match line(&mut conn.reader, &mut buf) {
        Ok(true) => o.first_byte = Some(Instant::now()),
        Ok(false) => {
            o.error = Some(("client", "connection closed before a response".into()));
            return false;
        }
        Err(e) => {
            o.error = Some((timeout_kind(&e), format!("no response: {e}")));
            return false;
        }
    }
    let status: u32 = String::from_utf8_lossy(&buf).split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    o.http_status = Some(status);
    let (mut chunked, mut length, mut close) = (false, None::<usize>, false);
    loop {
        match line(&mut conn.reader, &mut buf) {
            Ok(true) if buf.is_empty() => break,
            Ok(true) => {
                let h = String::from_utf8_lossy(&buf).to_ascii_lowercase();
                if h.starts_with("transfer-encoding:") && h.contains("chunked") {
                    chunked = true;
                } else if let Some(v) = h.strip_prefix("content-length:") {
                    length = v.trim().parse().ok();
                } else if h.starts_with("connection:") && h.contains("close") {
                    close = true;
                }
            }
            _ => {
                o.error = Some(("client", "truncated response headers".into()));
                return false;
            }
        }
    }
    // The body as a byte stream: de-chunked when chunked, bounded by Content-Length, else to EOF.
    let mut body_reader = Body { chunked, remaining: length, chunk_left: 0, done: false, pending: Vec::new() };
    let mut event: Vec<u8> = Vec::new();
    let mut raw_body = Vec::new();
    loop {
        match body_reader.read_line(&mut conn.reader, &mut buf) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                o.error = Some((timeout_kind(&e), format!("stream broke: {e}")));
                return false;
            }
        }
        if status != 200 {
            raw_body.extend_from_slice(&buf);
            raw_body.push(b'\n');
            continue;
        }
        if buf.is_empty() {
            // End of one SSE event.
            if !event.is_empty() {
                let now = Instant::now();
                if event == b"[DONE]" {
                    o.end = Some(now);
                } else {
                    // Chunks that carry text only: the usage chunk and role-only deltas carry
                    // no tokens and would shorten the inter-token gaps.
                    if has_text(&event) {
                        o.chunks.push(now);
                        if o.first_token.is_none() {
                            o.first_token = Some(now);
                        }
                    }
                    if let Some((p, c)) = usage(&event) {
                        o.prompt_tokens = p;
                        o.completion_tokens = c;
                    }
                }
                event.clear();
            }
            continue;
        }
        if let Some(d) = buf.strip_prefix(b"data:") {
            let d = d.strip_prefix(b" ").unwrap_or(d);
            event.extend_from_slice(d);
        }
    }
    if o.end.is_none() {
        o.end = Some(Instant::now());
    }
    if status != 200 {
        let kind = if (400..500).contains(&status) {
            "http_4xx"
        } else if status >= 500 {
            "http_5xx"
        } else {
            "other"
        };
        o.error = Some((kind, String::from_utf8_lossy(&raw_body).chars().take(300).collect()));
    }
    !close && (chunked || length.is_some())
}

/// A response body, de-chunked, read line by line.
struct Body {
    chunked: bool,
    remaining: Option<usize>,
    chunk_left: usize,
    done: bool,
    /// Bytes read but not yet returned as a line.
    pending: Vec<u8>,
}

impl Body {
    fn next_bytes(&mut self, r: &mut BufReader<TcpStream>, out: &mut Vec<u8>) -> std::io::Result<bool> {
        if self.done {
            return Ok(false);
        }
        if self.chunked {
            if self.chunk_left == 0 {
                let mut size = Vec::new();
                line(r, &mut size)?;
                if size.is_empty() {
                    line(r, &mut size)?;
                }
                let n = usize::from_str_radix(String::from_utf8_lossy(&size).split(';').next().unwrap_or("0").trim(), 16).unwrap_or(0);
                if n == 0 {
                    let mut trailer = Vec::new();
                    line(r, &mut trailer)?;
                    self.done = true;
                    return Ok(false);
                }
                self.chunk_left = n;
            }
            let mut piece = vec![0u8; self.chunk_left.min(8192)];
            let got = r.read(&mut piece)?;
            if got == 0 {
                self.done = true;
                return Ok(false);
            }
            self.chunk_left -= got;
            out.extend_from_slice(&piece[..got]);
            if self.chunk_left == 0 {
                let mut crlf = [0u8; 2];
                r.read_exact(&mut crlf)?;
            }
            Ok(true)
        } else {
            let want = self.remaining.unwrap_or(8192).min(8192);
            if want == 0 {
                self.done = true;
                return Ok(false);
            }
            let mut piece = vec![0u8; want];
            let got = r.read(&mut piece)?;
            if got == 0 {
                self.done = true;
                return Ok(false);
            }
            if let Some(rem) = self.remaining.as_mut() {
                *rem -= got;
            }
            out.extend_from_slice(&piece[..got]);
            Ok(true)
        }
    }

    /// The next line of the body (without its terminator); false at the end.
    fn read_line(&mut self, r: &mut BufReader<TcpStream>, buf: &mut Vec<u8>) -> std::io::Result<bool> {
        loop {
            if let Some(i) = self.pending.iter().position(|c| *c == b'\n') {
                buf.clear();
                buf.extend_from_slice(&self.pending[..i]);
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                self.pending.drain(..=i);
                return Ok(true);
            }
            let mut more = Vec::new();
            if !self.next_bytes(r, &mut more)? {
                if self.pending.is_empty() {
                    return Ok(false);
                }
                buf.clear();
                buf.append(&mut self.pending);
                return Ok(true);
            }
            self.pending.extend_from_slice(&more);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_usage_detection() {
        assert!(has_text(br#"{"choices":[{"text":"Hi"}]}"#));
        assert!(!has_text(br#"{"choices":[{"text":""}]}"#));
        assert!(has_text(br#"{"choices":[{"delta":{"content":"x"}}]}"#));
        assert_eq!(usage(br#"{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7}}"#), Some((Some(5), Some(7))));
        assert_eq!(usage(br#"{"choices":[{"text":"a"}]}"#), None);
    }
}
