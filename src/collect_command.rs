//! `credence collect`: options, GPU source choice, and the summary it prints.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::cli::GpuArg;
use crate::collect::gpu::{FakeGpus, GpuSource, NvmlGpus};
use crate::collect::{ClientTarget, CollectOptions, GpuMode, collect, now_ns};
use crate::error::{CliError, ExitCode};

pub struct CollectArgs {
    pub out: PathBuf,
    pub interval: String,
    pub gpu: GpuArg,
    pub client_pid: Option<u32>,
    pub client_name: Option<String>,
    pub server_metrics: Option<String>,
    pub label: Vec<String>,
    pub config: Vec<String>,
    pub duration: Option<String>,
    pub drop_caches: bool,
    pub strict_env: bool,
    pub command: Vec<String>,
}

fn pairs(flag: &str, items: &[String]) -> Result<BTreeMap<String, String>, CliError> {
    items
        .iter()
        .map(|l| {
            l.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| CliError::bad_input(format!("--{flag} {l:?}: expected k=v")))
        })
        .collect()
}

/// `CREDENCE_FAKE_GPUS=N` or `N:throttle=A-B` (seconds): a test hook that replaces NVML with fake
/// GPUs, the last of which throttles thermally from A to B seconds.
fn fake_gpus() -> Option<Result<FakeGpus, CliError>> {
    let spec = std::env::var("CREDENCE_FAKE_GPUS").ok()?;
    let (n, rest) = spec.split_once(':').map_or((spec.as_str(), None), |(a, b)| (a, Some(b)));
    let count = n.parse::<u32>().ok().filter(|c| *c > 0);
    let throttle = rest
        .and_then(|r| r.strip_prefix("throttle="))
        .and_then(|r| r.split_once('-'))
        .and_then(|(a, b)| Some((a.parse::<f64>().ok()?, b.parse::<f64>().ok()?)));
    Some(
        count
            .map(|c| FakeGpus::new(c, now_ns(), throttle))
            .ok_or_else(|| CliError::bad_input(format!("CREDENCE_FAKE_GPUS={spec:?}: expected N or N:throttle=A-B"))),
    )
}

/// The GPU source for `mode`: NVML, the fake (test hook), or none, with a note for run.json.
pub(crate) fn gpu_source(mode: GpuMode, flag: &str) -> Result<(Option<Box<dyn GpuSource + Send>>, Option<String>), CliError> {
    Ok(match (mode, fake_gpus()) {
        (GpuMode::Off, _) => (None, Some(format!("GPU sampling off ({flag} off)"))),
        (_, Some(f)) => (Some(Box::new(f?)), Some("fake GPUs (CREDENCE_FAKE_GPUS test hook)".into())),
        (m, None) => match NvmlGpus::init() {
            Ok(n) => (Some(Box::new(n)), None),
            Err(e) if m == GpuMode::On => {
                return Err(CliError::bad_input(e).hint(format!("install the NVIDIA driver, or use {flag} auto to continue without GPU telemetry")));
            }
            Err(e) => {
                eprintln!("note: {e}; continuing without GPU telemetry (recorded in run.json)");
                (None, Some(e))
            }
        },
    })
}

pub fn run(a: CollectArgs) -> Result<ExitCode, CliError> {
    let interval_s = crate::options::parse_duration(&a.interval).map_err(|e| CliError::bad_input(format!("--interval {e}")))?;
    if !(0.05..=60.0).contains(&interval_s) {
        return Err(CliError::bad_input("--interval must lie between 50ms and 60s"));
    }
    let duration_s = a.duration.as_deref().map(crate::options::parse_duration).transpose().map_err(|e| CliError::bad_input(format!("--duration {e}")))?;
    let client = match (a.client_pid, a.client_name) {
        (Some(_), Some(_)) => return Err(CliError::bad_input("give --client-pid or --client-name, not both")),
        (Some(p), None) => ClientTarget::Pid(p),
        (None, Some(n)) => ClientTarget::Name(n),
        (None, None) => ClientTarget::None,
    };
    if let Some(u) = &a.server_metrics
        && !u.starts_with("http://")
    {
        return Err(CliError::bad_input(format!("--server-metrics {u:?}: expected http://host:port/path")));
    }
    let mode = match a.gpu {
        GpuArg::Auto => GpuMode::Auto,
        GpuArg::On => GpuMode::On,
        GpuArg::Off => GpuMode::Off,
    };
    let (gpus, note) = gpu_source(mode, "--gpu")?;
    let gpus = gpus.map(|g| g as Box<dyn GpuSource>);
    let o = CollectOptions {
        out: a.out,
        interval_s,
        gpu: mode,
        client,
        server_metrics: a.server_metrics,
        labels: pairs("label", &a.label)?,
        config: pairs("config", &a.config)?,
        duration_s,
        command: a.command,
        drop_caches: a.drop_caches,
        strict_env: a.strict_env,
    };
    let s = collect(&o, gpus, note).map_err(CliError::bad_input)?;
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
