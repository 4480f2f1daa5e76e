//! A comparison's top part in Chinese: the same functions as `comparison_words`, over the same
//! `Comparison` fields; the cells (numbers with units and intervals) are shared.

use super::{Lang, fill, list, tr};
use credence_analyze::compare::verdict::Verdict;
use credence_analyze::compare::{Comparison, MetricComparison};
use credence_analyze::credibility::{CheckStatus, Credibility, Grade};
use credence_analyze::intervals::MIN_WINDOWS_FOR_DEPENDENCE;
use crate::comparison_words as words;

const ZH: Lang = Lang::Zh;

/// A metric's name in Chinese prose: `P50 首token延迟`, `输出吞吐量`.
pub fn metric_label(metric: &str) -> String {
    match metric {
        "output_tokens_per_s" | "requests_per_s" | "error_rate" => tr(ZH, &format!("metric.{metric}")).to_string(),
        _ => match metric.rsplit_once('_') {
            Some((family, p)) if matches!(family, "ttft" | "tpot" | "e2e" | "itl") && p.starts_with('p') => {
                let en = words::metric_label(metric);
                let percentile = en.split(' ').next().unwrap_or("");
                format!("{percentile} {}", tr(ZH, &format!("term.{family}")))
            }
            _ => metric.to_string(),
        },
    }
}

pub fn grade_word(g: Grade) -> &'static str {
    tr(ZH, &format!("tpl.grade_{}", g.label()))
}

pub fn verdict_word(v: Verdict) -> &'static str {
    tr(ZH, &format!("cmp.verdict_{}", words::verdict_word(v)))
}

pub fn table_header() -> [String; 6] {
    ["cmp.col_metric", "cmp.col_base", "cmp.col_cand", "cmp.col_change", "cmp.col_tolerance", "cmp.col_verdict"].map(|k| tr(ZH, k).to_string())
}

pub fn table_note(c: &Comparison) -> String {
    let m = c.metrics.values().find(|m| m.change.resamples > 0);
    fill(
        ZH,
        "cmp.table_note",
        &[
            ("method", m.map_or("", |m| m.change.method)),
            ("resamples", &m.map_or(0, |m| m.change.resamples).to_string()),
            ("seed", &m.map_or(0, |m| m.change.seed).to_string()),
        ],
    )
}

/// A decided change: `P50 首token延迟 +9.5 % [+7.4 %, +11.7 %]，超出 ±5.0 %（150.2 → 164.5 ms）`.
fn decided_change(metric: &str, m: &MetricComparison) -> String {
    let (k, d) = (words::scale(metric), words::arm_decimals(m, words::scale(metric)));
    fill(
        ZH,
        "cmp.decided",
        &[
            ("metric", &metric_label(metric)),
            ("change", &words::change_cell(metric, m)),
            ("tolerance", &words::tolerance_cell(metric, m)),
            ("base", &format!("{:.d$}", m.base * k)),
            ("cand", &format!("{:.d$}", m.cand * k)),
            ("unit", words::unit(metric)),
        ],
    )
}

/// The headline in one sentence: validity, regressions, improvements, the other verdicts
/// counted, and the credibility.
pub fn headline(c: &Comparison, grade: Grade, arms: (&Credibility, &Credibility)) -> String {
    let metrics = words::condition_rows(c, c.decision.deciding);
    let with = |v: Verdict| metrics.iter().filter(|(_, m)| m.verdict == v).map(|(k, m)| decided_change(k, m)).collect::<Vec<_>>();
    let count = |v: Verdict| metrics.iter().filter(|(_, m)| m.verdict == v).count().to_string();
    let mut parts = Vec::new();
    if !c.valid {
        parts.push(fill(ZH, "cmp.invalid", &[("gates", &failed_gates(c))]));
    }
    for (v, key) in [(Verdict::Regression, "cmp.regressions"), (Verdict::Improvement, "cmp.improvements")] {
        let changes = with(v);
        if !changes.is_empty() {
            parts.push(fill(ZH, key, &[("items", &changes.join("；"))]));
        }
    }
    let others = fill(ZH, "cmp.others", &[("equivalent", &count(Verdict::Equivalent)), ("inconclusive", &count(Verdict::Inconclusive))]);
    let decided = parts.len() > usize::from(!c.valid);
    parts.push(if decided { others } else { fill(ZH, "cmp.none_beyond", &[("others", &others)]) });
    parts.extend(other_condition(c));
    parts.push(fill(ZH, "cmp.credibility", &[("grade", grade_word(grade)), ("note", &credibility_note(c, arms))]));
    parts.join("；") + "。"
}

