//! PELT changepoint detection (Killick et al. 2012) with the normal mean-and-variance cost, as
//! in R `changepoint::cpt.meanvar(method = "PELT")`.
//!
//! Segment cost (twice the negative log-likelihood): `n·(ln 2π + ln σ̂² + 1)` with
//! `σ̂² = (Σy² − (Σy)²/n)/n` floored. The MBIC penalty adds `ln(len)` to every segment's cost and
//! uses `pen = 4·ln n`; Barrett et al.'s conservative manual penalty is `15·ln n` without the
//! per-segment term.

/// Penalty choice.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Penalty {
    /// Modified BIC (R's default): `4 ln n` plus `ln(len)` per segment.
    Mbic,
    /// Barrett et al.'s `15 ln n`.
    Conservative,
    /// A fixed value, no per-segment term.
    Manual(f64),
}

impl Penalty {
    /// The per-changepoint penalty for a series of length n.
    pub fn value(self, n: usize) -> f64 {
        let ln_n = (n as f64).ln();
        match self {
            Penalty::Mbic => 4.0 * ln_n,
            Penalty::Conservative => 15.0 * ln_n,
            Penalty::Manual(v) => v,
        }
    }

    fn per_segment_log_length(self) -> bool {
        matches!(self, Penalty::Mbic)
    }
}

/// R changepoint's variance floor.
pub const R_VARIANCE_FLOOR: f64 = 1e-11;

/// Prefix sums for O(1) segment costs.
struct Sums {
    s1: Vec<f64>,
    s2: Vec<f64>,
}

impl Sums {
    fn new(y: &[f64]) -> Sums {
        let mut s1 = vec![0.0; y.len() + 1];
        let mut s2 = vec![0.0; y.len() + 1];
        for (i, v) in y.iter().enumerate() {
            s1[i + 1] = s1[i] + v;
            s2[i + 1] = s2[i] + v * v;
        }
        Sums { s1, s2 }
    }
}

/// The normal mean+variance cost of `n` values with sum `x` and sum of squares `x2`.
pub fn meanvar_cost(n: f64, x: f64, x2: f64, floor: f64) -> f64 {
    let var = ((x2 - x * x / n) / n).max(floor);
    n * ((2.0 * std::f64::consts::PI).ln() + var.ln() + 1.0)
}

