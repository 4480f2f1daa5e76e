//! `credence validate`: every check of a run directory, collected as `Problem`s.
//!
//! Validation never stops at the first problem and never panics: an unreadable table becomes
//! one error, and the other tables are still checked.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use arrow_array::Array;
use serde::Serialize;

use super::manifest::{Arrival, Manifest, RUN_SCHEMA, TimestampQuality};
use super::problem::{Problem, RowCollector, Severity};
use super::schema::{ERROR_KINDS, PHASES, STATUSES, TableKind};
use super::table::{Column, Table, TableError};
use super::{MANIFEST_FILE, read_manifest, table_path};

/// Gaps longer than this many sampling intervals are reported.
const GAP_FACTOR: f64 = 3.0;
/// 2000-01-01 in epoch ns: earlier "absolute" times are almost surely relative.
use super::rows::YEAR_2000_NS;

/// Result of validating a run directory.
#[derive(Debug, Clone, Serialize)]
pub struct ValidationReport {
    pub run: String,
    pub valid: bool,
    pub errors: usize,
    pub warnings: usize,
    pub tables: Vec<TableSummary>,
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TableSummary {
    pub table: String,
    pub present: bool,
    pub rows: Option<usize>,
}

/// Checks the manifest, each table's schema and row-level sanity.
pub fn validate(dir: &Path) -> ValidationReport {
    let mut problems = Vec::new();
    let manifest = check_manifest_file(dir, &mut problems);
    let mut tables: HashMap<TableKind, Table> = HashMap::new();
    let mut summaries = Vec::new();
    for kind in TableKind::ALL {
        let path = table_path(dir, kind);
        let mut summary = TableSummary { table: kind.name().into(), present: path.is_some(), rows: None };
        match path {
            None if kind.required() => {
                problems.push(Problem::error(kind.file_name(), "file is missing").expected("every run directory holds requests.parquet"))
            }
            None => {}
            Some(path) => match Table::read(&path, kind) {
                Ok((table, warnings)) => {
                    problems.extend(warnings);
                    summary.rows = Some(table.num_rows());
                    tables.insert(kind, table);
                }
                Err(TableError::Schema(p)) => problems.extend(p),
                Err(e) => problems.push(Problem::error(kind.file_name(), strip_file(&e.to_string()))),
            },
        }
        summaries.push(summary);
    }
    if let Some(m) = &manifest {
        check_manifest(m, &summaries, &mut problems);
    }
    if let Some(requests) = tables.get(&TableKind::Requests) {
        check_requests(requests, manifest.as_ref(), &mut problems);
    }
    let interval = manifest.as_ref().and_then(|m| m.clock.telemetry_interval_s);
    let request_span = tables.get(&TableKind::Requests).and_then(request_span);
    for kind in [TableKind::Gpu, TableKind::Host] {
        if let Some(t) = tables.get(&kind) {
            check_telemetry(t, interval, request_span, &mut problems);
        }
    }
    if let Some(t) = tables.get(&TableKind::Server) {
        check_server(t, &mut problems);
    }
    problems.sort_by_key(|p| p.severity);
    let errors = problems.iter().filter(|p| p.is_error()).count();
    let warnings = problems.iter().filter(|p| p.severity == Severity::Warning).count();
    ValidationReport { run: dir.display().to_string(), valid: errors == 0, errors, warnings, tables: summaries, problems }
}

/// Reads `run.json`; a file that fails to parse is checked against `schemas/run.schema.json`
/// so that each problem is reported with its JSON path.
fn check_manifest_file(dir: &Path, out: &mut Vec<Problem>) -> Option<Manifest> {
    match read_manifest(dir) {
        Ok(m) => Some(m),
        Err(e) => {
            let path = dir.join(MANIFEST_FILE);
            let parsed = std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
            let schema: serde_json::Value = serde_json::from_str(RUN_SCHEMA).expect("the embedded run schema is valid JSON");
            let violations = parsed.map(|v| crate::json_schema::check(&schema, &v)).unwrap_or_default();
            if violations.is_empty() {
                let message = e.to_string();
                let message = message.strip_prefix("run.json: ").unwrap_or(&message).to_string();
                out.push(Problem::error(MANIFEST_FILE, message));
            }
            for v in violations {
                out.push(Problem::error(MANIFEST_FILE, v).expected("a manifest as described by schemas/run.schema.json"));
            }
            None
        }
    }
}

fn strip_file(message: &str) -> String {
    message.split_once(": ").map_or(message, |(_, rest)| rest).to_string()
}

fn check_manifest(m: &Manifest, tables: &[TableSummary], out: &mut Vec<Problem>) {
    let f = MANIFEST_FILE;
    if m.run_id.trim().is_empty() {
        out.push(Problem::error(f, "run_id is empty").expected("a non-empty run id"));
    }
    for t in tables {
        let listed = m.tables.iter().any(|n| n == &t.table);
        if listed && !t.present {
            out.push(Problem::error(f, format!("tables lists {} but the directory has no such table", t.table)));
        } else if !listed && t.present {
            out.push(Problem::warning(f, format!("{} is present but not listed in tables", t.table)));
        }
    }
    for file in &m.source.files {
        if file.sha256.len() != 64 || !file.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            out.push(Problem::error(f, format!("source file {}: sha256 is not 64 hex digits", file.name)).expected("a lowercase sha256 hex digest"));
        }
    }
    let w = &m.workload;
    match w.arrival {
        Arrival::Poisson | Arrival::Constant if w.rate_per_s.is_none_or(|r| r <= 0.0 || !r.is_finite()) => {
            out.push(Problem::warning(f, "workload.rate_per_s is missing for an open-loop arrival process"));
        }
        Arrival::ClosedLoop if w.concurrency.is_none_or(|c| c == 0) => {
            out.push(Problem::warning(f, "workload.concurrency is missing for a closed-loop workload"));
        }
        _ => {}
    }
    if let Some(i) = m.clock.telemetry_interval_s
        && (i <= 0.0 || !i.is_finite())
    {
        out.push(Problem::error(f, "clock.telemetry_interval_s must be positive").expected("> 0"));
    }
}

