//! `credence history`: change points, drift and configuration breaks across a series of runs.
//!
//! Input: one `RunPoint` per run (its estimates and intervals, read from its analysis). The runs
//! are put in order (`series`), grouped by configuration fingerprint (`fingerprint`; a change
//! of fingerprint is a labelled break), and each configuration's series of each metric is
//! searched for steps with E-divisive means and for slow drift with Mann–Kendall and Sen's
//! slope (`detect`). Each step gets its size with an interval from the hierarchical bootstrap
//! `compare` uses, and a verdict against the tolerance (`size`). A run enters a metric's series
//! when its estimate of that metric has a two-sided interval, whatever its overall grade (runs
//! graded LOW are marked); an estimate without one is shown but defines no change point. The
//! verdict that sets the exit code opens the output (`headline`).

pub mod detect;
pub mod fingerprint;
pub mod headline;
pub mod metric;
pub mod series;
pub mod size;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::compare::verdict::Verdict;
use credence_stats::edivisive::EDivisiveOptions;
use credence_messages::{Lang, Message};
pub use metric::{HistoryMetric, RunPoint, RunValue, run_point};
pub use series::Order;

/// What `--fail-on` turns into exit code 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailOn {
    /// A metric's newest segment is a regression against the one before it.
    Regression,
    /// A metric of the newest configuration drifts worse by more than its tolerance.
    Drift,
}

/// Options of `credence history`, already validated.
#[derive(Debug, Clone)]
pub struct HistoryOptions {
    /// What makes the exit code 3 (the headline leads with it).
    pub fail_on: Vec<FailOn>,
    pub metrics: Vec<HistoryMetric>,
    pub order: Order,
    pub tolerance: f64,
    pub per_metric_tolerance: BTreeMap<String, f64>,
    pub change_points: EDivisiveOptions,
    /// Mann–Kendall p-value below which a trend is reported as drift.
    pub drift_significance: f64,
    /// Bootstrap resamples of each change's interval.
    pub resamples: usize,
    pub seed: u64,
}

impl Default for HistoryOptions {
    fn default() -> Self {
        HistoryOptions {
            fail_on: Vec::new(),
            metrics: HistoryMetric::DEFAULT.to_vec(),
            order: Order::Time,
            tolerance: 0.05,
            per_metric_tolerance: BTreeMap::new(),
            change_points: EDivisiveOptions { significance: 0.01, permutations: 999, min_size: 3, seed: 0x00C0_FFEE },
            drift_significance: 0.05,
            resamples: 2000,
            seed: 0x00C0_FFEE,
        }
    }
}

impl HistoryOptions {
    /// The tolerance of a metric: its own, its family's (`ttft`), or the global one.
    pub fn tolerance_for(&self, m: HistoryMetric) -> f64 {
        let family = m.name().split('_').next().unwrap_or("");
        self.per_metric_tolerance.get(m.name()).or_else(|| self.per_metric_tolerance.get(family)).copied().unwrap_or(self.tolerance)
    }
}

