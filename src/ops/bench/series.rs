//! `credence bench --repeat N`: the same load N times into `OUT/run-1…N`, each after an
//! optional cooldown and `--before-each` command (a server restart, a cache drop), and
//! `OUT/series.json` linking the runs. `compare`, `plan` and `report` read such a folder as
//! replicated runs of one configuration.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::bench::{BenchOptions, Beside};
use crate::ops::files::write_json;
use crate::error::{CliError, ExitCode};

/// How a series is run.
pub struct SeriesPlan<'a> {
    pub repeat: u32,
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
pub fn run_series(o: &BenchOptions, plan: &SeriesPlan<'_>, beside: Beside, out: &Path) -> Result<ExitCode, CliError> {
    std::fs::create_dir_all(out).map_err(|e| CliError::bad_input(format!("{}: {e}", out.display())))?;
    let Beside { mut gpus, server_metrics, gpu_note } = beside;
    let mut runs = Vec::new();
    let mut failure = None;
    for i in 1..=plan.repeat {
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
                plan.repeat,
                b.exit_code.map_or("none: killed by a signal".into(), |c| c.to_string())
            ));
            break;
        }
        eprintln!("series: run {i} of {}", plan.repeat);
        // GPUs are sampled in the first run only: NVML sources are not cloneable.
        let beside = Beside { gpus: gpus.take(), server_metrics: server_metrics.clone(), gpu_note: gpu_note.clone() };
        runs.push(run_repetition(o, i, before, beside, out)?);
    }
    let stopped = crate::collect::stop_requested();
    let series = serde_json::json!({
        "kind": "credence series",
        "credence_version": env!("CARGO_PKG_VERSION"),
        "planned_runs": plan.repeat,
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

/// One repetition into `OUT/run-i`: the load (its pre-run checklist taken anew), the run
/// folder, and its entry in series.json.
fn run_repetition(o: &BenchOptions, i: u32, before: Option<BeforeEach>, beside: Beside, out: &Path) -> Result<serde_json::Value, CliError> {
    let (mut data, limits) = crate::bench::run(o, beside).map_err(CliError::bad_input)?;
    data.manifest.labels.insert("series_run".into(), i.to_string());
    let name = format!("run-{i}");
    crate::run::write::write_run(&out.join(&name), &data)?;
    for w in &limits.warnings {
        eprintln!("warning (run {i}): {w}");
    }
    Ok(serde_json::json!({
        "run": name,
        "repetition": i,
        "requests": data.requests.num_rows(),
        "stopped_early": data.manifest.config.extra.contains_key("stopped_early"),
        "before_each": before,
        "client_limited": !limits.warnings.is_empty(),
    }))
}
