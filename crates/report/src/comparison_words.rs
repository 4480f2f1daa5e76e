//! The words of a comparison's top part: the headline sentence, the verdict table's header and
//! cells, the validity gates in one line, the credibility summary and the notes. The sentences
//! are messages (`locales/*/compare.ftl`) built from the comparison's serialized data, so every
//! language says the same facts with the same numbers; the cells (numbers with units and
//! intervals) read the same in every language. Numbers come from the compare JSON only
//! (`Comparison`), formatted by `format.rs`.

use super::format::decimals_for;
use credence_analyze::compare::decision::{Deciding, DecidingWhy};
use credence_analyze::compare::gate_reason::identifiers;
use credence_analyze::compare::verdict::Verdict;
use credence_analyze::compare::{Comparison, MetricComparison};
use credence_analyze::credibility::{CheckStatus, Credibility, Grade, check_name};
use credence_analyze::intervals::MIN_WINDOWS_FOR_DEPENDENCE;
use credence_messages::{Lang, Message, Sep};
pub use credence_messages::metric_label;

/// The compared metrics in the order the table lists them; any other metric follows by name.
pub const METRIC_ORDER: [&str; 9] =
    ["ttft_p50", "ttft_p99", "tpot_p50", "tpot_p99", "e2e_p50", "e2e_p99", "output_tokens_per_s", "requests_per_s", "error_rate"];

/// The error rate's change is absolute (percentage points); every other change is relative.
fn is_absolute(metric: &str) -> bool {
    metric == "error_rate"
}

/// The unit a metric's values are shown in.
fn unit_message(metric: &str) -> Message {
    let unit = match metric {
        "output_tokens_per_s" => "tokens_per_s",
        "requests_per_s" => "requests_per_s",
        "error_rate" => "percent",
        _ => "ms",
    };
    Message::new("metric-unit").text("unit", unit)
}

/// The verdict as a word: `regression`.
pub fn verdict_word(v: Verdict) -> Message {
    Message::new("verdict-word").text("verdict", verdict_key(v))
}

fn verdict_key(v: Verdict) -> &'static str {
    match v {
        Verdict::Regression => "regression",
        Verdict::Improvement => "improvement",
        Verdict::Equivalent => "equivalent",
        Verdict::Inconclusive => "inconclusive",
    }
}

fn grade(g: Grade) -> Message {
    Message::new("grade").text("grade", g.label())
}

fn status(s: &str) -> Message {
    Message::new("status").text("status", s)
}

/// The verdict table's column names.
pub fn table_header() -> [Message; 6] {
    ["metric", "base", "cand", "change", "tolerance", "verdict"].map(|c| Message::new("compare-column").text("column", c))
}

/// An interval's method as a reader says it (English keeps the identifier the JSON records).
fn method_name(method: &str) -> Message {
    Message::new("method-name").text("method", method)
}

/// What the table's intervals are, in one line under it.
pub fn table_note(c: &Comparison) -> Message {
    let m = c.metrics.values().find(|m| m.change.resamples > 0);
    Message::new("compare-table-note")
        .msg("method", method_name(m.map_or("", |m| m.change.method)))
        .int("resamples", m.map_or(0, |m| m.change.resamples))
        .int("seed", m.map_or(0, |m| m.change.seed))
}

/// The digits a pair of arm intervals supports: those of the narrower half-width.
pub(crate) fn arm_decimals(m: &MetricComparison, scale: f64) -> usize {
    let half = |ci: (f64, f64)| (ci.1 - ci.0) * scale / 2.0;
    decimals_for(half(m.base_ci).min(half(m.cand_ci)))
}

pub(crate) fn scale(metric: &str) -> f64 {
    if is_absolute(metric) { 100.0 } else { 1.0 }
}

/// One arm's value with its interval and unit: `29.69 [29.32, 30.06] ms`.
pub fn arm_cell(metric: &str, m: &MetricComparison, value: f64, ci: (f64, f64), lang: Lang) -> String {
    let (k, d) = (scale(metric), arm_decimals(m, scale(metric)));
    format!("{:.d$} [{:.d$}, {:.d$}] {}", value * k, ci.0 * k, ci.1 * k, unit_message(metric).render(lang))
}

