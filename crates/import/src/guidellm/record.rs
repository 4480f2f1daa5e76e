//! One guidellm request record (`benchmarks[0].requests.<group>[i]`, a
//! `GenerativeRequestStats`), read and checked: its `info.timings` (epoch seconds), its status
//! and error, and its input and output usage. A value of the wrong type is an error naming the
//! record and the key; a NaN or infinite value is remembered (the row is then kept as an
//! invalid source row) and read as missing; a send time that is missing or not finite is an
//! error, since the row could not be placed in time.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::super::ImportError;
use super::super::json::{number, short};

/// The request lists of a benchmark, in guidellm's order for its `total` group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Successful,
    Incomplete,
    Errored,
}

impl Group {
    pub const ALL: [Group; 3] = [Group::Successful, Group::Incomplete, Group::Errored];

    /// The list's key in `requests` and in every status breakdown.
    pub fn key(self) -> &'static str {
        match self {
            Group::Successful => "successful",
            Group::Incomplete => "incomplete",
            Group::Errored => "errored",
        }
    }

    /// The `info.status` guidellm gives the requests of this list.
    fn status(self) -> &'static str {
        match self {
            Group::Successful => "completed",
            Group::Incomplete => "cancelled",
            Group::Errored => "errored",
        }
    }
}

/// `info.timings`: epoch seconds, and the iteration counts.
#[derive(Debug, Clone, Default)]
pub struct Timings {
    pub targeted_start: Option<f64>,
    pub predecessor_completed: Option<f64>,
    pub queued: Option<f64>,
    pub dequeued: Option<f64>,
    pub scheduled_at: Option<f64>,
    pub resolve_start: Option<f64>,
    pub request_start: Option<f64>,
    pub first_request_iteration: Option<f64>,
    pub first_token_iteration: Option<f64>,
    pub first_output_token_iteration: Option<f64>,
    pub last_token_iteration: Option<f64>,
    pub request_end: Option<f64>,
    pub resolve_end: Option<f64>,
    pub finalized: Option<f64>,
    pub last_request_sent: Option<f64>,
    pub request_iterations: f64,
    pub token_iterations: f64,
    pub request_sent_sum: f64,
    pub request_sent_count: f64,
    pub token_received_sum: f64,
    pub token_received_count: f64,
}

/// The usage properties guidellm's modality summaries read (`UsageMetrics`).
pub const USAGE_PROPERTIES: [&str; 20] = [
    "text_tokens",
    "cached_tokens",
    "text_words",
    "text_characters",
    "image_tokens",
    "image_count",
    "image_pixels",
    "image_bytes",
    "video_tokens",
    "video_frames",
    "video_seconds",
    "video_bytes",
    "audio_tokens",
    "audio_samples",
    "audio_seconds",
    "audio_bytes",
    "tool_call_tokens",
    "mixed_content_tool_tokens",
    "tool_call_count",
    "total_tokens",
];

/// One request as guidellm recorded it.
#[derive(Debug, Clone)]
pub struct Record {
    pub group: Group,
    /// The send time (epoch s): `request_start`, else `resolve_start` (guidellm's
    /// `request_start_time`); a record without one is refused.
    pub sent_s: f64,
    /// Where it is: `benchmarks[0].requests.successful[3]`.
    pub at: String,
    pub id: String,
    pub error: Option<String>,
    /// `info.preceding_nodes == 0`: the first turn of its conversation.
    pub first_turn: bool,
    pub timings: Timings,
    /// `input_metrics` and `output_metrics`: the usage properties that hold a number.
    pub input: BTreeMap<&'static str, f64>,
    pub output: BTreeMap<&'static str, f64>,
    /// The first key holding NaN or an infinity, read as missing.
    pub non_finite: Option<String>,
}

/// Reads numbers of one record, remembering the first non-finite one.
struct Reader<'a> {
    path: &'a Path,
    at: &'a str,
    non_finite: Option<String>,
}

impl Reader<'_> {
    /// `obj[key]` as a number; missing or null is None; NaN and infinities are remembered and
    /// read as None; any other type is an error naming the key.
    fn number(&mut self, obj: &Value, prefix: &str, key: &str) -> Result<Option<f64>, ImportError> {
        let at = || format!("key {}.{prefix}{key}", self.at);
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match number(v) {
                Some(x) if x.is_finite() => Ok(Some(x)),
                Some(x) => {
                    self.non_finite.get_or_insert_with(|| format!("{prefix}{key} is {x}"));
                    Ok(None)
                }
                None => Err(ImportError::new(self.path, Some(at()), format!("expected a number or null; found {}", short(v)))),
            },
        }
    }

    /// An object under `obj[key]`, or an error naming it.
    fn object<'v>(&self, obj: &'v Value, prefix: &str, key: &str) -> Result<&'v Value, ImportError> {
        match obj.get(key) {
            Some(v) if v.is_object() => Ok(v),
            other => Err(ImportError::new(
                self.path,
                Some(format!("key {}.{prefix}{key}", self.at)),
                format!("expected an object; {}", other.map_or("it is missing".into(), |v| format!("found {}", short(v)))),
            )),
        }
    }
}

