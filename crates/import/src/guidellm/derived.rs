//! guidellm's per-request values (the computed fields of `GenerativeRequestStats` in
//! `guidellm/schemas/base/request_stats.py`), derived from a record's timings and usage the
//! way guidellm derives them, so its summaries can be recomputed with its own definitions.

use super::record::Record;

/// Python's truthiness of an optional number: None and 0 are false.
fn truthy(x: Option<f64>) -> bool {
    x.is_some_and(|v| v != 0.0)
}

/// numpy's `linspace(start, stop, num)`: `start + i·step`, the last point exactly `stop`.
pub fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    if num == 0 {
        return Vec::new();
    }
    if num == 1 {
        return vec![start];
    }
    let step = (stop - start) / (num - 1) as f64;
    let mut out: Vec<f64> = (0..num).map(|i| i as f64 * step + start).collect();
    out[num - 1] = stop;
    out
}

impl Record {
    /// `request_start_time`: the request's start, else when the worker began resolving it.
    pub fn start_time(&self) -> Option<f64> {
        self.timings.request_start.or(self.timings.resolve_start)
    }

    /// `request_end_time`: the request's end, else when the worker finished with it.
    pub fn end_time(&self) -> Option<f64> {
        self.timings.request_end.or(self.timings.resolve_end)
    }

    /// `request_latency` in seconds.
    pub fn latency_s(&self) -> Option<f64> {
        Some(self.timings.request_end? - self.timings.request_start?)
    }

    /// `request_dispatch_delay` in seconds: start − targeted start.
    pub fn dispatch_delay_s(&self) -> Option<f64> {
        Some(self.timings.request_start? - self.timings.targeted_start?)
    }

    /// `turn_predecessor_delay` in seconds: the part of the dispatch delay spent waiting for a
    /// predecessor past the target.
    pub fn predecessor_delay_s(&self) -> Option<f64> {
        let (targeted, start) = (self.timings.targeted_start?, self.timings.request_start?);
        Some(self.timings.predecessor_completed.map_or(0.0, |p| (start.min(p) - targeted).max(0.0)))
    }

    /// `turn_scheduling_delay` in seconds: the rest of the dispatch delay.
    pub fn scheduling_delay_s(&self) -> Option<f64> {
        Some(self.dispatch_delay_s()? - self.predecessor_delay_s()?)
    }

    /// `request_scheduled_latency` in seconds: end − targeted start.
    pub fn scheduled_latency_s(&self) -> Option<f64> {
        Some(self.timings.request_end? - self.timings.targeted_start?)
    }

    /// `prompt_tokens`: the input usage's total.
    pub fn prompt_tokens(&self) -> Option<f64> {
        self.input.get("total_tokens").copied()
    }

    /// `output_tokens`: the output usage's total, else the streamed token iterations.
    pub fn output_tokens(&self) -> Option<f64> {
        match self.output.get("total_tokens") {
            Some(x) => Some(*x),
            None => Some(self.timings.token_iterations).filter(|x| *x != 0.0),
        }
    }

    /// `total_tokens`: prompt + output, None when both are.
    pub fn total_tokens(&self) -> Option<f64> {
        let (i, o) = (self.prompt_tokens(), self.output_tokens());
        (i.is_some() || o.is_some()).then(|| i.unwrap_or(0.0) + o.unwrap_or(0.0))
    }

    pub fn ttft_ms(&self) -> Option<f64> {
        Some(1000.0 * (self.timings.first_token_iteration? - self.timings.request_start?))
    }

    pub fn time_to_first_output_token_ms(&self) -> Option<f64> {
        Some(1000.0 * (self.timings.first_output_token_iteration? - self.timings.request_start?))
    }

    /// guidellm's TPOT: (last token, else end) − start, over the output tokens: TTFT included.
    pub fn tpot_ms(&self) -> Option<f64> {
        let start = self.timings.request_start?;
        let last = if truthy(self.timings.last_token_iteration) { self.timings.last_token_iteration } else { self.end_time() }?;
        let out = self.output_tokens().filter(|o| *o != 0.0)?;
        Some(1000.0 * (last - start) / out)
    }

    /// guidellm's ITL: (last token − first token) / (output tokens − 1), a per-request mean.
    pub fn itl_ms(&self) -> Option<f64> {
        let out = self.output_tokens().filter(|o| *o > 1.0)?;
        Some(1000.0 * (self.timings.last_token_iteration? - self.timings.first_token_iteration?) / (out - 1.0))
    }

    /// `time_to_last_round_trip_ms` (websocket backends only).
    pub fn last_round_trip_ms(&self) -> Option<f64> {
        Some(1000.0 * (self.timings.last_token_iteration? - self.timings.last_request_sent?))
    }

    /// `avg_round_trip_time_ms` (websocket backends only).
    pub fn avg_round_trip_ms(&self) -> Option<f64> {
        let t = &self.timings;
        (t.request_sent_count > 0.0 && t.token_received_count > 0.0)
            .then(|| 1000.0 * (t.token_received_sum / t.token_received_count - t.request_sent_sum / t.request_sent_count))
    }

    /// `iter_tokens_per_iteration`: tokens after the first per iteration after the first.
    fn iter_tokens_per_iteration(&self) -> Option<f64> {
        let out = self.output_tokens().filter(|o| *o > 1.0)?;
        (self.timings.token_iterations > 1.0).then(|| (out - 1.0) / (self.timings.token_iterations - 1.0))
    }

    /// `prompt_tokens_timing`: the prompt tokens, counted at the first token (else the end).
    pub fn prompt_tokens_timing(&self) -> Option<(f64, f64)> {
        let at = self.timings.first_token_iteration.or(self.end_time())?;
        Some((at, self.prompt_tokens().unwrap_or(0.0)))
    }

    /// `iter_tokens_timings`: the iterations after the first, spaced evenly between the first
    /// and last token (guidellm has no per-iteration times), each with the mean tokens.
    pub fn iter_tokens_timings(&self) -> Vec<(f64, f64)> {
        let t = &self.timings;
        let (Some(first), Some(last), Some(per)) = (t.first_token_iteration, t.last_token_iteration, self.iter_tokens_per_iteration()) else {
            return Vec::new();
        };
        if t.token_iterations <= 1.0 {
            return Vec::new();
        }
        linspace(first, last, t.token_iterations as usize).into_iter().skip(1).map(|x| (x, per)).collect()
    }

    /// `output_tokens_timings`: the first token as one token, then the iterations; or all the
    /// tokens at the last token (else the end) when there are no iterations.
    pub fn output_tokens_timings(&self) -> Vec<(f64, f64)> {
        let t = &self.timings;
        match (t.first_token_iteration, t.last_token_iteration) {
            (Some(first), Some(_)) if t.token_iterations > 1.0 => {
                let one = if truthy(self.output_tokens()) { 1.0 } else { 0.0 };
                std::iter::once((first, one)).chain(self.iter_tokens_timings()).collect()
            }
            _ => t.last_token_iteration.or(self.end_time()).map(|at| vec![(at, self.output_tokens().unwrap_or(0.0))]).unwrap_or_default(),
        }
    }

    /// `total_tokens_timings`: the prompt timing, then the output ones.
    pub fn total_tokens_timings(&self) -> Vec<(f64, f64)> {
        self.prompt_tokens_timing().into_iter().chain(self.output_tokens_timings()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_as_numpy() {
        assert_eq!(linspace(1.0, 2.0, 5), vec![1.0, 1.25, 1.5, 1.75, 2.0]);
        assert_eq!(linspace(3.0, 3.0, 1), vec![3.0]);
    }
}
