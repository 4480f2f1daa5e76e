//! What an episode did to a metric (inside versus outside, with an interval) and how closely
//! the cause signal tracks the metric (lagged correlation).

use rand::Rng;
use serde::{Deserialize, Serialize};
use credence_messages::{Lang, Message};

use super::episodes::Span;
use crate::requests::RequestView;
use credence_stats::resample::{resample_rng, stat_id};

/// Resamples for an effect interval: effects are secondary evidence, and 999 keeps the 95 %
/// percentile interval's Monte-Carlo error well under its width.
pub const EFFECT_RESAMPLES: usize = 999;
/// Requests an effect reads at most (a systematic sample beyond).
const MAX_REQUESTS: usize = 200_000;
/// Fewest 5-second groups on each side for an interval.
const MIN_GROUPS: usize = 3;

/// A metric inside the cause's episodes compared with the rest of the measured run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Effect {
    /// e.g. `tpot_p50`, `service_p50`, `error_rate`.
    pub metric: String,
    #[serde(deserialize_with = "crate::saved::leak_str")]
    pub unit: crate::saved::StaticText,
    pub inside: f64,
    pub outside: f64,
    /// `relative` (inside/outside − 1) or `absolute` (inside − outside, for shares).
    #[serde(deserialize_with = "crate::saved::leak_str")]
    pub kind: crate::saved::StaticText,
    pub change: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub confidence: f64,
    #[serde(deserialize_with = "crate::saved::leak_str")]
    pub method: crate::saved::StaticText,
    pub seed: u64,
    pub resamples: usize,
    pub n_inside: usize,
    pub n_outside: usize,
    /// `note_message` in English.
    pub note: Option<String>,
    /// The note as data: every language renders it (absent in an analysis saved before it was
    /// a message, which has `note` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_message: Option<Message>,
}

/// Why the effect's interval is qualified or missing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EffectNote {
    /// Computed on a systematic sample of 1 in this many requests.
    Sampled(usize),
    /// Too few 5-second groups (inside, outside) for an interval.
    FewGroups(usize, usize),
}

impl EffectNote {
    /// The note as a message (`effect-sampled`, `effect-few-groups`).
    pub fn message(self) -> Message {
        match self {
            EffectNote::Sampled(k) => Message::new("effect-sampled").int("every", k),
            EffectNote::FewGroups(i, o) => Message::new("effect-few-groups").int("inside", i).int("outside", o),
        }
    }
}

/// Which request values a statistic reads.
#[derive(Debug, Clone, Copy)]
pub enum EffectMetric {
    Quantile { name: &'static str, p: f64 },
    ErrorRate,
}

impl EffectMetric {
    fn key(&self) -> String {
        match self {
            EffectMetric::Quantile { name, p } => format!("{name}_p{}", (p * 100.0).round()),
            EffectMetric::ErrorRate => "error_rate".into(),
        }
    }

    /// Request `i`'s value of this metric (end-to-end latency for the error rate, which reads
    /// only the counts).
    fn value(&self, r: &RequestView, i: usize) -> f64 {
        match self {
            EffectMetric::Quantile { name: "ttft", .. } => r.ttft_ms[i],
            EffectMetric::Quantile { name: "tpot", .. } => r.tpot_ms[i],
            EffectMetric::Quantile { name: "service", .. } => r.service_ms(i),
            _ => r.e2e_ms[i],
        }
    }
}

/// Requests sent in `[from, to)`, grouped by `group_s` of send time: inside (in any span) or outside.
fn grouped(r: &RequestView, spans: &[Span], from: f64, to: f64, group_s: f64) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
    let k = (((to - from) / group_s).ceil() as usize).max(1);
    let (mut inside, mut outside) = (vec![Vec::new(); k], vec![Vec::new(); k]);
    // Every request up to MAX_REQUESTS; beyond, a systematic 1-in-`stride` sample keeps each
    // resample cheap (the effect is secondary evidence; its note says so).
    let stride = r.len().div_ceil(MAX_REQUESTS).max(1);
    for i in (0..r.len()).step_by(stride) {
        let t = r.sent_s[i];
        if !(t >= from && t < to) {
            continue;
        }
        let g = (((t - from) / group_s) as usize).min(k - 1);
        if spans.iter().any(|s| s.contains(t)) { inside[g].push(i) } else { outside[g].push(i) }
    }
    (inside.into_iter().filter(|g| !g.is_empty()).collect(), outside.into_iter().filter(|g| !g.is_empty()).collect())
}

/// One side of an effect (inside or outside the episodes), reduced to what its statistic
/// reads, so that each of the 999 resamples costs a few searches per group instead of a pass
/// over every request: each group's finite values sorted, and its request and error counts.
struct Side {
    sorted: Vec<Vec<f64>>,
    /// Every group's values together, ascending: the candidates of an order statistic.
    pool: Vec<f64>,
    requests: Vec<usize>,
    errors: Vec<usize>,
}

