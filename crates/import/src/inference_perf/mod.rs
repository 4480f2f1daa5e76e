//! kubernetes-sigs/inference-perf (0.7.0): one output folder's files, read together.
//!
//! - `per_request_lifecycle_metrics.json`: the requests, times in `time.perf_counter()`
//!   seconds (no date), chunk times under `info.response_metrics`, token counts of the client
//!   and of the server (`server_usage`), errors as `{error_type, error_msg}`.
//! - `inference-perf.partial.stage_N.yaml`: stage N's wall-clock `run.time.start`/`end` (the
//!   clock's anchor, see `clock`) and its BR 0.2.1 statistics.
//! - `summary_lifecycle_metrics.json`, `stage_N_lifecycle_metrics.json`: the tool's summaries;
//!   every number becomes a claim, recomputed from the records with the tool's definitions.
//! - `config.yaml`: the load (type, stages), which sets the workload and the definitions.
//!
//! Traps: no scheduled times and no stage id per record (stages follow from the stage reports'
//! windows); requests cancelled at teardown are absent; a failed record's token counts are 0.

mod claims;
mod clock;
mod recompute;
mod records;
mod side;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use serde_yaml::Value as Yaml;

use super::{ImportError, ImportOptions, Imported};
use credence_run::manifest::{Capabilities, TimestampQuality, Workload};
use credence_run::claims::Definition;
use credence_messages::Message;
use claims::{Layout, Scope};
use clock::Anchor;
use recompute::Defs;
use records::Record;
use side::{Plan, StageWindow};

/// What one inference-perf file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Requests,
    Summary,
    StageReport,
    Config,
}

/// A JSON value of an inference-perf file, by its shape.
pub fn json_kind(v: &Value) -> Option<Kind> {
    let has = |x: &Value, keys: &[&str]| keys.iter().all(|k| x.get(*k).is_some());
    if let Some(first) = v.as_array().and_then(|a| a.first()) {
        let record = has(first, &["start_time", "end_time"]) && (first.get("info").is_some() || first.get("error").is_some());
        return record.then_some(Kind::Requests);
    }
    has(v, &["load_summary", "successes", "failures"]).then_some(Kind::Summary)
}

/// A YAML document of an inference-perf file: a stage report or the resolved config.
pub fn yaml_kind(v: &Yaml) -> Option<Kind> {
    let uid = side::at(v, "run.uid").and_then(Yaml::as_str).unwrap_or("");
    if uid.starts_with("inference-perf-stage-") || (side::at(v, "run.time.start").is_some() && side::at(v, "results.request_performance").is_some()) {
        return Some(Kind::StageReport);
    }
    (side::at(v, "load.stages").is_some() && side::at(v, "report.request_lifecycle").is_some()).then_some(Kind::Config)
}

/// The start of a per-request file cut short (not valid JSON, but recognisably its records).
pub fn looks_like_requests(head: &str) -> bool {
    head.trim_start().starts_with('[') && head.contains("\"start_time\":") && head.contains("\"end_time\":") && head.contains("\"info\":")
}

enum Parsed {
    Requests(Vec<Record>),
    Summary(Vec<(Vec<String>, f64)>),
    Stage(StageWindow, Vec<(Vec<String>, f64)>),
    Config(Plan),
}

