//! The client's transport: plain TCP, or TLS through rustls (ring provider) for `https://` URLs.
//!
//! Trust: the system's root certificates plus any `--ca-cert`, or, with `--insecure`, none at
//! all (the server's signatures are still checked, its certificate chain is not: for
//! self-signed test servers). The handshake runs when the connection opens, before the
//! request's clock starts, so TLS setup is never part of a request's latency; after it a TLS
//! connection carries keep-alive requests exactly as a plain one does.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, ClientConnection, DigitallySignedStruct, RootCertStore, SignatureScheme, StreamOwned};

/// What every TLS connection of a run is opened with.
#[derive(Debug, Clone)]
pub struct TlsClient {
    config: Arc<ClientConfig>,
    server_name: ServerName<'static>,
}

/// How certificates are trusted, as the user asked.
#[derive(Debug, Clone, Default)]
pub struct Trust<'a> {
    /// A PEM file of CA certificates trusted besides the system's roots.
    pub ca_cert: Option<&'a Path>,
    /// No certificate verification at all.
    pub insecure: bool,
}

impl TlsClient {
    /// The configuration for `host` (a name or an IP address). Errors name the file or host
    /// and what was expected; they are the user's input errors.
    pub fn new(host: &str, trust: &Trust) -> Result<TlsClient, String> {
        let server_name = ServerName::try_from(host.trim_start_matches('[').trim_end_matches(']').to_string())
            .map_err(|e| format!("{host:?} is not a host name or IP address TLS can verify: {e}"))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(provider.clone()).with_safe_default_protocol_versions().map_err(|e| format!("TLS setup: {e}"))?;
        let config = if trust.insecure {
            builder.dangerous().with_custom_certificate_verifier(Arc::new(NoVerification(provider.signature_verification_algorithms))).with_no_client_auth()
        } else {
            builder.with_root_certificates(roots(trust.ca_cert)?).with_no_client_auth()
        };
        Ok(TlsClient { config: Arc::new(config), server_name })
    }
}

/// The system's root certificates, plus every certificate of `ca_cert`.
fn roots(ca_cert: Option<&Path>) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    // Unreadable system certificates are skipped: a `--ca-cert` may be all the run needs.
    let native = rustls_native_certs::load_native_certs();
    store.add_parsable_certificates(native.certs);
    if let Some(path) = ca_cert {
        for (i, cert) in read_certificates(path)?.into_iter().enumerate() {
            store.add(cert).map_err(|e| format!("{}: certificate {} is not a usable CA certificate: {e}", path.display(), i + 1))?;
        }
    }
    Ok(store)
}

/// Every `CERTIFICATE` section of a PEM file; an unreadable file, a file that is not PEM or
/// one without a certificate is an error naming the file.
pub fn read_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let certs: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(&bytes).collect::<Result<_, _>>().map_err(|e| format!("{}: not a valid PEM file: {e}", path.display()))?;
    if certs.is_empty() {
        return Err(format!("{}: no certificate in it (expected PEM: -----BEGIN CERTIFICATE-----)", path.display()));
    }
    Ok(certs)
}

/// `--insecure`: accepts any certificate chain, but still checks that the server holds the key
/// of the certificate it sent (so the handshake itself stays sound).
#[derive(Debug)]
struct NoVerification(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for NoVerification {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(&self, message: &[u8], cert: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(&self, message: &[u8], cert: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

/// One connection's byte stream. Reads and writes go through one `match`, so the plain path
/// costs what a bare `TcpStream` does.
pub enum Wire {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
    /// A canned response replayed without a socket (fuzzing, tests); writes are discarded.
    Replay(Replay),
}

/// A response served from memory in reads of at most `piece` bytes, so that the client meets
/// the same read boundaries a slow server would cause.
pub struct Replay {
    pub response: std::io::Cursor<Vec<u8>>,
    pub piece: usize,
}

impl Wire {
    /// Wraps a connected socket, completing the TLS handshake when `tls` is given.
    pub fn over(mut sock: TcpStream, tls: Option<&TlsClient>, hostport: &str) -> Result<Wire, String> {
        let Some(tls) = tls else { return Ok(Wire::Plain(sock)) };
        let mut conn = ClientConnection::new(tls.config.clone(), tls.server_name.clone()).map_err(|e| format!("TLS setup for {hostport}: {e}"))?;
        while conn.is_handshaking() {
            conn.complete_io(&mut sock).map_err(|e| handshake_error(hostport, &e))?;
        }
        Ok(Wire::Tls(Box::new(StreamOwned::new(conn, sock))))
    }
}

/// A failed handshake in words, with the fix when the certificate was the reason.
fn handshake_error(hostport: &str, e: &std::io::Error) -> String {
    let certificate = e.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()).is_some_and(|r| matches!(r, rustls::Error::InvalidCertificate(_)));
    let hint = if certificate {
        " (the server's certificate is not trusted: give --ca-cert FILE with its CA, or --insecure for a self-signed test server)"
    } else {
        ""
    };
    format!("TLS handshake with {hostport} failed: {e}{hint}")
}

impl Read for Wire {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Wire::Plain(s) => s.read(buf),
            Wire::Tls(s) => s.read(buf),
            Wire::Replay(r) => {
                let n = buf.len().min(r.piece.max(1));
                r.response.read(&mut buf[..n])
            }
        }
    }
}

impl Write for Wire {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Wire::Plain(s) => s.write(buf),
            Wire::Tls(s) => s.write(buf),
            Wire::Replay(_) => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Wire::Plain(s) => s.flush(),
            Wire::Tls(s) => s.flush(),
            Wire::Replay(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn certificate_files_must_hold_pem_certificates() {
        let dir = std::env::temp_dir().join(format!("credence-tls-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let not_pem = dir.join("notes.txt");
        std::fs::write(&not_pem, "just some text\n").unwrap();
        let e = read_certificates(&not_pem).unwrap_err();
        assert!(e.contains("notes.txt") && e.contains("BEGIN CERTIFICATE"), "{e}");
        let missing = dir.join("absent.pem");
        let e = read_certificates(&missing).unwrap_err();
        assert!(e.contains("absent.pem") && e.contains("cannot read"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(TlsClient::new("127.0.0.1", &Trust { ca_cert: None, insecure: true }).is_ok());
        assert!(TlsClient::new("[::1]", &Trust::default()).is_ok(), "IPv6 literals lose their brackets");
    }
}
