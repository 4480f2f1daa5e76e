//! MSER-5 truncation (White 1997; batches of 5, Spratt 1998).
//!
//! Batch means `Z_j` of 5 observations (remainder dropped), `k` batches;
//! `MSER(d) = Σ_{j>d} (Z_j − Z̄_d)² / (k − d)²` for `0 ≤ d < k/2`; truncate `5·d*` observations
//! where `d*` minimises it. This variant divides by `(k − d)²` and searches the first half; a
//! minimum at the last allowed `d` means the series did not settle. Linear in `k`.

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Mser {
    /// Observations to drop from the start.
    pub truncate: usize,
    /// True when the minimum sits at the end of the search range (no steady state found).
    pub at_boundary: bool,
}

pub fn mser5(x: &[f64]) -> Option<Mser> {
    const BATCH: usize = 5;
    let k = x.len() / BATCH;
    if k < 4 {
        return None;
    }
    let z: Vec<f64> = (0..k).map(|j| x[j * BATCH..(j + 1) * BATCH].iter().sum::<f64>() / BATCH as f64).collect();
    let limit = k.div_ceil(2);
    // The spread of every tail z[d..], accumulated from the end (Welford), so the search is
    // linear in the batches: a day-long run has tens of thousands of them.
    let mut ss_tail = vec![0.0; k];
    let (mut mean, mut m2) = (0.0, 0.0);
    for d in (0..k).rev() {
        let delta = z[d] - mean;
        mean += delta / (k - d) as f64;
        m2 += delta * (z[d] - mean);
        ss_tail[d] = m2;
    }
    let mut best = (f64::INFINITY, 0usize);
    for (d, ss) in ss_tail.iter().enumerate().take(limit) {
        let stat = ss / ((k - d) as f64).powi(2);
        if stat < best.0 {
            best = (stat, d);
        }
    }
    Some(Mser { truncate: best.1 * BATCH, at_boundary: best.1 + 1 >= limit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncates_an_initial_transient() {
        // 30 high values then 170 values around 1: MSER-5 drops the first 30.
        let x: Vec<f64> = (0..200).map(|i| if i < 30 { 5.0 } else { 1.0 + 0.1 * ((i * 13 % 7) as f64 - 3.0) }).collect();
        let m = mser5(&x).unwrap();
        assert_eq!(m.truncate, 30);
        assert!(!m.at_boundary);
    }

    #[test]
    fn hand_computed_small_case() {
        // Batches: [10, 2, 2, 2] → d = 1 leaves zero spread.
        let x = [10.0; 5].iter().chain([2.0; 15].iter()).copied().collect::<Vec<_>>();
        assert_eq!(mser5(&x).unwrap().truncate, 5);
        assert!(mser5(&[1.0; 10]).is_none());
    }
}