/// Parses the inference-perf files of one import together: the stage reports anchor the
/// per-request file's clock, and the summaries are recomputed from its records. Returns one
/// `Imported` per input, in order.
pub fn parse_set(inputs: &[(&Path, &[u8])], o: &ImportOptions) -> Result<Vec<Imported>, ImportError> {
    let parsed: Vec<Parsed> = inputs.iter().map(|(p, b)| parse_one(p, b)).collect::<Result<_, _>>()?;
    let one = |want: fn(&Parsed) -> bool, what: &str| -> Result<Option<usize>, ImportError> {
        let found: Vec<usize> = (0..parsed.len()).filter(|&i| want(&parsed[i])).collect();
        match found.as_slice() {
            [_, second, ..] => {
                Err(ImportError::new(inputs[*second].0, None, format!("a second inference-perf {what} (after {})", inputs[found[0]].0.display()))
                    .hint("import one run's output folder at a time"))
            }
            _ => Ok(found.first().copied()),
        }
    };
    let req_at = one(|p| matches!(p, Parsed::Requests(_)), "per-request file")?;
    let plan = one(|p| matches!(p, Parsed::Config(_)), "config.yaml")?.and_then(|i| match &parsed[i] {
        Parsed::Config(p) => Some(p.clone()),
        _ => None,
    });
    let windows: Vec<StageWindow> = parsed.iter().filter_map(|p| if let Parsed::Stage(w, _) = p { Some(w.clone()) } else { None }).collect();
    let records: Option<&[Record]> = req_at.and_then(|i| if let Parsed::Requests(r) = &parsed[i] { Some(r.as_slice()) } else { None });
    let anchor = match (req_at, records) {
        (Some(i), Some(r)) => Some(clock::anchor(inputs[i].0, r, &windows, plan.as_ref(), o)?),
        _ if o.start_ns.is_some() => {
            return Err(ImportError::new(
                inputs[0].0,
                None,
                "--start anchors the times of inference-perf's per_request_lifecycle_metrics.json, which is not among the files",
            ));
        }
        _ => None,
    };
    if let Some(a) = &anchor {
        same_run(inputs, &parsed, a)?;
    }
    let defs = plan.as_ref().map_or(Defs::default(), |p| Defs { use_server_output_tokens: p.use_server_output_tokens, tokenizer: p.tokenizer });
    let ctx = Context { records, anchor: anchor.as_ref(), plan: plan.as_ref(), windows: &windows, defs };
    Ok(inputs.iter().zip(&parsed).map(|((path, _), p)| ctx.imported(path, p)).collect())
}

/// A stage report counts the requests of its stage (`requests.total`): the per-request file
/// must hold as many in its window, or the files are not of one run.
fn same_run(inputs: &[(&Path, &[u8])], parsed: &[Parsed], anchor: &Anchor) -> Result<(), ImportError> {
    let total = ["request_performance", "aggregate", "requests", "total"];
    for ((path, _), p) in inputs.iter().zip(parsed) {
        let Parsed::Stage(w, numbers) = p else { continue };
        let Some((_, n)) = numbers.iter().find(|(k, _)| k.iter().map(String::as_str).eq(total)) else { continue };
        let mine = anchor.stages.iter().filter(|s| **s == Some(w.id)).count();
        if *n != mine as f64 {
            return Err(ImportError::new(
                path,
                Some("key results.request_performance.aggregate.requests.total".into()),
                format!("stage {} counts {n} requests, but {mine} records of the per-request file fall in its window (run.time): not the same run", w.id),
            )
            .hint("give the files of one output folder"));
        }
    }
    Ok(())
}

fn parse_one(path: &Path, bytes: &[u8]) -> Result<Parsed, ImportError> {
    if matches!(bytes.iter().find(|b| !b.is_ascii_whitespace()), Some(b'[' | b'{')) {
        let v = records::parse_json_located(path, bytes)?;
        return match json_kind(&v) {
            Some(Kind::Summary) => Ok(Parsed::Summary(numbers_of(&v))),
            _ if v.is_array() => Ok(Parsed::Requests(records::parse(path, &v)?)),
            _ => Err(ImportError::new(path, None, "JSON of no inference-perf kind: expected the per-request array or a lifecycle summary")),
        };
    }
    let y = side::parse_yaml(path, bytes)?;
    match yaml_kind(&y) {
        Some(Kind::StageReport) => {
            let results = side::at(&y, "results")
                .map(serde_json::to_value)
                .transpose()
                .map_err(|e| ImportError::new(path, Some("key results".into()), format!("not readable as numbers by key: {e}")))?;
            Ok(Parsed::Stage(side::stage_window(path, &y)?, results.as_ref().map(numbers_of).unwrap_or_default()))
        }
        Some(Kind::Config) => Ok(Parsed::Config(side::plan(path, &y)?)),
        _ => Err(ImportError::new(path, None, "YAML of no inference-perf kind: expected a stage report (run.time, results) or config.yaml (load.stages)")),
    }
}

