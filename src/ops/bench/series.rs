//! `credence bench --repeat N`: the same load N times into `OUT/run-1…N`, each after an
//! optional cooldown and `--before-each` command (a server restart, a cache drop), and
//! `OUT/series.json` linking the runs. `compare`, `plan` and `report` read such a folder as
//! replicated runs of one configuration.
//!
//! With `--until`, each repetition stops on its own; with `--repeat auto`, repetitions go on
//! until the interval across runs meets the targets too (`until::between`), up to `--max-runs`.

use credence_messages::{Lang, Message, Sep};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::analyze::until::UntilOptions;
use crate::analyze::until::between::{BetweenRuns, between_runs};
use crate::bench::{BenchOptions, Beside};
use crate::error::{CliError, ExitCode};
use crate::ops::files::write_json;

/// How many runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    Runs(u32),
    /// Until the between-run interval meets the `--until` targets, at most `max_runs`.
    Auto {
        max_runs: u32,
    },
}

impl Repeat {
    fn most(self) -> u32 {
        match self {
            Repeat::Runs(n) | Repeat::Auto { max_runs: n } => n,
        }
    }
}

/// How a series is run.
pub struct SeriesPlan<'a> {
    pub repeat: Repeat,
    pub cooldown: Duration,
    pub before_each: Option<&'a str>,
}

/// What `--before-each` did before one repetition.
#[derive(Debug, Clone, serde::Serialize)]
struct BeforeEach {
    exit_code: Option<i32>,
    duration_s: f64,
}

/// Runs `cmd` with `sh -c`, its output passed through, and records its exit code and duration.
fn run_before_each(cmd: &str) -> Result<BeforeEach, CliError> {
    let start = Instant::now();
    let status =
        std::process::Command::new("sh").arg("-c").arg(cmd).status().map_err(|e| CliError::bad_input(format!("--before-each {cmd:?}: cannot start: {e}")))?;
    Ok(BeforeEach { exit_code: status.code(), duration_s: start.elapsed().as_secs_f64() })
}

/// Waits `cooldown`, waking every 100 ms to honour Ctrl-C.
fn cool_down(cooldown: Duration) {
    let end = Instant::now() + cooldown;
    while Instant::now() < end && !crate::collect::stop_requested() {
        std::thread::sleep((end - Instant::now()).min(Duration::from_millis(100)));
    }
}

