//! AIPerf's other files that tell what the summary leaves out: `logs/aiperf.log` (how many
//! requests a phase sent, completed and cancelled: the requests cancelled in flight are absent
//! from every other file) and `phase_manifest.json` (with a warm-up: each phase's exact window
//! and counts). Both yield facts only.

use std::path::Path;

use serde_json::Value;

use crate::json::parse as parse_json;
use crate::{ImportError, ImportOptions, Imported};

/// What to pass these files with.
const PASS_WITH: &str = "pass it with profile_export.jsonl and profile_export_aiperf.json";

/// `logs/aiperf.log`: the `PhaseRunner` lines `Phase <name> (<kind>) sending complete | sent=…,
/// completed=…, in_flight=…` and `… complete | completed=…, cancelled=…, errors=…`, and a signal
/// that stopped the run, as facts `aiperf.log.<kind>.<count>`.
pub fn parse_log(_path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = Imported {
        tool: "aiperf".into(),
        aggregate_only: Some(format!("AIPerf's log only counts the requests each phase sent, completed and cancelled; {PASS_WITH}")),
        ..Default::default()
    };
    for (i, line) in text.lines().enumerate() {
        if let Some((kind, what, counts)) = phase_line(line) {
            let name = format!("aiperf.log.{kind}");
            out.facts.push((format!("{name}.{what}"), format!("line {}: {counts}", i + 1)));
            for (k, n) in counts.split(", ").filter_map(|kv| kv.split_once('=')) {
                if n.parse::<u64>().is_ok() {
                    let key = if what == "sending_complete" { format!("{name}.sending.{k}") } else { format!("{name}.{k}") };
                    out.facts.push((key, n.to_string()));
                }
            }
        } else if let Some(at) = line.find("Signal ").filter(|_| line.contains("received")) {
            out.facts.push(("aiperf.log.signal".into(), format!("line {}: {}", i + 1, &line[at..])));
        }
    }
    Ok(out)
}

/// A `PhaseRunner` phase line: the phase kind, `complete` or `sending_complete`, and the
/// counts between the first and second `|`.
fn phase_line(line: &str) -> Option<(&str, &'static str, &str)> {
    let rest = &line[line.find(" - PhaseRunner - ")?..];
    let rest = &rest[rest.find("Phase ")? + 6..];
    let (head, tail) = rest.split_once(" | ")?;
    let what = if head.ends_with(") sending complete") {
        "sending_complete"
    } else if head.ends_with(") complete") {
        "complete"
    } else {
        return None;
    };
    let kind = &head[head.find('(')? + 1..head.rfind(')')?];
    Some((kind, what, tail.split(" | ").next().unwrap_or(tail)))
}

/// `phase_manifest.json`: `phases[{phase_kind, start_ns, end_ns, total_request_count,
/// successful_request_count, error_request_count, was_cancelled}]` as facts
/// `aiperf.manifest.<kind>.…`; `window_s` is end − start, AIPerf's throughput denominator.
pub fn parse_phase_manifest(path: &Path, bytes: &[u8], _o: &ImportOptions) -> Result<Imported, ImportError> {
    let v = parse_json(path, bytes)?;
    let list = v.get("phases").and_then(Value::as_array).ok_or_else(|| ImportError::new(path, Some("key phases".into()), "expected a list of phases"))?;
    let mut out = Imported {
        tool: "aiperf".into(),
        aggregate_only: Some(format!("AIPerf's phase_manifest.json holds each phase's window and counts only; {PASS_WITH}")),
        ..Default::default()
    };
    for (i, p) in list.iter().enumerate() {
        let kind = p
            .get("phase_kind")
            .and_then(Value::as_str)
            .ok_or_else(|| ImportError::new(path, Some(format!("key phases[{i}].phase_kind")), "expected the phase's kind (warmup or profiling)"))?;
        let name = format!("aiperf.manifest.{kind}");
        for k in ["total_request_count", "successful_request_count", "error_request_count", "was_cancelled"] {
            if let Some(x) = p.get(k).filter(|x| !x.is_null()) {
                out.facts.push((format!("{name}.{k}"), x.to_string()));
            }
        }
        let ns = |k: &str| p.get(k).and_then(Value::as_i64);
        if let (Some(a), Some(b)) = (ns("start_ns"), ns("end_ns")) {
            // Epoch nanoseconds, the end at or after the start (found by fuzzing: a negative
            // start and a far end overflowed the subtraction).
            let window = b.checked_sub(a).filter(|w| a >= 0 && *w >= 0).ok_or_else(|| {
                ImportError::new(
                    path,
                    Some(format!("key phases[{i}].end_ns")),
                    "expected start_ns and end_ns in nanoseconds since the epoch, the end at or after the start",
                )
            })?;
            out.facts.push((format!("{name}.window_s"), (window as f64 / 1e9).to_string()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_window_that_is_not_a_time_span_is_refused_where_it_is() {
        let manifest = |start: i64, end: i64| format!(r#"{{"phases": [{{"phase_kind": "profiling", "start_ns": {start}, "end_ns": {end}}}]}}"#);
        let ok = parse_phase_manifest(Path::new("phase_manifest.json"), manifest(1_000_000_000, 3_500_000_000).as_bytes(), &ImportOptions::default()).unwrap();
        assert!(ok.facts.iter().any(|f| f.0 == "aiperf.manifest.profiling.window_s" && f.1 == "2.5"), "{:?}", ok.facts);
        // From the fuzzer: a negative start and a far end, whose difference overflows i64.
        for (start, end) in [(-1_796_076_512_032_239_882, 9_067_761_522_527_999_282), (2_000, 1_000)] {
            let err = parse_phase_manifest(Path::new("phase_manifest.json"), manifest(start, end).as_bytes(), &ImportOptions::default()).unwrap_err();
            let said = err.to_string();
            assert!(said.contains("phase_manifest.json") && said.contains("phases[0].end_ns") && said.contains("at or after the start"), "{said}");
        }
    }

    #[test]
    fn phase_lines_give_their_counts() {
        let log = "2026-11-30 22:10:31.098 - PhaseRunner - NOTICE - Phase profiling (profiling) sending complete | sent=31, completed=27, in_flight=4 | sessions: sent=31\n\
                   2026-11-30 22:10:31.106 - PhaseRunner - NOTICE - Phase profiling (profiling) complete | completed=27, cancelled=4, errors=0 | sessions: completed=27\n\
                   2026-11-30 22:11:22.982 - system_controller - WARNING - Signal 2 received, initiating graceful shutdown\n";
        let out = parse_log(Path::new("aiperf.log"), log.as_bytes(), &ImportOptions::default()).unwrap();
        let fact = |k: &str| out.facts.iter().find(|f| f.0 == k).map(|f| f.1.as_str());
        assert_eq!(fact("aiperf.log.profiling.cancelled"), Some("4"));
        assert_eq!(fact("aiperf.log.profiling.sending.in_flight"), Some("4"));
        assert_eq!(fact("aiperf.log.profiling.complete"), Some("line 2: completed=27, cancelled=4, errors=0"));
        assert_eq!(fact("aiperf.log.signal"), Some("line 3: Signal 2 received, initiating graceful shutdown"));
    }
}
