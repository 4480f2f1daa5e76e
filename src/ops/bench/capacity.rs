//! `credence bench --find-capacity --slo SPEC`: the highest load at which every objective
//! holds. The search (`analyze::capacity::search`) picks each step's load; each step runs until
//! every objective is decided against its threshold (the `--until` monitor, deciding met or
//! violated instead of reaching a width; an overloaded step is cut as soon as its queue surely
//! grows), is written under OUT as a run, and is analyzed with the objectives. `capacity.json`
//! links the steps and holds the capacity with its interval (`analyze::capacity::estimate`).
//!
//! The steps come from a `StepSource`: the load generator against a server, or the simulator
//! (`credence simulate --find-capacity`, and the studies), so that both go through the same
//! search, the same monitor and the same estimate.

use std::path::Path;
use std::time::Instant;

use credence_messages::{Lang, Message};

use crate::analyze::attribute::Telemetry;
use crate::analyze::capacity::search::{Ended, Next, SearchPlan};
use crate::analyze::capacity::{Capacity, Step, estimate};
use crate::analyze::requests::RequestView;
use crate::analyze::slo::ObjectiveSpec;
use crate::analyze::until::{Rule, Target, UntilOptions};
use crate::analyze::{AnalyzeOptions, analyze_view};
use crate::error::{CliError, ExitCode};
use crate::ops::bench::sweep::SweepParameter;
use crate::ops::files::write_json;
use crate::run::write::RunData;

/// A capacity search as asked.
#[derive(Debug, Clone)]
pub struct CapacityPlan {
    pub search: SearchPlan,
    pub parameter: SweepParameter,
    pub objectives: Vec<ObjectiveSpec>,
    /// The objectives as given (`ttft_p99=500ms`).
    pub slo: String,
    /// Each step runs at most this long (and at least `min_step_s`).
    pub max_step_s: f64,
    pub min_step_s: f64,
    /// Fixed-length steps (`--duration`): no monitor, each step judged when it ends.
    pub fixed_step_s: Option<f64>,
    /// The whole search's bound (`--max-duration`).
    pub max_total_s: f64,
    pub seed: u64,
}

impl CapacityPlan {
    /// The monitor's options for a step with `budget_s` left: each objective a threshold target.
    pub fn until(&self, budget_s: f64) -> UntilOptions {
        let targets = self.objectives.iter().map(|o| Target { key: o.key.clone(), goal: 1.0, threshold_ms: Some(o.threshold_ms) }).collect();
        UntilOptions {
            targets,
            min_duration_s: self.min_step_s.min(budget_s),
            max_duration_s: budget_s,
            max_error_rate: None,
            warmup_s: None,
            rule: Rule::Staged,
            seed: self.seed,
        }
    }
}

/// Where a step's run comes from.
pub trait StepSource {
    /// Step `index` (from 1) at `load`, bounded by `budget_s` seconds.
    fn run_step(&mut self, plan: &CapacityPlan, index: usize, load: f64, budget_s: f64) -> Result<RunData, CliError>;
    /// Whether the steps are simulated: a simulated search's files are byte-identical for a
    /// seed, so they hold no wall time.
    fn simulated(&self) -> bool {
        false
    }
}

/// The analysis options of a step: the defaults, with the objectives.
pub fn step_options(plan: &CapacityPlan) -> AnalyzeOptions {
    AnalyzeOptions { slo: plan.objectives.clone(), ..AnalyzeOptions::default() }
}

/// A step's run judged against the objectives.
pub fn judge(plan: &CapacityPlan, load: f64, data: &RunData, run: String) -> Step {
    let view = RequestView::from_table(&data.requests);
    let telemetry = Telemetry { gpu: data.gpu.as_ref(), host: data.host.as_ref(), server: data.server.as_ref() };
    let a = analyze_view(&data.manifest, &view, &telemetry, &step_options(plan));
    Step::of(load, &a, run)
}

