//! Bench: the client's CPU cost per SSE event, the hot path of `credence bench`
//! (`crates/loadgen/src/http.rs`). A loopback server thread answers every request at once with a
//! pre-built chunked stream of vLLM-shaped events, so the client's time goes to de-framing,
//! stamping and classifying events, not to waiting; the client thread's own CPU time
//! (CLOCK_THREAD_CPUTIME_ID, system time included) is divided by the events it read.
//!
//! With `openssl` on the PATH, the content-only case runs over TLS too (a throwaway CA and
//! certificate are made in a temporary folder), so the cost TLS adds per event shows.
//!
//! `cargo build --release --bench sse_event_cost`, then run `target/release/deps/sse_event_cost-*`
//! (or `cargo bench --bench sse_event_cost`). EVENTS=64 sets the events per response,
//! REQUESTS=2000 the requests per case, ROUNDS=5 the repetitions (the fastest is reported).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use credence::bench::http::{After, Conn, Observed, post_stream, request_bytes};
use credence::bench::mock_secure::{ServerWire, server_config};
use credence::bench::tls::{TlsClient, Trust};

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// CPU seconds this thread has used.
fn thread_cpu_s() -> f64 {
    // SAFETY: clock_gettime writes into the struct we pass and nothing else.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// One SSE event as one HTTP chunk.
fn chunk(data: &str) -> String {
    let ev = format!("data: {data}\n\n");
    format!("{:x}\r\n{ev}\r\n", ev.len())
}

/// A whole streamed response: a role delta, `reasoning` reasoning events, `content` content
/// events, the usage chunk and `[DONE]`, as vLLM writes them.
fn response(reasoning: usize, content: usize) -> Vec<u8> {
    let head = "{\"id\":\"chatcmpl-0f3a9c\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,\"delta\":";
    let tail = ",\"logprobs\":null,\"finish_reason\":null}]}";
    let mut s = String::from("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
    s += &chunk(&format!("{head}{{\"role\":\"assistant\",\"content\":\"\"}}{tail}"));
    for i in 0..reasoning {
        s += &chunk(&format!("{head}{{\"reasoning_content\":\" step{i}\"}}{tail}"));
    }
    for i in 0..content {
        s += &chunk(&format!("{head}{{\"content\":\" word{i}\"}}{tail}"));
    }
    let details = if reasoning > 0 { format!(",\"completion_tokens_details\":{{\"reasoning_tokens\":{reasoning}}}") } else { String::new() };
    let usage = format!(
        "{{\"id\":\"chatcmpl-0f3a9c\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"m\",\"choices\":[],\"usage\":{{\"prompt_tokens\":16,\"completion_tokens\":{},\"total_tokens\":{}{details}}}}}",
        reasoning + content,
        16 + reasoning + content
    );
    s += &chunk(&usage);
    s += &chunk("[DONE]");
    s += "0\r\n\r\n";
    s.into_bytes()
}

/// Answers every request on one connection with `body`, until the client goes away.
fn serve(listener: TcpListener, body: Vec<u8>, tls: Option<Arc<rustls::ServerConfig>>) {
    let Ok((stream, _)) = listener.accept() else { return };
    let mut reader = BufReader::new(ServerWire::accept(stream, tls.as_ref()).expect("accept"));
    let mut line = String::new();
    loop {
        let mut length = 0usize;
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if line.trim_end().is_empty() {
                break;
            }
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut request_body = vec![0u8; length];
        if reader.read_exact(&mut request_body).is_err() || reader.get_mut().write_all(&body).is_err() {
            return;
        }
    }
}

/// The server's and the client's TLS, from a throwaway CA made with `openssl` in `dir`; none
/// without `openssl`.
fn tls_pair(dir: &Path) -> Option<(Arc<rustls::ServerConfig>, TlsClient)> {
    let script = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=bench-ca \
         -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null && \
         openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null && \
         printf 'subjectAltName=IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\n' > ext.cnf && \
         openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 -extfile ext.cnf 2>/dev/null";
    std::fs::create_dir_all(dir).ok()?;
    let made = std::process::Command::new("sh").args(["-c", script]).current_dir(dir).status().ok()?.success();
    if !made {
        return None;
    }
    let server = server_config(&dir.join("server.pem"), &dir.join("server.key")).ok()?;
    let client = TlsClient::new("127.0.0.1", &Trust { ca_cert: Some(&dir.join("ca.pem")), insecure: false }).ok()?;
    Some((server, client))
}

/// The fastest round's client CPU per event, in ns, for one response shape.
fn measure(reasoning: usize, content: usize, requests: usize, rounds: usize, tls: Option<&(Arc<rustls::ServerConfig>, TlsClient)>) -> f64 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let hostport = listener.local_addr().expect("address").to_string();
    let body = response(reasoning, content);
    let server_tls = tls.map(|t| t.0.clone());
    let server = std::thread::spawn(move || serve(listener, body, server_tls));
    let mut conn = Conn::open(&hostport, tls.map(|t| &t.1), Duration::from_secs(5)).expect("connect");
    let request = request_bytes(&hostport, "/v1/chat/completions", b"", b"{\"stream\":true}");
    let events = (reasoning + content + 3) as f64;
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let t0 = thread_cpu_s();
        for _ in 0..requests {
            let mut o = Observed::default();
            let after = post_stream(&mut conn, &request, &mut o);
            assert!(after == After::Reuse && o.error.is_none(), "{:?}", o.error);
            assert_eq!(o.chunks.len(), reasoning + content);
        }
        best = best.min((thread_cpu_s() - t0) / (requests as f64 * events) * 1e9);
    }
    drop(conn);
    let _ = server.join();
    best
}

fn main() {
    let (events, requests, rounds) = (env_or("EVENTS", 64), env_or("REQUESTS", 2000), env_or("ROUNDS", 5));
    println!("client CPU per SSE event (thread CPU time, fastest of {rounds} rounds of {requests} requests; events include role, usage and [DONE])");
    for (name, reasoning, content) in [("content only", 0, events), ("reasoning first (half)", events / 2, events - events / 2), ("4-token streams", 0, 4)] {
        println!("{name:>24}: {:>6.0} ns/event ({} events per response)", measure(reasoning, content, requests, rounds, None), reasoning + content + 3);
    }
    let dir = std::env::temp_dir().join(format!("credence-sse-tls-{}", std::process::id()));
    match tls_pair(&dir) {
        Some(pair) => {
            for (name, content) in [("content only, TLS", events), ("4-token streams, TLS", 4)] {
                println!("{name:>24}: {:>6.0} ns/event ({} events per response)", measure(0, content, requests, rounds, Some(&pair)), content + 3);
            }
        }
        None => println!("(no TLS case: `openssl` is not available)"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
