//! inference-perf's times are `time.perf_counter()` seconds (CLOCK_MONOTONIC on Linux): no date.
//! They are anchored to the wall clock by the stage reports (`run.time.start` is `time.time()`
//! read just before the stage's schedule origin `perf_counter() + 1 s`), or by `--start`.
//!
//! The stage reports bound the offset from both sides: a stage's first request cannot be sent
//! before its origin (lower bound; the anchor is placed there, the latest such bound over the
//! stages), and a stage's requests have all ended (or, for a stage cut short, been sent) by its
//! `run.time.end` (upper bound). The gap between them is the stated precision.

use std::path::Path;

use super::records::{Record, ns};
use super::side::{Plan, StageWindow};
use crate::{ImportError, ImportOptions};

/// How early the tool may send a request against its schedule (`schedule_delay` has negative
/// minimums of ~1 ms when the event loop wakes early).
const EARLY_SEND_NS: i64 = 5_000_000;
const SECOND_NS: i64 = 1_000_000_000;

/// The offset that moves perf_counter ns onto epoch ns, each record's stage, and how it was
/// found, for the manifest's `conversion`.
#[derive(Debug)]
pub struct Anchor {
    pub offset_ns: i64,
    /// Stage of each record (None: after the last stage report given, or unknown).
    pub stages: Vec<Option<u32>>,
    pub note: String,
    /// Set when the anchor is the user's `--start`, not read from the tool's output.
    pub assumed: bool,
}

/// Anchors the records: by the stage reports, else by `--start`, else refuses.
pub fn anchor(path: &Path, records: &[Record], windows: &[StageWindow], plan: Option<&Plan>, o: &ImportOptions) -> Result<Anchor, ImportError> {
    let first = records.iter().map(|r| ns(r.start)).min().unwrap_or(0);
    match (windows.is_empty(), o.start_ns) {
        (false, Some(_)) => Err(ImportError::new(path, None, "both --start and a stage report (inference-perf.partial.stage_N.yaml) anchor the clock")
            .hint("give one: the stage report is the tool's own record of when the run started")),
        (true, Some(start)) => {
            let single = plan.is_some_and(|p| p.stages.len() == 1);
            Ok(Anchor {
                offset_ns: start - first,
                stages: vec![single.then_some(0); records.len()],
                note: format!(
                    "inference-perf times are time.perf_counter() seconds (no date); anchor ASSUMED from --start {}: taken as the first request's send time, not read from the tool's output; anchor precision: as good as the time given",
                    o.start_text.as_deref().unwrap_or("")
                ),
                assumed: true,
            })
        }
        (true, None) => Err(ImportError::new(path, None, "inference-perf's times are time.perf_counter() seconds with no date, and nothing given anchors them to the wall clock").hint(
            "give the stage report inference-perf.partial.stage_0.yaml from the same output folder with it (its run.time.start anchors the clock), or --start TIME (RFC 3339 UTC: when the first request was sent)",
        )),
        (false, None) => by_stage_reports(path, records, windows, plan, first),
    }
}

