//! A load sweep's report in Chinese: the summary of its curve, its table's cells and its
//! statement (the weakest step's), rebuilt from the `Report` as `view::sweep` and
//! `Report::for_sweep` build the English.

use super::messages::grade_word;
use super::localize::estimate_zh;
use credence_analyze::credibility::Grade;
use crate::document::{Report, Sweep};
use crate::format::significant;
use crate::view::{SweepPoint, SweepView, client_limited_rates, sweep_kept_up, sweep_points, sweep_rows, sweep_ttft_p99_span};

/// The step whose grade the sweep takes: the first of the weakest (as `Report::for_sweep`).
pub fn weakest<'a>(sw: &'a Sweep, r: &'a Report) -> Option<SweepPoint<'a>> {
    let rank = |g: Grade| match g {
        Grade::Low => 0,
        Grade::Medium => 1,
        Grade::High => 2,
    };
    let step = sw.steps.iter().min_by_key(|s| r.runs.get(s.run).map_or(0, |a| rank(a.credibility.grade)))?;
    Some((step, r.runs.get(step.run)?))
}

/// The sweep's statement: its weakest step's, introduced as in English.
pub fn statement(sw: &Sweep, r: &Report) -> Option<String> {
    let (step, a) = weakest(sw, r)?;
    Some(format!(
        "共 {} 档的负载扫描；其可信度取最弱的一档（给定速率 {} req/s）：{}",
        sw.steps.len(),
        step.offered_per_s,
        super::messages::statement(&a.credibility, super::Lang::Zh)
    ))
}

/// Rewrites the sweep's summary and table cells in Chinese.
pub fn localize_sweep(v: &mut SweepView, sw: &Sweep, r: &Report) {
    let steps = sweep_points(sw, r);
    v.rows = sweep_rows(&steps, estimate_zh, |(s, a)| format!("{}{}", grade_word(a.credibility.grade, super::Lang::Zh), if s.client_limited { "（客户端受限）" } else { "" }));
    let mut parts = rate_summary(&steps);
    let limited = client_limited_rates(&steps);
    if !limited.is_empty() {
        parts.push(format!("在 {} req/s 时压测客户端接近自身极限：这些点测到的既有服务端也有客户端。", limited.join("、")));
    }
    if sw.stopped_early {
        parts.push("负载扫描在最后一个计划档位之前停止。".into());
    }
    v.summary = parts.concat();
}

/// The range, up to which rate the achieved rate kept up, and how the TTFT tail moved.
fn rate_summary(steps: &[SweepPoint]) -> Vec<String> {
    let kept_up = sweep_kept_up(steps);
    let rate = |s: Option<&SweepPoint>| s.map_or("?".into(), |s| significant(s.0.offered_per_s, 3));
    let mut parts = vec![format!("共 {} 档，给定速率 {} 至 {} req/s。", steps.len(), rate(steps.first()), rate(steps.last()))];
    parts.push(match kept_up.last() {
        Some(top) if kept_up.len() == steps.len() => {
            format!("每一档的实际速率都跟上了给定速率（≥ 95 %），直到 {} req/s：负载扫描没有达到饱和。", significant(*top, 3))
        }
        Some(top) => format!("实际速率在 {} req/s 以内跟上了给定速率（≥ 95 %）；超过此值后系统饱和，或压测客户端接近自身极限。", significant(*top, 3)),
        None => "从第一档起实际速率就低于给定速率（< 95 %，超出其置信区间），或压测客户端接近自身极限。".to_string(),
    });
    if let Some(((from_rate, from), (to_rate, to))) = sweep_ttft_p99_span(steps) {
        let s = |x: f64| significant(x, 3);
        parts.push(format!("P99 首token延迟从 {} req/s 时的 {} ms 变为 {} req/s 时的 {} ms。", s(from_rate), s(from), s(to_rate), s(to)));
    }
    parts
}
