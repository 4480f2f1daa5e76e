//! guidellm's per-modality summaries (`metrics.text`, `image`, `video`, `audio`, `tool_call`:
//! `GenerativeMetricsSummary.compile` in `guidellm/benchmark/schemas/metrics.py`): for one
//! usage property (text tokens, words, characters, image count, …), the distribution of its
//! input, output and total values per request, their rate over time and their concurrency,
//! the last two over the whole run (guidellm passes no window to them).

use super::record::{Group, Record};
use super::series::{Weighted, concurrency, rates};
use super::window::{Span, counted};

/// Each modality section and its summaries: (key in the section, usage property).
pub const MODALITIES: [(&str, &[(&str, &str)]); 5] = [
    ("text", &[("tokens", "text_tokens"), ("words", "text_words"), ("characters", "text_characters")]),
    ("image", &[("tokens", "image_tokens"), ("images", "image_count"), ("pixels", "image_pixels"), ("bytes", "image_bytes")]),
    ("video", &[("tokens", "video_tokens"), ("frames", "video_frames"), ("seconds", "video_seconds"), ("bytes", "video_bytes")]),
    ("audio", &[("tokens", "audio_tokens"), ("samples", "audio_samples"), ("seconds", "audio_seconds"), ("bytes", "audio_bytes")]),
    ("tool_call", &[("tokens", "tool_call_tokens"), ("mixed_tokens", "mixed_content_tool_tokens"), ("count", "tool_call_count")]),
];

/// Input, output, or both (guidellm's `total`: the input values and the output values together).
#[derive(Debug, Clone, Copy)]
pub enum Side {
    Input,
    Output,
    Total,
}

/// The value distribution, the rate over time, or the concurrency.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Values,
    PerSecond,
    Concurrency,
}

impl Side {
    pub const ALL: [(Side, &'static str); 3] = [(Side::Input, "input"), (Side::Output, "output"), (Side::Total, "total")];
}

impl Kind {
    /// Each kind with the suffix of its key (`input`, `input_per_second`, `input_concurrency`)
    /// and of credence's metric name.
    pub const ALL: [(Kind, &'static str, &'static str); 3] =
        [(Kind::Values, "", ""), (Kind::PerSecond, "_per_second", "_per_s"), (Kind::Concurrency, "_concurrency", "_concurrency")];
}

/// One request's timed metric: start, end, input value, output value (guidellm's
/// `extract_property_metrics_for_summary`: only requests with a start and an end that are not
/// 0, and with the property on either side).
fn timed(r: &Record, property: &str) -> Option<(f64, f64, Option<f64>, Option<f64>)> {
    let (start, end) = (r.start_time().filter(|t| *t != 0.0)?, r.end_time().filter(|t| *t != 0.0)?);
    let (input, output) = (r.input.get(property).copied(), r.output.get(property).copied());
    (input.is_some() || output.is_some()).then_some((start, end, input, output))
}

/// The side's values of one timed metric (`Total` gives the input one, then the output one).
fn sides(m: &(f64, f64, Option<f64>, Option<f64>), side: Side) -> Vec<Option<f64>> {
    match side {
        Side::Input => vec![m.2],
        Side::Output => vec![m.3],
        Side::Total => vec![m.2, m.3],
    }
}

/// The weighted values of one summary for one group (None: all of them). Values skip a
/// missing side; rates and concurrency count it as 0.
pub fn distribution(records: &[Record], window: (f64, f64), property: &str, side: Side, kind: Kind, group: Option<Group>) -> Weighted {
    let groups: Vec<Group> = group.map_or(Group::ALL.to_vec(), |g| vec![g]);
    // guidellm builds the `total` side group by group (input values, then output values).
    let mut metrics: Vec<(f64, f64, Option<f64>)> = Vec::new();
    for g in groups {
        let timed: Vec<_> = counted(records, Some(g), Span::Request, window).into_iter().filter_map(|r| timed(r, property)).collect();
        let by_side = match side {
            Side::Total => vec![Side::Input, Side::Output],
            one => vec![one],
        };
        for s in by_side {
            metrics.extend(timed.iter().flat_map(|m| sides(m, s).into_iter().map(move |v| (m.0, m.1, v))));
        }
    }
    match kind {
        Kind::Values => Weighted::from_pairs(metrics.iter().filter_map(|m| m.2).map(|v| (v, 1.0)).collect()),
        Kind::PerSecond => rates(metrics.iter().map(|m| (m.1, m.2.unwrap_or(0.0))).collect(), None),
        Kind::Concurrency => concurrency(metrics.iter().map(|m| (m.0, m.1, m.2.unwrap_or(0.0))).collect(), None),
    }
}
