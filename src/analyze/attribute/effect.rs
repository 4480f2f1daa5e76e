//! What an episode did to a metric (inside versus outside, with an interval) and how closely
//! the cause signal tracks the metric (lagged correlation).

use rand::Rng;
use serde::Serialize;

use super::episodes::Span;
use crate::analyze::requests::RequestView;
use crate::stats::quantile::quantile_unsorted;
use crate::stats::resample::{resample_rng, stat_id};

/// Resamples for an effect interval: effects are secondary evidence, and 999 keeps the 95 %
/// percentile interval's Monte-Carlo error well under its width.
pub const EFFECT_RESAMPLES: usize = 999;
/// Requests an effect reads at most (a systematic sample beyond).
const MAX_REQUESTS: usize = 200_000;
/// Fewest 5-second groups on each side for an interval.
const MIN_GROUPS: usize = 3;

/// A metric inside the cause's episodes compared with the rest of the measured run.
#[derive(Debug, Clone, Serialize)]
pub struct Effect {
    /// e.g. `tpot_p50`, `service_p50`, `error_rate`.
    pub metric: String,
    pub unit: &'static str,
    pub inside: f64,
    pub outside: f64,
    /// `relative` (inside/outside − 1) or `absolute` (inside − outside, for shares).
    pub kind: &'static str,
    pub change: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    pub confidence: f64,
    pub method: &'static str,
    pub seed: u64,
    pub resamples: usize,
    pub n_inside: usize,
    pub n_outside: usize,
    pub note: Option<String>,
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

    fn values<'a>(&self, r: &'a RequestView) -> Option<&'a [f64]> {
        match self {
            EffectMetric::Quantile { name: "ttft", .. } => Some(&r.ttft_ms),
            EffectMetric::Quantile { name: "tpot", .. } => Some(&r.tpot_ms),
            EffectMetric::Quantile { name: "e2e", .. } => Some(&r.e2e_ms),
            EffectMetric::Quantile { name: "service", .. } => Some(&r.service_ms),
            _ => None,
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

fn statistic(r: &RequestView, m: EffectMetric, groups: &[&Vec<usize>]) -> f64 {
    match m {
        EffectMetric::Quantile { p, .. } => {
            let col = m.values(r).unwrap_or(&r.e2e_ms);
            let v: Vec<f64> = groups.iter().flat_map(|g| g.iter().map(|&i| col[i])).filter(|x| x.is_finite()).collect();
            quantile_unsorted(&v, p).unwrap_or(f64::NAN)
        }
        EffectMetric::ErrorRate => {
            let (n, e) = groups.iter().flat_map(|g| g.iter()).fold((0usize, 0usize), |(n, e), &i| (n + 1, e + usize::from(!r.ok[i])));
            if n == 0 { f64::NAN } else { e as f64 / n as f64 }
        }
    }
}

fn all(v: &[Vec<usize>]) -> Vec<&Vec<usize>> {
    v.iter().collect()
}

fn draw<'v>(v: &'v [Vec<usize>], rng: &mut impl Rng) -> Vec<&'v Vec<usize>> {
    (0..v.len()).map(|_| &v[rng.random_range(0..v.len())]).collect()
}

/// The metric inside `spans` versus outside them, between `from` and `to`. The interval comes
/// from a cluster bootstrap that resamples 5-second groups of requests on each side, so that
/// the dependence between neighbouring requests is kept.
pub fn effect(r: &RequestView, m: EffectMetric, spans: &[Span], from: f64, to: f64, seed: u64) -> Option<Effect> {
    let (inside, outside) = grouped(r, spans, from, to, crate::analyze::GROUP_MIN_S);
    let (a, b) = (statistic(r, m, &all(&inside)), statistic(r, m, &all(&outside)));
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
    };
    if r.len() > MAX_REQUESTS {
        e.note = Some(format!("computed on a systematic sample of 1 in {} requests", r.len().div_ceil(MAX_REQUESTS)));
    }
    if inside.len() < MIN_GROUPS || outside.len() < MIN_GROUPS {
        e.note = Some(format!("only {} and {} five-second groups inside and outside: no interval", inside.len(), outside.len()));
        return Some(e);
    }
    let id = stat_id(&format!("effect{}{from}", m.key()));
    let mut reps: Vec<f64> = (0..EFFECT_RESAMPLES)
        .map(|k| {
            let mut rng = resample_rng(seed, id, k as u64);
            let x = draw(&inside, &mut rng);
            let y = draw(&outside, &mut rng);
            change(statistic(r, m, &x), statistic(r, m, &y))
        })
        .filter(|x| x.is_finite())
        .collect();
    reps.sort_by(f64::total_cmp);
    e.ci_low = crate::stats::quantile::quantile_sorted(&reps, 0.025);
    e.ci_high = crate::stats::quantile::quantile_sorted(&reps, 0.975);
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
    fn correlation_finds_the_lag() {
        let signal: Vec<f64> = (0..40).map(|i| if (10..20).contains(&i) { 1.0 } else { 0.0 }).collect();
        let metric: Vec<f64> = (0..40).map(|i| if (12..22).contains(&i) { 5.0 } else { 1.0 }).collect();
        let (r, lag) = lagged_correlation(&signal, &metric, 3).unwrap();
        assert_eq!(lag, 2);
        assert!((r - 1.0).abs() < 1e-9);
        assert!(pearson(&[1.0; 10], &[2.0; 10]).is_none(), "a constant series has no correlation");
    }
}