/// Runs the search into `out` and writes `capacity.json`; the capacity, and why the search ended.
pub fn find_capacity(plan: &CapacityPlan, source: &mut dyn StepSource, out: &Path, lang: Lang) -> Result<(Capacity, Ended), CliError> {
    std::fs::create_dir_all(out).map_err(|e| CliError::bad_input(format!("{}: {e}", out.display())))?;
    let started = Instant::now();
    let (mut steps, mut spent_s) = (Vec::<Step>::new(), 0.0);
    let ended = loop {
        let left_s = plan.max_total_s - spent_s;
        let next = if crate::collect::stop_requested() || left_s < plan.min_step_s { Next::Done(Ended::Budget) } else { plan.search.next(&steps) };
        let load = match next {
            Next::Run(load) => load,
            Next::Done(e) => break e,
        };
        let index = steps.len() + 1;
        let data = source.run_step(plan, index, load, plan.max_step_s.min(left_s))?;
        spent_s += run_seconds(&data);
        let name = format!("step-{index:02}-{}-{}", plan.parameter.name(), crate::run::text::significant(load, 4));
        crate::run::write::write_run(&out.join(&name), &data)?;
        let step = judge(plan, load, &data, name);
        steps.push(step);
        eprintln!("{}", progress(plan, steps.last().expect("a step"), &steps, lang).render(lang));
    };
    let capacity = estimate(plan.parameter.name(), &plan.slo, steps, AnalyzeOptions::default().confidence);
    let record = serde_json::json!({
        "kind": "credence capacity",
        "credence_version": env!("CARGO_PKG_VERSION"),
        "search": plan.search,
        "max_step_s": plan.max_step_s,
        "fixed_step_s": plan.fixed_step_s,
        "ended": ended,
        "load_seconds": spent_s,
        "wall_seconds": (!source.simulated()).then(|| started.elapsed().as_secs_f64()),
        "capacity": capacity,
    });
    write_json(&out.join("capacity.json"), &record)?;
    Ok((capacity, ended))
}

/// Seconds a step's load ran: its first send to its last end.
fn run_seconds(data: &RunData) -> f64 {
    let view = RequestView::from_table(&data.requests);
    let first = view.sent_s.iter().copied().fold(f64::INFINITY, f64::min);
    let last = view.end_s.iter().chain(&view.sent_s).copied().filter(|t| t.is_finite()).fold(f64::NEG_INFINITY, f64::max);
    if first.is_finite() && last > first { last - first } else { 0.0 }
}

/// A step's line: its load and outcome, its objectives, and the bracket so far.
fn progress(plan: &CapacityPlan, step: &Step, steps: &[Step], lang: Lang) -> Message {
    let n = |v: f64| crate::run::text::significant(v, 3);
    let objectives = step
        .objectives
        .iter()
        .map(|o| {
            let value = o.estimate.estimate.or(o.estimate.ci_low).map_or_else(|| crate::report::format::not_available(lang), |v| format!("{} ms", n(v)));
            Message::new("capacity-objective")
                .text("key", o.key.as_str())
                .text("value", value)
                .text("threshold", n(o.threshold_ms))
                .text("verdict", o.verdict.as_str())
        })
        .collect();
    let (lo, hi) = crate::analyze::capacity::bracket(steps);
    let bound = |v: Option<f64>| v.map_or("?".to_string(), n);
    Message::new("capacity-step")
        .int("step", steps.len())
        .text("load", n(step.load))
        .msg("unit", Message::new("capacity-unit").text("unit", plan.parameter.name()))
        .msg("outcome", crate::report::capacity_view::outcome(step))
        .list("objectives", objectives, credence_messages::Sep::Comma)
        .text("low", bound(lo))
        .text("high", bound(hi))
}

/// The search's closing lines: the capacity, or why none is given (a search that ran is a
/// success whatever it found: `capacity.json`'s `finding` says which).
pub fn conclude(capacity: &Capacity, ended: Ended, out: &Path, lang: Lang) -> ExitCode {
    eprintln!("{}", crate::report::capacity_view::headline(capacity, lang).render(lang));
    if ended == Ended::Budget {
        eprintln!("{}", Message::new("capacity-budget").render(lang));
    }
    // A capacity with no low end: no step below the crossing was decided within the objectives.
    if capacity.capacity.estimate.is_some() && capacity.capacity.ci_low.is_none() {
        eprintln!("{}", Message::new("capacity-short-steps").render(lang));
    }
    eprintln!("wrote {} ({} steps, capacity.json links them)", out.display(), capacity.steps.len());
    ExitCode::Success
}

