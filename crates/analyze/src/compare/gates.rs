//! Validity gates checked before any verdict: same workload, what changed, steady state,
//! replication and drift; plus the error-rate comparison.

use credence_messages::{Lang, Message};
use serde::Serialize;

use super::change::VarianceComponents;
use super::gate_reason::{GateReason, Load};
use super::verdict::{Better, Verdict, decide, more_data_factor};
use super::{ArmRun, ArmVariance, ChangeInterval, CompareOptions, MetricComparison};
use crate::plan::advice::more_requests_plan;
use credence_stats::ks::ks_2samp;
use credence_stats::wilson::wilson_interval;

/// One gate: PASS, WARN or FAIL with a reason.
#[derive(Debug, Clone, Serialize)]
pub struct Gate {
    pub name: String,
    pub status: String,
    /// `message` in English.
    pub reason: String,
    /// The reason as a message, which every report language renders.
    pub message: Message,
    /// The reason as data (tests read it).
    #[serde(skip)]
    pub why: GateReason,
}

impl Gate {
    pub fn new(name: impl Into<String>, status: &str, why: GateReason) -> Gate {
        let message = why.message();
        Gate { name: name.into(), status: status.into(), reason: message.render(Lang::En), message, why }
    }
}

/// A manifest field that differs between the arms.
#[derive(Debug, Clone, Serialize)]
pub struct Difference {
    pub key: String,
    pub base: String,
    pub cand: String,
}

/// KS D above which two length distributions count as different workloads.
const WORKLOAD_D: f64 = 0.1;

fn lengths(arm: &[ArmRun<'_>], output: bool) -> Vec<f64> {
    arm.iter()
        .flat_map(|r| {
            let s = &r.analysis.steady_state;
            let col = if output { &r.view.output_tokens } else { &r.view.input_tokens };
            (s.start_request..s.end_request).map(move |i| f64::from(col[i])).filter(|v| v.is_finite() && *v > 0.0)
        })
        .collect()
}

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| flatten(&format!("{prefix}.{k}"), x, out)),
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

/// Same input and output length distributions (two-sample KS); the bool says whether both match.
fn length_gates(base: &[ArmRun<'_>], cand: &[ArmRun<'_>]) -> (Vec<Gate>, bool) {
    let mut gates = Vec::new();
    let mut workload_ok = true;
    for (output, label) in [(false, "input"), (true, "output")] {
        let (b, c) = (lengths(base, output), lengths(cand, output));
        match ks_2samp(&b, &c) {
            Some(ks) => {
                let mismatch = ks.d > WORKLOAD_D && ks.p < 0.01;
                workload_ok &= !mismatch;
                let why = GateReason::Lengths { d: ks.d, limit: WORKLOAD_D, p: ks.p };
                gates.push(Gate::new(format!("same_workload.{label}_lengths"), if mismatch { "FAIL" } else { "PASS" }, why));
            }
            None => gates.push(Gate::new(format!("same_workload.{label}_lengths"), "NOT_CHECKED", GateReason::NoTokenCounts)),
        }
    }
    (gates, workload_ok)
}

/// Same arrival process, rate (within 5 %), concurrency and streaming; the bool says whether they match.
fn arrival_gate(wb: &credence_run::manifest::Workload, wc: &credence_run::manifest::Workload) -> (Gate, bool) {
    let rate_close = match (wb.rate_per_s, wc.rate_per_s) {
        (Some(a), Some(b)) => (a / b - 1.0).abs() <= 0.05,
        (None, None) => true,
        _ => false,
    };
    let same = wb.arrival == wc.arrival && rate_close && wb.concurrency == wc.concurrency && wb.streaming == wc.streaming;
    let why = GateReason::Arrival { base: Load::of(wb), cand: Load::of(wc) };
    let gate = Gate::new("same_workload.arrival", if same { "PASS" } else { "FAIL" }, why);
    (gate, same)
}

/// The environment fields that record software versions: configuration, not measurement.
const SOFTWARE_VERSIONS: [&str; 5] = ["driver_version", "cuda_version", "nvml_version", "engine_version", "kernel"];

