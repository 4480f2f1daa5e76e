//! Reading AIPerf's per-record metric values (`metrics.<tag>.{value, unit}`), with the reason,
//! naming the key, when a value is unusable: the record's row is then marked `invalid_source`
//! rather than the value dropped or read as 0.

use serde_json::Value;

use crate::json::{number, short};
use crate::time::{MAX_SECONDS, is_seconds};

/// `metrics.<tag>.value`, when present and not null.
pub(super) fn metric_value<'a>(metrics: &'a Value, tag: &str) -> Option<&'a Value> {
    metrics.get(tag)?.get("value").filter(|x| !x.is_null())
}

/// A time metric in ms (AIPerf records each value's unit beside it): None when absent, an
/// error naming the key when it is not a time ≥ 0 (`time::is_seconds`: a value beyond 1e9 s
/// would overflow the nanosecond clock once added to the record's start).
pub(super) fn time_ms(metrics: &Value, tag: &str) -> Result<Option<f64>, String> {
    let Some(x) = metric_value(metrics, tag) else { return Ok(None) };
    let scale = ms_per_unit(metrics.get(tag).and_then(|m| m.get("unit")).and_then(Value::as_str));
    match number(x) {
        Some(t) if t >= 0.0 && is_seconds(t * scale / 1e3) => Ok(Some(t * scale)),
        _ => Err(format!("key metrics.{tag}.value is {}, not a time ≥ 0 (within {MAX_SECONDS:e} s)", short(x))),
    }
}

/// ms per unit of AIPerf's time units (ms when unstated).
fn ms_per_unit(unit: Option<&str>) -> f64 {
    match unit {
        Some("ns") => 1e-6,
        Some("us") => 1e-3,
        Some("s" | "sec") => 1e3,
        _ => 1.0,
    }
}

/// `inter_chunk_latency` in ms: None when absent; an error naming the entry when one is not a
/// finite number ≥ 0 (a negative gap would put a chunk before the one it follows).
pub(super) fn gaps_ms(metrics: &Value) -> Result<Option<Vec<f64>>, String> {
    let tag = "inter_chunk_latency";
    let Some(x) = metric_value(metrics, tag) else { return Ok(None) };
    let list = x.as_array().ok_or_else(|| format!("key metrics.{tag}.value is {}, not a list of gaps", short(x)))?;
    let scale = ms_per_unit(metrics.get(tag).and_then(|m| m.get("unit")).and_then(Value::as_str));
    let mut gaps = Vec::with_capacity(list.len());
    for (i, g) in list.iter().enumerate() {
        match number(g) {
            Some(t) if t.is_finite() && t >= 0.0 => gaps.push(t * scale),
            Some(t) if t < 0.0 => return Err(format!("key metrics.{tag}.value[{i}] is negative ({t} ms): a chunk cannot arrive before the one it follows")),
            _ => return Err(format!("key metrics.{tag}.value[{i}] is {}, not a gap in ms", short(g))),
        }
    }
    Ok(Some(gaps))
}

/// A token count: None when absent, an error naming the key when it is not a whole number ≥ 0.
pub(super) fn token_count(metrics: &Value, tag: &str) -> Result<Option<u64>, String> {
    let Some(x) = metric_value(metrics, tag) else { return Ok(None) };
    match number(x) {
        Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(Some(n as u64)),
        _ => Err(format!("key metrics.{tag}.value is {}, not a token count", short(x))),
    }
}

/// A whole-number metric, or None when absent or not one.
pub(super) fn integer_metric(metrics: &Value, tag: &str) -> Option<u64> {
    token_count(metrics, tag).ok().flatten()
}

/// Every metric value must be a finite number or a list of them (null reads as absent): the
/// first that is not is added to `problems`, as the statistics AIPerf's summary rests on would
/// otherwise lose it silently.
pub(super) fn check_metrics(metrics: &Value, problems: &mut Vec<String>) {
    let Some(all) = metrics.as_object() else {
        if !metrics.is_null() {
            problems.push(format!("key metrics is {}, not an object of metrics", short(metrics)));
        }
        return;
    };
    for (tag, m) in all {
        let Some(x) = m.get("value").filter(|x| !x.is_null()) else { continue };
        let finite = |v: &Value| number(v).is_some_and(f64::is_finite);
        let bad = match x.as_array() {
            Some(list) => list.iter().position(|v| !finite(v)).map(|i| (format!("[{i}]"), &list[i])),
            None => (!finite(x)).then(|| (String::new(), x)),
        };
        if let Some((index, v)) = bad {
            problems.push(format!("key metrics.{tag}.value{index} is {}, not a finite number", short(v)));
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_beyond_the_nanosecond_clock_is_no_time() {
        let m = serde_json::json!({"a": {"value": 5.0, "unit": "ms"}, "b": {"value": 1e300, "unit": "ms"}, "c": {"value": 2e9, "unit": "s"}});
        assert_eq!(time_ms(&m, "a"), Ok(Some(5.0)));
        for tag in ["b", "c"] {
            let why = time_ms(&m, tag).unwrap_err();
            assert!(why.contains(&format!("metrics.{tag}.value")) && why.contains("not a time"), "{why}");
        }
    }
}
