//! A finding's evidence in Chinese, rebuilt from its episodes, effect and consequences (the
//! analysis words the evidence in English, `analyze::attribute::peak_text`).

use credence_analyze::Analysis;
use credence_analyze::attribute::effect::Effect;
use credence_analyze::attribute::{Finding, FindingEpisode};
use crate::view::effect_value;

/// Where an episode was seen: a device or file as the run names it, or, for a drift, the
/// steady-state detector's numbers in Chinese.
pub fn episode_source(a: &Analysis, f: &Finding, e: &FindingEpisode) -> String {
    if f.cause != "drift" {
        return e.source.clone();
    }
    match a.steady_state.trend {
        Some(t) => format!(
            "稳态检测器：p = {:.3}，窗口内 Sen 斜率 {:+.1} %（漂移上限 ±{:.0} %），{} 个 {:.0} s 窗口",
            t.p,
            t.drift * 100.0,
            t.limit * 100.0,
            t.windows,
            t.window_s
        ),
        // An analysis read back from JSON: the detector's own words.
        None if e.source.contains(": ") => e.source.clone(),
        None => "稳态检测器".into(),
    }
}

/// One line per episode (source, time, peak values), then the effect, then the consequences.
pub fn evidence(a: &Analysis, f: &Finding) -> Vec<String> {
    let mut lines: Vec<String> = f.episodes.iter().map(|e| episode(&episode_source(a, f, e), e)).collect();
    lines.extend(f.effect.as_ref().map(effect));
    lines.extend(f.consequences.iter().map(|c| format!("后果：{:.0} s 至 {:.0} s 服务端排队（{}）", c.start_s, c.end_s, peaks(c))));
    lines
}

fn episode(source: &str, e: &FindingEpisode) -> String {
    let what = peaks(e);
    format!("{source}：{:.0} s 至 {:.0} s{}{}", e.start_s, e.end_s, if what.is_empty() { "" } else { "，" }, what)
}

fn peaks(e: &FindingEpisode) -> String {
    e.peak.iter().filter_map(|(k, v)| peak_text(k, *v)).collect::<Vec<_>>().join("，")
}

fn effect(e: &Effect) -> String {
    let interval = match (e.ci_low, e.ci_high) {
        (Some(lo), Some(hi)) => format!(" [{}, {}]", effect_value(e, lo), effect_value(e, hi)),
        _ => String::new(),
    };
    format!("{} 在时段内较测量窗口其余部分变化 {}{}", e.metric, effect_value(e, e.change), interval)
}

/// A peak value in Chinese, for the keys `analyze::attribute::PEAK_KEYS` names.
fn peak_text(key: &str, v: f64) -> Option<String> {
    if !v.is_finite() {
        return None;
    }
    let pct = |x: f64| format!("{:.0} %", x * 100.0);
    Some(match key {
        "sm_clock_drop_share" => format!("SM 时钟较负载下的基线降低 {}", pct(v)),
        "temp_max_c" => format!("温度最高 {v:.1} °C"),
        "thermal_violation_s" if v > 0.0 => format!("热限制累计 {v:.0} s"),
        "power_share_of_limit_max" => format!("功耗最高达到功耗上限的 {}", pct(v)),
        "memory_used_share_max" => format!("GPU 显存占用最高 {}", pct(v)),
        "preemptions" => format!("抢占 {v:.0} 次"),
        "foreign_processes_max" => format!("其他计算进程 {v:.0} 个"),
        "foreign_memory_gib_max" if v > 0.0 => format!("其他进程占用显存 {v:.1} GiB"),
        "lg_cpu_pct_max" => format!("压测端 CPU 最高占单核的 {v:.0} %"),
        "lg_thread_pct_max" => format!("压测端最忙线程最高 {v:.0} %"),
        "send_lag_p99_ms_max" => format!("P99 发送延迟最高 {v:.1} ms"),
        "send_lag_gaps_max" => format!("最多落后发送计划 {v:.1} 个发送间隔"),
        "achieved_share_min" => format!("实际发送速率最低为计划速率的 {}", pct(v)),
        "retransmit_ratio_max" if v > 0.0 => format!("TCP 重传率最高 {:.2} %", v * 100.0),
        "interface_errors" if v > 0.0 => format!("网卡错误 {v:.0} 个"),
        "interface_drops" if v > 0.0 => format!("网卡丢包 {v:.0} 个"),
        "listen_overflows" if v > 0.0 => format!("监听队列溢出 {v:.0} 次"),
        "cpu_steal_pct_max" if v > 0.0 => format!("CPU 被抢占（steal）最高 {v:.0} %"),
        "samples_not_performance_governor" if v > 0.0 => format!("{v:.0} 个采样的 CPU 调频策略不是 performance"),
        "waiting_requests_max" => format!("排队请求最多 {v:.0} 个"),
        "kv_cache_used_share_max" => format!("KV cache 占用最高 {}", pct(v)),
        "error_share_max" => format!("每窗口失败请求最高占 {}", pct(v)),
        "send_rate_share_min" => format!("发送速率最低降至稳态水平的 {}", pct(v)),
        k if k.starts_with("errors_") && v > 0.0 => format!("{} 错误 {v:.0} 个", &k[7..]),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use credence_analyze::attribute::PEAK_KEYS;

    #[test]
    fn every_peak_the_analysis_words_is_worded_in_chinese() {
        for key in PEAK_KEYS {
            assert!(credence_analyze::attribute::peak_text(key, 1.0).is_some(), "{key}: no English");
            let zh = peak_text(key, 1.0).unwrap_or_else(|| panic!("{key}: no Chinese"));
            assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{key}: {zh}");
        }
        assert_eq!(peak_text("temp_max_c", f64::NAN), None);
    }
}
