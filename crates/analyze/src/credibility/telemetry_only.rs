//! The credibility of a GPU capture audited without request records: LOW as a benchmark
//! result (no request was recorded), with what the capture does show as named checks, and
//! every check that needs requests marked NOT_CHECKED with its reason.

use super::aggregate_only::fact_status;
use super::{Check, CheckId, CheckStatus, Credibility, GRADE_RULE, Grade, grade};
use credence_messages::{Lang, Message, Sep};
use crate::audit::Audit;
use crate::telemetry_audit::episodes::ThrottleEpisode;
use crate::telemetry_audit::load::LoadState;
use crate::telemetry_audit::stability::{STABLE_CV, STABLE_SHARE_FALLEN};
use crate::telemetry_audit::{TelemetryAudit, short_gpu};

fn check(name: CheckId, status: CheckStatus, message: Message) -> Check {
    Check::stated(name, status, message)
}

/// The checks that need requests (`capture-needs-requests` words why a GPU capture cannot
/// answer each, by the check's id; `sample_size` stands for its P99 TTFT check).
fn needs_requests() -> [CheckId; 9] {
    [
        CheckId::SteadyState,
        CheckId::SampleSize("ttft_p99".into()),
        CheckId::Dependence,
        CheckId::ClientSaturation,
        CheckId::Interference,
        CheckId::ErrorRate,
        CheckId::IntervalWidth,
        CheckId::Attribution,
        CheckId::Replication,
    ]
}

/// LOW by construction: a capture of GPU counters holds no benchmark result.
pub fn telemetry_only(t: &TelemetryAudit, claims: Option<&Audit>) -> Credibility {
    let mut checks = vec![
        check(CheckId::PerRequestData, CheckStatus::Fail, Message::new("capture-telemetry-only")),
        data_quality(t),
        under_load(t),
        throttling(t),
        clock_stability(t),
    ];
    checks.extend(needs_requests().into_iter().map(|id| {
        let key = if matches!(id, CheckId::SampleSize(_)) { "sample_size".to_string() } else { id.id() };
        check(id, CheckStatus::NotChecked, Message::new("capture-needs-requests").text("check", key))
    }));
    checks.push(claims_check(claims));
    if let Some(a) = claims {
        checks.extend(a.facts.iter().map(|f| check(CheckId::Fact(f.name.clone()), fact_status(f.status), f.reason_message.clone())));
    }
    let grade = grade(&checks, 0);
    let statement_message = statement(t, grade);
    Credibility { grade, grade_rule: GRADE_RULE, runs: 0, checks, half_widths: Vec::new(), statement: statement_message.render(Lang::En), statement_message }
}

/// How much telemetry there is, and its gaps.
fn data_quality(t: &TelemetryAudit) -> Check {
    let gaps: usize = t.gpus.iter().map(|g| g.gaps).sum();
    let interval = t.gpus.iter().map(|g| g.interval_s).fold(f64::NAN, f64::max);
    let message =
        Message::new("capture-data").int("samples", t.samples).int("gpus", t.gpus.len()).num("seconds", t.duration_s, 0).num("interval", interval, 3).int("gaps", gaps);
    check(CheckId::GpuTelemetry, if gaps > 0 { CheckStatus::Warn } else { CheckStatus::Pass }, message)
}

/// Which GPUs were busy; idle ones are set aside.
fn under_load(t: &TelemetryAudit) -> Check {
    let loaded: Vec<Message> = t.gpus_in(LoadState::Loaded).map(|g| Message::new("as-written").text("text", short_gpu(&g.gpu))).collect();
    let aside: Vec<Message> = t
        .gpus
        .iter()
        .filter(|g| g.load.state != LoadState::Loaded)
        .map(|g| Message::new("capture-gpu-reason").text("gpu", short_gpu(&g.gpu)).msg("reason", g.load.reason_message.clone()))
        .collect();
    let aside = if aside.is_empty() { Message::new("empty") } else { Message::new("capture-set-aside").list("items", aside, Sep::Semicolon) };
    let status = if loaded.is_empty() || t.gpus_in(LoadState::Unknown).next().is_some() { CheckStatus::Warn } else { CheckStatus::Pass };
    let message = if loaded.is_empty() {
        Message::new("capture-no-gpu-loaded")
    } else {
        Message::new("capture-gpus-loaded").int("loaded", loaded.len()).int("gpus", t.gpus.len()).list("names", loaded, Sep::Enumeration)
    };
    check(CheckId::GpusUnderLoad, status, message.num("threshold", t.load_threshold_pct, 0).msg("aside", aside))
}

