//! Which requests guidellm counts: those whose span overlaps the measure window
//! (`GenerativeRequestsAccumulator.get_within_range`, open), by their whole span or, for TTFT
//! and ITL, by the part before or after their first token.

use super::record::{Group, Record};

/// Which span of a request must overlap the measure window for it to count.
#[derive(Debug, Clone, Copy)]
pub enum Span {
    /// `[request_start_time, request_end_time]`.
    Request,
    /// `[request_start_time, first token]`.
    ToFirstToken,
    /// `[first token, request_end_time]`.
    FromFirstToken,
    /// `[request_start_time, first output token]`.
    ToFirstOutputToken,
}

/// guidellm's `get_within_range` (open): the request counts when its span overlaps the
/// window; with no start the span is the instant of its end; with no end it never counts.
pub fn overlaps(r: &Record, span: Span, (start, end): (f64, f64)) -> bool {
    let (from, to) = match span {
        Span::Request => (r.start_time(), r.end_time()),
        Span::ToFirstToken => (r.start_time(), r.timings.first_token_iteration),
        Span::FromFirstToken => (r.timings.first_token_iteration, r.end_time()),
        Span::ToFirstOutputToken => (r.start_time(), r.timings.first_output_token_iteration),
    };
    let Some(to) = to else { return false };
    to >= start && from.unwrap_or(to) <= end
}

/// The records of `group` (all of them, in guidellm's order, for None: its `total`) whose
/// span overlaps the window.
pub fn counted(records: &[Record], group: Option<Group>, span: Span, window: (f64, f64)) -> Vec<&Record> {
    let groups: Vec<Group> = group.map_or(Group::ALL.to_vec(), |g| vec![g]);
    groups.into_iter().flat_map(|g| records.iter().filter(move |r| r.group == g && overlaps(r, span, window))).collect()
}