/// The load generator against a server: each step the bench options at the step's load,
/// watched by the monitor (or, with fixed-length steps, by the overload watch alone).
pub struct BenchSource {
    pub options: crate::bench::BenchOptions,
    pub beside: crate::bench::Beside,
    pub lang: Lang,
}

impl StepSource for BenchSource {
    fn run_step(&mut self, plan: &CapacityPlan, index: usize, load: f64, budget_s: f64) -> Result<RunData, CliError> {
        let mut o = self.options.clone();
        // The search's load is in requests a second; sessions arrive at that over their turns.
        let per_step = match plan.parameter {
            SweepParameter::Rate => load / o.requests_per_session(),
            SweepParameter::Concurrency => load,
        };
        o.load = plan.parameter.load(&self.options.load, per_step);
        o.duration_s = Some(plan.fixed_step_s.unwrap_or(budget_s).min(budget_s));
        // GPUs are sampled in the first step only: NVML sources are not cloneable.
        let beside =
            crate::bench::Beside { gpus: self.beside.gpus.take(), server_metrics: self.beside.server_metrics.clone(), gpu_note: self.beside.gpu_note.clone() };
        let (mut data, limits) = match (plan.fixed_step_s, o.offered_requests_per_s()) {
            (Some(_), Some(rate)) => crate::bench::run_watched(&o, beside, Some(&super::overload::OverloadWatcher::new(rate))).map_err(CliError::bad_input)?,
            (Some(_), None) => crate::bench::run(&o, beside).map_err(CliError::bad_input)?,
            (None, _) => super::until::run_until(&o, beside, Some(&plan.until(o.duration_s.unwrap_or(budget_s))), self.lang).map_err(CliError::bad_input)?,
        };
        for w in &limits.warnings {
            eprintln!("warning (step {index}): {w}");
        }
        data.manifest.labels.insert("capacity_step".into(), index.to_string());
        data.manifest.config.extra.insert("slo".into(), plan.slo.clone());
        Ok(data)
    }
}

/// A capacity search's folder as written: its steps' run folders (plain names inside `dir`: the
/// file is not trusted to point elsewhere) with their loads, its parameter and its objectives.
pub struct SavedSearch {
    pub parameter: String,
    pub slo: String,
    pub steps: Vec<(f64, std::path::PathBuf)>,
}

/// Whether `dir` holds a search that `analyze_search` reads: a capacity search, or a rate
/// sweep when objectives are given (`with_slo`) to read its capacity off.
pub fn is_search(dir: &Path, with_slo: bool) -> bool {
    dir.join("capacity.json").is_file() || (with_slo && dir.join("sweep.json").is_file())
}

/// Reads `DIR/capacity.json`, or a sweep's `DIR/sweep.json` as a search with no objectives of
/// its own; the error names the file and the field.
pub fn read_search(dir: &Path) -> Result<SavedSearch, CliError> {
    if !dir.join("capacity.json").is_file() && dir.join("sweep.json").is_file() {
        let (dirs, sweep) = super::sweep::read_sweep(dir)?;
        let steps = sweep.steps.iter().zip(dirs).map(|(st, d)| (st.offered_per_s, d)).collect();
        return Ok(SavedSearch { parameter: sweep.parameter, slo: String::new(), steps });
    }
    let path = dir.join("capacity.json");
    let bad = |what: String| CliError::bad_input(format!("{}: {what}", path.display()));
    let text = std::fs::read_to_string(&path).map_err(|e| bad(format!("cannot read: {e}")))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
    let c = v.get("capacity").ok_or_else(|| bad("expected a \"capacity\" object".into()))?;
    let text_of = |k: &str| c.get(k).and_then(|x| x.as_str()).map(String::from).ok_or_else(|| bad(format!("capacity.{k}: expected a string")));
    let (parameter, slo) = (text_of("parameter")?, text_of("slo")?);
    let list = c.get("steps").and_then(|s| s.as_array()).filter(|s| !s.is_empty()).ok_or_else(|| bad("capacity.steps: expected a non-empty array".into()))?;
    let mut steps = Vec::new();
    for (i, st) in list.iter().enumerate() {
        let name = st.get("run").and_then(|r| r.as_str()).ok_or_else(|| bad(format!("capacity.steps[{i}].run: expected the step's folder name")))?;
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
            return Err(bad(format!("capacity.steps[{i}].run {name:?}: expected a folder name inside the search")));
        }
        let load = st.get("load").and_then(|r| r.as_f64()).filter(|r| r.is_finite() && *r > 0.0);
        steps.push((load.ok_or_else(|| bad(format!("capacity.steps[{i}].load: expected a positive number")))?, dir.join(name)));
    }
    Ok(SavedSearch { parameter, slo, steps })
}