fn by_stage_reports(path: &Path, records: &[Record], windows: &[StageWindow], plan: Option<&Plan>, first: i64) -> Result<Anchor, ImportError> {
    let mut w: Vec<&StageWindow> = windows.iter().collect();
    w.sort_by_key(|x| x.start_ns);
    if let Some(other) = w.iter().find(|x| x.experiment != w[0].experiment) {
        return Err(ImportError::new(path, None, format!("the stage reports {} and {} are of different runs (run.eid)", w[0].file, other.file))
            .hint("give the stage reports from this run's output folder"));
    }
    if w[0].id != 0 {
        return Err(ImportError::new(
            path,
            None,
            format!("the earliest stage report given ({}) is of stage {}, not of the run's first stage", w[0].file, w[0].id),
        )
        .hint("give inference-perf.partial.stage_0.yaml too: the first stage's start anchors the clock (or --start TIME)"));
    }
    // num_workers 0 runs the stages in-process, with the schedule starting at once.
    let origin = if plan.and_then(|p| p.num_workers) == Some(0) { 0 } else { SECOND_NS };
    let first_guess = w[0].start_ns + origin - first;
    let stages = assign(records, &w, first_guess);
    let lower = w.iter().filter_map(|s| stage_extent(records, &stages, s.id).map(|e| s.start_ns + origin - e.first_send)).max().unwrap_or(first_guess);
    let stages = assign(records, &w, lower);
    let upper = upper_bound(records, &stages, &w, plan);
    let precision = match upper {
        Some((u, why)) if u >= lower => {
            format!("true − stored ∈ [{:+.3} s, {:+.3} s] (the upper bound: {why})", -(EARLY_SEND_NS as f64) / 1e9, (u - lower) as f64 / 1e9)
        }
        Some((u, why)) => {
            // The records do not fit between the reports' starts and ends: other files, or a
            // run the assumptions do not cover. A clock of unknown error is not written.
            return Err(ImportError::new(path, None, format!(
                "the records do not fit the stage reports' windows: the earliest anchor their starts allow is {:.3} s after the latest their ends allow ({why})",
                (lower - u) as f64 / 1e9
            ))
            .hint("give the stage reports and config.yaml of this run's output folder (num_workers 0 starts the schedule at run.time.start), or --start TIME instead"));
        }
        None => {
            return Err(ImportError::new(path, None, format!("no request falls in the window of {} (run.time.start + 1 s to run.time.end)", w[0].file))
                .hint("give the stage reports of this run's output folder, or --start TIME instead"));
        }
    };
    let note = format!(
        "inference-perf times are time.perf_counter() seconds (no date); anchored to run.time.start of {} ({}): each stage's schedule starts {} s after its run.time.start, so each stage's first request is placed no earlier than that (the latest such anchor over {} stage report(s)); anchor precision: {precision}",
        w[0].file,
        w[0].start_text,
        origin / SECOND_NS,
        w.len()
    );
    Ok(Anchor { offset_ns: lower, stages, note, assumed: false })
}

/// Each record's stage: the first stage report whose end comes after its send (stages run one
/// after another, each ending after its last request and starting its schedule 1 s after its
/// report's start, so the boundary is safe while the anchor is off by less than that gap).
fn assign(records: &[Record], w: &[&StageWindow], offset_ns: i64) -> Vec<Option<u32>> {
    records
        .iter()
        .map(|r| {
            let sent = ns(r.start) + offset_ns;
            w.iter().find(|s| sent <= s.end_ns).map(|s| s.id)
        })
        .collect()
}

/// A stage's records on the perf_counter clock (ns).
struct Extent {
    first_send: i64,
    last_send: i64,
    last_end: i64,
    count: usize,
}

fn stage_extent(records: &[Record], stages: &[Option<u32>], id: u32) -> Option<Extent> {
    let mine: Vec<&Record> = records.iter().zip(stages).filter(|(_, s)| **s == Some(id)).map(|(r, _)| r).collect();
    let first_send = mine.iter().map(|r| ns(r.start)).min()?;
    let last_send = mine.iter().map(|r| ns(r.start)).max()?;
    let last_end = mine.iter().filter(|r| r.end.is_finite()).map(|r| ns(r.end)).max().unwrap_or(last_send);
    Some(Extent { first_send, last_send, last_end, count: mine.len() })
}

/// The tightest upper bound on the offset: a stage that ran all its planned requests ended
/// after the last of them; one cut short (Ctrl-C, a timeout) or of unknown plan still stopped
/// sending before its report's end.
fn upper_bound(records: &[Record], stages: &[Option<u32>], w: &[&StageWindow], plan: Option<&Plan>) -> Option<(i64, String)> {
    w.iter()
        .filter_map(|s| {
            let e = stage_extent(records, stages, s.id)?;
            let complete = plan.and_then(|p| p.planned_requests(s.id as usize)).is_some_and(|planned| planned == e.count as u64);
            Some(if complete {
                (s.end_ns - e.last_end, format!("stage {} ran its {} planned requests, which ended by its run.time.end", s.id, e.count))
            } else {
                (s.end_ns - e.last_send, format!("stage {} (not known to have run all its planned requests) sent its last request by its run.time.end", s.id))
            })
        })
        .min_by_key(|(u, _)| *u)
}
