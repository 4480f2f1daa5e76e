//! The words of a comparison's top part: the headline sentence, the verdict table's header and
//! cells, the validity gates in one line, and the credibility summary. Every English word the
//! top part shows comes from a function here, and each takes the comparison's serialized data,
//! so that a message catalog (`--lang`) can replace these functions without touching the
//! layouts. Numbers come from the compare JSON only (`Comparison`), formatted by `format.rs`.

use super::format::decimals_for;
use credence_analyze::compare::decision::{Deciding, DecidingWhy};
use credence_analyze::compare::verdict::Verdict;
use credence_analyze::compare::{Comparison, MetricComparison};
use credence_analyze::credibility::{CheckStatus, Credibility, Grade};

/// The compared metrics in the order the table lists them; any other metric follows by name.
pub const METRIC_ORDER: [&str; 9] =
    ["ttft_p50", "ttft_p99", "tpot_p50", "tpot_p99", "e2e_p50", "e2e_p99", "output_tokens_per_s", "requests_per_s", "error_rate"];

/// The error rate's change is absolute (percentage points); every other change is relative.
fn is_absolute(metric: &str) -> bool {
    metric == "error_rate"
}

/// A metric's name as a reader says it: `P50 TTFT`, `output tokens/s`.
pub fn metric_label(metric: &str) -> String {
    fn family(m: &str) -> &str {
        match m {
            "ttft" => "TTFT",
            "tpot" => "TPOT",
            "e2e" => "E2E",
            "itl" => "ITL",
            other => other,
        }
    }
    match metric {
        "output_tokens_per_s" => "output tokens/s".into(),
        "requests_per_s" => "requests/s".into(),
        "error_rate" => "error rate".into(),
        _ => match metric.rsplit_once("_p") {
            Some((m, p)) if p.chars().all(|c| c.is_ascii_digit()) && !p.is_empty() => format!("{} {}", percentile_label(p), family(m)),
            _ => metric.to_string(),
        },
    }
}

/// `50` → `P50`, `999` → `P99.9`.
fn percentile_label(digits: &str) -> String {
    match digits.len() {
        3.. => format!("P{}.{}", &digits[..2], &digits[2..]),
        _ => format!("P{digits}"),
    }
}

/// The unit a metric's values are shown in.
pub(crate) fn unit(metric: &str) -> &'static str {
    match metric {
        "output_tokens_per_s" => "tokens/s",
        "requests_per_s" => "requests/s",
        "error_rate" => "%",
        _ => "ms",
    }
}

/// The verdict as a word.
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Regression => "regression",
        Verdict::Improvement => "improvement",
        Verdict::Equivalent => "equivalent",
        Verdict::Inconclusive => "inconclusive",
    }
}

/// The verdict table's column names.
pub fn table_header() -> [String; 6] {
    ["metric", "base [95 % CI]", "candidate [95 % CI]", "change [95 % CI]", "tolerance", "verdict"].map(String::from)
}

