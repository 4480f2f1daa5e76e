//! A run-directory table in memory, and its Parquet encoding.
//!
//! Every table is a set of columns in the order of its `ColumnSpec`s. One generic reader and
//! one generic writer serve all four tables, so the layout lives in `schema.rs` only.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{ListBuilder, TimestampNanosecondBuilder};
use arrow_array::{Array, ArrayRef, Float64Array, RecordBatch, StringArray, TimestampNanosecondArray, UInt32Array, UInt64Array};
use arrow_schema::Schema;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;

use super::problem::Problem;
use super::schema::{ColumnSpec, ColumnType, TableKind};

/// Per-row lists of timestamps (e.g. chunk arrivals), stored flat.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimestampLists {
    /// `offsets[i]..offsets[i + 1]` indexes `values` for row `i`; `len = rows + 1`.
    pub offsets: Vec<usize>,
    pub values: Vec<i64>,
    /// False where the whole list is null.
    pub valid: Vec<bool>,
    /// Null items inside lists; they are dropped from `values` and reported by `validate`.
    pub null_items: Vec<usize>,
}

impl TimestampLists {
    pub fn new() -> Self {
        TimestampLists { offsets: vec![0], ..Default::default() }
    }

    pub fn push(&mut self, list: Option<&[i64]>) {
        match list {
            Some(v) => {
                self.values.extend_from_slice(v);
                self.valid.push(true);
            }
            None => self.valid.push(false),
        }
        self.offsets.push(self.values.len());
    }

    pub fn len(&self) -> usize {
        self.valid.len()
    }

    pub fn is_empty(&self) -> bool {
        self.valid.is_empty()
    }

    pub fn get(&self, row: usize) -> Option<&[i64]> {
        self.valid[row].then(|| &self.values[self.offsets[row]..self.offsets[row + 1]])
    }
}

/// One column's values. Strings stay in one Arrow buffer: a 10-million-row table must not
/// become 10 million heap strings.
#[derive(Debug, Clone)]
pub enum Column {
    Timestamp(Vec<Option<i64>>),
    TimestampList(TimestampLists),
    Utf8(StringArray),
    UInt32(Vec<Option<u32>>),
    UInt64(Vec<Option<u64>>),
    Float64(Vec<Option<f64>>),
}