fn numbers_of(v: &Value) -> Vec<(Vec<String>, f64)> {
    let mut out = Vec::new();
    claims::numbers(v, &mut Vec::new(), &mut out);
    out
}

/// What every file's `Imported` is built from.
struct Context<'a> {
    records: Option<&'a [Record]>,
    anchor: Option<&'a Anchor>,
    plan: Option<&'a Plan>,
    windows: &'a [StageWindow],
    defs: Defs,
}

impl Context<'_> {
    fn imported(&self, path: &Path, p: &Parsed) -> Imported {
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let mut out = Imported { tool: "inference-perf".into(), ..Default::default() };
        match p {
            Parsed::Requests(r) => self.requests(&mut out, r),
            Parsed::Summary(n) => self.claims(&mut out, &name, n, Layout::Lifecycle, claims::scope_of(&name)),
            Parsed::Stage(w, n) => self.claims(&mut out, &name, n, Layout::StageReport, Scope::Stage(w.id)),
            Parsed::Config(plan) => {
                out.workload = Some(side::workload(plan));
                out.aggregate_only = Some("inference-perf's config.yaml: the run's settings, no requests".into());
            }
        }
        out
    }

    fn claims(&self, out: &mut Imported, name: &str, numbers: &[(Vec<String>, f64)], layout: Layout, scope: Scope) {
        let pop = self.population(&scope);
        let (c, raw) = claims::claims(name, numbers, layout, pop.as_deref(), self.defs);
        out.claims = c;
        out.raw.extend(raw);
        out.aggregate_only = Some(format!("{name} is an inference-perf summary: statistics only"));
    }

    /// The records a summary of `scope` covers, or why they cannot be told.
    fn population(&self, scope: &Scope) -> Result<Vec<&Record>, Definition> {
        let (Some(records), Some(anchor)) = (self.records, self.anchor) else {
            return Err(Definition::id("def-inference-perf-give-records"));
        };
        let mut known: BTreeSet<u32> = self.windows.iter().map(|w| w.id).collect();
        if self.plan.is_some_and(|p| p.stages.len() == 1) && anchor.stages.iter().all(|s| *s == Some(0)) {
            known.insert(0);
        }
        let in_stage = |k: u32| -> Result<Vec<bool>, Definition> {
            if !known.contains(&k) {
                return Err(Definition(Message::new("def-inference-perf-no-stage").int("stage", k)));
            }
            Ok(anchor.stages.iter().map(|s| *s == Some(k)).collect())
        };
        let keep: Vec<bool> = match scope {
            Scope::All => vec![true; records.len()],
            Scope::Stage(k) => in_stage(*k)?,
            Scope::Adapter(a) => records.iter().map(|r| r.lora_adapter.as_deref() == Some(a)).collect(),
            Scope::AdapterStage(a, k) => in_stage(*k)?.iter().zip(records).map(|(s, r)| *s && r.lora_adapter.as_deref() == Some(a)).collect(),
            Scope::Unknown => {
                return Err(Definition::id("def-inference-perf-file-name"));
            }
        };
        Ok(records.iter().zip(keep).filter(|(_, k)| *k).map(|(r, _)| r).collect())
    }

    fn requests(&self, out: &mut Imported, records: &[Record]) {
        let Some(anchor) = self.anchor else { return };
        for r in records {
            out.requests.push(records::row(r, anchor.offset_ns));
        }
        out.timestamps = Some(TimestampQuality::Absolute);
        out.conversion = vec![anchor.note.clone(), token_note(records)];
        out.workload = Some(
            self.plan
                .map(side::workload)
                .unwrap_or_else(|| Workload { streaming: Some(records.iter().any(|r| !r.chunk_times.is_empty())), ..Workload::unknown() }),
        );
        out.config = self.plan.map(side::system).unwrap_or_default();
        out.phases.warmup_requests = Some(0);
        out.phases.warmup_included = Some(false);
        out.phases.note = Some(self.stages_note(anchor));
        out.capabilities = Some(capabilities(anchor, self.plan));
    }

    /// The stages: as configured, and how many records each holds.
    fn stages_note(&self, anchor: &Anchor) -> String {
        let count = |k: u32| anchor.stages.iter().filter(|s| **s == Some(k)).count();
        let placed = |k: u32| self.windows.iter().any(|w| w.id == k) || anchor.stages.iter().all(|s| *s == Some(0));
        let ids: BTreeSet<u32> = self.windows.iter().map(|w| w.id).chain(0..self.plan.map_or(0, |p| p.stages.len() as u32)).collect();
        let each: Vec<String> = ids
            .iter()
            .map(|&k| {
                let what = self.plan.filter(|p| (k as usize) < p.stages.len()).map(|p| format!(": {}", p.describe(k as usize))).unwrap_or_default();
                let n = if placed(k) { format!("{} records", count(k)) } else { "records not placed (no stage report)".into() };
                format!("stage {k}{what}, {n}")
            })
            .collect();
        format!(
            "inference-perf has no warm-up (its preprocessing stage −1 is not in its reports); stages run one after another: {}",
            if each.is_empty() { "unknown".into() } else { each.join("; ") }
        )
    }
}

