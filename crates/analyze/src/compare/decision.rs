//! Which verdicts decide a comparison: those as measured, or those in clean conditions.
//!
//! The deciding verdicts set `--fail-on`'s exit code and lead every headline (terminal,
//! Markdown, PDF, JSON). Without episodes in either arm there is one set. With episodes, the
//! clean verdicts decide when both arms spent about the same share of their steady windows in
//! them: the environment hit both alike, and the clean windows show what the switch does. When
//! the shares differ, the switch itself may have caused the episodes (a candidate that runs
//! hotter throttles more), so the verdicts as measured decide, and the headline says why.

use std::collections::BTreeMap;

use serde::Serialize;

use super::clean::CleanComparison;
use super::verdict::Verdict;
use super::{Comparison, MetricComparison};

/// Episode shares further apart than this (absolute, of each arm's steady windows) may have
/// been caused by the switch.
pub const SHARE_GAP: f64 = 0.05;

/// The set of verdicts a reader and `--fail-on` go by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Deciding {
    AsMeasured,
    Clean,
}

/// Why those verdicts decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidingWhy {
    /// Neither arm has episodes with an environmental cause: one set of verdicts.
    NoEpisodes,
    /// Both arms spent about the same share of their windows in episodes.
    EpisodesAlike,
    /// The shares differ by more than `SHARE_GAP`: the switch may have caused them.
    EpisodesDiffer,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Decision {
    pub deciding: Deciding,
    pub why: DecidingWhy,
    /// Whether any metric's clean verdict differs from its verdict as measured (then every
    /// headline gives both).
    pub verdicts_differ: bool,
}

/// The decision for the verdicts as measured and, when either arm has episodes, clean.
pub fn decide(measured: &BTreeMap<String, MetricComparison>, clean: Option<&CleanComparison>) -> Decision {
    let Some(c) = clean else {
        return Decision { deciding: Deciding::AsMeasured, why: DecidingWhy::NoEpisodes, verdicts_differ: false };
    };
    let verdicts_differ = c.metrics.iter().any(|(k, m)| measured.get(k).is_some_and(|x| x.verdict != m.verdict));
    let alike = (c.excluded.base_share - c.excluded.cand_share).abs() <= SHARE_GAP;
    let (deciding, why) = if alike { (Deciding::Clean, DecidingWhy::EpisodesAlike) } else { (Deciding::AsMeasured, DecidingWhy::EpisodesDiffer) };
    Decision { deciding, why, verdicts_differ }
}

impl Comparison {
    /// Each metric's verdict under `condition`: the deciding one unless the user named one.
    pub fn verdicts(&self, condition: Option<Deciding>) -> BTreeMap<&str, Verdict> {
        match (condition.unwrap_or(self.decision.deciding), &self.clean) {
            (Deciding::Clean, Some(c)) => c.metrics.iter().map(|(k, m)| (k.as_str(), m.verdict)).collect(),
            _ => self.metrics.iter().map(|(k, m)| (k.as_str(), m.verdict)).collect(),
        }
    }
}
