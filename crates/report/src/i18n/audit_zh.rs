//! The audit of a source's claims in Chinese: the summary, each claim's verdict, credence's
//! value and the reason, rebuilt from the audit's fields; the run-level facts' reasons from
//! their structured reasons, and a tool's definition of a number from `definitions_zh`.

use std::collections::HashMap;

use super::definitions_zh::definition_or_english;
use credence_analyze::Analysis;
use credence_analyze::audit::{Audit, ClaimCheck, CredenceNote, Why, credence_note, reasons};
use crate::view::{AuditView, claim_label};
use credence_run::text::significant;

/// Rewrites the audit view's summary and claim rows in Chinese.
pub fn localize_audit(v: &mut AuditView, audit: &Audit, analysis: Option<&Analysis>) {
    v.summary = summary(audit, v.claims.len());
    let by_label: HashMap<String, &ClaimCheck> = audit.claims.iter().map(|c| (claim_label(c), c)).collect();
    for row in &mut v.claims {
        let Some(c) = by_label.get(&row[0]) else { continue };
        row[2] = c.recomputed.map_or("无".into(), |x| format!("{}（{}）", significant(x, 4), source_word(c.recomputed_from)));
        row[3] = verdict_word(c.verdict).to_string();
        row[4] = credence_cell(c, analysis);
        row[5] = reason(c, analysis);
    }
    for (row, f) in v.facts.iter_mut().zip(&audit.facts) {
        row[2] = f.reason_message.render(super::Lang::Zh);
    }
}

fn summary(a: &Audit, shown: usize) -> String {
    let from = |source: &str| a.claims.iter().filter(|c| c.verdict == "reproduced" && c.recomputed_from == Some(source)).count();
    let mut s = format!(
        "来自 {} 的 {} 项结论：{} 项已复现（{} 项由该工具的逐请求原始数据重算，{} 项仅与其汇总文件交叉核对），{} 项不一致，{} 项无法核对。",
        a.source,
        a.claims.len(),
        a.reproduced,
        from("raw"),
        from("summary"),
        a.differing,
        a.claims.len() - a.reproduced - a.differing
    );
    if shown < a.claims.len() {
        s += &format!("表中列出其中 {shown} 项：先列全部不一致的结论，再列主要的延迟和速率；JSON 报告列出全部 {} 项。", a.claims.len());
    }
    s
}

fn source_word(from: Option<&str>) -> &'static str {
    match from {
        Some("summary") => "汇总文件",
        _ => "原始数据",
    }
}

fn verdict_word(verdict: &str) -> &'static str {
    match verdict {
        "reproduced" => "已复现",
        "differs" => "不一致",
        _ => "无法重算",
    }
}

fn credence_cell(c: &ClaimCheck, analysis: Option<&Analysis>) -> String {
    let f = |x: f64| significant(x, 4);
    let cell = match (c.credence, c.credence_ci, &c.credence_note) {
        (Some(v), Some((lo, hi)), _) => format!("{} [{}, {}]", f(v), f(lo), f(hi)),
        (Some(v), None, _) => format!("~{}（无置信区间）", f(v)),
        (None, _, Some(_)) => format!("无：{}", note(c, analysis)),
        _ => "无".into(),
    };
    match (c.credence, c.credence_metric, &c.credence_note) {
        (Some(_), Some(_), Some(_)) => format!("{cell}；{}", note(c, analysis)),
        _ => cell,
    }
}

