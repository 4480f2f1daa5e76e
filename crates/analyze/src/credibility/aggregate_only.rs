//! The credibility of a run that holds summary statistics only (an audit of a tool that wrote
//! no per-request data): LOW, with the cross-checks between the tool's own files as checks.

use super::{Check, CheckId, CheckStatus, Credibility, GRADE_RULE, Grade};
use crate::audit::Audit;
use credence_messages::{Lang, Message, Sep};

/// LOW by construction: nothing can be recomputed or given an interval.
pub fn aggregate_only(source: &str, audit: &Audit) -> Credibility {
    let mut checks = vec![Check::stated(CheckId::PerRequestData, CheckStatus::Fail, Message::new("capture-summary-only"))];
    checks.extend(audit.facts.iter().map(|f| Check::stated(CheckId::Fact(f.name.clone()), fact_status(f.status), f.reason_message.clone())));
    let facts: Vec<Message> = audit
        .facts
        .iter()
        .map(|f| Message::new("capture-fact").text("name", &f.name).msg("status", Message::new(&format!("tpl-status_{}", f.status))).msg("reason", f.reason_message.clone()))
        .collect();
    let statement_message = Message::new("capture-aggregate-statement")
        .text("source", source)
        .int("checked", audit.reproduced + audit.differing)
        .int("claims", audit.claims.len())
        .list("facts", facts, Sep::Sentence);
    Credibility {
        grade: Grade::Low,
        grade_rule: GRADE_RULE,
        runs: 0,
        checks,
        half_widths: Vec::new(),
        statement: statement_message.render(Lang::En),
        statement_message,
    }
}

pub(super) fn fact_status(status: &str) -> CheckStatus {
    match status {
        "PASS" => CheckStatus::Pass,
        "WARN" => CheckStatus::Warn,
        "FAIL" => CheckStatus::Fail,
        _ => CheckStatus::NotChecked,
    }
}
