//! Table layouts of a run directory, format version 1.
//!
//! `schemas/*.schema.json` is the published contract; this module is its mirror in code.
//! `tests/it/schema_drift.rs` fails when the two disagree, so a column is added by editing both.
//! Types are kept to a small, plain palette (no extension or dictionary types) so that pandas,
//! polars and DuckDB read the files without help.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};

/// Version of the run-directory format written by this build.
pub const FORMAT_VERSION: u32 = 1;

/// The plain column types a run directory uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    /// `Timestamp(ns, "UTC")`: epoch nanoseconds.
    Timestamp,
    /// `List<Timestamp(ns, "UTC")>`: e.g. per-chunk arrival times.
    TimestampList,
    Utf8,
    UInt32,
    UInt64,
    Float64,
}

impl ColumnType {
    /// The exact Arrow type written to Parquet.
    pub fn data_type(self) -> DataType {
        match self {
            ColumnType::Timestamp => utc_ns(),
            ColumnType::TimestampList => DataType::List(Arc::new(Field::new("item", utc_ns(), true))),
            ColumnType::Utf8 => DataType::Utf8,
            ColumnType::UInt32 => DataType::UInt32,
            ColumnType::UInt64 => DataType::UInt64,
            ColumnType::Float64 => DataType::Float64,
        }
    }

    /// The spelling used in `schemas/*.schema.json`.
    pub fn name(self) -> &'static str {
        match self {
            ColumnType::Timestamp => "timestamp[ns, UTC]",
            ColumnType::TimestampList => "list<timestamp[ns, UTC]>",
            ColumnType::Utf8 => "utf8",
            ColumnType::UInt32 => "uint32",
            ColumnType::UInt64 => "uint64",
            ColumnType::Float64 => "float64",
        }
    }

    /// The logical type in words, with the physical Arrow types read as it (`run::logical`).
    pub fn logical_name(self) -> &'static str {
        match self {
            ColumnType::Timestamp => "a timestamp with the UTC zone (any unit: s, ms, µs or ns)",
            ColumnType::TimestampList => "a list (List or LargeList, any child name) of timestamps with the UTC zone",
            ColumnType::Utf8 => "a string (Utf8, LargeUtf8, Utf8View or dictionary-encoded)",
            ColumnType::UInt32 => "an unsigned integer up to 4294967295 (any integer type whose values fit)",
            ColumnType::UInt64 => "an unsigned integer (any integer type whose values fit)",
            ColumnType::Float64 => "a number (a float or integer type)",
        }
    }

    pub fn from_name(name: &str) -> Option<ColumnType> {
        ALL_TYPES.iter().copied().find(|t| t.name() == name)
    }
}

const ALL_TYPES: [ColumnType; 6] =
    [ColumnType::Timestamp, ColumnType::TimestampList, ColumnType::Utf8, ColumnType::UInt32, ColumnType::UInt64, ColumnType::Float64];

fn utc_ns() -> DataType {
    DataType::Timestamp(TimeUnit::Nanosecond, Some("UTC".into()))
}

/// One column of a table: what it is called, holds, measures and means.
#[derive(Debug, Clone, Copy)]
pub struct ColumnSpec {
    pub name: &'static str,
    pub ty: ColumnType,
    pub nullable: bool,
    /// Unit of the values (`ns`, `ms`, `MHz`, `W`, `%`, `bytes`, `count`, ...); empty for labels.
    pub unit: &'static str,
    pub meaning: &'static str,
    /// Added after format 1 was first published: files written before may lack it, and it is
    /// then read as all-null. Producers that leave it out get a null column.
    pub optional: bool,
}

const fn col(name: &'static str, ty: ColumnType, nullable: bool, unit: &'static str, meaning: &'static str) -> ColumnSpec {
    ColumnSpec { name, ty, nullable, unit, meaning, optional: false }
}

/// A nullable column added after format 1 was first published (see `ColumnSpec::optional`).
const fn added_col(name: &'static str, ty: ColumnType, unit: &'static str, meaning: &'static str) -> ColumnSpec {
    ColumnSpec { name, ty, nullable: true, unit, meaning, optional: true }
}

/// The tables of a run directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TableKind {
    Requests,
    Gpu,
    Host,
    Server,
}

impl TableKind {
    pub const ALL: [TableKind; 4] = [TableKind::Requests, TableKind::Gpu, TableKind::Host, TableKind::Server];

