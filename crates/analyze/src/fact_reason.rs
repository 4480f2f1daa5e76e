//! Why a run-level fact check came out as it did, as data: `message` states it once, and every
//! language renders it from its catalog (`locales/*/facts.ftl`), so no renderer parses English. Strings a tool or its log wrote (AIPerf's `incomplete_reason`,
//! a log line's counts) are carried verbatim.

/// The sentence credence's MLPerf importer records when a detail log has no `result_*` key
/// (defined with the run's facts, where the importer can reach it).
pub use credence_run::claims::MLPERF_TRUNCATED;

use credence_messages::{Lang, Message, Sep};

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
        self.message().render(Lang::En)
    }

    /// The reason as a message (`locales/*/facts.ftl`).
    pub fn message(&self) -> Message {
        let num = |x: f64| x.to_string();
        match self {
            FactReason::MlperfConditionsUnrecorded { validity } => Message::new("fact-mlperf-conditions-unrecorded").text("validity", validity),
            FactReason::MlperfValidity { validity, expected, failed } => {
                let failed = if failed.is_empty() { Message::new("empty") } else { Message::new("fact-mlperf-failed").list("items", as_written(failed), Sep::Enumeration) };
                Message::new("fact-mlperf-validity").text("validity", validity).text("expected", expected).msg("failed", failed)
            }
            FactReason::MlperfMinQueries { queries, min } => Message::new("fact-mlperf-min-queries").text("queries", num(*queries)).text("min", num(*min)),
            FactReason::MlperfIncomplete(why) if why == MLPERF_TRUNCATED => Message::new("fact-mlperf-truncated"),
            FactReason::MlperfIncomplete(why) => written(why),
            FactReason::MlperfSummaryMatchesDetail { summary, detail } => Message::new("fact-mlperf-summary-matches").text("summary", summary).text("detail", detail),
            FactReason::LlmperfErrorRate { rate } => Message::new("fact-llmperf-error-rate").num("rate", rate * 100.0, 1),
            FactReason::AiperfErrors { claimed, detail, records } => {
                let m = match records {
                    None => Message::new("fact-aiperf-errors-uncounted"),
                    Some(n) => Message::new("fact-aiperf-errors-counted").int("records", *n),
                };
                m.int("claimed", *claimed).msg("detail", detail_of(detail.as_deref()))
            }
            FactReason::AiperfCancelled { reason, in_flight } => {
                let records = in_flight.records.map_or(Message::new("empty"), |n| Message::new("fact-records-held").int("n", n));
                let lost = match &in_flight.log {
                    Some((counts, lost)) => Message::new("fact-in-flight-logged").msg("counts", log_line(counts)).int("lost", *lost),
                    None => Message::new("fact-in-flight-unlogged"),
                };
                Message::new("fact-aiperf-cancelled").msg("why", detail_of(reason.as_deref())).msg("records", records).msg("in_flight", lost)
            }
            FactReason::AiperfCutPerLog { log_line, cancelled } => {
                Message::new("fact-aiperf-cut-per-log").msg("line", log_line.as_deref().map_or_else(|| written("cancelled > 0"), self::log_line)).int("cancelled", *cancelled)
            }
            FactReason::AiperfCancelledRecords { records } => Message::new("fact-aiperf-cancelled-records").int("records", *records),
            FactReason::AiperfCompleteLogged { log_line: Some(line) } => Message::new("fact-aiperf-complete-logged").msg("line", log_line(line)),
            FactReason::AiperfCompleteLogged { log_line: None } => Message::new("fact-aiperf-complete-clean"),
            FactReason::AiperfCompleteUnchecked { limit } => {
                let limit = match limit {
                    Some(PhaseLimit { duration_s, grace_period_s: Some(g) }) => Message::new("fact-phase-limit-grace").text("duration", duration_s).text("grace", g),
                    Some(PhaseLimit { duration_s, grace_period_s: None }) => Message::new("fact-phase-limit").text("duration", duration_s),
                    None => Message::new("empty"),
                };
                Message::new("fact-aiperf-complete-unchecked").msg("limit", limit)
            }
            FactReason::AiperfPhaseManifest { phase, listed, records } => {
                let m = match records {
                    None => Message::new("fact-phase-manifest-uncounted"),
                    Some(n) => Message::new("fact-phase-manifest-counted").int("records", *n),
                };
                m.int("listed", *listed).msg("phase", Message::new("fact-phase").text("phase", phase))
            }
        }
    }
}

/// A tool's own words in parentheses, or nothing.
fn detail_of(text: Option<&str>) -> Message {
    text.map_or(Message::new("empty"), |t| Message::new("fact-detail").text("text", t))
}

fn as_written(items: &[String]) -> Vec<Message> {
    items.iter().map(|t| written(t)).collect()
}

fn written(text: &str) -> Message {
    Message::new("as-written").text("text", text)
}

/// A line the importer quoted from a log (`line 73: completed=27, cancelled=4`): its number in
/// the reader's words, the log's own text as written.
fn log_line(quoted: &str) -> Message {
    match quoted.strip_prefix("line ").and_then(|rest| rest.split_once(": ")) {
        Some((n, text)) if n.chars().all(|c| c.is_ascii_digit()) => Message::new("fact-log-line").text("line", n).text("text", text),
        _ => written(quoted),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_importers_truncation_sentence_is_worded_and_a_logs_own_stays() {
        let truncated = FactReason::MlperfIncomplete(MLPERF_TRUNCATED.into());
        assert_eq!(truncated.english(), MLPERF_TRUNCATED);
        assert!(truncated.message().render(Lang::Zh).starts_with("日志在任何 result_* 键之前结束"));
        assert_eq!(FactReason::MlperfIncomplete("tool text".into()).message().render(Lang::Zh), "tool text");
    }

    #[test]
    fn optional_parts_are_left_out_in_both_languages() {
        let errors = FactReason::AiperfErrors { claimed: 3, detail: None, records: Some(2) };
        assert_eq!(errors.english(), "the summary counts 3 errors; profile_export.jsonl has 2 profiling records with an error");
        let cancelled = FactReason::AiperfCancelled { reason: Some("timeout".into()), in_flight: InFlight { records: Some(40), log: Some(("sent 50, completed 40".into(), 10)) } };
        assert_eq!(
            cancelled.english(),
            "AIPerf says the run was cancelled and is incomplete (timeout): profile_export.jsonl holds 40 profiling records; logs/aiperf.log says sent 50, completed 40: 10 requests sent but not completed are absent from every file and statistic"
        );
        assert_eq!(
            cancelled.message().render(Lang::Zh),
            "AIPerf 称本次运行已取消、不完整（timeout）：profile_export.jsonl 中有 40 条测量阶段记录；据 logs/aiperf.log（sent 50, completed 40），已发送但未完成的 10 个请求不在任何文件和统计量中"
        );
        let manifest = FactReason::AiperfPhaseManifest { phase: "warmup".into(), listed: 5, records: None };
        assert_eq!(manifest.message().render(Lang::Zh), "phase_manifest.json 列出 5 个预热阶段请求；需要 profile_export.jsonl 才能清点");
    }
}
