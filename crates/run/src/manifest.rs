//! `run.json`: what was measured, how, on what, and where the data came from.
//!
//! Documented field by field in `schemas/run.schema.json`; `tests/it/schema_drift.rs` checks that a
//! fully populated manifest and that schema agree.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The published JSON Schema of `run.json`, compiled in so `validate` checks against it.
pub const RUN_SCHEMA: &str = include_str!("../../../schemas/run.schema.json");

/// The manifest of a run directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Run-directory format version (see `schema::FORMAT_VERSION`).
    pub format_version: u32,
    pub run_id: String,
    pub creator: Creator,
    pub source: Source,
    /// Free key=value labels, e.g. `continuous_batching=on`.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    pub config: SystemConfig,
    pub workload: Workload,
    pub environment: Environment,
    #[serde(default)]
    pub phases: DeclaredPhases,
    pub clock: Clock,
    /// Which tables the directory holds, by table name (`requests`, `gpu`, ...).
    pub tables: Vec<String>,
    /// How the scrapes of the server's metrics went (`--server-metrics`); absent when none were
    /// asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_scrapes: Option<ServerScrapes>,
}

/// How the scrapes of the server's Prometheus endpoint went: every scrape counted, the failed
/// ones by kind, so that metrics asked for and not recorded are never lost in silence.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerScrapes {
    pub endpoint: String,
    pub attempts: u64,
    pub succeeded: u64,
    /// Failed scrapes by kind: `refused`, `timeout`, `http_status`, `unparseable`.
    pub failed: BTreeMap<String, u64>,
    /// The first failure's reason, in words.
    pub first_failure: Option<String>,
    /// Seconds from the first scrape to the first failure.
    pub first_failure_s: Option<f64>,
}

impl ServerScrapes {
    /// Failed scrapes, in all.
    pub fn failures(&self) -> u64 {
        self.failed.values().sum()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Creator {
    pub tool: String,
    pub version: String,
}

/// Where the data came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub kind: SourceKind,
    /// Collector, importer format, or simulator scenario.
    pub name: String,
    /// Version of the tool that produced the original files, when they carry one.
    pub tool_version: Option<String>,
    #[serde(default)]
    pub files: Vec<SourceFile>,
    /// Simulator seed, when simulated.
    pub seed: Option<u64>,
    /// What the source can and cannot tell (importers set this; absent for credence's own runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capabilities: Option<Capabilities>,
}

/// What a source format records, so that the analysis reports NOT_CHECKED instead of guessing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capabilities {
    /// Per-request timestamps: `absolute`, `relative` or `absent`.
    pub timestamps: String,
    /// Scheduled (intended) send times, so coordinated omission is measurable.
    pub scheduled_times: bool,
    /// What the inter-token latency is: `chunk` (per streamed chunk), `token`, `mean_only`
    /// (a per-request mean) or `none`.
    pub itl: String,
    /// Whether the tool's warmup requests are in the data: `included`, `excluded` or `unknown`.
    pub warmup: String,
    /// Limits in words, e.g. "output tokens re-counted with a fixed tokenizer".
    #[serde(default)]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    Collector,
    Importer,
    Simulator,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceFile {
    pub name: String,
    pub size_bytes: u64,
    pub sha256: String,
}

/// The system under test.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SystemConfig {
    pub engine: Option<String>,
    pub engine_version: Option<String>,
    pub model: Option<String>,
    pub hardware: Option<String>,
    /// e.g. `tp=2`.
    pub parallelism: Option<String>,
    /// Any other key=value the user gives (`--config k=v`).
    #[serde(default)]
    pub extra: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrival {
    Poisson,
    Constant,
    ClosedLoop,
    TraceReplay,
    Unknown,
}

impl Arrival {
    /// The name `run.json` gives it (`closed_loop`), which the catalogs select on.
    pub fn name(self) -> &'static str {
        match self {
            Arrival::Poisson => "poisson",
            Arrival::Constant => "constant",
            Arrival::ClosedLoop => "closed_loop",
            Arrival::TraceReplay => "trace_replay",
            Arrival::Unknown => "unknown",
        }
    }
}

