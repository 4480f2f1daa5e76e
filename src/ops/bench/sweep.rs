//! `credence bench --sweep rate=…|concurrency=…`: one run per offered rate (or per number of
//! closed-loop clients) under OUT, each analyzed as it ends, a table on stderr, and
//! `OUT/sweep.json` linking the steps.

use std::path::Path;

use crate::analyze::attribute::Telemetry;
use crate::analyze::requests::RequestView;
use crate::analyze::until::UntilOptions;
use crate::analyze::{AnalyzeOptions, analyze_view};
use crate::bench::{BenchOptions, Beside, Load};
use crate::error::{CliError, ExitCode};
use crate::ops::files::write_json;
use crate::report::format::estimate;
use crate::run::write::RunData;
use credence_messages::Lang;

/// What a sweep varies: the offered rate (open loop) or the clients (closed loop).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SweepParameter {
    Rate,
    Concurrency,
}

impl SweepParameter {
    /// The load at `value`: the open loop's arrival process with that rate, or that many
    /// closed-loop clients.
    pub fn load(self, base: &Load, value: f64) -> Load {
        match (self, base) {
            (SweepParameter::Concurrency, _) => Load::Closed(value as u32),
            (SweepParameter::Rate, Load::Constant(_)) => Load::Constant(value),
            (SweepParameter::Rate, Load::Gamma(_, cv)) => Load::Gamma(value, *cv),
            (SweepParameter::Rate, _) => Load::Poisson(value),
        }
    }

    /// As `--sweep` and `sweep.json` spell it.
    pub fn name(self) -> &'static str {
        match self {
            SweepParameter::Rate => "rate",
            SweepParameter::Concurrency => "concurrency",
        }
    }
}

/// A sweep's parameter and its values, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPlan {
    pub parameter: SweepParameter,
    pub values: Vec<f64>,
}

impl SweepPlan {
    fn load(&self, base: &Load, value: f64) -> Load {
        self.parameter.load(base, value)
    }

    /// The first step's load: what the options carry when `--rate` or `--concurrency` is not given.
    pub fn first_load(&self, arrival: Load) -> Load {
        self.load(&arrival, self.values[0])
    }
}

/// `rate=R1,R2,…` (requests per second, positive) or `concurrency=N1,N2,…` (clients, whole and
/// positive). The sweep says which loop it is: `--rate` or `--concurrency` beside it may only
/// agree (`load_flag` says which the user gave, if any).
pub fn parse_sweep(sweep: &str, load_flag: Option<SweepParameter>) -> Result<SweepPlan, CliError> {
    let expected = || CliError::bad_input(format!("--sweep {sweep:?}: expected rate=R1,R2,… (requests/s) or concurrency=N1,N2,… (clients)"));
    let (name, list) = sweep.split_once('=').ok_or_else(expected)?;
    let parameter = match name.trim() {
        "rate" => SweepParameter::Rate,
        "concurrency" => SweepParameter::Concurrency,
        _ => return Err(expected()),
    };
    let whole = parameter == SweepParameter::Concurrency;
    let values: Vec<f64> = list
        .split(',')
        .map(|x| x.trim().parse::<f64>().ok().filter(|v| *v > 0.0 && v.is_finite() && (!whole || v.fract() == 0.0 && *v <= f64::from(u32::MAX))))
        .collect::<Option<Vec<_>>>()
        .filter(|v| !v.is_empty())
        .ok_or_else(expected)?;
    match load_flag {
        Some(SweepParameter::Rate) if parameter == SweepParameter::Concurrency => {
            Err(CliError::bad_input("--sweep concurrency=… runs a closed loop: drop --rate (each step sets the clients)"))
        }
        Some(SweepParameter::Concurrency) if parameter == SweepParameter::Rate => {
            Err(CliError::bad_input("--sweep rate=… runs an open loop: drop --concurrency (each step sets the offered rate)"))
        }
        _ => Ok(SweepPlan { parameter, values }),
    }
}

