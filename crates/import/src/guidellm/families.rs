//! Which requests and which per-request values each of guidellm's status-split distributions
//! (`GenerativeMetrics.compile` in `guidellm/benchmark/schemas/metrics.py`) is made of, so the
//! importer can rebuild every one from the records with guidellm's own selection: the requests
//! overlapping the measure window (TTFT and ITL by their first token), values where guidellm
//! substitutes 0 for a missing one, TPOT weighted by output tokens, ITL by output tokens − 1.

use super::record::{Group, Record};
use super::series::{Weighted, concurrency, rates};
use super::window::{Span, counted};

/// How a distribution is made from the counted requests.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// Per-request `(value, weight)` pairs (converted by the family's scale).
    Values(fn(&Record) -> Vec<(f64, f64)>),
    /// Events `(time, amount)` turned into rates over the measure window.
    Rates(fn(&Record) -> Vec<(f64, f64)>),
    /// Requests in flight over the measure window.
    Concurrency,
}

/// One of guidellm's status-split distributions and credence's name for it.
pub struct Family {
    /// The key under `metrics`.
    pub key: &'static str,
    pub metric: &'static str,
    pub unit: &'static str,
    /// Factor from guidellm's unit to the claim's (seconds to ms).
    pub scale: f64,
    /// guidellm's definition where it differs from credence's (the audit gives it as a reason).
    pub definition: Option<&'static str>,
    pub span: Span,
    pub shape: Shape,
}

/// A value guidellm reads with `or 0.0`: a missing one counts as 0.
fn or_zero(x: Option<f64>) -> Vec<(f64, f64)> {
    vec![(x.unwrap_or(0.0), 1.0)]
}

/// A value guidellm skips when missing.
fn if_present(x: Option<f64>) -> Vec<(f64, f64)> {
    x.map(|v| vec![(v, 1.0)]).unwrap_or_default()
}

const RATE: &str = "def-guidellm-rate";
/// The definition of a modality's per-second summary.
pub const RATE_OVER_RUN: &str = "def-guidellm-rate-of-amount";
const DISPATCH: &str = "def-guidellm-targeted-start";