/// When the clean verdicts differ from those as measured: which decided, and what the other
/// condition found.
fn other_condition(c: &Comparison) -> Option<String> {
    use credence_analyze::compare::decision::{Deciding, DecidingWhy};
    if !c.decision.verdicts_differ {
        return None;
    }
    let (this, other, other_key) = match c.decision.deciding {
        Deciding::Clean => ("洁净时段", "实测", Deciding::AsMeasured),
        Deciding::AsMeasured => ("实测", "洁净时段", Deciding::Clean),
    };
    let rows = words::condition_rows(c, other_key);
    let decided: Vec<String> = rows
        .iter()
        .filter(|(_, m)| matches!(m.verdict, Verdict::Regression | Verdict::Improvement))
        .map(|(k, m)| format!("{}（{}）", decided_change(k, m), verdict_word(m.verdict)))
        .collect();
    // The same words as the English: the decided changes, else how many metrics were
    // equivalent and how many could not be decided.
    let count = |v: Verdict| rows.iter().filter(|(_, m)| m.verdict == v).count();
    let found = match (decided.is_empty(), count(Verdict::Equivalent), count(Verdict::Inconclusive)) {
        (false, ..) => decided.join("；"),
        (true, 0, _) => "均无法判断".to_string(),
        (true, _, 0) => "均持平".to_string(),
        (true, e, i) => format!("{e} 项持平，{i} 项无法判断"),
    };
    let why = match (c.decision.why, &c.clean) {
        (DecidingWhy::EpisodesAlike, Some(cl)) => format!(
            "两组处于异常时段的时间占比相近（基线 {:.0} %，候选 {:.0} %），以洁净时段核验结果为准",
            cl.excluded.base_share * 100.0,
            cl.excluded.cand_share * 100.0
        ),
        (DecidingWhy::EpisodesDiffer, Some(cl)) => format!(
            "异常时段占候选 {:.0} %、基线 {:.0} %，可能由切换本身引起，以实测核验结果为准",
            cl.excluded.cand_share * 100.0,
            cl.excluded.base_share * 100.0
        ),
        _ => String::new(),
    };
    Some(format!("以上为{this}核验结果；{other}核验结果：{found}；{why}"))
}

fn failed_gates(c: &Comparison) -> String {
    let failed: Vec<String> = c.gates.iter().filter(|g| g.status == "FAIL").map(|g| format!("{} {}", g.name, tr(ZH, "tpl.status_FAIL"))).collect();
    if failed.is_empty() { tr(ZH, "cmp.a_gate_failed").to_string() } else { failed.join("、") }
}

fn credibility_note(c: &Comparison, (base, cand): (&Credibility, &Credibility)) -> String {
    let runs = if c.base_runs.len() == 1 && c.cand_runs.len() == 1 {
        tr(ZH, "cmp.single_runs").to_string()
    } else {
        fill(ZH, "cmp.n_runs", &[("base", &c.base_runs.len().to_string()), ("cand", &c.cand_runs.len().to_string())])
    };
    let failed: Vec<String> = [("cmp.arm_base", base), ("cmp.arm_cand", cand)]
        .iter()
        .flat_map(|(arm, cr)| cr.checks.iter().filter(|k| k.status == CheckStatus::Fail).map(move |k| format!("{} {}", tr(ZH, arm), k.name)))
        .collect();
    if failed.is_empty() { runs } else { fill(ZH, "cmp.failed_checks", &[("runs", &runs), ("items", &failed.join("、"))]) }
}

pub fn gates_line(c: &Comparison) -> String {
    let count = |s: &str| c.gates.iter().filter(|g| g.status == s).count();
    let tally: Vec<String> = ["PASS", "WARN", "FAIL", "NOT_CHECKED"]
        .iter()
        .filter(|s| count(s) > 0)
        .map(|s| format!("{} {}", tr(ZH, &format!("tpl.status_{s}")), count(s)))
        .collect();
    let not_passed: Vec<String> = c
        .gates
        .iter()
        .filter(|g| g.status != "PASS")
        .map(|g| format!("{} {}：{}", g.name, tr(ZH, &format!("tpl.status_{}", g.status)), super::gates_zh::gate_reason(&g.why)))
        .collect();
    let tally = if tally.is_empty() { tr(ZH, "cmp.no_gates").to_string() } else { tally.join("，") };
    if not_passed.is_empty() {
        fill(ZH, "cmp.gates", &[("tally", &tally)])
    } else {
        fill(ZH, "cmp.gates_detail", &[("tally", &tally), ("items", &not_passed.join("；"))])
    }
}

