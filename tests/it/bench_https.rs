//! `credence bench` over HTTPS and with API keys, against `credence mock-server --tls-cert
//! --tls-key --require-key`: a CA and a server certificate are made at test time with the
//! `openssl` command line. Trust (a CA given, none given, verification skipped), the key from
//! the environment and from the flag, 401s without it, and the key found nowhere the run,
//! its reports or the terminal could keep it.


use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use arrow_array::Array;
use crate::common::{MockProcess, Scratch, credence, stderr};
use credence::bench::mock_secure::server_config;
use credence::bench::mock_server::{MockConfig, spawn};

/// The tests measure time: one at a time, as in tests/it/bench_cli.rs.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

const KEY: &str = "sk-credence-test-9f8e7d6c5b4a";

/// A CA (`ca.pem`) and a server certificate it signed for 127.0.0.1 and localhost
/// (`server.pem`, `server.key`), made in `dir` with the openssl command line.
fn make_certificates(dir: &Path) {
    let script = "set -e
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 2 \
            -subj /CN=credence-test-ca -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign
        openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj /CN=localhost
        printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > ext.cnf
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile ext.cnf";
    let o = std::process::Command::new("sh")
        .args(["-c", script])
        .current_dir(dir)
        .output()
        .expect("the openssl command line is needed to make test certificates; .ci/run installs it");
    assert!(o.status.success(), "openssl failed: {}", String::from_utf8_lossy(&o.stderr));
}

/// `credence bench` with `extra` arguments and environment; OPENAI_API_KEY is cleared unless given.
fn bench(url: &str, out: &Path, extra: &[&str], env_key: Option<&str>) -> Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_credence"));
    cmd.args(["bench", "--url", url, "--model", "m", "--out", out.to_str().unwrap(), "--rate", "20", "--requests", "20", "--timeout", "5s"]);
    cmd.args(extra).env_remove("OPENAI_API_KEY");
    if let Some(k) = env_key {
        cmd.env("OPENAI_API_KEY", k);
    }
    cmd.output().unwrap()
}

struct Rows {
    status: Vec<String>,
    kind: Vec<Option<String>>,
    message: Vec<Option<String>>,
    http: Vec<Option<u32>>,
    ttft_ms: Vec<Option<f64>>,
}

fn rows(dir: &Path) -> (Rows, credence::run::Manifest) {
    let run = credence::run::load(dir).unwrap();
    let r = &run.requests;
    let strings = |c: &str| {
        let a = r.strings(c).unwrap();
        (0..a.len()).map(|i| a.is_valid(i).then(|| a.value(i).to_string())).collect::<Vec<_>>()
    };
    let (sent, first) = (r.timestamps("sent_ns").unwrap(), r.timestamps("first_token_ns").unwrap());
    let rows = Rows {
        status: strings("status").into_iter().map(Option::unwrap_or_default).collect(),
        kind: strings("error_kind"),
        message: strings("error_message"),
        http: r.u32s("http_status").unwrap().to_vec(),
        ttft_ms: (0..r.num_rows()).map(|i| first[i].map(|f| (f - sent[i].unwrap()) as f64 / 1e6)).collect(),
    };
    (rows, run.manifest)
}

/// Every file under `dir`, recursively.
fn files(dir: &Path) -> Vec<PathBuf> {
    crate::common::dir_bytes(dir).into_iter().map(|(rel, _)| dir.join(rel)).collect()
}

/// Every string value of a run's requests table, decoded (Parquet pages are compressed, so a
/// byte search of the file alone could miss a stored secret).
fn stored_strings(dir: &Path) -> String {
    let run = credence::run::load(dir).unwrap();
    let mut all = String::new();
    for (spec, _) in run.requests.specs_and_columns() {
        if let Some(values) = run.requests.strings(spec.name) {
            for v in values.iter().flatten() {
                all.push_str(v);
                all.push('\n');
            }
        }
    }
    all
}

