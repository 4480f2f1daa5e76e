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

/// A peak value in Chinese, from the message the analysis words in English.
fn peak_text(key: &str, v: f64) -> Option<String> {
    credence_analyze::attribute::peak_message(key, v).map(|m| m.render(super::Lang::Zh))
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
