//! Server metrics: one HTTP GET of a Prometheus text endpoint per sample (plain HTTP/1.1 over
//! a socket with a short timeout: a slow server must not stall the samplers).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

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

fn get(url: &str) -> Option<String> {
    let (hostport, path) = split_url(url)?;
    let addr = std::net::ToSocketAddrs::to_socket_addrs(&hostport).ok()?.next()?;
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_millis(500)).ok()?;
    s.set_read_timeout(Some(Duration::from_millis(800))).ok()?;
    // One write: `write!` on a socket sends each formatted piece as its own segment, and a
    // server that answers after its first read and closes would reset the connection on the
    // pieces still arriving (the scrape then fails).
    let request = format!("GET {path} HTTP/1.1\r\nHost: {hostport}\r\nConnection: close\r\nAccept: text/plain\r\n\r\n");
    s.write_all(request.as_bytes()).ok()?;
    let mut buf = Vec::new();
    s.take(16 << 20).read_to_end(&mut buf).ok()?;
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n")?;
    head.starts_with("HTTP/1.1 200").then(|| body.to_string()).or_else(|| head.starts_with("HTTP/1.0 200").then(|| body.to_string()))
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

/// One scrape; an unreachable endpoint yields no rows (the gap shows in the table).
pub fn scrape(url: &str, ts_ns: i64) -> Vec<ServerSample> {
    get(url).map(|body| parse(&body, url, ts_ns)).unwrap_or_default()
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

    /// Found by the `prometheus` fuzz target: a line whose text before `{` is not one metric
    /// name (empty, or several words) became a sample named by that text.
    #[test]
    fn a_line_without_a_metric_name_is_no_sample() {
        let rows = parse("{model=\"m\"} 3\nup 1 1700t{x=\"y\"} 2\nok{a=\"b\"} 1\n", "u", 5);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].metric, "ok");
    }
}
