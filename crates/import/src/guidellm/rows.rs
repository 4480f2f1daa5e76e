//! A guidellm record as credence's request row: epoch seconds to ns, the outcome kept apart
//! (errored: a real error of its kind; incomplete: `cancelled`, stopped by guidellm at the end
//! of its run), the phase from the record's overlap with the measure window, and the scheduled
//! send time where guidellm's `targeted_start` is an epoch time.

use super::record::{Group, Record};
use credence_run::rows::{Request, YEAR_2000_NS, error_kind};

/// Epoch seconds as epoch ns.
fn ns(s: f64) -> i64 {
    (s * 1e9).round() as i64
}

/// The phase guidellm gives a request: counted (`measure`) when `[start, end]` overlaps the
/// measure window, else before it (`warmup`) or after it (`cooldown`).
pub fn phase(start: f64, end: Option<f64>, (measure_start, measure_end): (f64, f64)) -> &'static str {
    match end {
        Some(e) if e < measure_start => "warmup",
        _ if start > measure_end => "cooldown",
        _ => "measure",
    }
}

/// The HTTP status of an httpx `HTTPStatusError` message (`Server error '500 Internal …'`).
fn http_status(message: &str) -> Option<u32> {
    let at = message.find("error '")? + "error '".len();
    message.get(at..at + 3).and_then(|c| c.parse().ok()).filter(|c| (100..600).contains(c))
}

/// The error kind of an errored record: the HTTP status's, `disconnected` for a response the
/// server cut short, else by the message; never `cancelled`, which guidellm files apart.
fn errored_kind(message: &str, http: Option<u32>) -> &'static str {
    let m = message.to_ascii_lowercase();
    if http.is_none() && (m.contains("remoteprotocolerror") || m.contains("peer closed connection") || m.contains("incomplete chunked read")) {
        return "disconnected";
    }
    match error_kind(message, http) {
        "cancelled" => "other",
        kind => kind,
    }
}

/// A count of tokens as a row's integer, or why it cannot be one.
fn tokens(x: Option<f64>, key: &str) -> Result<Option<u32>, String> {
    match x {
        Some(t) if t >= 0.0 && t.fract() == 0.0 && t <= u32::MAX as f64 => Ok(Some(t as u32)),
        Some(t) => Err(format!("{key} is {t}, not a token count")),
        None => Ok(None),
    }
}

/// The row of one record; `window` is the measure window (epoch seconds).
pub fn request(r: &Record, window: (f64, f64)) -> Request {
    let start = r.sent_s;
    let end = r.end_time();
    let t = &r.timings;
    let input = tokens(r.prompt_tokens(), "input_metrics.total_tokens");
    let output = tokens(r.output_tokens(), "output_metrics.total_tokens");
    let cached = tokens(r.input.get("cached_tokens").copied(), "input_metrics.cached_tokens");
    let invalid = r
        .non_finite
        .clone()
        .or_else(|| end.is_none().then(|| "no end time (info.timings.request_end and resolve_end are null)".to_string()))
        .or_else(|| [&input, &output, &cached].into_iter().find_map(|x| x.clone().err()));
    let message = r.error.clone().unwrap_or_else(|| "cancelled by guidellm when its run ended".into());
    let http = (r.group == Group::Errored).then(|| http_status(&message)).flatten();
    let sent = ns(start);
    Request {
        id: r.id.clone(),
        // guidellm's targeted_start is no epoch time for Poisson requests generated before its
        // start offset (counted from -1.0): no scheduled time for those.
        scheduled_ns: t.targeted_start.map(ns).filter(|s| *s >= YEAR_2000_NS),
        sent_ns: sent,
        first_byte_ns: t.first_request_iteration.map(ns),
        first_token_ns: t.first_token_iteration.map(ns),
        // guidellm's first output token: the first answer token, after any reasoning (kept
        // only where it lies between the first token and the end, as the contract asks).
        first_content_ns: first_content(t.first_output_token_iteration, t.first_token_iteration, end).map(ns),
        end_ns: end.map_or(sent, ns),
        input_tokens: input.unwrap_or(None),
        output_tokens: output.unwrap_or(None),
        cached_tokens: cached.unwrap_or(None),
        ok: r.group == Group::Successful,
        error_kind: match r.group {
            Group::Successful => None,
            Group::Incomplete => Some("cancelled"),
            Group::Errored => Some(errored_kind(&message, http)),
        },
        error_message: (r.group != Group::Successful).then_some(message),
        http_status: http,
        phase: Some(phase(start, end, window)),
        invalid_source: invalid.map(|why| format!("{}: {why}", r.at)),
        ..Default::default()
    }
}

/// The first answer token's time, where it lies between the first token and the end.
fn first_content(first_output: Option<f64>, first_token: Option<f64>, end: Option<f64>) -> Option<f64> {
    let (fc, ft, end) = (first_output?, first_token?, end?);
    (fc.is_finite() && fc >= ft && fc <= end).then_some(fc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_by_kind() {
        let e500 = "HTTPStatusError(\"Server error '500 Internal Server Error' for url 'http://127.0.0.1:8123/v1/completions'\")";
        assert_eq!(http_status(e500), Some(500));
        assert_eq!(errored_kind(e500, Some(500)), "http_5xx");
        let cut = "RemoteProtocolError('peer closed connection without sending complete message body (incomplete chunked read)')";
        assert_eq!((http_status(cut), errored_kind(cut, None)), (None, "disconnected"));
        assert_eq!(errored_kind("Request was cancelled", None), "other", "an errored record is a real error");
    }

    #[test]
    fn phases_by_overlap() {
        let w = (10.0, 20.0);
        assert_eq!(phase(5.0, Some(9.0), w), "warmup");
        assert_eq!(phase(5.0, Some(10.0), w), "measure", "touching the window counts");
        assert_eq!(phase(21.0, Some(22.0), w), "cooldown");
        assert_eq!(phase(20.0, None, w), "measure");
    }
}
