//! inference-perf's YAML side files: `config.yaml` (the resolved settings: load type, stages,
//! data, report options) and `inference-perf.partial.stage_N.yaml` (one stage's BR 0.2.1
//! report: its wall-clock start and end, and its statistics).

use std::path::Path;

use serde_yaml::Value as Yaml;

use crate::ImportError;
use crate::time::parse_datetime;
use credence_run::manifest::{Arrival, SystemConfig, Workload};

/// Parses a YAML file; a syntax error names its line.
pub fn parse_yaml(path: &Path, bytes: &[u8]) -> Result<Yaml, ImportError> {
    serde_yaml::from_slice(bytes).map_err(|e| {
        let at = e.location().map(|l| format!("line {}, column {}", l.line(), l.column()));
        ImportError::new(path, at, format!("not valid YAML: {e}"))
    })
}

/// The value at a dotted path (`load.stages`), when every step exists.
pub fn at<'a>(v: &'a Yaml, path: &str) -> Option<&'a Yaml> {
    path.split('.').try_fold(v, |v, k| v.get(k)).filter(|x| !x.is_null())
}

fn wrong(path: &Path, key: &str, expected: &str, got: &Yaml) -> ImportError {
    let got = serde_yaml::to_string(got).unwrap_or_default();
    ImportError::new(path, Some(format!("key {key}")), format!("expected {expected}; found {}", got.trim()))
}

/// One stage as configured.
#[derive(Debug, Clone, Default)]
pub struct PlannedStage {
    pub rate: Option<f64>,
    pub duration: Option<f64>,
    pub num_requests: Option<u64>,
    pub concurrency: Option<u64>,
}

/// What `config.yaml` says about the load and the reports.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub load_type: String,
    pub stages: Vec<PlannedStage>,
    pub num_workers: Option<u64>,
    pub use_server_output_tokens: bool,
    /// Whether a tokenizer is configured (the tool then re-counts each chunk's tokens).
    pub tokenizer: bool,
    pub streaming: Option<bool>,
    pub dataset: Option<String>,
    pub input_length: Option<String>,
    pub output_length: Option<String>,
    /// `server.type` (the engine kind the user declared) and `server.model_name`.
    pub engine: Option<String>,
    pub model: Option<String>,
    /// `server.base_url`.
    pub url: Option<String>,
}

impl Plan {
    /// Requests the load generator schedules for stage `k` (`int(rate × duration)`, or the
    /// concurrent stage's `num_requests`); None for trace replays.
    pub fn planned_requests(&self, k: usize) -> Option<u64> {
        let s = self.stages.get(k)?;
        match self.load_type.as_str() {
            "concurrent" => s.num_requests,
            "constant" | "poisson" => Some((s.rate? * s.duration?).floor() as u64),
            _ => None,
        }
    }

    /// How one stage reads in words, e.g. `rate 3/s for 4 s (12 requests)`.
    pub fn describe(&self, k: usize) -> String {
        let s = &self.stages[k];
        let planned = self.planned_requests(k).map(|n| format!(" ({n} requests)")).unwrap_or_default();
        match (self.load_type.as_str(), s.concurrency) {
            ("concurrent", Some(c)) => format!("concurrency {c}{planned}"),
            _ => format!("rate {}/s for {} s{planned}", fmt(s.rate), fmt(s.duration)),
        }
    }
}

fn fmt(x: Option<f64>) -> String {
    x.map_or("?".into(), |v| format!("{v}"))
}

/// Reads `config.yaml`.
pub fn plan(path: &Path, v: &Yaml) -> Result<Plan, ImportError> {
    let load_type = at(v, "load.type").map(|t| t.as_str().ok_or_else(|| wrong(path, "load.type", "a string", t))).transpose()?;
    let stages = match at(v, "load.stages") {
        None => Vec::new(),
        Some(s) => s
            .as_sequence()
            .ok_or_else(|| wrong(path, "load.stages", "a list of stages", s))?
            .iter()
            .enumerate()
            .map(|(k, st)| stage(path, k, st))
            .collect::<Result<_, _>>()?,
    };
    let flag = |key: &str| at(v, key).map(|x| x.as_bool().ok_or_else(|| wrong(path, key, "true or false", x))).transpose();
    let num_workers = at(v, "load.num_workers").map(|x| x.as_u64().ok_or_else(|| wrong(path, "load.num_workers", "a count", x))).transpose()?;
    let data_type = at(v, "data.type").and_then(Yaml::as_str);
    let data_path = at(v, "data.path").and_then(Yaml::as_str);
    Ok(Plan {
        load_type: load_type.unwrap_or_default().to_string(),
        stages,
        num_workers,
        use_server_output_tokens: flag("report.request_lifecycle.use_server_output_tokens")?.unwrap_or(false),
        tokenizer: at(v, "tokenizer").is_some(),
        streaming: flag("api.streaming")?,
        dataset: data_type.map(|t| data_path.map_or(t.to_string(), |p| format!("{t} ({p})"))),
        input_length: at(v, "data.input_distribution").map(distribution),
        output_length: at(v, "data.output_distribution").map(distribution),
        engine: at(v, "server.type").and_then(Yaml::as_str).map(String::from),
        model: at(v, "server.model_name").and_then(Yaml::as_str).map(String::from),
        url: at(v, "server.base_url").and_then(Yaml::as_str).map(String::from),
    })
}