/// A manifest value in the comparison's "what changed": as written, or absent.
pub fn manifest_value(value: &str) -> Message {
    if value == "(absent)" { Message::new("manifest-absent") } else { Message::new("as-written").text("text", value) }
}

/// A change or one of its bounds: `+9.5 %`, or `+0.12 pp` for the error rate.
pub(crate) fn change_value(metric: &str, x: f64) -> String {
    if is_absolute(metric) { format!("{:+.2} pp", x * 100.0) } else { format!("{:+.1} %", x * 100.0) }
}

/// The change with its interval: `+9.5 % [+7.4 %, +11.7 %]`.
pub fn change_cell(metric: &str, m: &MetricComparison) -> String {
    let c = &m.change;
    format!("{} [{}, {}]", change_value(metric, c.estimate), change_value(metric, c.ci_low), change_value(metric, c.ci_high))
}

/// The tolerance band: `±5.0 %`, or `±0.50 pp` for the error rate.
pub fn tolerance_cell(metric: &str, m: &MetricComparison) -> String {
    if is_absolute(metric) { format!("±{:.2} pp", m.tolerance * 100.0) } else { format!("±{:.1} %", m.tolerance * 100.0) }
}

/// The metrics in table order, with their comparisons.
pub fn ordered(c: &Comparison) -> Vec<(&str, &MetricComparison)> {
    let known = METRIC_ORDER.iter().filter_map(|k| c.metrics.get_key_value(*k));
    let others = c.metrics.iter().filter(|(k, _)| !METRIC_ORDER.contains(&k.as_str()));
    known.chain(others).map(|(k, m)| (k.as_str(), m)).collect()
}

/// The metrics whose runs are too short to measure dependence (`too_few_groups`), by that
/// number of groups, in metric order.
pub fn too_few_groups(c: &Comparison) -> Vec<(usize, Vec<&str>)> {
    let mut by_groups: Vec<(usize, Vec<&str>)> = Vec::new();
    for (name, g) in ordered(c).into_iter().filter_map(|(name, m)| m.too_few_groups.map(|g| (name, g))) {
        match by_groups.iter_mut().find(|(k, _)| *k == g) {
            Some((_, names)) => names.push(name),
            None => by_groups.push((g, vec![name])),
        }
    }
    by_groups
}

/// What would decide each inconclusive metric: the metrics whose runs are too short first,
/// then each metric's advice, then the metrics not compared (a run's value is a bound).
pub fn notes(c: &Comparison) -> Vec<Message> {
    let short = too_few_groups(c).into_iter().map(|(groups, names)| {
        Message::new("compare-too-few-groups")
            .list("metrics", names.iter().map(|n| metric_label(n)).collect(), Sep::And)
            .int("groups", groups)
            .int("min", MIN_WINDOWS_FOR_DEPENDENCE)
    });
    let advice = ordered(c).into_iter().filter_map(|(name, m)| {
        m.more_data.as_ref().map(|d| Message::new("compare-note").msg("metric", metric_label(name)).msg("advice", d.advice_message.clone()))
    });
    // A run's percentile beyond the timeouts is a bound: no change was computed from it.
    let censored = c.not_compared.keys().map(|name| Message::new("compare-not-compared").msg("metric", metric_label(name)));
    short.chain(advice).chain(censored).collect()
}

/// A decided change in the headline: `P50 TTFT +9.5 % [+7.4 %, +11.7 %] beyond ±5.0 % (29.69 → 32.50 ms)`.
fn decided_change(metric: &str, m: &MetricComparison) -> Message {
    let (k, d) = (scale(metric), arm_decimals(m, scale(metric)));
    let d = u8::try_from(d).unwrap_or(u8::MAX);
    Message::new("compare-decided")
        .msg("metric", metric_label(metric))
        .text("change", change_cell(metric, m))
        .text("tolerance", tolerance_cell(metric, m))
        .num("base", m.base * k, d)
        .num("cand", m.cand * k, d)
        .msg("unit", unit_message(metric))
}

