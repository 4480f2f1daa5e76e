//! The telemetry-only audit's view in Chinese: the capture, the GPUs set aside, the episodes
//! with their evidence, clock stability under load, the headline and the methodology, rebuilt
//! from the `TelemetryAudit` as `telemetry_view.rs` builds the English. GPU labels, field
//! names and file names stay as the capture wrote them.

use credence_analyze::telemetry_audit::episodes::EpisodeReason;
use credence_analyze::telemetry_audit::load::{GpuLoad, LOAD_UTIL_PCT, LoadState, MIN_LOADED_SAMPLES};
use credence_analyze::telemetry_audit::stability::{ClockStability, MIN_SAMPLES, STABLE_CV, STABLE_SHARE_FALLEN};
use credence_analyze::telemetry_audit::{GpuAudit, TelemetryAudit, short_gpu};
use crate::document::{utc_date, utc_time};
use crate::i18n::Lang;
use crate::telemetry_view::{TelemetryView, episode_row, stability_row};

/// What "under load" means (`load::load_rule` in Chinese).
pub fn load_rule() -> String {
    format!(
        "GPU 利用率不低于 {LOAD_UTIL_PCT:.0} % 的样本视为处于负载下（未采集利用率时：时钟事件原因已知且 GPU 空闲位 0x1 未置位）。负载下样本少于 {MIN_LOADED_SAMPLES} 个的 GPU 视为空闲，不纳入分析。"
    )
}

/// Why a GPU is loaded, idle or of unknown load (`load::classify`'s reason in Chinese).
pub fn load_reason(l: &GpuLoad) -> String {
    let util = l.util_max_pct.map_or("未采集利用率".to_string(), |m| format!("利用率最高 {m:.0} %"));
    let (n, of) = (l.loaded_samples, l.samples);
    match l.state {
        LoadState::Unknown => format!("其 {of} 个样本中既没有利用率也没有时钟事件原因：无法判断它是否繁忙"),
        LoadState::Idle => format!(
            "{of} 个样本中有 {n} 个处于负载下（{util}；{} 个样本的 GPU 空闲位置位）；少于 {MIN_LOADED_SAMPLES} 个，因此其时钟不作为负载下的时钟解读",
            l.idle_bit_samples
        ),
        LoadState::Loaded => format!("{of} 个样本中有 {n} 个处于负载下（{util}）"),
    }
}

pub fn reason_label(r: EpisodeReason) -> &'static str {
    match r {
        EpisodeReason::ThermalSlowdown => "过热降频",
        EpisodeReason::HwPowerBrake => "硬件功率制动",
        EpisodeReason::HwSlowdown => "硬件降频",
        EpisodeReason::PowerCap => "功耗受限",
        EpisodeReason::ClockDrop => "SM 时钟下降，原因不明",
    }
}

/// `ClockStability::note` in Chinese, from the same sample count.
fn stability_note(s: &ClockStability) -> String {
    if s.status == credence_analyze::Status::Ok {
        format!("基于 {} 个负载下样本的描述性统计；1 Hz 时钟样本存在自相关，因此不给出置信区间", s.loaded_samples)
    } else {
        format!("负载下只有 {} 个带 SM 时钟的样本（需要 {MIN_SAMPLES} 个）：离散程度不作为该 GPU 的特征解读", s.loaded_samples)
    }
}

fn episodes_note(t: &TelemetryAudit) -> String {
    let loaded = t.gpus_in(LoadState::Loaded).count();
    match (t.episodes.is_empty(), loaded, t.reasons_captured()) {
        (_, 0, _) => "没有 GPU 处于负载下，因此没有查找异常时段。".into(),
        (true, _, _) if !t.episodes_looked_for() => "负载下的 GPU 都没有 SM 时钟或时钟事件原因，因此无法查找异常时段。".into(),
        (true, _, true) => "负载下的 GPU 没有降频、功耗受限时段或 SM 时钟下降（已读取时钟事件原因位和 SM 时钟）。".into(),
        (true, _, false) => "负载下的 GPU 没有功耗受限时段或 SM 时钟下降。采集中没有时钟事件原因位，因此只能看到 SM 时钟的下降。".into(),
        (false, _, _) => "负载下 GPU 的异常时段：某一原因持续两个或更多样本，中间夹一个正常样本时视为连续。降频是时钟被强制降低（DCGM 的故障原因：过热、硬件降频、功率制动）；功耗受限是 GPU 维持在功耗上限，不是故障。没有原因位时，功耗在上限 5 % 以内且 SM 时钟比负载下最高值低 10 % 以上视为功耗受限；两者都不满足的时钟下降记为原因不明。".into(),
    }
}