/// The capacity recomputed from the steps' analyses (made with the search's objectives): the
/// report's numbers come from the runs, not from the file's copy of them.
pub fn recompute(search: &SavedSearch, analyses: &[crate::analyze::Analysis]) -> Capacity {
    let steps = search.steps.iter().zip(analyses).map(|((load, dir), a)| {
        let name = dir.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
        Step::of(*load, a, name)
    });
    estimate(&search.parameter, &search.slo, steps.collect(), AnalyzeOptions::default().confidence)
}

/// A capacity search's folder analyzed: its steps' analyses (by load, with its objectives, or
/// with `opts.slo` when given), the capacity recomputed from them, and the steps as a sweep.
pub fn analyze_search(
    dir: &Path,
    mut opts: AnalyzeOptions,
    import: &crate::import::ImportOptions,
) -> Result<(Vec<crate::analyze::Analysis>, Capacity, crate::report::document::Sweep), CliError> {
    let mut search = read_search(dir)?;
    if opts.slo.is_empty() && search.slo.is_empty() {
        return Err(CliError::bad_input(format!("{}: a sweep has no objectives to read a capacity against", dir.display()))
            .hint("give --slo, e.g. --slo ttft_p99=500ms"));
    }
    if opts.slo.is_empty() {
        opts.slo =
            crate::analyze::slo::parse(&search.slo).map_err(|e| CliError::bad_input(format!("{}: capacity.slo: {e}", dir.join("capacity.json").display())))?;
    }
    // One spelling of the objectives (1s and 1000ms alike), so that two searches compare.
    search.slo = crate::analyze::slo::canonical(&opts.slo);
    search.steps.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut runs = Vec::new();
    for (_, step) in &search.steps {
        runs.extend(crate::ops::inputs::analyze_path(step, &opts, import, "report")?.into_iter().map(|r| r.analysis));
    }
    if runs.len() != search.steps.len() {
        return Err(CliError::bad_input(format!("{}: a step folder holds more than one run", dir.display())));
    }
    let capacity = recompute(&search, &runs);
    let steps = search
        .steps
        .iter()
        .enumerate()
        .map(|(i, (load, _))| crate::report::document::SweepStep { offered_per_s: *load, run: i, client_limited: false })
        .collect();
    Ok((runs, capacity, crate::report::document::Sweep { parameter: search.parameter, steps, stopped_early: false }))
}

/// Both arms a single search's folder (a capacity search, or a sweep with objectives given):
/// the pair.
pub fn search_pair<'a>(base: &'a [std::path::PathBuf], cand: &'a [std::path::PathBuf], with_slo: bool) -> Option<(&'a Path, &'a Path)> {
    match (base, cand) {
        ([b], [c]) if is_search(b, with_slo) && is_search(c, with_slo) => Some((b, c)),
        _ => None,
    }
}

/// The report on two capacity searches: the candidate's capacity against the base's.
pub fn compare_searches(
    (base, cand): (&Path, &Path),
    (opts, tolerance): (&AnalyzeOptions, f64),
    import: &crate::import::ImportOptions,
    (title, date): (Option<String>, Option<String>),
) -> Result<crate::report::Report, CliError> {
    let (mut runs, b, _) = analyze_search(base, opts.clone(), import)?;
    let (cand_runs, c, _) = analyze_search(cand, opts.clone(), import)?;
    runs.extend(cand_runs);
    let cmp = crate::analyze::capacity::compare::compare(b, c, tolerance, opts.confidence);
    Ok(crate::report::Report::for_capacity_comparison(runs, cmp, title, date))
}