/// How the token counts were chosen, and how far the client's count is from the server's.
fn token_note(records: &[Record]) -> String {
    let ok: Vec<&Record> = records.iter().filter(|r| r.ok()).collect();
    let diffs: Vec<f64> = ok.iter().filter_map(|r| Some(r.client_output_tokens? - r.usage.as_ref()?.output?)).filter(|d| *d != 0.0).collect();
    let range = match (diffs.iter().copied().reduce(f64::min), diffs.iter().copied().reduce(f64::max)) {
        (Some(a), Some(b)) if a == b => format!(" (by {a:+})"),
        (Some(a), Some(b)) => format!(" (by {a:+} to {b:+})"),
        _ => String::new(),
    };
    format!(
        "output_tokens: the server's usage.completion_tokens (else the client's count); the client's re-tokenized count (info.response_metrics.output_tokens) differs on {} of {} successful requests{range}; input_tokens: info.request_metrics.text.input_tokens (the server's usage.prompt_tokens where given); a failed record's counts (0 in the file) are left unknown",
        diffs.len(),
        ok.len()
    )
}

fn capabilities(anchor: &Anchor, plan: Option<&Plan>) -> Capabilities {
    let mut notes = vec![
        "no scheduled send times per request (load_summary.schedule_delay only aggregates them): coordinated omission is not measurable".to_string(),
        "requests cancelled at a stage's teardown (Ctrl-C, a timeout) are absent from the per-request file".into(),
        "inference-perf does not record its own version; a stage report's `version: 0.2.1` is its report schema (BR 0.2.1)".into(),
    ];
    if anchor.assumed {
        notes.push("clock anchor ASSUMED: given with --start, not read from the tool's output".into());
    }
    let rates: BTreeSet<String> = plan.map(|p| p.stages.iter().map(|s| format!("{:?}{:?}", s.rate, s.concurrency)).collect()).unwrap_or_default();
    if rates.len() > 1 {
        notes
            .push("several stages at different loads: one steady-state analysis spans them all; each stage's own numbers are its stage_N files' claims".into());
    }
    Capabilities { timestamps: "absolute".into(), scheduled_times: false, itl: "chunk".into(), warmup: "excluded".into(), notes }
}
