//! The ordered series: runs by start time (or as given), grouped by configuration, with the
//! breaks where the configuration changes.

use serde::Serialize;

use super::metric::RunPoint;
use super::{Break, Configuration};

/// How the runs are put in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// By the send time of each run's first request.
    Time,
    /// As given (store rows first, in the store's order, then the command line's).
    Given,
}

/// Puts `points` in series order. By time, every run needs an absolute start time; the error
/// names the first run without one. Ties keep the given order.
pub fn order(mut points: Vec<RunPoint>, order: Order) -> Result<Vec<RunPoint>, String> {
    if order == Order::Time {
        if let Some(p) = points.iter().find(|p| p.start_ns.is_none()) {
            return Err(format!("run {}: no absolute start time (its timestamps are relative or absent), so the runs cannot be ordered by time", p.run_id));
        }
        points.sort_by_key(|p| p.start_ns);
    }
    Ok(points)
}

/// The runs of one configuration, by position in the series.
#[derive(Debug, Clone)]
pub struct Group {
    pub fingerprint: String,
    pub indices: Vec<usize>,
}

impl Group {
    pub fn summary(&self, points: &[RunPoint]) -> Configuration {
        let first = self.indices[0];
        Configuration {
            fingerprint: self.fingerprint.clone(),
            configuration: points[first].configuration.clone(),
            runs: self.indices.len(),
            first_index: first,
            last_index: *self.indices.last().unwrap_or(&first),
        }
    }
}

/// The configurations in order of first appearance, each with all its runs (a configuration
/// that returns after a break continues its own series).
pub fn configurations(points: &[RunPoint]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        match groups.iter_mut().find(|g| g.fingerprint == p.fingerprint) {
            Some(g) => g.indices.push(i),
            None => groups.push(Group { fingerprint: p.fingerprint.clone(), indices: vec![i] }),
        }
    }
    groups
}

/// A break wherever consecutive runs differ in configuration.
pub fn breaks(points: &[RunPoint]) -> Vec<Break> {
    points
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0].fingerprint != w[1].fingerprint)
        .map(|(i, w)| Break {
            index: i + 1,
            run_id: w[1].run_id.clone(),
            start_time: w[1].start_ns.map(utc_text),
            from_fingerprint: w[0].fingerprint.clone(),
            from: w[0].configuration.clone(),
            to_fingerprint: w[1].fingerprint.clone(),
            to: w[1].configuration.clone(),
        })
        .collect()
}

/// Nanoseconds since the Unix epoch as RFC 3339 UTC, to the second (`2025-01-31T02:00:00Z`).
pub fn utc_text(ns: i64) -> String {
    let secs = ns.div_euclid(1_000_000_000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to (year, month, day).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_text_matches_known_dates() {
        assert_eq!(utc_text(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_text(1_738_288_800_000_000_000), "2025-01-31T02:00:00Z");
        assert_eq!(utc_text(951_782_400_000_000_000), "2000-02-29T00:00:00Z");
        assert_eq!(utc_text(-1_000_000_000), "1969-12-31T23:59:59Z");
    }
}