/// "GPU 0 thermal slowdown 30–50 s (20 s)".
fn episode_text(e: &ThrottleEpisode) -> Message {
    Message::new("capture-episode")
        .text("gpu", short_gpu(&e.gpu))
        .msg("reason", e.reason.message())
        .num("start", e.start_s, 0)
        .num("end", e.end_s, 0)
        .num("seconds", e.duration_s, 0)
}

/// Throttling under load: DCGM's failure reasons fail; power limits and unexplained clock falls warn.
fn throttling(t: &TelemetryAudit) -> Check {
    if !t.episodes_looked_for() {
        return check(CheckId::Throttling, CheckStatus::NotChecked, Message::new("capture-throttling-none-looked"));
    }
    let basis = Message::new("capture-basis").text("bits", if t.reasons_captured() { "yes" } else { "no" });
    let faults: Vec<Message> = t.episodes.iter().filter(|e| e.fault).map(episode_text).collect();
    let others: Vec<Message> = t.episodes.iter().filter(|e| !e.fault).map(episode_text).collect();
    let (status, message) = if !faults.is_empty() {
        let rest = if others.is_empty() { Message::new("empty") } else { Message::new("capture-throttling-also").list("others", others, Sep::Semicolon) };
        (CheckStatus::Fail, Message::new("capture-throttling-faults").list("faults", faults, Sep::Semicolon).msg("rest", rest))
    } else if !others.is_empty() {
        (CheckStatus::Warn, Message::new("capture-throttling-limits").list("others", others, Sep::Semicolon))
    } else {
        (CheckStatus::Pass, Message::new("capture-throttling-clear"))
    };
    check(CheckId::Throttling, status, message.msg("basis", basis))
}

/// The SM clock's spread under load on every loaded GPU.
fn clock_stability(t: &TelemetryAudit) -> Check {
    let judged: Vec<(Message, bool)> = t
        .gpus_in(LoadState::Loaded)
        .filter_map(|g| {
            let s = g.stability.as_ref()?;
            let stable = s.stable?;
            let text = Message::new("capture-clock-gpu")
                .text("gpu", short_gpu(&g.gpu))
                .num("cv", s.sm_clock_cv? * 100.0, 1)
                .num("fallen", s.share_below_90pct_of_max_observed? * 100.0, 1)
                .num("max", s.sm_clock_max_observed_mhz?, 0);
            Some((text, stable))
        })
        .collect();
    if judged.is_empty() {
        return check(CheckId::ClockStability, CheckStatus::NotChecked, Message::new("capture-clock-none"));
    }
    let status = if judged.iter().all(|j| j.1) { CheckStatus::Pass } else { CheckStatus::Warn };
    let all = judged.into_iter().map(|j| j.0).collect();
    let message =
        Message::new("capture-clock").list("gpus", all, Sep::Semicolon).num("cv", STABLE_CV * 100.0, 0).num("fallen", STABLE_SHARE_FALLEN * 100.0, 0);
    check(CheckId::ClockStability, status, message)
}

/// The tool's claims, when summary files came with the capture.
fn claims_check(claims: Option<&Audit>) -> Check {
    match claims {
        Some(a) if !a.claims.is_empty() => check(
            CheckId::Claims,
            if a.differing > 0 { CheckStatus::Warn } else { CheckStatus::Pass },
            Message::new("capture-claims").int("checked", a.reproduced + a.differing).int("claims", a.claims.len()).int("differ", a.differing),
        ),
        _ => check(CheckId::Claims, CheckStatus::NotChecked, Message::new("capture-claims-none")),
    }
}

/// The plain-language statement: what the capture supports and what it cannot.
fn statement(t: &TelemetryAudit, grade: Grade) -> Message {
    let quantities: Vec<Message> = ["sm_clock", "power", "temperature", "utilization", "clock_event_reasons"]
        .into_iter()
        .filter(|key| t.gpus.iter().any(|g| g.captured.contains(key)))
        .map(|key| Message::new("capture-quantity").text("quantity", key))
        .collect();
    let loaded = t.gpus_in(LoadState::Loaded).count();
    let episodes = if !t.episodes.is_empty() {
        Message::new("capture-episodes-found").list("items", t.episodes.iter().map(episode_text).collect(), Sep::Semicolon)
    } else if loaded == 0 {
        Message::new("capture-episodes-no-load")
    } else if !t.episodes_looked_for() {
        Message::new("capture-episodes-not-looked")
    } else {
        Message::new("capture-episodes-clear")
    };
    Message::new("capture-statement")
        .msg("grade", Message::new("grade").text("grade", grade.label()))
        .text("source", &t.source)
        .int("gpus", t.gpus.len())
        .num("seconds", t.duration_s, 0)
        .list("quantities", quantities, Sep::Enumeration)
        .int("loaded", loaded)
        .num("threshold", t.load_threshold_pct, 0)
        .int("aside", t.gpus.len() - loaded)
        .msg("episodes", episodes)
}