/// The methods and settings behind every number of a history.
#[derive(Debug, Clone, Serialize)]
pub struct MethodsUsed {
    pub change_points: ChangePointMethod,
    pub drift: DriftMethod,
    pub change_size: ChangeSizeMethod,
    pub low_runs: &'static str,
    /// Fields of each run's `run` object that its configuration fingerprint hashes.
    pub fingerprint_fields: Vec<&'static str>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ChangePointMethod {
    pub method: &'static str,
    pub variant: &'static str,
    pub significance_level: f64,
    pub permutations: usize,
    pub min_segment_runs: usize,
    pub seed: u64,
    pub scale: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct DriftMethod {
    pub method: &'static str,
    pub significance_level: f64,
    pub note: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct ChangeSizeMethod {
    pub method: &'static str,
    pub within_run: &'static str,
    pub confidence: f64,
    pub resamples: usize,
    pub seed: u64,
}

/// One run of the ordered series.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryRun {
    pub index: usize,
    pub run_id: String,
    /// First request's send time, RFC 3339 UTC; null when the run has no absolute timestamps.
    pub start_time: Option<String>,
    pub fingerprint: String,
    pub configuration: String,
    pub grade: String,
    pub values: BTreeMap<HistoryMetric, RunValue>,
}

/// A run of one configuration, in the order of the series.
#[derive(Debug, Clone, Serialize)]
pub struct Configuration {
    pub fingerprint: String,
    pub configuration: String,
    pub runs: usize,
    pub first_index: usize,
    pub last_index: usize,
}

/// Where the configuration changes between consecutive runs: a labelled break, not a regression.
#[derive(Debug, Clone, Serialize)]
pub struct Break {
    /// Position of the first run with the new configuration.
    pub index: usize,
    pub run_id: String,
    pub start_time: Option<String>,
    pub from_fingerprint: String,
    pub from: String,
    pub to_fingerprint: String,
    pub to: String,
}

/// The series' newest run and what `--fail-on regression` reads.
#[derive(Debug, Clone, Serialize)]
pub struct Newest {
    pub index: usize,
    pub run_id: String,
    pub fingerprint: String,
    /// Per metric: the verdict of the newest segment against the one before it (null when the
    /// newest configuration's series has no change point).
    pub verdicts: BTreeMap<HistoryMetric, Option<Verdict>>,
    /// Metrics whose newest segment is a regression.
    pub regressions: Vec<HistoryMetric>,
    /// Metrics whose series in the newest configuration drifts worse by more than the tolerance
    /// over the series (what `--fail-on drift` reads).
    pub drifts: Vec<HistoryMetric>,
}

/// The result of `credence history`. Documented in `schemas/history.schema.json`.
#[derive(Debug, Clone, Serialize)]
pub struct History {
    /// The verdict that sets the exit code, with its numbers: the first sentence of every output
    /// (`headline_message` in English).
    pub headline: String,
    /// The same sentence as data, which every language renders.
    pub headline_message: Message,
    /// What `--fail-on` asked for.
    pub fail_on: Vec<FailOn>,
    /// Whether what `--fail-on` asked for was found (exit code 3).
    pub failed: bool,
    pub credence_version: String,
    pub methods: MethodsUsed,
    pub order: Order,
    pub metrics: Vec<HistoryMetric>,
    pub tolerance: BTreeMap<HistoryMetric, f64>,
    pub runs: Vec<HistoryRun>,
    pub configurations: Vec<Configuration>,
    pub breaks: Vec<Break>,
    pub change_points: Vec<size::ChangePointReport>,
    pub drift: Vec<detect::Drift>,
    /// None for an empty series.
    pub newest: Option<Newest>,
}

/// The history of `points`, which are already in series order (see `series::order`).
pub fn history(points: &[RunPoint], o: &HistoryOptions) -> History {
    let runs: Vec<HistoryRun> = points.iter().enumerate().map(|(i, p)| history_run(i, p)).collect();
    let groups = series::configurations(points);
    let mut change_points = Vec::new();
    let mut drift = Vec::new();
    for &m in &o.metrics {
        for g in &groups {
            let found = detect::detect(points, &g.indices, m, o);
            change_points.extend(size::change_points(points, &found, m, o));
            drift.push(found.drift);
        }
    }
    let newest = newest(points, &change_points, &drift, o);
    let failed = newest.as_ref().is_some_and(|n| {
        (o.fail_on.contains(&FailOn::Regression) && !n.regressions.is_empty()) || (o.fail_on.contains(&FailOn::Drift) && !n.drifts.is_empty())
    });
    let headline_message = headline::headline(points.len(), newest.as_ref(), &change_points, &drift, o);
    History {
        headline: headline_message.render(Lang::En),
        headline_message,
        fail_on: o.fail_on.clone(),
        failed,
        credence_version: env!("CARGO_PKG_VERSION").to_string(),
        methods: methods_used(o),
        order: o.order,
        metrics: o.metrics.clone(),
        tolerance: o.metrics.iter().map(|&m| (m, o.tolerance_for(m))).collect(),
        configurations: groups.iter().map(|g| g.summary(points)).collect(),
        breaks: series::breaks(points),
        runs,
        change_points,
        drift,
        newest,
    }
}

fn history_run(index: usize, p: &RunPoint) -> HistoryRun {
    HistoryRun {
        index,
        run_id: p.run_id.clone(),
        start_time: p.start_ns.map(series::utc_text),
        fingerprint: p.fingerprint.clone(),
        configuration: p.configuration.clone(),
        grade: p.grade.clone(),
        values: p.values.clone(),
    }
}

/// The newest run's configuration: each metric's last change point decides.
fn newest(points: &[RunPoint], cps: &[size::ChangePointReport], drift: &[detect::Drift], o: &HistoryOptions) -> Option<Newest> {
    let last = points.last()?;
    let index = points.len() - 1;
    let verdicts: BTreeMap<HistoryMetric, Option<Verdict>> = o
        .metrics
        .iter()
        .map(|&m| (m, cps.iter().filter(|c| c.metric == m && c.fingerprint == last.fingerprint).max_by_key(|c| c.index).map(|c| c.verdict)))
        .collect();
    let regressions = verdicts.iter().filter(|(_, v)| **v == Some(Verdict::Regression)).map(|(m, _)| *m).collect();
    let drifts = drift.iter().filter(|d| d.fingerprint == last.fingerprint && headline::drifts_beyond_tolerance(d, o)).map(|d| d.metric).collect();
    Some(Newest { index, run_id: last.run_id.clone(), fingerprint: last.fingerprint.clone(), verdicts, regressions, drifts })
}

fn methods_used(o: &HistoryOptions) -> MethodsUsed {
    let cp = &o.change_points;
    MethodsUsed {
        change_points: ChangePointMethod {
            method: "e_divisive_means_permutation",
            variant: "Matteson & James (2014) E-divisive, distance exponent 1, searching both the split and the end of the right sample (as Apache Otava does), so that a step undone later is found at both ends; each split kept when its permutation p-value (values shuffled within segments) is at most the significance level. Where steps are found, they compete with a least-squares line by BIC; when the line fits as well, the series is reported as drift instead of steps.",
            significance_level: cp.significance,
            permutations: cp.permutations,
            min_segment_runs: cp.min_size,
            seed: cp.seed,
            scale: "natural log of each run's estimate (raw values where an estimate is zero)",
        },
        drift: DriftMethod {
            method: "mann_kendall_hamed_rao_sen",
            significance_level: o.drift_significance,
            note: "Mann-Kendall with the Hamed-Rao autocorrelation correction; Sen's slope per run. Where steps were found, drift is tested on the values less their segment's median. A significant trend is drift (worse or better) only when its size over the series exceeds the noise: the larger of the runs' median 95 % half-width and 1.96 x their scatter about the trend; otherwise it is within noise.",
        },
        change_size: ChangeSizeMethod {
            method: "hierarchical_bootstrap",
            within_run: "each run's replicates are drawn from its reported interval (normal on the log scale, each side from its own half-width); runs are drawn with replacement within a segment, as compare does",
            confidence: 0.95,
            resamples: o.resamples,
            seed: o.seed,
        },
        low_runs: "a run enters a metric's series when its estimate of that metric has a two-sided interval, whatever its grade; runs graded LOW are marked; an estimate without an interval is shown but left out of the change-point search, the drift test and the segment estimates",
        fingerprint_fields: fingerprint::FIELDS.to_vec(),
    }
}