impl Column {
    pub fn len(&self) -> usize {
        match self {
            Column::Timestamp(v) => v.len(),
            Column::TimestampList(v) => v.len(),
            Column::Utf8(v) => v.len(),
            Column::UInt32(v) => v.len(),
            Column::UInt64(v) => v.len(),
            Column::Float64(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn null_count(&self) -> usize {
        match self {
            Column::Timestamp(v) => v.iter().filter(|x| x.is_none()).count(),
            Column::TimestampList(v) => v.valid.iter().filter(|x| !**x).count(),
            Column::Utf8(v) => v.null_count(),
            Column::UInt32(v) => v.iter().filter(|x| x.is_none()).count(),
            Column::UInt64(v) => v.iter().filter(|x| x.is_none()).count(),
            Column::Float64(v) => v.iter().filter(|x| x.is_none()).count(),
        }
    }

    fn column_type(&self) -> ColumnType {
        match self {
            Column::Timestamp(_) => ColumnType::Timestamp,
            Column::TimestampList(_) => ColumnType::TimestampList,
            Column::Utf8(_) => ColumnType::Utf8,
            Column::UInt32(_) => ColumnType::UInt32,
            Column::UInt64(_) => ColumnType::UInt64,
            Column::Float64(_) => ColumnType::Float64,
        }
    }

    /// Appends `n` nulls (optional columns a file or a producer does not have).
    pub(super) fn push_nulls(&mut self, n: usize) {
        match self {
            Column::Timestamp(v) => v.resize(v.len() + n, None),
            Column::UInt32(v) => v.resize(v.len() + n, None),
            Column::UInt64(v) => v.resize(v.len() + n, None),
            Column::Float64(v) => v.resize(v.len() + n, None),
            Column::TimestampList(l) => (0..n).for_each(|_| l.push(None)),
            Column::Utf8(s) => *s = s.iter().chain(std::iter::repeat_n(None, n)).collect(),
        }
    }

    /// Room for `rows` more values, when the allocator grants it (a hint: the column still
    /// grows past it; amortized, so one call per segment file stays linear). Strings and lists
    /// are gathered differently and are left as they are.
    pub(super) fn try_reserve(&mut self, rows: usize) {
        let _ = match self {
            Column::Timestamp(v) => v.try_reserve(rows),
            Column::UInt32(v) => v.try_reserve(rows),
            Column::UInt64(v) => v.try_reserve(rows),
            Column::Float64(v) => v.try_reserve(rows),
            Column::Utf8(_) | Column::TimestampList(_) => Ok(()),
        };
    }

    pub(super) fn empty(ty: ColumnType) -> Column {
        match ty {
            ColumnType::Timestamp => Column::Timestamp(Vec::new()),
            ColumnType::TimestampList => Column::TimestampList(TimestampLists::new()),
            ColumnType::Utf8 => Column::Utf8(StringArray::from(Vec::<Option<&str>>::new())),
            ColumnType::UInt32 => Column::UInt32(Vec::new()),
            ColumnType::UInt64 => Column::UInt64(Vec::new()),
            ColumnType::Float64 => Column::Float64(Vec::new()),
        }
    }

    /// Builds the Arrow array for this column, typed exactly as `ty.data_type()`.
    fn to_arrow(&self) -> ArrayRef {
        match self {
            Column::Timestamp(v) => Arc::new(TimestampNanosecondArray::from(v.clone()).with_timezone("UTC")),
            Column::TimestampList(l) => {
                let mut b = ListBuilder::with_capacity(TimestampNanosecondBuilder::with_capacity(l.values.len()).with_timezone("UTC"), l.len());
                for row in 0..l.len() {
                    match l.get(row) {
                        Some(items) => {
                            b.values().append_slice(items);
                            b.append(true);
                        }
                        None => b.append(false),
                    }
                }
                Arc::new(b.finish())
            }
            Column::Utf8(v) => Arc::new(v.clone()),
            Column::UInt32(v) => Arc::new(UInt32Array::from(v.clone())),
            Column::UInt64(v) => Arc::new(UInt64Array::from(v.clone())),
            Column::Float64(v) => Arc::new(Float64Array::from(v.clone())),
        }
    }
}

/// A whole table: one `Column` per `ColumnSpec`, in spec order.
#[derive(Debug, Clone)]
pub struct Table {
    pub kind: TableKind,
    columns: Vec<Column>,
    rows: usize,
}

/// Why a table could not be built or read.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{file}: cannot open: {source}")]
    Io { file: String, source: std::io::Error },
    #[error("{file}: not a readable Parquet file ({message})")]
    NotParquet { file: String, message: String },
    #[error("{}", .0.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))]
    Schema(Vec<Problem>),
    #[error("{file}: {message}")]
    Write { file: String, message: String },
    #[error("table {table}: column {column} {message}")]
    Build { table: &'static str, column: String, message: String },
}

impl Table {
    /// Builds a table from named columns. Every spec column must be given once, with its type
    /// and the same length; non-nullable columns must hold no nulls.
    pub fn from_columns(kind: TableKind, mut named: Vec<(&str, Column)>) -> Result<Table, TableError> {
        let err = |column: &str, message: String| TableError::Build { table: kind.name(), column: column.to_string(), message };
        let mut columns = Vec::with_capacity(kind.columns().len());
        let mut rows = None;
        let mut absent = Vec::new();
        for (ci, spec) in kind.columns().iter().enumerate() {
            let Some(pos) = named.iter().position(|(n, _)| *n == spec.name) else {
                if spec.optional {
                    absent.push(ci);
                    columns.push(Column::empty(spec.ty));
                    continue;
                }
                return Err(err(spec.name, "is missing".into()));
            };
            let (_, column) = named.swap_remove(pos);
            if column.column_type() != spec.ty {
                return Err(err(spec.name, format!("must be {}", spec.ty.name())));
            }
            if !spec.nullable && column.null_count() > 0 {
                return Err(err(spec.name, "must not hold nulls".into()));
            }
            match rows {
                None => rows = Some(column.len()),
                Some(r) if r != column.len() => {
                    return Err(err(spec.name, format!("has {} rows, expected {r}", column.len())));
                }
                Some(_) => {}
            }
            columns.push(column);
        }
        if let Some((name, _)) = named.first() {
            return Err(err(name, "is not part of the schema".into()));
        }
        for ci in absent {
            columns[ci].push_nulls(rows.unwrap_or(0));
        }
        Ok(Table { kind, columns, rows: rows.unwrap_or(0) })
    }

    /// A table of `rows` rows from columns already in the spec's order and types (the Parquet
    /// reader's). A column with no values in a table with rows was not read (a projected
    /// read): `column` answers None for it, as for a column the schema lacks.
    pub(super) fn from_parts(kind: TableKind, columns: Vec<Column>, rows: usize) -> Table {
        Table { kind, columns, rows }
    }

    /// A table with no rows.
    pub fn empty(kind: TableKind) -> Table {
        Table { kind, columns: kind.columns().iter().map(|c| Column::empty(c.ty)).collect(), rows: 0 }
    }

    /// Replaces one column, keeping the table's invariants (type, length, nullability).
    pub fn replace_column(&mut self, name: &str, column: Column) -> Result<(), TableError> {
        let err = |message: String| TableError::Build { table: self.kind.name(), column: name.to_string(), message };
        let idx = self.kind.columns().iter().position(|c| c.name == name).ok_or_else(|| err("is not part of the schema".into()))?;
        let spec = &self.kind.columns()[idx];
        if column.column_type() != spec.ty {
            return Err(err(format!("must be {}", spec.ty.name())));
        }
        if column.len() != self.num_rows() {
            return Err(err(format!("has {} rows, expected {}", column.len(), self.num_rows())));
        }
        if !spec.nullable && column.null_count() > 0 {
            return Err(err("must not hold nulls".into()));
        }
        self.columns[idx] = column;
        Ok(())
    }

    pub fn num_rows(&self) -> usize {
        self.rows
    }

    /// The column `name`; None when the schema has no such column or a projected read left
    /// it out.
    pub fn column(&self, name: &str) -> Option<&Column> {
        let idx = self.kind.columns().iter().position(|c| c.name == name)?;
        self.columns.get(idx).filter(|c| c.len() == self.rows)
    }

    pub fn specs_and_columns(&self) -> impl Iterator<Item = (&'static ColumnSpec, &Column)> {
        self.kind.columns().iter().zip(self.columns.iter())
    }

    pub fn timestamps(&self, name: &str) -> Option<&[Option<i64>]> {
        match self.column(name)? {
            Column::Timestamp(v) => Some(v),
            _ => None,
        }
    }

    pub fn timestamp_lists(&self, name: &str) -> Option<&TimestampLists> {
        match self.column(name)? {
            Column::TimestampList(v) => Some(v),
            _ => None,
        }
    }

    pub fn strings(&self, name: &str) -> Option<&StringArray> {
        match self.column(name)? {
            Column::Utf8(v) => Some(v),
            _ => None,
        }
    }

    pub fn u32s(&self, name: &str) -> Option<&[Option<u32>]> {
        match self.column(name)? {
            Column::UInt32(v) => Some(v),
            _ => None,
        }
    }

    pub fn u64s(&self, name: &str) -> Option<&[Option<u64>]> {
        match self.column(name)? {
            Column::UInt64(v) => Some(v),
            _ => None,
        }
    }

    pub fn f64s(&self, name: &str) -> Option<&[Option<f64>]> {
        match self.column(name)? {
            Column::Float64(v) => Some(v),
            _ => None,
        }
    }

    /// The record batch to write. Optional columns with no values are left out, so a file
    /// that has no use for a newer column is byte-identical to one written before it existed.
    fn to_record_batch(&self) -> Result<RecordBatch, TableError> {
        let full = self.kind.arrow_schema();
        let keep: Vec<usize> =
            (0..self.columns.len()).filter(|&i| !(self.kind.columns()[i].optional && self.columns[i].null_count() == self.columns[i].len())).collect();
        let arrays: Vec<ArrayRef> = keep.iter().map(|&i| self.columns[i].to_arrow()).collect();
        let schema = Arc::new(Schema::new_with_metadata(keep.iter().map(|&i| full.field(i).clone()).collect::<Vec<_>>(), full.metadata().clone()));
        RecordBatch::try_new(schema, arrays).map_err(|e| TableError::Build { table: self.kind.name(), column: String::new(), message: e.to_string() })
    }

    /// Writes the table as one Parquet file (zstd, delta-encoded timestamps). The caller makes
    /// the write atomic (see `run::write`).
    pub fn write_parquet(&self, path: &Path) -> Result<(), TableError> {
        let file_name = path.display().to_string();
        let werr = |e: &dyn std::fmt::Display| TableError::Write { file: file_name.clone(), message: e.to_string() };
        let mut props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(3).map_err(|e| werr(&e))?))
            .set_max_row_group_row_count(Some(128 * 1024))
            .set_created_by(format!("credence {}", env!("CARGO_PKG_VERSION")));
        // Timestamps are sorted or nearly so; delta encoding shrinks them several-fold.
        for spec in self.kind.columns() {
            let path = match spec.ty {
                ColumnType::Timestamp => ColumnPath::from(spec.name),
                ColumnType::TimestampList => ColumnPath::from(vec![spec.name.to_string(), "list".into(), "item".into()]),
                _ => continue,
            };
            props = props.set_column_dictionary_enabled(path.clone(), false).set_column_encoding(path, Encoding::DELTA_BINARY_PACKED);
        }
        let file = File::create(path).map_err(|e| werr(&e))?;
        let batch = self.to_record_batch()?;
        let mut writer = ArrowWriter::try_new(file, batch.schema(), Some(props.build())).map_err(|e| werr(&e))?;
        const SLICE: usize = 64 * 1024;
        let mut offset = 0;
        while offset < batch.num_rows() {
            let len = SLICE.min(batch.num_rows() - offset);
            writer.write(&batch.slice(offset, len)).map_err(|e| werr(&e))?;
            offset += len;
        }
        writer.close().map_err(|e| werr(&e))?;
        Ok(())
    }
}

/// Column builders for producers (simulator, importers, collectors).
pub fn utf8_column<'a>(values: impl IntoIterator<Item = Option<&'a str>>) -> Column {
    Column::Utf8(values.into_iter().collect())
}
