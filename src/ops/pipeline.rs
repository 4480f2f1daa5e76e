//! The analysis pipeline that `analyze`, `compare`, `report`, `baseline`, `history` and `plan`
//! share: run folders loaded (`run::load`, after a check that the analysis fits in memory), the
//! request view built, then `analyze::analyze_series`. `benches/pipeline.rs` times it directly.

use std::path::{Path, PathBuf};

use crate::analyze::attribute::signals::{GPU_COLUMNS, HOST_COLUMNS, SERVER_COLUMNS};
use crate::analyze::attribute::{Telemetry, TelemetrySeries};
use crate::analyze::compare::{ArmRun, Comparison};
use crate::analyze::rates::ErrorExampleCounter;
use crate::analyze::requests::{RequestView, RequestViewBuilder, VIEW_COLUMNS};
use crate::analyze::{Analysis, AnalyzeOptions, analyze_series};
use crate::timing::Timing;
use crate::error::CliError;
use crate::import::ImportOptions;
use crate::report::Report;
use crate::run::{Manifest, Projection};

/// What the analysis reads of a run: the request view's columns and the telemetry series'.
const ANALYSIS_COLUMNS: Projection<'static> = Projection { requests: &VIEW_COLUMNS, gpu: GPU_COLUMNS, host: HOST_COLUMNS, server: SERVER_COLUMNS };

/// One run folder, loaded and analyzed; the request view is kept for comparisons.
pub struct AnalyzedRun {
    /// The folder's name, which names the run in comparisons.
    pub name: String,
    pub manifest: Manifest,
    pub view: RequestView,
    pub analysis: Analysis,
}

/// Loads `dir` and analyzes it with `opts` (stage ends go to `timing`, and so to a progress bar).
pub fn analyze_dir(dir: &Path, opts: &AnalyzeOptions) -> Result<AnalyzedRun, CliError> {
    let timing = Timing::new();
    let rows = usize::try_from(check_memory(dir)?).unwrap_or(0);
    let (loaded, builder, examples) = read_requests(dir, rows);
    let crate::run::Run { manifest, gpu, host, server, .. } = loaded?;
    timing.mark("loaded");
    // The telemetry tables are freed once turned into series, before the analysis's peak.
    let t0_ns = builder.first_send_ns();
    let (view, telemetry) =
        rayon::join(|| builder.finish(), || TelemetrySeries::of(&Telemetry { gpu: gpu.as_ref(), host: host.as_ref(), server: server.as_ref() }, t0_ns));
    drop((gpu, host, server));
    timing.mark("request view and telemetry series built");
    let mut analysis = analyze_series(&manifest, &view, &telemetry, opts);
    analysis.errors.examples = examples.finish();
    let name = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into());
    Ok(AnalyzedRun { name, manifest, view, analysis })
}

/// Reads the run in `dir`: its requests in batches of the columns the analysis uses, straight
/// into the view (a large run is never held twice, as a table and as the view), with room for
/// `rows` reserved. Parquet decoding and building the view overlap: this thread decodes, a
/// second one builds, two batches apart at most.
fn read_requests(dir: &Path, rows: usize) -> (Result<crate::run::Run, crate::run::LoadError>, RequestViewBuilder, ErrorExampleCounter) {
    let (batches, received) = std::sync::mpsc::sync_channel::<crate::run::Table>(2);
    std::thread::scope(|scope| {
        let building = scope.spawn(move || {
            let (mut builder, mut examples) = (RequestViewBuilder::default(), ErrorExampleCounter::default());
            builder.reserve(rows);
            for batch in received {
                builder.push(&batch);
                examples.push(&batch);
            }
            (builder, examples)
        });
        // A send fails only when the builder is gone, i.e. it panicked: the join says so.
        let loaded = crate::run::load_in_batches(dir, &ANALYSIS_COLUMNS, |batch| drop(batches.send(batch)));
        drop(batches);
        let (builder, examples) = building.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (loaded, builder, examples)
    })
}

