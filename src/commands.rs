//! One function per subcommand: the edge where files are read and written and text printed.

use std::io::Write;

use crate::cli::Command;
use crate::error::{CliError, ExitCode};
use crate::options::{AnalyzeArgs, SimulateArgs, analyze_options, simulate_options};
use crate::run::schema::{TableKind, describe};
use crate::run::validate::{ValidationReport, validate};
use crate::run::write::write_run;
use crate::simulate::simulate;

/// Runs one subcommand and returns its exit code.
pub fn run(command: Command) -> Result<ExitCode, CliError> {
    match command {
        Command::Validate { run, json } => {
            let report = validate(&run);
            let text = if json { serde_json::to_string_pretty(&report).expect("report serializes") + "\n" } else { validation_text(&report) };
            print_stdout(&text)?;
            Ok(if report.valid { ExitCode::Success } else { ExitCode::BadInput })
        }
        Command::Simulate { scenario, out, seed, duration, rate, arrival, concurrency, effect, gpus, output_median } => {
            let opts = simulate_options(SimulateArgs {
                scenario: &scenario,
                seed,
                duration: &duration,
                rate,
                arrival,
                concurrency,
                effect: effect.as_deref(),
                gpus,
                output_median,
            })?;
            let sim = simulate(&opts).map_err(|e| CliError::bad_input(e.to_string()))?;
            write_run(&out, &sim.data)?;
            eprintln!("wrote {} ({} requests, scenario {}, seed {})", out.display(), sim.data.requests.num_rows(), opts.scenario, opts.seed);
            Ok(ExitCode::Success)
        }
        Command::Analyze { run, out, json, window, confidence, seed, resamples, penalty, steady_from, steady_to } => {
            let opts = analyze_options(AnalyzeArgs {
                window: &window,
                confidence,
                seed,
                resamples,
                penalty,
                steady_from: steady_from.as_deref(),
                steady_to: steady_to.as_deref(),
            })?;
            if let Some(path) = &out {
                check_writable(path)?;
            }
            let progress = Progress::new();
            progress.stage("loading the run");
            let t = std::time::Instant::now();
            let timing = std::env::var_os("CREDENCE_TIMING").is_some();
            let crate::run::Run { manifest, requests, gpu, host, server, .. } = crate::run::load(&run)?;
            let telemetry = crate::analyze::attribute::Telemetry { gpu: gpu.as_ref(), host: host.as_ref(), server: server.as_ref() };
            if timing {
                eprintln!("[{:>6.2} s] loaded", t.elapsed().as_secs_f64());
            }
            let view = crate::analyze::requests::RequestView::from_table(&requests);
            if timing {
                eprintln!("[{:>6.2} s] request view built", t.elapsed().as_secs_f64());
            }
            let error_examples = crate::analyze::rates::error_examples(&requests);
            drop(requests);
            if timing {
                eprintln!("[{:>6.2} s] request view", t.elapsed().as_secs_f64());
            }
            progress.stage("steady state and intervals");
            let mut analysis = crate::analyze::analyze_view(&manifest, &view, &telemetry, &opts);
            analysis.errors.examples = error_examples;
            progress.stage("writing the analysis");
            let text = serde_json::to_string_pretty(&analysis).expect("analysis serializes") + "\n";
            if let Some(path) = &out {
                write_atomic(path, text.as_bytes())?;
            }
            progress.done();
            print_stdout(&if json { text } else { crate::report::summary::summary(&analysis) })?;
            Ok(ExitCode::Success)
        }
        Command::Compare { base, cand, tolerance, order, fail_on, allow_workload_mismatch, out, resamples, seed } => {
            let (global, per) = crate::options::parse_tolerances(&tolerance)?;
            if resamples < 200 {
                return Err(CliError::bad_input("--resamples: at least 200 are needed"));
            }
            if let Some(path) = &out {
                check_writable(path)?;
            }
            let opts = crate::analyze::compare::CompareOptions {
                tolerance: global,
                per_metric_tolerance: per,
                resamples,
                seed,
                allow_workload_mismatch,
                order: order.map(|o| o.split(',').map(|s| s.trim().to_string()).collect()),
            };
            let (b, c) = (load_for_compare(&base, resamples, seed)?, load_for_compare(&cand, resamples, seed)?);
            let cmp = crate::analyze::compare::compare(&arm_runs(&b), &arm_runs(&c), &opts);
            let text = serde_json::to_string_pretty(&cmp).expect("comparison serializes") + "\n";
            if let Some(path) = &out {
                write_atomic(path, text.as_bytes())?;
            }
            print_stdout(&crate::report::compare_summary::summary(&cmp))?;
            use crate::analyze::compare::verdict::Verdict;
            let hit = |v: Verdict| match fail_on {
                Some(crate::cli::FailOnArg::Regression) => v == Verdict::Regression,
                Some(crate::cli::FailOnArg::AnyChange) => {
                    matches!(v, Verdict::Regression | Verdict::Improvement)
                }
                None => false,
            };
            let failed = cmp.metrics.values().any(|m| hit(m.verdict)) || (fail_on.is_some() && !cmp.valid);
            Ok(if failed { ExitCode::ConditionMet } else { ExitCode::Success })
        }
        Command::Baseline { action } => crate::baseline::run(action),
        Command::Collect { out, interval, gpu, client_pid, client_name, server_metrics, label, config, duration, drop_caches, strict_env, command } => {
            crate::collect_command::run(crate::collect_command::CollectArgs {
                out,
                interval,
                gpu,
                client_pid,
                client_name,
                server_metrics,
                label,
                config,
                duration,
                drop_caches,
                strict_env,
                command,
            })
        }
        Command::Bench(args) => crate::bench_command::bench(args),
        Command::MockServer(args) => crate::bench_command::mock_server(args),
        Command::Import { args, out, tz, label } => crate::import_command::import(&args, &out, tz.as_deref(), &label),
        Command::Audit { paths, out, format, tz, title, date, resamples, seed } => {
            crate::import_command::audit(crate::import_command::AuditArgs { paths, out, format, tz, title, date, resamples, seed })
        }
        Command::Report { runs, base, cand, out, format, title, lang, date, demo, tolerance, order, resamples, seed } => {
            crate::report_command::run(crate::report_command::ReportArgs {
                runs,
                base,
                cand,
                out,
                format,
                title,
                lang,
                date,
                demo,
                tolerance,
                order,
                resamples,
                seed,
            })
        }
        Command::Schema { table } => {
            let kind = TableKind::ALL
                .into_iter()
                .find(|k| k.name() == table)
                .ok_or_else(|| CliError::bad_input(format!("{table:?} is not a table")).hint("choose one of: requests, gpu, host, server"))?;
            print_stdout(&(serde_json::to_string_pretty(&describe(kind)).expect("serializes") + "\n"))?;
            Ok(ExitCode::Success)
        }
    }
}

