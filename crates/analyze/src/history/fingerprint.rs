//! The configuration fingerprint: runs that share it form one series; where it changes between
//! consecutive runs, the history shows a labelled break instead of a regression.
//!
//! It covers what defines the benchmark (engine, model, hardware, parallelism, the manifest's
//! extra `config` keys, and the offered load: arrival, rate, concurrency). It leaves out the
//! engine *version* on purpose: a nightly series exists to catch what a new build changes, so a
//! new version is a point of the series, not a new series. Labels are left out too (they often
//! carry the date or the commit).

use std::collections::BTreeMap;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The fields of the analysis JSON's `run` object that the fingerprint covers.
pub const FIELDS: [&str; 8] =
    ["config.engine", "config.model", "config.hardware", "config.parallelism", "config.extra", "arrival", "rate_per_s", "concurrency"];

/// The fingerprint (12 hex digits of a SHA-256 of the fields, keys sorted) and the configuration
/// in words, from the `run` object of an analysis JSON.
pub fn fingerprint(run: &Value) -> (String, String) {
    let fields: BTreeMap<&str, Value> = FIELDS.iter().map(|f| (*f, field(run, f))).collect();
    let canonical = serde_json::to_string(&fields).expect("JSON values serialize");
    let digest = Sha256::digest(canonical.as_bytes());
    let hex: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    (hex, describe(&fields))
}

fn field(run: &Value, path: &str) -> Value {
    let value = path.split('.').try_fold(run, |v, k| v.get(k)).cloned().unwrap_or(Value::Null);
    // A map: its keys sorted, whatever order the producer wrote them in.
    match value {
        Value::Object(m) => serde_json::to_value(m.into_iter().collect::<BTreeMap<_, _>>()).unwrap_or(Value::Null),
        v => v,
    }
}

/// `engine · model · hardware · parallelism · k=v · arrival rate`, skipping unknowns.
fn describe(fields: &BTreeMap<&str, Value>) -> String {
    let text = |k: &str| fields.get(k).and_then(Value::as_str).map(String::from);
    let mut parts: Vec<String> = ["config.engine", "config.model", "config.hardware", "config.parallelism"].iter().filter_map(|k| text(k)).collect();
    if let Some(extra) = fields.get("config.extra").and_then(Value::as_object) {
        parts.extend(extra.iter().map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default())));
    }
    let arrival = text("arrival").unwrap_or_else(|| "unknown".into());
    let load = match (fields["rate_per_s"].as_f64(), fields["concurrency"].as_u64()) {
        (Some(r), _) => format!("{arrival} {r}/s"),
        (None, Some(c)) => format!("{arrival} {c} clients"),
        (None, None) => arrival,
    };
    parts.push(load);
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_and_labels_do_not_change_the_fingerprint() {
        let a = serde_json::json!({"config": {"engine": "vllm", "engine_version": "0.6", "model": "m", "extra": {"b": "1", "a": "2"}}, "arrival": "poisson", "rate_per_s": 20.0, "labels": {"night": "1"}});
        let b = serde_json::json!({"config": {"engine": "vllm", "engine_version": "0.7", "model": "m", "extra": {"a": "2", "b": "1"}}, "arrival": "poisson", "rate_per_s": 20.0, "labels": {"night": "2"}});
        let c = serde_json::json!({"config": {"engine": "vllm", "model": "m", "extra": {"a": "2", "b": "1"}}, "arrival": "poisson", "rate_per_s": 40.0});
        assert_eq!(fingerprint(&a).0, fingerprint(&b).0);
        assert_ne!(fingerprint(&a).0, fingerprint(&c).0);
        assert_eq!(fingerprint(&a).1, "vllm · m · a=2 · b=1 · poisson 20/s");
    }
}