pub fn credibility_summary(c: &Comparison, grade: Grade) -> String {
    let passed = c.gates.iter().filter(|g| g.status == "PASS").count().to_string();
    let replication = if c.base_runs.len() == 1 && c.cand_runs.len() == 1 {
        tr(ZH, "cmp.replication_single").to_string()
    } else {
        fill(ZH, "cmp.replication_many", &[("base", &c.base_runs.len().to_string()), ("cand", &c.cand_runs.len().to_string())])
    };
    let changed = match c.what_changed.as_slice() {
        [] => tr(ZH, "cmp.changed_none").to_string(),
        [d] => fill(ZH, "cmp.changed_one", &[("key", &d.key), ("base", &d.base), ("cand", &d.cand)]),
        many => fill(ZH, "cmp.changed_many", &[("n", &many.len().to_string()), ("keys", &many.iter().map(|d| d.key.as_str()).collect::<Vec<_>>().join("、"))]),
    };
    fill(
        ZH,
        "cmp.summary",
        &[("grade", grade_word(grade)), ("passed", &passed), ("gates", &c.gates.len().to_string()), ("replication", &replication), ("changed", &changed)],
    )
}

pub fn arm_line(arm: &str, runs: &[String], cr: &Credibility) -> String {
    let passed = cr.checks.iter().filter(|k| k.status == CheckStatus::Pass).count().to_string();
    let mut line = fill(
        ZH,
        "cmp.arm_line",
        &[("arm", arm), ("runs", &runs.join(", ")), ("grade", grade_word(cr.grade)), ("passed", &passed), ("checks", &cr.checks.len().to_string())],
    );
    for status in [CheckStatus::Fail, CheckStatus::Warn, CheckStatus::NotChecked] {
        let names: Vec<&str> = cr.checks.iter().filter(|k| k.status == status).map(|k| k.name.as_str()).collect();
        if !names.is_empty() {
            line += &format!("；{}：{}", tr(ZH, &format!("tpl.status_{}", status.label())), names.join("、"));
        }
    }
    line + "。"
}

/// The method line of the comparison details.
pub fn summary(c: &Comparison) -> String {
    let first = c.metrics.values().next();
    let invalid = if c.valid { "" } else { tr(ZH, "cmp.invalid_upper") };
    fill(
        ZH,
        "cmp.details_summary",
        &[
            ("invalid", invalid),
            ("base", &c.base_runs.join(", ")),
            ("cand", &c.cand_runs.join(", ")),
            ("replication", &super::localize::by_english("replication.", &c.replication)),
            ("method", first.map_or("", |m| m.change.method)),
            ("resamples", &first.map_or(0, |m| m.change.resamples).to_string()),
            ("seed", &first.map_or(0, |m| m.change.seed).to_string()),
        ],
    )
}

/// What more data would decide each inconclusive metric, rebuilt from the plan's numbers
/// (`plan::advice`).
pub fn notes(c: &Comparison) -> Vec<String> {
    words::too_few_groups(c)
        .into_iter()
        .map(|(groups, names)| {
            let labels: Vec<String> = names.iter().map(|n| metric_label(n)).collect();
            fill(
                ZH,
                "cmp.note_too_few_groups",
                &[("metrics", &list(ZH, &labels)), ("groups", &groups.to_string()), ("min", &MIN_WINDOWS_FOR_DEPENDENCE.to_string())],
            )
        })
        .chain(
            words::ordered(c)
                .into_iter()
                .filter_map(|(name, m)| m.more_data.as_ref().map(|d| fill(ZH, "cmp.note", &[("metric", &metric_label(name)), ("advice", &advice(m, d))]))),
        )
        .collect()
}

fn advice(m: &MetricComparison, d: &credence_analyze::compare::MoreData) -> String {
    let assumed = match (d.between_run, d.between_run_cv) {
        ("assumed", Some(cv)) => fill(ZH, "cmp.advice_assumed", &[("cv", &format!("{:.1}", cv * 100.0))]),
        _ => String::new(),
    };
    let Some(per_arm) = d.runs_per_arm.map(|r| r.to_string()) else {
        return fill(ZH, "cmp.advice_cannot_tell", &[]);
    };
    let (base, cand) = (&m.variance.base, &m.variance.cand);
    let runs = base.runs.min(cand.runs).max(1);
    let advice = match (runs, d.requests_per_run_factor) {
        (1, Some(f)) => fill(ZH, "cmp.advice_single", &[("factor", &format!("{f:.1}")), ("runs", &per_arm)]),
        (_, Some(f)) => fill(ZH, "cmp.advice_runs", &[("factor", &format!("{f:.1}")), ("runs", &per_arm)]),
        (_, None) => {
            let between = match (base.between, cand.between) {
                (Some(x), Some(y)) => (x + y) / 2.0,
                (Some(x), None) | (None, Some(x)) => x,
                (None, None) => d.between_run_cv.map_or(0.0, |cv| cv * cv),
            };
            let within = (base.within + cand.within) / 2.0;
            let share = format!("{:.0}", 100.0 * between / (between + within).max(f64::MIN_POSITIVE));
            fill(ZH, "cmp.advice_between", &[("runs", &per_arm), ("share", &share)])
        }
    };
    advice + &assumed
}
