//! Where a warmup ends, at detection-window resolution.
//!
//! PELT tells whether a run starts with a warmup and roughly where it ends, but on windows
//! merged for independence (×4 or ×8 of them). A boundary on that grid moves by whole steps
//! when the merge factor or the optimal split changes, and both change with anything that
//! changes the series elsewhere: cutting out an episode a minute later moved the end of a slow
//! exponential warmup (no edge to find) by 8–24 s. The end is therefore placed again by a fit
//! that is continuous in the data: the final level `L`, plus `h` on a plateau until window `s`,
//! declining linearly from there to meet `L` at window `c`:
//!
//! ```text
//! y[t] = L + h·g(t),   g = 1 for t < s,  (c − t)/(c − s) for s ≤ t < c,  0 from c;   h > 0
//! ```
//!
//! fitted by least squares to the log medians from the fill to the end of the final level, over
//! every `s < c` (running sums make each pair constant time). The windows before `c` are the
//! same in a run with and without a later episode; later windows enter only through `L`, so
//! cutting out an episode after the warmup moves `c` by a fraction of a window instead of a
//! step. A step warmup ends at its edge (`s = c − 1`); a decay fits a decline from its start.

use credence_stats::block_length::long_run_variance;

/// The final level a warmup settles to, on the per-window series it was found in.
pub(super) struct FinalLevel {
    /// Log-scale mean.
    mean: f64,
    /// Long-run variance of one window around it (autocorrelation included).
    long_run_variance: f64,
    /// Windows it was measured on.
    windows: usize,
}

impl FinalLevel {
    /// The level of `y` (log medians per window); its noise from its first `max_windows`.
    pub fn of(y: &[f64], max_windows: usize) -> Option<FinalLevel> {
        let mean = y.iter().sum::<f64>() / y.len() as f64;
        let head = &y[..y.len().min(max_windows)];
        let head_mean = head.iter().sum::<f64>() / head.len() as f64;
        let resid: Vec<f64> = head.iter().map(|v| v - head_mean).collect();
        Some(FinalLevel { mean, long_run_variance: long_run_variance(&resid)?, windows: y.len() })
    }

    /// Whether windows `w` are no slower than the level by more than the margin `tol` plus
    /// twice the error of the difference (Barrett's rule, as PELT's segments are judged).
    pub fn reached_by(&self, w: &[f64], tol: f64) -> bool {
        if w.is_empty() {
            return true;
        }
        let lrv = self.long_run_variance;
        let excess = w.iter().sum::<f64>() / w.len() as f64 - self.mean;
        excess <= tol + 2.0 * (lrv / w.len() as f64 + lrv / self.windows as f64).sqrt()
    }
}

/// Running sums over `t < k` of 1, t, t², y and t·y, for sums over any range `[a, b)` of
/// windows.
struct Prefix {
    sums: Vec<[f64; 5]>,
}

impl Prefix {
    fn new(y: &[f64]) -> Prefix {
        let mut sums = Vec::with_capacity(y.len() + 1);
        let mut acc = [0.0; 5];
        sums.push(acc);
        for (t, &v) in y.iter().enumerate() {
            let t = t as f64;
            acc = [acc[0] + 1.0, acc[1] + t, acc[2] + t * t, acc[3] + v, acc[4] + t * v];
            sums.push(acc);
        }
        Prefix { sums }
    }

    fn range(&self, a: usize, b: usize) -> [f64; 5] {
        let (x, y) = (&self.sums[a], &self.sums[b]);
        std::array::from_fn(|k| y[k] - x[k])
    }
}

/// The shape `g` (1 on the plateau, falling linearly to 0 at `c`) summed over the fit: Σg, Σg²
/// and Σg·y, for a plateau `[0, s)` and a decline `[s, c)`.
fn shape_sums(p: &Prefix, s: usize, c: usize) -> (f64, f64, f64) {
    let [n0, _, _, y0, _] = p.range(0, s);
    let [n1, t1, tt1, y1, ty1] = p.range(s, c);
    let (cf, w) = (c as f64, (c - s) as f64);
    // On the decline g = (c − t) / w.
    let sx = (cf * n1 - t1) / w;
    let sxx = (cf * cf * n1 - 2.0 * cf * t1 + tt1) / (w * w);
    let sxy = (cf * y1 - ty1) / w;
    (n0 + sx, n0 + sxx, y0 + sxy)
}