/// Runs the series and writes `series.json` (also when a `--before-each` failure stops it,
/// which exits 2).
pub fn run_series(o: &BenchOptions, plan: &SeriesPlan<'_>, until: Option<&UntilOptions>, beside: Beside, out: &Path, lang: Lang) -> Result<ExitCode, CliError> {
    std::fs::create_dir_all(out).map_err(|e| CliError::bad_input(format!("{}: {e}", out.display())))?;
    let Beside { mut gpus, server_metrics, gpu_note } = beside;
    let mut runs = Vec::new();
    let mut failure = None;
    // Each finished run's estimate of each --until target, and the interval across them.
    let mut estimates: Vec<Vec<Option<f64>>> = Vec::new();
    let mut across: Vec<BetweenRuns> = Vec::new();
    for i in 1..=plan.repeat.most() {
        if matches!(plan.repeat, Repeat::Auto { .. }) && !across.is_empty() && across.iter().all(|b| b.met) {
            break;
        }
        if crate::collect::stop_requested() {
            break;
        }
        if i > 1 {
            cool_down(plan.cooldown);
        }
        let before = plan.before_each.map(run_before_each).transpose()?;
        if let Some(b) = before.as_ref().filter(|b| b.exit_code != Some(0)) {
            runs.push(serde_json::json!({"run": null, "repetition": i, "before_each": b}));
            failure = Some(format!(
                "--before-each failed before repetition {i} of {} (exit code {}); the series stops",
                plan.repeat.most(),
                b.exit_code.map_or("none: killed by a signal".into(), |c| c.to_string())
            ));
            break;
        }
        let (most, max) = match plan.repeat {
            Repeat::Runs(n) => ("fixed", n),
            Repeat::Auto { max_runs } => ("auto", max_runs),
        };
        eprintln!("{}", Message::new("series-run").int("run", i).text("most", most).int("max", max).render(lang));
        // GPUs are sampled in the first run only: NVML sources are not cloneable.
        let beside = Beside { gpus: gpus.take(), server_metrics: server_metrics.clone(), gpu_note: gpu_note.clone() };
        let (entry, stop) = run_repetition(o, until, i, before, beside, out, lang)?;
        runs.push(entry);
        let Some((u, stop)) = until.zip(stop) else { continue };
        // Only a run that met its own targets speaks for the configuration; any other stop
        // (errors, a saturated client, a goal out of reach) would stop the next run too.
        if stop.reason != "targets_met" {
            if matches!(plan.repeat, Repeat::Auto { .. }) {
                eprintln!("{}", Message::new("series-run-unmet").int("run", i).text("reason", stop.reason.as_str()).render(lang));
                break;
            }
            continue;
        }
        estimates.push(stop.targets.iter().map(|t| t.estimate).collect());
        across = between_runs(&u.targets, &estimates);
        eprintln!("{}", Message::new("series-across").int("runs", estimates.len()).list("targets", across_targets(&across), Sep::Comma).render(lang));
    }
    let stopped = crate::collect::stop_requested();
    let series = serde_json::json!({
        "kind": "credence series",
        "credence_version": env!("CARGO_PKG_VERSION"),
        "planned_runs": plan.repeat.most(),
        "repeat": match plan.repeat { Repeat::Runs(_) => "runs", Repeat::Auto { .. } => "auto" },
        "until": until.map(|u| u.targets.iter().map(|t| &t.key).collect::<Vec<_>>()),
        "between_runs": (!across.is_empty()).then_some(&across),
        "cooldown_s": plan.cooldown.as_secs_f64(),
        "before_each": plan.before_each,
        "stopped_early": stopped || failure.is_some(),
        "runs": runs,
    });
    write_json(&out.join("series.json"), &series)?;
    match failure {
        Some(why) => {
            Err(CliError::bad_input(why).hint(format!("{} records the runs done; fix the command and run the series again", out.join("series.json").display())))
        }
        None => {
            eprintln!("wrote {} ({} runs, series.json links them)", out.display(), runs.len());
            Ok(ExitCode::Success)
        }
    }
}

/// Each target across the runs: its interval's half-width against its goal (unbounded below
/// `MIN_RUNS` runs), worded as the stop line words a run's targets, and a mark when met.
fn across_targets(across: &[BetweenRuns]) -> Vec<Message> {
    let one = |b: &BetweenRuns| crate::report::run_view::target_line(&b.key, b.goal, b.half_width);
    across.iter().map(|b| Message::new("until-target-met").msg("target", one(b)).msg("met", Message::new(if b.met { "live-met" } else { "empty" }))).collect()
}

/// One repetition into `OUT/run-i`: the load (its pre-run checklist taken anew; with
/// `--until`, watched until it stops on its own), the run folder, and its entry in
/// series.json, with the stop.
fn run_repetition(
    o: &BenchOptions,
    until: Option<&UntilOptions>,
    i: u32,
    before: Option<BeforeEach>,
    beside: Beside,
    out: &Path,
    lang: Lang,
) -> Result<(serde_json::Value, Option<crate::run::manifest::RunStop>), CliError> {
    let (mut data, limits) = super::until::run_until(o, beside, until, lang).map_err(CliError::bad_input)?;
    data.manifest.labels.insert("series_run".into(), i.to_string());
    let name = format!("run-{i}");
    crate::run::write::write_run(&out.join(&name), &data)?;
    for w in &limits.warnings {
        eprintln!("warning (run {i}): {w}");
    }
    let stop = data.manifest.phases.stop.clone();
    let entry = serde_json::json!({
        "run": name,
        "repetition": i,
        "requests": data.requests.num_rows(),
        "stopped_early": data.manifest.config.extra.contains_key("stopped_early"),
        "stop": stop.as_ref().map(|s| &s.reason),
        "before_each": before,
        "client_limited": !limits.warnings.is_empty(),
    });
    Ok((entry, stop))
}
