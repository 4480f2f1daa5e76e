//! Reading run-directory tables from Parquet: one file or a folder of segments, the schema
//! checked against the spec by logical type (`logical`), values converted as they are read.

use std::fs::File;
use std::path::Path;

use arrow_array::{Array, StringArray};
use arrow_schema::Schema;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::problem::Problem;
use super::schema::TableKind;
use super::table::{Column, Table, TableError};

impl Table {
    /// Reads a table from one Parquet file, or from a folder of `*.parquet` segments read in
    /// name order. Fails with every schema problem when the layout differs from the spec.
    pub fn read(path: &Path, kind: TableKind) -> Result<(Table, Vec<Problem>), TableError> {
        let mut acc = Accumulator::new(kind);
        let mut warnings = Vec::new();
        for file in segment_files(path)? {
            warnings.extend(read_into(&file, &mut acc)?);
        }
        Ok((acc.finish(), warnings))
    }
}

/// Columns being read from one or more segment files. String parts are kept as Arrow arrays
/// and concatenated once at the end, so many segments do not copy the strings again and again.
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

    fn finish(mut self) -> Table {
        for (ci, parts) in self.strings.into_iter().enumerate() {
            if let Column::Utf8(s) = &mut self.columns[ci] {
                *s = parts.iter().flat_map(|p| p.iter()).collect();
            }
        }
        Table::from_parts(self.kind, self.columns)
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

/// Appends one Parquet file to the accumulator; returns its schema warnings.
fn read_into(path: &Path, acc: &mut Accumulator) -> Result<Vec<Problem>, TableError> {
    let kind = acc.kind;
    let label = file_label(path);
    let file = File::open(path).map_err(|e| TableError::Io { file: label.clone(), source: e })?;
    let not_parquet = |e: &dyn std::fmt::Display| TableError::NotParquet { file: label.clone(), message: e.to_string() };
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| not_parquet(&e))?;
    let problems = check_schema(&label, builder.schema(), kind);
    if problems.iter().any(Problem::is_error) {
        return Err(TableError::Schema(problems));
    }
    let schema = builder.schema().clone();
    let reader = builder.with_batch_size(64 * 1024).build().map_err(|e| not_parquet(&e))?;
    let mut nulls_in_required: Vec<(usize, usize)> = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| not_parquet(&e))?;
        for (ci, spec) in kind.columns().iter().enumerate() {
            let Ok(idx) = schema.index_of(spec.name) else {
                // An optional column this file predates (check_schema let only those through).
                if let Column::Utf8(_) = acc.columns[ci] {
                    acc.strings[ci].push(StringArray::new_null(batch.num_rows()));
                } else {
                    acc.columns[ci].push_nulls(batch.num_rows());
                }
                continue;
            };
            let array = batch.column(idx);
            if !spec.nullable && array.null_count() > 0 {
                nulls_in_required.push((ci, acc.rows + first_null(array.as_ref())));
            }
            super::logical::append(&mut acc.columns[ci], &mut acc.strings[ci], array.as_ref()).map_err(|bad| {
                let row = super::problem::RowRef { first: vec![(acc.rows + bad.row) as u64], count: 1 };
                TableError::Schema(vec![Problem::error(&label, bad.message).column(spec.name).rows(row).expected(spec.ty.logical_name())])
            })?;
        }
        acc.rows += batch.num_rows();
    }
    if !nulls_in_required.is_empty() {
        let problems = nulls_in_required
            .into_iter()
            .map(|(ci, row)| {
                let spec = &kind.columns()[ci];
                Problem::error(&label, "holds a null in a required column")
                    .column(spec.name)
                    .rows(super::problem::RowRef { first: vec![row as u64], count: 1 })
                    .expected("a value in every row")
            })
            .collect();
        return Err(TableError::Schema(problems));
    }
    Ok(problems)
}

fn first_null(array: &dyn Array) -> usize {
    (0..array.len()).find(|&i| array.is_null(i)).unwrap_or(0)
}
