//! A fixed-length step of a sweep, watched for overload: once the last `OVERLOAD_LOOK_S` of
//! finished requests show the server leaving more than 5 % of the offered rate unserved (the
//! analysis's own rule, `overload::load_since`), the step stops: the rest of it would only
//! measure a growing queue. `--until` runs judge the same inside their monitor.

use std::sync::Mutex;

use crate::analyze::AnalyzeOptions;
use crate::analyze::overload::{Load, load_since};
use crate::analyze::until::{Finished, OVERLOAD_LOOK_S, view_of};
use crate::bench::{LoadStatus, Watcher};

/// Seconds between two looks.
const LOOK_EVERY_S: f64 = 5.0;

/// Watches an open loop offering `offered` requests/s.
pub struct OverloadWatcher {
    offered: f64,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    done: Vec<Finished>,
    last_look_s: f64,
    /// What the look that stopped the run found.
    found: Option<Load>,
}

impl OverloadWatcher {
    pub fn new(offered: f64) -> OverloadWatcher {
        OverloadWatcher { offered, state: Mutex::new(State::default()) }
    }

    /// The overload that stopped the run, if one did.
    pub fn found(&self) -> Option<Load> {
        self.state.lock().ok()?.found.clone()
    }
}

impl Watcher for OverloadWatcher {
    fn tick(&self, t_s: f64, done: Vec<Finished>, complete_before_s: f64, _load: &LoadStatus) -> bool {
        let Ok(mut state) = self.state.lock() else { return false };
        state.done.extend(done);
        if t_s - state.last_look_s < LOOK_EVERY_S || state.done.is_empty() {
            return false;
        }
        state.last_look_s = t_s;
        // The analysis's clock: seconds from the first send.
        let origin = state.done.iter().map(|f| f.sent_s).fold(f64::INFINITY, f64::min);
        let until = complete_before_s.min(t_s);
        let view = view_of(&state.done, until, origin);
        let d = AnalyzeOptions::default();
        let l = load_since(&view, (until - origin - OVERLOAD_LOOK_S).max(0.0), self.offered, d.window_s, d.confidence);
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