/// The verdicts of one condition: `Regression: P50 TTFT +9.5 % [...] beyond ±5.0 % (29.69 →
/// 32.50 ms)`, then `1 metric equivalent, 6 inconclusive`; or `No regression or improvement
/// beyond tolerance: …`. `rows` are (metric, comparison with that condition's verdict and change).
fn verdicts_parts(rows: &[(&str, MetricComparison)], lead: &str, lower: bool) -> Vec<Message> {
    let lead = Message::new("compare-lead").text("condition", lead);
    let count = |v: Verdict| rows.iter().filter(|(_, m)| m.verdict == v).count();
    let mut parts = Vec::new();
    for v in [Verdict::Regression, Verdict::Improvement] {
        let changes: Vec<Message> = rows.iter().filter(|(_, m)| m.verdict == v).map(|(k, m)| decided_change(k, m)).collect();
        if !changes.is_empty() {
            let n = changes.len();
            parts.push(Message::new("compare-changes").text("verdict", verdict_key(v)).int("n", n).msg("lead", lead.clone()).list("changes", changes, Sep::Phrases));
        }
    }
    let others = Message::new("compare-others").int("equivalent", count(Verdict::Equivalent)).int("inconclusive", count(Verdict::Inconclusive));
    if parts.is_empty() {
        let lower = if lower { "yes" } else { "no" };
        parts.push(Message::new("compare-none-beyond").text("lower", lower).msg("lead", lead).msg("others", others));
    } else {
        parts.push(others);
    }
    parts
}

/// The rows of one condition: as measured, or each metric with its clean change and verdict.
pub(crate) fn condition_rows(c: &Comparison, condition: Deciding) -> Vec<(&str, MetricComparison)> {
    let measured = ordered(c);
    match (condition, &c.clean) {
        (Deciding::Clean, Some(clean)) => measured
            .into_iter()
            .filter_map(|(k, m)| {
                let cm = clean.metrics.get(k)?;
                Some((
                    k,
                    MetricComparison { change: cm.change.clone(), base: cm.base, cand: cm.cand, tolerance: cm.tolerance, verdict: cm.verdict, ..m.clone() },
                ))
            })
            .collect(),
        _ => measured.into_iter().map(|(k, m)| (k, m.clone())).collect(),
    }
}

fn condition_key(condition: Deciding) -> &'static str {
    match condition {
        Deciding::Clean => "clean",
        Deciding::AsMeasured => "measured",
    }
}

/// The other condition's verdicts in a few words: `as measured inconclusive`, or its decided
/// changes.
fn other_condition(rows: &[(&str, MetricComparison)], condition: Deciding) -> Message {
    let decided: Vec<Message> = rows
        .iter()
        .filter(|(_, m)| matches!(m.verdict, Verdict::Regression | Verdict::Improvement))
        .map(|(k, m)| Message::new("compare-other-change").msg("verdict", verdict_word(m.verdict)).msg("change", decided_change(k, m)))
        .collect();
    let condition = condition_key(condition);
    if decided.is_empty() {
        let count = |v: Verdict| rows.iter().filter(|(_, m)| m.verdict == v).count();
        Message::new("compare-other-counted")
            .text("condition", condition)
            .int("equivalent", count(Verdict::Equivalent))
            .int("inconclusive", count(Verdict::Inconclusive))
    } else {
        Message::new("compare-other-decided").text("condition", condition).list("changes", decided, Sep::Phrases)
    }
}

/// Why one condition decides, when episodes were excluded: how much of each arm they took.
fn decision_context(c: &Comparison) -> Option<Message> {
    let clean = c.clean.as_ref()?;
    let why = match c.decision.why {
        DecidingWhy::EpisodesAlike => "alike",
        DecidingWhy::EpisodesDiffer => "differ",
        DecidingWhy::NoEpisodes => return None,
    };
    Some(Message::new("compare-why").text("why", why).num("base", clean.excluded.base_share * 100.0, 0).num("cand", clean.excluded.cand_share * 100.0, 0))
}

