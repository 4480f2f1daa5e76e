//! Credibility: named checks (PASS, WARN, FAIL, NOT_CHECKED), an overall grade, and a
//! plain-language statement a lead can sign.
//!
//! The checks follow MLPerf's VALID/INVALID idea and the practitioner's pre-run checklist.
//! The grade rule is deliberately simple, so that a reader can recompute it:
//! - **LOW**: any check FAILs (no steady state, a saturated client, too few samples for the
//!   headline percentile, throttling in the measured window, a high error rate, …);
//! - **HIGH**: at least three runs and every check PASSes;
//! - **MEDIUM**: everything else, which includes every single run (run-to-run noise is
//!   unmeasured) and any WARN or NOT_CHECKED.

mod aggregate_only;
pub mod check_id;
pub use check_id::CheckId;
mod checks;
pub(crate) use checks::ERROR_FAIL;
pub mod notes;
pub use checks::ttft_dependence;
mod statement;
pub use statement::check_name;
mod telemetry_only;

use credence_messages::{Lang, Message};
use serde::{Deserialize, Serialize};

use super::Analysis;
pub use aggregate_only::aggregate_only;
pub use telemetry_only::telemetry_only;

/// Outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CheckStatus {
    #[serde(rename = "PASS")]
    Pass,
    #[serde(rename = "NOT_CHECKED")]
    NotChecked,
    #[serde(rename = "WARN")]
    Warn,
    #[serde(rename = "FAIL")]
    Fail,
}

impl CheckStatus {
    pub fn label(self) -> &'static str {
        match self {
            CheckStatus::Pass => "PASS",
            CheckStatus::NotChecked => "NOT_CHECKED",
            CheckStatus::Warn => "WARN",
            CheckStatus::Fail => "FAIL",
        }
    }
}

/// One named check.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Check {
    pub name: CheckId,
    pub status: CheckStatus,
    /// The reason in English, kept for the JSON's readers: `message` rendered by the English
    /// catalog (or, for checks not yet stated as messages, the English text itself).
    pub reason: String,
    /// The reason as data, which every language renders; empty where `reason` is all there is
    /// (an analysis saved before messages, and the audit's own checks).
    #[serde(default, skip_serializing_if = "Message::is_empty")]
    pub message: Message,
}

impl Check {
    /// A check whose reason is a message: the English reason is rendered from it.
    pub fn stated(name: CheckId, status: CheckStatus, message: Message) -> Check {
        Check { name, status, reason: message.render(Lang::En), message }
    }

    /// A check whose reason is English text only.
    pub fn plain(name: CheckId, status: CheckStatus, reason: impl Into<String>) -> Check {
        Check { name, status, reason: reason.into(), message: Message::default() }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Grade {
    #[serde(rename = "HIGH")]
    High,
    #[serde(rename = "MEDIUM")]
    Medium,
    #[serde(rename = "LOW")]
    Low,
}

impl Grade {
    pub fn label(self) -> &'static str {
        match self {
            Grade::High => "HIGH",
            Grade::Medium => "MEDIUM",
            Grade::Low => "LOW",
        }
    }
}

/// The credibility of one run, or of several runs of one configuration.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Credibility {
    pub grade: Grade,
    #[serde(deserialize_with = "crate::saved::leak_str")]
    pub grade_rule: crate::saved::StaticText,
    pub runs: usize,
    pub checks: Vec<Check>,
    /// Relative half-widths of the headline intervals (e.g. 0.021 = ±2.1 %), pooled over runs.
    pub half_widths: Vec<HalfWidth>,
    /// In English, for the JSON's readers: `statement_message` rendered by the English catalog
    /// (or the English text itself where the statement is not yet a message).
    pub statement: String,
    /// The statement as data, which every language renders; empty where `statement` is all.
    #[serde(default, skip_serializing_if = "Message::is_empty")]
    pub statement_message: Message,
}

/// A headline interval's relative half-width.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HalfWidth {
    /// `throughput`, `ttft_p50`, `ttft_p99`, `tpot_p50`.
    pub metric: String,
    pub label: String,
    /// None when the interval is not two-sided (too few samples).
    pub relative: Option<f64>,
}

pub const GRADE_RULE: &str =
    "LOW if any check fails; HIGH if there are at least three runs and every check passes; MEDIUM otherwise (a single run is at most MEDIUM)";

/// The grade the checks imply, by `GRADE_RULE`.
pub fn grade(checks: &[Check], runs: usize) -> Grade {
    if checks.iter().any(|c| c.status == CheckStatus::Fail) {
        Grade::Low
    } else if runs >= 3 && checks.iter().all(|c| c.status == CheckStatus::Pass) {
        Grade::High
    } else {
        Grade::Medium
    }
}

impl Credibility {
    /// An empty value, replaced once the rest of the `Analysis` exists (the checks read it).
    pub fn placeholder() -> Credibility {
        Credibility {
            grade: Grade::Medium,
            grade_rule: GRADE_RULE,
            runs: 0,
            checks: Vec::new(),
            half_widths: Vec::new(),
            statement: String::new(),
            statement_message: Message::default(),
        }
    }
}

/// Credibility of one or more runs of the same configuration.
pub fn assess(runs: &[&Analysis]) -> Credibility {
    let half_widths = checks::half_widths(runs);
    let checks = checks::checks(runs, &half_widths);
    let grade = grade(&checks, runs.len());
    let statement_message = statement::statement(runs, &checks, &half_widths, grade);
    let statement = statement_message.render(Lang::En);
    Credibility { grade, grade_rule: GRADE_RULE, runs: runs.len(), checks, half_widths, statement, statement_message }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(status: CheckStatus) -> Check {
        Check::plain(CheckId::Fact("x".into()), status, "")
    }

    #[test]
    fn the_grade_rule() {
        assert_eq!(grade(&[c(CheckStatus::Pass)], 3), Grade::High);
        assert_eq!(grade(&[c(CheckStatus::Pass)], 1), Grade::Medium);
        assert_eq!(grade(&[c(CheckStatus::Pass), c(CheckStatus::NotChecked)], 3), Grade::Medium);
        assert_eq!(grade(&[c(CheckStatus::Warn), c(CheckStatus::Fail)], 5), Grade::Low);
    }
}
