//! `credence collect`: per-second GPU, host and server telemetry into a run directory.

use std::path::PathBuf;

use crate::cli::args::{GpuArg, check_metrics_url, duration_flag, parse_pairs};
use crate::cli::gpu::gpu_source;
use crate::collect::gpu::GpuSource;
use crate::collect::{ClientTarget, CollectOptions, collect};
use crate::error::{CliError, ExitCode};

#[derive(Debug, clap::Args)]
pub struct CollectArgs {
    /// The run directory to create (must not exist).
    #[arg(long)]
    out: PathBuf,
    /// Sampling interval, e.g. 1s or 500ms.
    #[arg(long, default_value = "1s")]
    interval: String,
    /// GPU telemetry through NVML: auto (continue without it when absent), on, off.
    #[arg(long, value_enum, default_value_t = GpuArg::Auto)]
    gpu: GpuArg,
    /// The load generator's process id.
    #[arg(long)]
    client_pid: Option<u32>,
    /// The load generator's process name.
    #[arg(long)]
    client_name: Option<String>,
    /// A Prometheus metrics URL of the server (http://host:port/metrics).
    #[arg(long)]
    server_metrics: Option<String>,
    /// A label, k=v (repeatable).
    #[arg(long)]
    label: Vec<String>,
    /// A configuration item, k=v (repeatable).
    #[arg(long)]
    config: Vec<String>,
    /// Stop after this long, e.g. 5m.
    #[arg(long)]
    duration: Option<String>,
    /// Drop the page cache before sampling (needs root); recorded either way.
    #[arg(long)]
    drop_caches: bool,
    /// Refuse to start when a checklist item fails (foreign GPU process, hot GPU, governor).
    #[arg(long)]
    strict_env: bool,
    /// The load generator to run: `-- COMMAND ARGS...`.
    #[arg(last = true)]
    command: Vec<String>,
}

pub fn run(a: CollectArgs) -> Result<ExitCode, CliError> {
    let interval_s = duration_flag("--interval", &a.interval)?;
    if !(0.05..=60.0).contains(&interval_s) {
        return Err(CliError::bad_input("--interval must lie between 50ms and 60s"));
    }
    let duration_s = a.duration.as_deref().map(|d| duration_flag("--duration", d)).transpose()?;
    let client = match (a.client_pid, a.client_name) {
        (Some(_), Some(_)) => return Err(CliError::bad_input("give --client-pid or --client-name, not both")),
        (Some(p), None) => ClientTarget::Pid(p),
        (None, Some(n)) => ClientTarget::Name(n),
        (None, None) => ClientTarget::None,
    };
    check_metrics_url(a.server_metrics.as_deref())?;
    let (gpus, note) = gpu_source(a.gpu.mode(), "--gpu")?;
    let o = CollectOptions {
        out: a.out,
        interval_s,
        gpu: a.gpu.mode(),
        client,
        server_metrics: a.server_metrics,
        labels: parse_pairs("label", &a.label)?,
        config: parse_pairs("config", &a.config)?,
        duration_s,
        command: a.command,
        drop_caches: a.drop_caches,
        strict_env: a.strict_env,
    };
    let s = collect(&o, gpus.map(|g| g as Box<dyn GpuSource>), note).map_err(CliError::bad_input)?;
    eprintln!(
        "wrote {}: {} samples in {} sealed segments; collector CPU {} of one core, peak RSS {} MB{}",
        o.out.display(),
        s.samples,
        s.segments,
        s.overhead_cpu_pct.map_or("n/a".into(), |c| format!("{c:.2} %")),
        s.overhead_rss_bytes.map_or("n/a".into(), |r| (r >> 20).to_string()),
        s.command_exit.map_or(String::new(), |c| format!("; command exited with {c}"))
    );
    Ok(ExitCode::Success)
}
