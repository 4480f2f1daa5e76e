//! A capacity search against the simulator (`credence simulate --find-capacity`, and the
//! studies that know the truth): each step is a simulated run at the step's load, replayed
//! second by second into the same `until::Monitor` that watches `bench`, and cut where the
//! monitor stopped it (decided, overloaded, out of reach, or at the step's budget), so that
//! the search, the stopping rule and the estimate are the ones a real search uses.

use crate::analyze::requests::RequestView;
use crate::analyze::until::{Finished, Monitor};
use crate::error::CliError;
use crate::ops::bench::capacity::{CapacityPlan, StepSource};
use crate::ops::bench::sweep::SweepParameter;
use crate::run::write::RunData;
use crate::simulate::{ArrivalProcess, SimOptions, simulate};

/// Simulated steps: `base` at each step's load (its seed moved on per step).
pub struct SimSource {
    pub base: SimOptions,
}

impl StepSource for SimSource {
    fn simulated(&self) -> bool {
        true
    }

    fn run_step(&mut self, plan: &CapacityPlan, index: usize, load: f64, budget_s: f64) -> Result<RunData, CliError> {
        let mut o = self.base.clone();
        o.seed = self.base.seed.wrapping_mul(1000).wrapping_add(index as u64);
        o.arrival = match plan.parameter {
            // The search's load counts requests; sessions arrive at that over their turns.
            SweepParameter::Rate => ArrivalProcess::Poisson { rate: load / o.sessions.map_or(1.0, |s| s.mean_turns()) },
            SweepParameter::Concurrency => ArrivalProcess::ClosedLoop { clients: load as u32 },
        };
        o.duration_s = plan.fixed_step_s.unwrap_or(budget_s).min(budget_s);
        let run = |o: &SimOptions| simulate(o).map(|s| s.data).map_err(|e| CliError::bad_input(e.to_string()));
        let full = run(&o)?;
        if plan.fixed_step_s.is_some() {
            return Ok(full);
        }
        // The same seed draws the same run up to the stop: simulated again for that long.
        let offered = (plan.parameter == SweepParameter::Rate).then_some(load);
        let stop_s = replay(&RequestView::from_table(&full.requests), plan, o.duration_s, offered);
        if stop_s >= o.duration_s {
            return Ok(full);
        }
        o.duration_s = stop_s.max(1.0);
        run(&o)
    }
}

/// Where the monitor stops a run whose requests are `v` (looks once a second, as `bench`'s
/// watcher does): the seconds from the run's start, or `budget_s` when it never stops.
pub fn replay(v: &RequestView, plan: &CapacityPlan, budget_s: f64, offered: Option<f64>) -> f64 {
    let mut monitor = Monitor::new(plan.until(budget_s));
    monitor.set_offered(offered);
    let mut finished: Vec<Finished> = (0..v.len()).filter(|&i| v.end_s[i].is_finite()).map(|i| v.finished(i)).collect();
    finished.sort_by(|a, b| a.end_s.total_cmp(&b.end_s));
    // Requests in send order: the oldest still in flight at t bounds what a look may read.
    let mut open: std::collections::BTreeMap<(i64, usize), ()> = std::collections::BTreeMap::new();
    let key = |i: usize| ((v.sent_s[i] * 1e6) as i64, i);
    let mut by_end: Vec<usize> = (0..v.len()).collect();
    by_end.sort_by(|a, b| v.end_s[*a].total_cmp(&v.end_s[*b]));
    let (mut sent, mut ended, mut next) = (0, 0, 0);
    let mut t = 1.0;
    while t <= budget_s.ceil() {
        while sent < v.len() && v.sent_s[sent] <= t {
            open.insert(key(sent), ());
            sent += 1;
        }
        while ended < by_end.len() && v.end_s[by_end[ended]] <= t {
            open.remove(&key(by_end[ended]));
            ended += 1;
        }
        while next < finished.len() && finished[next].end_s <= t {
            monitor.push(finished[next]);
            next += 1;
        }
        let before = open.keys().next().map_or(t, |(_, i)| v.sent_s[*i]);
        monitor.set_in_flight(open.keys().map(|(_, i)| v.sent_s[*i]).collect());
        if let Some(stop) = monitor.look(t, before, false).and_then(|l| l.stop) {
            if std::env::var("CAPACITY_TRACE").is_ok() {
                eprintln!("      stop at {t} s: {stop:?}");
            }
            return t;
        }
        t += 1.0;
    }
    budget_s
}
