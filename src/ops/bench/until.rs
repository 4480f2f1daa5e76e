//! `credence bench --until SPEC`: one run that stops when its numbers are good enough. The load
//! generator hands every finished request to an `until::Monitor` once a second (`Watcher`); the
//! monitor cuts the warmup, estimates the targets and decides; this file shows where the run
//! stands while it runs and records why and when it stopped (`run.json`, `phases.stop`).

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

use crate::analyze::until::{Finished, Look, Monitor, Phase, StopReason, UntilOptions};
use crate::bench::{BenchOptions, Beside, GpuNow, Limits, LoadStatus, Watcher};
use crate::run::manifest::{RunStop, StopTarget};
use crate::run::write::RunData;

/// One run of the load; with `--until`, watched until its numbers are good enough, and the
/// stop (why and when) recorded in its `run.json` and said on stderr.
pub fn run_until(o: &BenchOptions, beside: Beside, until: Option<&UntilOptions>) -> Result<(RunData, Limits), String> {
    let Some(options) = until else { return crate::bench::run(o, beside) };
    let watcher = UntilWatcher::new(options.clone());
    let (mut data, limits) = crate::bench::run_watched(o, beside, Some(&watcher))?;
    let stop = watcher.record(crate::collect::stop_requested());
    eprintln!("until: {}", crate::report::run_view::stop_line(&stop).render(credence_messages::Lang::En));
    data.manifest.phases.stop = Some(stop);
    Ok((data, limits))
}

/// Seconds between two plain progress lines when stderr is not a terminal (a CI log).
const PLAIN_EVERY_S: f64 = 10.0;

/// The monitor behind the load generator's watcher, with the live view.
struct UntilWatcher {
    state: Mutex<State>,
    options: UntilOptions,
    terminal: bool,
}

struct State {
    monitor: Monitor,
    /// The look that stopped the run, or the last one.
    last: Option<Look>,
    /// Lines the live view drew last (to redraw in place).
    drawn: usize,
    last_plain_s: f64,
}

impl UntilWatcher {
    fn new(options: UntilOptions) -> UntilWatcher {
        let state = State { monitor: Monitor::new(options.clone()), last: None, drawn: 0, last_plain_s: f64::NEG_INFINITY };
        UntilWatcher { state: Mutex::new(state), options, terminal: std::io::stderr().is_terminal() }
    }

    /// What `run.json` records of the stop: the rule, its parameters, the reason and time, and
    /// each target as it stood. `interrupted` when a signal ended the run first.
    fn record(&self, interrupted: bool) -> RunStop {
        let state = self.state.lock().expect("until state");
        let look = state.last.as_ref();
        let (reason, detail) = match look.and_then(|l| l.stop.as_ref()) {
            _ if interrupted => ("interrupted".to_string(), None),
            Some(StopReason::Unreachable { key, needed_s }) => ("unreachable".into(), Some(format!("{key} needs about {needed_s:.0} s of steady data"))),
            Some(StopReason::ErrorRate { rate, limit }) => {
                ("error_rate".into(), Some(format!("error rate {:.1} % above {:.1} %", rate * 100.0, limit * 100.0)))
            }
            Some(r) => (r.id().to_string(), None),
            None => ("max_duration".into(), None),
        };
        let targets = match look {
            Some(l) => {
                l.targets.iter().map(|t| StopTarget { key: t.key.clone(), goal: t.goal, estimate: t.estimate, half_width: t.half_width, met: t.met }).collect()
            }
            None => {
                self.options.targets.iter().map(|t| StopTarget { key: t.key.clone(), goal: t.goal, estimate: None, half_width: None, met: false }).collect()
            }
        };
        RunStop {
            rule: serde_json::to_value(self.options.rule).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
            min_duration_s: self.options.min_duration_s,
            max_duration_s: self.options.max_duration_s,
            max_error_rate: self.options.max_error_rate,
            reason,
            detail,
            stopped_at_s: look.map_or(0.0, |l| l.t_s),
            warmup_end_s: look.and_then(|l| l.warmup_end_s),
            targets,
        }
    }

