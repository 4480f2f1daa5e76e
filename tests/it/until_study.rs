//! Run to credibility, measured. Simulated runs (steady; a warmup; a slow warmup and a thermal
//! throttle, whose GPU telemetry the monitor sees as it would have been sampled) are replayed
//! second by second into `until::Monitor` as `bench --until` feeds it. For each run the study
//! records:
//!
//! - **coverage at the stopping time**: whether each target's interval covers the truth (the
//!   generating model's percentiles, the offered rate), for the staged rule and, on the same
//!   runs, the naive rule (a look every second, no pilot, nominal 95 % intervals);
//! - **the fixed-duration baseline**: every run is also cut at fixed durations (150 s to 900 s),
//!   and the baseline is the shortest of them at which fixed runs meet their goals as often as
//!   the adaptive runs do: the duration a user would have to know in advance, so no plan made
//!   from a pilot can do better on average;
//! - **warmup online**: the warmup end the monitor used at the stop against the offline cut
//!   (the analysis's steps over the run as written);
//! - **bias and calibration**: each target's mean relative error and its RMS error over the
//!   standard error its interval implies (1 when the widths are right);
//! - **the monitor's cost**: CPU seconds of looks per second of run.
//!
//! `until_coverage_fast` runs in CI; `until_study_full` (ignored) prints the tables in the note
//! and docs/run-a-benchmark.md (`UNTIL_SEEDS` seeds per scenario, 70 by default).

use std::time::Instant;

use rayon::prelude::*;

use credence::analyze::attribute::signals::GpuSeries;
use credence::analyze::attribute::{Telemetry, TelemetrySeries};
use credence::analyze::requests::RequestView;
use credence::analyze::until::{Finished, Look, Monitor, Rule, StopReason, UntilOptions, spec};
use credence::simulate::{Scenario, SimOptions, simulate, true_percentiles};

const RATE: f64 = 20.0;
const MAX_DURATION_S: f64 = 900.0;
const SPEC: &str = "ttft_p50=3%,ttft_p99=10%,throughput=4%";
/// Steady; a warmup that decays; a slow warmup and a 60-s thermal throttle placed at random
/// (the monitor finds it in the GPU telemetry and leaves it out).
const SCENARIOS: [Scenario; 3] = [Scenario::Steady, Scenario::Warmup, Scenario::WarmupThrottle];
/// The fixed durations each run is also cut at.
const FIXED_S: [f64; 16] = [150.0, 200.0, 250.0, 300.0, 350.0, 400.0, 450.0, 500.0, 550.0, 600.0, 650.0, 700.0, 750.0, 800.0, 850.0, 900.0];

/// A run's requests as the monitor receives them: in order of their end.
fn finished_of(v: &RequestView) -> Vec<Finished> {
    let mut out: Vec<Finished> = (0..v.len()).map(|i| v.finished(i)).filter(|f| f.end_s.is_finite()).collect();
    out.sort_by(|a, b| a.end_s.total_cmp(&b.end_s));
    out
}

fn options(rule: Rule, seed: u64, min_duration_s: f64, max_duration_s: f64) -> UntilOptions {
    UntilOptions { targets: spec::parse(SPEC).unwrap(), min_duration_s, max_duration_s, max_error_rate: None, warmup_s: None, rule, seed }
}

/// Every request sent before the oldest one still in flight at `t` has finished.
fn complete_before(v: &RequestView, t: f64) -> f64 {
    (0..v.len()).filter(|&i| v.sent_s[i] <= t && !(v.end_s[i] <= t)).map(|i| v.sent_s[i]).fold(t, f64::min)
}

/// One GPU's samples up to `t_s`: what a monitor has seen by then.
fn gpu_until(g: &GpuSeries, t_s: f64) -> GpuSeries {
    let k = g.t_s.partition_point(|t| *t <= t_s);
    let cut = |v: &Vec<f64>| v[..k.min(v.len())].to_vec();
    GpuSeries {
        label: g.label.clone(),
        t_s: cut(&g.t_s),
        sm_mhz: cut(&g.sm_mhz),
        sm_max_mhz: cut(&g.sm_max_mhz),
        reasons: g.reasons[..k.min(g.reasons.len())].to_vec(),
        temp_c: cut(&g.temp_c),
        slowdown_c: cut(&g.slowdown_c),
        power_w: cut(&g.power_w),
        limit_w: cut(&g.limit_w),
        util_pct: cut(&g.util_pct),
        mem_used: cut(&g.mem_used),
        mem_total: cut(&g.mem_total),
        viol_power_ns: cut(&g.viol_power_ns),
        viol_thermal_ns: cut(&g.viol_thermal_ns),
        foreign_procs: cut(&g.foreign_procs),
        foreign_mem: cut(&g.foreign_mem),
    }
}