/// The headline: the comparison's validity, then the deciding verdicts (regressions,
/// improvements, the others counted), both conditions' when they differ, and the credibility,
/// in one sentence. `arms` is (base, candidate).
pub fn headline(c: &Comparison, grade: Grade, arms: (&Credibility, &Credibility)) -> Message {
    let mut parts = Vec::new();
    if !c.valid {
        parts.push(Message::new("compare-invalid").arg("gates", failed_gates(c)));
    }
    let deciding = c.decision.deciding;
    if c.decision.verdicts_differ {
        let other = match deciding {
            Deciding::Clean => Deciding::AsMeasured,
            Deciding::AsMeasured => Deciding::Clean,
        };
        parts.extend(verdicts_parts(&condition_rows(c, deciding), condition_key(deciding), false));
        parts.push(other_condition(&condition_rows(c, other), other));
        parts.extend(decision_context(c));
    } else {
        parts.extend(verdicts_parts(&condition_rows(c, deciding), "none", !c.valid));
    }
    parts.push(Message::new("compare-credibility").msg("grade", self::grade(grade)).msg("note", credibility_note(c, arms)));
    Message::new("compare-headline").list("parts", parts, Sep::Semicolon)
}

/// Which direction the headline leads with, for its colour: the first of regression,
/// improvement, inconclusive that any deciding verdict has, else equivalent.
pub fn lead_verdict(c: &Comparison) -> Verdict {
    let verdicts = c.verdicts(None);
    [Verdict::Regression, Verdict::Improvement, Verdict::Inconclusive].into_iter().find(|v| verdicts.values().any(|x| x == v)).unwrap_or(Verdict::Equivalent)
}

/// The gates that did not pass, named: `same_workload.input_lengths FAIL`.
fn failed_gates(c: &Comparison) -> credence_messages::Arg {
    let failed: Vec<Message> = c.gates.iter().filter(|g| g.status == "FAIL").map(|g| Message::new("compare-gate-failed").msg("gate", gate_name(&g.name))).collect();
    if failed.is_empty() {
        credence_messages::Arg::Msg(Box::new(Message::new("compare-a-gate-failed")))
    } else {
        credence_messages::Arg::List { items: failed, sep: Sep::Enumeration }
    }
}

/// The replication and, when an arm is LOW, its failed checks: `single runs`.
fn credibility_note(c: &Comparison, (base, cand): (&Credibility, &Credibility)) -> Message {
    let runs = runs_message("compare-runs", c);
    let failed: Vec<Message> = [("base", base), ("cand", cand)]
        .iter()
        .flat_map(|(arm, cr)| {
            cr.checks.iter().filter(|k| k.status == CheckStatus::Fail).map(move |k| Message::new("compare-arm-check").text("arm", *arm).msg("check", check_name(k, "raw")))
        })
        .collect();
    if failed.is_empty() { runs } else { Message::new("compare-runs-failed").msg("runs", runs).list("checks", failed, Sep::Enumeration) }
}

/// A validity gate's name in running text: its identifier in English, words in Chinese
/// (`steady_state.RUN` keeps its run).
fn gate_name(name: &str) -> Message {
    let (gate, run) = match name.split_once('.') {
        Some(("steady_state", run)) => ("steady_state".to_string(), run),
        _ => (name.replace('.', "-"), ""),
    };
    Message::new("gate-name").text("gate", gate).text("run", run).text("name", name)
}

/// `id` with the runs per arm: single runs, or how many of each.
fn runs_message(id: &str, c: &Comparison) -> Message {
    let single = c.base_runs.len() == 1 && c.cand_runs.len() == 1;
    Message::new(id).text("single", if single { "yes" } else { "no" }).int("base", c.base_runs.len()).int("cand", c.cand_runs.len())
}

/// The validity gates in one line: `Validity gates: 6 PASS, 1 WARN (replication: …).`
pub fn gates_line(c: &Comparison) -> Message {
    let count = |s: &str| c.gates.iter().filter(|g| g.status == s).count();
    let tally: Vec<Message> =
        ["PASS", "WARN", "FAIL", "NOT_CHECKED"].iter().filter(|s| count(s) > 0).map(|s| Message::new("compare-gate-count").int("n", count(s)).msg("status", status(s))).collect();
    let not_passed: Vec<Message> = c
        .gates
        .iter()
        .filter(|g| g.status != "PASS")
        .map(|g| Message::new("compare-gate-detail").msg("gate", gate_name(&g.name)).msg("status", status(&g.status)).msg("reason", g.message.clone()))
        .collect();
    let tally = if tally.is_empty() { credence_messages::Arg::Msg(Box::new(Message::new("compare-no-gates"))) } else { credence_messages::Arg::List { items: tally, sep: Sep::Comma } };
    let details = if not_passed.is_empty() { Message::new("empty") } else { Message::new("compare-gates-details").list("items", not_passed, Sep::Semicolon) };
    Message::new("compare-gates").arg("tally", tally).msg("details", details)
}

