//! Server metrics: one HTTP GET of a Prometheus text endpoint per sample (plain HTTP/1.1 over
//! a socket with a short deadline: a slow server must not stall the samplers).
//!
//! The answer is read by its framing (`Content-Length`, chunked, or the end of the stream), so a
//! server that keeps the connection open despite `Connection: close` still answers. Every
//! scrape that yields nothing fails for a reason (`ScrapeError`), and `ScrapeLog` counts them:
//! a run that asked for server metrics never loses them in silence.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use credence_run::manifest::ServerScrapes;
use credence_run::schema::TableKind;
use credence_run::table::{Column, Table, utf8_column};

#[derive(Debug, Clone)]
pub struct ServerSample {
    pub ts_ns: i64,
    pub endpoint: String,
    pub metric: String,
    pub labels: Option<String>,
    pub value: f64,
}

/// How long one scrape may take, connection included.
pub const SCRAPE_DEADLINE: Duration = Duration::from_millis(800);
/// The largest answer read (a server's metrics page is kilobytes; this bounds a runaway one).
const MAX_ANSWER_BYTES: usize = 16 << 20;

/// Why a scrape yielded no samples.
#[derive(Debug, Clone, PartialEq)]
pub enum ScrapeError {
    /// No connection: refused, unreachable, or a name that does not resolve.
    Refused(String),
    /// No complete answer within `SCRAPE_DEADLINE`.
    Timeout,
    /// An answer other than 200.
    Status(u16),
    /// A 200 whose answer or body is not Prometheus text with samples.
    Unparseable(String),
}

impl ScrapeError {
    /// The kind, as `run.json` counts it.
    pub fn kind(&self) -> &'static str {
        match self {
            ScrapeError::Refused(_) => "refused",
            ScrapeError::Timeout => "timeout",
            ScrapeError::Status(_) => "http_status",
            ScrapeError::Unparseable(_) => "unparseable",
        }
    }
}

impl std::fmt::Display for ScrapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScrapeError::Refused(why) => write!(f, "no connection ({why})"),
            ScrapeError::Timeout => write!(f, "no complete answer within {} ms", SCRAPE_DEADLINE.as_millis()),
            ScrapeError::Status(code) => write!(f, "HTTP {code}"),
            ScrapeError::Unparseable(why) => write!(f, "unparseable ({why})"),
        }
    }
}

/// `http://host:port/path` → (host:port, path).
fn split_url(url: &str) -> Option<(String, String)> {
    let rest = url.strip_prefix("http://")?;
    let (hostport, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/metrics"),
    };
    let hostport = if hostport.contains(':') { hostport.to_string() } else { format!("{hostport}:80") };
    Some((hostport, path.to_string()))
}

/// The body of a 200 answer to `GET url`, within the deadline.
fn get(url: &str) -> Result<String, ScrapeError> {
    let deadline = Instant::now() + SCRAPE_DEADLINE;
    let (hostport, path) = split_url(url).ok_or_else(|| ScrapeError::Refused(format!("{url:?} is not http://host:port/path")))?;
    let addr = std::net::ToSocketAddrs::to_socket_addrs(&hostport)
        .map_err(|e| ScrapeError::Refused(e.to_string()))?
        .next()
        .ok_or_else(|| ScrapeError::Refused(format!("{hostport} has no address")))?;
    let mut s = TcpStream::connect_timeout(&addr, SCRAPE_DEADLINE).map_err(|e| match e.kind() {
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => ScrapeError::Timeout,
        _ => ScrapeError::Refused(e.to_string()),
    })?;
    // One write: `write!` on a socket sends each formatted piece as its own segment, and a
    // server that answers after its first read and closes would reset the connection on the
    // pieces still arriving (the scrape then fails).
    let request = format!("GET {path} HTTP/1.1\r\nHost: {hostport}\r\nConnection: close\r\nAccept: text/plain\r\n\r\n");
    s.write_all(request.as_bytes()).map_err(|e| ScrapeError::Refused(e.to_string()))?;
    read_answer(&mut Deadlined { stream: s, deadline })
}

