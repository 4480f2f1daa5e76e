//! A self-contained statistics library: functions over slices, confidence levels and seeds.
//! It knows nothing about requests or metrics, so each routine can be pinned to scipy and R
//! reference vectors alone.

pub mod acf;
pub mod block_length;
pub mod bootstrap;
pub mod edivisive;
pub mod effect_size;
pub mod ks;
pub mod mann_kendall;
pub mod mann_whitney;
pub mod mser;
pub mod order_ci;
pub mod pelt;
pub mod pettitt;
pub mod product_limit;
pub mod quantile;
pub mod rank;
pub mod resample;
pub mod stationary;
pub mod tost;
pub mod variance_components;
pub mod wilson;