/// Peak bytes `analyze` holds per request, per chunk time and in all (measured with
/// `benches/analyze_long.rs`: 100 million requests without chunk times peak at 11.3 GiB, with
/// the 60-byte view of 2026-12-03; 13.6 GiB before).
const BYTES_PER_REQUEST: u64 = 125;
const BYTES_PER_CHUNK: u64 = 24;
const BASE_BYTES: u64 = 256 << 20;

/// Refuses, before reading any rows, a run whose analysis would not fit in the memory this
/// process may use: a clear error with the amount needed instead of an out-of-memory kill.
/// Returns the requests to reserve room for: those the footers declare once they are known to
/// fit, else 0 (the view then grows as rows arrive, and a lying footer costs nothing).
fn check_memory(dir: &Path) -> Result<u64, CliError> {
    let Some(path) = crate::run::table_path(dir, crate::run::TableKind::Requests) else { return Ok(0) };
    // A footer that contradicts itself is bad input here already, not a size to plan for.
    let (rows, chunks) = crate::run::read::table_extent(&path).map_err(crate::run::LoadError::from)?;
    let Some(available) = available_memory() else { return Ok(0) };
    match too_large(dir, rows, chunks, available) {
        Some(e) if std::env::var_os("CREDENCE_SKIP_MEMORY_CHECK").is_none() => Err(e),
        Some(_) => Ok(0),
        None => Ok(rows),
    }
}

/// The error for a run of `rows` requests and `chunks` chunk times when it needs more than
/// `available` bytes.
fn too_large(dir: &Path, rows: u64, chunks: u64, available: u64) -> Option<CliError> {
    // Saturating: a damaged Parquet footer may claim close to 2^63 rows.
    let need = BASE_BYTES.saturating_add(rows.saturating_mul(BYTES_PER_REQUEST)).saturating_add(chunks.saturating_mul(BYTES_PER_CHUNK));
    let gb = |b: u64| b as f64 / (1u64 << 30) as f64;
    (need > available).then(|| {
        CliError::failure(format!(
            "{}: analyzing {rows} requests and {chunks} chunk times needs about {:.1} GB of memory; {:.1} GB is available",
            dir.display(),
            gb(need),
            gb(available)
        ))
        .hint("free memory or use a larger machine; set CREDENCE_SKIP_MEMORY_CHECK=1 to try anyway")
    })
}

/// Memory this process may still use: the system's available memory, capped by its cgroup's
/// limit when it has one (containers). None where neither can be read.
fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?.split_whitespace().nth(1)?.parse().ok()?;
    let cgroup = |name: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{name}")).ok()?.trim().parse::<u64>().ok();
    let cgroup_left = cgroup("memory.max").map(|max| max.saturating_sub(cgroup("memory.current").unwrap_or(0)));
    Some(cgroup_left.map_or(kb * 1024, |left| left.min(kb * 1024)))
}

/// The run folders of a series folder (those `series.json` lists, in order), or None when
/// `dir` holds no series.json.
pub fn series_runs(dir: &Path) -> Result<Option<Vec<PathBuf>>, CliError> {
    let path = dir.join("series.json");
    if !path.is_file() {
        return Ok(None);
    }
    let bad = |why: String| CliError::bad_input(format!("{}: {why}", path.display()));
    let text = std::fs::read_to_string(&path).map_err(|e| bad(format!("cannot read: {e}")))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
    let runs = v["runs"].as_array().ok_or_else(|| bad("expected a \"runs\" array".into()))?;
    let dirs: Vec<_> = runs.iter().filter_map(|r| r["run"].as_str()).map(|name| dir.join(name)).collect();
    if dirs.is_empty() {
        return Err(bad("lists no completed runs".into()));
    }
    Ok(Some(dirs))
}

