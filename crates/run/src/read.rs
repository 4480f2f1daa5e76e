//! Reading run-directory tables from Parquet: one file or a folder of segments, the schema
//! checked against the spec by logical type (`logical`), values converted as they are read.
//!
//! `Table::read` holds a whole table; `read_batches` hands it over in batches of at most
//! `BATCH_ROWS` rows with only the columns a caller names, so a 10-million-request run is never
//! held twice (once as a table, once as the analysis's columns).

use std::fs::File;
use std::path::Path;

use arrow_array::{Array, RecordBatch, StringArray};
use arrow_schema::Schema;
use parquet::arrow::ProjectionMask;

use super::problem::{Problem, RowRef};
use super::schema::{ColumnSpec, TableKind};
use super::table::{Column, Table, TableError};

/// Rows per batch handed to `read_batches`' callback.
pub const BATCH_ROWS: usize = 64 * 1024;

impl Table {
    /// Reads a table from one Parquet file, or from a folder of `*.parquet` segments read in
    /// name order. Fails with every schema problem when the layout differs from the spec.
    pub fn read(path: &Path, kind: TableKind) -> Result<(Table, Vec<Problem>), TableError> {
        Table::read_columns(path, kind, None)
    }

    /// `read`, decoding only the columns in `only`: the others read as absent (`column` gives
    /// None), and every column's schema is still checked.
    pub fn read_columns(path: &Path, kind: TableKind, only: Option<&[&str]>) -> Result<(Table, Vec<Problem>), TableError> {
        let mut whole = Accumulator::new(kind);
        let warnings = read_parts(path, kind, only, &mut Destination::Whole(&mut whole))?;
        Ok((whole.finish(), warnings))
    }
}

/// Reads the table at `path` (a file or a segment folder) batch by batch, in row order. With
/// `only`, a batch holds just those columns (the others read as absent); every column's schema
/// is still checked. Returns the schema warnings; fails on the first file with an error.
pub fn read_batches(path: &Path, kind: TableKind, only: Option<&[&str]>, mut each: impl FnMut(Table)) -> Result<Vec<Problem>, TableError> {
    read_parts(path, kind, only, &mut Destination::Batches(&mut each))
}

