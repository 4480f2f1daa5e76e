//! `credence compare --base RUN... --cand RUN...`: verdicts per metric against a tolerance.

use std::path::PathBuf;

use clap::ValueEnum;

use crate::analyze::compare::decision::Deciding;
use crate::analyze::compare::verdict::Verdict;
use crate::analyze::compare::CompareOptions;
use crate::cli::args::{check_resamples, parse_lang, parse_order, parse_tolerances};
use crate::cli::io::{check_writable, print_stdout, write_json};
use crate::error::{CliError, ExitCode};

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Base runs.
    #[arg(long, num_args = 1.., required = true)]
    base: Vec<PathBuf>,
    /// Candidate runs.
    #[arg(long, num_args = 1.., required = true)]
    cand: Vec<PathBuf>,
    /// Tolerance: `5%` for every metric, or `ttft_p99=10%,throughput=2%` per metric.
    #[arg(long)]
    tolerance: Vec<String>,
    /// Execution order of the runs by folder name (e.g. base1,cand1,base2) for the drift check.
    #[arg(long)]
    order: Option<String>,
    /// Exit with 3 on a regression, or on any significant change.
    #[arg(long, value_enum)]
    fail_on: Option<FailOnArg>,
    /// Which verdicts `--fail-on` reads: those the headline says decide (auto: clean when both
    /// arms spent about the same share of their windows in episodes, else as measured), or the
    /// ones named.
    #[arg(long, value_enum, default_value_t = ConditionArg::Auto)]
    condition: ConditionArg,
    /// Compare even when the workloads differ.
    #[arg(long)]
    allow_workload_mismatch: bool,
    /// Service-level objectives, e.g. ttft_p99=500ms: two capacity searches are judged against
    /// these instead of their own, and two rate sweeps are read as searches (the capacity of
    /// each at the objectives, compared).
    #[arg(long, value_name = "SPEC")]
    slo: Option<String>,
    /// Write the comparison JSON here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Bootstrap resamples.
    #[arg(long, default_value_t = 9999)]
    resamples: usize,
    /// Seed of every resampling.
    #[arg(long, default_value_t = 0x00C0_FFEE)]
    seed: u64,
    /// What to print: a plain-text summary, or Markdown for a pull-request comment (the
    /// headline, the verdict table, the gates and the credibility; the same top part as
    /// `report --format md`).
    #[arg(long, value_enum, default_value_t = PrintFormat::Text)]
    format: PrintFormat,
    /// Language of the summary and the Markdown: en, zh, or auto (from LC_ALL, LC_MESSAGES or
    /// LANG). The JSON is the same in every language.
    #[arg(long, default_value = "en")]
    lang: String,
    #[command(flatten)]
    import: crate::cli::args::ImportFlags,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PrintFormat {
    Text,
    Md,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FailOnArg {
    Regression,
    AnyChange,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ConditionArg {
    Auto,
    AsMeasured,
    Clean,
}

impl ConditionArg {
    /// The condition named, or None to follow the comparison's decision.
    fn named(self) -> Option<Deciding> {
        match self {
            ConditionArg::Auto => None,
            ConditionArg::AsMeasured => Some(Deciding::AsMeasured),
            ConditionArg::Clean => Some(Deciding::Clean),
        }
    }
}

impl FailOnArg {
    fn hit(self, verdict: Verdict) -> bool {
        match self {
            FailOnArg::Regression => verdict == Verdict::Regression,
            FailOnArg::AnyChange => matches!(verdict, Verdict::Regression | Verdict::Improvement),
        }
    }
}

pub fn run(a: CompareArgs) -> Result<ExitCode, CliError> {
    let (tolerance, per_metric_tolerance) = parse_tolerances(&a.tolerance)?;
    check_resamples(a.resamples)?;
    let lang = parse_lang(&a.lang)?;
    if let Some(path) = &a.out {
        check_writable(path)?;
    }
    let slo = crate::cli::args::slo_flag(a.slo.as_deref())?;
    if let Some(pair) = crate::ops::bench::capacity::search_pair(&a.base, &a.cand, !slo.is_empty()) {
        return capacity(pair, &a, (tolerance, slo), lang);
    }
    if !slo.is_empty() {
        return Err(CliError::bad_input("--slo compares capacities: give one capacity search (bench --find-capacity) or one rate sweep per arm")
            .hint("for runs, `analyze RUN --slo SPEC` or `report RUN --slo SPEC` judges each against the objectives"));
    }
    let opts = CompareOptions {
        tolerance,
        per_metric_tolerance,
        resamples: a.resamples,
        seed: a.seed,
        allow_workload_mismatch: a.allow_workload_mismatch,
        order: parse_order(a.order.clone()),
        ..Default::default()
    };
    let report = crate::ops::compare::compare_dirs(&a.base, &a.cand, &opts, &a.import.options()?, (None, None))?;
    let cmp = report.comparison.as_ref().expect("a comparison's report holds it");
    // The verdicts the headline says decide, unless `--condition` names others (without
    // episodes in either arm the clean verdicts are the measured ones).
    let verdicts: Vec<Verdict> = cmp.verdicts(a.condition.named()).into_values().collect();
    let failed = a.fail_on.is_some_and(|f| !cmp.valid || verdicts.iter().any(|v| f.hit(*v)));
    finish(&a, &report, cmp, failed, lang)
}

/// Writes the comparison's JSON to `--out`, prints the summary (or the Markdown top), and
/// gives the exit code: 3 when `--fail-on` was hit.
fn finish(a: &CompareArgs, report: &crate::report::Report, json: &impl serde::Serialize, failed: bool, lang: credence_messages::Lang) -> Result<ExitCode, CliError> {
    if let Some(path) = &a.out {
        write_json(path, json)?;
    }
    print_stdout(&match a.format {
        PrintFormat::Text => crate::report::compare_summary::summary(report, lang),
        PrintFormat::Md => crate::report::markdown::comparison_top(report, lang),
    })?;
    Ok(if failed { ExitCode::ConditionMet } else { ExitCode::Success })
}

/// Two capacity searches (`bench --find-capacity` folders, or rate sweeps with `--slo`): the
/// candidate's capacity against the base's, its JSON to `--out`; `--fail-on` fails on the
/// capacity's verdict, or when the two cannot be compared.
fn capacity(
    pair: (&std::path::Path, &std::path::Path),
    a: &CompareArgs,
    (tolerance, slo): (f64, Vec<crate::analyze::slo::ObjectiveSpec>),
    lang: credence_messages::Lang,
) -> Result<ExitCode, CliError> {
    let opts = crate::analyze::AnalyzeOptions { resamples: a.resamples, seed: a.seed, slo, ..Default::default() };
    let report = crate::ops::bench::capacity::compare_searches(pair, (&opts, tolerance), &a.import.options()?, (None, None))?;
    let cmp = report.capacity_comparison.as_ref().expect("a capacity comparison's report holds it");
    let failed = a.fail_on.is_some_and(|f| match cmp.verdict.as_str() {
        "regression" | "not_comparable" => true,
        "improvement" => f == FailOnArg::AnyChange,
        _ => false,
    });
    finish(a, &report, cmp, failed, lang)
}
