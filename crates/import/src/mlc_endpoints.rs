//! MLCommons endpoints `events.jsonl`: per-sample events on a monotonic clock (relative times).
//! `sample.issued` is the send, `sample.recv_first` the first token, `sample.recv_non_first`
//! every later chunk, `sample.complete` the end; `error.*` marks a failed sample. Samples issued
//! before `session.start_performance_tracking` are the warmup.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::json::parse_lines;
use super::{ImportError, ImportOptions, Imported};
use credence_run::manifest::{Capabilities, TimestampQuality};
use credence_run::rows::Request;

#[derive(Default)]
struct Sample {
    issued: Option<i64>,
    first: Option<i64>,
    chunks: Vec<i64>,
    complete: Option<i64>,
    error: Option<String>,
    /// The sample's earliest event of any kind.
    earliest: Option<i64>,
}

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let (samples, tracking) = read_events(path, bytes)?;
    let mut out = Imported { tool: "MLCommons endpoints".into(), ..Default::default() };
    let mut warm = 0;
    for (id, s) in samples {
        let request = request(id, s, tracking);
        if request.phase == Some("warmup") {
            warm += 1;
        }
        out.requests.push(request);
    }
    out.timestamps = Some(TimestampQuality::Relative);
    out.conversion.push("events.jsonl timestamp_ns is a monotonic clock: times are relative within the run".into());
    out.phases.warmup_requests = Some(warm);
    out.phases.warmup_included = Some(warm > 0);
    out.capabilities = Some(Capabilities {
        timestamps: "relative".into(),
        scheduled_times: false,
        itl: "chunk".into(),
        warmup: if warm > 0 { "included".into() } else { "unknown".into() },
        notes: vec!["monotonic clock: telemetry cannot be joined without an anchor".into()],
    });
    Ok(out)
}

/// When performance tracking started and stopped, if the session logged it.
type Tracking = (Option<i64>, Option<i64>);

/// Gathers every sample's events by sample id, and the tracking window.
fn read_events(path: &Path, bytes: &[u8]) -> Result<(BTreeMap<String, Sample>, Tracking), ImportError> {
    let mut samples: BTreeMap<String, Sample> = BTreeMap::new();
    let (mut track_start, mut track_stop) = (None, None);
    for (line, v) in parse_lines(path, bytes)? {
        let ev = v
            .get("event_type")
            .and_then(Value::as_str)
            .ok_or_else(|| ImportError::new(path, Some(format!("line {line}, key event_type")), "expected a string"))?;
        let t = v
            .get("timestamp_ns")
            .and_then(Value::as_i64)
            .ok_or_else(|| ImportError::new(path, Some(format!("line {line}, key timestamp_ns")), "expected an integer (monotonic ns)"))?;
        match ev {
            "session.start_performance_tracking" => track_start = Some(t),
            "session.stop_performance_tracking" => track_stop = Some(t),
            _ => {}
        }
        let Some(id) = v.get("sample_uuid").and_then(Value::as_str) else { continue };
        let s = samples.entry(id.to_string()).or_default();
        s.earliest = Some(s.earliest.map_or(t, |e| e.min(t)));
        match ev {
            "sample.issued" => s.issued = Some(t),
            "sample.recv_first" => {
                s.first = Some(t);
                s.chunks.push(t);
            }
            "sample.recv_non_first" => s.chunks.push(t),
            "sample.complete" => s.complete = Some(t),
            e if e.starts_with("error") => {
                s.error = Some(v.get("data").map_or_else(|| e.to_string(), |d| d.as_str().map_or_else(|| d.to_string(), String::from)))
            }
            _ => {}
        }
    }
    Ok((samples, (track_start, track_stop)))
}

/// One sample as a request, its phase by the tracking window. A sample with events but no
/// `sample.issued` is kept as an invalid source row at its first event.
fn request(id: String, s: Sample, (track_start, track_stop): Tracking) -> Request {
    let sent = s.issued.or(s.earliest).unwrap_or_default();
    let ok = s.error.is_none() && s.complete.is_some();
    let phase = match (track_start, track_stop) {
        (Some(a), _) if sent < a => Some("warmup"),
        (_, Some(z)) if sent > z => Some("cooldown"),
        (Some(_), _) => Some("measure"),
        _ => None,
    };
    let mut chunks = s.chunks.clone();
    chunks.sort_unstable();
    Request {
        invalid_source: s.issued.is_none().then(|| "the sample has events but no sample.issued event".to_string()),
        id,
        sent_ns: sent,
        first_token_ns: s.first.filter(|_| ok),
        end_ns: s.complete.unwrap_or_else(|| chunks.last().copied().unwrap_or(sent)),
        chunk_ns: (ok && !chunks.is_empty()).then_some(chunks),
        ok,
        error_kind: (!ok).then_some(if s.error.is_some() { "other" } else { "cancelled" }),
        error_message: s.error.or_else(|| (!ok).then(|| "no sample.complete event".to_string())),
        phase,
        ..Default::default()
    }
}