fn stage(path: &Path, k: usize, st: &Yaml) -> Result<PlannedStage, ImportError> {
    let key = |n: &str| format!("load.stages[{k}].{n}");
    let count = |n: &str| st.get(n).filter(|x| !x.is_null()).map(|x| x.as_u64().ok_or_else(|| wrong(path, &key(n), "a count", x))).transpose();
    let num = |n: &str| st.get(n).filter(|x| !x.is_null()).map(|x| x.as_f64().ok_or_else(|| wrong(path, &key(n), "a number", x))).transpose();
    Ok(PlannedStage { rate: num("rate")?, duration: num("duration")?, num_requests: count("num_requests")?, concurrency: count("concurrency_level")? })
}

/// A length distribution in words: `fixed(32)` or `normal(mean=512, sd=64, 16..1024)`.
fn distribution(d: &Yaml) -> String {
    let n = |k: &str| d.get(k).and_then(Yaml::as_f64);
    let kind = d.get("type").and_then(Yaml::as_str).unwrap_or("distribution");
    match (n("min"), n("max"), n("mean"), n("std_dev")) {
        (Some(a), Some(b), _, _) if a == b => format!("fixed({a})"),
        (lo, hi, mean, sd) => format!("{kind}(mean={}, sd={}, {}..{})", fmt(mean), fmt(sd), fmt(lo), fmt(hi)),
    }
}

/// The load as configured: one stage's rate or concurrency, or, over several stages, what
/// they share (the stages themselves are listed in the phases note).
pub fn workload(p: &Plan) -> Workload {
    let same = |f: fn(&PlannedStage) -> Option<f64>| {
        let first = p.stages.first().and_then(f)?;
        p.stages.iter().all(|s| f(s) == Some(first)).then_some(first)
    };
    let concurrent = p.load_type == "concurrent";
    Workload {
        arrival: match p.load_type.as_str() {
            "constant" => Arrival::Constant,
            "poisson" => Arrival::Poisson,
            "concurrent" => Arrival::ClosedLoop,
            "trace_replay" | "trace_session_replay" => Arrival::TraceReplay,
            _ => Arrival::Unknown,
        },
        // A concurrent stage's `rate` is its request count spread over one second, not a rate.
        rate_per_s: if concurrent { None } else { same(|s| s.rate) },
        concurrency: same(|s| s.concurrency.map(|c| c as f64)).map(|c| c as u32),
        dataset: p.dataset.clone(),
        input_length: p.input_length.clone(),
        output_length: p.output_length.clone(),
        streaming: p.streaming,
        duration_s: if concurrent || p.stages.is_empty() { None } else { p.stages.iter().map(|s| s.duration).sum() },
        ..Workload::unknown()
    }
}

/// The system as the config names it: the model requested, and in `extra` the server type the
/// user declared (it picks inference-perf's client flavour; nothing checks it is that engine)
/// and the URL.
pub fn system(p: &Plan) -> SystemConfig {
    let mut extra = std::collections::BTreeMap::new();
    for (k, v) in [("declared_server_type", &p.engine), ("base_url", &p.url)] {
        if let Some(v) = v {
            extra.insert(k.to_string(), v.clone());
        }
    }
    SystemConfig { model: p.model.clone(), extra, ..SystemConfig::default() }
}

/// One stage's report: its id and wall-clock window.
#[derive(Debug, Clone)]
pub struct StageWindow {
    pub id: u32,
    pub start_ns: i64,
    pub end_ns: i64,
    pub start_text: String,
    pub file: String,
    /// `run.eid`: the experiment the stage belongs to (one per inference-perf run).
    pub experiment: Option<String>,
}

/// Reads the window of `inference-perf.partial.stage_N.yaml`: `run.time.start`/`end` (ISO UTC)
/// and the stage id from `run.uid` (`inference-perf-stage-N-…`), else from the file name.
pub fn stage_window(path: &Path, v: &Yaml) -> Result<StageWindow, ImportError> {
    let time = |k: &str| -> Result<(i64, String), ImportError> {
        let key = format!("run.time.{k}");
        let x = at(v, &key).ok_or_else(|| ImportError::new(path, Some(format!("key {key}")), "expected an ISO 8601 UTC time; it is missing"))?;
        let text = x.as_str().ok_or_else(|| wrong(path, &key, "an ISO 8601 UTC time", x))?;
        match parse_datetime(text, 0) {
            Some((ns, true)) => Ok((ns, text.to_string())),
            _ => Err(wrong(path, &key, "an ISO 8601 time with its zone (…Z)", x)),
        }
    };
    let (start_ns, start_text) = time("start")?;
    let (end_ns, _) = time("end")?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let from_uid = at(v, "run.uid").and_then(Yaml::as_str).and_then(|u| stage_number(u, "stage-"));
    let id = from_uid.or_else(|| stage_number(&name, "stage_")).ok_or_else(|| {
        ImportError::new(path, Some("key run.uid".into()), "expected inference-perf-stage-N-… (or a file name with stage_N) to tell the stage")
    })?;
    let experiment = at(v, "run.eid").and_then(Yaml::as_str).map(String::from);
    Ok(StageWindow { id, start_ns, end_ns, start_text, file: name, experiment })
}

/// N of `…{marker}N…` (`stage_3_lifecycle_metrics.json`, `inference-perf-stage-3-ab12`).
pub fn stage_number(text: &str, marker: &str) -> Option<u32> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}