/// Where converted rows go: straight onto a whole table's columns (sized from each file's
/// footer, so nothing is copied twice), or into one table per batch handed to a callback.
enum Destination<'a> {
    Whole(&'a mut Accumulator),
    Batches(&'a mut dyn FnMut(Table)),
}

/// Reads every file of the table at `path` in row order into `dest`; returns the schema warnings.
fn read_parts(path: &Path, kind: TableKind, only: Option<&[&str]>, dest: &mut Destination<'_>) -> Result<Vec<Problem>, TableError> {
    let mut warnings = Vec::new();
    let mut rows_before = 0;
    for file in segment_files(path)? {
        warnings.extend(read_file(&file, kind, only, &mut rows_before, dest)?);
    }
    Ok(warnings)
}

/// How large the table at `path` is, from the Parquet footers alone: rows, and values in its
/// list columns (e.g. chunk times). For sizing memory before a load.
pub fn table_extent(path: &Path) -> Result<(u64, u64), TableError> {
    let (mut rows, mut items) = (0u64, 0u64);
    for file in segment_files(path)? {
        let label = file_label(&file);
        let f = File::open(&file).map_err(|e| TableError::Io { file: label.clone(), source: e })?;
        let builder = super::footer::open(&file, f).map_err(|message| TableError::NotParquet { file: label.clone(), message })?;
        let meta = builder.metadata();
        rows += footer_rows(meta, &label)?;
        for rg in meta.row_groups() {
            items += rg.columns().iter().filter(|c| c.column_path().parts().len() > 1).map(|c| c.num_values().max(0) as u64).sum::<u64>();
        }
    }
    Ok((rows, items))
}

/// The rows a Parquet file's footer claims, checked against itself: each row group's row count
/// must equal the values of each of its flat columns (for a flat column, values and nulls
/// together are one per row) and the file's count their sum. A damaged or forged footer (one
/// claiming 10^12 rows over a few kilobytes of pages) is refused here, before any memory is
/// sized from it or any page read.
fn footer_rows(meta: &parquet::file::metadata::ParquetMetaData, label: &str) -> Result<u64, TableError> {
    let damaged = |message: String| TableError::NotParquet { file: label.to_string(), message: format!("damaged footer: {message}") };
    let mut sum = 0i64;
    for (g, rg) in meta.row_groups().iter().enumerate() {
        let flat = rg.columns().iter().find(|c| c.column_path().parts().len() == 1 && c.num_values() != rg.num_rows());
        if let Some(c) = flat {
            return Err(damaged(format!("row group {g} claims {} rows but its column {} holds {} values", rg.num_rows(), c.column_path(), c.num_values())));
        }
        sum = sum.checked_add(rg.num_rows().max(0)).ok_or_else(|| damaged(format!("row group {g} overflows the row count")))?;
    }
    let claimed = meta.file_metadata().num_rows();
    if claimed != sum {
        return Err(damaged(format!("it claims {claimed} rows but its row groups hold {sum}")));
    }
    Ok(sum as u64)
}

/// Most rows a whole table's columns are sized for at a time, from each file's footer. A footer is a
/// claim, not a fact: past this, columns grow as the rows arrive.
const RESERVE_MAX_ROWS: usize = 1 << 23;

/// Columns being gathered: a batch's, or a whole table's from its batches. String parts are
/// kept as Arrow arrays and concatenated once at the end, so many batches do not copy the
/// strings again and again.
struct Accumulator {
    kind: TableKind,
    columns: Vec<Column>,
    strings: Vec<Vec<StringArray>>,
    rows: usize,
}

impl Accumulator {
    fn new(kind: TableKind) -> Accumulator {
        let columns: Vec<Column> = kind.columns().iter().map(|c| Column::empty(c.ty)).collect();
        Accumulator { kind, strings: vec![Vec::new(); columns.len()], columns, rows: 0 }
    }

    /// Room for `rows` more rows in each column that will be read (all without `only`), so
    /// that a long capture's columns are not grown step by step: each step copies the column
    /// and faults in fresh memory (a 93-hour GPU capture is 0.7 million rows of 19 columns).
    fn reserve(&mut self, rows: usize, only: Option<&[&str]>) {
        for (column, spec) in self.columns.iter_mut().zip(self.kind.columns()) {
            if only.is_none_or(|names| names.contains(&spec.name)) {
                column.try_reserve(rows);
            }
        }
    }

    fn finish(mut self) -> Table {
        for (ci, parts) in self.strings.into_iter().enumerate() {
            if let Column::Utf8(s) = &mut self.columns[ci] {
                *s = match parts.len() {
                    1 => parts.into_iter().next().unwrap_or_else(|| StringArray::from(Vec::<Option<&str>>::new())),
                    _ => parts.iter().flat_map(|p| p.iter()).collect(),
                };
            }
        }
        Table::from_parts(self.kind, self.columns, self.rows)
    }
}

/// The files that make up a table: the file itself, or a folder's `*.parquet` in name order.
fn segment_files(path: &Path) -> Result<Vec<std::path::PathBuf>, TableError> {
    if path.is_dir() {
        let mut files: Vec<_> = std::fs::read_dir(path)
            .map_err(|e| TableError::Io { file: path.display().to_string(), source: e })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
            .collect();
        files.sort();
        Ok(files)
    } else {
        Ok(vec![path.to_path_buf()])
    }
}

fn file_label(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into())
}

/// Compares a file's schema with the spec. Errors: a missing column, a wrong type, nulls
/// declared (and present) in a non-null column. Warnings: extra columns, missing units.
pub fn check_schema(file: &str, schema: &Schema, kind: TableKind) -> Vec<Problem> {
    let mut problems = Vec::new();
    for spec in kind.columns() {
        let Ok(field) = schema.field_with_name(spec.name) else {
            if spec.optional {
                continue;
            }
            problems.push(Problem::error(file, "column is missing").column(spec.name).expected(format!("a {} column: {}", spec.ty.name(), spec.meaning)));
            continue;
        };
        if let Some(why) = super::logical::type_mismatch(field.data_type(), spec.ty) {
            problems.push(Problem::error(file, why).column(spec.name).expected(spec.ty.logical_name()));
        }
        if !spec.unit.is_empty() && field.metadata().get("unit").map(String::as_str) != Some(spec.unit) {
            problems.push(Problem::warning(file, "unit metadata is missing or differs").column(spec.name).expected(format!("unit = {}", spec.unit)));
        }
    }
    for field in schema.fields() {
        if kind.column(field.name()).is_none() {
            problems.push(Problem::warning(file, "column is not part of the schema and is ignored").column(field.name()));
        }
    }
    problems
}

