//! The server's prefix cache as the run saw it: the share of prompt tokens served from the
//! cache (from each request's usage, with an interval; and from the server's own counters
//! where they were scraped), and in conversations the TTFT of each turn (turn 1 against later
//! turns: the cache at work).

use serde::{Deserialize, Serialize};

use crate::attribute::signals::{ServerSeries, increments, server_metric};
use crate::estimate::{Estimate, Method};
use crate::requests::RequestView;
use credence_stats::block_length::long_run_variance;
use statrs::distribution::{ContinuousCDF, Normal};

/// The prefix cache in one run; absent when neither the requests nor the server report it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheState {
    /// Cached over prompt tokens in the steady window, from each response's
    /// `prompt_tokens_details.cached_tokens`: a ratio of per-window sums, its interval by the
    /// delta method with the flat-top long-run variance. Not applicable when no response
    /// reports cached tokens.
    pub hit_rate: Estimate,
    pub prompt_tokens: u64,
    pub cached_tokens: u64,
    /// The same over every successful request of the run, warmup and tail included (the
    /// cache's state is the run's, not only its steady window's).
    pub run_prompt_tokens: u64,
    pub run_cached_tokens: u64,
    /// The server's counters over the whole run, when its metrics were scraped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<ServerCache>,
    /// Conversations: each turn's requests and median TTFT; empty outside conversations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<TurnTtft>,
}

/// The prefix-cache counters a server exported, as increments over the run; or, for SGLang,
/// its hit-rate gauge averaged over the run's scrapes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerCache {
    /// The counters read (vLLM's `…prefix_cache_queries…` and `…hits…`), or SGLang's
    /// `sglang:cache_hit_rate` gauge for both.
    pub queries_metric: String,
    pub hits_metric: String,
    /// Tokens looked up and found over the run; none from a gauge.
    pub queries: Option<f64>,
    pub hits: Option<f64>,
    pub hit_rate: Option<f64>,
}

/// One turn of the conversations: its requests and its median TTFT with an interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnTtft {
    pub turn: u32,
    pub requests: u64,
    pub ttft_p50: Estimate,
    /// Cached over prompt tokens of this turn's requests; none where not reported.
    pub hit_rate: Option<f64>,
}

/// Counter names engines use for prefix-cache lookups and hits, in tokens (vLLM V1, then V0).
const QUERIES: &[&str] =
    &["vllm:prefix_cache_queries_total", "vllm:prefix_cache_queries", "vllm:gpu_prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries"];
const HITS: &[&str] = &["vllm:prefix_cache_hits_total", "vllm:prefix_cache_hits", "vllm:gpu_prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits"];

/// Turns beyond this are pooled into the last row (a table of 999 turns helps no one).
const MAX_TURN_ROWS: u32 = 8;

/// The cache state of requests `range` (send order) of the steady window `[start_s, end_s)`.
pub fn cache_state(
    r: &RequestView,
    range: std::ops::Range<usize>,
    (start_s, end_s): (f64, f64),
    server: &ServerSeries,
    (window_s, cl): (f64, f64),
    median: SubsetMedian<'_>,
) -> Option<CacheState> {
    let server = server_cache(server);
    if r.cached_tokens.is_empty() && server.is_none() && r.turn.is_empty() {
        return None;
    }
    let reported = |i: usize| r.ok[i] && r.cached_tokens.get(i).is_some_and(|c| c.is_finite()) && r.input_tokens[i].is_finite();
    let sums = |range: std::ops::Range<usize>| {
        range.filter(|&i| reported(i)).fold((0.0f64, 0.0f64), |(p, c), i| (p + f64::from(r.input_tokens[i]), c + f64::from(r.cached_tokens[i])))
    };
    let (prompt, cached) = sums(range.clone());
    let (run_prompt, run_cached) = sums(0..r.len());
    let hit_rate = if prompt > 0.0 {
        windowed_hit_rate(r, &range, (start_s, end_s), &reported, (window_s, cl))
    } else {
        Estimate::not_applicable(cl, 0, "no response reported cached prompt tokens (prompt_tokens_details.cached_tokens)")
    };
    Some(CacheState {
        hit_rate,
        prompt_tokens: prompt as u64,
        cached_tokens: cached as u64,
        run_prompt_tokens: run_prompt as u64,
        run_cached_tokens: run_cached as u64,
        server,
        turns: turns(r, &range, median),
    })
}