pub(crate) type Loaded = (String, crate::run::Manifest, crate::analyze::requests::RequestView, crate::analyze::Analysis);

/// Loads and analyzes runs for a comparison; each is named by its folder.
pub(crate) fn load_for_compare(dirs: &[std::path::PathBuf], resamples: usize, seed: u64) -> Result<Vec<Loaded>, CliError> {
    let aopts = crate::analyze::AnalyzeOptions { resamples: resamples.min(999), seed, ..Default::default() };
    dirs.iter()
        .map(|d| {
            let run = crate::run::load(d)?;
            let view = crate::analyze::requests::RequestView::from_table(&run.requests);
            let mut analysis = crate::analyze::analyze_view(&run.manifest, &view, &crate::analyze::attribute::Telemetry::of(&run), &aopts);
            analysis.errors.examples = crate::analyze::rates::error_examples(&run.requests);
            let name = d.file_name().map_or_else(|| d.display().to_string(), |n| n.to_string_lossy().into());
            Ok((name, run.manifest, view, analysis))
        })
        .collect()
}

pub(crate) fn arm_runs(v: &[Loaded]) -> Vec<crate::analyze::compare::ArmRun<'_>> {
    v.iter().map(|(n, m, view, a)| crate::analyze::compare::ArmRun { name: n.clone(), manifest: m, view, analysis: a }).collect()
}

/// Fails early when the output's folder does not exist, before any long work.
pub(crate) fn check_writable(path: &std::path::Path) -> Result<(), CliError> {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if !parent.is_dir() {
        return Err(CliError::bad_input(format!("{}: the folder {} does not exist", path.display(), parent.display())));
    }
    Ok(())
}

/// Writes a file atomically: a temporary sibling, then a rename.
pub(crate) fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<(), CliError> {
    let tmp = path.with_extension(format!("partial-{}", std::process::id()));
    std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path)).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        CliError::failure(format!("{}: cannot write: {e}", path.display()))
    })
}

/// A progress bar over the analysis stages on stderr, only when stderr is a terminal.
struct Progress {
    on: bool,
    start: std::time::Instant,
    done_stages: std::cell::Cell<usize>,
}

impl Progress {
    const STAGES: usize = 3;

    fn new() -> Progress {
        use std::io::IsTerminal;
        Progress { on: std::io::stderr().is_terminal(), start: std::time::Instant::now(), done_stages: std::cell::Cell::new(0) }
    }

    fn draw(&self, what: &str) {
        if self.on {
            let k = self.done_stages.get();
            let filled = 20 * k / Self::STAGES;
            let bar: String = "#".repeat(filled) + &"-".repeat(20 - filled);
            eprint!("\r\x1b[2K[{bar}] {k}/{} {what} ({:.1} s)", Self::STAGES, self.start.elapsed().as_secs_f64());
        }
    }

    fn stage(&self, what: &str) {
        self.draw(what);
        self.done_stages.set(self.done_stages.get() + 1);
    }

    fn done(&self) {
        self.done_stages.set(Self::STAGES);
        self.draw("done");
        if self.on {
            eprintln!();
        }
    }
}

/// Writes to stdout; a closed pipe (e.g. `| head`) is not an error.
pub(crate) fn print_stdout(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::failure(format!("cannot write to stdout: {e}"))),
        _ => Ok(()),
    }
}

fn validation_text(r: &ValidationReport) -> String {
    let mut s = String::new();
    for t in &r.tables {
        match (t.present, t.rows) {
            (true, Some(n)) => s.push_str(&format!("{:<9} {n} rows\n", t.table)),
            (true, None) => s.push_str(&format!("{:<9} unreadable\n", t.table)),
            (false, _) => s.push_str(&format!("{:<9} absent\n", t.table)),
        }
    }
    for p in &r.problems {
        let tag = if p.is_error() { "error" } else { "warning" };
        s.push_str(&format!("{tag}: {p}\n"));
    }
    let verdict = if r.valid { "valid" } else { "INVALID" };
    s.push_str(&format!("{}: {verdict} ({} errors, {} warnings)\n", r.run, r.errors, r.warnings));
    s
}
