//! Whether the prompts were as long as the load generator meant: each successful request's
//! prompt tokens as the server counted them (`usage`) against the length `bench` built
//! (`intended_input_tokens`). With `--tokenizer` the two agree unless the server's tokenizer,
//! its chat template or a proxy changed the prompt; without one the lengths are words and only
//! approximate, and the comparison says by how much.

use serde::{Deserialize, Serialize};

use crate::requests::RequestView;
use credence_stats::quantile::quantile_in_place;

/// A median relative difference beyond this is a mismatch: the workload was not what was asked.
pub const TOLERANCE: f64 = 0.01;

/// The server's prompt counts against the built lengths, over the run's successful requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptLengths {
    /// Built in tokens with a tokenizer (`config.extra.prompt_lengths` = exact), else in words.
    pub exact: bool,
    /// Successful requests with both counts.
    pub requests: u64,
    /// Median built length.
    pub intended_median: f64,
    /// Median of the server's counts.
    pub server_median: f64,
    /// Median of server − built, in tokens (a constant difference is a chat template or a BOS).
    pub difference_median: f64,
    /// Median of (server − built) / built.
    pub relative_difference_median: f64,
    /// Share of requests whose counts differ by more than `TOLERANCE`.
    pub share_beyond_tolerance: f64,
    /// Share of requests the server counted exactly as built.
    pub share_equal: f64,
}

impl PromptLengths {
    /// Exact lengths that the server did not count as built.
    pub fn mismatch(&self) -> bool {
        self.exact && self.relative_difference_median.abs() > TOLERANCE
    }
}

fn median_of(mut v: Vec<f64>) -> f64 {
    quantile_in_place(&mut v, 0.5).unwrap_or(f64::NAN)
}

/// The comparison, where the run records built lengths and the server's counts.
pub fn compare(r: &RequestView, exact: bool) -> Option<PromptLengths> {
    if r.intended_input_tokens.is_empty() {
        return None;
    }
    let pairs: Vec<(f64, f64)> = (0..r.len())
        .filter(|&i| r.ok[i])
        .map(|i| (f64::from(r.intended_input_tokens[i]), f64::from(r.input_tokens[i])))
        .filter(|(a, b)| a.is_finite() && b.is_finite() && *a > 0.0)
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let relative: Vec<f64> = pairs.iter().map(|(a, b)| (b - a) / a).collect();
    Some(PromptLengths {
        exact,
        requests: pairs.len() as u64,
        intended_median: median_of(pairs.iter().map(|p| p.0).collect()),
        server_median: median_of(pairs.iter().map(|p| p.1).collect()),
        difference_median: median_of(pairs.iter().map(|(a, b)| b - a).collect()),
        relative_difference_median: median_of(relative.clone()),
        share_beyond_tolerance: relative.iter().filter(|d| d.abs() > TOLERANCE).count() as f64 / pairs.len() as f64,
        share_equal: pairs.iter().filter(|(a, b)| a == b).count() as f64 / pairs.len() as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(pairs: &[(f32, f32)]) -> RequestView {
        RequestView {
            ok: vec![true; pairs.len()],
            sent_s: vec![0.0; pairs.len()],
            intended_input_tokens: pairs.iter().map(|p| p.0).collect(),
            input_tokens: pairs.iter().map(|p| p.1).collect(),
            ..RequestView::default()
        }
    }

    #[test]
    fn exact_lengths_agree_or_are_a_mismatch() {
        let same = compare(&view(&[(100.0, 100.0), (200.0, 200.0), (300.0, 300.0)]), true).unwrap();
        assert!(!same.mismatch());
        assert_eq!((same.requests, same.share_beyond_tolerance, same.difference_median, same.share_equal), (3, 0.0, 0.0, 1.0));
        // A chat template's 12 tokens on prompts of about 100: a constant the median shows.
        let templated = compare(&view(&[(100.0, 112.0), (90.0, 102.0), (110.0, 122.0), (100.0, f32::NAN)]), true).unwrap();
        assert!(templated.mismatch());
        assert_eq!((templated.requests, templated.difference_median, templated.share_equal), (3, 12.0, 0.0));
        // Words are approximate: a difference is reported, never a mismatch.
        assert!(!compare(&view(&[(100.0, 130.0)]), false).unwrap().mismatch());
        assert_eq!(compare(&RequestView::default(), true), None);
    }
}
