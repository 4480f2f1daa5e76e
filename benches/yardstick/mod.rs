//! The side-by-side yardstick of the `analyze` benches: DuckDB computing only the four latency
//! percentiles of the same requests table, when Python can import `duckdb` (`PYTHON=...`
//! chooses the interpreter).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// DuckDB's TTFT, TPOT and end-to-end percentiles (P50, P90, P99, P99.9) of the run's requests
/// (`requests.parquet`, or every segment of `requests/`). Its wall time, or None when DuckDB is
/// not available.
pub fn duckdb_percentiles(dir: &Path) -> Option<f64> {
    const QUERY: &str = "import duckdb, sys\n\
        q = [0.5, 0.9, 0.99, 0.999]\n\
        duckdb.sql(f\"\"\"SELECT quantile_cont(epoch_ns(first_token_ns) - epoch_ns(sent_ns), {q}) AS ttft,\n\
          quantile_cont((epoch_ns(end_ns) - epoch_ns(first_token_ns)) / (output_tokens - 1), {q}) FILTER (WHERE output_tokens > 1) AS tpot,\n\
          quantile_cont(epoch_ns(end_ns) - epoch_ns(sent_ns), {q}) AS e2e\n\
          FROM read_parquet('{sys.argv[1]}') WHERE status = 'ok'\"\"\").fetchall()\n";
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let importable = Command::new(&python).args(["-c", "import duckdb"]).stderr(std::process::Stdio::null()).status().is_ok_and(|s| s.success());
    if !importable {
        eprintln!("duckdb is not importable by {python}: no side-by-side ratio (pip install duckdb)");
        return None;
    }
    let segments = dir.join("requests");
    let files = if segments.is_dir() { segments.join("*.parquet") } else { dir.join("requests.parquet") };
    let start = Instant::now();
    let ok = Command::new(&python).args(["-c", QUERY, files.to_str()?]).status().is_ok_and(|s| s.success());
    ok.then(|| start.elapsed().as_secs_f64())
}

/// Rounds of alternating credence and DuckDB runs per shape: `ROUNDS` (default 3). On a shared
/// VM a single pair is noisy (the first process to touch memory after other work pays for it);
/// alternating pairs and their median ratio are not.
pub fn rounds() -> usize {
    std::env::var("ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3).max(1)
}

/// "median 4.3× (3.9–5.1×) over 3 alternating rounds" for ratios credence / DuckDB.
pub fn ratio_summary(ratios: &[f64]) -> String {
    let mut r = ratios.to_vec();
    r.sort_by(f64::total_cmp);
    let median = if r.len() % 2 == 1 { r[r.len() / 2] } else { (r[r.len() / 2 - 1] + r[r.len() / 2]) / 2.0 };
    format!("median {median:.1}× ({:.1}–{:.1}×) over {} alternating rounds", r[0], r[r.len() - 1], r.len())
}
