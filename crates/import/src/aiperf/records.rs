//! AIPerf `profile_export.jsonl`: one record per request, `{metadata, metrics, error?}`, in
//! completion order, warm-up first (fixtures/peers/FORMATS.md, "aiperf 0.13.0").
//!
//! Each record becomes a request row; every metric value of every record is also kept, by
//! phase, as AIPerf computed it (`super::totals`), so the aggregate's claims can be recomputed
//! with AIPerf's own definitions.

use std::path::Path;

use serde_json::Value;

use super::totals::PhaseTotals;
use super::values::{check_metrics, gaps_ms, integer_metric, metric_value, time_ms, token_count};
use crate::json::{parse_lines, short};
use crate::{ImportError, ImportOptions, Imported};
use credence_run::manifest::{Capabilities, TimestampQuality, Workload};
use credence_run::rows::{Request, chunk_times, error_kind};

/// The phase a record belongs to, by `metadata.benchmark_phase` (`phase_index` is 0 for the
/// profiling phase without a warm-up and 1 with one: it cannot tell them apart).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Warmup,
    Profiling,
    /// A phase name this importer does not know: the row is kept without a phase.
    Other,
}

/// One record read: its row, its phase, and whether AIPerf counted it as an error.
pub(super) struct Record {
    pub request: Request,
    pub phase: Phase,
    pub errored: bool,
    pub cancelled: bool,
    /// `credit_issued_ns`, for AIPerf's credit-to-start and effective latencies.
    pub credit_ns: Option<i64>,
    /// `request_end_ns` as written (the row's end may fall back to the cancellation time).
    pub end_ns: Option<i64>,
}

pub fn parse(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let mut out = Imported { tool: "aiperf".into(), ..Default::default() };
    let (mut profiling, mut warmup) = (PhaseTotals::default(), PhaseTotals::default());
    let mut unknown_phase = 0usize;
    let (mut usage_given, mut usage_differs) = (0usize, 0usize);
    for (line, v) in parse_lines(path, bytes)? {
        let rec = record(path, line, &v)?;
        let metrics = v.get("metrics").unwrap_or(&Value::Null);
        match rec.phase {
            Phase::Profiling => profiling.add(&rec, metrics),
            Phase::Warmup => warmup.add(&rec, metrics),
            Phase::Other => unknown_phase += 1,
        }
        let usage = integer_metric(metrics, "usage_completion_tokens");
        usage_given += usize::from(usage.is_some());
        usage_differs += usize::from(usage.is_some() && usage != rec.request.output_tokens.map(u64::from));
        out.requests.push(rec.request);
    }
    out.facts.extend(profiling.facts("aiperf.jsonl"));
    out.facts.push(("aiperf.jsonl.warmup_records".into(), warmup.records().to_string()));
    describe(&mut out, warmup.records(), unknown_phase, (usage_differs, usage_given));
    profiling.finish("", &mut out.raw);
    warmup.finish("warmup.", &mut out.raw);
    Ok(out)
}

/// What the run directory says about the source: clock, phases, capabilities.
fn describe(out: &mut Imported, warmup: u64, unknown_phase: usize, (usage_differs, usage_given): (usize, usize)) {
    out.timestamps = Some(TimestampQuality::Absolute);
    out.conversion.push(
        "AIPerf's *_ns times are epoch ns: request_start_ns is the worker's time.time_ns(); request_ack_ns, request_end_ns, the first token \
         (request_start_ns + time_to_first_token) and the chunks (+ inter_chunk_latency, ms) follow from it by perf_counter deltas; \
         credit_issued_ns (scheduled) is the controller's clock"
            .into(),
    );
    if usage_differs > 0 {
        out.conversion.push(format!(
            "output tokens are AIPerf's output_sequence_length (its tokenizer's count of the streamed text); the server's usage.completion_tokens differs in {usage_differs} of the {usage_given} records that carry it"
        ));
    }
    if unknown_phase > 0 {
        out.conversion
            .push(format!("{unknown_phase} records of an unknown benchmark_phase are kept without a phase and left out of the recomputed statistics"));
    }
    out.workload = Some(Workload { streaming: Some(true), ..Workload::unknown() });
    out.phases.warmup_requests = Some(warmup);
    out.phases.warmup_included = Some(true);
    out.phases.note = Some("AIPerf writes its warm-up records to profile_export.jsonl, marked benchmark_phase \"warmup\"".into());
    out.capabilities = Some(Capabilities {
        timestamps: "absolute".into(),
        scheduled_times: true,
        itl: "chunk".into(),
        warmup: "included".into(),
        notes: vec![
            "for reasoning models time_to_first_token counts reasoning tokens".into(),
            "requests still in flight when a phase ends are absent from profile_export.jsonl (only logs/aiperf.log counts them)".into(),
        ],
    });
}

