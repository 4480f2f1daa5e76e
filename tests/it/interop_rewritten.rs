//! Run directories rewritten by pyarrow, polars and DuckDB (and pyarrow with dictionary
//! strings, signed integers and LargeList) read as the run credence wrote: each validates and
//! analyzes to the same JSON as its source, `fixtures/rewritten/source`.
//! `tests/interop/rewrite_runs.py` made them (see fixtures/rewritten/README.md).


use crate::common::{Scratch, credence, fixture, stderr, stdout};

fn analysis(run: &std::path::Path, s: &Scratch) -> String {
    let out = s.path("analysis.json");
    let o = credence(&["analyze", run.to_str().unwrap(), "--out", out.to_str().unwrap(), "--resamples", "999"]);
    assert!(o.status.success(), "{}: {}", run.display(), stderr(&o));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn rewritten_runs_validate_and_analyze_like_their_source() {
    let s = Scratch::new("rewritten");
    let want = analysis(&fixture("rewritten/source"), &s);
    for lib in ["pyarrow", "polars", "duckdb", "encodings"] {
        let run = fixture("rewritten").join(lib);
        let v = credence(&["validate", run.to_str().unwrap()]);
        assert!(v.status.success(), "{lib}: {}", stdout(&v));
        assert!(stdout(&v).contains("valid (0 errors"), "{lib}: {}", stdout(&v));
        assert!(want == analysis(&run, &s), "{lib}: the analysis differs from the source's");
    }
}

#[test]
fn a_zone_less_timestamp_is_refused_with_the_column_and_a_fix() {
    let v = credence(&["validate", fixture("rewritten/naive-timestamps").to_str().unwrap()]);
    assert_eq!(v.status.code(), Some(2), "{}", stdout(&v));
    let text = stdout(&v);
    assert!(text.contains("sent_ns") && text.contains("UTC time zone"), "{text}");
}
