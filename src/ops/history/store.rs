//! The history store (`credence history --dir STORE`): one summary row per run and metric in
//! Parquet files that are only ever added, never rewritten. Each append writes the runs the
//! store lacks (by run id) as a new `part-NNNNNN-HASH.parquet`; a reader takes the parts in
//! name order, which is append order, and keeps the first row of each (run, metric). DuckDB
//! reads the store as `read_parquet('STORE/*.parquet')`, polars as `pl.read_parquet("STORE/*.parquet")`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Float64Array, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use sha2::{Digest, Sha256};

use crate::analyze::history::{HistoryMetric, RunPoint, RunValue};
use crate::ops::files::write_atomic;
use crate::error::CliError;

/// The store's columns, in order: name, type, nullable.
const COLUMNS: [(&str, DataType, bool); 11] = [
    ("run_id", DataType::Utf8, false),
    ("start_ns", DataType::Int64, true),
    ("fingerprint", DataType::Utf8, false),
    ("configuration", DataType::Utf8, false),
    ("grade", DataType::Utf8, false),
    ("metric", DataType::Utf8, false),
    ("estimate", DataType::Float64, false),
    ("ci_low", DataType::Float64, true),
    ("ci_high", DataType::Float64, true),
    ("confidence", DataType::Float64, false),
    ("credence_version", DataType::Utf8, false),
];

fn schema() -> Arc<Schema> {
    Arc::new(Schema::new(COLUMNS.iter().map(|(n, t, null)| Field::new(*n, t.clone(), *null)).collect::<Vec<_>>()))
}

/// The store's part files in append order.
fn parts(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let entries = std::fs::read_dir(dir).map_err(|e| CliError::bad_input(format!("{}: cannot read the store: {e}", dir.display())))?;
    let mut parts: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "parquet") && p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("part-")))
        .collect();
    parts.sort();
    Ok(parts)
}

/// Every run in the store, in append order (the first row of each run and metric wins).
pub fn read(dir: &Path) -> Result<Vec<RunPoint>, CliError> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let mut points: Vec<RunPoint> = Vec::new();
    let mut position: BTreeMap<String, usize> = BTreeMap::new();
    for part in parts(dir)? {
        for row in read_part(&part)? {
            let (point, metric, value) = row;
            let at = *position.entry(point.run_id.clone()).or_insert_with(|| {
                points.push(point);
                points.len() - 1
            });
            points[at].values.entry(metric).or_insert(value);
        }
    }
    Ok(points)
}

type Row = (RunPoint, HistoryMetric, RunValue);

/// The rows of one part file; the error names the file, column and row.
fn read_part(path: &Path) -> Result<Vec<Row>, CliError> {
    let label = path.display().to_string();
    let bad = |what: String| CliError::bad_input(format!("{label}: {what}")).hint("the store holds only files `credence history --dir` wrote");
    let file = File::open(path).map_err(|e| bad(format!("cannot open: {e}")))?;
    let reader = crate::run::footer::open(path, file)
        .map_err(|m| bad(format!("not a Parquet file: {m}")))?
        .build()
        .map_err(|e| bad(format!("not a Parquet file: {e}")))?;
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| bad(format!("unreadable: {e}")))?;
        let base = rows.len();
        rows.extend(batch_rows(&batch).map_err(|(row, what)| if row == NO_ROW { bad(what) } else { bad(format!("row {}: {what}", base + row)) })?);
    }
    Ok(rows)
}

/// The row of an error that concerns a whole column.
const NO_ROW: usize = usize::MAX;

