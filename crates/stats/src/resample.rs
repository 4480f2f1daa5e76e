//! Seeded, portable resampling streams. Resample `r` of a statistic draws from its own ChaCha8
//! stream derived from (seed, statistic id, r), so results do not depend on the thread count
//! or on the order in which rayon schedules the work.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// The generator of resample `r` of statistic `stat_id`.
pub fn resample_rng(seed: u64, stat_id: u64, r: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ stat_id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.set_stream(r);
    rng
}

/// A stable id for a statistic name (FNV-1a), used to separate resampling streams.
pub fn stat_id(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Runs `b` resamples in parallel, each yielding one value per statistic; returns one
/// distribution per statistic, in resample order.
pub fn parallel_resamples<F>(b: usize, seed: u64, id: u64, stats: usize, f: F) -> Vec<Vec<f64>>
where
    F: Fn(&mut ChaCha8Rng, &mut Vec<f64>) + Sync,
{
    let rows: Vec<Vec<f64>> = (0..b)
        .into_par_iter()
        .map_init(Vec::new, |out, r| {
            let mut rng = resample_rng(seed, id, r as u64);
            out.clear();
            f(&mut rng, out);
            out.clone()
        })
        .collect();
    (0..stats).map(|s| rows.iter().map(|row| row.get(s).copied().unwrap_or(f64::NAN)).collect()).collect()
}
