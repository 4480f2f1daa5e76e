//! Why a validity gate came out as it did, as data: `english` words it for the JSON and the
//! English report, and the report's Chinese words it from the same variants.

use crate::steady::Classification;
use credence_run::manifest::Workload;

/// The load an arm offered, as the arrival gate compares it.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// The arrival process, lower-case (`poisson`, `closed_loop`, …).
    pub arrival: String,
    pub rate_per_s: Option<f64>,
    pub concurrency: Option<u32>,
    pub streaming: Option<bool>,
}

impl Load {
    pub fn of(w: &Workload) -> Load {
        Load { arrival: format!("{:?}", w.arrival).to_lowercase(), rate_per_s: w.rate_per_s, concurrency: w.concurrency, streaming: w.streaming }
    }

    /// "poisson arrivals at 10 requests/s, streaming" — the load as a reader would say it.
    pub fn english(&self) -> String {
        let mut s = format!("{} arrivals", self.arrival);
        if let Some(r) = self.rate_per_s {
            s += &format!(" at {} requests/s", credence_run::text::significant(r, 3));
        }
        if let Some(c) = self.concurrency {
            s += &format!(", concurrency {c}");
        }
        s += match self.streaming {
            Some(true) => ", streaming",
            Some(false) => ", not streaming",
            None => ", streaming unknown",
        };
        s
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum GateReason {
    /// Two-sample KS of the arms' input or output lengths.
    Lengths {
        d: f64,
        limit: f64,
        p: f64,
    },
    NoTokenCounts,
    Arrival {
        base: Load,
        cand: Load,
    },
    ManifestsSame,
    OneSwitch(String),
    /// The keys of every manifest field that differs.
    ManySwitches(Vec<String>),
    Steady(Classification),
    /// A run without steady state, set aside from an arm that keeps two or more runs.
    LeftOut(Classification),
    Replicated {
        base: usize,
        cand: usize,
    },
    SingleRun,
    /// The largest relative difference between bracketing base runs' P50 TTFT.
    Drift(f64),
    /// The seed's A/A check on P50 TTFT: runs of one arm differ by up to `spread`; the arms by
    /// `change`.
    RunSpread {
        spread: f64,
        change: f64,
    },
    /// A reason given as text (tests build gates this way).
    Text(String),
}

impl GateReason {
    pub fn english(&self) -> String {
        match self {
            GateReason::Lengths { d, limit, p } => format!("two-sample KS: D = {d:.3} (limit {limit}), p = {p:.2e}"),
            GateReason::NoTokenCounts => "no token counts".into(),
            GateReason::Arrival { base, cand } => format!("base {}; candidate {}", base.english(), cand.english()),
            GateReason::ManifestsSame => "the manifests do not differ: nothing records what the switch was".into(),
            GateReason::OneSwitch(key) => format!("one switch: {key}"),
            GateReason::ManySwitches(keys) => {
                format!("{} things differ; the effect cannot be pinned on one switch: {}", keys.len(), keys.join(", "))
            }
            GateReason::Steady(c) => format!("{c:?}"),
            GateReason::LeftOut(c) => format!("{c:?}: left out of its arm, which keeps enough runs to compare"),
            GateReason::Replicated { base, cand } => format!("{base} and {cand} runs per arm"),
            GateReason::SingleRun => "single-run: cannot separate the configuration effect from run-to-run noise".into(),
            GateReason::Drift(d) => format!("bracketing base runs differ by {:.1} % in P50 TTFT", d * 100.0),
            GateReason::RunSpread { spread, change } => format!(
                "runs of one arm differ by up to {:.1} % in P50 TTFT; the arms differ by {:+.1} %{}",
                spread * 100.0,
                change * 100.0,
                if spread >= &change.abs() { ": the runs of one configuration differ as much as the configurations do" } else { "" }
            ),
            GateReason::Text(t) => t.clone(),
        }
    }
}