/// The end `c` of the least-squares warmup shape over `y[from..]` (see the module comment),
/// searched in `from + 1 ..= c_max`; None when no slower start fits or `y` is too short. On
/// long ranges the plateau's end and `c` are searched on a stride (at most ~2000 values each).
pub(super) fn warmup_shape_end(y: &[f64], from: usize, c_max: usize) -> Option<usize> {
    let y = y.get(from..).filter(|y| y.len() >= 10)?;
    let c_max = c_max.saturating_sub(from).min(y.len());
    let stride = c_max.div_ceil(2000).max(1);
    let p = Prefix::new(&y[..c_max]);
    let (n, sum_y) = (y.len() as f64, y.iter().sum::<f64>());
    let mut best: Option<(f64, usize)> = None;
    for c in (1..=c_max).step_by(stride) {
        for s in (0..c).step_by(stride) {
            let (sx, sxx, sxy) = shape_sums(&p, s, c);
            // Centred cross products; the residual sum of squares falls by cov² / var.
            let (cov, var) = (sxy - sx * sum_y / n, sxx - sx * sx / n);
            if var > 1e-12 && cov > 0.0 && best.is_none_or(|(g, _)| cov * cov / var > g) {
                best = Some((cov * cov / var, c));
            }
        }
    }
    best.map(|(_, c)| from + c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the residual sum of squares of the shape with plateau end `s` and end `c`,
    /// by ordinary least squares on its regressor.
    fn rss(y: &[f64], s: usize, c: usize) -> f64 {
        let g: Vec<f64> = (0..y.len())
            .map(|t| {
                if t < s {
                    1.0
                } else if t < c {
                    (c - t) as f64 / (c - s) as f64
                } else {
                    0.0
                }
            })
            .collect();
        let n = y.len() as f64;
        let (mg, my) = (g.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
        let sgy: f64 = g.iter().zip(y).map(|(a, b)| (a - mg) * (b - my)).sum();
        let sgg: f64 = g.iter().map(|a| (a - mg).powi(2)).sum();
        if sgy <= 0.0 {
            return f64::INFINITY;
        }
        let h = sgy / sgg;
        g.iter().zip(y).map(|(gi, yi)| (yi - my - h * (gi - mg)).powi(2)).sum()
    }

    fn brute_end(y: &[f64], c_max: usize) -> usize {
        let pairs = (1..=c_max).flat_map(|c| (0..c).map(move |s| (s, c)));
        pairs.min_by(|&(s1, c1), &(s2, c2)| rss(y, s1, c1).total_cmp(&rss(y, s2, c2))).unwrap().1
    }

    /// Deterministic noise of ±0.06.
    fn noise(t: usize) -> f64 {
        (((t * 7919) % 13) as f64 - 6.0) * 0.01
    }

    #[test]
    fn the_running_sums_find_the_least_squares_shape() {
        // A noisy plateau to 10, a decline to 0 at 25, then flat.
        let y: Vec<f64> = (0..120).map(|t| 0.6 * ((25.0 - t as f64) / 15.0).clamp(0.0, 1.0) + noise(t)).collect();
        let brute = brute_end(&y, 60);
        assert_eq!(warmup_shape_end(&y, 0, 60), Some(brute));
        assert!((24..=26).contains(&brute), "{brute}");
        assert_eq!(warmup_shape_end(&y, 5, 60), Some(5 + brute_end(&y[5..], 55)), "from a later start");
    }

    #[test]
    fn a_step_ends_at_its_edge_and_a_faster_start_is_no_warmup() {
        let step: Vec<f64> = (0..200).map(|t| if t < 30 { 0.5 } else { 0.0 }).collect();
        assert_eq!(warmup_shape_end(&step, 0, 150), Some(30));
        let rising: Vec<f64> = step.iter().map(|v| -v).collect();
        assert_eq!(warmup_shape_end(&rising, 0, 150), None);
        assert_eq!(warmup_shape_end(&step[..9], 0, 9), None, "too short");
        assert_eq!(warmup_shape_end(&step, 0, 0), None, "no end to search");
    }

    #[test]
    fn a_decay_ends_where_its_decline_meets_the_level_not_on_a_grid() {
        // An exponential excess (τ = 15 windows, cut to 0 at 60) on a flat level, as the
        // simulator's warmup-throttle: the fitted decline ends before the excess is gone, at
        // the same window whether the run is 200 or 300 windows long.
        let excess = |t: usize| (1.0 + 1.83 * ((-(t as f64) / 15.0).exp() - (-4.0f64).exp()).max(0.0)).ln();
        let y: Vec<f64> = (0..300).map(|t| excess(t) + noise(t)).collect();
        let end = warmup_shape_end(&y, 0, 100).unwrap();
        assert!((33..=42).contains(&end), "{end}");
        assert_eq!(warmup_shape_end(&y[..200], 0, 100), Some(end));
    }

    #[test]
    fn long_ranges_are_searched_on_a_stride() {
        let y: Vec<f64> = (0..20_000).map(|t| if t < 3000 { 0.4 } else { 0.0 } + noise(t)).collect();
        let end = warmup_shape_end(&y, 0, 6000).unwrap();
        assert!(end.abs_diff(3000) <= 3, "stride 3: {end}");
    }

    #[test]
    fn a_level_is_reached_within_the_margin_and_its_error() {
        let level = FinalLevel { mean: 0.0, long_run_variance: 1e-4, windows: 1000 };
        let tol = 1.05f64.ln();
        assert!(level.reached_by(&[0.05; 20], tol), "5 % is within the 5 % margin plus the error");
        assert!(!level.reached_by(&[0.08; 20], tol), "8 % is not: the allowance is 0.049 + 2·0.0023");
        assert!(level.reached_by(&[-0.5; 20], tol), "faster is not a warmup");
        assert!(level.reached_by(&[], tol));
    }
}
