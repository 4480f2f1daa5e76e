//! `credence plan PILOT_RUN...`: designs (runs per arm × run length) that detect an effect.

use std::path::PathBuf;

use crate::analyze::compare::CompareOptions;
use crate::analyze::plan::{DEFAULT_BETWEEN_RUN_CV, PlanOptions, check_options, pilot_from_runs, plan};
use crate::cli::args::{check_resamples, delay_flag, parse_fraction, parse_lang};
use crate::cli::io::{check_writable, print_stdout, write_json};
use crate::ops::pipeline::{analyze_arm, arm_runs};
use crate::error::{CliError, ExitCode};

#[derive(Debug, clap::Args)]
pub struct PlanArgs {
    /// Pilot runs of one configuration (two or more measure the run-to-run noise).
    #[arg(required = true)]
    pilots: Vec<PathBuf>,
    /// The tolerance the comparison will use, e.g. 5%.
    #[arg(long, default_value = "5%")]
    tolerance: String,
    /// The smallest change worth detecting; must lie above the tolerance.
    #[arg(long, default_value = "10%")]
    effect: String,
    /// The power wanted: the chance that compare calls a change of --effect a regression.
    #[arg(long, default_value_t = 0.9)]
    power: f64,
    /// Metrics to plan for (compare's names). P99s need far more data; name them to plan for them.
    #[arg(long, value_delimiter = ',', default_value = "ttft_p50,tpot_p50,e2e_p50,output_tokens_per_s")]
    metric: Vec<String>,
    /// Fixed cost of one run besides its length: restart, model load, warm-up, e.g. 60s.
    #[arg(long, default_value = "60s")]
    cost_per_run: String,
    /// Run-to-run CV assumed when there is one pilot run (it cannot be measured then); 2% by
    /// default. Every number that depends on it is labelled ASSUMED.
    #[arg(long)]
    between_run_cv: Option<String>,
    /// Write the plan JSON here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Bootstrap resamples per pilot run.
    #[arg(long, default_value_t = 999)]
    resamples: usize,
    /// Seed of every resampling.
    #[arg(long, default_value_t = 0x00C0_FFEE)]
    seed: u64,
    /// Language of the printed plan: en, zh, or auto (from LC_ALL, LC_MESSAGES or LANG). The
    /// JSON is the same in every language.
    #[arg(long, default_value = "en")]
    lang: String,
    #[command(flatten)]
    import: crate::cli::args::ImportFlags,
}

fn options(a: &PlanArgs) -> Result<PlanOptions, CliError> {
    let fraction = |flag: &str, text: &str| parse_fraction(text).map_err(|e| CliError::bad_input(format!("{flag} {e}")));
    let o = PlanOptions {
        tolerance: fraction("--tolerance", &a.tolerance)?,
        effect: fraction("--effect", &a.effect)?,
        power: a.power,
        cost_per_run_s: delay_flag("--cost-per-run", &a.cost_per_run)?.as_secs_f64(),
        between_run_cv: a.between_run_cv.as_deref().map_or(Ok(DEFAULT_BETWEEN_RUN_CV), |t| fraction("--between-run-cv", t))?,
        compare_prior: crate::analyze::compare::pooled::DEFAULT_PRIOR,
    };
    check_options(&o).map_err(CliError::bad_input)?;
    Ok(o)
}

pub fn run(a: PlanArgs) -> Result<ExitCode, CliError> {
    let o = options(&a)?;
    let lang = parse_lang(&a.lang)?;
    check_resamples(a.resamples)?;
    if let Some(path) = &a.out {
        check_writable(path)?;
    }
    let compare_options = CompareOptions {
        tolerance: o.tolerance,
        per_metric_tolerance: Default::default(),
        resamples: a.resamples,
        seed: a.seed,
        allow_workload_mismatch: false,
        order: None,
        ..Default::default()
    };
    let import = crate::import::ImportOptions { lang, ..a.import.options()? };
    let runs = analyze_arm(&a.pilots, a.resamples, a.seed, &import, "plan")?;
    let pilot = pilot_from_runs(&arm_runs(&runs), &a.metric, &compare_options).map_err(CliError::bad_input)?;
    let p = plan(&pilot, &o);
    if let Some(path) = &a.out {
        write_json(path, &p)?;
    }
    print_stdout(&crate::report::plan_summary::summary(&p, lang))?;
    Ok(ExitCode::Success)
}
