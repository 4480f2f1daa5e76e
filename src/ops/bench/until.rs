//! `credence bench --until SPEC`: one run that stops when its numbers are good enough. The load
//! generator hands every finished request to an `until::Monitor` once a second (`Watcher`); the
//! monitor cuts the warmup, estimates the targets and decides; this file shows where the run
//! stands while it runs and records why and when it stopped (`run.json`, `phases.stop`).

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

use crate::analyze::attribute::{Telemetry, TelemetrySeries};
use crate::analyze::until::{Finished, Look, Monitor, Phase, StopReason, UntilOptions};
use crate::bench::{BenchOptions, Beside, GpuNow, Limits, LoadStatus, Watcher};
use crate::run::manifest::{RunStop, StopEpisode, StopTarget};
use crate::run::write::RunData;
use credence_messages::{Lang, Message, Sep};

/// One run of the load; with `--until`, watched until its numbers are good enough, and the
/// stop (why and when) recorded in its `run.json` and said on stderr.
pub fn run_until(o: &BenchOptions, beside: Beside, until: Option<&UntilOptions>, lang: Lang) -> Result<(RunData, Limits), String> {
    let Some(options) = until else { return crate::bench::run(o, beside) };
    // An open loop's nominal rate: offered more than it completes, the server is overloaded. A
    // trace's bursts outrun its mean rate by design: only the whole run is judged for overload.
    let offered = if o.trace.is_some() { None } else { o.offered_requests_per_s() };
    let watcher = UntilWatcher::new(options.clone(), lang, offered);
    let started = std::time::Instant::now();
    let (mut data, limits) = crate::bench::run_watched(o, beside, Some(&watcher))?;
    let stop = watcher.record(crate::collect::stop_requested(), started.elapsed().as_secs_f64());
    eprintln!("until: {}", crate::report::run_view::stop_line(&stop).render(lang));
    if let Some(trace) = o.trace.as_ref().filter(|t| data.requests.num_rows() < t.entries.len()) {
        // A trace stopped early replayed its opening part only: a comparison must know which.
        let n = data.requests.num_rows();
        let until_s = trace.entries.get(n.saturating_sub(1)).map_or(0.0, |e| e.at_s);
        let replayed = Message::new("until-trace-replayed")
            .text("n", n.to_string())
            .text("total", trace.entries.len().to_string())
            .text("seconds", format!("{until_s:.0}"));
        eprintln!("until: {}", replayed.render(lang));
        data.manifest.config.extra.insert("trace_replayed".into(), replayed.render(Lang::En));
    }
    data.manifest.phases.stop = Some(stop);
    Ok((data, limits))
}

/// A load that ended this much before `--max-duration` ended because its workload ran out (the
/// load generator stops within a look's second of its bound).
const WORKLOAD_END_SLACK_S: f64 = 2.0;

/// Seconds between two plain progress lines when stderr is not a terminal (a CI log).
const PLAIN_EVERY_S: f64 = 10.0;

/// The monitor behind the load generator's watcher, with the live view.
struct UntilWatcher {
    state: Mutex<State>,
    options: UntilOptions,
    lang: Lang,
    terminal: bool,
}

struct State {
    monitor: Monitor,
    /// The GPU samples so far (`--collect-gpu`): the monitor's attribution reads them.
    gpu: Vec<crate::run::rows::GpuSample>,
    /// The look that stopped the run, or the last one.
    last: Option<Look>,
    /// Lines the live view drew last (to redraw in place).
    drawn: usize,
    last_plain_s: f64,
}

impl UntilWatcher {
    fn new(options: UntilOptions, lang: Lang, offered_per_s: Option<f64>) -> UntilWatcher {
        let mut monitor = Monitor::new(options.clone());
        monitor.set_offered(offered_per_s);
        let state = State { monitor, gpu: Vec::new(), last: None, drawn: 0, last_plain_s: f64::NEG_INFINITY };
        UntilWatcher { state: Mutex::new(state), options, lang, terminal: std::io::stderr().is_terminal() }
    }