/// A stream whose reads fail with `TimedOut` once the deadline has passed.
struct Deadlined {
    stream: TcpStream,
    deadline: Instant,
}

impl Read for Deadlined {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// Reads one HTTP/1.x answer by its framing and returns the body of a 200.
fn read_answer(r: &mut impl Read) -> Result<String, ScrapeError> {
    let mut buf = Vec::new();
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        if buf.len() > 64 << 10 || fill(r, &mut buf)? == 0 {
            return Err(ScrapeError::Unparseable("the answer ended inside its head".into()));
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut body = buf.split_off(head_end + 4);
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse::<u16>().ok());
    match status {
        Some(200) => {}
        Some(code) => return Err(ScrapeError::Status(code)),
        None => return Err(ScrapeError::Unparseable(format!("not an HTTP answer: {:?}", head.lines().next().unwrap_or("")))),
    }
    let header = |name: &str| head.lines().skip(1).find_map(|l| l.split_once(':').filter(|(k, _)| k.trim().eq_ignore_ascii_case(name)).map(|(_, v)| v.trim().to_string()));
    if header("transfer-encoding").is_some_and(|t| t.to_ascii_lowercase().contains("chunked")) {
        body = dechunk(r, body)?;
    } else if let Some(length) = header("content-length") {
        let length: usize = length.parse().map_err(|_| ScrapeError::Unparseable(format!("Content-Length {length:?}")))?;
        while body.len() < length.min(MAX_ANSWER_BYTES) {
            if fill(r, &mut body)? == 0 {
                return Err(ScrapeError::Unparseable(format!("the body ended after {} of {length} bytes", body.len())));
            }
        }
        body.truncate(length);
    } else {
        while body.len() < MAX_ANSWER_BYTES && fill(r, &mut body)? > 0 {}
    }
    String::from_utf8(body).map_err(|_| ScrapeError::Unparseable("the body is not UTF-8".into()))
}

/// Reads more bytes onto `buf`; 0 at the end of the stream.
fn fill(r: &mut impl Read, buf: &mut Vec<u8>) -> Result<usize, ScrapeError> {
    let mut chunk = [0u8; 16 << 10];
    match r.read(&mut chunk) {
        Ok(n) => {
            buf.extend_from_slice(&chunk[..n]);
            Ok(n)
        }
        Err(e) if matches!(e.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock) => Err(ScrapeError::Timeout),
        Err(e) => Err(ScrapeError::Refused(e.to_string())),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A chunked body: `SIZE\r\nDATA\r\n` until a chunk of size 0. `raw`: what was read already.
fn dechunk(r: &mut impl Read, mut raw: Vec<u8>) -> Result<Vec<u8>, ScrapeError> {
    let mut body = Vec::new();
    let mut at = 0;
    loop {
        let line_end = loop {
            if let Some(i) = find(&raw[at..], b"\r\n") {
                break at + i;
            }
            if fill(r, &mut raw)? == 0 {
                return Err(ScrapeError::Unparseable("the chunked body ended early".into()));
            }
        };
        let size_text = String::from_utf8_lossy(&raw[at..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| ScrapeError::Unparseable(format!("chunk size {:?}", size_text.trim())))?;
        if size == 0 {
            return Ok(body);
        }
        let data = line_end + 2;
        while raw.len() < data + size + 2 {
            if body.len() + size > MAX_ANSWER_BYTES || fill(r, &mut raw)? == 0 {
                return Err(ScrapeError::Unparseable("the chunked body ended early".into()));
            }
        }
        body.extend_from_slice(&raw[data..data + size]);
        at = data + size + 2;
    }
}

/// Prometheus text samples: `name{labels} value [ts]`.
pub fn parse(text: &str, endpoint: &str, ts_ns: i64) -> Vec<ServerSample> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (name, labels, rest) = match l.find('{') {
            Some(i) => match l[i..].find('}') {
                Some(j) => (&l[..i], Some(l[i + 1..i + j].to_string()), &l[i + j + 1..]),
                None => continue,
            },
            None => match l.split_once(' ') {
                Some((n, r)) => (n, None, r),
                None => continue,
            },
        };
        // A sample line starts with its metric's name; anything else is not a sample.
        if name.is_empty() || name.contains(char::is_whitespace) {
            continue;
        }
        if let Some(v) = rest.split_whitespace().next().and_then(|v| v.parse::<f64>().ok()) {
            out.push(ServerSample { ts_ns, endpoint: endpoint.to_string(), metric: name.to_string(), labels, value: v });
        }
    }
    out
}

/// One scrape: its samples, or why there are none (a 200 without a sample is unparseable).
pub fn scrape(url: &str, ts_ns: i64) -> Result<Vec<ServerSample>, ScrapeError> {
    let rows = parse(&get(url)?, url, ts_ns);
    if rows.is_empty() {
        return Err(ScrapeError::Unparseable("no sample line in the answer".into()));
    }
    Ok(rows)
}

/// Scrapes `url` every `interval_s` on absolute deadlines until `done` says so, handing each
/// scrape's rows to `sink`; returns how the scrapes went. Runs on a thread of its own: a slow
/// endpoint must not delay the other samplers.
pub fn scrape_loop(url: &str, interval_s: f64, done: &dyn Fn() -> bool, mut sink: impl FnMut(Vec<ServerSample>)) -> ScrapeLog {
    let mut log = ScrapeLog::new(url);
    let mut deadline = Instant::now();
    while !done() {
        let result = scrape(url, crate::collect::now_ns());
        log.count(&result);
        if let Ok(rows) = result {
            sink(rows);
        }
        deadline += Duration::from_secs_f64(interval_s);
        while Instant::now() < deadline && !done() {
            std::thread::sleep((deadline - Instant::now()).min(Duration::from_millis(20)));
        }
        deadline = deadline.max(Instant::now());
    }
    log
}

/// How the scrapes of one endpoint went: counted, and the first failure said on the terminal
/// as it happens (the run records the counts, `ServerScrapes`).
#[derive(Debug, Clone, Default)]
pub struct ScrapeLog {
    pub endpoint: String,
    pub attempts: u64,
    pub succeeded: u64,
    pub failed: BTreeMap<String, u64>,
    /// The first failure, and seconds from the first scrape to it.
    pub first_failure: Option<(f64, String)>,
    /// Whether the endpoint answered again after its last failure.
    pub recovered: bool,
    started: Option<Instant>,
}

impl ScrapeLog {
    pub fn new(endpoint: &str) -> ScrapeLog {
        ScrapeLog { endpoint: endpoint.to_string(), ..ScrapeLog::default() }
    }

    /// Counts one scrape; the first failure is said at once on stderr, with its reason.
    pub fn count<T>(&mut self, result: &Result<T, ScrapeError>) {
        let now = Instant::now();
        let t_s = now.saturating_duration_since(*self.started.get_or_insert(now)).as_secs_f64();
        self.attempts += 1;
        match result {
            Ok(_) => {
                self.succeeded += 1;
                self.recovered = self.first_failure.is_some();
            }
            Err(e) => {
                *self.failed.entry(e.kind().to_string()).or_default() += 1;
                self.recovered = false;
                if self.first_failure.is_none() {
                    eprintln!("warning: --server-metrics {}: a scrape failed {t_s:.0} s in: {e}; failures are counted in run.json", self.endpoint);
                    self.first_failure = Some((t_s, e.to_string()));
                }
            }
        }
    }

    /// Failed scrapes, in all.
    pub fn failures(&self) -> u64 {
        self.failed.values().sum()
    }

    /// What `run.json` records.
    pub fn record(&self) -> ServerScrapes {
        ServerScrapes {
            endpoint: self.endpoint.clone(),
            attempts: self.attempts,
            succeeded: self.succeeded,
            failed: self.failed.clone(),
            first_failure: self.first_failure.as_ref().map(|(_, why)| why.clone()),
            first_failure_s: self.first_failure.as_ref().map(|(t, _)| *t),
        }
    }

    /// A closing line for the terminal when any scrape failed.
    pub fn summary(&self) -> Option<String> {
        let failed = self.failures();
        (failed > 0).then(|| {
            let kinds: Vec<String> = self.failed.iter().map(|(k, n)| format!("{n} {k}")).collect();
            format!("--server-metrics {}: {failed} of {} scrapes failed ({}); {} recorded", self.endpoint, self.attempts, kinds.join(", "), self.succeeded)
        })
    }
}

pub fn table(rows: &[ServerSample]) -> Result<Table, String> {
    Table::from_columns(
        TableKind::Server,
        vec![
            ("ts_ns", Column::Timestamp(rows.iter().map(|r| Some(r.ts_ns)).collect())),
            ("endpoint", utf8_column(rows.iter().map(|r| Some(r.endpoint.as_str())))),
            ("metric", utf8_column(rows.iter().map(|r| Some(r.metric.as_str())))),
            ("labels", utf8_column(rows.iter().map(|r| r.labels.as_deref()))),
            ("value", Column::Float64(rows.iter().map(|r| Some(r.value)).collect())),
        ],
    )
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prometheus_text() {
        let rows = parse("# HELP x\nvllm:num_requests_waiting{model_name=\"m\"} 3\nup 1 1700000000000\n", "u", 5);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].metric, "vllm:num_requests_waiting");
        assert_eq!(rows[0].labels.as_deref(), Some("model_name=\"m\""));
        assert_eq!(rows[1].value, 1.0);
        assert_eq!(split_url("http://localhost:8000/metrics"), Some(("localhost:8000".into(), "/metrics".into())));
    }