fn request_span(t: &Table) -> Option<(i64, i64)> {
    let sent = t.timestamps("sent_ns")?;
    let end = t.timestamps("end_ns")?;
    let lo = sent.iter().flatten().min()?;
    let hi = end.iter().flatten().max()?;
    Some((*lo, *hi))
}

fn ms(ns: i64) -> String {
    format!("{:.3} ms", ns as f64 / 1e6)
}

fn push(out: &mut Vec<Problem>, rows: RowCollector, base: Problem) {
    if rows.is_empty() {
        return;
    }
    let mut p = base;
    if let Some(d) = &rows.detail {
        p.message = format!("{} ({d} in the first)", p.message);
    }
    if let Some(r) = rows.into_rows() {
        p = p.rows(r);
    }
    out.push(p);
}

/// Checks the requests table: per-row timing order, ids, vocabularies, ranges and the clock.
fn check_requests(t: &Table, manifest: Option<&Manifest>, out: &mut Vec<Problem>) {
    let f = TableKind::Requests.file_name();
    let Some(c) = RequestColumns::of(t) else {
        return;
    };
    let n = t.num_rows();
    if n == 0 {
        out.push(Problem::warning(f, "has no rows: there is nothing to analyze"));
        return;
    }
    let mut rows = RequestRowChecks::with_capacity(n);
    for i in 0..n {
        rows.check(&c, i);
    }
    rows.report(f, out);
    if !c.chunks.null_items.is_empty() {
        let mut rows = RowCollector::default();
        c.chunks.null_items.iter().for_each(|&r| rows.push(r));
        push(out, rows, Problem::error(f, "null item inside a chunk list").column("chunk_ns").expected("no null chunk times"));
    }
    check_vocabulary(t, "status", &STATUSES, false, out);
    check_vocabulary(t, "error_kind", &ERROR_KINDS, true, out);
    check_vocabulary(t, "phase", &PHASES, true, out);
    check_error_consistency(t, out);
    check_range(t, "http_status", 100.0, 599.0, out);
    if let Some(m) = manifest
        && m.clock.timestamps == TimestampQuality::Absolute
        && c.sent.iter().flatten().any(|&s| s < YEAR_2000_NS)
    {
        out.push(
            Problem::warning(f, "timestamps before the year 2000 in a run whose clock says absolute")
                .column("sent_ns")
                .expected("epoch ns UTC; set clock.timestamps to relative if the origin is unknown"),
        );
    }
}

