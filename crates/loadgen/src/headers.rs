//! Extra request headers: the API key (`Authorization: Bearer …`) and `--header 'Name: value'`.
//!
//! Their lines go into every request and nowhere else. Only header names reach the run
//! directory; values are secrets: `Debug` does not show them, and `scrub` removes them from
//! any text that is stored or printed (a server may echo the key in its error body).

/// Header names credence writes itself: a second copy would break the request's framing.
const OWN_HEADERS: [&str; 6] = ["host", "content-type", "content-length", "transfer-encoding", "connection", "accept"];

/// What replaces a secret in stored text.
pub const REDACTED: &str = "[redacted]";

/// Values shorter than this are not scrubbed: replacing `1` or `on` everywhere would garble
/// messages, and values that short are no secret.
const MIN_SECRET_LEN: usize = 6;

/// The extra headers of every request.
#[derive(Clone, Default)]
pub struct RequestHeaders {
    /// `Name: value\r\n` lines, ready to go into a request head.
    lines: String,
    names: Vec<String>,
    secrets: Vec<String>,
}

impl std::fmt::Debug for RequestHeaders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestHeaders").field("names", &self.names).finish_non_exhaustive()
    }
}

impl RequestHeaders {
    /// The API key as a Bearer token, then the `--header` pairs, each checked by `parse_header`.
    /// The error never shows the key.
    pub fn new(api_key: Option<&str>, headers: Vec<(String, String)>) -> Result<RequestHeaders, String> {
        let mut h = RequestHeaders::default();
        if let Some(key) = api_key {
            if key.trim().is_empty() || key.chars().any(|c| c.is_control() || c == ' ') {
                return Err("the API key is empty or holds spaces or control characters".into());
            }
            if headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("authorization")) {
                return Err("an API key and an Authorization --header were both given: keep one".into());
            }
            h.push("Authorization", &format!("Bearer {key}"));
            h.secrets.push(key.to_string());
        }
        for (name, value) in headers {
            h.push(&name, &value);
        }
        Ok(h)
    }

    fn push(&mut self, name: &str, value: &str) {
        self.lines.push_str(&format!("{name}: {value}\r\n"));
        self.names.push(name.to_string());
        if value.len() >= MIN_SECRET_LEN {
            self.secrets.push(value.to_string());
        }
    }

    /// The header lines, each ending in CRLF.
    pub fn lines(&self) -> &[u8] {
        self.lines.as_bytes()
    }

    /// The header names, in order: what the manifest records.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// `text` with every secret value replaced by `[redacted]`.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), REDACTED);
            }
        }
        out
    }
}

/// `Name: value` as a header: a name of token characters that credence does not set itself,
/// and a value without line breaks. Errors describe the fault without repeating the value.
pub fn parse_header(text: &str) -> Result<(String, String), String> {
    let Some((name, value)) = text.split_once(':') else {
        return Err("has no colon (expected 'Name: value')".into());
    };
    let name = name.trim();
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return Err("has no valid header name before its colon (letters, digits and -_. only)".into());
    }
    if OWN_HEADERS.iter().any(|h| name.eq_ignore_ascii_case(h)) {
        return Err(format!("sets {name}, which credence writes itself"));
    }
    let value = value.trim();
    if value.chars().any(|c| c.is_control()) {
        return Err(format!("{name}: the value holds a line break or control character"));
    }
    Ok((name.to_string(), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_sent_but_never_shown() {
        let h = RequestHeaders::new(Some("sk-test-123456"), vec![parse_header("X-Org: org-secret-77").unwrap(), parse_header("X-Tier:1").unwrap()]).unwrap();
        assert_eq!(String::from_utf8_lossy(h.lines()), "Authorization: Bearer sk-test-123456\r\nX-Org: org-secret-77\r\nX-Tier: 1\r\n");
        assert_eq!(h.names(), ["Authorization", "X-Org", "X-Tier"]);
        let debug = format!("{h:?}");
        assert!(!debug.contains("sk-test") && !debug.contains("org-secret") && debug.contains("X-Org"), "{debug}");
        assert_eq!(h.scrub("bad key sk-test-123456 for org-secret-77, tier 1"), "bad key [redacted] for [redacted], tier 1");
    }

    #[test]
    fn malformed_headers_and_keys_are_refused() {
        assert!(parse_header("X-Token abc").unwrap_err().contains("no colon"));
        assert!(parse_header(": v").is_err());
        assert!(parse_header("Bad Name: v").is_err());
        assert!(parse_header("Content-Length: 5").unwrap_err().contains("credence writes itself"));
        assert!(parse_header("X-A: a\r\nX-B: b").is_err(), "no header injection");
        let e = RequestHeaders::new(Some("sk bad"), Vec::new()).unwrap_err();
        assert!(!e.contains("sk bad"), "{e}");
        assert!(RequestHeaders::new(Some("k"), vec![("authorization".into(), "Basic x".into())]).is_err());
    }
}
