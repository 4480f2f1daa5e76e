//! Cache warming: the run began on a cold prefix cache. TTFT is high at first and falls while
//! the share of prompt tokens served from the cache climbs to its level: a warmup that is the
//! cache, not the GPU, and one that a warm cache from an earlier run would have hidden.

use std::collections::BTreeMap;

use credence_messages::Message;
use credence_stats::quantile::quantile_unsorted;

use super::ANOMALY_WINDOW_S;
use super::detectors::{CauseEpisode, Detection, Signal};
use super::episodes::Span;
use crate::cause::Cause;
use crate::requests::RequestView;

/// The cache's level below which the run shows no cache worth warming.
const MIN_LEVEL: f64 = 0.1;
/// A window is cold while its hit share is below this share of the level.
const COLD_SHARE: f64 = 0.5;
/// The cold windows' median TTFT must exceed the warm level's by this factor.
const TTFT_FACTOR: f64 = 1.1;

/// Per window of `ANOMALY_WINDOW_S` (by send time): cached over prompt tokens and median TTFT.
fn windows(r: &RequestView) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let last = r.sent_s.iter().copied().filter(|t| t.is_finite()).fold(0.0, f64::max);
    let n = (last / ANOMALY_WINDOW_S).floor() as usize + 1;
    let (mut cached, mut prompt, mut ttft) = (vec![0.0; n], vec![0.0; n], vec![Vec::new(); n]);
    for i in (0..r.len()).filter(|&i| r.ok[i] && r.sent_s[i].is_finite()) {
        let w = (r.sent_s[i] / ANOMALY_WINDOW_S).floor() as usize;
        if let Some(c) = r.cached_tokens.get(i).filter(|c| c.is_finite() && r.input_tokens[i].is_finite()) {
            cached[w] += f64::from(*c);
            prompt[w] += f64::from(r.input_tokens[i]);
        }
        if r.ttft_ms[i].is_finite() {
            ttft[w].push(r.ttft_ms[i]);
        }
    }
    let share = cached.iter().zip(&prompt).map(|(c, p)| if *p > 0.0 { c / p } else { f64::NAN }).collect();
    let median = ttft.iter().map(|v| quantile_unsorted(v, 0.5).unwrap_or(f64::NAN)).collect();
    ((0..n).map(|w| w as f64 * ANOMALY_WINDOW_S).collect(), share, median)
}

/// The leading cold windows, when they are at least two, the cache's later level is worth
/// warming, and TTFT was higher while it was cold.
pub fn cache_warming(r: &RequestView) -> Detection {
    if !r.cached_tokens.iter().any(|c| c.is_finite()) {
        return Detection::absent(Cause::CacheWarming, "detector-no-cache");
    }
    let (t, share, ttft) = windows(r);
    let mut d = Detection::checked(Cause::CacheWarming);
    let later: Vec<f64> = share[share.len() / 2..].iter().copied().filter(|x| x.is_finite()).collect();
    let level = quantile_unsorted(&later, 0.5).unwrap_or(0.0);
    let cold = share.iter().take_while(|s| !s.is_finite() || **s < COLD_SHARE * level).count();
    let (cold_ttft, warm_ttft) = (finite_median(&ttft[..cold]), finite_median(&ttft[cold..]));
    if level >= MIN_LEVEL && cold >= 2 && cold < t.len() && cold_ttft > TTFT_FACTOR * warm_ttft {
        let peak = BTreeMap::from([
            ("cache_hit_share_first".into(), share.iter().copied().find(|s| s.is_finite()).unwrap_or(0.0)),
            ("cache_hit_share_level".into(), level),
            ("ttft_p50_ms_cold".into(), cold_ttft),
            ("ttft_p50_ms_warm".into(), warm_ttft),
        ]);
        let span = Span { start_s: 0.0, end_s: t[cold] };
        d.episodes.push(CauseEpisode { span, source: Message::new("source-requests"), peak });
    }
    d.signal = Signal { t_s: t, values: share };
    d
}

fn finite_median(v: &[f64]) -> f64 {
    let v: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    quantile_unsorted(&v, 0.5).unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;
    use credence_run::rows::Finished;

    /// 120 s at 4 requests/s of 1000-token prompts: the hit share climbs from 0 to `level`
    /// over the first `warm_s` seconds, and TTFT falls from 300 ms to 100 ms with it.
    fn run(level: f64, warm_s: f64, ttft_follows: bool) -> RequestView {
        let done: Vec<Finished> = (0..480)
            .map(|i| {
                let t = i as f64 * 0.25;
                let warmth = (t / warm_s).min(1.0);
                let ttft = if ttft_follows { 300.0 - 200.0 * warmth } else { 100.0 };
                Finished { sent_s: t, end_s: t + 1.0, ok: true, ttft_ms: ttft, tpot_ms: 10.0, e2e_ms: 1000.0, output_tokens: 64.0 }
            })
            .collect();
        let mut r = crate::until::view_of(&done, f64::INFINITY, 0.0);
        r.input_tokens = vec![1000.0; r.len()];
        r.cached_tokens = r.sent_s.iter().map(|t| (1000.0 * level * (t / warm_s).min(1.0)) as f32).collect();
        r
    }

    #[test]
    fn a_cold_start_whose_ttft_falls_as_the_cache_fills_is_named() {
        let d = cache_warming(&run(0.8, 30.0, true));
        assert!(d.not_checked.is_none());
        assert_eq!(d.episodes.len(), 1);
        let e = &d.episodes[0];
        // Cold while below half the level (0.4): the first 15 s, in whole 5-s windows.
        assert!(e.span.start_s == 0.0 && (10.0..=20.0).contains(&e.span.end_s), "{:?}", e.span);
        assert!(e.peak["ttft_p50_ms_cold"] > e.peak["ttft_p50_ms_warm"]);
    }

    #[test]
    fn no_cache_worth_warming_or_no_ttft_effect_is_no_finding() {
        assert!(cache_warming(&run(0.05, 30.0, true)).episodes.is_empty(), "a 5 % cache");
        assert!(cache_warming(&run(0.8, 30.0, false)).episodes.is_empty(), "TTFT did not move");
        assert!(cache_warming(&run(0.8, 0.001, true)).episodes.is_empty(), "warm from the start");
        let mut none = run(0.8, 30.0, true);
        none.cached_tokens.clear();
        assert!(cache_warming(&none).not_checked.is_some());
    }
}