/// The requests table's id and time columns.
struct RequestColumns<'a> {
    ids: &'a arrow_array::StringArray,
    sched: &'a [Option<i64>],
    sent: &'a [Option<i64>],
    first: &'a [Option<i64>],
    end: &'a [Option<i64>],
    first_byte: &'a [Option<i64>],
    first_content: &'a [Option<i64>],
    chunks: &'a super::table::TimestampLists,
}

impl<'a> RequestColumns<'a> {
    /// The columns, when the table has them all (a schema problem is reported elsewhere).
    fn of(t: &'a Table) -> Option<RequestColumns<'a>> {
        Some(RequestColumns {
            ids: t.strings("request_id")?,
            sched: t.timestamps("scheduled_ns")?,
            sent: t.timestamps("sent_ns")?,
            first: t.timestamps("first_token_ns")?,
            end: t.timestamps("end_ns")?,
            chunks: t.timestamp_lists("chunk_ns")?,
            first_byte: t.timestamps("first_byte_ns").unwrap_or(&[]),
            first_content: t.timestamps("first_content_ns").unwrap_or(&[]),
        })
    }
}

/// Rows that fail each per-request check, and the ids seen so far.
struct RequestRowChecks<'a> {
    negative: RowCollector,
    ft_before_sent: RowCollector,
    fb_outside: RowCollector,
    fc_outside: RowCollector,
    end_before_ft: RowCollector,
    sent_early: RowCollector,
    chunk_outside: RowCollector,
    chunk_order: RowCollector,
    seen: HashSet<&'a str>,
    dup: RowCollector,
}

impl<'a> RequestRowChecks<'a> {
    /// No failures yet, room for `n` ids.
    fn with_capacity(n: usize) -> RequestRowChecks<'a> {
        RequestRowChecks {
            negative: RowCollector::default(),
            ft_before_sent: RowCollector::default(),
            fb_outside: RowCollector::default(),
            fc_outside: RowCollector::default(),
            end_before_ft: RowCollector::default(),
            sent_early: RowCollector::default(),
            chunk_outside: RowCollector::default(),
            chunk_order: RowCollector::default(),
            seen: HashSet::with_capacity(n),
            dup: RowCollector::default(),
        }
    }

    /// Checks row `i`: sent ≤ first byte ≤ first token ≤ first content ≤ end, chunks inside and in order, schedule kept, id unique.
    fn check(&mut self, c: &RequestColumns<'a>, i: usize) {
        let (Some(s), Some(e)) = (c.sent[i], c.end[i]) else {
            return;
        };
        if e < s {
            self.negative.push_with(i, || format!("end is {} before sent", ms(s - e)));
        }
        if let Some(ft) = c.first[i] {
            if ft < s {
                self.ft_before_sent.push_with(i, || format!("first token is {} before sent", ms(s - ft)));
            }
            if e < ft {
                self.end_before_ft.push_with(i, || format!("end is {} before the first token", ms(ft - e)));
            }
        }
        if let Some(fb) = c.first_byte.get(i).copied().flatten()
            && (fb < s || fb > e || c.first[i].is_some_and(|ft| ft < fb))
        {
            self.fb_outside.push_with(i, || format!("first byte {} after sent", ms(fb - s)));
        }
        if let Some(fc) = c.first_content.get(i).copied().flatten() {
            self.check_first_content(i, fc, c.first[i], e);
        }
        if let Some(sc) = c.sched[i]
            && s < sc - 1_000_000
        {
            self.sent_early.push_with(i, || format!("sent {} before its scheduled time", ms(sc - s)));
        }
        if let Some(list) = c.chunks.get(i) {
            if list.iter().any(|&x| x < s || x > e) {
                self.chunk_outside.push(i);
            }
            if list.windows(2).any(|w| w[1] < w[0]) {
                self.chunk_order.push(i);
            }
        }
        if !c.ids.is_null(i) && !self.seen.insert(c.ids.value(i)) {
            let id = c.ids.value(i).to_string();
            self.dup.push_with(i, || format!("id {:?}", crate::text::sanitize(&id)));
        }
    }

    /// The first answer token comes at or after the first token of any kind, and by the end.
    fn check_first_content(&mut self, i: usize, fc: i64, first_token: Option<i64>, e: i64) {
        match first_token {
            None => self.fc_outside.push_with(i, || "a first content token but no first token".into()),
            Some(ft) if fc < ft => self.fc_outside.push_with(i, || format!("first content is {} before the first token", ms(ft - fc))),
            Some(_) if fc > e => self.fc_outside.push_with(i, || format!("first content is {} after the end", ms(fc - e))),
            Some(_) => {}
        }
    }

    /// One problem per failed check, naming its rows.
    fn report(self, f: &str, out: &mut Vec<Problem>) {
        push(out, self.negative, Problem::error(f, "negative duration").column("end_ns").expected("end_ns >= sent_ns"));
        push(out, self.ft_before_sent, Problem::error(f, "first token before sent").column("first_token_ns").expected("first_token_ns >= sent_ns"));
        push(
            out,
            self.fb_outside,
            Problem::error(f, "first byte outside the request's span or after the first token")
                .column("first_byte_ns")
                .expected("sent_ns <= first_byte_ns <= first_token_ns <= end_ns"),
        );
        push(
            out,
            self.fc_outside,
            Problem::error(f, "first content token before the first token or after the end")
                .column("first_content_ns")
                .expected("first_token_ns <= first_content_ns <= end_ns"),
        );
        push(out, self.end_before_ft, Problem::error(f, "end before first token").column("end_ns").expected("end_ns >= first_token_ns"));
        push(
            out,
            self.sent_early,
            Problem::warning(f, "request sent more than 1 ms before its scheduled time").column("sent_ns").expected("sent_ns >= scheduled_ns"),
        );
        push(out, self.dup, Problem::error(f, "duplicate request id").column("request_id").expected("unique ids"));
        push(out, self.chunk_outside, Problem::error(f, "chunk time outside the request's span").column("chunk_ns").expected("sent_ns <= chunk <= end_ns"));
        push(out, self.chunk_order, Problem::error(f, "chunk times go backwards").column("chunk_ns").expected("non-decreasing chunk times"));
    }
}