/// A column of a batch as the type the store writes.
fn column<'b, T: 'static>(batch: &'b RecordBatch, name: &str) -> Result<&'b T, (usize, String)> {
    batch.column_by_name(name).and_then(|c| c.as_any().downcast_ref::<T>()).ok_or_else(|| (NO_ROW, format!("column {name} is missing or has the wrong type")))
}

fn batch_rows(batch: &RecordBatch) -> Result<Vec<Row>, (usize, String)> {
    let text = |n| column::<StringArray>(batch, n);
    let (run_id, fingerprint, configuration, grade, metric) = (text("run_id")?, text("fingerprint")?, text("configuration")?, text("grade")?, text("metric")?);
    let start = column::<Int64Array>(batch, "start_ns")?;
    let float = |n| column::<Float64Array>(batch, n);
    let (estimate, lo, hi, confidence) = (float("estimate")?, float("ci_low")?, float("ci_high")?, float("confidence")?);
    let opt = |a: &Float64Array, i: usize| (!a.is_null(i)).then(|| a.value(i));
    (0..batch.num_rows())
        .map(|i| {
            let m = HistoryMetric::from_name(metric.value(i)).ok_or_else(|| (i, format!("metric {:?} is not one credence follows", metric.value(i))))?;
            if estimate.is_null(i) || run_id.is_null(i) {
                return Err((i, "run_id and estimate must not be null".to_string()));
            }
            let point = RunPoint {
                run_id: run_id.value(i).to_string(),
                start_ns: (!start.is_null(i)).then(|| start.value(i)),
                fingerprint: fingerprint.value(i).to_string(),
                configuration: configuration.value(i).to_string(),
                grade: grade.value(i).to_string(),
                values: BTreeMap::new(),
            };
            let value = RunValue { estimate: estimate.value(i), ci_low: opt(lo, i), ci_high: opt(hi, i), confidence: confidence.value(i) };
            Ok((point, m, value))
        })
        .collect()
}

/// Appends the runs of `new` that the store (`stored`) lacks as one new part; returns how many
/// runs were added.
pub fn append(dir: &Path, stored: &[RunPoint], new: &[RunPoint]) -> Result<usize, CliError> {
    let known: BTreeSet<&str> = stored.iter().map(|p| p.run_id.as_str()).collect();
    let mut seen = BTreeSet::new();
    let fresh: Vec<&RunPoint> = new.iter().filter(|p| !known.contains(p.run_id.as_str()) && seen.insert(p.run_id.as_str())).collect();
    if fresh.is_empty() {
        return Ok(0);
    }
    std::fs::create_dir_all(dir).map_err(|e| CliError::failure(format!("{}: cannot create the store: {e}", dir.display())))?;
    let bytes = encode(&fresh).map_err(|e| CliError::failure(format!("{}: cannot encode the new rows: {e}", dir.display())))?;
    let hash: String = Sha256::digest(&bytes).iter().take(4).map(|b| format!("{b:02x}")).collect();
    let path = dir.join(format!("part-{:06}-{hash}.parquet", parts(dir)?.len() + 1));
    write_atomic(&path, &bytes)?;
    Ok(fresh.len())
}

/// One row per run and metric, as a zstd Parquet file.
fn encode(points: &[&RunPoint]) -> Result<Vec<u8>, parquet::errors::ParquetError> {
    let rows: Vec<(&RunPoint, &HistoryMetric, &RunValue)> = points.iter().flat_map(|p| p.values.iter().map(move |(m, v)| (*p, m, v))).collect();
    let text =
        |f: &dyn Fn(&(&RunPoint, &HistoryMetric, &RunValue)) -> String| -> ArrayRef { Arc::new(StringArray::from(rows.iter().map(f).collect::<Vec<_>>())) };
    let float = |f: &dyn Fn(&RunValue) -> Option<f64>| -> ArrayRef { Arc::new(Float64Array::from(rows.iter().map(|r| f(r.2)).collect::<Vec<_>>())) };
    let columns: Vec<ArrayRef> = vec![
        text(&|r| r.0.run_id.clone()),
        Arc::new(Int64Array::from(rows.iter().map(|r| r.0.start_ns).collect::<Vec<_>>())),
        text(&|r| r.0.fingerprint.clone()),
        text(&|r| r.0.configuration.clone()),
        text(&|r| r.0.grade.clone()),
        text(&|r| r.1.name().to_string()),
        float(&|v| Some(v.estimate)),
        float(&|v| v.ci_low),
        float(&|v| v.ci_high),
        float(&|v| Some(v.confidence)),
        text(&|_| env!("CARGO_PKG_VERSION").to_string()),
    ];
    let batch = RecordBatch::try_new(schema(), columns)?;
    let props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?))
        .set_created_by(format!("credence {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut bytes = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), Some(props))?;
    writer.write(&batch)?;
    writer.close()?;
    Ok(bytes)
}