    /// What `run.json` records of the stop: the rule, its parameters, the reason and time, and
    /// each target as it stood. `interrupted` when a signal ended the run first; `ran_s`, how
    /// long the load ran: before `--max-duration`, the workload ran out first (every session
    /// done, the trace's last record sent).
    fn record(&self, interrupted: bool, ran_s: f64) -> RunStop {
        let mut state = self.state.lock().expect("until state");
        let ran_out = ran_s < self.options.max_duration_s - WORKLOAD_END_SLACK_S;
        if !interrupted && state.last.as_ref().is_none_or(|l| l.stop.is_none()) {
            // The load ended between two looks: the stop is judged there, on everything that
            // finished.
            let end = ran_s.min(self.options.max_duration_s);
            state.last = state.monitor.look(end, end, false).or(state.last.take());
        }
        let look = state.last.as_ref();
        let (reason, detail) = match look.and_then(|l| l.stop.as_ref()) {
            _ if interrupted => ("interrupted".to_string(), None),
            Some(StopReason::Unreachable { key, needed_s }) => ("unreachable".into(), Some(format!("{key} needs about {needed_s:.0} s of steady data"))),
            Some(StopReason::ErrorRate { rate, limit }) => {
                ("error_rate".into(), Some(format!("error rate {:.1} % above {:.1} %", rate * 100.0, limit * 100.0)))
            }
            Some(StopReason::Overloaded { offered, completed, unserved }) => {
                let n = |v: f64| crate::run::text::significant(v, 3);
                ("overloaded".into(), Some(format!("offered {}/s, completed {}/s, {}/s unserved", n(*offered), n(*completed), n(*unserved))))
            }
            Some(r) => (r.id().to_string(), None),
            None if ran_out => ("workload_end".into(), None),
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
            excluded: look
                .map(|l| l.excluded.iter().map(|e| StopEpisode { cause: e.cause.id().to_string(), start_s: e.start_s, end_s: e.end_s }).collect())
                .unwrap_or_default(),
        }
    }

    /// Redraws the live view: a few lines in place on a terminal, one plain line every 10 s
    /// otherwise.
    fn show(&self, state: &mut State, look: &Look, load: &LoadStatus) {
        let lines = view_lines(look, load, self.lang);
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
        state.gpu.extend(load.gpu_samples.iter().cloned());
        if !state.gpu.is_empty() && state.monitor.due(t_s) {
            // Built only for a look (the table grows with the run), on the monitor's clock.
            let zero_ns = load.zero_ns + (state.monitor.origin_s() * 1e9) as i64;
            let telemetry = telemetry_of(&state.gpu, zero_ns);
            state.monitor.set_telemetry(telemetry);
        }
        state.monitor.set_in_flight(load.in_flight_sent_s.clone());
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
        // The monitor counts from the first send; the load generator from its time zero.
        let state = self.state.lock().ok()?;
        Some(state.last.as_ref()?.warmup_end_s? + state.monitor.origin_s())
    }
}

/// The GPU samples as the analysis's series, in seconds from `zero_ns`.
fn telemetry_of(samples: &[crate::run::rows::GpuSample], zero_ns: i64) -> TelemetrySeries {
    let table = crate::run::rows::GpuRows { rows: samples.to_vec() }.into_table();
    let gpu = table.as_ref().ok();
    TelemetrySeries::of(&Telemetry { gpu, ..Telemetry::none() }, zero_ns)
}