/// credence's note on its value, in the cases `analyze::audit::credence_note` distinguishes.
fn note(c: &ClaimCheck, analysis: Option<&Analysis>) -> String {
    let stat = match c.stat.as_str() {
        "min" => "最小值",
        "max" => "最大值",
        _ => "标准差",
    };
    match analysis.and_then(|a| credence_note(a, &c.metric, &c.stat, c.credence.is_some())) {
        Some(CredenceNote::Descriptive) => format!("稳态窗口的{stat}（描述性统计：credence 不为其给出置信区间）"),
        Some(CredenceNote::EstimatedAs(m)) => format!("credence 的 {m}：{}", metric_words_zh(m)),
        Some(CredenceNote::NoChunkTimes(source)) => {
            format!("{source} 不保存数据块时间：无法计算逐 token 的 ITL；它的 ITL 是逐请求的平均间隔，与 credence 的 TPOT 对比")
        }
        Some(CredenceNote::NoSchedule) => "文件中没有计划发送时间：credence 无法计算发送延迟和从计划时间起算的延迟".into(),
        Some(CredenceNote::SuccessfulOnly) => format!("credence 只估计成功请求的 {}", c.metric.split('.').next().unwrap_or(&c.metric)),
        Some(CredenceNote::NotEstimated) => format!("credence 不估计 {}", c.metric),
        Some(CredenceNote::WindowDependent) => "计数或总量取决于窗口：credence 报告速率和百分位数".into(),
        Some(CredenceNote::OneRate) => format!("credence 把 {} 估计为稳态窗口内的单一速率（带置信区间）：它没有瞬时速率的分布", c.metric),
        Some(CredenceNote::NotDescribed) => format!("credence 不给出 {} 的最小值、最大值或标准差：它只描述 TTFT、TPOT 和 E2E 的分布", c.metric),
        Some(CredenceNote::StatNotComputed) => format!("credence 不计算这一统计量（{}）：它报告百分位数和均值，各自带置信区间", c.stat),
        _ => "没有稳态值：稳态窗口内数值过少，或没有稳态窗口".into(),
    }
}

/// `analyze::audit::metric_words` in Chinese.
fn metric_words_zh(metric: &str) -> &'static str {
    match metric {
        "service" => "结束时间减去计划发送时间",
        "send_lag" => "实际发送时间减去计划发送时间",
        "ttfot" => "第一个回答 token 的时间减去发送时间",
        _ => "首个 token 之后逐请求的平均间隔",
    }
}

/// Why the recomputation agrees or not, then why credence's value differs, when it does.
fn reason(c: &ClaimCheck, analysis: Option<&Analysis>) -> String {
    let f = |x: f64| significant(x, 4);
    let mut s = match (c.verdict, c.recomputed_from, c.recomputed) {
        ("reproduced", Some("summary"), _) => "汇总文件与明细日志给出相同的数值；没有可供重算的逐请求数据".to_string(),
        ("reproduced", _, _) => "汇总值与该工具自身的原始数据一致".to_string(),
        ("differs", Some("summary"), Some(x)) => format!("汇总文件给出 {}：该工具的两个文件不一致（舍入，或来自不同的运行）", f(x)),
        ("differs", _, Some(x)) => format!("汇总值与该工具的原始数据不一致（重算值 {}）：百分位定义不同，或汇总前过滤了部分记录", f(x)),
        _ => match &c.definition {
            Some(d) => format!("这一数值背后的原始数据不在文件中：{}", definition_or_english(d)),
            None => "这一数值背后的原始数据不在文件中".to_string(),
        },
    };
    if let (Some(a), Some(d)) = (analysis, c.credence_differs_by) {
        let why: Vec<String> = reasons(a, &c.metric, &c.stat, c.definition.as_deref()).iter().map(why_zh).collect();
        s += &format!("；credence 的稳态值相差 {:+.1} %", d * 100.0);
        if !why.is_empty() {
            s += &format!("（{}）", why.join("；"));
        }
    }
    s
}

fn why_zh(w: &Why) -> String {
    match w {
        Why::Definition(d) => definition_or_english(d),
        Why::Dropped { warmup, ramp_down } => format!("credence 舍弃了 {warmup} 个预热请求和 {ramp_down} 个收尾请求，该工具使用了全部请求"),
        Why::PulledByTail => "均值和标准差受长尾牵动；credence 的主要指标是百分位数".into(),
        Why::ItlPerChunk => "此处的 ITL 按流式数据块计算，而非按 token".into(),
        Why::TpotDefinitions => "各工具的 TPOT 定义不同（逐请求平均或合并全部间隔）".into(),
        Why::NotAnchored => "时间未锚定到挂钟时间".into(),
        Why::FewTailSamples => "尾部百分位所依据的样本很少".into(),
    }
}
