//! The credibility of a report without runs in Chinese: a GPU capture audited alone
//! (`credibility::telemetry_only`) and a tool's summary files alone
//! (`credibility::aggregate_only`). Each check's reason and the statement are rebuilt from the
//! `TelemetryAudit` and the `Audit`, as those modules build the English.

use super::messages::grade_word;
use credence_analyze::audit::Audit;
use credence_analyze::credibility::{Check, CheckStatus, Credibility};
use credence_analyze::telemetry_audit::episodes::ThrottleEpisode;
use credence_analyze::telemetry_audit::load::LoadState;
use credence_analyze::telemetry_audit::stability::{STABLE_CV, STABLE_SHARE_FALLEN};
use credence_analyze::telemetry_audit::{TelemetryAudit, short_gpu};

/// A check of a run-less report in Chinese; None for one this file does not know.
pub fn check_reason(k: &Check, telemetry: Option<&TelemetryAudit>, audit: Option<&Audit>) -> Option<String> {
    if let Some(f) = audit.and_then(|a| a.facts.iter().find(|f| f.name == k.name)) {
        return Some(f.reason_message.render(super::Lang::Zh));
    }
    let Some(t) = telemetry else {
        return (k.name == "per_request_data").then(|| "文件中只有汇总统计量：无法重算任何百分位数、置信区间或稳态".to_string());
    };
    Some(match k.name.as_str() {
        "per_request_data" => "仅有 GPU 遥测：没有记录任何请求，无法从这些文件测量或核对延迟、吞吐量和错误率".into(),
        "gpu_telemetry" => data_quality(t),
        "gpus_under_load" => under_load(t),
        "throttling" => throttling(t, k.status),
        "clock_stability" => clock_stability(t, k.status),
        "claims" => claims(audit),
        other => needs_requests(other)?.into(),
    })
}

/// Why a GPU capture cannot answer the checks that need requests.
fn needs_requests(name: &str) -> Option<&'static str> {
    Some(match name {
        "steady_state" => "需要随时间变化的逐请求延迟；GPU 采集中没有",
        "sample_size.ttft_p99" => "没有记录请求，因此没有可供界定的延迟百分位数",
        "dependence" => "没有可用于度量相关性的请求延迟",
        "client_saturation" => "需要压测客户端的 CPU、发送延迟或计划发送时间；采集中只有 GPU 计数器",
        "interference" => "需要按进程的 GPU 数据或主机与网络计数器；采集中两者都没有",
        "error_rate" => "没有记录请求，因此没有错误率",
        "interval_width" => "没有可给出置信区间的延迟或吞吐量统计量",
        "attribution" => "没有请求时间线：无法把异常时段与延迟或吞吐量的变化联系起来",
        "replication" => "只有一次 GPU 计数器采集；运行间噪声需要重复压测才能测量",
        _ => return None,
    })
}

fn data_quality(t: &TelemetryAudit) -> String {
    let gaps: usize = t.gpus.iter().map(|g| g.gaps).sum();
    let interval = t.gpus.iter().map(|g| g.interval_s).fold(f64::NAN, f64::max);
    let what = format!("{} 块 GPU 的 {} 个样本，共 {:.0} s，采样间隔中位数 {interval:.3} s", t.gpus.len(), t.samples, t.duration_s);
    if gaps > 0 {
        format!("{what}；有 {gaps} 处缺口超过 3 个采样间隔：缺口内的异常时段无法看到")
    } else {
        format!("{what}；没有超过 3 个采样间隔的缺口")
    }
}

fn under_load(t: &TelemetryAudit) -> String {
    let loaded: Vec<&str> = t.gpus_in(LoadState::Loaded).map(|g| short_gpu(&g.gpu)).collect();
    let aside: Vec<String> =
        t.gpus.iter().filter(|g| g.load.state != LoadState::Loaded).map(|g| format!("{}（{}）", short_gpu(&g.gpu), g.load.reason_message.render(super::Lang::Zh))).collect();
    let aside_text = if aside.is_empty() { String::new() } else { format!("；未纳入分析：{}", aside.join("；")) };
    let head = if loaded.is_empty() {
        format!("没有 GPU 处于负载下（利用率 ≥ {:.0} %）：采集中看不到任何负载", t.load_threshold_pct)
    } else {
        format!("{} 块 GPU 中有 {} 块处于负载下（利用率 ≥ {:.0} %）：{}", t.gpus.len(), loaded.len(), t.load_threshold_pct, loaded.join("、"))
    };
    format!("{head}{aside_text}")
}

/// "GPU 0 过热降频 30–50 s（20 s）".
fn episode_text(e: &ThrottleEpisode) -> String {
    format!("{} {} {:.0}–{:.0} s（{:.0} s）", short_gpu(&e.gpu), e.reason.message().render(super::Lang::Zh), e.start_s, e.end_s, e.duration_s)
}