/// Cached over prompt tokens as a ratio of per-window sums; with fewer than 8 windows, the
/// ratio alone (insufficient data for an interval).
fn windowed_hit_rate(
    r: &RequestView,
    range: &std::ops::Range<usize>,
    (start_s, end_s): (f64, f64),
    reported: &dyn Fn(usize) -> bool,
    (window_s, cl): (f64, f64),
) -> Estimate {
    let k = ((end_s - start_s) / window_s).floor().max(0.0) as usize;
    let (mut hit, mut all) = (vec![0.0; k.max(1)], vec![0.0; k.max(1)]);
    for i in range.clone().filter(|&i| reported(i)) {
        let w = (((r.sent_s[i] - start_s) / window_s).floor().max(0.0) as usize).min(k.max(1) - 1);
        all[w] += f64::from(r.input_tokens[i]);
        hit[w] += f64::from(r.cached_tokens[i]);
    }
    let (total, hits) = (all.iter().sum::<f64>(), hit.iter().sum::<f64>());
    let share = hits / total;
    let n = range.clone().filter(|&i| reported(i)).count() as u64;
    if k < 8 {
        return Estimate::insufficient(share, None, None, cl, Method::None, n, "fewer than 8 windows in the steady window: no interval for the hit rate");
    }
    let z: Vec<f64> = hit.iter().zip(&all).map(|(h, a)| h - share * a).collect();
    let se = (long_run_variance(&z).unwrap_or(0.0) / k as f64).sqrt() / (total / k as f64);
    let q = Normal::standard().inverse_cdf(0.5 + cl / 2.0);
    Estimate::two_sided(share, ((share - q * se).max(0.0), (share + q * se).min(1.0)), cl, Method::HacRatio, n)
}

/// The server's prefix-cache counters over the run: the sum of their increments (a restart's
/// reset counts as none).
fn server_cache(server: &ServerSeries) -> Option<ServerCache> {
    let (Some((qname, q)), Some((hname, h))) = (server_metric(server, QUERIES), server_metric(server, HITS)) else {
        return sglang_cache(server);
    };
    let sum = |s: &[(f64, f64)]| increments(&s.iter().map(|x| x.1).collect::<Vec<_>>()).iter().sum::<f64>();
    let (queries, hits) = (sum(q), sum(h));
    Some(ServerCache {
        queries_metric: qname.into(),
        hits_metric: hname.into(),
        queries: Some(queries),
        hits: Some(hits),
        hit_rate: (queries > 0.0).then(|| hits / queries),
    })
}

/// SGLang exports no counters, only the hit rate of its recent batches (0–1): its mean over
/// the scrapes, an approximation (each scrape weighs alike, however busy the server was).
fn sglang_cache(server: &ServerSeries) -> Option<ServerCache> {
    let (name, g) = server_metric(server, &["sglang:cache_hit_rate"])?;
    let v: Vec<f64> = g.iter().map(|x| x.1).filter(|x| x.is_finite()).collect();
    let mean = (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    Some(ServerCache { queries_metric: name.into(), hits_metric: name.into(), queries: None, hits: None, hit_rate: mean })
}

/// The median of a column over the steady window's requests a predicate selects, with its
/// interval (`name` seeds the resampling): the analysis's own method for a subset.
pub type SubsetMedian<'a> = &'a dyn Fn(&[f64], &dyn Fn(usize) -> bool, &str) -> Estimate;

/// Each turn's median TTFT and hit rate; the last row pools the turns from `MAX_TURN_ROWS` on.
fn turns(r: &RequestView, range: &std::ops::Range<usize>, median: SubsetMedian<'_>) -> Vec<TurnTtft> {
    if r.turn.is_empty() {
        return Vec::new();
    }
    let row = |i: usize| r.turn[i].min(MAX_TURN_ROWS);
    let counted = |i: usize| r.turn[i] > 0 && r.ok[i] && r.ttft_ms[i].is_finite();
    let mut by_turn: std::collections::BTreeMap<u32, (u64, f64, f64)> = std::collections::BTreeMap::new();
    for i in range.clone().filter(|&i| counted(i)) {
        let e = by_turn.entry(row(i)).or_default();
        e.0 += 1;
        if let Some(c) = r.cached_tokens.get(i).filter(|c| c.is_finite() && r.input_tokens[i].is_finite()) {
            e.1 += f64::from(*c);
            e.2 += f64::from(r.input_tokens[i]);
        }
    }
    by_turn
        .into_iter()
        .map(|(turn, (requests, cached, prompt))| {
            let ttft_p50 = median(&r.ttft_ms, &|i| counted(i) && row(i) == turn, &format!("ttft_turn_{turn}"));
            TurnTtft { turn, requests, ttft_p50, hit_rate: (prompt > 0.0).then(|| cached / prompt) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_counters_count_increments_and_sglang_gives_its_gauge() {
        let vllm = ServerSeries::from([
            ("vllm:prefix_cache_queries_total".to_string(), vec![(0.0, 100.0), (1.0, 300.0), (2.0, 0.0), (3.0, 200.0)]),
            ("vllm:prefix_cache_hits_total".to_string(), vec![(0.0, 0.0), (1.0, 100.0), (2.0, 0.0), (3.0, 50.0)]),
        ]);
        // A restart's reset (300 → 0) counts as none: 200 + 200 queried, 100 + 50 hit.
        let c = server_cache(&vllm).unwrap();
        assert_eq!((c.queries, c.hits, c.hit_rate), (Some(400.0), Some(150.0), Some(0.375)));
        let sglang = ServerSeries::from([("sglang:cache_hit_rate".to_string(), vec![(0.0, 0.2), (1.0, 0.4)])]);
        let c = server_cache(&sglang).unwrap();
        assert_eq!((c.queries, c.hit_rate.map(|h| (h * 1e9).round() / 1e9)), (None, Some(0.3)));
        assert!(server_cache(&ServerSeries::new()).is_none());
    }
}
