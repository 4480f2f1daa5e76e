//! Why a run-level fact check came out as it did, as data: `english` words it for the JSON
//! and the English report, and the report's Chinese words it from the same variants (so no
//! renderer parses English). Strings a tool or its log wrote (AIPerf's `incomplete_reason`,
//! a log line's counts) are carried verbatim.

/// The sentence credence's MLPerf importer records when a detail log has no `result_*` key
/// (defined with the run's facts, where the importer can reach it).
pub use credence_run::claims::MLPERF_TRUNCATED;

/// What `logs/aiperf.log` says about the requests a cancelled run left in flight.
#[derive(Debug, Clone, PartialEq)]
pub struct InFlight {
    /// The profiling records in profile_export.jsonl, when it was given.
    pub records: Option<u64>,
    /// The log's `sending complete` counts (or `the counts`) and the requests sent but not
    /// completed, when the log was given.
    pub log: Option<(String, u64)>,
}

/// The phase's duration limit and grace period (seconds, as AIPerf wrote them).
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseLimit {
    pub duration_s: String,
    pub grace_period_s: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FactReason {
    /// The MLPerf log states a validity but none of the conditions behind it.
    MlperfConditionsUnrecorded {
        validity: String,
    },
    /// The validity the log states against the one its conditions give.
    MlperfValidity {
        validity: String,
        expected: String,
        failed: Vec<String>,
    },
    MlperfMinQueries {
        queries: f64,
        min: f64,
    },
    /// The log is incomplete: the importer's sentence (`MLPERF_TRUNCATED`) or the log's own.
    MlperfIncomplete(String),
    MlperfSummaryMatchesDetail {
        summary: String,
        detail: String,
    },
    LlmperfErrorRate {
        rate: f64,
    },
    /// AIPerf's error total against the profiling records with an error (None: no jsonl).
    AiperfErrors {
        claimed: u64,
        detail: Option<String>,
        records: Option<u64>,
    },
    /// AIPerf says cancelled or incomplete; `reason` is its own `incomplete_reason`.
    AiperfCancelled {
        reason: Option<String>,
        in_flight: InFlight,
    },
    /// The summary says complete, but the log counts requests cancelled in flight.
    AiperfCutPerLog {
        log_line: Option<String>,
        cancelled: u64,
    },
    /// The summary says complete, but profiling records were cancelled.
    AiperfCancelledRecords {
        records: u64,
    },
    /// Complete, and the log confirms it.
    AiperfCompleteLogged {
        log_line: Option<String>,
    },
    /// Complete per the summary, which nothing here can confirm.
    AiperfCompleteUnchecked {
        limit: Option<PhaseLimit>,
    },
    /// `phase_manifest.json`'s request count of a phase against its records (None: no jsonl).
    AiperfPhaseManifest {
        phase: String,
        listed: u64,
        records: Option<u64>,
    },
}

impl FactReason {
    pub fn english(&self) -> String {
        match self {
            FactReason::MlperfConditionsUnrecorded { validity } => format!("the log says {validity} but records none of the conditions"),
            FactReason::MlperfValidity { validity, expected, failed } => format!(
                "the log says {validity}; its conditions give {expected}{}",
                if failed.is_empty() { String::new() } else { format!(" (failed: {})", failed.join(", ")) }
            ),
            FactReason::MlperfMinQueries { queries, min } => format!("{queries} queries against a minimum of {min}"),
            FactReason::MlperfIncomplete(why) => why.clone(),
            FactReason::MlperfSummaryMatchesDetail { summary, detail } => format!("summary says {summary}, detail says {detail}"),
            FactReason::LlmperfErrorRate { rate } => {
                format!("the tool's own error rate is {:.1} %; its percentiles cover only the successful requests", rate * 100.0)
            }
            FactReason::AiperfErrors { claimed, detail, records } => {
                let detail = detail.as_ref().map_or(String::new(), |d| format!(" ({d})"));
                match records {
                    None => format!("the summary counts {claimed} errors{detail}; profile_export.jsonl is needed to count them"),
                    Some(n) => format!("the summary counts {claimed} errors{detail}; profile_export.jsonl has {n} profiling records with an error"),
                }
            }
            FactReason::AiperfCancelled { reason, in_flight } => {
                let why = reason.as_ref().map_or(String::new(), |r| format!(" ({r})"));
                format!("AIPerf says the run was cancelled and is incomplete{why}: {}", in_flight_english(in_flight))
            }
            FactReason::AiperfCutPerLog { log_line, cancelled } => format!(
                "the summary says is_complete: true, but logs/aiperf.log says {}: {cancelled} requests in flight when the phase ended were cancelled and are absent from profile_export.jsonl and from every statistic",
                log_line.as_deref().unwrap_or("cancelled > 0")
            ),
            FactReason::AiperfCancelledRecords { records } => {
                format!("the summary says is_complete: true, but {records} profiling records were cancelled (was_cancelled)")
            }
            FactReason::AiperfCompleteLogged { log_line } => {
                format!("is_complete: true, and logs/aiperf.log says {}", log_line.as_deref().unwrap_or("no request was cancelled"))
            }
            FactReason::AiperfCompleteUnchecked { limit } => {
                format!("the summary says is_complete: true, which cannot be checked here: {}", unlogged_cut_english(limit.as_ref()))
            }
            FactReason::AiperfPhaseManifest { phase, listed, records } => match records {
                None => format!("phase_manifest.json lists {listed} {phase} requests; profile_export.jsonl is needed to count them"),
                Some(n) => format!("phase_manifest.json lists {listed} {phase} requests; profile_export.jsonl has {n} {phase} records"),
            },
        }
    }
}

fn in_flight_english(f: &InFlight) -> String {
    let records = f.records.map_or(String::new(), |n| format!("profile_export.jsonl holds {n} profiling records; "));
    match &f.log {
        Some((counts, lost)) => {
            format!("{records}logs/aiperf.log says {counts}: {lost} requests sent but not completed are absent from every file and statistic")
        }
        None => format!(
            "{records}requests cancelled in flight are absent from every file and statistic, and only logs/aiperf.log counts them: pass it to see how many"
        ),
    }
}

fn unlogged_cut_english(limit: Option<&PhaseLimit>) -> String {
    let limit = match limit {
        Some(PhaseLimit { duration_s: d, grace_period_s: Some(g) }) => {
            format!("this phase was limited to {d} s with a grace period of {g} s, so requests still in flight at its end are cancelled; ")
        }
        Some(PhaseLimit { duration_s: d, grace_period_s: None }) => format!("this phase was limited to {d} s; "),
        None => String::new(),
    };
    format!(
        "{limit}AIPerf leaves requests cancelled in flight out of profile_export.jsonl and of its summary, and only logs/aiperf.log counts them (pass it to check)"
    )
}