    /// An answer is read by its framing: a Content-Length body from a connection left open (the
    /// reader would block after it), a chunked body, and a body to the end of the stream.
    #[test]
    fn answers_are_read_by_their_framing() {
        let open = |bytes: &[u8]| OpenStream(bytes.to_vec(), 0);
        let mut by_length = open(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nup 1\n\n");
        assert_eq!(read_answer(&mut by_length), Ok("up 1\n\n".to_string()));
        let mut chunked = open(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nup 1\n\r\n7;x=y\r\ndown 0\n\r\n0\r\n\r\n");
        assert_eq!(read_answer(&mut chunked), Ok("up 1\ndown 0\n".to_string()));
        let mut to_end = &b"HTTP/1.0 200 OK\r\n\r\nup 1\n"[..];
        assert_eq!(read_answer(&mut to_end), Ok("up 1\n".to_string()));
        let mut failing = &b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n"[..];
        assert_eq!(read_answer(&mut failing), Err(ScrapeError::Status(500)));
        let mut short = &b"HTTP/1.1 200 OK\r\nContent-Length: 60\r\n\r\nup 1\n"[..];
        assert!(matches!(read_answer(&mut short), Err(ScrapeError::Unparseable(_))));
    }

    /// A connection that stays open: once its bytes are read, a further read times out (as a
    /// socket with a read timeout does).
    struct OpenStream(Vec<u8>, usize);

    impl Read for OpenStream {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.1 >= self.0.len() {
                return Err(std::io::ErrorKind::TimedOut.into());
            }
            let n = buf.len().min(self.0.len() - self.1).min(7);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }

    /// Found by the `prometheus` fuzz target: a line whose text before `{` is not one metric
    /// name (empty, or several words) became a sample named by that text.
    #[test]
    fn a_line_without_a_metric_name_is_no_sample() {
        let rows = parse("{model=\"m\"} 3\nup 1 1700t{x=\"y\"} 2\nok{a=\"b\"} 1\n", "u", 5);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].metric, "ok");
    }
}