fn check_vocabulary(t: &Table, column: &str, allowed: &[&str], nullable: bool, out: &mut Vec<Problem>) {
    let Some(values) = t.strings(column) else {
        return;
    };
    let mut bad = RowCollector::default();
    for (i, v) in values.iter().enumerate() {
        match v {
            Some(v) if !allowed.contains(&v) => bad.push_with(i, || format!("{:?}", crate::text::sanitize(v))),
            None if !nullable => bad.push(i),
            _ => {}
        }
    }
    let file = t.kind.file_name();
    push(out, bad, Problem::error(file, "unknown value").column(column).expected(format!("one of {}", allowed.join(", "))));
}

fn check_error_consistency(t: &Table, out: &mut Vec<Problem>) {
    let (Some(status), Some(kind)) = (t.strings("status"), t.strings("error_kind")) else {
        return;
    };
    let mut missing = RowCollector::default();
    let mut stray = RowCollector::default();
    for i in 0..t.num_rows() {
        let is_error = !status.is_null(i) && status.value(i) == "error";
        if is_error && kind.is_null(i) {
            missing.push(i);
        } else if !is_error && !kind.is_null(i) {
            stray.push(i);
        }
    }
    let f = t.kind.file_name();
    push(out, missing, Problem::warning(f, "failed request without an error kind").column("error_kind").expected("an error_kind when status = error"));
    push(out, stray, Problem::warning(f, "successful request with an error kind").column("error_kind").expected("null error_kind when status = ok"));
}

/// Values of a numeric column must lie in `[min, max]` and be finite.
fn check_range(t: &Table, column: &str, min: f64, max: f64, out: &mut Vec<Problem>) {
    let mut bad = RowCollector::default();
    let mut visit = |i: usize, v: f64| {
        if !(v.is_finite() && v >= min && v <= max) {
            bad.push_with(i, || format!("value {v}"));
        }
    };
    match t.column(column) {
        Some(Column::Float64(v)) => v.iter().enumerate().for_each(|(i, x)| {
            if let Some(x) = x {
                visit(i, *x)
            }
        }),
        Some(Column::UInt32(v)) => v.iter().enumerate().for_each(|(i, x)| {
            if let Some(x) = x {
                visit(i, *x as f64)
            }
        }),
        Some(Column::UInt64(v)) => v.iter().enumerate().for_each(|(i, x)| {
            if let Some(x) = x {
                visit(i, *x as f64)
            }
        }),
        _ => return,
    }
    push(out, bad, Problem::error(t.kind.file_name(), "value outside the physical range").column(column).expected(format!("{min} <= {column} <= {max}")));
}