/// Whether a flattened `environment.<field>.value` key names a software version.
fn is_software_version(key: &str) -> bool {
    key.strip_prefix("environment.").and_then(|k| k.split('.').next()).is_some_and(|f| SOFTWARE_VERSIONS.contains(&f))
}

/// A manifest as flat `key = value` pairs (notes left out): its configuration (labels, config,
/// the workload but its planned duration, and the software versions) with `configuration`,
/// else the measured environment (temperatures, memory in use, processes, clock settings).
fn manifest_fields(m: &credence_run::Manifest, configuration: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if configuration {
        flatten("config", &serde_json::to_value(&m.config).unwrap_or_default(), &mut out);
        flatten("labels", &serde_json::to_value(&m.labels).unwrap_or_default(), &mut out);
        flatten("workload", &serde_json::to_value(&m.workload).unwrap_or_default(), &mut out);
        out.retain(|(k, _)| k != "workload.duration_s");
    }
    let mut environment = Vec::new();
    flatten("environment", &serde_json::to_value(&m.environment).unwrap_or_default(), &mut environment);
    out.extend(environment.into_iter().filter(|(k, _)| is_software_version(k) == configuration));
    out.into_iter().filter(|(k, _)| !k.ends_with(".note")).collect::<Vec<_>>()
}

/// The fields that differ between two manifests, base keys first: configuration with
/// `configuration`, else the measured environment.
fn manifest_differences(base: &credence_run::Manifest, cand: &credence_run::Manifest, configuration: bool) -> Vec<Difference> {
    let (pb, pc) = (manifest_fields(base, configuration), manifest_fields(cand, configuration));
    let mut diffs = Vec::new();
    for (k, v) in &pb {
        let other = pc.iter().find(|(k2, _)| k2 == k).map_or("(absent)".to_string(), |x| x.1.clone());
        if &other != v {
            diffs.push(Difference { key: k.clone(), base: v.clone(), cand: other });
        }
    }
    for (k, v) in &pc {
        if !pb.iter().any(|(k2, _)| k2 == k) {
            diffs.push(Difference { key: k.clone(), base: "(absent)".into(), cand: v.clone() });
        }
    }
    diffs
}

/// Whether exactly one switch differs, so the effect can be pinned on it.
fn what_changed_gate(diffs: &[Difference]) -> Gate {
    let why = match diffs {
        [] => GateReason::ManifestsSame,
        [one] => GateReason::OneSwitch(one.key.clone()),
        many => GateReason::ManySwitches(many.iter().map(|d| d.key.clone()).collect()),
    };
    Gate::new("what_changed", if diffs.len() == 1 { "PASS" } else { "WARN" }, why)
}

/// Steady state of one run: FAIL without one, WARN on a slowdown or when the run was left out
/// of its arm.
fn steady_gate(r: &ArmRun<'_>, left_out: &[String]) -> Gate {
    let c = r.analysis.steady_state.classification;
    if left_out.contains(&r.name) {
        return Gate::new(format!("steady_state.{}", r.name), "WARN", GateReason::LeftOut(c));
    }
    let status = match c {
        crate::steady::Classification::NoSteadyState => "FAIL",
        crate::steady::Classification::Slowdown => "WARN",
        _ => "PASS",
    };
    Gate::new(format!("steady_state.{}", r.name), status, GateReason::Steady(c))
}

