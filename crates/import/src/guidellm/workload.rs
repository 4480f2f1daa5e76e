//! The load guidellm offered, from its own configuration: the benchmark's strategy
//! (`benchmarks[0].config.strategy`: `type_`, `rate`, `streams`, `max_concurrency`), else the
//! run's profile (`config.spec.profile`: `kind`, `rate` and `streams` as lists); the planned
//! duration from its `max_duration` constraint; the synthetic data's lengths; streaming.

use std::path::Path;

use serde_json::Value;

use crate::ImportError;
use crate::json::short;
use credence_run::manifest::{Arrival, Workload};

/// Typed reads of the configuration, with errors naming the key.
struct Config<'a> {
    path: &'a Path,
}

impl Config<'_> {
    fn wrong(&self, key: &str, expected: &str, found: &Value) -> ImportError {
        ImportError::new(self.path, Some(format!("key {key}")), format!("expected {expected}; found {}", short(found)))
    }

    /// A number at `v[k]`; missing or null is None.
    fn number(&self, v: Option<&Value>, key: &str) -> Result<Option<f64>, ImportError> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(x) => x.as_f64().filter(|n| n.is_finite()).map(Some).ok_or_else(|| self.wrong(key, "a number", x)),
        }
    }

    /// A number, or a list holding one number (the profile's `rate: [5.0]`); a list of several
    /// (a sweep) is None.
    fn one_number(&self, v: Option<&Value>, key: &str) -> Result<Option<f64>, ImportError> {
        match v {
            Some(Value::Array(a)) if a.len() == 1 => self.number(a.first(), &format!("{key}[0]")),
            Some(Value::Array(a)) => {
                a.iter().enumerate().try_for_each(|(i, x)| self.number(Some(x), &format!("{key}[{i}]")).map(|_| ()))?;
                Ok(None)
            }
            other => self.number(other, key),
        }
    }

    fn text<'v>(&self, v: Option<&'v Value>, key: &str) -> Result<Option<&'v str>, ImportError> {
        match v {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(x) => Err(self.wrong(key, "a string", x)),
        }
    }
}

/// The workload of the benchmark `b` of report `v`.
pub fn workload(path: &Path, v: &Value, b: &Value) -> Result<Workload, ImportError> {
    let c = Config { path };
    let strategy = b.get("config").and_then(|x| x.get("strategy"));
    let spec = v.get("config").and_then(|x| x.get("spec"));
    let profile = spec.and_then(|s| s.get("profile"));
    let kind = match c.text(strategy.and_then(|s| s.get("type_")), "benchmarks[0].config.strategy.type_")? {
        Some(k) => Some(k),
        None => c.text(profile.and_then(|p| p.get("kind")), "config.spec.profile.kind")?,
    };
    let rate = match c.number(strategy.and_then(|s| s.get("rate")), "benchmarks[0].config.strategy.rate")? {
        Some(r) => Some(r),
        None => c.one_number(profile.and_then(|p| p.get("rate")), "config.spec.profile.rate")?,
    };
    let streams = match c.number(strategy.and_then(|s| s.get("streams")), "benchmarks[0].config.strategy.streams")? {
        Some(s) => Some(s),
        None => c.one_number(profile.and_then(|p| p.get("streams")), "config.spec.profile.streams")?,
    };
    let max_concurrency = c.number(strategy.and_then(|s| s.get("max_concurrency")), "benchmarks[0].config.strategy.max_concurrency")?;
    let (arrival, rate_per_s, concurrency) = match kind {
        Some("constant") => (Arrival::Constant, rate, None),
        Some("poisson") => (Arrival::Poisson, rate, None),
        Some("concurrent") => (Arrival::ClosedLoop, None, streams),
        Some("synchronous") => (Arrival::ClosedLoop, None, Some(1.0)),
        // Every request at once, held to the concurrency limit.
        Some("throughput") => (Arrival::ClosedLoop, None, max_concurrency),
        _ => (Arrival::Unknown, rate, streams),
    };
    let data = spec.and_then(|s| s.get("data")).and_then(Value::as_array).and_then(|d| d.first());
    Ok(Workload {
        arrival,
        rate_per_s,
        concurrency: concurrency.map(|x| x as u32),
        dataset: c.text(data.and_then(|d| d.get("kind")), "config.spec.data[0].kind")?.map(String::from),
        input_length: length(&c, data, "prompt_tokens")?,
        output_length: length(&c, data, "output_tokens")?,
        streaming: spec.and_then(|s| s.get("backend")).and_then(|x| x.get("stream")).and_then(Value::as_bool),
        duration_s: max_duration(&c, v, b)?,
        ..Workload::unknown()
    })
}

/// The planned duration: the benchmark's `max_duration` constraint, else the run's.
fn max_duration(c: &Config<'_>, v: &Value, b: &Value) -> Result<Option<f64>, ImportError> {
    let of_benchmark =
        b.get("config").and_then(|x| x.get("constraints")).and_then(|x| x.get("max_duration")).and_then(|x| x.get("args")).and_then(|x| x.get("seconds"));
    if let Some(s) = c.number(of_benchmark, "benchmarks[0].config.constraints.max_duration.args.seconds")? {
        return Ok(Some(s));
    }
    let listed = v.get("config").and_then(|x| x.get("spec")).and_then(|s| s.get("constraints")).and_then(Value::as_array);
    for (i, k) in listed.into_iter().flatten().enumerate() {
        if k.get("kind").and_then(Value::as_str) == Some("max_duration") {
            return c.number(k.get("seconds"), &format!("config.spec.constraints[{i}].seconds"));
        }
    }
    Ok(None)
}

/// A synthetic length (`prompt_tokens=32`, with its stdev, min and max when given).
fn length(c: &Config<'_>, data: Option<&Value>, key: &str) -> Result<Option<String>, ImportError> {
    let Some(d) = data else { return Ok(None) };
    let n = |suffix: &str| c.number(d.get(format!("{key}{suffix}").as_str()), &format!("config.spec.data[0].{key}{suffix}"));
    let Some(mean) = n("")? else { return Ok(None) };
    let mut text = format!("{mean} tokens (guidellm synthetic data, {key})");
    for (suffix, name) in [("_stdev", "stdev"), ("_min", "min"), ("_max", "max")] {
        if let Some(x) = n(suffix)? {
            text += &format!(", {name} {x}");
        }
    }
    Ok(Some(text))
}
