//! Claims of guidellm's `scheduler_metrics`: the requests the scheduler made of each status,
//! its average delays between the stages of a request (`*_avg`, running means over every
//! request the benchmark accumulated: all the listed ones), and the request generator's delays.

use std::path::Path;

use serde_json::Value;

use super::claims::{Target, summary_claims, summary_number};
use super::record::{Group, Record, Timings};
use crate::{ImportError, Imported};
use credence_run::claims::{Claim, Definition};
use credence_messages::Message;

/// A value taken from one request's timings, None where a timing is missing.
type TimingOf = fn(&Timings) -> Option<f64>;

/// The averages guidellm writes, and how each request's value is taken from its timings
/// (`SchedulerMetricsAccumulator.update_estimate`); None where a timing is missing.
const AVERAGES: [(&str, TimingOf); 9] = [
    ("queued_time_avg", |t| Some(t.dequeued? - t.queued?)),
    ("resolve_start_delay_avg", |t| Some(t.resolve_start? - t.scheduled_at?)),
    ("resolve_targeted_start_delay_avg", |t| Some(t.resolve_start? - t.targeted_start?)),
    ("request_start_delay_avg", |t| Some(t.request_start? - t.resolve_start?)),
    ("request_targeted_start_delay_avg", |t| Some(t.request_start? - t.targeted_start?)),
    ("request_time_avg", |t| Some(t.request_end? - t.request_start?)),
    ("resolve_end_delay_avg", |t| Some(t.resolve_end? - t.request_end?)),
    ("resolve_time_avg", |t| Some(t.resolve_end? - t.resolve_start?)),
    ("finalized_delay_avg", |t| Some(t.finalized? - t.resolve_end?)),
];

/// Claims of `scheduler_metrics`, with the raw values of those that can be recomputed.
pub fn scheduler_claims(path: &Path, b: &Value, records: &[Record], out: &mut Imported) -> Result<(), ImportError> {
    let Some(sm) = b.get("scheduler_metrics").filter(|s| s.is_object()) else { return Ok(()) };
    requests_made(path, sm, records, out)?;
    let mut no_samples = Vec::new();
    for (name, of) in AVERAGES {
        let Some(v) = sm.get(name) else { continue };
        let key = format!("scheduler_metrics.{name}");
        let value = summary_number(path, v, &key)?;
        // guidellm writes `mean or -1.0`: -1 marks an average over no requests.
        if value == -1.0 {
            no_samples.push(name);
            continue;
        }
        let metric = format!("scheduler.{}", name.trim_end_matches("_avg"));
        out.raw.insert(metric.clone(), records.iter().filter_map(|r| of(&r.timings)).map(|s| s * 1000.0).collect());
        out.claims.push(Claim { key, metric, stat: "mean".into(), value: value * 1000.0, unit: "ms".into(), definition: None });
    }
    if !no_samples.is_empty() {
        out.conversion.push(format!("guidellm wrote -1 (no requests had the timings) for scheduler_metrics {}: not claims", no_samples.join(", ")));
    }
    if let Some(v) = sm.get("processed_delay_avg") {
        let value = summary_number(path, v, "scheduler_metrics.processed_delay_avg")?;
        let definition = Some(Definition::id("def-guidellm-wall-clock"));
        out.claims.push(Claim {
            key: "scheduler_metrics.processed_delay_avg".into(),
            metric: "scheduler.processed_delay".into(),
            stat: "mean".into(),
            value: value * 1000.0,
            unit: "ms".into(),
            definition,
        });
    }
    let generation = Target {
        key: "scheduler_metrics.generation_delay".into(),
        metric: "scheduler.generation_delay".into(),
        unit: "ms",
        scale: 1000.0,
        definition: Some("def-guidellm-generation-delays"),
        rate: false,
    };
    summary_claims(path, sm.get("generation_delay").unwrap_or(&Value::Null), &generation, 0.95, out)
}

/// `requests_made`: the scheduler's counts of successful and errored requests are the listed
/// ones; its incomplete count (and so its total) also holds requests cancelled before they
/// started, which guidellm does not list.
fn requests_made(path: &Path, sm: &Value, records: &[Record], out: &mut Imported) -> Result<(), ImportError> {
    let Some(made) = sm.get("requests_made").filter(|m| !m.is_null()) else { return Ok(()) };
    for status in ["successful", "errored", "incomplete", "total"] {
        let Some(v) = made.get(status) else { continue };
        let key = format!("scheduler_metrics.requests_made.{status}");
        let value = summary_number(path, v, &key)?;
        let metric = format!("requests_listed.{status}");
        let group = Group::ALL.into_iter().find(|g| g.key() == status && *g != Group::Incomplete);
        let definition = match group {
            Some(g) => {
                // One value (the send time) per listed record of the status: the count is theirs.
                out.raw.insert(metric.clone(), records.iter().filter(|r| r.group == g).filter_map(Record::start_time).collect());
                Definition(Message::new("def-guidellm-listed").text("status", status))
            }
            None => Definition::id("def-guidellm-cancelled"),
        };
        out.claims.push(Claim { key, metric, stat: "count".into(), value, unit: "requests".into(), definition: Some(definition) });
    }
    Ok(())
}