/// The live view: the phase and time, each target against its goal, the ETA, and the load
/// generator's own state (a client that cannot keep up measures itself), in `lang`.
fn view_lines(look: &Look, load: &LoadStatus, lang: Lang) -> Vec<String> {
    let pilot = look.targets.iter().all(|t| t.half_width.is_none()) && look.phase == Phase::Measuring;
    let since = look.warmup_end_s.map_or(String::new(), |w| format!("{w:.0}"));
    let phase = match look.phase {
        Phase::WarmingUp => "warming_up",
        Phase::Measuring if pilot => "pilot",
        Phase::Measuring => "measuring",
        Phase::Episode => "episode",
        Phase::Unsettled => "unsettled",
    };
    let causes = look.excluded.last().map(|e| e.cause.title()).into_iter().collect();
    let phase = Message::new("live-phase").text("phase", phase).text("since", since).list("causes", causes, Sep::Comma);
    let eta = look.eta_s.map_or(Message::new("live-eta-unknown"), |e| Message::new("live-eta").text("eta", format!("{e:.0}")));
    let reason = |r: &StopReason| Message::new("until-reason").text("reason", r.id());
    let stopping = look.stop.as_ref().map_or(Message::new("empty"), |r| Message::new("live-stopping").msg("reason", reason(r)));
    let head = Message::new("live-head")
        .text("t", format!("{:.0}", look.t_s))
        .msg("phase", phase)
        .int("requests", look.requests)
        .int("errors", look.errors)
        .msg("eta", eta)
        .msg("stopping", stopping);
    let mut lines = vec![head.render(lang)];
    for t in &look.targets {
        if let Some(threshold) = t.threshold_ms {
            lines.push(threshold_line(t, threshold).render(lang));
            continue;
        }
        let width = t.half_width.map_or(Message::new("live-width-open"), |h| Message::new("live-width").text("width", format!("{:.1}", h * 100.0)));
        let target = Message::new("live-target")
            .text("metric", format!("  {:<12}", t.key))
            .text("value", t.estimate.map_or("—".to_string(), |x| format!("{x:.4}")))
            .msg("width", width)
            .text("goal", format!("{:.1}", t.goal * 100.0))
            .msg("met", Message::new(if t.met { "live-met" } else { "empty" }));
        lines.push(target.render(lang));
    }
    lines.push(format!("  {}", client_line(load).render(lang)));
    lines.extend(load.gpus.iter().map(|g| format!("  {}", gpu_line(g).render(lang))));
    lines
}

/// A threshold target (a capacity step's objective): its interval against the threshold, and
/// whether the interval decides it yet.
fn threshold_line(t: &crate::analyze::until::TargetState, threshold: f64) -> Message {
    let n = |x: Option<f64>| x.map_or("?".to_string(), |v| crate::run::text::significant(v, 3));
    let verdict = match (t.met, t.violated) {
        (true, true) => "violated",
        (true, false) => "met",
        _ => "undecided",
    };
    Message::new("live-threshold")
        .text("metric", format!("  {:<12}", t.key))
        .text("value", n(t.estimate))
        .text("low", n(t.low))
        .text("high", n(t.high))
        .text("threshold", crate::run::text::significant(threshold, 3))
        .text("verdict", verdict)
}

/// A number with its unit, or `n/a`.
fn or_na(value: Option<String>) -> Message {
    value.map_or(Message::new("live-na"), |v| Message::new("as-written").text("text", v))
}

/// A GPU's SM clock against its maximum, temperature and power.
fn gpu_line(g: &GpuNow) -> Message {
    let clock = match (g.sm_clock_mhz, g.sm_clock_max_mhz) {
        (Some(c), Some(m)) => Message::new("live-clock-of").int("clock", c).int("max", m),
        (Some(c), None) => Message::new("live-clock").int("clock", c),
        _ => Message::new("live-na"),
    };
    Message::new("live-gpu")
        .int("index", g.index)
        .msg("clock", clock)
        .msg("temp", or_na(g.temp_c.map(|t| format!("{t:.0} °C"))))
        .msg("power", or_na(g.power_w.map(|p| format!("{p:.0} W"))))
}

/// Achieved against offered rate, the in-flight requests, the send lag and the client's CPU.
fn client_line(load: &LoadStatus) -> Message {
    let achieved = format!("{:.1}", load.achieved_per_s);
    let rate = match load.offered_per_s {
        Some(offered) => Message::new("live-rate-open").text("achieved", achieved).text("offered", format!("{offered:.1}")),
        None => Message::new("live-rate-closed").text("achieved", achieved),
    };
    Message::new("live-client")
        .msg("rate", rate)
        .int("in_flight", load.in_flight)
        .msg("lag", or_na(load.send_lag_p99_ms.map(|l| format!("{l:.2} ms"))))
        .msg("cpu", or_na(load.client_cpu_pct.map(|c| format!("{c:.0} %"))))
        .msg("behind", Message::new(if load.behind { "live-behind" } else { "empty" }))
}
