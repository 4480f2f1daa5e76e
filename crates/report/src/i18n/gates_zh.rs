//! The comparison's validity gates' reasons in Chinese, worded from
//! `analyze::compare::gate_reason::GateReason` (the data the English `reason` comes from).
//! Manifest keys and the arrival process's name stay as identifiers.

use credence_analyze::compare::gate_reason::{GateReason, Load};
use credence_analyze::steady::Classification;
use credence_run::text::significant;

/// The reason of a gate in Chinese.
pub fn gate_reason(why: &GateReason) -> String {
    match why {
        GateReason::Lengths { d, limit, p } => format!("双样本 KS 检验：D = {d:.3}（上限 {limit}），p = {p:.2e}"),
        GateReason::NoTokenCounts => "没有 token 计数".into(),
        GateReason::Arrival { base, cand } => format!("基线：{}；候选：{}", load(base), load(cand)),
        GateReason::ManifestsSame => "两份运行清单没有差异：没有记录切换了什么".into(),
        GateReason::OneSwitch(key) => format!("只有一处变化：{key}"),
        GateReason::ManySwitches(keys) => format!("有 {} 处不同，无法把影响归于某一处变化：{}", keys.len(), keys.join("、")),
        GateReason::Steady(c) => steady_word(*c).into(),
        GateReason::LeftOut(c) => format!("{}：已从该组剔除，该组剩余运行仍足以比较", steady_word(*c)),
        GateReason::Replicated { base, cand } => format!("基线每组 {base} 次运行，候选 {cand} 次"),
        GateReason::SingleRun => "单次运行：无法把配置本身的影响与运行间噪声区分开".into(),
        GateReason::Drift(d) => format!("前后两次基线运行的 P50 首token延迟相差 {:.1} %", d * 100.0),
        GateReason::RunSpread { spread, change } => format!(
            "同一组内各次运行的 P50 首token延迟最多相差 {:.1} %，两组相差 {:+.1} %{}",
            spread * 100.0,
            change * 100.0,
            if spread >= &change.abs() { "：同一配置的运行之间的差异与两种配置之间的差异一样大" } else { "" }
        ),
        GateReason::Text(t) => t.clone(),
    }
}

/// "poisson 到达，10.0 req/s，流式" — the arrival process keeps its manifest name.
fn load(l: &Load) -> String {
    let mut parts = vec![format!("{} 到达", l.arrival)];
    parts.extend(l.rate_per_s.map(|r| format!("{} req/s", significant(r, 3))));
    parts.extend(l.concurrency.map(|c| format!("并发 {c}")));
    parts.push(
        match l.streaming {
            Some(true) => "流式",
            Some(false) => "非流式",
            None => "是否流式未知",
        }
        .into(),
    );
    parts.join("，")
}

fn steady_word(c: Classification) -> &'static str {
    match c {
        Classification::Flat => "平稳",
        Classification::Warmup => "有预热段，之后平稳",
        Classification::Slowdown => "运行中逐渐变慢",
        Classification::NoSteadyState => "没有稳态",
    }
}