/// An arm's prefix-cache hit rate (cached over prompt tokens of its runs) and its standard
/// error from the runs' intervals (none when no run has one); none when no run reports it.
fn arm_hit_rate(arm: &[ArmRun<'_>]) -> Option<(f64, Option<f64>)> {
    let states: Vec<&crate::cache::CacheState> = arm.iter().filter_map(|r| r.analysis.cache.as_ref()).filter(|c| c.run_prompt_tokens > 0).collect();
    let prompt: u64 = states.iter().map(|c| c.run_prompt_tokens).sum();
    if prompt == 0 {
        return None;
    }
    // The whole runs' rate (the state the arm ran in), its noise from the steady windows'.
    let rate = states.iter().map(|c| c.run_cached_tokens).sum::<u64>() as f64 / prompt as f64;
    let z = 1.959_963_984_540_054;
    // Runs of one arm are independent: the pooled rate's variance is the weighted sum of theirs.
    let se2 = states.iter().map(|c| match (c.hit_rate.ci_low, c.hit_rate.ci_high) {
        (Some(lo), Some(hi)) => Some(((hi - lo) / (2.0 * z) * c.run_prompt_tokens as f64 / prompt as f64).powi(2)),
        _ => None,
    });
    Some((rate, se2.sum::<Option<f64>>().map(f64::sqrt)))
}

/// Hit-rate difference (points) below which the arms' caches count as alike whatever the noise.
const CACHE_ALIKE: f64 = 0.02;

/// The arms' prefix-cache hit rates: WARN when they differ beyond their noise (then the
/// comparison measures the cache as well as the switch); none when neither arm reports one.
fn cache_gate(base: &[ArmRun<'_>], cand: &[ArmRun<'_>]) -> Option<Gate> {
    let (b, c) = (arm_hit_rate(base), arm_hit_rate(cand));
    let ((pb, sb), (pc, sc)) = match (b, c) {
        (None, None) => return None,
        (Some(b), Some(c)) => (b, c),
        _ => return Some(Gate::new("cache_state", "NOT_CHECKED", GateReason::CacheOneArm)),
    };
    let d = pc - pb;
    // Without an interval on either side, a difference beyond 5 points counts as real.
    let noise = match (sb, sc) {
        (Some(x), Some(y)) => 1.959_963_984_540_054 * x.hypot(y),
        _ => 0.05,
    };
    let differ = d.abs() > noise.max(CACHE_ALIKE);
    Some(Gate::new("cache_state", if differ { "WARN" } else { "PASS" }, GateReason::CacheState { base: pb, cand: pc, differ }))
}

/// Whether both arms have at least two runs (of those compared).
fn replication_gate(base: usize, cand: usize) -> Gate {
    let replicated = base >= 2 && cand >= 2;
    let why = match (base, cand) {
        _ if replicated => GateReason::Replicated { base, cand },
        (1, runs) if runs >= 2 => GateReason::OneArmSingle { single: "base", runs },
        (runs, 1) if runs >= 2 => GateReason::OneArmSingle { single: "cand", runs },
        _ => GateReason::SingleRun,
    };
    Gate::new("replication", if replicated { "PASS" } else { "WARN" }, why)
}

/// What the gates found: the gates, the configuration and the measured environment that differ,
/// and whether the workloads match.
pub struct Checked {
    pub gates: Vec<Gate>,
    pub what_changed: Vec<Difference>,
    pub environment_changed: Vec<Difference>,
    pub workload_ok: bool,
}

/// The gates over every run given (`left_out` names those set aside), the differences between
/// the first run of each arm, and whether the workloads match.
pub fn check(base: &[ArmRun<'_>], cand: &[ArmRun<'_>], left_out: &[String]) -> Checked {
    let (mut gates, lengths_ok) = length_gates(base, cand);
    let (arrival, same_arrival) = arrival_gate(&base[0].manifest.workload, &cand[0].manifest.workload);
    gates.push(arrival);
    let what_changed = manifest_differences(base[0].manifest, cand[0].manifest, true);
    gates.push(what_changed_gate(&what_changed));
    gates.extend(base.iter().chain(cand).map(|r| steady_gate(r, left_out)));
    let replicated = |arm: &[ArmRun<'_>]| arm.iter().filter(|r| !left_out.contains(&r.name)).count();
    gates.push(replication_gate(replicated(base), replicated(cand)));
    gates.extend(cache_gate(base, cand));
    let environment_changed = manifest_differences(base[0].manifest, cand[0].manifest, false);
    Checked { gates, what_changed, environment_changed, workload_ok: lengths_ok && same_arrival }
}

/// The seed's method 2 as a gate on P50 TTFT: WARN when the runs of one arm differ by as much as
/// the arms do. It informs; the tolerance stays the user's. None with one run per arm.
pub fn run_spread_gate(metrics: &std::collections::BTreeMap<String, MetricComparison>) -> Option<Gate> {
    let m = metrics.get("ttft_p50")?;
    let spread = m.run_spread?;
    let change = m.change.estimate;
    Some(Gate::new("run_spread", if spread >= change.abs() { "WARN" } else { "PASS" }, GateReason::RunSpread { spread, change }))
}

/// With `--order`, the largest relative difference between consecutive base runs.
pub fn drift(base: &[ArmRun<'_>], o: &CompareOptions, stat: &dyn Fn(&ArmRun<'_>) -> Option<f64>) -> Option<f64> {
    let order = o.order.as_ref()?;
    let ordered: Vec<&ArmRun<'_>> = order.iter().filter_map(|n| base.iter().find(|r| &r.name == n)).collect();
    if ordered.len() < 2 {
        return None;
    }
    let values: Vec<f64> = ordered.iter().filter_map(|r| stat(r)).collect();
    values.windows(2).map(|w| (w[1] / w[0] - 1.0).abs()).fold(None, |m: Option<f64>, d| Some(m.map_or(d, |x: f64| x.max(d))))
}

/// Error rate: the change in percentage points (candidate − base) with Newcombe's interval
/// from the two Wilson intervals; the tolerance is absolute (τ × 10 %, at least 0.5 pp).
pub fn error_rate_change(base: &[ArmRun<'_>], cand: &[ArmRun<'_>], tolerance: f64) -> MetricComparison {
    let count = |arm: &[ArmRun<'_>]| arm.iter().fold((0u64, 0u64), |(e, n), r| (e + r.analysis.errors.errors, n + r.analysis.errors.requests));
    let ((eb, nb), (ec, nc)) = (count(base), count(cand));
    let rate = |e: u64, n: u64| if n == 0 { 0.0 } else { e as f64 / n as f64 };
    let (pb, pc) = (rate(eb, nb), rate(ec, nc));
    let diff_ci = |cl: f64| {
        let (lb, ub) = wilson_interval(eb, nb.max(1), cl).unwrap_or((0.0, 1.0));
        let (lc, uc) = wilson_interval(ec, nc.max(1), cl).unwrap_or((0.0, 1.0));
        let d = pc - pb;
        (d - ((pc - lc).powi(2) + (ub - pb).powi(2)).sqrt(), d + ((uc - pc).powi(2) + (pb - lb).powi(2)).sqrt())
    };
    let tau = (tolerance * 0.1).max(0.005);
    let (ci95, ci90) = (diff_ci(0.95), diff_ci(0.90));
    let verdict = decide(ci95, ci90, tau, Better::Lower);
    // Binomial sampling variance (absolute, like the change); runs are pooled, so no
    // between-run component.
    let binomial = |p: f64, n: u64, runs: usize| VarianceComponents { runs, between: None, within: p * (1.0 - p) / n.max(1) as f64, between_share: None };
    let variance = ArmVariance { base: binomial(pb, nb, base.len()), cand: binomial(pc, nc, cand.len()) };
    MetricComparison {
        change: ChangeInterval {
            estimate: pc - pb,
            ci_low: ci95.0,
            ci_high: ci95.1,
            confidence: 0.95,
            method: "newcombe_wilson_difference",
            seed: 0,
            resamples: 0,
            df: None,
        },
        change_90: ci90,
        tolerance: tau,
        verdict,
        better: Better::Lower,
        base: pb,
        cand: pc,
        base_ci: wilson_interval(eb, nb.max(1), 0.95).unwrap_or((0.0, 1.0)),
        cand_ci: wilson_interval(ec, nc.max(1), 0.95).unwrap_or((0.0, 1.0)),
        n_base: nb,
        n_cand: nc,
        variance,
        pooled: None,
        run_spread: None,
        more_data: (verdict == Verdict::Inconclusive).then(|| more_data_factor(pc - pb, ci90, tau)).flatten().map(|f| more_requests_plan(f, nb.min(nc))),
        reason: Some("error rate change is absolute (candidate − base), not relative".into()),
        too_few_groups: None,
        secondary: None,
    }
}
