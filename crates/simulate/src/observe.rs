//! From engine times to what the client records: network delays, the `--effect` transform,
//! and a saturated client's late reading of responses.

use super::engine::{EngineTrace, Failure, TIMEOUT_NS};
use super::rng::SimRng;

/// A quantity the A/B effect scales.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectMetric {
    Ttft,
    Tpot,
    E2e,
    Throughput,
}

/// A known effect for A/B tests: `ttft=+8%` scales every request's TTFT by 1.08.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Effect {
    pub metric: EffectMetric,
    pub relative: f64,
}

impl Effect {
    /// Parses `METRIC=+8%`, `METRIC=-5%` or `METRIC=0.08`.
    pub fn parse(text: &str) -> Result<Effect, String> {
        let (m, v) = text.split_once('=').ok_or_else(|| format!("--effect {text:?}: expected METRIC=+N%, e.g. ttft=+8%"))?;
        let metric = match m.trim() {
            "ttft" => EffectMetric::Ttft,
            "tpot" => EffectMetric::Tpot,
            "e2e" => EffectMetric::E2e,
            "throughput" => EffectMetric::Throughput,
            other => {
                return Err(format!("--effect: unknown metric {other:?}; expected ttft, tpot, e2e or throughput"));
            }
        };
        let v = v.trim();
        let relative = match v.strip_suffix('%') {
            Some(p) => p.trim().parse::<f64>().map(|x| x / 100.0),
            None => v.parse::<f64>(),
        }
        .map_err(|_| format!("--effect {text:?}: {v:?} is not a number or percentage"))?;
        if !relative.is_finite() || relative <= -0.9 || relative > 10.0 {
            return Err(format!("--effect {text:?}: the change must lie between -90% and +1000%"));
        }
        Ok(Effect { metric, relative })
    }
}

/// Time from the last token to the end of the response (the final usage chunk).
pub const TAIL_NS: i64 = 200_000;

/// Client-side times of one request, ns from the run start.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientTimes {
    pub first_token_ns: Option<i64>,
    pub end_ns: i64,
    /// Chunk times (one token per chunk); empty for failed requests.
    pub chunks: Vec<i64>,
}

/// Applies the effect to a token time `t` (server clock plus network), given the send time
/// and the untransformed first-token time.
fn transform(t: i64, sent: i64, first: i64, effect: Option<Effect>) -> i64 {
    let Some(e) = effect else { return t };
    let r = e.relative;
    match e.metric {
        EffectMetric::Ttft => t + ((first - sent) as f64 * r).round() as i64,
        EffectMetric::Tpot => first + ((t - first) as f64 * (1.0 + r)).round() as i64,
        EffectMetric::E2e => sent + ((t - sent) as f64 * (1.0 + r)).round() as i64,
        EffectMetric::Throughput => t,
    }
}

/// The network delay back to the client: per request, log-normal around 0.25 ms.
pub fn downlink_ns(rng: &mut SimRng) -> i64 {
    (rng.lognormal(0.25, 0.3) * 1e6) as i64
}

/// TTFT and E2E of job `j` without building its chunk list (for the long truth run).
pub fn first_and_end(trace: &EngineTrace, j: usize, down_ns: i64, effect: Option<Effect>) -> Option<(i64, i64)> {
    let job = &trace.jobs[j];
    if job.failure.is_some() {
        return None;
    }
    let tokens = trace.token_times(j);
    let first_raw = tokens[0] + down_ns;
    let first = transform(first_raw, job.sent_ns, first_raw, effect);
    let last = transform(tokens[tokens.len() - 1] + down_ns, job.sent_ns, first_raw, effect);
    Some((first, last + TAIL_NS))
}

/// Everything the client records for job `j`. `late_read_ns` gives the extra delay with which a
/// saturated client reads a chunk arriving at a time (0 when it keeps up).
pub fn observe(trace: &EngineTrace, j: usize, down_ns: i64, effect: Option<Effect>, late_read_ns: &mut dyn FnMut(i64) -> i64) -> ClientTimes {
    let job = &trace.jobs[j];
    match job.failure {
        Some(Failure::Timeout) => {
            return ClientTimes { first_token_ns: None, end_ns: job.sent_ns + TIMEOUT_NS, chunks: Vec::new() };
        }
        Some(Failure::Oom) => {
            let at = trace.iter_end_ns[trace.admit_iter[j] as usize] + down_ns;
            return ClientTimes { first_token_ns: None, end_ns: at + late_read_ns(at), chunks: Vec::new() };
        }
        None => {}
    }
    let tokens = trace.token_times(j);
    let first_raw = tokens[0] + down_ns;
    let mut chunks = Vec::with_capacity(tokens.len());
    let mut prev = i64::MIN;
    for &t in tokens {
        let arrived = transform(t + down_ns, job.sent_ns, first_raw, effect);
        // A late reader never sees chunks out of order.
        let read = (arrived + late_read_ns(arrived)).max(prev);
        chunks.push(read);
        prev = read;
    }
    let end_ns = chunks[chunks.len() - 1] + TAIL_NS;
    ClientTimes { first_token_ns: Some(chunks[0]), end_ns, chunks }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_effects() {
        assert_eq!(Effect::parse("ttft=+8%").unwrap(), Effect { metric: EffectMetric::Ttft, relative: 0.08 });
        assert_eq!(Effect::parse("throughput=-5%").unwrap().relative, -0.05);
        assert_eq!(Effect::parse("e2e=0.1").unwrap().metric, EffectMetric::E2e);
        assert!(Effect::parse("latency=+5%").is_err());
        assert!(Effect::parse("ttft").is_err());
        assert!(Effect::parse("ttft=abc%").is_err());
    }

    #[test]
    fn ttft_effect_scales_ttft_only() {
        let e = Some(Effect { metric: EffectMetric::Ttft, relative: 0.1 });
        // sent 0, first 100, later token 300: TTFT 100 → 110, gaps unchanged.
        assert_eq!(transform(100, 0, 100, e), 110);
        assert_eq!(transform(300, 0, 100, e), 310);
    }

    #[test]
    fn tpot_effect_stretches_decode_only() {
        let e = Some(Effect { metric: EffectMetric::Tpot, relative: 0.5 });
        assert_eq!(transform(100, 0, 100, e), 100);
        assert_eq!(transform(300, 0, 100, e), 400);
    }
}