/// Changepoints of `y` (segment end indices, exclusive, the last being `y.len()`), with
/// segments at least `min_len` long. `variance_floor` guards constant segments.
pub fn pelt(y: &[f64], penalty: Penalty, min_len: usize, variance_floor: f64) -> Vec<usize> {
    let n = y.len();
    let min_len = min_len.max(1);
    if n < 2 * min_len {
        return vec![n];
    }
    let sums = Sums::new(y);
    let pen = penalty.value(n);
    // ln(len) of every segment length, looked up: a logarithm per candidate per step is half of
    // PELT's time otherwise (the same values, so the same changepoints).
    let log_len: Vec<f64> = if penalty.per_segment_log_length() { (0..=n).map(|len| (len as f64).ln()).collect() } else { Vec::new() };
    let cost = |a: usize, b: usize| {
        let len = (b - a) as f64;
        let c = meanvar_cost(len, sums.s1[b] - sums.s1[a], sums.s2[b] - sums.s2[a], variance_floor);
        if log_len.is_empty() { c } else { c + log_len[b - a] }
    };
    let mut f = vec![f64::INFINITY; n + 1];
    let mut last = vec![0usize; n + 1];
    f[0] = -pen;
    let mut candidates: Vec<usize> = vec![0];
    // Reused across steps (the candidate set rarely grows past a few dozen).
    let (mut totals, mut kept) = (Vec::new(), Vec::new());
    for t in min_len..=n {
        let mut best = f64::INFINITY;
        let mut arg = 0;
        totals.clear();
        for &tau in &candidates {
            if t - tau < min_len {
                totals.push(None);
                continue;
            }
            let v = f[tau] + cost(tau, t) + pen;
            totals.push(Some(v));
            if v < best {
                best = v;
                arg = tau;
            }
        }
        f[t] = best;
        last[t] = arg;
        // Prune candidates that can never be optimal again (K = 0).
        kept.clear();
        for (&tau, total) in candidates.iter().zip(&totals) {
            match total {
                Some(v) if *v - pen > best => {}
                _ => kept.push(tau),
            }
        }
        if t + min_len <= n {
            kept.push(t);
        }
        std::mem::swap(&mut candidates, &mut kept);
    }
    let mut cps = vec![n];
    let mut t = n;
    while last[t] > 0 {
        t = last[t];
        cps.push(t);
    }
    cps.reverse();
    cps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_and_penalty_arithmetic() {
        // Two values 1 and 3: σ̂² = 1, cost = 2(ln 2π + 0 + 1).
        let c = meanvar_cost(2.0, 4.0, 10.0, R_VARIANCE_FLOOR);
        assert!((c - 2.0 * ((2.0 * std::f64::consts::PI).ln() + 1.0)).abs() < 1e-12);
        // A constant segment hits the floor: n(ln 2π + ln 1e-11 + 1).
        let c = meanvar_cost(4.0, 8.0, 16.0, R_VARIANCE_FLOOR);
        assert!((c - 4.0 * ((2.0 * std::f64::consts::PI).ln() + 1e-11f64.ln() + 1.0)).abs() < 1e-9);
        assert!((Penalty::Mbic.value(100) - 4.0 * 100f64.ln()).abs() < 1e-12);
        assert!((Penalty::Conservative.value(100) - 15.0 * 100f64.ln()).abs() < 1e-12);
    }

    /// 50 × 1.0 then 50 × 2.0, with a small deterministic perturbation.
    fn step() -> Vec<f64> {
        (0..100).map(|i| if i < 50 { 1.0 } else { 2.0 } + 0.05 * ((i * 7919 % 13) as f64 / 13.0 - 0.5)).collect()
    }

    #[test]
    fn one_step_one_changepoint() {
        assert_eq!(pelt(&step(), Penalty::Mbic, 2, R_VARIANCE_FLOOR), vec![50, 100]);
        assert_eq!(pelt(&step(), Penalty::Conservative, 5, R_VARIANCE_FLOOR), vec![50, 100]);
    }

    #[test]
    fn variance_change_is_found() {
        // Same mean, variance ×100 after index 60.
        let y: Vec<f64> = (0..120)
            .map(|i| {
                let e = (i * 7919 % 17) as f64 / 17.0 - 0.5;
                if i < 60 { 0.1 * e } else { 10.0 * e }
            })
            .collect();
        let cps = pelt(&y, Penalty::Mbic, 5, R_VARIANCE_FLOOR);
        assert_eq!(cps, vec![60, 120]);
    }

    #[test]
    fn pruning_does_not_change_the_optimum() {
        // Brute-force optimal partitioning (no pruning) on a short series.
        let y: Vec<f64> = (0..40)
            .map(|i| {
                ((i * 31 % 11) as f64)
                    * if i < 15 {
                        1.0
                    } else if i < 28 {
                        3.0
                    } else {
                        0.5
                    }
            })
            .collect();
        let pen = Penalty::Mbic;
        let sums = Sums::new(&y);
        let cost = |a: usize, b: usize| {
            let l = (b - a) as f64;
            meanvar_cost(l, sums.s1[b] - sums.s1[a], sums.s2[b] - sums.s2[a], R_VARIANCE_FLOOR) + l.ln()
        };
        let n = y.len();
        let mut f = vec![f64::INFINITY; n + 1];
        let mut last = vec![0; n + 1];
        f[0] = -pen.value(n);
        for t in 3..=n {
            for tau in 0..=t - 3 {
                if tau != 0 && tau < 3 {
                    continue;
                }
                let v = f[tau] + cost(tau, t) + pen.value(n);
                if v < f[t] {
                    f[t] = v;
                    last[t] = tau;
                }
            }
        }
        let mut cps = vec![n];
        let mut t = n;
        while last[t] > 0 {
            t = last[t];
            cps.push(t);
        }
        cps.reverse();
        assert_eq!(pelt(&y, pen, 3, R_VARIANCE_FLOOR), cps);
    }
}