/// Reads one Parquet file batch by batch into `dest` (a whole table is first sized from the
/// file's footer); returns its schema warnings.
/// `rows_before` counts the rows of earlier segments, so errors name the table's row.
fn read_file(path: &Path, kind: TableKind, only: Option<&[&str]>, rows_before: &mut usize, dest: &mut Destination<'_>) -> Result<Vec<Problem>, TableError> {
    let label = file_label(path);
    let file = File::open(path).map_err(|e| TableError::Io { file: label.clone(), source: e })?;
    let not_parquet = |e: &dyn std::fmt::Display| TableError::NotParquet { file: label.clone(), message: e.to_string() };
    let builder = super::footer::open(path, file).map_err(|m| not_parquet(&m))?;
    let rows = footer_rows(builder.metadata(), &label)?;
    let problems = check_schema(&label, builder.schema(), kind);
    if problems.iter().any(Problem::is_error) {
        return Err(TableError::Schema(problems));
    }
    let roots: Vec<usize> =
        (0..builder.schema().fields().len()).filter(|&i| only.is_none_or(|o| o.contains(&builder.schema().field(i).name().as_str()))).collect();
    let mask = ProjectionMask::roots(builder.parquet_schema(), roots);
    let reader = builder.with_projection(mask).with_batch_size(BATCH_ROWS).build().map_err(|e| not_parquet(&e))?;
    if let Destination::Whole(whole) = dest {
        whole.reserve(usize::try_from(rows).unwrap_or(usize::MAX).min(RESERVE_MAX_ROWS), only);
    }
    for batch in reader {
        let batch = batch.map_err(|e| not_parquet(&e))?;
        match dest {
            Destination::Whole(whole) => convert_batch(whole, &label, &batch, *rows_before, only)?,
            Destination::Batches(each) => {
                let mut part = Accumulator::new(kind);
                convert_batch(&mut part, &label, &batch, *rows_before, only)?;
                each(part.finish());
            }
        }
        *rows_before += batch.num_rows();
    }
    Ok(problems)
}

/// Appends one record batch to `acc` in the spec's columns and types; columns it lacks are null.
fn convert_batch(acc: &mut Accumulator, label: &str, batch: &RecordBatch, rows_before: usize, only: Option<&[&str]>) -> Result<(), TableError> {
    let kind = acc.kind;
    acc.rows += batch.num_rows();
    let schema = batch.schema();
    let mut nulls_in_required = Vec::new();
    for (ci, spec) in kind.columns().iter().enumerate() {
        if only.is_some_and(|o| !o.contains(&spec.name)) {
            // Not asked for: left empty, not filled with nulls (which cost 16 bytes a row).
            continue;
        }
        let Ok(idx) = schema.index_of(spec.name) else {
            // An optional column this file predates.
            if let Column::Utf8(_) = acc.columns[ci] {
                acc.strings[ci].push(StringArray::new_null(batch.num_rows()));
            } else {
                acc.columns[ci].push_nulls(batch.num_rows());
            }
            continue;
        };
        let array = batch.column(idx);
        if !spec.nullable && array.null_count() > 0 {
            nulls_in_required.push(null_in_required(label, spec, rows_before + first_null(array.as_ref())));
        }
        super::logical::append(&mut acc.columns[ci], &mut acc.strings[ci], array.as_ref()).map_err(|bad| {
            let row = RowRef { first: vec![(rows_before + bad.row) as u64], count: 1 };
            TableError::Schema(vec![Problem::error(label, bad.message).column(spec.name).rows(row).expected(spec.ty.logical_name())])
        })?;
    }
    if !nulls_in_required.is_empty() {
        return Err(TableError::Schema(nulls_in_required));
    }
    Ok(())
}

fn null_in_required(label: &str, spec: &ColumnSpec, row: usize) -> Problem {
    Problem::error(label, "holds a null in a required column")
        .column(spec.name)
        .rows(RowRef { first: vec![row as u64], count: 1 })
        .expected("a value in every row")
}

fn first_null(array: &dyn Array) -> usize {
    (0..array.len()).find(|&i| array.is_null(i)).unwrap_or(0)
}