impl Side {
    fn of(r: &RequestView, m: EffectMetric, groups: &[Vec<usize>]) -> Side {
        let sorted: Vec<Vec<f64>> = groups
            .iter()
            .map(|g| {
                let mut v: Vec<f64> = g.iter().map(|&i| m.value(r, i)).filter(|x| x.is_finite()).collect();
                v.sort_by(f64::total_cmp);
                v
            })
            .collect();
        let mut pool: Vec<f64> = sorted.concat();
        pool.sort_by(f64::total_cmp);
        let requests = groups.iter().map(Vec::len).collect();
        let errors = groups.iter().map(|g| g.iter().filter(|&&i| !r.ok[i]).count()).collect();
        Side { sorted, pool, requests, errors }
    }

    /// The statistic over the groups, group `g` taken `times[g]` times (a resample's draw).
    fn statistic(&self, m: EffectMetric, times: &[u32]) -> f64 {
        match m {
            EffectMetric::Quantile { p, .. } => self.quantile(p, times),
            EffectMetric::ErrorRate => {
                let weighted = |c: &[usize]| c.iter().zip(times).map(|(c, t)| c * *t as usize).sum::<usize>();
                let n = weighted(&self.requests);
                if n == 0 { f64::NAN } else { weighted(&self.errors) as f64 / n as f64 }
            }
        }
    }

    /// Type-7 quantile of the multiset union (as `quantile_unsorted` of the values gathered).
    fn quantile(&self, p: f64, times: &[u32]) -> f64 {
        let n: usize = self.sorted.iter().zip(times).map(|(g, t)| g.len() * *t as usize).sum();
        if n == 0 {
            return f64::NAN;
        }
        let h = (n - 1) as f64 * p;
        let lo = h.floor() as usize;
        let lo_val = self.order_statistic(lo, times);
        let frac = h - lo as f64;
        if frac == 0.0 || lo + 1 >= n {
            return lo_val;
        }
        let hi_val = if self.count_at_most(lo_val, times) > lo + 1 { lo_val } else { self.next_above(lo_val, times) };
        lo_val + frac * (hi_val - lo_val)
    }

    /// How many drawn values are at most `x`.
    fn count_at_most(&self, x: f64, times: &[u32]) -> usize {
        self.sorted.iter().zip(times).filter(|(_, t)| **t > 0).map(|(g, t)| g.partition_point(|v| v.total_cmp(&x).is_le()) * *t as usize).sum()
    }

    /// The `k`-th smallest drawn value (0-based): the least pooled value with more than `k`
    /// drawn values at or below it.
    fn order_statistic(&self, k: usize, times: &[u32]) -> f64 {
        let j = self.pool.partition_point(|&x| self.count_at_most(x, times) <= k);
        self.pool[j.min(self.pool.len() - 1)]
    }

    /// The least drawn value above `x`.
    fn next_above(&self, x: f64, times: &[u32]) -> f64 {
        self.sorted
            .iter()
            .zip(times)
            .filter(|(_, t)| **t > 0)
            .filter_map(|(g, _)| g.get(g.partition_point(|v| v.total_cmp(&x).is_le())).copied())
            .fold(f64::INFINITY, f64::min)
    }
}

/// How often each of `k` groups is drawn in one resample of `k` groups with replacement.
fn draw(k: usize, rng: &mut impl Rng) -> Vec<u32> {
    let mut times = vec![0u32; k];
    for _ in 0..k {
        times[rng.random_range(0..k)] += 1;
    }
    times
}

/// The metric inside `spans` versus outside them, between `from` and `to`. The interval comes
/// from a cluster bootstrap that resamples 5-second groups of requests on each side, so that
/// the dependence between neighbouring requests is kept.
pub fn effect(r: &RequestView, m: EffectMetric, spans: &[Span], from: f64, to: f64, seed: u64) -> Option<Effect> {
    let (inside, outside) = grouped(r, spans, from, to, crate::GROUP_MIN_S);
    let (side_in, side_out) = (Side::of(r, m, &inside), Side::of(r, m, &outside));
    let (a, b) = (side_in.statistic(m, &vec![1; inside.len()]), side_out.statistic(m, &vec![1; outside.len()]));
    if !(a.is_finite() && b.is_finite()) {
        return None;
    }
    let relative = matches!(m, EffectMetric::Quantile { .. }) && b > 0.0;
    let change = |a: f64, b: f64| if relative { a / b - 1.0 } else { a - b };
    let (unit, kind) = match m {
        EffectMetric::ErrorRate => ("share", "absolute"),
        _ if relative => ("ms", "relative"),
        _ => ("ms", "absolute"),
    };
    let n = |v: &Vec<Vec<usize>>| v.iter().map(Vec::len).sum::<usize>();
    let mut e = Effect {
        metric: m.key(),
        unit,
        inside: a,
        outside: b,
        kind,
        change: change(a, b),
        ci_low: None,
        ci_high: None,
        confidence: 0.95,
        method: "cluster_bootstrap_5s_groups",
        seed,
        resamples: EFFECT_RESAMPLES,
        n_inside: n(&inside),
        n_outside: n(&outside),
        note: None,
        note_message: None,
    };
    if r.len() > MAX_REQUESTS {
        e.note_message = Some(EffectNote::Sampled(r.len().div_ceil(MAX_REQUESTS)).message());
        e.note = e.note_message.as_ref().map(|m| m.render(Lang::En));
    }
    if inside.len() < MIN_GROUPS || outside.len() < MIN_GROUPS {
        e.note_message = Some(EffectNote::FewGroups(inside.len(), outside.len()).message());
        e.note = e.note_message.as_ref().map(|m| m.render(Lang::En));
        return Some(e);
    }
    let id = stat_id(&format!("effect{}{from}", m.key()));
    let mut reps: Vec<f64> = (0..EFFECT_RESAMPLES)
        .map(|k| {
            let mut rng = resample_rng(seed, id, k as u64);
            let x = draw(inside.len(), &mut rng);
            let y = draw(outside.len(), &mut rng);
            change(side_in.statistic(m, &x), side_out.statistic(m, &y))
        })
        .filter(|x| x.is_finite())
        .collect();
    reps.sort_by(f64::total_cmp);
    e.ci_low = credence_stats::quantile::quantile_sorted(&reps, 0.025);
    e.ci_high = credence_stats::quantile::quantile_sorted(&reps, 0.975);
    Some(e)
}

