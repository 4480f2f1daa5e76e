//! The mock server's behaviour over time, measured over HTTP: a throttle window triples the time
//! to first token and `/metrics` says so while it lasts; an error burst of probability 1 fails
//! every request inside it and none outside. Time starts at the first completion request.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use credence::bench::mock_server::{MockConfig, spawn};
use credence::bench::mock_timeline::{Episode, Timeline};

/// Sends one request with `Connection: close`; returns the response and how long it took.
fn exchange(port: u16, method: &str, path: &str, body: &str) -> (String, Duration) {
    let start = Instant::now();
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len())
        .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    (out, start.elapsed())
}

/// One streamed one-token completion: with no token delay, its duration is the TTFT.
fn complete(port: u16) -> (String, Duration) {
    exchange(port, "POST", "/v1/completions", r#"{"model":"m","prompt":"hi","max_tokens":1,"stream":true}"#)
}

/// A gauge's value from `/metrics`.
fn gauge(port: u16, name: &str) -> f64 {
    let (r, _) = exchange(port, "GET", "/metrics", "");
    let line = r.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap_or_else(|| panic!("no {name} in {r}"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Sleeps until `at` after `t0`.
fn sleep_until(t0: Instant, at: f64) {
    let due = t0 + Duration::from_secs_f64(at);
    std::thread::sleep(due.saturating_duration_since(Instant::now()));
}

/// The TTFTs in seconds of `n` requests in a row.
fn ttfts(port: u16, n: usize) -> Vec<f64> {
    (0..n).map(|_| complete(port).1.as_secs_f64()).collect()
}

#[test]
fn a_throttle_window_triples_the_ttft_and_metrics_show_it() {
    let timeline = Timeline { throttles: vec![Episode { start_s: 0.5, end_s: 2.0, value: 3.0 }], ..Timeline::default() };
    let config = MockConfig { ttft: Duration::from_millis(40), token_delay: Duration::ZERO, timeline, ..MockConfig::default() };
    let server = spawn(config, 0).unwrap();
    let port = server.port;
    // The clock starts at the first completion request, not at spawn nor at a metrics scrape.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(gauge(port, "mock_elapsed_seconds"), 0.0);
    assert_eq!(gauge(port, "mock_service_factor"), 1.0);
    assert_eq!((gauge(port, "mock_ttft_seconds"), gauge(port, "mock_token_delay_seconds")), (0.04, 0.0));

    let t0 = Instant::now();
    let before = ttfts(port, 5);
    sleep_until(t0, 0.7);
    let inside = ttfts(port, 5);
    let factor_inside = gauge(port, "mock_service_factor");
    let elapsed_inside = gauge(port, "mock_elapsed_seconds");
    sleep_until(t0, 2.1);
    let after = ttfts(port, 5);
    let factor_after = gauge(port, "mock_service_factor");

    let (b, i, a) = (median(before), median(inside), median(after));
    assert!(elapsed_inside < 2.0, "the inside phase ran late ({elapsed_inside} s): the machine is too busy for this test");
    assert!(i >= 2.0 * b, "TTFT inside the window {i:.3} s, before {b:.3} s: expected about 3x");
    assert!(i >= 2.0 * a, "TTFT inside the window {i:.3} s, after {a:.3} s: expected about 3x");
    assert!(b >= 0.035 && i >= 0.11, "the server sleeps at least its scripted times: {b:.3} s, {i:.3} s");
    assert!((factor_inside - 3.0).abs() < 1e-9, "/metrics factor inside {factor_inside}");
    assert!((factor_after - 1.0).abs() < 1e-9, "/metrics factor after {factor_after}");
}

#[test]
fn an_error_burst_of_probability_one_fails_every_request_inside_it_and_none_outside() {
    let timeline = Timeline { error_bursts: vec![Episode { start_s: 0.4, end_s: 0.9, value: 1.0 }], ..Timeline::default() };
    let config = MockConfig { ttft: Duration::ZERO, token_delay: Duration::ZERO, timeline, ..MockConfig::default() };
    let server = spawn(config, 0).unwrap();
    let port = server.port;
    let status = |r: &str| r.split_whitespace().nth(1).unwrap_or("").to_string();
    let t0 = Instant::now();
    // Before the burst (until 0.25 s), inside it (0.5 to 0.8 s) and after it (from 1.0 s).
    let mut phases: [Vec<String>; 3] = Default::default();
    for (phase, (from, to)) in [(0.0, 0.25), (0.5, 0.8), (1.0, 1.3)].into_iter().enumerate() {
        sleep_until(t0, from);
        if phase == 1 {
            assert_eq!(gauge(port, "mock_error_probability"), 1.0);
        }
        while t0.elapsed().as_secs_f64() < to {
            phases[phase].push(status(&complete(port).0));
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert_eq!(gauge(port, "mock_error_probability"), 0.0);
    let [before, inside, after] = &phases;
    assert!(!before.is_empty() && !inside.is_empty() && !after.is_empty(), "{phases:?}");
    assert!(before.iter().chain(after).all(|s| s == "200"), "outside the burst: {before:?} {after:?}");
    assert!(inside.iter().all(|s| s == "500"), "inside the burst: {inside:?}");
    assert_eq!(server.injected(credence::bench::mock_server::Fault::Http500), inside.len() as u64);
}

#[test]
fn ttft_jitter_spreads_each_requests_ttft_around_the_same_median() {
    // σ = 0.3 on 20 ms: the quartiles of 20 · exp(0.3 z) lie 8.1 ms apart (16.3 and 24.5 ms),
    // around the same median as without jitter; the round trip adds about as much to each.
    let quartiles = |jitter: f64| {
        let config = MockConfig { ttft: Duration::from_millis(20), token_delay: Duration::ZERO, ttft_jitter: jitter, ..MockConfig::default() };
        let server = spawn(config, 0).unwrap();
        let mut t = ttfts(server.port, 200);
        t.sort_by(f64::total_cmp);
        assert_eq!(gauge(server.port, "mock_ttft_jitter_sigma"), jitter);
        (t[50] * 1e3, t[100] * 1e3, t[150] * 1e3)
    };
    let (p1, p2, p3) = quartiles(0.0);
    let (j1, j2, j3) = quartiles(0.3);
    // Loose bounds: a busy machine (the other tests) spreads the round trip too. The log-normal
    // itself is checked exactly in mock_server's unit tests.
    assert!((j2 - p2).abs() < 4.0, "median TTFT {j2} ms with jitter, {p2} ms without");
    assert!(j3 - j1 > (p3 - p1) + 2.0, "quartiles {j1} and {j3} ms with jitter, {p1} and {p3} ms without");
}
