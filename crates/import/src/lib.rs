//! Importers: other tools' outputs into a run directory, so anyone's benchmark can be audited.
//!
//! Each format module parses its files into `Imported` (per-request rows, telemetry rows, what
//! the source can tell, and the tool's own summary numbers as `Claim`s). `import` detects
//! formats, merges one request source with any telemetry sources, converts every time to epoch
//! ns UTC, records provenance (name, size, sha256) and builds the `RunData` that `write_run`
//! writes atomically (temporary folder, then rename: no half-written run directory).

pub mod aiperf;
pub mod dcgm;
pub mod detect;
pub mod dmon;
pub mod folder;
pub mod guidellm;
pub mod inference_perf;
pub mod json;
pub mod llmperf;
pub mod mlc_endpoints;
pub mod mlperf;
pub mod nvidia_smi;
pub mod perf_analyzer;
pub mod sglang;
pub mod time;
pub mod vllm;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use credence_run::claims;
pub use credence_run::claims::Claim;
use credence_run::manifest::*;
use credence_run::rows::{GpuRows, RequestRows};
use credence_run::write::RunData;
pub use detect::Format;

/// Why an import failed: the file, where in it, and what was expected.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{file}{}: {message}", at.as_ref().map(|a| format!(", {a}")).unwrap_or_default())]
pub struct ImportError {
    pub file: String,
    /// `line 12`, `key ttfts[3]`, …
    pub at: Option<String>,
    pub message: String,
    pub hint: Option<String>,
    /// The message in the catalog's words (`locales/*/cli.ftl`), where a folder's walk lists the
    /// file as set aside in the user's language; None where only the English above exists.
    pub words: Option<credence_messages::Message>,
}

impl ImportError {
    pub fn new(file: &Path, at: Option<String>, message: impl Into<String>) -> ImportError {
        ImportError { file: file.display().to_string(), at, message: message.into(), hint: None, words: None }
    }

    /// The catalog's message for `message`, whose English it renders.
    pub fn worded(file: &Path, words: credence_messages::Message) -> ImportError {
        ImportError { words: Some(words.clone()), ..ImportError::new(file, None, words.render(credence_messages::Lang::En)) }
    }

    pub fn hint(mut self, h: impl Into<String>) -> ImportError {
        self.hint = Some(h.into());
        self
    }
}

/// Options of `credence import`.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// UTC offset in seconds for zone-less local times (`--tz`); None when not given.
    pub tz_offset_s: Option<i64>,
    pub tz_text: Option<String>,
    /// `--start`: the wall-clock time (epoch ns) of the first request's send, for files whose
    /// times carry no date and nothing else anchors them (inference-perf); None when not given.
    pub start_ns: Option<i64>,
    pub start_text: Option<String>,
    pub labels: BTreeMap<String, String>,
    /// The language of the lines printed while reading (the files set aside): the command's
    /// `--lang`, so that a Chinese `plan` or `baseline` says "已跳过" too.
    pub lang: credence_messages::Lang,
}

/// What one request source yields.
#[derive(Debug, Default)]
pub struct Imported {
    pub requests: RequestRows,
    pub gpu: GpuRows,
    pub tool: String,
    pub tool_version: Option<String>,
    pub config: SystemConfig,
    pub workload: Option<Workload>,
    pub timestamps: Option<TimestampQuality>,
    pub conversion: Vec<String>,
    pub timezone_assumed: Option<String>,
    pub capabilities: Option<Capabilities>,
    pub phases: DeclaredPhases,
    /// The tool's own summary numbers, for `audit`.
    pub claims: Vec<Claim>,
    /// The tool's raw per-request values (its own definitions), to recompute the claims.
    pub raw: claims::RawValues,
    /// Run-level facts a summary file carries (e.g. MLPerf's validity), for `audit`.
    pub facts: Vec<(String, String)>,
    /// Set when the file holds no per-request data (refused by `import`, audited by `audit`).
    pub aggregate_only: Option<String>,
}

/// The result of an import: the run, and what `audit` checks.
pub struct ImportResult {
    pub data: RunData,
    pub claims: Vec<Claim>,
    pub raw: claims::RawValues,
    pub facts: Vec<(String, String)>,
    pub formats: Vec<(PathBuf, Format)>,
    /// Source rows kept as failed `invalid_source_row` rows, and the first one's message.
    pub invalid_rows: Option<(usize, String)>,
}