/// Reads record `i` of list `group`.
pub fn read(path: &Path, v: &Value, group: Group, i: usize) -> Result<Record, ImportError> {
    let at = format!("benchmarks[0].requests.{}[{i}]", group.key());
    let mut r = Reader { path, at: &at, non_finite: None };
    let info = r.object(v, "", "info")?;
    check_status(path, &at, info, group)?;
    let (t, input_metrics, output_metrics) = (r.object(info, "info.", "timings")?, r.object(v, "", "input_metrics")?, r.object(v, "", "output_metrics")?);
    let timings = read_timings(&mut r, t)?;
    let input = read_usage(&mut r, input_metrics, "input_metrics.")?;
    let output = read_usage(&mut r, output_metrics, "output_metrics.")?;
    let preceding = r.number(info, "info.", "preceding_nodes")?;
    let text = |obj: &Value, key: &str| obj.get(key).and_then(Value::as_str).map(String::from);
    let id = text(v, "request_id").or_else(|| text(info, "request_id")).unwrap_or_else(|| format!("{}[{i}]", group.key()));
    let record = Record {
        group,
        sent_s: timings.request_start.or(timings.resolve_start).unwrap_or(f64::NAN),
        id,
        error: text(info, "error"),
        first_turn: preceding.unwrap_or(0.0) == 0.0,
        timings,
        input,
        output,
        non_finite: r.non_finite,
        at,
    };
    // A NaN send time is not a missing one: guidellm would not fall back to resolve_start.
    let send_is_nan = t.get("request_start").and_then(number).is_some_and(|x| !x.is_finite());
    if send_is_nan || !record.sent_s.is_finite() {
        return Err(send_time_error(path, &record, t));
    }
    Ok(record)
}

/// `info.status` must be the list's own: guidellm files each request by it.
fn check_status(path: &Path, at: &str, info: &Value, group: Group) -> Result<(), ImportError> {
    match info.get("status") {
        Some(Value::String(s)) if s == group.status() => Ok(()),
        None | Some(Value::Null) => Ok(()),
        Some(other) => Err(ImportError::new(
            path,
            Some(format!("key {at}.info.status")),
            format!("expected \"{}\" in the {} list; found {}", group.status(), group.key(), short(other)),
        )),
    }
}

/// The error for a record with no usable send time (`request_start`, else `resolve_start`).
fn send_time_error(path: &Path, record: &Record, timings: &Value) -> ImportError {
    let raw = match timings.get("request_start") {
        None => "nothing".to_string(),
        Some(v) => number(v).map_or_else(|| short(v), |x| x.to_string()),
    };
    ImportError::new(
        path,
        Some(format!("record {} (request {}), key info.timings.request_start", record.at, record.id)),
        format!("expected the send time in epoch seconds (or info.timings.resolve_start); found {raw}"),
    )
}

fn read_timings(r: &mut Reader<'_>, t: &Value) -> Result<Timings, ImportError> {
    const P: &str = "info.timings.";
    let mut n = |k: &str| r.number(t, P, k);
    Ok(Timings {
        targeted_start: n("targeted_start")?,
        predecessor_completed: n("predecessor_completed")?,
        queued: n("queued")?,
        dequeued: n("dequeued")?,
        scheduled_at: n("scheduled_at")?,
        resolve_start: n("resolve_start")?,
        request_start: n("request_start")?,
        first_request_iteration: n("first_request_iteration")?,
        first_token_iteration: n("first_token_iteration")?,
        first_output_token_iteration: n("first_output_token_iteration")?,
        last_token_iteration: n("last_token_iteration")?,
        request_end: n("request_end")?,
        resolve_end: n("resolve_end")?,
        finalized: n("finalized")?,
        last_request_sent: n("last_request_sent")?,
        request_iterations: n("request_iterations")?.unwrap_or(0.0),
        token_iterations: n("token_iterations")?.unwrap_or(0.0),
        request_sent_sum: n("request_sent_sum")?.unwrap_or(0.0),
        request_sent_count: n("request_sent_count")?.unwrap_or(0.0),
        token_received_sum: n("token_received_sum")?.unwrap_or(0.0),
        token_received_count: n("token_received_count")?.unwrap_or(0.0),
    })
}

fn read_usage(r: &mut Reader<'_>, u: &Value, prefix: &str) -> Result<BTreeMap<&'static str, f64>, ImportError> {
    let mut out = BTreeMap::new();
    for key in USAGE_PROPERTIES {
        if let Some(x) = r.number(u, prefix, key)? {
            out.insert(key, x);
        }
    }
    Ok(out)
}
