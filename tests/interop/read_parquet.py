"""Reads every table of a run directory with pandas (pyarrow), DuckDB and polars.

Usage: python3 tests/interop/read_parquet.py fixtures/demo [more runs...]
Needs: pip install pandas pyarrow duckdb polars (any subset; missing ones are skipped).
Exits non-zero when a library that is installed cannot read a file or sees other row counts.
"""
import glob
import importlib
import os
import sys


def have(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        print(f"skip {name}: not installed")
        return None


def main(runs):
    pd, duckdb, pl = have("pandas"), have("duckdb"), have("polars")
    failed = False
    for run in runs:
        for path in sorted(glob.glob(os.path.join(run, "*.parquet"))):
            counts = {}
            if pd:
                df = pd.read_parquet(path)
                counts["pandas"] = len(df)
                if "sent_ns" in df:
                    assert str(df["sent_ns"].dt.tz) == "UTC", "sent_ns must be UTC"
            if duckdb:
                counts["duckdb"] = duckdb.sql(f"SELECT count(*) FROM read_parquet('{path}')").fetchall()[0][0]
            if pl:
                counts["polars"] = pl.read_parquet(path).height
            ok = len(set(counts.values())) <= 1
            failed |= not ok
            print(f"{'ok ' if ok else 'BAD'} {path}: {counts}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["fixtures/demo"]))