/// What `pdftotext` reads in a PDF.
fn pdf_text(pdf: &Path) -> String {
    let o = std::process::Command::new("pdftotext").arg(pdf).arg("-").output().expect("pdftotext (poppler-utils) is needed; .ci/run installs it");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Fails when `secret` appears in any of the files or texts.
fn assert_nowhere(secret: &str, paths: &[PathBuf], texts: &[&str]) {
    for p in paths {
        let bytes = std::fs::read(p).unwrap();
        assert!(!bytes.windows(secret.len()).any(|w| w == secret.as_bytes()), "{} holds the secret", p.display());
    }
    for t in texts {
        assert!(!t.contains(secret), "the secret was printed: {t}");
    }
}

/// A mock server over TLS with the scripted timing (20 ms TTFT, 2 ms per token, 4 tokens).
fn tls_server(cert: &Path, key: &Path, extra: &[&str]) -> MockProcess {
    let mut args =
        vec!["--ttft", "20ms", "--token-delay", "2ms", "--output-tokens", "4", "--tls-cert", cert.to_str().unwrap(), "--tls-key", key.to_str().unwrap()];
    args.extend_from_slice(extra);
    MockProcess::start(&args)
}

#[test]
fn https_with_a_ca_verifies_and_times_like_http() {
    let _serial = serial();
    let s = Scratch::new("https_ca");
    make_certificates(&s.0);
    let (cert, key, ca) = (s.path("server.pem"), s.path("server.key"), s.path("ca.pem"));
    let srv = tls_server(&cert, &key, &[]);
    assert!(srv.url.starts_with("https://127.0.0.1:"), "{}", srv.url);

    let trusted = s.path("trusted");
    let o = bench(&srv.url, &trusted, &["--ca-cert", ca.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let (r, manifest) = rows(&trusted);
    assert!(r.status.iter().all(|st| st == "ok"), "{:?}", r.message);
    let mut ttft: Vec<f64> = r.ttft_ms.iter().map(|t| t.unwrap()).collect();
    ttft.sort_by(f64::total_cmp);
    assert!(ttft[0] >= 19.9 && (20.0..26.0).contains(&ttft[ttft.len() / 2]), "TTFT against a scripted 20 ms over TLS: {ttft:?}");
    let tls = manifest.workload.tls.as_ref().expect("run.json records TLS");
    assert_eq!((tls.insecure, tls.ca_cert.as_deref()), (false, Some("ca.pem")));
    let v = credence(&["validate", trusted.to_str().unwrap()]);
    assert!(v.status.success(), "{}", crate::common::stdout(&v));

    // Without the CA the server's certificate is not trusted: every request fails, saying why.
    let untrusted = s.path("untrusted");
    let o = bench(&srv.url, &untrusted, &[], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let (r, _) = rows(&untrusted);
    assert_eq!(r.status.len(), 20, "every failed request is recorded");
    for (kind, message) in r.kind.iter().zip(&r.message) {
        let message = message.as_deref().unwrap_or("");
        assert_eq!(kind.as_deref(), Some("refused"), "{message}");
        assert!(message.contains("certificate") && message.contains("--ca-cert") && message.contains("--insecure"), "{message}");
    }
    assert!(stderr(&o).contains("certificate"), "bench says why at the end: {}", stderr(&o));

    // --insecure: no verification, recorded as such.
    let insecure = s.path("insecure");
    let o = bench(&srv.url, &insecure, &["--insecure"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    let (r, manifest) = rows(&insecure);
    assert!(r.status.iter().all(|st| st == "ok"), "{:?}", r.message);
    assert_eq!(manifest.workload.tls.map(|t| (t.insecure, t.ca_cert)), Some((true, None)));
}

#[test]
fn api_keys_are_sent_and_never_kept() {
    let _serial = serial();
    let s = Scratch::new("https_key");
    make_certificates(&s.0);
    let (cert, key, ca) = (s.path("server.pem"), s.path("server.key"), s.path("ca.pem"));
    let srv = tls_server(&cert, &key, &["--require-key", KEY]);
    let ca_arg = ["--ca-cert", ca.to_str().unwrap()];

    let without = s.path("without");
    let o = bench(&srv.url, &without, &ca_arg, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let (r, manifest) = rows(&without);
    assert!(r.http.iter().all(|h| *h == Some(401)) && r.kind.iter().all(|k| k.as_deref() == Some("http_4xx")), "{:?}", r.message);
    assert!(manifest.workload.request_headers.is_empty());

    let from_env = s.path("env");
    let o_env = bench(&srv.url, &from_env, &ca_arg, Some(KEY));
    assert!(o_env.status.success(), "{}", stderr(&o_env));
    let (r, manifest) = rows(&from_env);
    assert!(r.status.iter().all(|st| st == "ok"), "the key from OPENAI_API_KEY: {:?}", r.message);
    assert_eq!(manifest.workload.request_headers, ["Authorization"]);

    let from_flag = s.path("flag");
    let o_flag = bench(&srv.url, &from_flag, &[&ca_arg[..], &["--api-key", KEY, "--header", "X-Org: org-credence-4242"]].concat(), None);
    assert!(o_flag.status.success(), "{}", stderr(&o_flag));
    let (r, manifest) = rows(&from_flag);
    assert!(r.status.iter().all(|st| st == "ok"), "the key from --api-key: {:?}", r.message);
    assert_eq!(manifest.workload.request_headers, ["Authorization", "X-Org"], "header names only");

    // A wrong key: the server echoes it in its 401 body, and the client scrubs it.
    let wrong_key = "sk-wrong-credence-1a2b3c4d";
    let wrong = s.path("wrong");
    let o_wrong = bench(&srv.url, &wrong, &[&ca_arg[..], &["--api-key", wrong_key]].concat(), None);
    assert!(o_wrong.status.success(), "{}", stderr(&o_wrong));
    let (r, _) = rows(&wrong);
    let message = r.message[0].as_deref().unwrap_or("");
    assert!(r.http[0] == Some(401) && message.contains("[redacted]"), "the echoed key is replaced: {message}");

    // Reports of every run; then the keys and the header value are nowhere.
    let mut paths = Vec::new();
    let mut texts: Vec<String> = [&o, &o_env, &o_flag, &o_wrong].iter().map(|x| format!("{}{}", stderr(x), crate::common::stdout(x))).collect();
    for dir in [&without, &from_env, &from_flag, &wrong] {
        for format in ["md", "json", "pdf"] {
            let out = s.path(&format!("{}.{format}", dir.file_name().unwrap().to_string_lossy()));
            let rep = credence(&["report", dir.to_str().unwrap(), "-o", out.to_str().unwrap(), "--format", format]);
            assert!(rep.status.success(), "{}", stderr(&rep));
            if format == "pdf" {
                texts.push(pdf_text(&out));
            }
            paths.push(out);
        }
        paths.extend(files(dir));
        texts.push(stored_strings(dir));
    }
    assert!(texts.last().unwrap().contains("[redacted]"), "the decoded table holds the scrubbed message");
    let printed: Vec<&str> = texts.iter().map(String::as_str).collect();
    for secret in [KEY, wrong_key, "org-credence-4242"] {
        assert_nowhere(secret, &paths, &printed);
    }
}

#[test]
fn bad_urls_ca_files_and_headers_exit_2_before_any_request() {
    let _serial = serial();
    let s = Scratch::new("https_bad");
    make_certificates(&s.0);
    // In-process servers count what they served: nothing may reach them.
    let plain = spawn(MockConfig { ttft: Duration::ZERO, token_delay: Duration::ZERO, ..MockConfig::default() }, 0).unwrap();
    let tls = server_config(&s.path("server.pem"), &s.path("server.key")).unwrap();
    let secure = spawn(MockConfig { tls: Some(tls), ..MockConfig::default() }, 0).unwrap();
    let not_pem = s.path("notes.txt");
    std::fs::write(&not_pem, "not a certificate\n").unwrap();
    let missing = s.path("absent-ca.pem");
    let (plain_url, secure_url) = (plain.url(), secure.url());
    let cases: Vec<(&str, Vec<&str>, Vec<&str>)> = vec![
        ("ftp://127.0.0.1:21", vec![], vec!["--url", "ftp://", "expected http://HOST:PORT or https://HOST:PORT"]),
        (&secure_url, vec!["--ca-cert", missing.to_str().unwrap()], vec!["absent-ca.pem", "cannot read"]),
        (&secure_url, vec!["--ca-cert", not_pem.to_str().unwrap()], vec!["notes.txt", "BEGIN CERTIFICATE"]),
        (&plain_url, vec!["--header", "X-Ok: 1", "--header", "X-Token sk-typo-secret"], vec!["--header number 2", "no colon"]),
        (&plain_url, vec!["--insecure"], vec!["https:// URLs only"]),
        (&plain_url, vec!["--api-key", ""], vec!["--api-key", "empty"]),
    ];
    for (url, args, needles) in cases {
        let out = s.path("run");
        let o = bench(url, &out, &args, None);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{url} {args:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{n:?} missing from: {err}");
        }
        assert!(!err.contains("sk-typo-secret"), "a header's text is not repeated: {err}");
        assert!(!out.exists(), "nothing written for {args:?}");
    }
    assert_eq!((plain.served(), secure.served()), (0, 0), "no request was sent");
}