/// Physical ranges of telemetry columns.
const RANGES: &[(&str, f64, f64)] = &[
    ("sm_clock_mhz", 0.0, 10_000.0),
    ("sm_clock_max_mhz", 1.0, 10_000.0),
    ("mem_clock_mhz", 0.0, 50_000.0),
    ("mem_clock_max_mhz", 1.0, 50_000.0),
    ("temp_gpu_c", -40.0, 150.0),
    ("temp_mem_c", -40.0, 150.0),
    ("temp_slowdown_c", 0.0, 150.0),
    ("power_w", 0.0, 5_000.0),
    ("power_limit_w", 1.0, 5_000.0),
    ("enforced_power_limit_w", 1.0, 5_000.0),
    ("util_gpu_pct", 0.0, 100.0),
    ("util_mem_pct", 0.0, 100.0),
    ("pstate", 0.0, 15.0),
    ("interval_s", 0.0, 3_600.0),
    ("cpu_user_pct", 0.0, 100.0),
    ("cpu_system_pct", 0.0, 100.0),
    ("cpu_iowait_pct", 0.0, 100.0),
    ("cpu_steal_pct", 0.0, 100.0),
    ("cpu_idle_pct", 0.0, 100.0),
    ("psi_cpu_some_avg10", 0.0, 100.0),
    ("load1", 0.0, 1e6),
    ("cpu_freq_mhz_avg", 0.0, 20_000.0),
    ("lg_cpu_pct", 0.0, 100.0 * 4096.0),
    ("lg_max_thread_cpu_pct", 0.0, 100.0),
    ("lg_send_lag_p50_ms", -1_000.0, 3.6e6),
    ("lg_send_lag_p99_ms", -1_000.0, 3.6e6),
    ("lg_send_lag_max_ms", -1_000.0, 3.6e6),
];

/// Cumulative counters: a decrease means a reset or a corrupt sample.
const COUNTERS: &[&str] = &[
    "energy_mj",
    "viol_power_ns",
    "viol_thermal_ns",
    "ctx_switches",
    "net_rx_bytes",
    "net_tx_bytes",
    "net_errs",
    "net_drops",
    "tcp_out_segs",
    "tcp_retrans_segs",
    "tcp_timeouts",
    "tcp_listen_overflows",
    "lg_vol_ctxsw",
    "lg_invol_ctxsw",
];

/// Row indices of each telemetry stream: per (host, gpu) for gpu, per host for host.
fn streams(t: &Table) -> Vec<(String, Vec<usize>)> {
    let host = t.strings("host");
    let gpu = t.strings("gpu_uuid");
    let mut map: HashMap<String, Vec<usize>> = HashMap::new();
    for i in 0..t.num_rows() {
        let mut key = host.map_or(String::new(), |h| h.value(i).to_string());
        if let Some(g) = gpu {
            key.push('/');
            key.push_str(g.value(i));
        }
        map.entry(key).or_default().push(i);
    }
    let mut v: Vec<_> = map.into_iter().collect();
    v.sort();
    v
}

/// Checks a telemetry table: physical ranges, memory, and per stream its order, gaps, coverage and counters.
fn check_telemetry(t: &Table, interval_s: Option<f64>, request_span: Option<(i64, i64)>, out: &mut Vec<Problem>) {
    let Some(ts) = t.timestamps("ts_ns") else {
        return;
    };
    for (name, lo, hi) in RANGES {
        check_range(t, name, *lo, *hi, out);
    }
    check_memory(t, out);
    let telemetry = Telemetry { t, f: t.kind.file_name(), ts, interval_s, request_span };
    for (stream, rows) in streams(t) {
        telemetry.check_stream(&stream, &rows, out);
    }
}

/// Memory used must not exceed memory total.
fn check_memory(t: &Table, out: &mut Vec<Problem>) {
    if let (Some(used), Some(total)) = (t.u64s("mem_used_bytes"), t.u64s("mem_total_bytes")) {
        let mut bad = RowCollector::default();
        for (i, (u, tot)) in used.iter().zip(total).enumerate() {
            if let (Some(u), Some(tot)) = (u, tot)
                && u > tot
            {
                bad.push(i);
            }
        }
        push(
            out,
            bad,
            Problem::error(t.kind.file_name(), "memory used exceeds memory total").column("mem_used_bytes").expected("mem_used_bytes <= mem_total_bytes"),
        );
    }
}