/// The comparison's credibility in a few sentences: its grade is the weaker arm's, how many
/// gates pass, what replication allows, and what changed between the manifests.
pub fn credibility_summary(c: &Comparison, g: Grade) -> Message {
    let passed = c.gates.iter().filter(|g| g.status == "PASS").count();
    let changed = match c.what_changed.as_slice() {
        [d] => Message::new("compare-changed").int("n", 1).text("key", &d.key).msg("base", manifest_value(&d.base)).msg("cand", manifest_value(&d.cand)),
        many => {
            let keys: Vec<String> = many.iter().map(|d| d.key.clone()).collect();
            Message::new("compare-changed").int("n", many.len()).list("keys", identifiers(&keys), Sep::Comma)
        }
    };
    Message::new("compare-summary")
        .msg("grade", grade(g))
        .int("passed", passed)
        .int("gates", c.gates.len())
        .msg("replication", runs_message("compare-replication", c))
        .msg("changed", changed)
}

/// One arm in one line: `Base (base): MEDIUM; 16 of 18 checks pass; WARN: interval_width, replication.`
pub fn arm_line(arm: &str, runs: &[String], cr: &Credibility) -> Message {
    let passed = cr.checks.iter().filter(|k| k.status == CheckStatus::Pass).count();
    let statuses: Vec<Message> = [CheckStatus::Fail, CheckStatus::Warn, CheckStatus::NotChecked]
        .into_iter()
        .filter_map(|s| {
            let names: Vec<Message> = cr.checks.iter().filter(|k| k.status == s).map(|k| check_name(k, "raw")).collect();
            (!names.is_empty()).then(|| Message::new("compare-arm-status").msg("status", status(s.label())).list("names", names, Sep::Enumeration))
        })
        .collect();
    let statuses = if statuses.is_empty() { Message::new("empty") } else { Message::new("compare-arm-statuses").list("items", statuses, Sep::Semicolon) };
    Message::new("compare-arm")
        .text("arm", arm)
        .list("runs", identifiers(runs), Sep::Enumeration)
        .msg("grade", grade(cr.grade))
        .int("passed", passed)
        .int("checks", cr.checks.len())
        .msg("statuses", statuses)
}

/// The details' first line: the runs, the replication and the method.
pub fn details(c: &Comparison) -> Message {
    let first = c.metrics.values().next();
    Message::new("compare-details")
        .text("valid", if c.valid { "yes" } else { "no" })
        .list("base", identifiers(&c.base_runs), Sep::Enumeration)
        .list("cand", identifiers(&c.cand_runs), Sep::Enumeration)
        .msg("replication", runs_message("compare-replication-short", c))
        .msg("method", method_name(first.map_or("", |m| m.change.method)))
        .int("resamples", first.map_or(0, |m| m.change.resamples))
        .int("seed", first.map_or(0, |m| m.change.seed))
}

/// A measured environment field as a reader says it, with its unit: (label, scale, unit).
fn environment_label(field: &str) -> (String, f64, &'static str) {
    const GIB: f64 = 1024.0 * 1024.0 * 1024.0;
    match field {
        "gpu_temp_at_start_c" => ("GPU temperature at start".into(), 1.0, "°C"),
        "host_memory_used_bytes" => ("host memory in use".into(), 1.0 / GIB, "GiB"),
        "gpu_memory_used_bytes" => ("GPU memory in use".into(), 1.0 / GIB, "GiB"),
        "gpu_cooling_down" => ("GPU still cooling down".into(), 1.0, ""),
        "foreign_gpu_processes" => ("other processes on the GPU".into(), 1.0, ""),
        other => (other.replace('_', " "), 1.0, ""),
    }
}

