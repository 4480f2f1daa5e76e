//! `credence baseline save|check`: a named baseline is a folder holding copies of its runs and
//! `baseline.json` with how far its runs spread, in a directory the user names (`--dir`); nothing
//! is written anywhere else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::analyze::compare::verdict::Verdict;
use crate::analyze::compare::{CompareOptions, Comparison, compare};
use crate::cli::args::{parse_lang, parse_tolerances};
use crate::report::i18n::Lang;
use crate::messages::{Message, Sep};
use crate::cli::io::{print_stdout, write_json};
use crate::cli::args::ImportFlags;
use crate::import::ImportOptions;
use crate::ops::inputs::{Input, classify, import_runs};
use crate::ops::pipeline::{analyze_arm, arm_runs};
use crate::error::{CliError, ExitCode};

#[derive(Debug, clap::Args)]
pub struct BaselineArgs {
    #[command(subcommand)]
    action: BaselineAction,
}

#[derive(Debug, clap::Subcommand)]
enum BaselineAction {
    /// Copy RUN... into DIR/NAME, with how far they spread.
    #[command(after_help = "Example: credence baseline save nightly run-1 run-2 --dir baselines")]
    Save {
        name: String,
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// Folder that holds the baselines.
        #[arg(long)]
        dir: PathBuf,
        /// Language of the line printed: en, zh, or auto (from LC_ALL, LC_MESSAGES or LANG).
        #[arg(long, default_value = "en")]
        lang: String,
        #[command(flatten)]
        import: ImportFlags,
    },
    /// Compare RUN... against the saved baseline; exit 3 on a regression. When the runs are
    /// reruns of the baseline's own configuration, a significant change means the baseline
    /// itself has drifted.
    #[command(after_help = "Example: credence baseline check nightly new-run --dir baselines")]
    Check {
        name: String,
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        #[arg(long)]
        dir: PathBuf,
        /// Tolerance, as for compare.
        #[arg(long)]
        tolerance: Vec<String>,
        #[arg(long, default_value_t = 999)]
        resamples: usize,
        /// Language of the summary: en, zh, or auto (from LC_ALL, LC_MESSAGES or LANG).
        #[arg(long, default_value = "en")]
        lang: String,
        #[command(flatten)]
        import: ImportFlags,
    },
}

#[derive(Debug, Serialize, Deserialize)]
struct BaselineFile {
    name: String,
    credence_version: String,
    runs: Vec<String>,
    /// Largest relative difference between the saved runs, per metric; null for one run. It
    /// informs; `check` reads the runs themselves (older files called it `noise_floor`).
    #[serde(alias = "noise_floor", default)]
    run_spread: BTreeMap<String, Option<f64>>,
}

pub fn run(a: BaselineArgs) -> Result<ExitCode, CliError> {
    match a.action {
        BaselineAction::Save { name, runs, dir, lang, import } => {
            let lang = parse_lang(&lang)?;
            save(&name, &runs, &dir, lang, &ImportOptions { lang, ..import.options()? })
        }
        BaselineAction::Check { name, runs, dir, tolerance, resamples, lang, import } => {
            let lang = parse_lang(&lang)?;
            check(&name, &runs, &dir, &tolerance, resamples, lang, &ImportOptions { lang, ..import.options()? })
        }
    }
}

fn save(name: &str, runs: &[PathBuf], dir: &Path, lang: Lang, import: &ImportOptions) -> Result<ExitCode, CliError> {
    valid_name(name)?;
    let loaded = analyze_arm(runs, 499, 1, import, "baseline save")?;
    let target = dir.join(name);
    if target.exists() {
        return Err(CliError::bad_input(format!("{}: the baseline exists; remove it to save again", target.display())));
    }
    // How far the saved runs spread: compare them with each other (every run as both arms).
    let arms = arm_runs(&loaded);
    let opts = CompareOptions {
        tolerance: 0.0,
        per_metric_tolerance: Default::default(),
        resamples: 499,
        seed: 1,
        allow_workload_mismatch: true,
        order: None,
        ..Default::default()
    };
    let self_cmp = compare(&arms, &arms, &opts);
    let run_spread = self_cmp.metrics.iter().map(|(k, m)| (k.clone(), m.run_spread)).collect();
    let names = store_runs(runs, &target.join("runs"), import)?;
    let file = BaselineFile { name: name.to_string(), credence_version: env!("CARGO_PKG_VERSION").into(), runs: names, run_spread };
    write_json(&target.join("baseline.json"), &file)?;
    let saved = Message::new("cli-baseline-saved")
        .text("name", name)
        .int("runs", loaded.len())
        .text("path", target.display().to_string())
        .text("single", if loaded.len() < 2 { "yes" } else { "no" });
    print_stdout(&(saved.render(lang) + "\n"))?;
    Ok(ExitCode::Success)
}