/// Runs every step (until a signal stops the sweep) and writes `sweep.json`. With `--until`,
/// each step stops on its own, and its entry records why.
pub fn run_sweep(o: &BenchOptions, plan: &SweepPlan, beside: Beside, out: &Path, until: Option<&UntilOptions>, lang: Lang) -> Result<ExitCode, CliError> {
    let unit = match (plan.parameter, o.sessions.is_some()) {
        (SweepParameter::Rate, false) => "requests/s",
        (SweepParameter::Rate, true) => "sessions/s",
        (SweepParameter::Concurrency, false) => "clients",
        (SweepParameter::Concurrency, true) => "sessions at a time",
    };
    let rates = &plan.values;
    std::fs::create_dir_all(out).map_err(|e| CliError::bad_input(format!("{}: {e}", out.display())))?;
    let (mut steps, mut rows) = (Vec::new(), Vec::new());
    let Beside { mut gpus, server_metrics, gpu_note } = beside;
    for (i, r) in rates.iter().enumerate() {
        if crate::collect::stop_requested() {
            break;
        }
        // Sessions offer their turns: the table's offered column counts requests.
        let requests = match (plan.parameter, o.sessions) {
            (SweepParameter::Rate, Some(_)) => format!(" ({} requests/s)", crate::run::text::significant(r * o.requests_per_session(), 3)),
            _ => String::new(),
        };
        eprintln!("sweep [{}] step {}/{}: {r} {unit}{requests}", progress_bar(i, rates.len()), i + 1, rates.len());
        // GPUs are sampled in the first step only: NVML sources are not cloneable.
        let beside = Beside { gpus: gpus.take(), server_metrics: server_metrics.clone(), gpu_note: gpu_note.clone() };
        let (step, row) = run_step(o, plan, (i, *r), beside, out, until, lang)?;
        steps.push(step);
        rows.push(row);
    }
    print_sweep_table(plan.parameter, &steps, &rows);
    let stopped = crate::collect::stop_requested();
    if stopped {
        eprintln!("note: the sweep was stopped by a signal after {} of {} steps", steps.len(), rates.len());
    }
    let parent = serde_json::json!({"kind": "credence sweep", "credence_version": env!("CARGO_PKG_VERSION"), "parameter": plan.parameter.name(), "planned_steps": rates, "stopped_early": stopped, "steps": steps});
    write_json(&out.join("sweep.json"), &parent)?;
    eprintln!("wrote {} ({} steps, sweep.json links them)", out.display(), rates.len());
    Ok(ExitCode::Success)
}

/// `##>..`: the steps done, the one running and those to come.
fn progress_bar(current: usize, total: usize) -> String {
    (0..total)
        .map(|j| match j.cmp(&current) {
            std::cmp::Ordering::Less => '#',
            std::cmp::Ordering::Equal => '>',
            std::cmp::Ordering::Greater => '.',
        })
        .collect()
}

/// Step `i` at `value` of the sweep's parameter: its run folder, its entry in sweep.json and its
/// row of the table.
fn run_step(
    o: &BenchOptions,
    plan: &SweepPlan,
    (i, value): (usize, f64),
    beside: Beside,
    out: &Path,
    until: Option<&UntilOptions>,
    lang: Lang,
) -> Result<(serde_json::Value, [String; 4]), CliError> {
    let mut step = o.clone();
    step.load = plan.load(&o.load, value);
    let (mut data, limits, overload) = match (until, step.offered_requests_per_s()) {
        // A fixed-length open-loop step stops once the server is surely overloaded.
        (None, Some(rate)) => {
            let watcher = super::overload::OverloadWatcher::new(rate);
            let (data, limits) = crate::bench::run_watched(&step, beside, Some(&watcher)).map_err(CliError::bad_input)?;
            (data, limits, watcher.found())
        }
        _ => {
            let (data, limits) = super::until::run_until(&step, beside, until, lang).map_err(CliError::bad_input)?;
            (data, limits, None)
        }
    };
    if let Some(l) = &overload {
        let n = |v: Option<f64>| v.map_or("?".to_string(), |v| crate::run::text::significant(v, 3));
        let note = format!(
            "stopped as overloaded: offered {}/s, completed {}/s, {}/s unserved",
            n(l.offered_per_s),
            n(l.completed_per_s),
            n(l.unserved_per_s.estimate)
        );
        eprintln!("sweep step {}: {note}", i + 1);
        data.manifest.config.extra.insert("stopped_early".into(), note);
    }
    data.manifest.labels.insert("sweep_step".into(), format!("{}", i + 1));
    let dir = out.join(format!("step-{:02}-{}-{value}", i + 1, plan.parameter.name()));
    crate::run::write::write_run(&dir, &data)?;
    for w in &limits.warnings {
        eprintln!("warning (step {}): {w}", i + 1);
    }
    let (summary, row) = step_summary(&data);
    let mut entry = serde_json::json!({
        "stopped_early": data.manifest.config.extra.contains_key("stopped_early"),
        "stop": data.manifest.phases.stop.as_ref().map(|s| s.reason.clone()).or(overload.is_some().then(|| "overloaded".to_string())),
        "step": i + 1,
        "run": dir.file_name().map(|n| n.to_string_lossy().into_owned()),
        "requests": data.requests.num_rows(),
        "client_limited": !limits.warnings.is_empty(),
        "warnings": limits.warnings,
        "summary": summary,
    });
    // A rate step records its offered rate in requests (a session's rate times its turns: the
    // sweep report sets it beside the requests completed), a closed-loop step its clients.
    match (plan.parameter, step.offered_requests_per_s()) {
        (SweepParameter::Rate, Some(requests_per_s)) => entry["rate_per_s"] = requests_per_s.into(),
        _ => entry["concurrency"] = value.into(),
    }
    // A closed loop's clients are its sessions at a time; an open loop's rate counts sessions.
    if o.sessions.is_some() && plan.parameter == SweepParameter::Rate {
        entry["session_rate_per_s"] = value.into();
    }
    Ok((entry, row))
}