/// One line's record: its row, or an exit-2 error when its send time is unusable (every
/// other unusable value marks the row `invalid_source`, naming the line and key).
fn record(path: &Path, line: usize, v: &Value) -> Result<Record, ImportError> {
    let at = |k: &str| Some(format!("line {line}, key {k}"));
    let md = v
        .get("metadata")
        .filter(|m| m.is_object())
        .ok_or_else(|| ImportError::new(path, at("metadata"), format!("expected an object with request_start_ns; found {}", found(v.get("metadata")))))?;
    let start = md.get("request_start_ns").and_then(Value::as_i64).ok_or_else(|| {
        ImportError::new(path, at("metadata.request_start_ns"), format!("expected epoch ns (an integer); found {}", found(md.get("request_start_ns"))))
    })?;
    let mut problems = Vec::new();
    let meta = Meta::read(md, &mut problems);
    let error = v.get("error").filter(|e| !e.is_null());
    let metrics = v.get("metrics").unwrap_or(&Value::Null);
    let timing = timing(metrics, start, &mut problems);
    check_metrics(metrics, &mut problems);
    let end_ns = meta.end.or(meta.cancel_time).unwrap_or_else(|| {
        problems.push("keys metadata.request_end_ns and cancellation_time_ns are both missing".into());
        start
    });
    let mut request = Request {
        id: md.get("x_request_id").and_then(Value::as_str).map_or_else(|| format!("line{line}"), String::from),
        scheduled_ns: meta.credit,
        sent_ns: start,
        first_byte_ns: meta.ack,
        first_token_ns: timing.first_token_ns,
        end_ns,
        chunk_ns: timing.chunk_ns,
        input_tokens: timing.input_tokens,
        output_tokens: timing.output_tokens,
        ok: error.is_none() && !meta.cancelled,
        phase: match meta.phase {
            Phase::Warmup => Some("warmup"),
            Phase::Profiling => Some("measure"),
            Phase::Other => None,
        },
        invalid_source: problems.first().map(|p| format!("line {line}, {p}")),
        ..Default::default()
    };
    if let Some(why) = request.misplaced() {
        return Err(ImportError::new(path, at("metadata.request_start_ns"), format!("{why}; AIPerf 0.13.0 writes epoch ns")));
    }
    set_outcome(&mut request, error, meta.cancelled);
    Ok(Record { request, phase: meta.phase, errored: error.is_some(), cancelled: meta.cancelled, credit_ns: meta.credit, end_ns: meta.end })
}

/// The `metadata` keys besides the send time.
struct Meta {
    end: Option<i64>,
    cancel_time: Option<i64>,
    credit: Option<i64>,
    ack: Option<i64>,
    cancelled: bool,
    phase: Phase,
}

impl Meta {
    /// Reads them; an unusable value is added to `problems` and read as absent.
    fn read(md: &Value, problems: &mut Vec<String>) -> Meta {
        let mut ns = |k: &str| keep(epoch_ns(md, k).map_err(|why| format!("key metadata.{k} {why}")), problems);
        let (end, cancel_time, credit, ack) = (ns("request_end_ns"), ns("cancellation_time_ns"), ns("credit_issued_ns"), ns("request_ack_ns"));
        let cancelled = match md.get("was_cancelled") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(x) => {
                problems.push(format!("key metadata.was_cancelled is {}, not true or false", short(x)));
                false
            }
        };
        let phase = match md.get("benchmark_phase").and_then(Value::as_str) {
            Some("warmup") => Phase::Warmup,
            Some("profiling") | None => Phase::Profiling,
            Some(_) => Phase::Other,
        };
        Meta { end, cancel_time, credit, ack, cancelled, phase }
    }
}

