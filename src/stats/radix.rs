//! LSD radix sort of (f64, u32) pairs by value: four 16-bit passes over order-preserving keys.
//! On 10-million-element metric columns it is several times faster than a comparison sort, and
//! it is stable, so equal values keep their input order (the result is deterministic).

/// Maps an f64 to a u64 whose unsigned order is the total order of the floats.
fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// Sorts `(value, payload)` pairs ascending by value (NaN last), stably.
pub fn sort_pairs(items: &mut Vec<(f64, u32)>) {
    let n = items.len();
    if n < 2048 {
        items.sort_by(|a, b| a.0.total_cmp(&b.0));
        return;
    }
    let mut keys: Vec<(u64, u32)> = items.iter().map(|&(v, p)| (key(v), p)).collect();
    let mut buf: Vec<(u64, u32)> = vec![(0, 0); n];
    let mut counts = vec![[0usize; 1 << 16]; 4];
    for &(k, _) in &keys {
        for (pass, c) in counts.iter_mut().enumerate() {
            c[((k >> (16 * pass)) & 0xFFFF) as usize] += 1;
        }
    }
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
        for &(k, p) in &keys {
            let d = ((k >> (16 * pass)) & 0xFFFF) as usize;
            buf[c[d]] = (k, p);
            c[d] += 1;
        }
        std::mem::swap(&mut keys, &mut buf);
    }
    for (dst, (_, p)) in items.iter_mut().zip(&keys) {
        dst.1 = *p;
    }
    // Values back from the (now sorted) keys.
    for (dst, (k, _)) in items.iter_mut().zip(&keys) {
        let b = if k >> 63 == 1 { k & !(1 << 63) } else { !k };
        dst.0 = f64::from_bits(b);
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
        sort_pairs(&mut x);
        assert_eq!(x.len(), expect.len());
        for (a, b) in x.iter().zip(&expect) {
            assert_eq!(a.0.to_bits(), b.0.to_bits());
            assert_eq!(a.1, b.1);
        }
    }
}
