//! Fuzz targets: one function per parser, taking arbitrary bytes. Each calls the real parser
//! and asserts what a caller relies on, not only that nothing panics: a panic here is the
//! fuzzer's signal. `fuzz/` (libFuzzer) and `tests/it/fuzz_corpus.rs` (CI's replay of the
//! committed corpus) both call these, so the replay runs exactly the fuzzed code paths.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::import::{Format, ImportOptions, import_bytes};
use crate::run::schema::TableKind;
use crate::run::table::Table;

/// A fuzz target: one input, checked; it panics on a broken invariant.
pub type Target = fn(&[u8]);

/// Every fuzz target by name, for the corpus replay: (name, function).
pub const TARGETS: &[(&str, Target)] = &[
    ("import_auto", import_auto),
    ("import_vllm", import_vllm),
    ("import_sglang", import_sglang),
    ("import_llmperf", import_llmperf),
    ("import_llmperf_summary", import_llmperf_summary),
    ("import_perf_analyzer", import_perf_analyzer),
    ("import_aiperf", import_aiperf),
    ("import_aiperf_gpu", import_aiperf_gpu),
    ("import_aiperf_aggregate", import_aiperf_aggregate),
    ("import_aiperf_log", import_aiperf_log),
    ("import_aiperf_phase_manifest", import_aiperf_phase_manifest),
    ("import_mlperf", import_mlperf),
    ("import_mlperf_trace", import_mlperf_trace),
    ("import_nvidia_smi", import_nvidia_smi),
    ("import_dmon", import_dmon),
    ("import_dcgm", import_dcgm),
    ("import_guidellm", import_guidellm),
    ("import_inference_perf", import_inference_perf),
    ("import_mlc_endpoints", import_mlc_endpoints),
    ("run_manifest", run_manifest),
    ("run_parquet", run_parquet),
    ("bench_sse", bench_sse),
    ("prometheus", prometheus),
    ("args", args),
];

