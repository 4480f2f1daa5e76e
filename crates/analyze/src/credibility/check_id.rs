//! The names of the credibility checks, as one typed vocabulary. A check's words are the
//! catalog's (`check-name`, and its reasons in `locales/*/checks.ftl`); its id is what the JSON
//! has always written (`steady_state`, `sample_size.ttft_p99`, `environment.clocks_locked`), so
//! the JSON is unchanged. A new check is its module, one arm here and one message per
//! language; the compiler finds every `match` to extend.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CheckId {
    SteadyState,
    /// Whether a headline percentile can be bounded: `sample_size.<metric>_<stat>`.
    SampleSize(String),
    Dependence,
    ClientSaturation,
    Throttling,
    Interference,
    ErrorRate,
    IntervalWidth,
    UnexplainedAnomalies,
    SourceLimits,
    DataQuality,
    Replication,
    Attribution,
    ClocksLocked,
    CpuGovernor,
    GpuIdleAndCool,
    NoForeignGpuProcesses,
    PageCache,
    ServerRestarted,
    /// Whether the server's prefix cache was emptied before the run (runs that see the cache).
    PrefixCacheReset,
    /// Whether the server counted the prompts as `bench --tokenizer` built them.
    PromptLengths,
    /// Reports without request records: whether there are any.
    PerRequestData,
    GpuTelemetry,
    GpusUnderLoad,
    ClockStability,
    /// The source tool's summary numbers, cross-checked.
    Claims,
    /// Whether the server's metrics a run asked for were recorded (`--server-metrics`).
    ServerMetrics,
    /// A fact the source tool recorded about its run (`detail.incomplete`), by its name.
    Fact(String),
}

/// The checks with a fixed id (every variant but those that carry a name).
const FIXED: [CheckId; 26] = [
    CheckId::SteadyState,
    CheckId::Dependence,
    CheckId::ClientSaturation,
    CheckId::Throttling,
    CheckId::Interference,
    CheckId::ErrorRate,
    CheckId::IntervalWidth,
    CheckId::UnexplainedAnomalies,
    CheckId::SourceLimits,
    CheckId::DataQuality,
    CheckId::Replication,
    CheckId::Attribution,
    CheckId::ClocksLocked,
    CheckId::CpuGovernor,
    CheckId::GpuIdleAndCool,
    CheckId::NoForeignGpuProcesses,
    CheckId::PageCache,
    CheckId::ServerRestarted,
    CheckId::PrefixCacheReset,
    CheckId::PromptLengths,
    CheckId::PerRequestData,
    CheckId::GpuTelemetry,
    CheckId::GpusUnderLoad,
    CheckId::ClockStability,
    CheckId::Claims,
    CheckId::ServerMetrics,
];

const SAMPLE_SIZE: &str = "sample_size.";

impl CheckId {
    /// The id the JSON writes.
    pub fn id(&self) -> String {
        let fixed = match self {
            CheckId::SampleSize(metric) => return format!("{SAMPLE_SIZE}{metric}"),
            CheckId::Fact(name) => return name.clone(),
            CheckId::SteadyState => "steady_state",
            CheckId::Dependence => "dependence",
            CheckId::ClientSaturation => "client_saturation",
            CheckId::Throttling => "throttling",
            CheckId::Interference => "interference",
            CheckId::ErrorRate => "error_rate",
            CheckId::IntervalWidth => "interval_width",
            CheckId::UnexplainedAnomalies => "unexplained_anomalies",
            CheckId::SourceLimits => "source_limits",
            CheckId::DataQuality => "data_quality",
            CheckId::Replication => "replication",
            CheckId::Attribution => "attribution",
            CheckId::ClocksLocked => "environment.clocks_locked",
            CheckId::CpuGovernor => "environment.cpu_governor",
            CheckId::GpuIdleAndCool => "environment.gpu_idle_and_cool",
            CheckId::NoForeignGpuProcesses => "environment.no_foreign_gpu_processes",
            CheckId::PageCache => "environment.page_cache",
            CheckId::ServerRestarted => "environment.server_restarted",
            CheckId::PrefixCacheReset => "environment.prefix_cache_reset",
            CheckId::PromptLengths => "prompt_lengths",
            CheckId::PerRequestData => "per_request_data",
            CheckId::GpuTelemetry => "gpu_telemetry",
            CheckId::GpusUnderLoad => "gpus_under_load",
            CheckId::ClockStability => "clock_stability",
            CheckId::Claims => "claims",
            CheckId::ServerMetrics => "server_metrics",
        };
        fixed.to_string()
    }

    /// Whether the check is about the machine's set-up (`environment.*`): the statement words
    /// these together.
    pub fn is_environment(&self) -> bool {
        matches!(
            self,
            CheckId::ClocksLocked | CheckId::CpuGovernor | CheckId::GpuIdleAndCool | CheckId::NoForeignGpuProcesses | CheckId::PageCache
                | CheckId::ServerRestarted
                | CheckId::PrefixCacheReset
        )
    }

    /// The check with id `id`; a name credence does not know is a source tool's fact.
    pub fn parse(id: &str) -> CheckId {
        if let Some(metric) = id.strip_prefix(SAMPLE_SIZE) {
            return CheckId::SampleSize(metric.to_string());
        }
        FIXED.iter().find(|c| c.id() == id).map_or_else(|| CheckId::Fact(id.to_string()), CheckId::clone)
    }
}

impl fmt::Display for CheckId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id())
    }
}

impl PartialEq<&str> for CheckId {
    fn eq(&self, other: &&str) -> bool {
        self.id() == *other
    }
}

impl Serialize for CheckId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.id())
    }
}

impl<'de> Deserialize<'de> for CheckId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CheckId, D::Error> {
        Ok(CheckId::parse(&String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_round_trips() {
        for c in &FIXED {
            assert_eq!(CheckId::parse(&c.id()), *c);
        }
        assert_eq!(CheckId::Throttling.id(), "throttling");
        assert_eq!(CheckId::parse("sample_size.ttft_p99"), CheckId::SampleSize("ttft_p99".into()));
        assert_eq!(CheckId::SampleSize("ttft_p99".into()).id(), "sample_size.ttft_p99");
        assert_eq!(CheckId::parse("detail.incomplete"), CheckId::Fact("detail.incomplete".into()));
        assert_eq!(serde_json::to_string(&CheckId::ClocksLocked).unwrap(), "\"environment.clocks_locked\"");
    }
}
