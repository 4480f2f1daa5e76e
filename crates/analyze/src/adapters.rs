//! LoRA adapters (`bench --lora`): the steady window's requests split by the adapter each
//! named, with each adapter's median TTFT and TPOT and their intervals.

use serde::{Deserialize, Serialize};

use crate::cache::median;
use crate::estimate::Estimate;
use crate::requests::RequestView;

/// One adapter's share of the steady window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdapterSplit {
    pub adapter: String,
    /// Successful requests in the steady window.
    pub requests: u64,
    pub ttft_p50: Estimate,
    pub tpot_p50: Estimate,
}

/// Per adapter, in the order the run first named them; empty when no request named one.
pub fn split(r: &RequestView, range: std::ops::Range<usize>, cl: f64) -> Vec<AdapterSplit> {
    if r.adapter.is_empty() {
        return Vec::new();
    }
    r.adapter_names
        .iter()
        .enumerate()
        .map(|(a, name)| {
            let mine: Vec<usize> = range.clone().filter(|&i| r.adapter[i] as usize == a + 1 && r.ok[i]).collect();
            let sorted = |v: &[f64]| {
                let mut x: Vec<f64> = mine.iter().map(|&i| v[i]).filter(|x| x.is_finite()).collect();
                x.sort_by(f64::total_cmp);
                x
            };
            AdapterSplit { adapter: name.clone(), requests: mine.len() as u64, ttft_p50: median(&sorted(&r.ttft_ms), cl), tpot_p50: median(&sorted(&r.tpot_ms), cl) }
        })
        .collect()
}