/// The GPU telemetry as a monitor has it at `t_s` (as `bench --collect-gpu` hands it over).
fn telemetry_at(t: Option<&TelemetrySeries>, t_s: f64) -> TelemetrySeries {
    TelemetrySeries { gpus: t.map(|t| t.gpus.iter().map(|g| gpu_until(g, t_s)).collect()).unwrap_or_default(), ..TelemetrySeries::default() }
}

/// Replays a run into a monitor, one look a second, until it stops: the stopping look and the
/// CPU seconds its looks took.
fn replay(v: &RequestView, finished: &[Finished], telemetry: Option<&TelemetrySeries>, rule: Rule, seed: u64) -> (Look, f64) {
    let mut m = Monitor::new(options(rule, seed, 60.0, MAX_DURATION_S));
    let (mut next, mut t, mut cpu_s) = (0, 1.0, 0.0);
    loop {
        while next < finished.len() && finished[next].end_s <= t {
            m.push(finished[next]);
            next += 1;
        }
        if telemetry.is_some() {
            m.set_telemetry(telemetry_at(telemetry, t));
        }
        let before = complete_before(v, t);
        let clock = Instant::now();
        let look = m.look(t, before, false);
        cpu_s += clock.elapsed().as_secs_f64();
        if let Some(l) = look.as_ref().filter(|_| std::env::var("UNTIL_TRACE").is_ok_and(|s| s == seed.to_string())) {
            let w: Vec<String> =
                l.targets.iter().map(|t| format!("{}={:.3}/{:.0}", t.key, t.half_width.unwrap_or(f64::NAN), t.needed_s.unwrap_or(f64::NAN))).collect();
            eprintln!(
                "{rule:?} t={t} warm={:?} measured={:.0} excl={:?} eta={:?} {} stop={:?}",
                l.warmup_end_s,
                l.measured_s,
                l.excluded,
                l.eta_s,
                w.join(" "),
                l.stop
            );
        }
        if let Some(look) = look.filter(|l| l.stop.is_some()) {
            return (look, cpu_s);
        }
        t += 1.0;
    }
}

/// One look at `t_s`: what a fixed-duration run of that length reports (on a look's 999
/// resamples: the naive rule's single look).
fn fixed_look(v: &RequestView, finished: &[Finished], telemetry: Option<&TelemetrySeries>, t_s: f64, seed: u64) -> Look {
    let mut m = Monitor::new(options(Rule::Naive, seed, 0.0, t_s));
    for f in finished.iter().filter(|f| f.end_s <= t_s) {
        m.push(*f);
    }
    m.set_telemetry(telemetry_at(telemetry, t_s));
    m.look(t_s, complete_before(v, t_s), false).expect("a first look is always due")
}

/// The offline warmup cut of the run as written when it stopped at `stop_s`: the analysis's
/// steps (steady state, attribution, steady state without the episodes) over every request sent
/// before the stop, finished or not by then.
fn offline_cut(finished: &[Finished], telemetry: Option<&TelemetrySeries>, stop_s: f64) -> Option<f64> {
    let mut m = Monitor::new(options(Rule::Naive, 0, 0.0, stop_s));
    for f in finished.iter().filter(|f| f.sent_s < stop_s) {
        m.push(*f);
    }
    m.set_telemetry(telemetry_at(telemetry, stop_s));
    m.look(stop_s, stop_s, false).and_then(|l| l.warmup_end_s)
}

/// What one simulated run gave.
struct RunResult {
    staged: Look,
    naive: Option<Look>,
    /// The run cut at each of `FIXED_S`.
    fixed: Vec<Look>,
    offline_cut_s: Option<f64>,
    cpu_s: f64,
}

fn one_run(base: &SimOptions, seed: u64, with_naive: bool, with_fixed: bool) -> RunResult {
    let mut o = base.clone();
    (o.seed, o.compute_truth) = (seed, false);
    let data = simulate(&o).unwrap().data;
    let v = RequestView::from_table(&data.requests);
    // The GPUs' telemetry, for the scenarios with an environmental episode to find in it.
    let telemetry = o.scenario.throttles().then(|| TelemetrySeries::of(&Telemetry { gpu: data.gpu.as_ref(), ..Telemetry::none() }, v.t0_ns));
    let telemetry = telemetry.as_ref();
    let finished = finished_of(&v);
    let (staged, cpu_s) = replay(&v, &finished, telemetry, Rule::Staged, seed);
    let offline_cut_s = offline_cut(&finished, telemetry, staged.t_s);
    let naive = with_naive.then(|| replay(&v, &finished, telemetry, Rule::Naive, seed).0);
    let fixed = if with_fixed { FIXED_S.iter().map(|&t| fixed_look(&v, &finished, telemetry, t, seed)).collect() } else { Vec::new() };
    RunResult { staged, naive, fixed, offline_cut_s, cpu_s }
}