/// One measured value in its unit: `38 °C`, `14.00 GiB`; other values as recorded.
fn environment_value(raw: &str, scale: f64, unit: &str) -> String {
    match raw.parse::<f64>() {
        Ok(x) if !unit.is_empty() && (x * scale).fract() == 0.0 => format!("{:.0} {unit}", x * scale),
        Ok(x) if !unit.is_empty() => format!("{} {unit}", credence_run::text::significant(x * scale, 3)),
        _ => raw.to_string(),
    }
}

/// The measured environment values that differ between the arms, as (what, base, candidate):
/// `GPU temperature at start`, `38 °C`, `61 °C`.
pub fn environment_rows(c: &Comparison) -> Vec<[String; 3]> {
    c.environment_changed
        .iter()
        .map(|d| {
            let field = d.key.strip_prefix("environment.").unwrap_or(&d.key).trim_end_matches(".value");
            let (label, scale, unit) = environment_label(field);
            [label, environment_value(&d.base, scale, unit), environment_value(&d.cand, scale, unit)]
        })
        .collect()
}

/// The arms' names in the per-arm lines and check sets.
pub fn arm_names() -> (&'static str, &'static str) {
    ("Base", "Candidate")
}

#[cfg(test)]
mod tests {
    use super::*;
    use credence_analyze::compare::gate_reason::GateReason;
    use credence_analyze::compare::verdict::Better;
    use credence_analyze::compare::{ArmVariance, ChangeInterval, Gate, VarianceComponents};
    use credence_analyze::credibility::{Check, GRADE_RULE};

    /// A metric of a hand-built comparison: `base` → `cand` with a ±1 % arm interval.
    fn metric(base: f64, cand: f64, ci: (f64, f64), verdict: Verdict) -> MetricComparison {
        let vc = VarianceComponents { runs: 1, between: None, within: 1e-4, between_share: None };
        MetricComparison {
            change: ChangeInterval {
                estimate: cand / base - 1.0,
                ci_low: ci.0,
                ci_high: ci.1,
                confidence: 0.95,
                method: "paired_block_bootstrap_log_ratio",
                seed: 7,
                resamples: 999,
                df: None,
            },
            change_90: ci,
            tolerance: 0.05,
            verdict,
            better: Better::Lower,
            base,
            cand,
            base_ci: (base * 0.99, base * 1.01),
            cand_ci: (cand * 0.99, cand * 1.01),
            n_base: 1000,
            n_cand: 1000,
            variance: ArmVariance { base: vc, cand: vc },
            pooled: None,
            run_spread: None,
            more_data: None,
            reason: None,
            too_few_groups: None,
            secondary: None,
        }
    }

    fn comparison(valid: bool) -> Comparison {
        let metrics = [
            ("ttft_p50", metric(150.2, 164.5, (0.074, 0.117), Verdict::Regression)),
            ("ttft_p99", metric(400.0, 480.0, (0.12, 0.28), Verdict::Regression)),
            ("tpot_p50", metric(20.0, 17.0, (-0.2, -0.1), Verdict::Improvement)),
            ("e2e_p50", metric(900.0, 901.0, (-0.02, 0.02), Verdict::Equivalent)),
            ("e2e_p99", metric(2000.0, 2100.0, (-0.05, 0.15), Verdict::Inconclusive)),
        ];
        Comparison {
            valid,
            gates: vec![Gate::new("same_workload.input_lengths", if valid { "PASS" } else { "FAIL" }, GateReason::Text("KS".into()))],
            base_runs: vec!["b".into()],
            cand_runs: vec!["c".into()],
            left_out: Vec::new(),
            between_run_prior: credence_analyze::compare::pooled::DEFAULT_PRIOR,
            metrics: metrics.into_iter().map(|(k, m)| (k.to_string(), m)).collect(),
            not_compared: Default::default(),
            what_changed: Vec::new(),
            environment_changed: Vec::new(),
            adapters: Vec::new(),
            replication: "single-run".into(),
            clean: None,
            decision: credence_analyze::compare::decision::decide(&Default::default(), None),
            headline: None,
            headline_message: None,
        }
    }

