//! A weighted distribution summarised the way guidellm's `DistributionSummary.from_values`
//! does, so its claims can be recomputed with its own definitions: values sorted and equal
//! ones merged (weights summed), zero weights dropped, weights normalised to probabilities;
//! a percentile is the first value whose cumulative probability reaches p (nearest rank on
//! the cumulative weight), the median is the 50th of those, the mode the most probable value,
//! the variance the population one, and `total_sum` is mean × count. Its confidence intervals
//! (`mean_ci`, `percentile_cis`) are those of `guidellm/utils/statistics.py`: a t interval for
//! the mean, and binomial order-statistic ranks for a percentile, both only for unit weights.

use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, StudentsT};

/// The probability table of `(value, weight)` pairs: sorted values, equal values merged,
/// zero weights dropped; uniform when the weights sum to no more than guidellm's epsilon.
fn probability_table(values: &[f64], weights: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut pairs: Vec<(f64, f64)> = values.iter().copied().zip(weights.iter().copied()).filter(|(v, w)| v.is_finite() && w.is_finite()).collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut merged: Vec<(f64, f64)> = Vec::with_capacity(pairs.len());
    for (v, w) in pairs {
        match merged.last_mut() {
            Some(last) if last.0 == v => last.1 += w,
            _ => merged.push((v, w)),
        }
    }
    merged.retain(|p| p.1 > 0.0);
    let (vals, mut ws): (Vec<f64>, Vec<f64>) = merged.into_iter().unzip();
    let mut total: f64 = ws.iter().sum();
    if total <= 1e-6 {
        ws = vec![1.0; vals.len()];
        total = vals.len() as f64;
    }
    let probs = ws.iter().map(|w| w / total).collect();
    (vals, probs)
}

/// The first value whose cumulative probability is at least `p` (numpy's
/// `searchsorted(cumsum(probs), p, side="left")`).
fn nearest_rank(vals: &[f64], probs: &[f64], p: f64) -> Option<f64> {
    let mut cumulative = 0.0;
    for (v, q) in vals.iter().zip(probs) {
        cumulative += q;
        if cumulative >= p {
            return Some(*v);
        }
    }
    // Rounding can leave the last cumulative probability just under 1: numpy then indexes
    // past the end and fails; the last value is what p ≈ 1 means.
    vals.last().copied()
}

/// The percent `pN_rank` names (`p99.9_rank` → 99.9).
fn rank_percent(stat: &str) -> Option<f64> {
    stat.strip_prefix('p')?.strip_suffix("_rank")?.parse().ok()
}

/// A statistic of the weighted values as guidellm defines it: `mean` (and `value`, the mean of
/// a rate distribution), `median_lower`, `pN_rank`, `mode`, `variance`, `std` (population),
/// `min`, `max`, `count` (`count` when given, else the rounded sum of the weights), `sum`
/// (mean × count), and the confidence bounds `mean_ciC_low|high`, `pN_ciC_low|high` (C the
/// confidence in percent). An empty distribution has only its count (0).
pub fn statistic(values: &[f64], weights: &[f64], count: Option<f64>, stat: &str) -> Option<f64> {
    if values.len() != weights.len() {
        return None;
    }
    let count = count.unwrap_or_else(|| weights.iter().sum::<f64>().round());
    let (vals, probs) = probability_table(values, weights);
    if vals.is_empty() {
        return (stat == "count").then_some(0.0);
    }
    let mean: f64 = vals.iter().zip(&probs).map(|(v, p)| v * p).sum();
    let variance = || vals.iter().zip(&probs).map(|(v, p)| (v - mean).powi(2) * p).sum::<f64>();
    match stat {
        "mean" | "value" => Some(mean),
        "median_lower" => nearest_rank(&vals, &probs, 0.5),
        "mode" => {
            // numpy's argmax: the first (smallest) value among the most probable.
            let best = probs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            vals.iter().zip(&probs).find(|(_, p)| **p == best).map(|(v, _)| *v)
        }
        "variance" => Some(variance()),
        "std" => Some(variance().sqrt()),
        "min" => vals.first().copied(),
        "max" => vals.last().copied(),
        "count" => Some(count),
        "sum" => Some(mean * count),
        s if s.contains("_ci") => interval_bound(values, weights, s),
        s => rank_percent(s).and_then(|q| nearest_rank(&vals, &probs, q / 100.0)),
    }
}

/// A bound of guidellm's confidence intervals, named `mean_ci95_low`, `p50_ci95_high`, …;
/// None where guidellm reports none (weights other than one, fewer than two values, or too
/// few values to place two order statistics around the percentile).
fn interval_bound(values: &[f64], weights: &[f64], stat: &str) -> Option<f64> {
    let (head, side) = stat.rsplit_once('_')?;
    let (what, confidence) = head.split_once("_ci")?;
    let confidence = (confidence.parse::<f64>().ok()? / 100.0).clamp(0.5, 0.999);
    if values.len() < 2 || weights.iter().any(|w| *w != 1.0) {
        return None;
    }
    let (low, high) = if what == "mean" {
        mean_interval(values, confidence)?
    } else {
        let quantile = what.strip_prefix('p')?.parse::<f64>().ok()? / 100.0;
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        quantile_interval(&sorted, quantile, confidence)?
    };
    match side {
        "low" => Some(low),
        "high" => Some(high),
        _ => None,
    }
}