fn sha256_file(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn unknown_environment(tool: &str) -> Environment {
    let why = format!("not recorded by {tool}");
    Environment {
        gpu_temp_at_start_c: Observed::unknown(&why),
        gpu_cooling_down: Observed::unknown(&why),
        foreign_gpu_processes: Observed::unknown(&why),
        clocks_locked: Observed::unknown(&why),
        application_clocks_set: Observed::unknown(&why),
        persistence_mode: Observed::unknown(&why),
        cpu_governor: Observed::unknown(&why),
        gpu_memory_used_bytes: Observed::unknown(&why),
        host_memory_used_bytes: Observed::unknown(&why),
        page_cache_dropped: Observed::unknown(&why),
        server_restarted: Observed::unknown(&why),
        model_path: Observed::unknown(&why),
        driver_version: Observed::unknown(&why),
        cuda_version: Observed::unknown(&why),
        nvml_version: Observed::unknown(&why),
        engine_version: Observed::unknown(&why),
        kernel: Observed::unknown(&why),
        cpu_model: Observed::unknown(&why),
        prefix_cache_reset: Observed::default(),
    }
}

/// Reads a file, with the error naming it.
pub fn read(path: &Path) -> Result<Vec<u8>, ImportError> {
    std::fs::read(path).map_err(|e| ImportError::new(path, None, format!("cannot read: {e}")))
}

/// Parses one file as `format` (or detects it). `origin_ns` is an MLPerf detail log's date,
/// when one is among the inputs (it anchors the trace).
fn parse(path: &Path, bytes: &[u8], format: Format, o: &ImportOptions, origin_ns: Option<i64>) -> Result<Imported, ImportError> {
    match format {
        Format::MlperfTrace => mlperf::parse_trace(path, bytes, origin_ns),
        Format::Vllm => vllm::parse(path, bytes, o),
        Format::Sglang => sglang::parse(path, bytes, o),
        Format::Llmperf => llmperf::parse(path, bytes, o),
        Format::LlmperfSummary => llmperf::parse_summary(path, bytes),
        Format::PerfAnalyzer => perf_analyzer::parse(path, bytes, o),
        Format::Aiperf => aiperf::parse(path, bytes, o),
        Format::Mlperf => mlperf::parse(path, bytes, o),
        Format::NvidiaSmi => nvidia_smi::parse(path, bytes, o),
        Format::NvidiaSmiDmon => dmon::parse(path, bytes, o),
        Format::Dcgm => dcgm::parse(path, bytes, o),
        Format::AiperfGpu => aiperf::parse_gpu(path, bytes, o),
        Format::Guidellm => guidellm::parse(path, bytes, o),
        Format::InferencePerf | Format::InferencePerfSummary | Format::InferencePerfStage | Format::InferencePerfConfig => {
            inference_perf::parse_set(&[(path, bytes)], o)?.into_iter().next().ok_or_else(|| ImportError::new(path, None, "nothing was read"))
        }
        Format::MlcEndpoints => mlc_endpoints::parse(path, bytes, o),
        Format::GenaiPerfAggregate => Err(ImportError::new(
            path,
            None,
            "this is GenAI-Perf's aggregate file (profile_export_genai_perf.json): it holds only summary statistics, no per-request data",
        )
        .hint("import profile_export.json from the same artifacts folder instead (format perf-analyzer)")),
        Format::AiperfAggregate => aiperf::parse_aggregate(path, bytes, o),
        Format::AiperfLog => aiperf::parse_log(path, bytes, o),
        Format::AiperfPhaseManifest => aiperf::parse_phase_manifest(path, bytes, o),
        Format::Unsupported(key) => Err(ImportError::new(path, None, format!("not read: {}", detect::unsupported(key).render(credence_messages::Lang::En)))),
        Format::Auto => unreachable!("detected before parsing"),
    }
}

/// Imports `paths` into run data: files, or a folder holding one run (see `folder::gather`,
/// which the CLI calls itself to list what it set aside and to import a folder of several
/// runs). One file must carry per-request data; others may add GPU telemetry or the tool's
/// summary (for `audit`).
pub fn import(paths: &[PathBuf], format: Format, o: &ImportOptions, allow_aggregate_only: bool) -> Result<ImportResult, ImportError> {
    let mut gathered = folder::gather(paths, format)?;
    if gathered.runs.len() > 1 {
        return Err(several_runs(&paths[0], &gathered.runs));
    }
    import_run(gathered.runs.remove(0), o, allow_aggregate_only)
}

/// Imports the files of one run.
pub fn import_run(run: folder::RunFiles, o: &ImportOptions, allow_aggregate_only: bool) -> Result<ImportResult, ImportError> {
    import_inputs(run.inputs, o, allow_aggregate_only)
}

/// The error when one run is wanted and the paths hold several.
pub fn several_runs(path: &Path, runs: &[folder::RunFiles]) -> ImportError {
    let names: Vec<&str> = runs.iter().map(|r| r.name.as_str()).collect();
    ImportError::new(path, None, format!("holds {} runs ({}): one run is wanted here", runs.len(), names.join(", ")))
        .hint("give one run's folder, or `credence import` the folder into a series and `credence report` that")
}

/// Imports one file already in memory, as `import` would read it from `path` (which is only
/// named, never opened): for fuzzing and tests that feed bytes without a file.
pub fn import_bytes(path: &Path, bytes: Vec<u8>, format: Format, o: &ImportOptions, allow_aggregate_only: bool) -> Result<ImportResult, ImportError> {
    let format = if format == Format::Auto { detect::detect(path, &bytes)? } else { format };
    import_inputs(vec![Input { path: path.to_path_buf(), bytes, format }], o, allow_aggregate_only)
}

/// The import of inputs already read and detected.
fn import_inputs(inputs: Vec<Input>, o: &ImportOptions, allow_aggregate_only: bool) -> Result<ImportResult, ImportError> {
    let first_path = inputs[0].path.clone();
    let (files, mut parts) = parse_all(&inputs, o)?;
    aiperf::combine(&mut parts);
    let formats: Vec<(PathBuf, Format)> = parts.iter().map(|(p, f, _)| (p.clone(), *f)).collect();
    let main = the_request_source(&parts)?;
    let claims: Vec<Claim> = parts.iter().flat_map(|p| p.2.claims.iter().cloned()).collect();
    let mut raw = claims::RawValues::new();
    for p in &parts {
        for (k, v) in &p.2.raw {
            raw.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let facts: Vec<(String, String)> = parts.iter().flat_map(|p| p.2.facts.iter().cloned()).collect();
    let Some(main) = main else {
        let why = parts.iter().find_map(|p| p.2.aggregate_only.clone().map(|w| (p.0.clone(), w)));
        let (file, why) = why.unwrap_or_else(|| (first_path, "none of the files carries per-request data".into()));
        if allow_aggregate_only {
            return Ok(ImportResult { data: empty_run(&mut parts, files, o)?, claims, raw, facts, formats, invalid_rows: None });
        }
        return Err(ImportError::new(&file, None, format!("no per-request data: {why}"))
            .hint("import the tool's per-request file with it; `credence audit` can still check this file's own claims"));
    };
    let mut main = parts.swap_remove(main);
    let invalid_rows = quarantine(&mut main)?;
    let data = run_data(main, &mut parts, files, o)?;
    Ok(ImportResult { data, claims, raw, facts, formats, invalid_rows })
}

/// Keeps the request source's rows that break the contract as failed `invalid_source_row`
/// rows, so an importer never leaves a run that `validate` rejects; returns how many and the
/// first one's message.
fn quarantine((path, _, part): &mut Part) -> Result<Option<(usize, String)>, ImportError> {
    let absolute = part.timestamps.unwrap_or(TimestampQuality::Absolute) == TimestampQuality::Absolute;
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let n = part.requests.quarantine_invalid(&name, absolute).map_err(|why| ImportError::new(path, None, why))?;
    let first = part.requests.rows.iter().find(|r| r.error_kind == Some("invalid_source_row")).and_then(|r| r.error_message.clone());
    Ok((n > 0).then(|| (n, first.unwrap_or_default())))
}

/// One parsed input: its path, its format and what it yielded.
pub(crate) type Part = (PathBuf, Format, Imported);

/// One input file: its path, its bytes and its format (given or detected).
pub(crate) struct Input {
    path: PathBuf,
    bytes: Vec<u8>,
    format: Format,
}

/// Parses every input, recording each file's provenance.
fn parse_all(inputs: &[Input], o: &ImportOptions) -> Result<(Vec<SourceFile>, Vec<Part>), ImportError> {
    // An MLPerf detail log among the inputs dates the trace.
    let origin_ns = inputs.iter().find_map(|i| std::str::from_utf8(&i.bytes).ok().filter(|t| t.contains(":::MLLOG")).and_then(mlperf::origin_of));
    // inference-perf's files are read together: its stage reports date the per-request file.
    let set: Vec<(&Path, &[u8])> = inputs.iter().filter(|i| i.format.is_inference_perf()).map(|i| (i.path.as_path(), i.bytes.as_slice())).collect();
    let mut together = if set.is_empty() { Vec::new() } else { inference_perf::parse_set(&set, o)? }.into_iter();
    if o.start_ns.is_some() && set.is_empty() {
        return Err(ImportError::new(
            &inputs[0].path,
            None,
            "--start anchors files whose times carry no date (inference-perf's per_request_lifecycle_metrics.json); none of these needs it",
        )
        .hint("leave --start out"));
    }
    let mut files = Vec::new();
    let mut parts: Vec<Part> = Vec::new();
    for Input { path, bytes, format } in inputs {
        let read_together = if format.is_inference_perf() { together.next() } else { None };
        let imported = match read_together {
            Some(x) => x,
            None => parse(path, bytes, *format, o, origin_ns)?,
        };
        files.push(SourceFile {
            name: path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned()),
            size_bytes: bytes.len() as u64,
            sha256: sha256_file(bytes),
        });
        parts.push((path.clone(), *format, imported));
    }
    Ok((files, parts))
}

/// The one input that carries per-request data, if any; several is an error.
fn the_request_source(parts: &[Part]) -> Result<Option<usize>, ImportError> {
    let with_requests: Vec<usize> = (0..parts.len()).filter(|&i| !parts[i].2.requests.is_empty()).collect();
    if with_requests.len() > 1 {
        let names: Vec<String> = with_requests.iter().map(|&i| parts[i].0.display().to_string()).collect();
        return Err(ImportError::new(
            &parts[with_requests[1]].0,
            None,
            format!("several files carry per-request data ({}): one run directory holds one run", names.join(", ")),
        )
        .hint("import each into its own run directory"));
    }
    Ok(with_requests.first().copied())
}

/// The run from the request source, joined with the telemetry of every input.
fn run_data(main: Part, others: &mut [Part], files: Vec<SourceFile>, o: &ImportOptions) -> Result<RunData, ImportError> {
    let (main_path, main_format, mut main_part) = main;
    // Telemetry from the other files (and the main file's own, e.g. AIPerf's).
    let mut gpu = std::mem::take(&mut main_part.gpu);
    let mut conversions = main_part.conversion.clone();
    for (_, _, p) in others.iter_mut() {
        gpu.extend(std::mem::take(&mut p.gpu));
        conversions.extend(p.conversion.iter().cloned());
    }
    let timestamps = main_part.timestamps.unwrap_or(TimestampQuality::Absolute);
    if !gpu.is_empty() && timestamps != TimestampQuality::Absolute {
        return Err(ImportError::new(&main_path, None, "GPU telemetry cannot be joined: this file's request times are not anchored to wall-clock time")
            .hint("pass --tz with the UTC offset of the machine that wrote the file"));
    }
    let requests = std::mem::take(&mut main_part.requests).into_table().map_err(|e| ImportError::new(&main_path, None, e))?;
    let gpu_table = if gpu.is_empty() { None } else { Some(gpu.into_table().map_err(|e| ImportError::new(&main_path, None, e))?) };
    let mut tables = vec!["requests".to_string()];
    if gpu_table.is_some() {
        tables.push("gpu".into());
    }
    let clock = import_clock(&main_part, main_format, others, timestamps, gpu_table.is_some(), conversions);
    let manifest = import_manifest(&main_part, main_format, files, o, clock, tables);
    Ok(RunData { manifest, requests, gpu: gpu_table, host: None, server: None, extra_files: Vec::new() })
}

/// The clock of an imported run: whose clock each table used and how times were converted.
fn import_clock(main: &Imported, format: Format, others: &[Part], timestamps: TimestampQuality, has_gpu: bool, conversions: Vec<String>) -> Clock {
    let mut clock_tables = BTreeMap::from([("requests".to_string(), format!("{} ({})", main.tool, format.name()))]);
    if has_gpu {
        clock_tables.insert("gpu".into(), "telemetry tool's clock (converted as stated in conversion)".into());
    }
    Clock {
        epoch_origin: "unix_epoch_utc".into(),
        timestamps,
        tables: clock_tables,
        telemetry_interval_s: has_gpu.then_some(1.0),
        timezone_assumed: main.timezone_assumed.clone().or_else(|| others.iter().find_map(|p| p.2.timezone_assumed.clone())),
        conversion: Some(conversions.join("; ")),
    }
}

/// The manifest of an imported run: its source files, labels and what the tool declared.
fn import_manifest(main: &Imported, format: Format, files: Vec<SourceFile>, o: &ImportOptions, clock: Clock, tables: Vec<String>) -> Manifest {
    let mut labels = o.labels.clone();
    labels.entry("imported_from".into()).or_insert_with(|| format.name().to_string());
    Manifest {
        format_version: credence_run::schema::FORMAT_VERSION,
        run_id: format!("import-{}", files.first().map_or("run", |f| &f.sha256[..12])),
        creator: Creator { tool: "credence".into(), version: env!("CARGO_PKG_VERSION").into() },
        source: Source {
            kind: SourceKind::Importer,
            name: format.name().into(),
            tool_version: main.tool_version.clone(),
            files,
            seed: None,
            capabilities: main.capabilities.clone(),
        },
        labels,
        config: main.config.clone(),
        workload: main.workload.clone().unwrap_or_else(Workload::unknown),
        environment: unknown_environment(&main.tool),
        phases: main.phases.clone(),
        clock,
        tables,
        server_scrapes: None,
    }
}

/// A run with no requests, for auditing an aggregate-only file or a GPU capture alone: it
/// keeps the telemetry of every input.
fn empty_run(parts: &mut [Part], files: Vec<SourceFile>, o: &ImportOptions) -> Result<RunData, ImportError> {
    let mut gpu = GpuRows::default();
    let mut conversions = Vec::new();
    for (_, _, p) in parts.iter_mut() {
        gpu.extend(std::mem::take(&mut p.gpu));
        conversions.extend(p.conversion.iter().cloned());
    }
    let gpu_table = if gpu.is_empty() { None } else { Some(gpu.into_table().map_err(|e| ImportError::new(&parts[0].0, None, e))?) };
    let first = parts.first();
    let name = first.map_or("unknown", |p| p.1.name());
    let tool = first.map_or("unknown".to_string(), |p| p.2.tool.clone());
    let manifest = Manifest {
        format_version: credence_run::schema::FORMAT_VERSION,
        run_id: format!("audit-{}", files.first().map_or("run", |f| &f.sha256[..12])),
        creator: Creator { tool: "credence".into(), version: env!("CARGO_PKG_VERSION").into() },
        source: Source {
            kind: SourceKind::Importer,
            name: name.into(),
            tool_version: first.and_then(|p| p.2.tool_version.clone()),
            files,
            seed: None,
            capabilities: first.and_then(|p| p.2.capabilities.clone()),
        },
        labels: o.labels.clone(),
        config: first.map(|p| p.2.config.clone()).unwrap_or_default(),
        workload: first.and_then(|p| p.2.workload.clone()).unwrap_or_else(Workload::unknown),
        environment: unknown_environment(&tool),
        phases: DeclaredPhases::default(),
        clock: Clock {
            epoch_origin: "unix_epoch_utc".into(),
            timestamps: TimestampQuality::Absent,
            tables: if gpu_table.is_some() {
                BTreeMap::from([("gpu".into(), "telemetry tool's clock (converted as stated in conversion)".into())])
            } else {
                BTreeMap::new()
            },
            telemetry_interval_s: gpu_table.is_some().then_some(1.0),
            timezone_assumed: parts.iter().find_map(|p| p.2.timezone_assumed.clone()),
            conversion: Some(if conversions.is_empty() { "aggregate-only source: no per-request times".into() } else { conversions.join("; ") }),
        },
        tables: if gpu_table.is_some() { vec!["requests".into(), "gpu".into()] } else { vec!["requests".into()] },
        server_scrapes: None,
    };
    Ok(RunData {
        manifest,
        requests: RequestRows::default().into_table().expect("an empty table builds"),
        gpu: gpu_table,
        host: None,
        server: None,
        extra_files: Vec::new(),
    })
}