/// A fresh, unused path under the temporary folder (RAM-backed where available: the import
/// targets write a run directory per input).
fn scratch_path(what: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let base = Path::new("/dev/shm");
    let base = if base.is_dir() { base.to_path_buf() } else { std::env::temp_dir() };
    base.join(format!("credence-fuzz-{}-{}-{what}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)))
}

/// Imports `data` as the file `name` in `format`, as `credence import` does; an import that
/// succeeds must write a run directory that `validate` accepts without errors.
fn import_as(name: &str, format: Format, data: &[u8]) {
    let Ok(result) = import_bytes(Path::new(name), data.to_vec(), format, &ImportOptions::default(), false) else { return };
    let out = scratch_path("run");
    crate::run::write::write_run(&out, &result.data).expect("an imported run is written");
    let report = crate::run::validate::validate(&out);
    let _ = std::fs::remove_dir_all(&out);
    let errors: Vec<String> = report.problems.iter().filter(|p| p.is_error()).map(|p| p.to_string()).collect();
    assert!(errors.is_empty(), "{name} imported as {} but the run is invalid: {errors:?}", format.name());
}

pub fn import_auto(data: &[u8]) {
    import_as("input.json", Format::Auto, data);
}
pub fn import_vllm(data: &[u8]) {
    import_as("vllm.json", Format::Vllm, data);
}
pub fn import_sglang(data: &[u8]) {
    import_as("sglang.jsonl", Format::Sglang, data);
}
pub fn import_llmperf(data: &[u8]) {
    import_as("individual_responses.json", Format::Llmperf, data);
}
pub fn import_llmperf_summary(data: &[u8]) {
    import_as("summary.json", Format::LlmperfSummary, data);
}
pub fn import_perf_analyzer(data: &[u8]) {
    import_as("profile_export.json", Format::PerfAnalyzer, data);
}
pub fn import_aiperf(data: &[u8]) {
    import_as("profile_export.jsonl", Format::Aiperf, data);
}
pub fn import_aiperf_gpu(data: &[u8]) {
    import_as("gpu_telemetry_export.jsonl", Format::AiperfGpu, data);
}
pub fn import_aiperf_aggregate(data: &[u8]) {
    import_as("profile_export_aiperf.json", Format::AiperfAggregate, data);
}
pub fn import_aiperf_log(data: &[u8]) {
    import_as("aiperf.log", Format::AiperfLog, data);
}
pub fn import_aiperf_phase_manifest(data: &[u8]) {
    import_as("phase_manifest.json", Format::AiperfPhaseManifest, data);
}
pub fn import_mlperf(data: &[u8]) {
    import_as("mlperf_log_detail.txt", Format::Mlperf, data);
}
pub fn import_mlperf_trace(data: &[u8]) {
    import_as("mlperf_log_trace.json", Format::MlperfTrace, data);
}
pub fn import_nvidia_smi(data: &[u8]) {
    import_as("nvidia-smi.csv", Format::NvidiaSmi, data);
}
pub fn import_dmon(data: &[u8]) {
    import_as("dmon.txt", Format::NvidiaSmiDmon, data);
}
pub fn import_dcgm(data: &[u8]) {
    import_as("dcgmi.txt", Format::Dcgm, data);
}
pub fn import_guidellm(data: &[u8]) {
    import_as("benchmarks.json", Format::Guidellm, data);
}
pub fn import_inference_perf(data: &[u8]) {
    import_as("per_request_lifecycle_metrics.json", Format::InferencePerf, data);
}
pub fn import_mlc_endpoints(data: &[u8]) {
    import_as("endpoints.json", Format::MlcEndpoints, data);
}

/// A damaged `run.json` beside a valid `requests.parquet`: loading and validating must fail
/// cleanly, and a manifest that parses must survive a write and re-read unchanged.
pub fn run_manifest(data: &[u8]) {
    let dir = scratch_path("manifest");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    Table::empty(TableKind::Requests).write_parquet(&dir.join(TableKind::Requests.file_name())).expect("an empty table is written");
    std::fs::write(dir.join(crate::run::MANIFEST_FILE), data).expect("run.json is written");
    let loaded = crate::run::read_manifest(&dir);
    let report = crate::run::validate::validate(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    if let Ok(m) = loaded {
        let again = crate::run::manifest::Manifest::from_json(&m.to_json()).expect("a written manifest reads back");
        assert_eq!(again.to_json(), m.to_json(), "run.json changes on a write and re-read");
    } else {
        assert!(!report.valid, "validate accepts a run.json that read_manifest rejects");
    }
}

/// A damaged `requests.parquet` beside a valid `run.json`: every reader must fail cleanly,
/// and a run that `validate` accepts must load.
pub fn run_parquet(data: &[u8]) {
    let dir = scratch_path("parquet");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::write(dir.join(crate::run::MANIFEST_FILE), valid_manifest()).expect("run.json is written");
    let requests = dir.join(TableKind::Requests.file_name());
    std::fs::write(&requests, data).expect("requests.parquet is written");
    let _ = crate::run::read::table_extent(&requests);
    let read = Table::read(&requests, TableKind::Requests);
    let report = crate::run::validate::validate(&dir);
    let loaded = crate::run::load(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    if report.valid {
        assert!(read.is_ok() && loaded.is_ok(), "validate accepts a run that does not load");
    }
}

/// The demo run's manifest, listing only the requests table.
fn valid_manifest() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let mut m = crate::run::manifest::Manifest::from_json(include_str!("../fixtures/demo/run.json")).expect("the demo manifest reads");
        m.tables = vec!["requests".into()];
        m.clock.tables.retain(|table, _| table == "requests");
        m.to_json()
    })
}

/// One HTTP response (after a first byte that sets the read size) through the bench client:
/// every request ends with an outcome, and a success has a status of 200 and a first token.
pub fn bench_sse(data: &[u8]) {
    let Some((&piece, response)) = data.split_first() else { return };
    let mut conn = crate::bench::http::Conn::replaying(response.to_vec(), usize::from(piece) + 1);
    let mut o = crate::bench::http::Observed::default();
    let request = crate::bench::http::request_bytes("127.0.0.1:8000", "/v1/completions", b"", b"{}");
    let after = crate::bench::http::post_stream(&mut conn, &request, &mut o);
    assert_ne!(after, crate::bench::http::After::Stale, "a fresh connection is never stale");
    if o.error.is_none() {
        assert_eq!(o.http_status, Some(200), "a success without status 200");
        assert!(o.first_token.is_some() && !o.chunks.is_empty(), "a success without a first token");
    }
    assert!(o.first_content.is_none() || o.first_token.is_some(), "content before any token");
    assert!(o.chunks.windows(2).all(|w| w[0] <= w[1]), "chunk times go backwards");
}

/// Prometheus text: every sample names a metric, and the samples build the server table.
pub fn prometheus(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let samples = crate::collect::scrape::parse(&text, "http://127.0.0.1:8000/metrics", 1);
    assert!(samples.len() <= text.lines().count(), "more samples than lines");
    for s in &samples {
        assert!(!s.metric.is_empty() && !s.metric.contains(char::is_whitespace), "metric name {:?}", s.metric);
    }
    crate::collect::scrape::table(&samples).expect("samples build the server table");
}

/// The small value parsers of the command line; the first byte picks which.
pub fn args(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    match which % 6 {
        0 => duration(&text),
        1 => fraction(&text),
        2 => tolerances(&text),
        3 => length_dist(&text),
        4 => header(&text),
        _ => delay(&text),
    }
}

fn duration(text: &str) {
    if let Ok(s) = crate::cli::args::parse_duration(text) {
        assert!(s.is_finite() && s > 0.0, "{text:?} parsed as {s} s");
    }
}

fn delay(text: &str) {
    // A delay is handed to `Duration`, which panics on values it cannot hold.
    let _ = crate::cli::args::delay_flag("--ttft", text);
}

fn fraction(text: &str) {
    if let Ok(f) = crate::cli::args::parse_fraction(text) {
        assert!((0.0..1.0).contains(&f), "{text:?} parsed as {f}");
    }
}

fn tolerances(text: &str) {
    let values: Vec<String> = text.split('\n').map(String::from).collect();
    if let Ok((global, per)) = crate::cli::args::parse_tolerances(&values) {
        assert!(std::iter::once(&global).chain(per.values()).all(|f| (0.0..1.0).contains(f)), "{text:?} parsed as {global}, {per:?}");
    }
}

fn length_dist(text: &str) {
    use rand::SeedableRng;
    let Ok(d) = crate::bench::lengths::LengthDist::parse(text) else { return };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..16 {
        let n = d.sample(&mut rng);
        assert!((1..=1 << 20).contains(&n), "{text:?} sampled {n}");
    }
    assert!(!d.describe().is_empty());
}

fn header(text: &str) {
    if let Ok((name, value)) = crate::bench::headers::parse_header(text) {
        assert!(!name.is_empty() && !value.chars().any(char::is_control), "{text:?} parsed as {name:?}: {value:?}");
        let again = crate::bench::headers::parse_header(&format!("{name}: {value}"));
        assert_eq!(again, Ok((name, value)), "a parsed header does not re-parse to itself");
    }
}