    pub fn name(self) -> &'static str {
        match self {
            TableKind::Requests => "requests",
            TableKind::Gpu => "gpu",
            TableKind::Host => "host",
            TableKind::Server => "server",
        }
    }

    /// File name inside the run directory. A folder of the same stem holding `*.parquet`
    /// segments is read as the same table (see `run::table`).
    pub fn file_name(self) -> &'static str {
        match self {
            TableKind::Requests => "requests.parquet",
            TableKind::Gpu => "gpu.parquet",
            TableKind::Host => "host.parquet",
            TableKind::Server => "server.parquet",
        }
    }

    /// Only `requests` must be present; telemetry tables are optional.
    pub fn required(self) -> bool {
        matches!(self, TableKind::Requests)
    }

    pub fn description(self) -> &'static str {
        match self {
            TableKind::Requests => "One row per request, as seen by the load generator.",
            TableKind::Gpu => "One row per GPU per telemetry sample (NVML, nvidia-smi or DCGM).",
            TableKind::Host => "One row per host per telemetry sample (procfs), including the load generator's own process.",
            TableKind::Server => "Scraped server metrics in long form: one row per metric sample.",
        }
    }

    pub fn columns(self) -> &'static [ColumnSpec] {
        match self {
            TableKind::Requests => REQUESTS,
            TableKind::Gpu => GPU,
            TableKind::Host => HOST,
            TableKind::Server => SERVER,
        }
    }

    pub fn column(self, name: &str) -> Option<&'static ColumnSpec> {
        self.columns().iter().find(|c| c.name == name)
    }

    /// The Arrow schema written to Parquet, with units as field metadata.
    pub fn arrow_schema(self) -> SchemaRef {
        let fields: Vec<Field> = self
            .columns()
            .iter()
            .map(|c| {
                let mut f = Field::new(c.name, c.ty.data_type(), c.nullable);
                if !c.unit.is_empty() {
                    f = f.with_metadata(HashMap::from([("unit".to_string(), c.unit.to_string())]));
                }
                f
            })
            .collect();
        let meta =
            HashMap::from([("credence.table".to_string(), self.name().to_string()), ("credence.format_version".to_string(), FORMAT_VERSION.to_string())]);
        Arc::new(Schema::new_with_metadata(fields, meta))
    }
}

use ColumnType::{Float64 as F64, Timestamp as Ts, TimestampList as TsList, UInt32 as U32, UInt64 as U64, Utf8 as Str};

/// Error kinds a request may fail with (`error_kind`).
pub const ERROR_KINDS: [&str; 12] =
    ["timeout", "oom", "refused", "http_4xx", "http_5xx", "cancelled", "disconnected", "malformed", "client", "other", "no_tokens", "invalid_source_row"];
/// Phases a capturing tool may declare (`phase`).
pub const PHASES: [&str; 3] = ["warmup", "measure", "cooldown"];
/// Request outcomes (`status`).
pub const STATUSES: [&str; 2] = ["ok", "error"];

pub const REQUESTS: &[ColumnSpec] = &[
    col("request_id", Str, false, "", "Request id, unique within the run."),
    col("client_id", Str, true, "", "Client, worker or connection id that sent the request."),
    col("client_host", Str, true, "", "Host the load generator ran on (joins host.parquet's host)."),
    col("scheduled_ns", Ts, true, "ns", "Intended send time from the open-loop schedule; null for closed-loop tools."),
    col("sent_ns", Ts, false, "ns", "Time the request was actually sent."),
    added_col("first_byte_ns", Ts, "ns", "Arrival of the response's first byte (the HTTP status line); null when not recorded."),
    col(
        "first_token_ns",
        Ts,
        true,
        "ns",
        "Arrival of the first generated token of any kind (a reasoning model's first thought counts); null when none arrived.",
    ),
    added_col(
        "first_content_ns",
        Ts,
        "ns",
        "Arrival of the first answer token (text, content or tool calls), after any reasoning; null when not recorded or none arrived.",
    ),
    col("end_ns", Ts, false, "ns", "Time the response completed or failed."),
    col("chunk_ns", TsList, true, "ns", "Arrival time of every streamed chunk, in order; null when not recorded."),
    col("input_tokens", U32, true, "tokens", "Prompt tokens."),
    col("output_tokens", U32, true, "tokens", "Generated tokens."),
    added_col(
        "reasoning_tokens",
        U32,
        "tokens",
        "Reasoning tokens included in output_tokens (completion_tokens_details.reasoning_tokens); null when not reported.",
    ),
    col("cached_tokens", U32, true, "tokens", "Prompt tokens served from a prefix cache, where known."),
    col("status", Str, false, "", "Outcome: ok or error."),
    col(
        "error_kind",
        Str,
        true,
        "",
        "timeout, oom, refused, http_4xx, http_5xx, cancelled (stopped by the load generator itself, e.g. in flight when its run ended: not a failure of the server, left out of the error rate), disconnected (the server closed the stream early), malformed (a response that is not valid SSE/JSON), no_tokens (a stream that ended well but carried no readable output), invalid_source_row (an imported record that breaks this table's contract, kept with its times dropped and the reason in error_message), client or other; null when ok.",
    ),
    col("error_message", Str, true, "", "Error text as reported (untrusted)."),
    col("http_status", U32, true, "", "HTTP status code of the response."),
    col("phase", Str, true, "", "Phase declared by the capturing tool: warmup, measure or cooldown."),
    added_col(
        "intended_input_tokens",
        U32,
        "tokens",
        "The prompt's length as the load generator built it (words for credence bench, about one token each); null when not known.",
    ),
    added_col("session", U32, "", "A conversation's session number (multi-turn workloads); null otherwise."),
    added_col("turn", U32, "", "The turn within its session, from 1; null outside conversations."),
    added_col("adapter", Str, "", "The LoRA adapter the request named as its model (credence bench --lora); null otherwise."),
    added_col(
        "prompt_hash",
        Str,
        "",
        "FNV-1a 64-bit hash (16 hex digits) of the prompt as sent (the prompt text, or each chat message's role and content, each string ended by a 0 byte): equal prompts, equal hashes; credence bench --store-prompts keeps the texts in prompts.jsonl. Null when not recorded.",
    ),
];

