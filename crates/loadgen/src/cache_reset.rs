//! `--reset-prefix-cache`: empties the server's prefix cache before a run, through vLLM's
//! `POST /reset_prefix_cache` or, where that is not found, SGLang's `POST /flush_cache`. What
//! was called and its answer go into `run.json`; a server with neither is an error, never a
//! silent skip.

use super::{BenchOptions, http};

/// The endpoint that emptied the cache, and its HTTP status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reset {
    pub endpoint: &'static str,
    pub status: u32,
}

impl Reset {
    /// How `run.json` records it.
    pub fn describe(&self) -> String {
        format!("POST {} answered HTTP {} before the load", self.endpoint, self.status)
    }
}

const ENDPOINTS: [&str; 2] = ["/reset_prefix_cache", "/flush_cache"];

/// Calls the reset endpoints in turn until one answers 2xx; a 404 or 405 tries the next.
pub fn reset_prefix_cache(o: &BenchOptions) -> Result<Reset, String> {
    for endpoint in ENDPOINTS {
        let mut conn = http::Conn::open(&o.hostport, o.tls.as_ref(), o.timeout).map_err(|(_, e)| format!("--reset-prefix-cache: cannot connect: {e}"))?;
        let request = http::request_bytes(&o.hostport, endpoint, o.headers.lines(), b"");
        let mut obs = http::Observed::default();
        http::post_stream(&mut conn, &request, &mut obs);
        match obs.http_status {
            Some(status @ 200..=299) => return Ok(Reset { endpoint, status }),
            Some(404 | 405) => continue,
            Some(status) => return Err(format!("--reset-prefix-cache: POST {endpoint} answered HTTP {status}")),
            None => return Err(format!("--reset-prefix-cache: POST {endpoint} got no answer: {}", obs.error.map_or_else(String::new, |e| e.1))),
        }
    }
    Err("--reset-prefix-cache: the server has neither POST /reset_prefix_cache (vLLM: start it with VLLM_SERVER_DEV_MODE=1) nor POST /flush_cache (SGLang)".into())
}