    fn credibility(grade: Grade, failed: Option<&str>) -> Credibility {
        let checks = failed.map(|n| Check::plain(credence_analyze::credibility::CheckId::parse(n), CheckStatus::Fail, "x")).into_iter().collect();
        Credibility { grade, grade_rule: GRADE_RULE, runs: 1, checks, half_widths: Vec::new(), statement: String::new(), statement_message: Default::default() }
    }

    #[test]
    fn the_headline_names_every_regression_then_every_improvement_with_numbers() {
        let (b, c) = (credibility(Grade::Medium, None), credibility(Grade::Medium, None));
        let h = headline(&comparison(true), Grade::Medium, (&b, &c)).render(Lang::En);
        assert_eq!(
            h,
            "Regressions: P50 TTFT +9.5 % [+7.4 %, +11.7 %] beyond ±5.0 % (150.2 → 164.5 ms), \
             P99 TTFT +20.0 % [+12.0 %, +28.0 %] beyond ±5.0 % (400.0 → 480.0 ms); \
             Improvement: P50 TPOT -15.0 % [-20.0 %, -10.0 %] beyond ±5.0 % (20.00 → 17.00 ms); \
             1 metric equivalent, 1 inconclusive; credibility MEDIUM (single runs)."
        );
        assert_eq!(lead_verdict(&comparison(true)), Verdict::Regression);
    }

    #[test]
    fn an_invalid_comparison_and_a_failed_check_lead_the_headline() {
        let (b, c) = (credibility(Grade::Low, Some("steady_state")), credibility(Grade::Medium, None));
        let mut cmp = comparison(false);
        cmp.metrics.retain(|k, _| k.starts_with("e2e"));
        let h = headline(&cmp, Grade::Low, (&b, &c)).render(Lang::En);
        assert_eq!(
            h,
            "Invalid comparison (same_workload.input_lengths FAIL); no regression or improvement beyond tolerance: \
             1 metric equivalent, 1 inconclusive; credibility LOW (single runs; failed: base steady_state)."
        );
        assert_eq!(gates_line(&cmp).render(Lang::En), "Validity gates: 1 FAIL (same_workload.input_lengths FAIL: KS).");
    }

    #[test]
    fn cells_carry_their_units_and_intervals() {
        let m = metric(150.2, 164.5, (0.074, 0.117), Verdict::Regression);
        assert_eq!(arm_cell("ttft_p50", &m, m.base, m.base_ci, Lang::En), "150.2 [148.7, 151.7] ms");
        assert_eq!(change_cell("ttft_p50", &m), "+9.5 % [+7.4 %, +11.7 %]");
        assert_eq!(tolerance_cell("ttft_p50", &m), "±5.0 %");
        let mut e = metric(0.01, 0.02, (0.002, 0.018), Verdict::Inconclusive);
        (e.tolerance, e.change.estimate, e.base_ci, e.cand_ci) = (0.005, 0.01, (0.006, 0.015), (0.015, 0.026));
        assert_eq!(change_cell("error_rate", &e), "+1.00 pp [+0.20 pp, +1.80 pp]");
        assert_eq!(tolerance_cell("error_rate", &e), "±0.50 pp");
        assert_eq!(arm_cell("error_rate", &e, e.cand, e.cand_ci, Lang::En), "2.00 [1.50, 2.60] %");
        let t = metric(742.0, 726.0, (-0.066, 0.023), Verdict::Inconclusive);
        assert_eq!(arm_cell("output_tokens_per_s", &t, t.base, t.base_ci, Lang::En), "742.0 [734.6, 749.4] tokens/s");
    }

    #[test]
    fn metric_labels_read_as_spoken() {
        let label = |m: &str| metric_label(m).render(Lang::En);
        assert_eq!(label("ttft_p50"), "P50 TTFT");
        assert_eq!(label("e2e_p999"), "P99.9 E2E");
        assert_eq!(label("output_tokens_per_s"), "output tokens/s");
        assert_eq!(label("error_rate"), "error rate");
        assert_eq!(label("something_else"), "something_else");
        assert_eq!(metric_label("ttft_p99").render(Lang::Zh), "P99 TTFT");
    }
}
