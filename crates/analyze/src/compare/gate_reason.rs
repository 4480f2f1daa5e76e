//! Why a validity gate came out as it did, as data. `message` states it in the catalog's terms
//! (`locales/*/compare.ftl`), which every report language renders; the JSON keeps the English.

use crate::steady::Classification;
use credence_messages::{Message, Sep};
use credence_run::manifest::Workload;
use credence_run::text::significant;

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
        Load { arrival: w.arrival.name().to_string(), rate_per_s: w.rate_per_s, concurrency: w.concurrency, streaming: w.streaming }
    }

    /// "poisson arrivals at 10 requests/s, streaming": the load as a reader says it.
    pub fn message(&self) -> Message {
        let rate = self.rate_per_s.map_or(Message::new("empty"), |r| Message::new("load-rate").text("rate", significant(r, 3)));
        let concurrency = self.concurrency.map_or(Message::new("empty"), |c| Message::new("load-concurrency").int("n", c));
        let streaming = match self.streaming {
            Some(true) => "yes",
            Some(false) => "no",
            None => "unknown",
        };
        Message::new("load").msg("arrival", Message::new("arrival").text("arrival", &self.arrival)).msg("rate", rate).msg("concurrency", concurrency).text("streaming", streaming)
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
    /// One arm has a single run, the other `runs`: the run-to-run noise is measured on that
    /// other arm only.
    OneArmSingle {
        single: &'static str,
        runs: usize,
    },
    /// The largest relative difference between bracketing base runs' P50 TTFT.
    Drift(f64),
    /// The seed's A/A check on P50 TTFT: runs of one arm differ by up to `spread`; the arms by
    /// `change`.
    RunSpread {
        spread: f64,
        change: f64,
    },
    /// The arms' prefix-cache hit rates, and whether they differ beyond their noise.
    CacheState {
        base: f64,
        cand: f64,
        differ: bool,
    },
    /// Only one arm reports its prefix-cache hits.
    CacheOneArm,
    /// A reason given as text (tests build gates this way).
    Text(String),
}

impl GateReason {
    /// The reason as a message (`locales/*/compare.ftl`); the JSON keeps its English beside it.
    pub fn message(&self) -> Message {
        let percent = |x: f64| format!("{:.1}", x * 100.0);
        match self {
            GateReason::Lengths { d, limit, p } => Message::new("gate-lengths").num("d", *d, 3).text("limit", limit.to_string()).text("p", format!("{p:.2e}")),
            GateReason::NoTokenCounts => Message::new("gate-no-token-counts"),
            GateReason::Arrival { base, cand } => Message::new("gate-arrival").msg("base", base.message()).msg("cand", cand.message()),
            GateReason::ManifestsSame => Message::new("gate-manifests-same"),
            GateReason::OneSwitch(key) => Message::new("gate-one-switch").text("key", key),
            GateReason::ManySwitches(keys) => Message::new("gate-many-switches").int("n", keys.len()).list("keys", identifiers(keys), Sep::Enumeration),
            GateReason::Steady(c) => Message::new("gate-steady").msg("class", steady_class(*c)),
            GateReason::LeftOut(c) => Message::new("gate-left-out").msg("class", steady_class(*c)),
            GateReason::Replicated { base, cand } => Message::new("gate-replicated").int("base", *base).int("cand", *cand),
            GateReason::SingleRun => Message::new("gate-single-run"),
            GateReason::OneArmSingle { single, runs } => Message::new("gate-one-arm-single").text("arm", *single).int("runs", *runs),
            GateReason::Drift(d) => Message::new("gate-drift").text("percent", percent(*d)),
            GateReason::RunSpread { spread, change } => Message::new("gate-run-spread")
                .text("spread", percent(*spread))
                .text("change", format!("{:+.1}", change * 100.0))
                .text("as_much", if spread >= &change.abs() { "yes" } else { "no" }),
            GateReason::CacheState { base, cand, differ } => Message::new("gate-cache-state")
                .text("base", format!("{:.0}", base * 100.0))
                .text("cand", format!("{:.0}", cand * 100.0))
                .text("differ", if *differ { "yes" } else { "no" }),
            GateReason::CacheOneArm => Message::new("gate-cache-one-arm"),
            GateReason::Text(t) => Message::new("as-written").text("text", t),
        }
    }
}

/// A steady-state classification as a message (its English is the variant's name).
fn steady_class(c: Classification) -> Message {
    Message::new("steady-class").text("class", format!("{c:?}"))
}

/// Names shown as written (manifest keys, run ids), as list items.
pub fn identifiers(names: &[String]) -> Vec<Message> {
    names.iter().map(|n| Message::new("as-written").text("text", n)).collect()
}
