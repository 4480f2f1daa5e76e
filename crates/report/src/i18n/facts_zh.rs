//! The run-level facts' reasons in Chinese, worded from `analyze::fact_reason::FactReason`
//! (the same data the English `reason` comes from). What a tool wrote (AIPerf's
//! `incomplete_reason`, a log line's counts, MLPerf's validity words) stays verbatim.

use credence_analyze::fact_reason::{FactReason, InFlight, MLPERF_TRUNCATED, PhaseLimit};

/// The reason of a fact check in Chinese.
pub fn fact_reason(why: &FactReason) -> String {
    match why {
        FactReason::MlperfConditionsUnrecorded { validity } => format!("日志给出 {validity}，但没有记录任何判定条件"),
        FactReason::MlperfValidity { validity, expected, failed } => {
            let failed = if failed.is_empty() { String::new() } else { format!("（未满足：{}）", failed.join("、")) };
            format!("日志给出 {validity}；按其判定条件应为 {expected}{failed}")
        }
        FactReason::MlperfMinQueries { queries, min } => format!("完成 {queries} 个查询，最低要求 {min} 个"),
        FactReason::MlperfIncomplete(why) if why == MLPERF_TRUNCATED => "日志在任何 result_* 键之前结束：运行没有完成，或日志被截断".into(),
        FactReason::MlperfIncomplete(why) => why.clone(),
        FactReason::MlperfSummaryMatchesDetail { summary, detail } => format!("汇总文件给出 {summary}，明细日志给出 {detail}"),
        FactReason::LlmperfErrorRate { rate } => format!("该工具自身的错误率为 {:.1} %；其百分位数只涵盖成功的请求", rate * 100.0),
        FactReason::AiperfErrors { claimed, detail, records } => aiperf_errors(*claimed, detail.as_deref(), *records),
        FactReason::AiperfCancelled { reason, in_flight: f } => {
            let why = reason.as_ref().map_or(String::new(), |r| format!("（{r}）"));
            format!("AIPerf 称本次运行已取消、不完整{why}：{}", in_flight(f))
        }
        FactReason::AiperfCutPerLog { log_line, cancelled } => format!(
            "汇总文件称 is_complete: true，但 logs/aiperf.log 记录 {}：阶段结束时仍在处理的 {cancelled} 个请求被取消，profile_export.jsonl 和所有统计量中都没有它们",
            log_line.as_deref().unwrap_or("cancelled > 0")
        ),
        FactReason::AiperfCancelledRecords { records } => format!("汇总文件称 is_complete: true，但有 {records} 条测量阶段记录被取消（was_cancelled）"),
        FactReason::AiperfCompleteLogged { log_line: Some(line) } => format!("is_complete: true，logs/aiperf.log 记录 {line}"),
        FactReason::AiperfCompleteLogged { log_line: None } => "is_complete: true，logs/aiperf.log 表明没有请求被取消".into(),
        FactReason::AiperfCompleteUnchecked { limit } => format!("汇总文件称 is_complete: true，此处无法核对：{}", unlogged_cut(limit.as_ref())),
        FactReason::AiperfPhaseManifest { phase, listed, records } => {
            let phase = phase_word(phase);
            match records {
                None => format!("phase_manifest.json 列出 {listed} 个{phase}请求；需要 profile_export.jsonl 才能清点"),
                Some(n) => format!("phase_manifest.json 列出 {listed} 个{phase}请求；profile_export.jsonl 中有 {n} 条{phase}记录"),
            }
        }
    }
}

fn aiperf_errors(claimed: u64, detail: Option<&str>, records: Option<u64>) -> String {
    let detail = detail.map_or(String::new(), |d| format!("（{d}）"));
    match records {
        None => format!("汇总文件统计了 {claimed} 个错误{detail}；需要 profile_export.jsonl 才能清点"),
        Some(n) => format!("汇总文件统计了 {claimed} 个错误{detail}；profile_export.jsonl 中有 {n} 条带错误的测量阶段记录"),
    }
}

fn phase_word(phase: &str) -> &str {
    match phase {
        "warmup" => "预热阶段",
        "profiling" => "测量阶段",
        other => other,
    }
}

fn in_flight(f: &InFlight) -> String {
    let records = f.records.map_or(String::new(), |n| format!("profile_export.jsonl 中有 {n} 条测量阶段记录；"));
    match &f.log {
        Some((counts, lost)) => format!("{records}logs/aiperf.log 记录 {counts}：已发送但未完成的 {lost} 个请求不在任何文件和统计量中"),
        None => format!("{records}运行中被取消的请求不在任何文件和统计量中，只有 logs/aiperf.log 记录其数量：提供该文件即可查看"),
    }
}

fn unlogged_cut(limit: Option<&PhaseLimit>) -> String {
    let limit = match limit {
        Some(PhaseLimit { duration_s: d, grace_period_s: Some(g) }) => {
            format!("本阶段限时 {d} s，宽限期 {g} s，结束时仍在处理的请求会被取消；")
        }
        Some(PhaseLimit { duration_s: d, grace_period_s: None }) => format!("本阶段限时 {d} s；"),
        None => String::new(),
    };
    format!("{limit}AIPerf 不把运行中被取消的请求写入 profile_export.jsonl 和汇总文件，只有 logs/aiperf.log 记录其数量（提供该文件即可核对）")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_importers_truncation_sentence_is_worded_and_a_logs_own_stays() {
        assert!(fact_reason(&FactReason::MlperfIncomplete(MLPERF_TRUNCATED.into())).starts_with("日志在任何 result_* 键之前结束"));
        assert_eq!(fact_reason(&FactReason::MlperfIncomplete("tool text".into())), "tool text");
    }
}