/// What the table's intervals are, in one line under it.
pub fn table_note(c: &Comparison) -> String {
    let m = c.metrics.values().find(|m| m.change.resamples > 0);
    format!(
        "Base and candidate: each arm's statistic with its 95 % interval, from the same variance model as the change ({}: within-run block bootstrap of {} resamples, seed {}; Wilson for the error rate). Tolerance τ: the one asked for (the spread of the runs is in the interval, never in τ). Verdict: regression or improvement when the 95 % interval lies beyond ±τ; equivalent when the 90 % interval lies within it; inconclusive otherwise.",
        m.map_or("", |m| m.change.method),
        m.map_or(0, |m| m.change.resamples),
        m.map_or(0, |m| m.change.seed),
    )
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
pub fn arm_cell(metric: &str, m: &MetricComparison, value: f64, ci: (f64, f64)) -> String {
    let (k, d) = (scale(metric), arm_decimals(m, scale(metric)));
    format!("{:.d$} [{:.d$}, {:.d$}] {}", value * k, ci.0 * k, ci.1 * k, unit(metric))
}

/// A change or one of its bounds: `+9.5 %`, or `+0.12 pp` for the error rate.
fn change_value(metric: &str, x: f64) -> String {
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

/// A decided change in the headline: `P50 TTFT +9.5 % [+7.4 %, +11.7 %] beyond ±5.0 % (29.69 → 32.50 ms)`.
fn decided_change(metric: &str, m: &MetricComparison) -> String {
    let (k, d) = (scale(metric), arm_decimals(m, scale(metric)));
    format!(
        "{} {} beyond {} ({:.d$} → {:.d$} {})",
        metric_label(metric),
        change_cell(metric, m),
        tolerance_cell(metric, m),
        m.base * k,
        m.cand * k,
        unit(metric)
    )
}

/// The verdicts of one condition, in words: `Regression: P50 TTFT +9.5 % [...] beyond ±5.0 %
/// (29.69 → 32.50 ms); 1 metric equivalent, 6 inconclusive`, or `No regression or improvement
/// beyond tolerance: …`. `rows` are (metric, comparison with that condition's verdict and change).
fn verdicts_words(rows: &[(&str, MetricComparison)], lead: &str) -> String {
    let with = |v: Verdict| rows.iter().filter(|(_, m)| m.verdict == v).map(|(k, m)| decided_change(k, m)).collect::<Vec<_>>();
    let count = |v: Verdict| rows.iter().filter(|(_, m)| m.verdict == v).count();
    let mut parts = Vec::new();
    for (v, one, many) in [(Verdict::Regression, "Regression", "Regressions"), (Verdict::Improvement, "Improvement", "Improvements")] {
        let changes = with(v);
        if !changes.is_empty() {
            parts.push(format!("{}{lead}: {}", if changes.len() == 1 { one } else { many }, changes.join(", ")));
        }
    }
    let (equivalent, inconclusive) = (count(Verdict::Equivalent), count(Verdict::Inconclusive));
    let others = format!("{equivalent} {} equivalent, {inconclusive} inconclusive", if equivalent == 1 { "metric" } else { "metrics" });
    if parts.is_empty() {
        parts.push(format!("No regression or improvement beyond tolerance{lead}: {others}"));
    } else {
        parts.push(others);
    }
    parts.join("; ")
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

/// The other condition's verdicts in a few words: `as measured inconclusive`, or its decided
/// changes.
fn other_condition_words(rows: &[(&str, MetricComparison)], name: &str) -> String {
    let decided: Vec<String> = rows
        .iter()
        .filter(|(_, m)| matches!(m.verdict, Verdict::Regression | Verdict::Improvement))
        .map(|(k, m)| format!("{} {}", verdict_word(m.verdict), decided_change(k, m)))
        .collect();
    if decided.is_empty() {
        let count = |v: Verdict| rows.iter().filter(|(_, m)| m.verdict == v).count();
        let (equivalent, inconclusive) = (count(Verdict::Equivalent), count(Verdict::Inconclusive));
        let word = if equivalent == 0 {
            "inconclusive".to_string()
        } else if inconclusive == 0 {
            "equivalent".to_string()
        } else {
            format!("{equivalent} equivalent, {inconclusive} inconclusive")
        };
        format!("{name} {word}")
    } else {
        format!("{name}: {}", decided.join(", "))
    }
}

/// Why one condition decides, when episodes were excluded: how much of each arm they took.
fn decision_context(c: &Comparison) -> Option<String> {
    let clean = c.clean.as_ref()?;
    let (b, cd) = (clean.excluded.base_share * 100.0, clean.excluded.cand_share * 100.0);
    Some(match c.decision.why {
        DecidingWhy::EpisodesAlike => {
            format!("both arms spent about the same share of their windows in episodes (base {b:.0} %, candidate {cd:.0} %), so the clean verdict decides")
        }
        DecidingWhy::EpisodesDiffer => format!(
            "episodes took {cd:.0} % of the candidate's window and {b:.0} % of the base's: the switch may have caused them, so the as-measured verdict decides"
        ),
        DecidingWhy::NoEpisodes => return None,
    })
}

/// The headline: the comparison's validity, then the deciding verdicts (regressions,
/// improvements, the others counted), both conditions' when they differ, and the credibility,
/// in one sentence. `arms` is (base, candidate).
pub fn headline(c: &Comparison, grade: Grade, arms: (&Credibility, &Credibility)) -> String {
    let mut parts = Vec::new();
    if !c.valid {
        parts.push(format!("Invalid comparison ({})", failed_gates(c)));
    }
    let deciding = c.decision.deciding;
    if c.decision.verdicts_differ {
        let (lead, other, other_name) = match deciding {
            Deciding::Clean => (" in clean conditions", Deciding::AsMeasured, "as measured"),
            Deciding::AsMeasured => (" as measured", Deciding::Clean, "in clean conditions"),
        };
        parts.push(verdicts_words(&condition_rows(c, deciding), lead));
        parts.push(other_condition_words(&condition_rows(c, other), other_name));
        parts.extend(decision_context(c));
    } else {
        parts.push(verdicts_words(&condition_rows(c, deciding), ""));
    }
    if !c.valid && parts.len() == 2 && parts[1].starts_with("No regression") {
        parts[1] = lower_first(&parts[1]);
    }
    parts.push(format!("credibility {} ({})", grade.label(), credibility_note(c, arms)));
    parts.join("; ") + "."
}

/// `No regression` → `no regression`, after an earlier clause.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or(String::new(), |f| f.to_lowercase().collect::<String>() + chars.as_str())
}

/// Which direction the headline leads with, for its colour: the first of regression,
/// improvement, inconclusive that any deciding verdict has, else equivalent.
pub fn lead_verdict(c: &Comparison) -> Verdict {
    let verdicts = c.verdicts(None);
    [Verdict::Regression, Verdict::Improvement, Verdict::Inconclusive].into_iter().find(|v| verdicts.values().any(|x| x == v)).unwrap_or(Verdict::Equivalent)
}

/// The gates that did not pass, named: `same_workload.input_lengths FAIL`.
fn failed_gates(c: &Comparison) -> String {
    let failed: Vec<String> = c.gates.iter().filter(|g| g.status == "FAIL").map(|g| format!("{} FAIL", g.name)).collect();
    if failed.is_empty() { "a validity gate failed".into() } else { failed.join(", ") }
}

/// The replication and, when an arm is LOW, its failed checks: `single runs`.
fn credibility_note(c: &Comparison, (base, cand): (&Credibility, &Credibility)) -> String {
    let runs = if c.base_runs.len() == 1 && c.cand_runs.len() == 1 {
        "single runs".to_string()
    } else {
        format!("{} base and {} candidate runs", c.base_runs.len(), c.cand_runs.len())
    };
    let failed: Vec<String> = [("base", base), ("candidate", cand)]
        .iter()
        .flat_map(|(arm, cr)| cr.checks.iter().filter(|k| k.status == CheckStatus::Fail).map(move |k| format!("{arm} {}", k.name)))
        .collect();
    if failed.is_empty() { runs } else { format!("{runs}; failed: {}", failed.join(", ")) }
}

/// The validity gates in one line: `Validity gates: 6 PASS, 1 WARN (replication: …).`
pub fn gates_line(c: &Comparison) -> String {
    let count = |s: &str| c.gates.iter().filter(|g| g.status == s).count();
    let tally: Vec<String> = ["PASS", "WARN", "FAIL", "NOT_CHECKED"].iter().filter(|s| count(s) > 0).map(|s| format!("{} {s}", count(s))).collect();
    let not_passed: Vec<String> = c.gates.iter().filter(|g| g.status != "PASS").map(|g| format!("{} {}: {}", g.name, g.status, g.reason)).collect();
    let tally = if tally.is_empty() { "none".to_string() } else { tally.join(", ") };
    if not_passed.is_empty() { format!("Validity gates: {tally}.") } else { format!("Validity gates: {tally} ({}).", not_passed.join("; ")) }
}

/// The comparison's credibility in a few sentences: its grade is the weaker arm's, how many
/// gates pass, what replication allows, and what changed between the manifests.
pub fn credibility_summary(c: &Comparison, grade: Grade) -> String {
    let passed = c.gates.iter().filter(|g| g.status == "PASS").count();
    let replication = if c.base_runs.len() == 1 && c.cand_runs.len() == 1 {
        "One run per arm: run-to-run noise is unmeasured, so the environment alone could move a metric this much; repeat each arm at least 3 times.".to_string()
    } else {
        format!("{} base and {} candidate runs: run-to-run noise is measured and part of every interval.", c.base_runs.len(), c.cand_runs.len())
    };
    let changed = match c.what_changed.as_slice() {
        [] => "The manifests do not differ.".to_string(),
        [d] => format!("Between the manifests only {} changed: {} → {}.", d.key, d.base, d.cand),
        many => format!("Between the manifests {} fields changed: {}.", many.len(), many.iter().map(|d| d.key.as_str()).collect::<Vec<_>>().join(", ")),
    };
    format!("The comparison is as credible as its weaker arm: {}. {passed} of {} validity gates pass. {replication} {changed}", grade.label(), c.gates.len())
}

/// One arm in one line: `Base (base): MEDIUM; 16 of 18 checks pass; WARN: interval_width, replication.`
pub fn arm_line(arm: &str, runs: &[String], cr: &Credibility) -> String {
    let passed = cr.checks.iter().filter(|k| k.status == CheckStatus::Pass).count();
    let mut line = format!("{arm} ({}): {}; {passed} of {} checks pass", runs.join(", "), cr.grade.label(), cr.checks.len());
    for status in [CheckStatus::Fail, CheckStatus::Warn, CheckStatus::NotChecked] {
        let names: Vec<&str> = cr.checks.iter().filter(|k| k.status == status).map(|k| k.name.as_str()).collect();
        if !names.is_empty() {
            line += &format!("; {}: {}", status.label(), names.join(", "));
        }
    }
    line + "."
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
            what_changed: Vec::new(),
            environment_changed: Vec::new(),
            replication: "single-run".into(),
            clean: None,
            decision: credence_analyze::compare::decision::decide(&Default::default(), None),
            headline: None,
        }
    }

    fn credibility(grade: Grade, failed: Option<&str>) -> Credibility {
        let checks = failed.map(|n| Check::plain(n, CheckStatus::Fail, "x")).into_iter().collect();
        Credibility { grade, grade_rule: GRADE_RULE, runs: 1, checks, half_widths: Vec::new(), statement: String::new(), statement_message: Default::default() }
    }

    #[test]
    fn the_headline_names_every_regression_then_every_improvement_with_numbers() {
        let (b, c) = (credibility(Grade::Medium, None), credibility(Grade::Medium, None));
        let h = headline(&comparison(true), Grade::Medium, (&b, &c));
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
        let h = headline(&cmp, Grade::Low, (&b, &c));
        assert_eq!(
            h,
            "Invalid comparison (same_workload.input_lengths FAIL); no regression or improvement beyond tolerance: \
             1 metric equivalent, 1 inconclusive; credibility LOW (single runs; failed: base steady_state)."
        );
        assert_eq!(gates_line(&cmp), "Validity gates: 1 FAIL (same_workload.input_lengths FAIL: KS).");
    }

    #[test]
    fn cells_carry_their_units_and_intervals() {
        let m = metric(150.2, 164.5, (0.074, 0.117), Verdict::Regression);
        assert_eq!(arm_cell("ttft_p50", &m, m.base, m.base_ci), "150.2 [148.7, 151.7] ms");
        assert_eq!(change_cell("ttft_p50", &m), "+9.5 % [+7.4 %, +11.7 %]");
        assert_eq!(tolerance_cell("ttft_p50", &m), "±5.0 %");
        let mut e = metric(0.01, 0.02, (0.002, 0.018), Verdict::Inconclusive);
        (e.tolerance, e.change.estimate, e.base_ci, e.cand_ci) = (0.005, 0.01, (0.006, 0.015), (0.015, 0.026));
        assert_eq!(change_cell("error_rate", &e), "+1.00 pp [+0.20 pp, +1.80 pp]");
        assert_eq!(tolerance_cell("error_rate", &e), "±0.50 pp");
        assert_eq!(arm_cell("error_rate", &e, e.cand, e.cand_ci), "2.00 [1.50, 2.60] %");
        let t = metric(742.0, 726.0, (-0.066, 0.023), Verdict::Inconclusive);
        assert_eq!(arm_cell("output_tokens_per_s", &t, t.base, t.base_ci), "742.0 [734.6, 749.4] tokens/s");
    }

    #[test]
    fn metric_labels_read_as_spoken() {
        assert_eq!(metric_label("ttft_p50"), "P50 TTFT");
        assert_eq!(metric_label("e2e_p999"), "P99.9 E2E");
        assert_eq!(metric_label("output_tokens_per_s"), "output tokens/s");
        assert_eq!(metric_label("error_rate"), "error rate");
        assert_eq!(metric_label("something_else"), "something_else");
    }
}