/// The run folders named, a series folder (`bench --repeat`) standing for its runs.
pub fn expand_series(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut out = Vec::new();
    for d in dirs {
        match series_runs(d)? {
            Some(runs) => out.extend(runs),
            None => out.push(d.clone()),
        }
    }
    Ok(out)
}

/// Loads and analyzes the runs of one arm of a comparison (at most 999 resamples per run:
/// the comparison does its own resampling); a series folder stands for its runs, and a tool's
/// output for the runs it holds (imported in memory with `import`). `command` names the
/// command in errors.
pub fn analyze_arm(paths: &[PathBuf], resamples: usize, seed: u64, import: &ImportOptions, command: &str) -> Result<Vec<AnalyzedRun>, CliError> {
    let opts = AnalyzeOptions { resamples: resamples.min(999), seed, ..Default::default() };
    let mut runs = Vec::new();
    for p in paths {
        runs.extend(crate::ops::inputs::analyze_path(p, &opts, import, command)?);
    }
    Ok(runs)
}

/// The runs of an arm as the comparison reads them.
pub fn arm_runs(runs: &[AnalyzedRun]) -> Vec<ArmRun<'_>> {
    runs.iter().map(|r| ArmRun { name: r.name.clone(), manifest: &r.manifest, view: &r.view, analysis: &r.analysis }).collect()
}

/// The report on a comparison of two analyzed arms (`compare` and `baseline check` print its
/// top part; `report --base --cand` renders all of it).
pub fn comparison_report(base: Vec<AnalyzedRun>, cand: Vec<AnalyzedRun>, cmp: Comparison, title: Option<String>, date: Option<String>) -> Report {
    let analyses = |runs: Vec<AnalyzedRun>| runs.into_iter().map(|r| r.analysis).collect();
    Report::for_comparison(analyses(base), analyses(cand), cmp, title, date)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading only `ANALYSIS_COLUMNS` of the telemetry tables must give the same series as
    /// reading every column, on every fixture run with telemetry (GPU, host, load generator,
    /// network and server metrics between them).
    #[test]
    fn the_projected_telemetry_gives_the_same_series_as_every_column() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut dirs = vec![fixtures.join("demo")];
        dirs.extend(std::fs::read_dir(fixtures.join("scenarios")).unwrap().map(|e| e.unwrap().path()));
        let mut compared = 0;
        for dir in dirs.iter().filter(|d| d.join("gpu.parquet").exists()) {
            let whole = crate::run::load(dir).unwrap();
            let projected = crate::run::load_in_batches(dir, &ANALYSIS_COLUMNS, drop).unwrap();
            let series = |r: &crate::run::Run| format!("{:?}", TelemetrySeries::of(&Telemetry::of(r), 0));
            assert_eq!(series(&projected), series(&whole), "{}", dir.display());
            compared += 1;
        }
        assert!(compared >= 5, "fixture runs with telemetry: {compared}");
    }

    #[test]
    fn a_footer_claiming_near_2_pow_63_rows_is_too_large_not_an_overflow() {
        let dir = Path::new("run");
        assert!(too_large(dir, u64::MAX / 2, u64::MAX / 2, 16 << 30).is_some());
        assert!(too_large(dir, 1_000, 0, 16 << 30).is_none());
    }

    #[test]
    fn a_run_too_large_for_memory_is_refused_with_the_amount_needed() {
        let dir = Path::new("big-run");
        let e = too_large(dir, 100_000_000, 0, 8 << 30).expect("100M requests need more than 8 GB");
        assert_eq!(e.code, crate::error::ExitCode::Failure);
        assert!(
            e.message.contains("100000000 requests") && e.message.contains("needs about 11.9 GB") && e.message.contains("8.0 GB is available"),
            "{}",
            e.message
        );
        assert!(too_large(dir, 10_000_000, 0, 2 << 30).is_none(), "10M requests fit in 2 GB");
    }
}