/// Pearson correlation of two equally long series, over the pairs where both are finite.
fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = x.iter().zip(y).filter(|(a, b)| a.is_finite() && b.is_finite()).map(|(a, b)| (*a, *b)).collect();
    if pairs.len() < 6 {
        return None;
    }
    let n = pairs.len() as f64;
    let (mx, my) = (pairs.iter().map(|p| p.0).sum::<f64>() / n, pairs.iter().map(|p| p.1).sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in &pairs {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx).powi(2);
        syy += (b - my).powi(2);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// The signal averaged onto the metric's windows (`window_t` are window starts).
pub fn on_windows(t_s: &[f64], values: &[f64], window_t: &[f64], window_s: f64) -> Vec<f64> {
    let mut sum = vec![0.0; window_t.len()];
    let mut count = vec![0usize; window_t.len()];
    for (t, v) in t_s.iter().zip(values) {
        if t.is_finite() && v.is_finite() && *t >= 0.0 {
            let w = (t / window_s) as usize;
            if w < sum.len() {
                sum[w] += v;
                count[w] += 1;
            }
        }
    }
    sum.iter().zip(&count).map(|(s, c)| if *c > 0 { s / *c as f64 } else { f64::NAN }).collect()
}

/// The strongest correlation between signal and metric over lags of up to `max_lag` windows
/// (positive lag: the metric follows the signal). Returns (correlation, lag in windows).
pub fn lagged_correlation(signal: &[f64], metric: &[f64], max_lag: usize) -> Option<(f64, i64)> {
    let n = signal.len().min(metric.len());
    let mut best: Option<(f64, i64)> = None;
    for lag in -(max_lag as i64)..=(max_lag as i64) {
        let (xs, ys): (Vec<f64>, Vec<f64>) = (0..n as i64)
            .filter_map(|i| {
                let j = i + lag;
                (j >= 0 && (j as usize) < n).then(|| (signal[i as usize], metric[j as usize]))
            })
            .unzip();
        if let Some(r) = pearson(&xs, &ys)
            && best.is_none_or(|(b, _)| r.abs() > b.abs())
        {
            best = Some((r, lag));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resampled_quantile_equals_the_quantile_of_the_gathered_values() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        // Groups of uneven size with ties and a few repeated values across groups.
        let sorted: Vec<Vec<f64>> = (0..40)
            .map(|g| {
                let mut v: Vec<f64> = (0..(g % 7) * 3).map(|_| (rng.random_range(0..50) as f64) / 4.0).collect();
                v.sort_by(f64::total_cmp);
                v
            })
            .collect();
        let mut pool = sorted.concat();
        pool.sort_by(f64::total_cmp);
        let side = Side { requests: sorted.iter().map(Vec::len).collect(), errors: vec![0; 40], sorted, pool };
        for _ in 0..200 {
            let times = draw(40, &mut rng);
            let gathered: Vec<f64> = side.sorted.iter().zip(&times).flat_map(|(g, t)| std::iter::repeat_n(g, *t as usize).flatten().copied()).collect();
            for p in [0.0, 0.1, 0.5, 0.9, 0.99, 1.0] {
                let expect = credence_stats::quantile::quantile_unsorted(&gathered, p).unwrap_or(f64::NAN);
                let got = side.quantile(p, &times);
                assert!(got == expect || (got.is_nan() && expect.is_nan()), "p {p}: {got} vs {expect}");
            }
        }
    }

    #[test]
    fn correlation_finds_the_lag() {
        let signal: Vec<f64> = (0..40).map(|i| if (10..20).contains(&i) { 1.0 } else { 0.0 }).collect();
        let metric: Vec<f64> = (0..40).map(|i| if (12..22).contains(&i) { 5.0 } else { 1.0 }).collect();
        let (r, lag) = lagged_correlation(&signal, &metric, 3).unwrap();
        assert_eq!(lag, 2);
        assert!((r - 1.0).abs() < 1e-9);
        assert!(pearson(&[1.0; 10], &[2.0; 10]).is_none(), "a constant series has no correlation");
    }
}
