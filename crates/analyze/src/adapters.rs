//! LoRA adapters (`bench --lora`): the steady window's requests split by the adapter each
//! named, with each adapter's median TTFT and TPOT and their intervals.

use serde::{Deserialize, Serialize};

use crate::cache::SubsetMedian;
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
pub fn split(r: &RequestView, range: std::ops::Range<usize>, median: SubsetMedian<'_>) -> Vec<AdapterSplit> {
    if r.adapter.is_empty() {
        return Vec::new();
    }
    r.adapter_names
        .iter()
        .enumerate()
        .map(|(a, name)| {
            let mine = |i: usize| r.adapter[i] as usize == a + 1 && r.ok[i];
            let requests = range.clone().filter(|&i| mine(i)).count() as u64;
            let ttft_p50 = median(&r.ttft_ms, &mine, &format!("ttft_adapter_{name}"));
            let tpot_p50 = median(&r.tpot_ms, &mine, &format!("tpot_adapter_{name}"));
            AdapterSplit { adapter: name.clone(), requests, ttft_p50, tpot_p50 }
        })
        .collect()
}