/// The value of `r`, or None with its error added to `problems`.
fn keep<T>(r: Result<Option<T>, String>, problems: &mut Vec<String>) -> Option<T> {
    r.unwrap_or_else(|why| {
        problems.push(why);
        None
    })
}

/// What a key holds, for an error message.
fn found(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing (the key is missing)".into(), short)
}

/// An optional epoch-ns key of `metadata`: absent or null is None; anything but an integer is
/// an error saying what it holds.
fn epoch_ns(md: &Value, k: &str) -> Result<Option<i64>, String> {
    match md.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(x) => x.as_i64().map(Some).ok_or_else(|| format!("is {}, not epoch ns (an integer)", short(x))),
    }
}

/// The times and token counts a record's metrics give its row.
struct Timing {
    first_token_ns: Option<i64>,
    chunk_ns: Option<Vec<i64>>,
    input_tokens: Option<u32>,
    output_tokens: Option<u32>,
}

/// First token at `request_start_ns + time_to_first_token`; one chunk there and one after each
/// `inter_chunk_latency` gap (one gap per content chunk after the first; 0.0 when two SSE
/// events came in one read). Unusable values are added to `problems`.
fn timing(metrics: &Value, start: i64, problems: &mut Vec<String>) -> Timing {
    let ttft = keep(time_ms(metrics, "time_to_first_token"), problems);
    let first_token_ns = ttft.map(|t| start.saturating_add((t * 1e6) as i64));
    let gaps = keep(gaps_ms(metrics), problems);
    let chunk_ns = first_token_ns.zip(gaps).map(|(f, g)| chunk_times(f, g, 1e6));
    let mut tokens = |keys: &[&str]| {
        let k = keys.iter().copied().find(|k| metric_value(metrics, k).is_some())?;
        keep(token_count(metrics, k), problems).map(|x| x as u32)
    };
    let input_tokens = tokens(&["input_sequence_length", "usage_prompt_tokens", "error_isl"]);
    let output_tokens = tokens(&["output_sequence_length", "output_token_count", "usage_completion_tokens"]);
    Timing { first_token_ns, chunk_ns, input_tokens, output_tokens }
}

/// The row's outcome: ok; `cancelled` when AIPerf stopped it (`was_cancelled`); an HTTP error
/// by its `error.code`; `disconnected` for a stream the server cut (`ClientPayloadError`);
/// else by the message.
fn set_outcome(r: &mut Request, error: Option<&Value>, cancelled: bool) {
    if cancelled {
        r.error_kind = Some("cancelled");
        r.error_message = Some("cancelled by AIPerf while in flight (was_cancelled)".into());
        return;
    }
    let Some(e) = error else { return };
    let text = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
    let (kind_name, message) = (text("type"), e.get("message").and_then(Value::as_str).map_or_else(|| short(e), String::from));
    let code = e.get("code").and_then(Value::as_u64).and_then(|c| u32::try_from(c).ok());
    let chain: Vec<&str> = e.get("cause_chain").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    let cut_short = ["ClientPayloadError", "ServerDisconnectedError", "TransferEncodingError", "ContentLengthError"];
    r.error_kind = Some(match code {
        Some(c) => error_kind(&message, Some(c)),
        None if cut_short.contains(&kind_name) || chain.iter().any(|c| cut_short.contains(c)) => "disconnected",
        None => error_kind(&format!("{kind_name} {message}"), None),
    });
    r.http_status = code;
    r.error_message = Some(match code {
        Some(c) => format!("HTTP {c} {kind_name}: {message}"),
        None if !kind_name.is_empty() && !message.starts_with(kind_name) => format!("{kind_name}: {message}"),
        None => message,
    });
}