/// guidellm's status-split distributions, in the order it writes them.
pub const FAMILIES: [Family; 22] = [
    Family {
        key: "requests_per_second",
        metric: "requests_per_s",
        unit: "req/s",
        scale: 1.0,
        definition: Some(RATE),
        span: Span::Request,
        shape: Shape::Rates(|r| r.end_time().map(|t| vec![(t, 1.0)]).unwrap_or_default()),
    },
    Family {
        key: "request_concurrency",
        metric: "concurrency",
        unit: "requests",
        scale: 1.0,
        definition: Some("def-guidellm-concurrency"),
        span: Span::Request,
        shape: Shape::Concurrency,
    },
    Family {
        key: "request_latency",
        metric: "e2e",
        unit: "ms",
        scale: 1000.0,
        definition: None,
        span: Span::Request,
        shape: Shape::Values(|r| or_zero(r.latency_s())),
    },
    Family {
        key: "request_dispatch_delay",
        metric: "dispatch_delay",
        unit: "ms",
        scale: 1000.0,
        definition: Some(DISPATCH),
        span: Span::Request,
        shape: Shape::Values(|r| if_present(r.dispatch_delay_s())),
    },
    Family {
        key: "request_scheduled_latency",
        metric: "scheduled_e2e",
        unit: "ms",
        scale: 1000.0,
        definition: Some(DISPATCH),
        span: Span::Request,
        shape: Shape::Values(|r| if_present(r.scheduled_latency_s())),
    },
    Family {
        key: "turn_predecessor_delay",
        metric: "predecessor_delay",
        unit: "ms",
        scale: 1000.0,
        definition: None,
        span: Span::Request,
        shape: Shape::Values(|r| if_present(r.predecessor_delay_s())),
    },
    Family {
        key: "turn_scheduling_delay",
        metric: "scheduling_delay",
        unit: "ms",
        scale: 1000.0,
        definition: Some(DISPATCH),
        span: Span::Request,
        shape: Shape::Values(|r| if_present(r.scheduling_delay_s())),
    },
    Family {
        key: "request_streaming_iterations_count",
        metric: "stream_iterations",
        unit: "iterations",
        scale: 1.0,
        definition: Some("def-guidellm-iterations"),
        span: Span::Request,
        shape: Shape::Values(|r| or_zero(Some(r.timings.request_iterations))),
    },
    Family {
        key: "prompt_token_count",
        metric: "input_tokens",
        unit: "tokens",
        scale: 1.0,
        definition: None,
        span: Span::Request,
        shape: Shape::Values(|r| or_zero(r.prompt_tokens())),
    },
    Family {
        key: "output_token_count",
        metric: "output_tokens",
        unit: "tokens",
        scale: 1.0,
        definition: None,
        span: Span::Request,
        shape: Shape::Values(|r| or_zero(r.output_tokens())),
    },
    Family {
        key: "total_token_count",
        metric: "total_tokens",
        unit: "tokens",
        scale: 1.0,
        definition: None,
        span: Span::Request,
        shape: Shape::Values(|r| or_zero(r.total_tokens())),
    },
    Family {
        key: "time_to_first_token_ms",
        metric: "ttft",
        unit: "ms",
        scale: 1.0,
        definition: None,
        span: Span::ToFirstToken,
        shape: Shape::Values(|r| or_zero(r.ttft_ms())),
    },
    Family {
        key: "time_to_last_round_trip_ms",
        metric: "last_round_trip",
        unit: "ms",
        scale: 1.0,
        definition: Some("def-guidellm-websocket"),
        span: Span::Request,
        shape: Shape::Values(|r| or_zero(r.last_round_trip_ms())),
    },
    Family {
        key: "avg_round_trip_time_ms",
        metric: "avg_round_trip",
        unit: "ms",
        scale: 1.0,
        definition: Some("def-guidellm-websocket"),
        span: Span::Request,
        shape: Shape::Values(|r| or_zero(r.avg_round_trip_ms())),
    },
    Family {
        key: "time_to_first_output_token_ms",
        metric: "time_to_first_content_token",
        unit: "ms",
        scale: 1.0,
        definition: None,
        span: Span::ToFirstOutputToken,
        shape: Shape::Values(|r| or_zero(r.time_to_first_output_token_ms())),
    },
    Family {
        key: "time_per_output_token_ms",
        metric: "tpot",
        unit: "ms",
        scale: 1.0,
        definition: Some(
            "def-guidellm-tpot",
        ),
        span: Span::Request,
        shape: Shape::Values(|r| vec![(r.tpot_ms().unwrap_or(0.0), r.output_tokens().unwrap_or(0.0))]),
    },
    Family {
        key: "inter_token_latency_ms",
        metric: "itl",
        unit: "ms",
        scale: 1.0,
        definition: Some(
            "def-guidellm-itl",
        ),
        span: Span::FromFirstToken,
        shape: Shape::Values(|r| vec![(r.itl_ms().unwrap_or(0.0), r.output_tokens().unwrap_or(1.0) - 1.0)]),
    },
    Family {
        key: "prompt_tokens_per_second",
        metric: "input_tokens_per_s",
        unit: "tokens/s",
        scale: 1.0,
        definition: Some(RATE),
        span: Span::Request,
        shape: Shape::Rates(|r| r.prompt_tokens_timing().into_iter().collect()),
    },
    Family {
        key: "output_tokens_per_second",
        metric: "output_tokens_per_s",
        unit: "tokens/s",
        scale: 1.0,
        definition: Some(RATE),
        span: Span::Request,
        shape: Shape::Rates(Record::output_tokens_timings),
    },
    Family {
        key: "tokens_per_second",
        metric: "total_tokens_per_s",
        unit: "tokens/s",
        scale: 1.0,
        definition: Some(RATE),
        span: Span::Request,
        shape: Shape::Rates(Record::total_tokens_timings),
    },
    Family {
        key: "output_tokens_per_iteration",
        metric: "output_tokens_per_iteration",
        unit: "tokens",
        scale: 1.0,
        definition: None,
        span: Span::Request,
        shape: Shape::Values(|r| r.output_tokens_timings().into_iter().map(|(_, n)| (n, 1.0)).collect()),
    },
    Family {
        key: "iter_tokens_per_iteration",
        metric: "iter_tokens_per_iteration",
        unit: "tokens",
        scale: 1.0,
        definition: None,
        span: Span::Request,
        shape: Shape::Values(|r| r.iter_tokens_timings().into_iter().map(|(_, n)| (n, 1.0)).collect()),
    },
];

/// The weighted values of one family for one group (None: all of them).
pub fn distribution(f: &Family, records: &[Record], group: Option<Group>, window: (f64, f64)) -> Weighted {
    let counted = counted(records, group, f.span, window);
    match f.shape {
        Shape::Values(values) => Weighted::from_pairs(counted.into_iter().flat_map(values).map(|(v, w)| (v * f.scale, w)).collect()),
        Shape::Rates(events) => rates(counted.into_iter().flat_map(events).collect(), Some(window)),
        // guidellm leaves out a request with no start or end time (it has no interval).
        Shape::Concurrency => concurrency(counted.into_iter().filter_map(|r| Some((r.start_time()?, r.end_time()?, 1.0))).collect(), Some(window)),
    }
}

/// `root_dispatch_delay`: the dispatch delays (ms) of the first turns among all counted requests.
pub fn root_dispatch_delay(records: &[Record], window: (f64, f64)) -> Weighted {
    let delays = counted(records, None, Span::Request, window).into_iter().filter(|r| r.first_turn).filter_map(Record::dispatch_delay_s);
    Weighted::from_pairs(delays.map(|d| (d * 1000.0, 1.0)).collect())
}
