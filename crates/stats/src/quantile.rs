//! Sample quantiles, Hyndman–Fan type 7 (numpy's and R's default "linear" definition).
//!
//! For sorted `x[0..n)`: `h = (n − 1)·p`, `Q(p) = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])`.

/// Type-7 quantile of an ascending slice. `None` when the slice is empty or `p` is outside [0, 1].
pub fn quantile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    quantile_by_rank(sorted.len(), p, |r| sorted[r])
}

/// The two ranks ⌊h⌋ and ⌊h⌋+1 (clipped) that the type-7 quantile `p` of `n` values reads;
/// `None` when `n` is 0 or `p` is outside [0, 1].
pub fn quantile_ranks(n: usize, p: f64) -> Option<(usize, usize)> {
    if n == 0 || !(0.0..=1.0).contains(&p) {
        return None;
    }
    let lo = ((n - 1) as f64 * p).floor() as usize;
    Some((lo, (lo + 1).min(n - 1)))
}

/// Type-7 quantile `p` of `n` values, reading the value at each rank through `at` (for value
/// stores that are exact only at the ranks asked for, such as `rank::PartialRanking`).
pub fn quantile_by_rank(n: usize, p: f64, at: impl Fn(usize) -> f64) -> Option<f64> {
    let (lo, hi) = quantile_ranks(n, p)?;
    let h = (n - 1) as f64 * p;
    let (a, b) = (at(lo), at(hi));
    Some(a + (h - lo as f64) * (b - a))
}

/// Type-7 quantile of unsorted data, by selection on a scratch copy (no full sort).
pub fn quantile_unsorted(data: &[f64], p: f64) -> Option<f64> {
    if data.is_empty() || !(0.0..=1.0).contains(&p) {
        return None;
    }
    quantile_in_place(&mut data.to_vec(), p)
}

/// Type-7 quantile of unsorted data by selection, reordering `data` (for callers that gathered
/// the values into a scratch buffer of their own: per-window series call this hundreds of
/// thousands of times on long runs).
pub fn quantile_in_place(data: &mut [f64], p: f64) -> Option<f64> {
    if data.is_empty() || !(0.0..=1.0).contains(&p) {
        return None;
    }
    let h = (data.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let (_, lo_val, rest) = data.select_nth_unstable_by(lo, f64::total_cmp);
    let lo_val = *lo_val;
    let frac = h - lo as f64;
    if frac == 0.0 || rest.is_empty() {
        return Some(lo_val);
    }
    let hi_val = rest.iter().copied().fold(f64::INFINITY, f64::min);
    Some(lo_val + frac * (hi_val - lo_val))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_numpy_linear() {
        // numpy.quantile([1, 2, 3, 4, 10], [0, 0.25, 0.5, 0.9, 1]) = [1, 2, 3, 7.6, 10]
        let x = [1.0, 2.0, 3.0, 4.0, 10.0];
        let expect = [(0.0, 1.0), (0.25, 2.0), (0.5, 3.0), (0.9, 7.6), (1.0, 10.0)];
        for (p, q) in expect {
            assert!((quantile_sorted(&x, p).unwrap() - q).abs() < 1e-12);
            assert!((quantile_unsorted(&[10.0, 3.0, 1.0, 4.0, 2.0], p).unwrap() - q).abs() < 1e-12);
        }
    }

    #[test]
    fn empty_and_out_of_range() {
        assert_eq!(quantile_sorted(&[], 0.5), None);
        assert_eq!(quantile_sorted(&[1.0], 1.5), None);
        assert_eq!(quantile_unsorted(&[7.0], 0.99), Some(7.0));
    }
}
