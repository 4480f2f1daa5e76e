//! Words many messages share, built in one place: a metric's name as a reader says it.

use crate::Message;

/// A metric's name as a reader says it: `ttft_p50` → `P50 TTFT`, `output_tokens_per_s` →
/// `output tokens/s` (the catalogs' `metric-percentile` and `metric-label`).
pub fn metric_label(metric: &str) -> Message {
    match metric.rsplit_once("_p") {
        Some((family, p)) if p.chars().all(|c| c.is_ascii_digit()) && !p.is_empty() => {
            Message::new("metric-percentile").text("percentile", percentile_label(p)).text("family", family)
        }
        _ => Message::new("metric-label").text("metric", metric),
    }
}

/// `50` → `P50`, `999` → `P99.9`.
fn percentile_label(digits: &str) -> String {
    match digits.len() {
        3.. => format!("P{}.{}", &digits[..2], &digits[2..]),
        _ => format!("P{digits}"),
    }
}