fn check(name: &str, runs: &[PathBuf], dir: &Path, tolerance: &[String], resamples: usize, lang: Lang, import: &ImportOptions) -> Result<ExitCode, CliError> {
    valid_name(name)?;
    let folder = dir.join(name);
    let file = read_baseline(&folder)?;
    let base_dirs: Vec<PathBuf> = file.runs.iter().map(|r| folder.join("runs").join(r)).collect();
    let (global, per) = parse_tolerances(tolerance)?;
    // The tolerance stays the user's: the new run is judged against a prediction interval for
    // one more run of the baseline's configuration (compare with one candidate run: the
    // baseline runs' spread, pooled, sits in the interval; see `compare::pooled`).
    let opts =
        CompareOptions { tolerance: global, per_metric_tolerance: per, resamples, seed: 1, allow_workload_mismatch: false, order: None, ..Default::default() };
    let report = crate::ops::compare::compare_dirs(&base_dirs, runs, &opts, import, (None, None))?;
    let cmp = report.comparison.as_ref().expect("a comparison's report holds it");
    let regression = cmp.verdicts(None).values().any(|v| *v == Verdict::Regression) || !cmp.valid;
    let drift = drift_warning(cmp, lang);
    print_stdout(&(crate::report::compare_summary::summary(&report, lang) + &drift))?;
    Ok(if regression { ExitCode::ConditionMet } else { ExitCode::Success })
}

fn read_baseline(folder: &Path) -> Result<BaselineFile, CliError> {
    let text = std::fs::read_to_string(folder.join("baseline.json")).map_err(|e| {
        CliError::bad_input(format!("{}: no baseline here ({e})", folder.display())).hint("save one with `credence baseline save NAME RUN... --dir DIR`")
    })?;
    serde_json::from_str(&text).map_err(|e| CliError::bad_input(format!("{}/baseline.json: {e}", folder.display())))
}

/// Reruns of the baseline's own configuration that changed significantly: the baseline drifted.
fn drift_warning(cmp: &Comparison, lang: Lang) -> String {
    let changed: Vec<Message> = cmp
        .metrics
        .iter()
        .filter(|(_, m)| matches!(m.verdict, Verdict::Regression | Verdict::Improvement))
        .map(|(k, _)| crate::report::comparison_words::metric_label(k))
        .collect();
    // A label is the user naming a switch (`effect`, `switch`): then the change is the switch's.
    // A software version that moved is not a switch: that is drift.
    let same_config = cmp.what_changed.iter().all(|d| !["config.", "labels.", "workload."].iter().any(|p| d.key.starts_with(p)));
    if !same_config || changed.is_empty() {
        return String::new();
    }
    Message::new("text-baseline-drift").list("metrics", changed, Sep::Enumeration).render(lang) + "\n"
}

/// Stores every run the paths hold under `runs_dir`, one folder each (`00-NAME`, in order): a
/// run directory copied, a series' runs copied, a tool's output imported and written as
/// `credence import` writes it. Returns the folders' names.
fn store_runs(paths: &[PathBuf], runs_dir: &Path, import: &ImportOptions) -> Result<Vec<String>, CliError> {
    let mut names: Vec<String> = Vec::new();
    let mut place = |name: &str| {
        let folder = format!("{:02}-{name}", names.len());
        names.push(folder.clone());
        runs_dir.join(folder)
    };
    let copy = |from: &Path, to: PathBuf| copy_dir(from, &to).map_err(|e| CliError::failure(format!("{}: cannot copy: {e}", from.display())));
    let folder_name = |p: &Path| p.file_name().map_or_else(|| "run".to_string(), |n| n.to_string_lossy().into_owned());
    for path in paths {
        match classify(path)? {
            Input::Run(d) => copy(&d, place(&folder_name(&d)))?,
            Input::Series(dirs) => {
                for d in dirs {
                    copy(&d, place(&folder_name(&d)))?;
                }
            }
            Input::Peer(p) => {
                for (name, data) in import_runs(&p, import, "baseline save")? {
                    crate::run::write::write_run(&place(&name), &data)?;
                }
            }
        }
    }
    Ok(names)
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() { copy_dir(&entry.path(), &target)? } else { std::fs::copy(entry.path(), target).map(|_| ())? }
    }
    Ok(())
}

fn valid_name(name: &str) -> Result<(), CliError> {
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) && !name.starts_with('.');
    if ok { Ok(()) } else { Err(CliError::bad_input(format!("baseline name {name:?}: use letters, digits, '-', '_' and '.'"))) }
}
