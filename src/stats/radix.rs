//! LSD radix sort of (f64, u32) pairs by value: four 16-bit passes over order-preserving keys.
//! On 10-million-element metric columns it is several times faster than a comparison sort, and
//! it is stable, so equal values keep their input order (the result is deterministic).

/// Maps an f64 to a u64 whose unsigned order is the total order of the floats.
fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// Sorts `(value, payload)` pairs ascending by value (NaN last), stably, and returns the sorted
/// values and the payload of each rank. Takes the pairs as an iterator so the caller never
/// holds them as a vector beside the sort's own two buffers.
pub fn sort_by_value(items: impl Iterator<Item = (f64, u32)>) -> (Vec<f64>, Vec<u32>) {
    let mut keys: Vec<(u64, u32)> = items.map(|(v, p)| (key(v), p)).collect();
    if keys.len() < 2048 {
        keys.sort_by_key(|k| k.0);
    } else {
        radix_passes(&mut keys);
    }
    let values = keys.iter().map(|&(k, _)| value(k)).collect();
    (values, keys.into_iter().map(|(_, p)| p).collect())
}

/// The f64 whose order key is `k` (`key`'s inverse).
fn value(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// Stable LSD passes over the keys' four 16-bit digits.
fn radix_passes(keys: &mut Vec<(u64, u32)>) {
    let n = keys.len();
    let mut counts = vec![[0usize; 1 << 16]; 4];
    for &(k, _) in keys.iter() {
        for (pass, c) in counts.iter_mut().enumerate() {
            c[((k >> (16 * pass)) & 0xFFFF) as usize] += 1;
        }
    }
    let mut buf: Vec<(u64, u32)> = vec![(0, 0); n];
    for (pass, c) in counts.iter_mut().enumerate() {
        // A pass where every key has the same digit changes nothing.
        if c.iter().any(|&x| x == n) {
            continue;
        }
        let mut offset = 0;
        for slot in c.iter_mut() {
            let here = *slot;
            *slot = offset;
            offset += here;
        }
        for &(k, p) in keys.iter() {
            let d = ((k >> (16 * pass)) & 0xFFFF) as usize;
            buf[c[d]] = (k, p);
            c[d] += 1;
        }
        std::mem::swap(keys, &mut buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_a_stable_comparison_sort() {
        let mut x: Vec<(f64, u32)> = (0..50_000u32)
            .map(|i| {
                let v = ((i as u64 * 2654435761) % 100_003) as f64 / 7.0 - 5000.0;
                (
                    if i % 97 == 0 {
                        -0.0
                    } else if i % 89 == 0 {
                        0.0
                    } else {
                        v
                    },
                    i % 300,
                )
            })
            .collect();
        let mut expect = x.clone();
        expect.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (values, payload) = sort_by_value(x.drain(..));
        assert_eq!(values.len(), expect.len());
        for ((v, p), b) in values.iter().zip(&payload).zip(&expect) {
            assert_eq!(v.to_bits(), b.0.to_bits());
            assert_eq!(*p, b.1);
        }
    }
}