/// guidellm's t interval for the mean: the population SD rescaled to the sample one.
fn mean_interval(values: &[f64], confidence: f64) -> Option<(f64, f64)> {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let std = (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    let t = StudentsT::new(0.0, 1.0, n - 1.0).ok()?.inverse_cdf((1.0 + confidence) / 2.0);
    let half = t * std * (n / (n - 1.0)).sqrt() / n.sqrt();
    Some((mean - half, mean + half))
}

/// guidellm's distribution-free interval for a quantile: the sorted values at the largest rank
/// whose binomial CDF is at most α/2 and the smallest whose CDF is at least 1 − α/2.
fn quantile_interval(sorted: &[f64], quantile: f64, confidence: f64) -> Option<(f64, f64)> {
    if !(0.0 < quantile && quantile < 1.0) {
        return None;
    }
    let trials = sorted.len() as u64;
    let binomial = Binomial::new(quantile, trials).ok()?;
    let cdf = |k: u64| if k >= trials { 1.0 } else { binomial.cdf(k) };
    let tail = (1.0 - confidence) / 2.0;
    let lower = (0..trials).take_while(|&k| cdf(k) <= tail).last()?;
    let upper = (0..trials).find(|&k| cdf(k) >= 1.0 - tail)?;
    Some((sorted[lower as usize], sorted[upper as usize]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guidellm_definitions_on_unit_weights() {
        let v = [4.0, 1.0, 3.0, 2.0, 2.0];
        let w = [1.0; 5];
        let s = |stat: &str| statistic(&v, &w, None, stat);
        assert!((s("mean").unwrap() - 2.4).abs() < 1e-12, "mean of the probabilities times the values");
        assert_eq!(s("median_lower"), Some(2.0), "first value whose cumulative probability reaches 0.5");
        assert_eq!(s("p75_rank"), Some(3.0));
        assert_eq!(s("p0.1_rank"), Some(1.0));
        assert_eq!(s("mode"), Some(2.0), "2 appears twice");
        assert!((s("variance").unwrap() - 1.04).abs() < 1e-12, "population variance");
        assert_eq!((s("min"), s("max"), s("count")), (Some(1.0), Some(4.0), Some(5.0)));
        assert!((s("sum").unwrap() - 12.0).abs() < 1e-12);
        // Ties for the mode: the smallest of the most probable values.
        assert_eq!(statistic(&[3.0, 1.0], &[1.0, 1.0], None, "mode"), Some(1.0));
    }

    #[test]
    fn weights_count_and_empty_distributions() {
        // TPOT-like: 10 ms over 3 tokens, 40 ms over 1 token.
        let (v, w) = ([10.0, 40.0], [3.0, 1.0]);
        assert_eq!(statistic(&v, &w, None, "mean"), Some(17.5));
        assert_eq!(statistic(&v, &w, None, "p75_rank"), Some(10.0));
        assert_eq!(statistic(&v, &w, None, "p76_rank"), Some(40.0));
        assert_eq!(statistic(&v, &w, None, "count"), Some(4.0));
        // A rate distribution: weights are durations, the count is the events.
        assert_eq!(statistic(&[2.0, 4.0], &[0.5, 0.25], Some(2.0), "count"), Some(2.0));
        assert!((statistic(&[2.0, 4.0], &[0.5, 0.25], Some(2.0), "sum").unwrap() - 16.0 / 3.0).abs() < 1e-12);
        // Zero weights are dropped; an empty distribution has only its count.
        assert_eq!(statistic(&[1.0, 9.0], &[1.0, 0.0], None, "max"), Some(1.0));
        assert_eq!(statistic(&[], &[], None, "count"), Some(0.0));
        assert_eq!(statistic(&[], &[], None, "mean"), None);
    }

    #[test]
    fn confidence_intervals_as_guidellm_computes_them() {
        // mean 3, population SD √2, n = 5: t(0.975, 4) = 2.7764451; half = t·√2.5/√5.
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        let w = [1.0; 5];
        let low = statistic(&v, &w, None, "mean_ci95_low").unwrap();
        assert!((low - (3.0 - 2.776_445_105 * (2.5f64).sqrt() / 5f64.sqrt())).abs() < 1e-6, "{low}");
        // 40 values 1..=40, p50 at 95 %: ranks 13 and 26 (0-based), guidellm's fixture value.
        let v: Vec<f64> = (1..=40).map(f64::from).collect();
        let w = vec![1.0; 40];
        assert_eq!(statistic(&v, &w, None, "p50_ci95_low"), Some(14.0));
        assert_eq!(statistic(&v, &w, None, "p50_ci95_high"), Some(27.0));
        // Too few values for a two-sided p99 interval, and none for weighted values.
        assert_eq!(statistic(&v, &w, None, "p99_ci95_high"), None);
        assert_eq!(statistic(&[1.0, 2.0], &[2.0, 1.0], None, "mean_ci95_low"), None);
    }
}
