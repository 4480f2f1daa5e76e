//! A fixed-length step of a sweep, watched for overload: once the recent load (the last 30 s,
//! or the last half of the step: `until::overload_look_since`), the requests in flight counted
//! as such, shows the server leaving more than 5 % of the offered rate unserved (the analysis's
//! own rule, `overload::load_since`), the step stops: the rest of it would only measure a
//! growing queue. `--until` runs judge the same inside their monitor.

use std::sync::Mutex;

use crate::analyze::AnalyzeOptions;
use crate::analyze::overload::{Load, load_since};
use crate::analyze::until::{Finished, OVERLOAD_LOOK_CONFIDENCE, OVERLOAD_MIN_S, overload_look_since, view_in_flight};
use crate::bench::{LoadStatus, Watcher};

/// Seconds between two looks.
const LOOK_EVERY_S: f64 = 2.0;

/// Watches an open loop offering `offered` requests/s.
pub struct OverloadWatcher {
    offered: f64,
    state: Mutex<State>,
}

struct State {
    /// The finished requests a look still needs: those that ended after the last look's
    /// window began (one that ended before it adds to the arrivals and the ends alike, so the
    /// in-flight count inside the window is the same without it). A look's cost then stays
    /// bounded however long the step runs.
    done: Vec<Finished>,
    /// The first send of the step (the analysis's clock starts there).
    origin_s: f64,
    last_look_s: f64,
    /// What the look that stopped the run found.
    found: Option<Load>,
}

impl OverloadWatcher {
    pub fn new(offered: f64) -> OverloadWatcher {
        OverloadWatcher { offered, state: Mutex::new(State { done: Vec::new(), origin_s: f64::INFINITY, last_look_s: 0.0, found: None }) }
    }

    /// The overload that stopped the run, if one did.
    pub fn found(&self) -> Option<Load> {
        self.state.lock().ok()?.found.clone()
    }
}

impl Watcher for OverloadWatcher {
    fn tick(&self, t_s: f64, done: Vec<Finished>, _complete_before_s: f64, load: &LoadStatus) -> bool {
        let Ok(mut state) = self.state.lock() else { return false };
        let sends = done.iter().map(|f| f.sent_s).chain(load.in_flight_sent_s.iter().copied());
        state.origin_s = sends.fold(state.origin_s, f64::min);
        state.done.extend(done);
        if t_s - state.last_look_s < LOOK_EVERY_S || !state.origin_s.is_finite() {
            return false;
        }
        state.last_look_s = t_s;
        let origin = state.origin_s;
        // The in-flight count's fill is no queue: judged on `OVERLOAD_MIN_S` of load at least.
        if t_s - origin < OVERLOAD_MIN_S {
            return false;
        }
        let since = overload_look_since(t_s - origin);
        let view = view_in_flight(&state.done, &load.in_flight_sent_s, t_s, origin);
        let l = load_since(&view, since, self.offered, AnalyzeOptions::default().window_s, OVERLOAD_LOOK_CONFIDENCE);
        // The next look's window begins after this one's: what ended before it is not needed.
        state.done.retain(|f| f.end_s - origin >= since);
        let overloaded = l.overloaded();
        if overloaded {
            state.found = Some(l);
        }
        overloaded
    }

    fn warmup_s(&self) -> Option<f64> {
        None
    }
}