fn throttling(t: &TelemetryAudit, status: CheckStatus) -> String {
    if status == CheckStatus::NotChecked {
        return "没有处于负载下且带 SM 时钟或时钟事件原因的 GPU".into();
    }
    let basis = if t.reasons_captured() {
        "依据时钟事件原因位，缺失处依据 SM 时钟"
    } else {
        "仅依据 SM 时钟和功耗：未采集时钟事件原因，时钟下降的原因可能不明"
    };
    let faults: Vec<String> = t.episodes.iter().filter(|e| e.fault).map(episode_text).collect();
    let others: Vec<String> = t.episodes.iter().filter(|e| !e.fault).map(episode_text).collect();
    if !faults.is_empty() {
        let rest = if others.is_empty() { String::new() } else { format!("；另有 {}", others.join("；")) };
        format!("{}：时钟被强制降低（DCGM 的故障原因）；其间测得的数值反映的是降频后的 GPU{rest}（{basis}）", faults.join("；"))
    } else if !others.is_empty() {
        format!("{}：只应与相同功耗上限和散热条件下的运行比较（{basis}）", others.join("；"))
    } else {
        format!("负载下没有降频、功耗受限时段或时钟下降（{basis}）")
    }
}

fn clock_stability(t: &TelemetryAudit, status: CheckStatus) -> String {
    if status == CheckStatus::NotChecked {
        return "没有处于负载下且 SM 时钟样本足够（需要 10 个）的 GPU".into();
    }
    let judged: Vec<String> = t
        .gpus_in(LoadState::Loaded)
        .filter_map(|g| {
            let s = g.stability.as_ref()?;
            s.stable?;
            Some(format!(
                "{} CV {:.1} %，负载时间的 {:.1} % 低于其最高时钟（{:.0} MHz）的 90 %",
                short_gpu(&g.gpu),
                s.sm_clock_cv? * 100.0,
                s.share_below_90pct_of_max_observed? * 100.0,
                s.sm_clock_max_observed_mhz?
            ))
        })
        .collect();
    let rule = format!("稳定标准：CV ≤ {:.0} %，且低于最高时钟 90 % 的负载时间 ≤ {:.0} %", STABLE_CV * 100.0, STABLE_SHARE_FALLEN * 100.0);
    format!("{}（{rule}）", judged.join("；"))
}

fn claims(audit: Option<&Audit>) -> String {
    match audit {
        Some(a) if !a.claims.is_empty() => format!(
            "{} 项结论中有 {} 项已在该工具自身的文件之间交叉核对，{} 项不一致；没有逐请求数据，任何一项都无法重算",
            a.claims.len(),
            a.reproduced + a.differing,
            a.differing
        ),
        _ => "文件中没有可供核对的工具汇总数值".into(),
    }
}

/// The plain-language statement of a telemetry-only audit.
pub fn telemetry_statement(t: &TelemetryAudit, c: &Credibility) -> String {
    let names = [("sm_clock", "SM 时钟"), ("power", "功耗"), ("temperature", "温度"), ("utilization", "利用率"), ("clock_event_reasons", "时钟事件原因")];
    let quantities: Vec<&str> = names.iter().filter(|(key, _)| t.gpus.iter().any(|g| g.captured.contains(key))).map(|x| x.1).collect();
    let loaded = t.gpus_in(LoadState::Loaded).count();
    let mut s = format!(
        "作为压测结果的可信度：{}。{} 只有 GPU 遥测，没有请求记录。它展示了 {} 块 GPU 在 {:.0} s 内的运行情况（{}）；它无法展示延迟、吞吐量、错误率、稳态或工具的结论，也无法把任何异常时段与延迟或吞吐量的变化联系起来，因此这些检查均为“未检查”。{loaded} 块 GPU 处于负载下（利用率 ≥ {:.0} %）；{} 块未纳入分析。",
        &grade_word(c.grade, super::Lang::Zh),
        t.source,
        t.gpus.len(),
        t.duration_s,
        quantities.join("、"),
        t.load_threshold_pct,
        t.gpus.len() - loaded
    );
    s += &if !t.episodes.is_empty() {
        format!("负载下的异常时段：{}。", t.episodes.iter().map(episode_text).collect::<Vec<_>>().join("；"))
    } else if loaded == 0 {
        "没有 GPU 处于负载下，因此没有查找异常时段。".to_string()
    } else if !t.episodes_looked_for() {
        "负载下的 GPU 都没有 SM 时钟或时钟事件原因，因此无法查找异常时段。".to_string()
    } else {
        "负载下没有发现降频、功耗受限时段或时钟下降。".to_string()
    };
    s
}

/// The plain-language statement of an audit of summary files alone.
pub fn aggregate_statement(source: &str, audit: &Audit) -> String {
    let facts: Vec<String> = audit
        .facts
        .iter()
        .map(|f| format!("{}：{}（{}）。", f.name, super::tr(super::Lang::Zh, &format!("tpl.status_{}", f.status)), f.reason_message.render(super::Lang::Zh)))
        .collect();
    format!(
        "可信度：低。{source} 没有逐请求数据，因此其数值都无法重算或给出置信区间；其 {} 项结论中有 {} 项可以在该工具自身的文件之间交叉核对。{}",
        audit.claims.len(),
        audit.reproduced + audit.differing,
        facts.join("")
    )
}