/// The numbers a sweep is read by, from `analyze` on one step (its steady window, default
/// options, so each value is what `credence analyze STEP --json` reports), and the step's row
/// of the printed table.
fn step_summary(data: &RunData) -> (serde_json::Value, [String; 4]) {
    let view = RequestView::from_table(&data.requests);
    let telemetry = Telemetry { gpu: data.gpu.as_ref(), host: data.host.as_ref(), server: data.server.as_ref() };
    let a = analyze_view(&data.manifest, &view, &telemetry, &AnalyzeOptions::default());
    let metric = |m: &str, p: &str| a.metrics.get(m).and_then(|x| x.get(p)).cloned();
    let json = serde_json::json!({
        "achieved_requests_per_s": a.throughput.requests_per_s,
        "output_tokens_per_s": a.throughput.output_tokens_per_s,
        "ttft_p50_ms": metric("ttft", "p50"),
        "ttft_p99_ms": metric("ttft", "p99"),
        "tpot_p50_ms": metric("tpot", "p50"),
        "e2e_p99_ms": metric("e2e", "p99"),
        "send_lag_p99_ms": metric("send_lag", "p99"),
        "error_rate": a.errors.rate,
        "credibility": a.credibility.grade.label(),
    });
    let cell = |m: &str, p: &str| metric(m, p).map_or("n/a".to_string(), |e| estimate(&e, 1.0));
    let row = [estimate(&a.throughput.requests_per_s, 1.0), cell("ttft", "p50"), cell("ttft", "p99"), a.credibility.grade.label().to_string()];
    (json, row)
}

/// The sweep as a table on stderr: throughput and latency (with their intervals) per offered rate.
fn print_sweep_table(parameter: SweepParameter, steps: &[serde_json::Value], rows: &[[String; 4]]) {
    let (head, key) = match parameter {
        SweepParameter::Rate => ("offered", "rate_per_s"),
        SweepParameter::Concurrency => ("clients", "concurrency"),
    };
    eprintln!("{head:>8}  {:<26} {:<26} {:<26} {:<8} client", "achieved req/s", "TTFT P50 ms", "TTFT P99 ms", "grade");
    for (st, r) in steps.iter().zip(rows) {
        let client = if st["client_limited"] == true { "near its limit (see the warnings)" } else { "ok" };
        let offered = st[key].as_f64().map_or("?".to_string(), |v| format!("{v}"));
        let client = if st["stop"] == "overloaded" { "server overloaded: stopped" } else { client };
        eprintln!("{offered:>8}  {:<26} {:<26} {:<26} {:<8} {client}", r[0], r[1], r[2], r[3]);
    }
}

/// The steps of a sweep written by `credence bench --sweep`: their run folders (which must be
/// plain names inside DIR: the file is not trusted to point elsewhere) and offered rates.
pub fn read_sweep(dir: &Path) -> Result<(Vec<std::path::PathBuf>, crate::report::document::Sweep), CliError> {
    let path = dir.join("sweep.json");
    let bad = |what: String| CliError::bad_input(format!("{}: {what}", path.display()));
    let text = std::fs::read_to_string(&path).map_err(|e| bad(format!("cannot read: {e}")))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
    if v.get("parameter").and_then(|p| p.as_str()) == Some("concurrency") {
        return Err(bad("a sweep of closed-loop clients (bench --sweep concurrency=…): the sweep report reads rate sweeps only".into())
            .hint(format!("report or compare its steps one by one ({}/step-01-concurrency-…)", dir.display())));
    }
    let steps = v.get("steps").and_then(|s| s.as_array()).filter(|s| !s.is_empty()).ok_or_else(|| bad("expected a non-empty \"steps\" array".into()))?;
    let (mut dirs, mut out) = (Vec::new(), Vec::new());
    for (i, st) in steps.iter().enumerate() {
        let name = st.get("run").and_then(|r| r.as_str()).ok_or_else(|| bad(format!("steps[{i}].run: expected the step's folder name")))?;
        let plain = !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\']);
        if !plain {
            return Err(bad(format!("steps[{i}].run {name:?}: expected a folder name inside the sweep")));
        }
        let offered = st.get("rate_per_s").and_then(|r| r.as_f64()).filter(|r| r.is_finite() && *r > 0.0);
        let offered = offered.ok_or_else(|| bad(format!("steps[{i}].rate_per_s: expected a positive number")))?;
        dirs.push(dir.join(name));
        let client_limited = st.get("client_limited").and_then(|c| c.as_bool()).unwrap_or(false);
        out.push(crate::report::document::SweepStep { offered_per_s: offered, run: i, client_limited });
    }
    let parameter = v.get("parameter").and_then(|p| p.as_str()).unwrap_or("rate").to_string();
    let stopped_early = v.get("stopped_early").and_then(|s| s.as_bool()).unwrap_or(false);
    Ok((dirs, crate::report::document::Sweep { parameter, steps: out, stopped_early }))
}