/// A telemetry table with what its streams are checked against.
struct Telemetry<'a> {
    t: &'a Table,
    f: &'static str,
    ts: &'a [Option<i64>],
    interval_s: Option<f64>,
    request_span: Option<(i64, i64)>,
}

impl Telemetry<'_> {
    /// Checks one stream (a host, or a GPU of a host): increasing times, gaps, coverage of the requests, counters.
    fn check_stream(&self, stream: &str, rows: &[usize], out: &mut Vec<Problem>) {
        let (f, ts) = (self.f, self.ts);
        let times: Vec<i64> = rows.iter().filter_map(|&r| ts[r]).collect();
        let mut backwards = RowCollector::default();
        for w in rows.windows(2) {
            if let (Some(a), Some(b)) = (ts[w[0]], ts[w[1]])
                && b <= a
            {
                backwards.push_with(w[1], || format!("{} after the previous sample", ms(b - a)));
            }
        }
        push(
            out,
            backwards,
            Problem::error(f, format!("timestamps of {stream} are not increasing")).column("ts_ns").expected("strictly increasing sample times per stream"),
        );
        let Some(step) = self.interval_s.map(|s| (s * 1e9) as i64).or_else(|| median_step(&times)) else {
            return;
        };
        let mut gaps = RowCollector::default();
        for (k, w) in times.windows(2).enumerate() {
            if (w[1] - w[0]) as f64 > GAP_FACTOR * step as f64 {
                gaps.push_with(rows[k + 1], || format!("a gap of {:.1} s", (w[1] - w[0]) as f64 / 1e9));
            }
        }
        push(
            out,
            gaps,
            Problem::warning(f, format!("sampling gaps in {stream} longer than {GAP_FACTOR} x the {:.2} s interval", step as f64 / 1e9)).column("ts_ns"),
        );
        self.check_coverage(stream, &times, step, out);
        self.check_counters(stream, rows, out);
    }

    /// The stream must cover the requests, give or take one sampling step.
    fn check_coverage(&self, stream: &str, times: &[i64], step: i64, out: &mut Vec<Problem>) {
        if let (Some((lo, hi)), Some(first), Some(last)) = (self.request_span, times.first(), times.last()) {
            let before = (first - lo - step).max(0);
            let after = (hi - last - step).max(0);
            if before > 0 || after > 0 {
                out.push(
                    Problem::warning(
                        self.f,
                        format!(
                            "telemetry of {stream} does not cover the requests: {:.1} s uncovered at the start, {:.1} s at the end",
                            before as f64 / 1e9,
                            after as f64 / 1e9
                        ),
                    )
                    .column("ts_ns")
                    .expected("telemetry from before the first request to after the last"),
                );
            }
        }
    }

    /// Cumulative counters must not decrease within the stream.
    fn check_counters(&self, stream: &str, rows: &[usize], out: &mut Vec<Problem>) {
        for counter in COUNTERS {
            let Some(values) = self.t.u64s(counter) else {
                continue;
            };
            let mut resets = RowCollector::default();
            let mut prev: Option<u64> = None;
            for &r in rows {
                if let Some(v) = values[r] {
                    if prev.is_some_and(|p| v < p) {
                        resets.push(r);
                    }
                    prev = Some(v);
                }
            }
            push(
                out,
                resets,
                Problem::warning(self.f, format!("cumulative counter decreased in {stream} (reset?)"))
                    .column(counter)
                    .expected("non-decreasing cumulative counter"),
            );
        }
    }
}

fn median_step(times: &[i64]) -> Option<i64> {
    let mut d: Vec<i64> = times.windows(2).map(|w| w[1] - w[0]).filter(|d| *d > 0).collect();
    if d.is_empty() {
        return None;
    }
    let mid = d.len() / 2;
    Some(*d.select_nth_unstable(mid).1)
}

fn check_server(t: &Table, out: &mut Vec<Problem>) {
    let Some(values) = t.f64s("value") else {
        return;
    };
    let mut bad = RowCollector::default();
    for (i, v) in values.iter().enumerate() {
        if v.is_some_and(|v| v.is_infinite()) {
            bad.push(i);
        }
    }
    push(out, bad, Problem::warning(t.kind.file_name(), "infinite metric value").column("value"));
}
