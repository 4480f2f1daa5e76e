//! Which GPU source a command samples (`collect --gpu`, `bench --collect-gpu`): NVML, the fake
//! GPUs of the `CREDENCE_FAKE_GPUS` test hook, or none.

use crate::collect::gpu::{FakeGpus, GpuSource, NvmlGpus};
use crate::collect::{GpuMode, now_ns};
use crate::error::CliError;

/// A GPU source and, when it is not NVML, a note for run.json saying why.
pub type Choice = (Option<Box<dyn GpuSource + Send>>, Option<String>);

/// The GPU source for `mode`, with a note for run.json; `--gpu on` without NVML is bad input.
pub fn gpu_source(mode: GpuMode, flag: &str) -> Result<Choice, CliError> {
    Ok(match (mode, fake_gpus()) {
        (GpuMode::Off, _) => (None, Some(crate::run::env_notes::gpu_sampling_off(flag))),
        (_, Some(f)) => (Some(Box::new(f?)), Some(crate::run::env_notes::FAKE_GPUS.into())),
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