pub const GPU: &[ColumnSpec] = &[
    col("ts_ns", Ts, false, "ns", "Sample time."),
    col("host", Str, false, "", "Host the GPU belongs to."),
    col("gpu_index", U32, false, "", "0-based GPU index (may change across boots; join on gpu_uuid)."),
    col("gpu_uuid", Str, false, "", "Immutable GPU id (GPU-xxxxxxxx-...)."),
    col("source", Str, false, "", "nvml, nvidia-smi, dcgm or simulator."),
    col("sm_clock_mhz", U32, true, "MHz", "Current SM clock."),
    col("sm_clock_max_mhz", U32, true, "MHz", "Maximum SM clock."),
    col("mem_clock_mhz", U32, true, "MHz", "Current memory clock."),
    col("mem_clock_max_mhz", U32, true, "MHz", "Maximum memory clock."),
    col("clocks_event_reasons", U64, true, "bitmask", "Raw NVML clocks-event-reasons bitmask, unknown bits kept."),
    col("temp_gpu_c", F64, true, "degC", "GPU core temperature."),
    col("temp_mem_c", F64, true, "degC", "HBM temperature (null on GDDR boards)."),
    col("temp_slowdown_c", F64, true, "degC", "Slowdown temperature threshold."),
    col("power_w", F64, true, "W", "Board power draw."),
    col("power_limit_w", F64, true, "W", "Software power limit."),
    col("enforced_power_limit_w", F64, true, "W", "Power limit actually enforced (minimum of all limiters)."),
    col("energy_mj", U64, true, "mJ", "Cumulative energy since driver load."),
    col("util_gpu_pct", F64, true, "%", "Share of the sample period with at least one kernel running."),
    col("util_mem_pct", F64, true, "%", "Share of the sample period device memory was read or written."),
    col("mem_used_bytes", U64, true, "bytes", "Framebuffer memory in use."),
    col("mem_total_bytes", U64, true, "bytes", "Framebuffer memory in total."),
    col("viol_power_ns", U64, true, "ns", "Cumulative time clocks were held down by the power limit."),
    col("viol_thermal_ns", U64, true, "ns", "Cumulative time clocks were held down by temperature."),
    col("pstate", U32, true, "", "Performance state (0 = P0, maximum)."),
    col("compute_proc_count", U32, true, "count", "Compute processes on the GPU."),
    col("foreign_proc_count", U32, true, "count", "Compute processes that are not the server under test."),
    col("foreign_mem_bytes", U64, true, "bytes", "GPU memory used by foreign processes."),
    col("sample_us", U32, true, "us", "How long taking this sample took (collector overhead)."),
    col("errors", Str, true, "", "Fields that could not be read, e.g. temp_mem:NotSupported."),
];