    /// Redraws the live view: a few lines in place on a terminal, one plain line every 10 s
    /// otherwise.
    fn show(&self, state: &mut State, look: &Look, load: &LoadStatus) {
        let lines = view_lines(look, load);
        let mut err = std::io::stderr().lock();
        if self.terminal {
            if state.drawn > 0 {
                let _ = write!(err, "\x1b[{}A\x1b[J", state.drawn);
            }
            for l in &lines {
                let _ = writeln!(err, "{l}");
            }
            state.drawn = lines.len();
        } else if look.t_s - state.last_plain_s >= PLAIN_EVERY_S || look.stop.is_some() {
            let _ = writeln!(err, "{}", lines.join(" | "));
            state.last_plain_s = look.t_s;
        }
    }
}

impl Watcher for UntilWatcher {
    fn tick(&self, t_s: f64, done: Vec<Finished>, complete_before_s: f64, load: &LoadStatus) -> bool {
        let mut state = self.state.lock().expect("until state");
        for f in done {
            state.monitor.push(f);
        }
        let Some(look) = state.monitor.look(t_s, complete_before_s, load.behind) else { return false };
        self.show(&mut state, &look, load);
        let stop = look.stop.is_some();
        state.last = Some(look);
        stop
    }

    fn warmup_s(&self) -> Option<f64> {
        if self.options.warmup_s.is_some() {
            return None;
        }
        self.state.lock().ok()?.last.as_ref()?.warmup_end_s
    }
}

/// The live view: the phase and time, each target against its goal, the ETA, and the load
/// generator's own state (a client that cannot keep up measures itself).
fn view_lines(look: &Look, load: &LoadStatus) -> Vec<String> {
    let pilot = look.targets.iter().all(|t| t.half_width.is_none()) && look.phase == Phase::Measuring;
    let phase = match (look.phase, look.warmup_end_s) {
        (Phase::WarmingUp, _) => "warming up".to_string(),
        (Phase::Measuring, Some(w)) if pilot => format!("steady since {w:.0} s, pilot"),
        (Phase::Measuring, Some(w)) => format!("steady since {w:.0} s"),
        (Phase::Measuring, None) => "steady".to_string(),
    };
    let eta = look.eta_s.map_or("ETA unknown".to_string(), |e| format!("ETA {e:.0} s"));
    let stop = look.stop.as_ref().map_or(String::new(), |r| format!(" · stopping: {}", r.id()));
    let mut lines = vec![format!("until · {:.0} s · {phase} · {} requests, {} errors · {eta}{stop}", look.t_s, look.requests, look.errors)];
    for t in &look.targets {
        let value = t.estimate.map_or("—".to_string(), |x| format!("{x:.4}"));
        let width = t.half_width.map_or("±?".to_string(), |h| format!("±{:.1} %", h * 100.0));
        let mark = if t.met { " ✓" } else { "" };
        lines.push(format!("  {:<12} {value} {width} (goal {:.1} %){mark}", t.key, t.goal * 100.0));
    }
    lines.push(format!("  client       {}", client_line(load)));
    for g in &load.gpus {
        lines.push(format!("  GPU {:<8} {}", g.index, gpu_line(g)));
    }
    lines
}

/// A GPU's SM clock against its maximum, temperature and power.
fn gpu_line(g: &GpuNow) -> String {
    let clock = match (g.sm_clock_mhz, g.sm_clock_max_mhz) {
        (Some(c), Some(m)) => format!("SM clock {c} of {m} MHz"),
        (Some(c), None) => format!("SM clock {c} MHz"),
        _ => "SM clock n/a".to_string(),
    };
    let temp = g.temp_c.map_or("n/a".to_string(), |t| format!("{t:.0} °C"));
    let power = g.power_w.map_or("n/a".to_string(), |p| format!("{p:.0} W"));
    format!("{clock} · {temp} · {power}")
}

/// Achieved against offered rate, the in-flight requests, the send lag and the client's CPU.
fn client_line(load: &LoadStatus) -> String {
    let rate = match load.offered_per_s {
        Some(offered) => format!("achieved {:.1}/s of {offered:.1}/s offered", load.achieved_per_s),
        None => format!("achieved {:.1}/s (closed loop)", load.achieved_per_s),
    };
    let lag = load.send_lag_p99_ms.map_or("n/a".to_string(), |l| format!("{l:.2} ms"));
    let cpu = load.client_cpu_pct.map_or("n/a".to_string(), |c| format!("{c:.0} %"));
    let behind = if load.behind { " · BEHIND its schedule" } else { "" };
    format!("{rate} · {} in flight · P99 send lag {lag} · CPU {cpu}{behind}", load.in_flight)
}