/// The load that was offered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    pub arrival: Arrival,
    /// Target request rate for open-loop arrivals.
    pub rate_per_s: Option<f64>,
    /// Client concurrency for closed-loop arrivals.
    pub concurrency: Option<u32>,
    /// Dataset name or path, when prompts came from one.
    pub dataset: Option<String>,
    /// Length distributions, e.g. `lognormal(median=512, sigma=0.6, 16..4096)`.
    pub input_length: Option<String>,
    pub output_length: Option<String>,
    pub streaming: Option<bool>,
    /// True: connections are reused; false: a new connection per request.
    pub connection_reuse: Option<bool>,
    /// Connections the load generator kept (its pool size; one per client in closed loop).
    /// Added after format 1 was published: left out when unknown, so older manifests and
    /// new ones without it are the same bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connections: Option<u32>,
    /// Planned duration of the load.
    pub duration_s: Option<f64>,
    /// HTTPS as the load generator used it; absent for plain HTTP (and for older manifests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls: Option<TlsUse>,
    /// Names of the extra request headers sent (`Authorization` for an API key), never their
    /// values; absent when there were none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub request_headers: Vec<String>,
    /// How many requests the load generator let be in flight at once, and what bounded it;
    /// absent for imported runs and runs written before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_flight: Option<InFlight>,
}

/// The load generator's bound on requests in flight, and what it reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InFlight {
    /// The most requests (one per connection) the client allowed in flight at once.
    pub limit: u32,
    /// What set the limit: `max_in_flight` (`--max-in-flight`), `connections` (a fixed pool,
    /// `--connections`), `fd_limit` (the file-descriptor limit) or `concurrency` (closed loop).
    pub limited_by: String,
    /// RLIMIT_NOFILE during the run: the soft limit was raised to the hard one at start
    /// where the OS allowed it.
    pub fd_soft_limit: Option<u64>,
    pub fd_hard_limit: Option<u64>,
    /// Connections opened before time zero.
    pub prewarmed: u32,
    /// The most requests in flight at once.
    pub peak: u32,
}

/// How HTTPS connections were verified. Holds no secret.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlsUse {
    /// Certificate verification was skipped (`--insecure`).
    pub insecure: bool,
    /// File name of the CA certificate trusted besides the system's roots (`--ca-cert`).
    pub ca_cert: Option<String>,
}

impl Workload {
    /// A load nothing is known about (importers and collectors fill in what their source says).
    pub fn unknown() -> Workload {
        Workload {
            arrival: Arrival::Unknown,
            rate_per_s: None,
            concurrency: None,
            dataset: None,
            input_length: None,
            output_length: None,
            streaming: None,
            connection_reuse: None,
            connections: None,
            duration_s: None,
            tls: None,
            request_headers: Vec::new(),
            in_flight: None,
        }
    }
}

/// A checklist item: a value, or `null` with the reason it is unknown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observed<T> {
    pub value: Option<T>,
    /// Why the value is unknown (or a note on how it was read).
    pub note: Option<String>,
}

impl<T> Observed<T> {
    pub fn known(value: T) -> Self {
        Observed { value: Some(value), note: None }
    }

    pub fn unknown(reason: impl Into<String>) -> Self {
        Observed { value: None, note: Some(reason.into()) }
    }
}

impl<T> Observed<T> {
    /// The default: nothing was recorded.
    pub fn is_unrecorded(&self) -> bool {
        self.value.is_none() && self.note.as_deref() == Some("not recorded")
    }
}

impl<T> Default for Observed<T> {
    fn default() -> Self {
        Observed::unknown("not recorded")
    }
}

/// A GPU process seen before the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuProcess {
    pub gpu_index: u32,
    pub pid: u32,
    pub name: String,
    pub used_mem_bytes: Option<u64>,
}

