//! The mock server's HTTPS and API key, for testing `credence bench` against a server that
//! wants both: TLS with a certificate and key given as PEM files (rustls, ring provider), and
//! a required Bearer key answered with `401 Unauthorized` when missing or wrong.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::PrivateKeyDer;
use rustls::pki_types::pem::PemObject;
use rustls::{ServerConfig, ServerConnection, StreamOwned};

/// The server's TLS configuration from a PEM certificate chain and its PEM private key.
/// Errors name the file and what was expected.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, String> {
    let chain = crate::tls::read_certificates(cert)?;
    let bytes = std::fs::read(key).map_err(|e| format!("{}: cannot read: {e}", key.display()))?;
    let key_der = PrivateKeyDer::from_pem_slice(&bytes).map_err(|e| format!("{}: no PEM private key in it ({e})", key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS setup: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key_der)
        .map_err(|e| format!("{} and {} do not make a usable certificate and key: {e}", cert.display(), key.display()))?;
    Ok(Arc::new(config))
}

/// One accepted connection: plain, or TLS (the handshake runs on the first read).
pub enum ServerWire {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ServerConnection, TcpStream>>),
}

impl ServerWire {
    pub fn accept(sock: TcpStream, tls: Option<&Arc<ServerConfig>>) -> std::io::Result<ServerWire> {
        sock.set_nodelay(true)?;
        Ok(match tls {
            None => ServerWire::Plain(sock),
            Some(config) => {
                let conn = ServerConnection::new(config.clone()).map_err(std::io::Error::other)?;
                ServerWire::Tls(Box::new(StreamOwned::new(conn, sock)))
            }
        })
    }

    /// Closes the socket at once, mid-response (the `drop` fault): no TLS close_notify.
    pub fn cut(&mut self) {
        let sock = match self {
            ServerWire::Plain(s) => s,
            ServerWire::Tls(s) => &mut s.sock,
        };
        let _ = sock.shutdown(std::net::Shutdown::Both);
    }

    /// Whether the client has gone: its end of the socket closed, or (TLS) its close alert
    /// waiting to be read. A client waiting for its response sends nothing meanwhile (no
    /// pipelining), so anything readable means it has stopped waiting.
    pub fn client_gone(&self) -> bool {
        let (sock, tls) = match self {
            ServerWire::Plain(s) => (s, false),
            ServerWire::Tls(s) => (&s.sock, true),
        };
        if sock.set_nonblocking(true).is_err() {
            return false;
        }
        let mut byte = [0u8; 1];
        let gone = match sock.peek(&mut byte) {
            Ok(0) => true,
            Ok(_) => tls,
            Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
        };
        let _ = sock.set_nonblocking(false);
        gone
    }

    /// Ends the connection in good order: TLS sends its close_notify first.
    pub fn finish(&mut self) {
        if let ServerWire::Tls(s) = self {
            s.conn.send_close_notify();
            let _ = s.conn.complete_io(&mut s.sock);
        }
    }
}

impl Read for ServerWire {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            ServerWire::Plain(s) => s.read(buf),
            ServerWire::Tls(s) => s.read(buf),
        }
    }
}

impl Write for ServerWire {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            ServerWire::Plain(s) => s.write(buf),
            ServerWire::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            ServerWire::Plain(s) => s.flush(),
            ServerWire::Tls(s) => s.flush(),
        }
    }
}

/// Whether a request's `Authorization` header carries the required key (always, when none is required).
pub fn authorized(required: Option<&str>, authorization: Option<&str>) -> bool {
    match required {
        None => true,
        Some(key) => authorization.and_then(|a| a.trim().strip_prefix("Bearer ")).is_some_and(|given| given.trim() == key),
    }
}

/// `401 Unauthorized`, echoing the credentials it was given, as some proxies do: a client must
/// not store them from the error body.
pub fn unauthorized(out: &mut impl Write, authorization: Option<&str>) -> std::io::Result<()> {
    let given = authorization.map_or("no Authorization header".to_string(), |a| format!("Authorization {:?}", a.trim()));
    let body = serde_json::json!({"error": {"message": format!("invalid API key: {given}"), "type": "invalid_request_error", "code": 401}}).to_string();
    write!(out, "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_right_bearer_key_passes() {
        assert!(authorized(None, None));
        assert!(authorized(Some("k-123"), Some("Bearer k-123")));
        assert!(!authorized(Some("k-123"), Some("Bearer k-124")));
        assert!(!authorized(Some("k-123"), Some("k-123")));
        assert!(!authorized(Some("k-123"), None));
        let mut out = Vec::new();
        unauthorized(&mut out, Some("Bearer wrong")).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("HTTP/1.1 401 ") && text.contains("Bearer wrong"), "{text}");
    }
}
