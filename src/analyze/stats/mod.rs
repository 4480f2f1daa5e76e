//! A self-contained statistics library: functions over slices, confidence levels and seeds.
//! It knows nothing about requests or metrics, so each routine can be pinned to scipy and R
//! reference vectors alone.

pub mod acf;
pub mod mann_kendall;
pub mod order_ci;
pub mod pettitt;
pub mod quantile;
pub mod wilson;
pub mod block_length;
pub mod bootstrap;
pub mod resample;
pub mod mser;
pub mod pelt;
pub mod stationary;
pub mod radix;
pub mod mann_whitney;
pub mod effect_size;
pub mod tost;
pub mod variance_components;
pub mod ks;