pub const HOST: &[ColumnSpec] = &[
    col("ts_ns", Ts, false, "ns", "Sample time."),
    col("host", Str, false, "", "Host name."),
    col("interval_s", F64, true, "s", "Actual time since the previous sample."),
    col("cpu_user_pct", F64, true, "%", "Share of all CPU time in user mode (incl. nice) since the previous sample."),
    col("cpu_system_pct", F64, true, "%", "Share in system mode (incl. irq and softirq)."),
    col("cpu_iowait_pct", F64, true, "%", "Share in iowait."),
    col("cpu_steal_pct", F64, true, "%", "Share stolen by the hypervisor."),
    col("cpu_idle_pct", F64, true, "%", "Share idle."),
    col("ctx_switches", U64, true, "count", "Cumulative context switches (/proc/stat ctxt)."),
    col("procs_running", U32, true, "count", "Runnable tasks."),
    col("load1", F64, true, "", "1-minute load average."),
    col("psi_cpu_some_avg10", F64, true, "%", "CPU pressure, some, 10 s average."),
    col("mem_total_bytes", U64, true, "bytes", "MemTotal."),
    col("mem_available_bytes", U64, true, "bytes", "MemAvailable."),
    col("net_rx_bytes", U64, true, "bytes", "Cumulative received bytes, all non-loopback interfaces."),
    col("net_tx_bytes", U64, true, "bytes", "Cumulative sent bytes, all non-loopback interfaces."),
    col("net_errs", U64, true, "count", "Cumulative interface receive and send errors."),
    col("net_drops", U64, true, "count", "Cumulative interface receive and send drops."),
    col("tcp_out_segs", U64, true, "count", "Cumulative TCP OutSegs."),
    col("tcp_retrans_segs", U64, true, "count", "Cumulative TCP RetransSegs."),
    col("tcp_timeouts", U64, true, "count", "Cumulative TcpExt TCPTimeouts."),
    col("tcp_listen_overflows", U64, true, "count", "Cumulative TcpExt ListenOverflows."),
    col("cpu_governor", Str, true, "", "CPU frequency governor (cpu0, or 'mixed')."),
    col("cpu_freq_mhz_avg", F64, true, "MHz", "Mean current CPU frequency over cores."),
    col("lg_pid", U32, true, "", "Load-generator process id."),
    col("lg_cpu_pct", F64, true, "%", "Load-generator CPU in % of one core (process and children)."),
    col("lg_max_thread_cpu_pct", F64, true, "%", "CPU of the load generator's hottest thread, % of one core."),
    col("lg_rss_bytes", U64, true, "bytes", "Load-generator resident memory."),
    col("lg_threads", U32, true, "count", "Load-generator threads."),
    col("lg_vol_ctxsw", U64, true, "count", "Cumulative voluntary context switches of the load generator."),
    col("lg_invol_ctxsw", U64, true, "count", "Cumulative involuntary context switches of the load generator."),
    col("lg_planned_sends", U64, true, "count", "Sends the schedule planned in this interval (self-instrumentation)."),
    col("lg_actual_sends", U64, true, "count", "Sends made in this interval."),
    col("lg_send_lag_p50_ms", F64, true, "ms", "Median send lag (actual minus scheduled) in this interval."),
    col("lg_send_lag_p99_ms", F64, true, "ms", "P99 send lag in this interval."),
    col("lg_send_lag_max_ms", F64, true, "ms", "Maximum send lag in this interval."),
    col("lg_dropped_sends", U64, true, "count", "Sends dropped or skipped in this interval."),
    col("lg_inflight", U32, true, "count", "Requests in flight at the sample time."),
];

pub const SERVER: &[ColumnSpec] = &[
    col("ts_ns", Ts, false, "ns", "Scrape time."),
    col("endpoint", Str, true, "", "Metrics endpoint scraped."),
    col("metric", Str, false, "", "Metric name, e.g. vllm:num_requests_waiting."),
    col("labels", Str, true, "", "Prometheus labels as k=\"v\" pairs, comma-separated."),
    col("value", F64, false, "", "Sample value."),
];

/// The machine-readable description of a table, as committed in `schemas/<table>.schema.json`.
pub fn describe(kind: TableKind) -> serde_json::Value {
    let columns: Vec<serde_json::Value> = kind
        .columns()
        .iter()
        .map(|c| {
            let mut col = serde_json::json!({
                "name": c.name,
                "type": c.ty.name(),
                "unit": if c.unit.is_empty() { serde_json::Value::Null } else { c.unit.into() },
                "nullable": c.nullable,
                "meaning": c.meaning,
            });
            if c.optional {
                col["optional"] = true.into();
            }
            col
        })
        .collect();
    serde_json::json!({
        "table": kind.name(),
        "file": kind.file_name(),
        "format_version": FORMAT_VERSION,
        "required": kind.required(),
        "description": kind.description(),
        "columns": columns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_are_unique_per_table() {
        for t in TableKind::ALL {
            let mut names: Vec<_> = t.columns().iter().map(|c| c.name).collect();
            names.sort_unstable();
            let before = names.len();
            names.dedup();
            assert_eq!(before, names.len(), "duplicate column in {}", t.name());
        }
    }

    #[test]
    fn type_names_round_trip() {
        for t in ALL_TYPES {
            assert_eq!(ColumnType::from_name(t.name()), Some(t));
        }
    }
}