#[derive(Default)]
struct Tally {
    runs: usize,
    met: usize,
    /// Per target: (intervals at the stop, of which covered).
    covered: [(usize, usize); 3],
    /// Per target: sums of the relative error, its square, and the relative half-width (to
    /// tell a bias from intervals too narrow for the error they have).
    error: [(f64, f64, f64); 3],
    stop_s: Vec<f64>,
}

impl Tally {
    fn add(&mut self, look: &Look, truth: [f64; 3]) {
        self.runs += 1;
        self.met += usize::from(look.stop == Some(StopReason::TargetsMet) || look.targets.iter().all(|t| t.met));
        self.stop_s.push(look.t_s);
        for (k, t) in look.targets.iter().enumerate() {
            if let (Some(lo), Some(hi)) = (t.low, t.high) {
                self.covered[k].0 += 1;
                self.covered[k].1 += usize::from(lo <= truth[k] && truth[k] <= hi);
            }
            if let (Some(x), Some(h)) = (t.estimate, t.half_width) {
                let e = x / truth[k] - 1.0;
                self.error[k] = (self.error[k].0 + e, self.error[k].1 + e * e, self.error[k].2 + h);
            }
        }
    }

    fn coverage(&self, k: usize) -> f64 {
        self.covered[k].1 as f64 / self.covered[k].0.max(1) as f64
    }

    /// Per target: the mean relative error (%) and the RMS error over the interval's implied
    /// standard error (1 when the widths are right).
    fn errors(&self) -> String {
        let n = self.covered[0].0.max(1) as f64;
        let one = |(sum, sq, hw): (f64, f64, f64)| format!("{:+.1} % {:.2}", 100.0 * sum / n, (sq / n).sqrt() / (hw / n / 1.96));
        self.error.iter().map(|e| one(*e)).collect::<Vec<_>>().join(" / ")
    }

    fn mean_s(&self) -> f64 {
        self.stop_s.iter().sum::<f64>() / self.stop_s.len().max(1) as f64
    }

