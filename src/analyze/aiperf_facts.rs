//! AIPerf's run-level facts rechecked against its other files: the error summary against the
//! per-request errors, `is_complete` against the requests AIPerf cancelled in flight (absent
//! from `profile_export.jsonl` and every statistic: only `logs/aiperf.log` counts them), and
//! `phase_manifest.json`'s counts against the records. Fact names are those the importer
//! (`crate::import::aiperf`) records.

use super::audit::FactCheck;

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

fn check(name: &str, status: &'static str, reason: String) -> FactCheck {
    FactCheck { name: name.into(), status, reason }
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
    let detail = f.get("aiperf.error_summary").filter(|d| !d.is_empty()).map_or(String::new(), |d| format!(" ({d})"));
    Some(match f.count("aiperf.jsonl.errors") {
        None => {
            check("aiperf.error_summary", "NOT_CHECKED", format!("the summary counts {claimed} errors{detail}; profile_export.jsonl is needed to count them"))
        }
        Some(n) => check(
            "aiperf.error_summary",
            if n == claimed { "PASS" } else { "FAIL" },
            format!("the summary counts {claimed} errors{detail}; profile_export.jsonl has {n} profiling records with an error"),
        ),
    })
}

/// `is_complete` / `was_cancelled` against the requests cancelled in flight.
fn completeness(f: &Facts<'_>) -> Option<FactCheck> {
    let complete = f.get("aiperf.is_complete")?;
    let name = "aiperf.is_complete";
    let cancelled_records = f.count("aiperf.jsonl.cancelled").unwrap_or(0);
    if f.get("aiperf.was_cancelled") == Some("true") || complete == "false" {
        let why = f.get("aiperf.incomplete_reason").map_or(String::new(), |r| format!(" ({r})"));
        return Some(check(name, "WARN", format!("AIPerf says the run was cancelled and is incomplete{why}: {}", in_flight_evidence(f))));
    }
    let log_cancelled = f.count("aiperf.log.profiling.cancelled");
    Some(match (log_cancelled, cancelled_records) {
        (Some(n), _) if n > 0 => check(
            name,
            "WARN",
            format!(
                "the summary says is_complete: true, but logs/aiperf.log says {}: {n} requests in flight when the phase ended were cancelled and are absent from profile_export.jsonl and from every statistic",
                f.get("aiperf.log.profiling.complete").unwrap_or("cancelled > 0")
            ),
        ),
        (_, n) if n > 0 => check(name, "WARN", format!("the summary says is_complete: true, but {n} profiling records were cancelled (was_cancelled)")),
        (Some(_), _) => check(
            name,
            "PASS",
            format!("is_complete: true, and logs/aiperf.log says {}", f.get("aiperf.log.profiling.complete").unwrap_or("no request was cancelled")),
        ),
        (None, _) => check(name, "NOT_CHECKED", format!("the summary says is_complete: true, which cannot be checked here: {}", unlogged_cut(f))),
    })
}

/// What the log says about the requests a cancelled run left in flight, or that it is needed.
fn in_flight_evidence(f: &Facts<'_>) -> String {
    let records = f.count("aiperf.jsonl.profiling_records").map_or(String::new(), |n| format!("profile_export.jsonl holds {n} profiling records; "));
    match (f.count("aiperf.log.profiling.sending.sent"), f.count("aiperf.log.profiling.sending.completed")) {
        (Some(sent), Some(done)) => format!(
            "{records}logs/aiperf.log says {}: {} requests sent but not completed are absent from every file and statistic",
            f.get("aiperf.log.profiling.sending_complete").unwrap_or("the counts"),
            sent.saturating_sub(done)
        ),
        _ => format!(
            "{records}requests cancelled in flight are absent from every file and statistic, and only logs/aiperf.log counts them: pass it to see how many"
        ),
    }
}

/// Why a complete-looking run may still have lost requests, without the log.
fn unlogged_cut(f: &Facts<'_>) -> String {
    let limit = match (f.get("aiperf.phase.duration_s"), f.get("aiperf.phase.grace_period_s")) {
        (Some(d), Some(g)) => format!("this phase was limited to {d} s with a grace period of {g} s, so requests still in flight at its end are cancelled; "),
        (Some(d), None) => format!("this phase was limited to {d} s; "),
        _ => String::new(),
    };
    format!(
        "{limit}AIPerf leaves requests cancelled in flight out of profile_export.jsonl and of its summary, and only logs/aiperf.log counts them (pass it to check)"
    )
}

/// `phase_manifest.json`'s request counts against the records of each phase.
fn phase_manifest(f: &Facts<'_>) -> Vec<FactCheck> {
    let mut out = Vec::new();
    for (phase, records) in [("warmup", "aiperf.jsonl.warmup_records"), ("profiling", "aiperf.jsonl.profiling_records")] {
        let Some(listed) = f.count(&format!("aiperf.manifest.{phase}.total_request_count")) else { continue };
        let name = format!("aiperf.phase_manifest.{phase}");
        out.push(match f.count(records) {
            None => check(&name, "NOT_CHECKED", format!("phase_manifest.json lists {listed} {phase} requests; profile_export.jsonl is needed to count them")),
            Some(n) => check(
                &name,
                if n == listed { "PASS" } else { "FAIL" },
                format!("phase_manifest.json lists {listed} {phase} requests; profile_export.jsonl has {n} {phase} records"),
            ),
        });
    }
    out
}
