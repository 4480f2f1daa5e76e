//! AIPerf's run-level facts rechecked against its other files: the error summary against the
//! per-request errors, `is_complete` against the requests AIPerf cancelled in flight (absent
//! from `profile_export.jsonl` and every statistic: only `logs/aiperf.log` counts them), and
//! `phase_manifest.json`'s counts against the records. Fact names are those the importer
//! (`credence_import::aiperf`) records.

use super::audit::FactCheck;
use super::fact_reason::{FactReason, InFlight, PhaseLimit};

/// The facts named `aiperf.…`, looked up by name.
struct Facts<'a>(&'a [(String, String)]);

impl<'a> Facts<'a> {
    fn get(&self, k: &str) -> Option<&'a str> {
        self.0.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
    }

    fn count(&self, k: &str) -> Option<u64> {
        self.get(k).and_then(|x| x.parse().ok())
    }
}

fn check(name: &str, status: &'static str, why: FactReason) -> FactCheck {
    FactCheck::new(name, status, why)
}

/// Every AIPerf fact check the given files allow (none when no AIPerf file is among them).
pub fn checks(facts: &[(String, String)]) -> Vec<FactCheck> {
    let f = Facts(facts);
    let mut out = Vec::new();
    out.extend(error_summary(&f));
    out.extend(completeness(&f));
    out.extend(phase_manifest(&f));
    out
}

/// The summary's `error_summary` total against the profiling records that carry an error.
fn error_summary(f: &Facts<'_>) -> Option<FactCheck> {
    let claimed = f.count("aiperf.error_summary.total")?;
    let detail = f.get("aiperf.error_summary").filter(|d| !d.is_empty()).map(String::from);
    let records = f.count("aiperf.jsonl.errors");
    let status = match records {
        None => "NOT_CHECKED",
        Some(n) if n == claimed => "PASS",
        Some(_) => "FAIL",
    };
    Some(check("aiperf.error_summary", status, FactReason::AiperfErrors { claimed, detail, records }))
}

/// `is_complete` / `was_cancelled` against the requests cancelled in flight.
fn completeness(f: &Facts<'_>) -> Option<FactCheck> {
    let complete = f.get("aiperf.is_complete")?;
    let name = "aiperf.is_complete";
    let cancelled_records = f.count("aiperf.jsonl.cancelled").unwrap_or(0);
    let log_line = || f.get("aiperf.log.profiling.complete").map(String::from);
    if f.get("aiperf.was_cancelled") == Some("true") || complete == "false" {
        let reason = f.get("aiperf.incomplete_reason").map(String::from);
        return Some(check(name, "WARN", FactReason::AiperfCancelled { reason, in_flight: in_flight(f) }));
    }
    Some(match (f.count("aiperf.log.profiling.cancelled"), cancelled_records) {
        (Some(n), _) if n > 0 => check(name, "WARN", FactReason::AiperfCutPerLog { log_line: log_line(), cancelled: n }),
        (_, n) if n > 0 => check(name, "WARN", FactReason::AiperfCancelledRecords { records: n }),
        (Some(_), _) => check(name, "PASS", FactReason::AiperfCompleteLogged { log_line: log_line() }),
        (None, _) => check(name, "NOT_CHECKED", FactReason::AiperfCompleteUnchecked { limit: phase_limit(f) }),
    })
}

/// What the log says about the requests a cancelled run left in flight, when it was given.
fn in_flight(f: &Facts<'_>) -> InFlight {
    let log = match (f.count("aiperf.log.profiling.sending.sent"), f.count("aiperf.log.profiling.sending.completed")) {
        (Some(sent), Some(done)) => Some((f.get("aiperf.log.profiling.sending_complete").unwrap_or("the counts").to_string(), sent.saturating_sub(done))),
        _ => None,
    };
    InFlight { records: f.count("aiperf.jsonl.profiling_records"), log }
}

/// The phase's duration limit, which cancels the requests still in flight at its end.
fn phase_limit(f: &Facts<'_>) -> Option<PhaseLimit> {
    let duration_s = f.get("aiperf.phase.duration_s")?.to_string();
    Some(PhaseLimit { duration_s, grace_period_s: f.get("aiperf.phase.grace_period_s").map(String::from) })
}

/// `phase_manifest.json`'s request counts against the records of each phase.
fn phase_manifest(f: &Facts<'_>) -> Vec<FactCheck> {
    let mut out = Vec::new();
    for (phase, records) in [("warmup", "aiperf.jsonl.warmup_records"), ("profiling", "aiperf.jsonl.profiling_records")] {
        let Some(listed) = f.count(&format!("aiperf.manifest.{phase}.total_request_count")) else { continue };
        let records = f.count(records);
        let status = match records {
            None => "NOT_CHECKED",
            Some(n) if n == listed => "PASS",
            Some(_) => "FAIL",
        };
        out.push(check(&format!("aiperf.phase_manifest.{phase}"), status, FactReason::AiperfPhaseManifest { phase: phase.into(), listed, records }));
    }
    out
}