fn gpu_state(g: &GpuAudit) -> String {
    let reason = load_reason(&g.load);
    match g.load.state {
        LoadState::Loaded => format!("{reason}。"),
        LoadState::Idle => format!("空闲，不纳入分析：{reason}。"),
        LoadState::Unknown => format!("负载未知，不纳入分析：{reason}。"),
    }
}

/// Rewrites the telemetry view's sentences and rows in Chinese.
pub fn localize_telemetry(v: &mut TelemetryView, t: &TelemetryAudit) {
    v.summary = format!(
        "{}：{} 块 GPU 的 {} 个样本，共 {:.0} s，起始于 {} {} UTC（即所有图表的时间零点）。没有记录任何请求。",
        t.source,
        t.gpus.len(),
        t.samples,
        t.duration_s,
        utc_date(t.t0_ns),
        utc_time(t.t0_ns)
    );
    v.load_rule = load_rule();
    v.episodes_note = episodes_note(t);
    v.episodes = t.episodes.iter().map(|e| episode_row(t, e, reason_label(e.reason), Lang::Zh)).collect();
    v.set_aside = t.gpus.iter().filter(|g| g.load.state != LoadState::Loaded).map(|g| [short_gpu(&g.gpu).to_string(), load_reason(&g.load)]).collect();
    v.stability_note = format!(
        "负载下样本的 SM 时钟。CV：标准差除以均值。占比按负载下样本计（等间隔采样，即按负载时间计）。稳定：CV ≤ {:.0} %，且低于最高时钟 90 % 的负载时间不超过 {:.0} %。描述性统计：1 Hz 时钟样本存在自相关，因此不给出置信区间。",
        STABLE_CV * 100.0,
        STABLE_SHARE_FALLEN * 100.0
    );
    v.stability = t.gpus.iter().filter_map(|g| g.stability.as_ref().map(|s| stability_row(&g.gpu, s, &stability_note(s), Lang::Zh))).collect();
    for (block, g) in v.gpus.iter_mut().zip(&t.gpus) {
        block.state = gpu_state(g);
        block.captured = format!("{} 个样本，采样间隔中位数 {:.3} s；采集项：{}。", g.samples, g.interval_s, g.captured.join("、"));
    }
    if !t.unreadable.is_empty() {
        let list: Vec<String> = t.unreadable.iter().map(|u| format!("{}（{} 个样本）", u.field, u.samples)).collect();
        v.unreadable = format!("无法读取、按缺失处理的值：{}。", list.join("，"));
    }
}

/// How the telemetry audit defines its terms (`telemetry_view::methodology` in Chinese).
pub fn methodology() -> Vec<[String; 2]> {
    vec![
        ["负载判定".into(), load_rule()],
        ["异常时段".into(), "过热降频（原因位 0x20、0x40）、硬件功率制动（0x80）和硬件降频（0x08）按 DCGM 的诊断掩码属于降频故障；软件功耗上限（0x04）属于功耗受限，不是故障。没有原因位时：功耗 ≥ 上限的 95 % 且 SM 时钟 < 负载下最高值的 90 % 视为功耗受限；两者都无法解释的 SM 时钟跌破 90 % 记为原因不明的时钟下降。至少两个样本；中间夹一个正常样本时视为连续。".into()],
        ["时钟稳定性".into(), "负载下样本的 SM 时钟均值、标准差、CV、中位数和范围；负载下样本中低于负载下最高时钟、以及低于其 90 % 的占比。".into()],
        ["时间".into(), "自采集第一个样本起的秒数，以及 UTC 时间。nvidia-smi 和 dmon 写的是不带时区的本地时间；时区偏移由 --tz 给出。".into()],
        ["未检查".into(), "一切需要请求数据的内容：稳态、延迟百分位数及其置信区间、吞吐量、错误率、压测客户端饱和、由逐请求数据重算的工具结论，以及任何异常时段与延迟的关联。".into()],
    ]
}
