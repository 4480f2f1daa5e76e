"""Rewrites a credence run directory with pyarrow, polars and DuckDB, each with its own
defaults, as a user who builds or edits run directories with those libraries would.

Usage: python3 tests/interop/rewrite_runs.py SOURCE_RUN OUT_DIR
Writes OUT_DIR/{pyarrow,polars,duckdb,encodings,naive-timestamps}/ (each a run directory: the rewritten tables and a
copy of run.json). Needs: pip install pyarrow polars duckdb.
tests/it/interop_rewritten.rs reads the committed output (fixtures/rewritten/): each run must
validate and analyze to the same JSON as the source.

What each library changes (the point of the exercise):
- pyarrow: a list's child is named "element" (the Parquet-compliant name), not "item".
- polars: strings come back as LargeUtf8 (or Utf8View) and lists as LargeList; the unit
  metadata of the fields is dropped.
- DuckDB: timestamps are written in microseconds (TIMESTAMP WITH TIME ZONE), unsigned
  integers keep their logical type, lists are named "element"; field metadata is dropped.
"""
import glob
import os
import shutil
import sys


def rewrite_pyarrow(src, dst):
    import pyarrow.parquet as pq

    pq.write_table(pq.read_table(src), dst)


def rewrite_polars(src, dst):
    import polars as pl

    pl.read_parquet(src).write_parquet(dst)


def rewrite_duckdb(src, dst):
    import duckdb

    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")
    con.execute(f"COPY (SELECT * FROM read_parquet('{src}')) TO '{dst}' (FORMAT parquet)")


def rewrite_encodings(src, dst):
    """pyarrow again, with every lossless encoding a writer may choose: dictionary strings
    (Utf8View where the reader asks for it), signed 64-bit integers and LargeList."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(src)
    columns = []
    for field, column in zip(table.schema, table.columns):
        t = field.type
        if pa.types.is_string(t):
            column = column.dictionary_encode()
        elif pa.types.is_unsigned_integer(t):
            column = column.cast(pa.int64())
        elif pa.types.is_list(t):
            column = column.cast(pa.large_list(t.value_type))
        columns.append(column)
    pq.write_table(pa.table(columns, names=table.column_names), dst)


def rewrite_naive_timestamps(src, dst):
    """The mistake the reader must catch: timestamps stripped of their zone."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(src)
    columns = [c.cast(pa.timestamp(c.type.unit)) if pa.types.is_timestamp(c.type) else c for c in table.columns]
    pq.write_table(pa.table(columns, names=table.column_names), dst)


def main(source, out):
    writers = {"pyarrow": rewrite_pyarrow, "polars": rewrite_polars, "duckdb": rewrite_duckdb, "encodings": rewrite_encodings,
               "naive-timestamps": rewrite_naive_timestamps}
    for name, write in writers.items():
        run = os.path.join(out, name)
        shutil.rmtree(run, ignore_errors=True)
        os.makedirs(run)
        shutil.copy(os.path.join(source, "run.json"), run)
        for table in sorted(glob.glob(os.path.join(source, "*.parquet"))):
            write(table, os.path.join(run, os.path.basename(table)))
        print(f"wrote {run}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