    fn row(&self, name: &str) -> String {
        let mut s = self.stop_s.clone();
        s.sort_by(f64::total_cmp);
        let q = |p: f64| s.get(((s.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN);
        format!(
            "| {name} | {} | {} | {:.3} | {:.3} | {:.3} | {:.0} | {:.0} / {:.0} / {:.0} |",
            self.runs,
            self.met,
            self.coverage(0),
            self.coverage(1),
            self.coverage(2),
            self.mean_s(),
            q(0.1),
            q(0.5),
            q(0.9)
        )
    }
}

/// The study's tallies over all scenarios.
#[derive(Default)]
struct Study {
    staged: Tally,
    naive: Tally,
    /// The runs cut at each of `FIXED_S`.
    fixed: Vec<Tally>,
    /// Per run: its adaptive stop over its scenario's baseline duration.
    ratio: Vec<f64>,
    /// Online warmup end within max(5 s, 10 %) of the offline cut.
    warmup_close: (usize, usize),
    /// The online warmup end at each stop.
    online_cut_s: Vec<f64>,
    cpu_s: f64,
    run_s: f64,
}

impl Study {
    fn add(&mut self, r: &RunResult, truth: [f64; 3]) {
        self.staged.add(&r.staged, truth);
        if let Some(n) = &r.naive {
            self.naive.add(n, truth);
        }
        self.fixed.resize_with(r.fixed.len(), Tally::default);
        for (tally, look) in self.fixed.iter_mut().zip(&r.fixed) {
            tally.add(look, truth);
        }
        if let (Some(online), Some(offline)) = (r.staged.warmup_end_s, r.offline_cut_s) {
            self.warmup_close.0 += usize::from((online - offline).abs() <= (0.1 * offline).max(5.0));
        }
        self.warmup_close.1 += 1;
        self.online_cut_s.extend(r.staged.warmup_end_s);
        (self.cpu_s, self.run_s) = (self.cpu_s + r.cpu_s, self.run_s + r.staged.t_s);
    }

    /// The baseline: the shortest fixed duration whose runs meet their goals at least as often
    /// as the adaptive ones (None: not within `FIXED_S`).
    fn baseline(&self) -> Option<usize> {
        self.fixed.iter().position(|f| f.met >= self.staged.met)
    }

    /// Adds each run's stop over the baseline duration (the longest fixed one when none is).
    fn add_ratios(&mut self, runs: &[RunResult]) {
        if self.fixed.is_empty() {
            return;
        }
        let t = FIXED_S[self.baseline().unwrap_or(FIXED_S.len() - 1)];
        self.ratio.extend(runs.iter().map(|r| r.staged.t_s / t));
    }

    fn merge(&mut self, other: &Study) {
        for (mine, theirs) in [(&mut self.staged, &other.staged), (&mut self.naive, &other.naive)] {
            mine.runs += theirs.runs;
            mine.met += theirs.met;
            mine.stop_s.extend(&theirs.stop_s);
            for k in 0..3 {
                mine.covered[k].0 += theirs.covered[k].0;
                mine.covered[k].1 += theirs.covered[k].1;
                let (e, t) = (&mut mine.error[k], theirs.error[k]);
                *e = (e.0 + t.0, e.1 + t.1, e.2 + t.2);
            }
        }
        self.ratio.extend(&other.ratio);
        self.online_cut_s.extend(&other.online_cut_s);
        self.warmup_close = (self.warmup_close.0 + other.warmup_close.0, self.warmup_close.1 + other.warmup_close.1);
        (self.cpu_s, self.run_s) = (self.cpu_s + other.cpu_s, self.run_s + other.run_s);
    }

    fn print(&self) {
        let mut cuts = self.online_cut_s.clone();
        cuts.sort_by(f64::total_cmp);
        let at = |p: f64| cuts.get(((cuts.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN);
        eprintln!("online warmup cut at the stop: P10 {:.0} s, median {:.0} s, P90 {:.0} s", at(0.1), at(0.5), at(0.9));
        let mut ratio = self.ratio.clone();
        ratio.sort_by(f64::total_cmp);
        let q = |p: f64| ratio.get(((ratio.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN);
        eprintln!("| rule | runs | goals met | P50 TTFT covered | P99 TTFT covered | throughput covered | mean s | P10 / median / P90 s |");
        eprintln!("|---|---|---|---|---|---|---|---|");
        eprintln!("{}", self.staged.row("staged (credence)"));
        eprintln!("staged: bias and RMS error / (mean half-width / 1.96), per target: {}", self.staged.errors());
        if self.naive.runs > 0 {
            eprintln!("{}", self.naive.row("naive"));
        }
        match self.baseline() {
            Some(i) => eprintln!("{}", self.fixed[i].row(&format!("fixed {:.0} s (shortest meeting the goals as often)", FIXED_S[i]))),
            None if !self.fixed.is_empty() => eprintln!("{}", self.fixed[FIXED_S.len() - 1].row("fixed 900 s (no fixed duration meets the goals as often)")),
            None => {}
        }
        if !self.fixed.is_empty() {
            let curve: Vec<String> = FIXED_S.iter().zip(&self.fixed).map(|(t, f)| format!("{t:.0} s: {}", f.met)).collect();
            eprintln!("fixed runs meeting every goal, of {}: {}", self.staged.runs, curve.join(", "));
            let covered: Vec<String> =
                FIXED_S.iter().zip(&self.fixed).map(|(t, f)| format!("{t:.0} s: {:.2}/{:.2}/{:.2}", f.coverage(0), f.coverage(1), f.coverage(2))).collect();
            eprintln!("fixed runs' coverage (P50 / P99 TTFT / throughput): {}", covered.join(", "));
            let errors: Vec<String> = FIXED_S.iter().zip(&self.fixed).map(|(t, f)| format!("{t:.0} s: {}", f.errors())).collect();
            eprintln!("fixed runs' bias and RMS error / (mean half-width / 1.96), per target: {}", errors.join(", "));
        }
        eprintln!(
            "adaptive / baseline duration: mean {:.2} (P10 {:.2}, median {:.2}, P90 {:.2}); online warmup within max(5 s, 10 %) of the offline cut: {} of {}; monitor CPU: {:.2} % of one core",
            ratio.iter().sum::<f64>() / ratio.len().max(1) as f64,
            q(0.1),
            q(0.5),
            q(0.9),
            self.warmup_close.0,
            self.warmup_close.1,
            100.0 * self.cpu_s / self.run_s.max(1e-9)
        );
    }
}

/// Runs the study over `seeds` of the steady and warmup scenarios (with the naive rule beside
/// the staged one, and the fixed-duration baseline, when asked).
fn study(seeds: std::ops::Range<u64>, with_naive: bool, with_fixed: bool) -> Study {
    let mut all = Study::default();
    for scenario in SCENARIOS {
        let mut base = SimOptions::new(scenario, 0);
        base.duration_s = MAX_DURATION_S + 60.0;
        let ttft = true_percentiles(&base).0.ttft;
        let truth = [ttft.p50, ttft.p99, RATE];
        let results: Vec<RunResult> = seeds.clone().into_par_iter().map(|seed| one_run(&base, seed, with_naive, with_fixed)).collect();
        let mut this = Study::default();
        for r in &results {
            this.add(r, truth);
        }
        this.add_ratios(&results);
        eprintln!("\n{scenario:?}:");
        this.print();
        all.merge(&this);
    }
    eprintln!("\nall scenarios:");
    all.print();
    all
}

#[test]
fn until_coverage_fast() {
    let s = study(1..6, false, false);
    assert_eq!(s.staged.runs, 15);
    assert!(s.staged.met >= 12, "the goals are reachable within {MAX_DURATION_S} s: met in {} of 15", s.staged.met);
    for k in 0..3 {
        assert!(s.staged.coverage(k) >= 0.7, "target {k}: coverage {}", s.staged.coverage(k));
    }
    assert!(s.warmup_close.0 >= 12, "online warmup near the offline cut in {} of 15", s.warmup_close.0);
}

#[test]
#[ignore = "210 replayed runs with the naive rule beside: about 45 minutes on 2 cores (UNTIL_SEEDS per scenario, 70 for the note; UNTIL_NAIVE=0 skips the naive rule); run with --ignored for the tables in docs/run-a-benchmark.md"]
fn until_study_full() {
    let seeds: u64 = std::env::var("UNTIL_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(70);
    let naive = std::env::var("UNTIL_NAIVE").map_or(true, |v| v != "0");
    let s = study(1..seeds + 1, naive, true);
    for k in 0..3 {
        assert!(s.staged.coverage(k) >= 0.93, "target {k}: coverage {} at the stopping time", s.staged.coverage(k));
    }
    assert!(s.warmup_close.0 as f64 >= 0.9 * s.warmup_close.1 as f64, "online warmup near the offline cut in {} of {}", s.warmup_close.0, s.warmup_close.1);
}

/// CPU seconds this process has used (user + system, every thread: a look's resampling runs on
/// rayon's workers), so the cost is measured even when other work shares the cores.
fn process_cpu_s() -> f64 {
    let mut usage = unsafe { std::mem::zeroed::<libc::rusage>() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    s(usage.ru_utime) + s(usage.ru_stime)
}

/// The monitor's cost at 1,000 requests/s: a 10-minute simulated run (a server 60× the default
/// one, so it keeps up) replayed into a monitor whose goal is never met, so it looks to the end.
/// Run it alone (`until_monitor_overhead`): the CPU it counts is the whole process's.
#[test]
#[ignore = "a 600,000-request replay: about a minute on 2 cores; run with --ignored for the note's overhead number"]
fn until_monitor_overhead_at_1000_per_s() {
    const RUN_S: f64 = 600.0;
    let mut o = SimOptions::new(Scenario::Steady, 7);
    (o.duration_s, o.compute_truth) = (RUN_S, false);
    o.arrival = credence::simulate::ArrivalProcess::Poisson { rate: 1000.0 };
    o.engine.capacity_scale = 60.0;
    (o.engine.max_batch, o.engine.kv_tokens) = (16_384, 6_400_000);
    let v = RequestView::from_table(&simulate(&o).unwrap().data.requests);
    let finished = finished_of(&v);
    let mut options = options(Rule::Staged, 7, 60.0, RUN_S);
    options.targets = spec::parse("ttft_p50=0.01%,ttft_p99=0.01%,throughput=0.01%").unwrap();
    let mut m = Monitor::new(options);
    // An open loop's offered rate: each look also judges overload, as `bench --until` does.
    m.set_offered(Some(1000.0));
    let (mut next, mut cpu_s, mut looks) = (0, 0.0, 0);
    for second in 1..=RUN_S as usize {
        let t = second as f64;
        while next < finished.len() && finished[next].end_s <= t {
            m.push(finished[next]);
            next += 1;
        }
        let before = complete_before(&v, t);
        let cpu = process_cpu_s();
        looks += usize::from(m.look(t, before, false).is_some());
        cpu_s += process_cpu_s() - cpu;
    }
    eprintln!(
        "monitor at {:.0} requests/s over {RUN_S} s: {looks} looks, {cpu_s:.2} CPU s in all, {:.2} % of one core",
        finished.len() as f64 / RUN_S,
        100.0 * cpu_s / RUN_S
    );
    assert!(looks >= 10, "the monitor looked {looks} times");
}
