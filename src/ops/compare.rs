//! A comparison of two arms of run folders, as `compare`, `report --base/--cand` and `baseline
//! check` make it: each arm loaded and analyzed (`pipeline`), compared, and put in a report.

use std::path::PathBuf;

use crate::analyze::compare::{CompareOptions, compare};
use crate::error::CliError;
use crate::import::ImportOptions;
use crate::ops::pipeline::{analyze_arm, arm_runs, comparison_report};
use crate::report::Report;

/// The report on `cand` against `base` (a series folder stands for its runs, a tool's output
/// for the runs it holds), its comparison in `Report::comparison`, with the resamples and seed
/// of `opts`; its title and date.
pub fn compare_dirs(base: &[PathBuf], cand: &[PathBuf], opts: &CompareOptions, import: &ImportOptions, (title, date): (Option<String>, Option<String>)) -> Result<Report, CliError> {
    let arm = |paths| analyze_arm(paths, opts.resamples, opts.seed, import, "compare");
    let (b, c) = (arm(base)?, arm(cand)?);
    let cmp = compare(&arm_runs(&b), &arm_runs(&c), opts);
    Ok(comparison_report(b, c, cmp, title, date))
}
