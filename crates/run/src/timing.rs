//! Stage timings on stderr when `CREDENCE_TIMING` is set: seconds since the first stage clock
//! was made, the stage's own seconds, and the process's peak resident memory so far (VmHWM).
//! A diagnostic for finding slow or memory-hungry stages on large runs (`benches/analyze_long.rs`
//! reads these lines); it is the one place outside `cli` that prints, and only when asked to.
//! The same marks drive `analyze`'s progress bar (`observe_stages`).

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// When the first `Timing` was made, and when the last stage ended: one clock per process, so
/// the stages marked in `cli` and in `analyze` read on the same scale.
static CLOCK: OnceLock<(Instant, Mutex<Instant>)> = OnceLock::new();

/// Who else hears of each stage end: a command's progress bar (see `cli::io::Progress`).
type StageObserver = Box<dyn Fn(&str) + Send + Sync>;
static OBSERVER: OnceLock<StageObserver> = OnceLock::new();

/// Sends every later stage end to `observer` (the first caller's, once per process).
pub fn observe_stages(observer: impl Fn(&str) + Send + Sync + 'static) {
    let _ = OBSERVER.set(Box::new(observer));
}

/// Marks stage ends: to the stage observer, and on stderr when `CREDENCE_TIMING` is set.
pub struct Timing {
    on: bool,
}

impl Default for Timing {
    fn default() -> Self {
        Timing::new()
    }
}

impl Timing {
    pub fn new() -> Timing {
        let on = std::env::var_os("CREDENCE_TIMING").is_some();
        if on {
            CLOCK.get_or_init(|| (Instant::now(), Mutex::new(Instant::now())));
        }
        Timing { on }
    }

    /// Prints `[total] what (+stage, peak MB)`.
    pub fn mark(&self, what: &str) {
        if let Some(observe) = OBSERVER.get() {
            observe(what);
        }
        let Some((start, last)) = CLOCK.get().filter(|_| self.on) else {
            return;
        };
        let now = Instant::now();
        let stage = last.lock().map(|mut l| now - std::mem::replace(&mut *l, now)).unwrap_or_default();
        let peak = peak_rss_mb().map_or("?".to_string(), |m| m.to_string());
        eprintln!("[{:>7.2} s] {what} (+{:.2} s, peak {peak} MB)", (now - *start).as_secs_f64(), stage.as_secs_f64());
    }
}

/// The process's peak resident set in MB (Linux `/proc/self/status`, VmHWM); None elsewhere.
fn peak_rss_mb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