/// The pre-run checklist. Unknown is a valid value for every item.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Environment {
    /// Hottest GPU's temperature when the run started.
    pub gpu_temp_at_start_c: Observed<f64>,
    /// True when the GPU was still cooling from an earlier load.
    pub gpu_cooling_down: Observed<bool>,
    /// Compute processes on the GPUs that are not the server under test.
    pub foreign_gpu_processes: Observed<Vec<GpuProcess>>,
    pub clocks_locked: Observed<bool>,
    pub application_clocks_set: Observed<bool>,
    pub persistence_mode: Observed<bool>,
    /// Governor of each core, or one value when all agree.
    pub cpu_governor: Observed<String>,
    pub gpu_memory_used_bytes: Observed<u64>,
    pub host_memory_used_bytes: Observed<u64>,
    pub page_cache_dropped: Observed<bool>,
    pub server_restarted: Observed<bool>,
    pub model_path: Observed<String>,
    pub driver_version: Observed<String>,
    pub cuda_version: Observed<String>,
    pub nvml_version: Observed<String>,
    pub engine_version: Observed<String>,
    pub kernel: Observed<String>,
    pub cpu_model: Observed<String>,
    /// Whether the server's prefix cache was emptied before the run (`bench
    /// --reset-prefix-cache`), with the endpoint's answer. Added after format 1: absent while
    /// unrecorded, so older manifests and runs without it are the same bytes.
    #[serde(default, skip_serializing_if = "Observed::is_unrecorded")]
    pub prefix_cache_reset: Observed<bool>,
}

/// Phases the capturing tool declared.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeclaredPhases {
    pub warmup_requests: Option<u64>,
    pub warmup_s: Option<f64>,
    /// Whether the tool's warmup requests are present in `requests.parquet` (marked `warmup`).
    pub warmup_included: Option<bool>,
    pub note: Option<String>,
    /// How `bench --until` ended the run; absent for a run of fixed length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<RunStop>,
}

/// Why and when `bench --until` stopped: its rule and parameters, the reason, the time and
/// each target as it stood.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunStop {
    /// The stopping rule (`staged`).
    pub rule: String,
    pub min_duration_s: f64,
    pub max_duration_s: f64,
    pub max_error_rate: Option<f64>,
    /// `targets_met`, `error_rate`, `client_saturated`, `no_steady_state`, `unreachable`,
    /// `max_duration` or `interrupted`.
    pub reason: String,
    /// The target that could not be reached (`unreachable`).
    pub detail: Option<String>,
    /// Seconds from the first send when the rule ended the load.
    pub stopped_at_s: f64,
    /// Where the warmup ended, measured online.
    pub warmup_end_s: Option<f64>,
    pub targets: Vec<StopTarget>,
    /// Environmental episodes the estimates left out, as attribution found them online.
    #[serde(default)]
    pub excluded: Vec<StopEpisode>,
}

/// An episode `bench --until` left out of its estimates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopEpisode {
    /// The cause's id (`thermal_throttle`).
    pub cause: String,
    pub start_s: f64,
    pub end_s: f64,
}

/// One `--until` target when the run stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopTarget {
    /// As the user named it (`ttft_p99`).
    pub key: String,
    /// Goal: the 95 % interval's half-width relative to the estimate (0.03).
    pub goal: f64,
    pub estimate: Option<f64>,
    pub half_width: Option<f64>,
    pub met: bool,
}

/// How timestamps were taken.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Always `unix_epoch_utc` in format version 1.
    pub epoch_origin: String,
    pub timestamps: TimestampQuality,
    /// Which clock each table's timestamps come from, by table name.
    pub tables: BTreeMap<String, String>,
    /// Nominal telemetry sampling interval.
    pub telemetry_interval_s: Option<f64>,
    /// Set when local times were converted with an assumed zone (`--tz`).
    pub timezone_assumed: Option<String>,
    /// How times were converted to epoch ns, in words.
    pub conversion: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimestampQuality {
    /// True epoch times.
    Absolute,
    /// Consistent within the run, but the epoch origin is not known.
    Relative,
    /// The source had no per-request times; the stored ones are synthetic.
    Absent,
}

impl Manifest {
    pub fn from_json(text: &str) -> Result<Manifest, serde_json::Error> {
        serde_json::from_str(text)
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("a manifest always serializes");
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod arrival_tests {
    use super::Arrival;

    #[test]
    fn an_arrivals_name_is_its_run_json_spelling() {
        for a in [Arrival::Poisson, Arrival::Constant, Arrival::ClosedLoop, Arrival::TraceReplay, Arrival::Unknown] {
            assert_eq!(serde_json::to_value(a).unwrap(), a.name());
        }
    }
}
