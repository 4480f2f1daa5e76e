//! The credibility of a run that holds summary statistics only (an audit of a tool that wrote
//! no per-request data): LOW, with the cross-checks between the tool's own files as checks.

use super::{Check, CheckStatus, Credibility, GRADE_RULE, Grade};
use crate::audit::Audit;

/// LOW by construction: nothing can be recomputed or given an interval.
pub fn aggregate_only(source: &str, audit: &Audit) -> Credibility {
    let mut checks = vec![Check::plain(
        "per_request_data",
        CheckStatus::Fail,
        "the files hold summary statistics only: no percentile, interval or steady state can be recomputed",
    )];
    checks.extend(audit.facts.iter().map(|f| Check::plain(&f.name, fact_status(f.status), f.reason.clone())));
    let facts: Vec<String> = audit.facts.iter().map(|f| format!("{}: {} ({}).", f.name, f.status, f.reason)).collect();
    let statement = format!(
        "Credibility LOW. {source} holds no per-request data, so none of its numbers can be recomputed or given an interval; {} of its {} claims could be cross-checked between the tool's own files. {}",
        audit.reproduced + audit.differing,
        audit.claims.len(),
        facts.join(" ")
    );
    Credibility { grade: Grade::Low, grade_rule: GRADE_RULE, runs: 0, checks, half_widths: Vec::new(), statement, statement_message: Default::default() }
}

pub(super) fn fact_status(status: &str) -> CheckStatus {
    match status {
        "PASS" => CheckStatus::Pass,
        "WARN" => CheckStatus::Warn,
        "FAIL" => CheckStatus::Fail,
        _ => CheckStatus::NotChecked,
    }
}
