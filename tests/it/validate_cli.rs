//! `credence validate` through the real binary, on deliberately broken copies of a fixture.
//! Each failure mode must give its specific error and exit code 2; nothing may panic.


use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, TimestampNanosecondArray};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use crate::common::{Scratch, copy_dir, credence, fixture, stderr, stdout};
use credence::run::{Column, Table, TableKind};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// A fresh copy of the small steady fixture.
fn broken_copy(scratch: &Scratch) -> std::path::PathBuf {
    let dir = scratch.path("run");
    copy_dir(&fixture("scenarios/steady"), &dir);
    dir
}

/// Validates `dir` and returns (exit code, stdout).
fn validate(dir: &Path) -> (i32, String) {
    let out = credence(&["validate", dir.to_str().unwrap()]);
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    (out.status.code().unwrap_or(-1), stdout(&out))
}

fn expect_invalid(dir: &Path, needles: &[&str]) {
    let (code, text) = validate(dir);
    assert_eq!(code, 2, "expected exit 2, got {code}:\n{text}");
    for n in needles {
        assert!(text.contains(n), "expected {n:?} in:\n{text}");
    }
}

/// Loads a table, lets `edit` change it, writes it back.
fn edit_table(dir: &Path, kind: TableKind, edit: impl FnOnce(&mut Table)) {
    let path = dir.join(kind.file_name());
    let (mut table, _) = Table::read(&path, kind).unwrap();
    edit(&mut table);
    table.write_parquet(&path).unwrap();
}

/// Rewrites a Parquet file at the Arrow level (to produce layouts credence would never write).
fn rewrite_arrow(path: &Path, edit: impl Fn(&Schema, Vec<ArrayRef>) -> (Schema, Vec<ArrayRef>)) {
    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap().build().unwrap();
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    let (schema, _) = edit(&batches[0].schema(), batches[0].columns().to_vec());
    let schema = Arc::new(schema);
    let mut w = ArrowWriter::try_new(std::fs::File::create(path).unwrap(), schema.clone(), None).unwrap();
    for b in batches {
        let (_, cols) = edit(&b.schema(), b.columns().to_vec());
        w.write(&RecordBatch::try_new(schema.clone(), cols).unwrap()).unwrap();
    }
    w.close().unwrap();
}

#[test]
fn clean_fixture_is_valid() {
    let s = Scratch::new("clean");
    let (code, text) = validate(&broken_copy(&s));
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("valid (0 errors"), "{text}");
}

#[test]
fn every_fixture_is_valid() {
    for dir in ["demo", "ab/base", "ab/cand", "aa/a1", "aa/a2", "aa/a3"] {
        let (code, text) = validate(&fixture(dir));
        assert_eq!(code, 0, "{dir}: {text}");
    }
    for entry in std::fs::read_dir(fixture("scenarios")).unwrap() {
        let (code, text) = validate(&entry.unwrap().path());
        assert_eq!(code, 0, "{text}");
    }
}

#[test]
fn truncated_parquet() {
    let s = Scratch::new("trunc");
    let dir = broken_copy(&s);
    let path = dir.join("requests.parquet");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    expect_invalid(&dir, &["requests.parquet", "not a readable Parquet file"]);
}

#[test]
fn not_parquet_at_all() {
    let s = Scratch::new("notpq");
    let dir = broken_copy(&s);
    std::fs::write(dir.join("gpu.parquet"), "timestamp,power\n1,2\n").unwrap();
    expect_invalid(&dir, &["gpu.parquet", "not a readable Parquet file"]);
}

#[test]
fn missing_column() {
    let s = Scratch::new("missingcol");
    let dir = broken_copy(&s);
    rewrite_arrow(&dir.join("requests.parquet"), |schema, mut cols| {
        let idx = schema.index_of("end_ns").unwrap();
        cols.remove(idx);
        let fields: Vec<_> = schema.fields().iter().filter(|f| f.name() != "end_ns").cloned().collect();
        (Schema::new(fields), cols)
    });
    expect_invalid(&dir, &["requests.parquet: column end_ns: column is missing", "timestamp[ns, UTC]"]);
}

#[test]
fn wrong_type_and_missing_time_zone() {
    let s = Scratch::new("wrongtype");
    let dir = broken_copy(&s);
    rewrite_arrow(&dir.join("requests.parquet"), |schema, mut cols| {
        let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
        let out = schema.index_of("output_tokens").unwrap();
        let as_f64: arrow_array::Float64Array =
            cols[out].as_any().downcast_ref::<arrow_array::UInt32Array>().unwrap().iter().map(|v| v.map(f64::from)).collect();
        cols[out] = Arc::new(as_f64);
        fields[out] = Field::new("output_tokens", DataType::Float64, true);
        let sent = schema.index_of("sent_ns").unwrap();
        let naive = cols[sent].as_any().downcast_ref::<TimestampNanosecondArray>().unwrap().clone().with_timezone_opt(None::<String>);
        cols[sent] = Arc::new(naive);
        fields[sent] = Field::new("sent_ns", DataType::Timestamp(TimeUnit::Nanosecond, None), false);
        (Schema::new(fields), cols)
    });
    expect_invalid(&dir, &["column output_tokens: has type Float64 (expected an unsigned integer", "column sent_ns", "UTC time zone"]);
}

/// Signed integers are read as the unsigned columns they stand for while their values fit;
/// a value that does not fit is refused with its row, not wrapped.
#[test]
fn signed_integers_read_while_their_values_fit() {
    let s = Scratch::new("signed");
    let dir = broken_copy(&s);
    let to_i64 = |negative_row: Option<usize>| {
        move |schema: &Schema, mut cols: Vec<ArrayRef>| {
            let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
            let out = schema.index_of("output_tokens").unwrap();
            let mut v: Vec<Option<i64>> = cols[out].as_any().downcast_ref::<arrow_array::UInt32Array>().unwrap().iter().map(|v| v.map(i64::from)).collect();
            if let Some(r) = negative_row {
                v[r] = Some(-1);
            }
            cols[out] = Arc::new(Int64Array::from(v));
            fields[out] = Field::new("output_tokens", DataType::Int64, true);
            (Schema::new(fields), cols)
        }
    };
    rewrite_arrow(&dir.join("requests.parquet"), to_i64(None));
    let (code, text) = validate(&dir);
    assert_eq!(code, 0, "{text}");
    let s2 = Scratch::new("signed_bad");
    let dir = broken_copy(&s2);
    rewrite_arrow(&dir.join("requests.parquet"), to_i64(Some(7)));
    expect_invalid(&dir, &["column output_tokens", "row 7", "value -1 does not fit"]);
}

#[test]
fn null_in_required_column() {
    let s = Scratch::new("nullreq");
    let dir = broken_copy(&s);
    rewrite_arrow(&dir.join("requests.parquet"), |schema, mut cols| {
        let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
        let end = schema.index_of("end_ns").unwrap();
        let mut values: Vec<Option<i64>> = cols[end].as_any().downcast_ref::<TimestampNanosecondArray>().unwrap().iter().collect();
        values[3] = None;
        cols[end] = Arc::new(TimestampNanosecondArray::from(values).with_timezone("UTC"));
        fields[end] = fields[end].clone().with_nullable(true);
        (Schema::new(fields), cols)
    });
    expect_invalid(&dir, &["column end_ns, row 3: holds a null in a required column"]);
}

fn shift_timestamps(table: &mut Table, column: &str, rows: &[usize], delta_ns: i64) {
    let mut v = table.timestamps(column).unwrap().to_vec();
    for &r in rows {
        v[r] = v[r].map(|x| x + delta_ns);
    }
    table.replace_column(column, Column::Timestamp(v)).unwrap();
}

#[test]
fn negative_duration() {
    let s = Scratch::new("negdur");
    let dir = broken_copy(&s);
    edit_table(&dir, TableKind::Requests, |t| {
        let sent = t.timestamps("sent_ns").unwrap().to_vec();
        let mut end = t.timestamps("end_ns").unwrap().to_vec();
        end[10] = sent[10].map(|s| s - 5_000_000);
        t.replace_column("end_ns", Column::Timestamp(end)).unwrap();
    });
    expect_invalid(&dir, &["column end_ns, row 10: negative duration (end is 5.000 ms before sent", "expected end_ns >= sent_ns"]);
}

#[test]
fn first_token_before_sent_and_end_before_first_token() {
    let s = Scratch::new("ftsent");
    let dir = broken_copy(&s);
    edit_table(&dir, TableKind::Requests, |t| {
        let sent = t.timestamps("sent_ns").unwrap().to_vec();
        let mut ft = t.timestamps("first_token_ns").unwrap().to_vec();
        ft[20] = sent[20].map(|s| s - 3_100_000);
        let end = t.timestamps("end_ns").unwrap().to_vec();
        ft[30] = end[30].map(|e| e + 1_000_000);
        t.replace_column("first_token_ns", Column::Timestamp(ft)).unwrap();
    });
    expect_invalid(
        &dir,
        &["column first_token_ns, row 20: first token before sent (first token is 3.100 ms before sent", "column end_ns, row 30: end before first token"],
    );
}

/// `first_content_ns` (an optional column, written by `bench` for reasoning models): a run
/// with it validates, and a first answer token before the first token or after the end is named.
#[test]
fn first_content_between_first_token_and_end() {
    let s = Scratch::new("fcontent");
    let dir = broken_copy(&s);
    let with_first_content = |t: &mut Table| {
        // Without reasoning, the first token is the first answer token.
        let fc = t.timestamps("first_token_ns").unwrap().to_vec();
        t.replace_column("first_content_ns", Column::Timestamp(fc)).unwrap();
    };
    edit_table(&dir, TableKind::Requests, with_first_content);
    let (code, text) = validate(&dir);
    assert_eq!(code, 0, "first content at the first token is valid:\n{text}");
    edit_table(&dir, TableKind::Requests, |t| {
        let (ft, end) = (t.timestamps("first_token_ns").unwrap().to_vec(), t.timestamps("end_ns").unwrap().to_vec());
        let mut fc = t.timestamps("first_content_ns").unwrap().to_vec();
        fc[5] = ft[5].map(|x| x - 2_000_000);
        fc[7] = end[7].map(|x| x + 4_000_000);
        t.replace_column("first_content_ns", Column::Timestamp(fc)).unwrap();
    });
    expect_invalid(
        &dir,
        &["column first_content_ns, rows 5, 7", "first content is 2.000 ms before the first token", "expected first_token_ns <= first_content_ns <= end_ns"],
    );
}

#[test]
fn duplicate_request_ids() {
    let s = Scratch::new("dup");
    let dir = broken_copy(&s);
    edit_table(&dir, TableKind::Requests, |t| {
        let ids = t.strings("request_id").unwrap();
        let mut v: Vec<String> = ids.iter().map(|x| x.unwrap().to_string()).collect();
        v[5] = v[4].clone();
        t.replace_column("request_id", credence::run::table::utf8_column(v.iter().map(|s| Some(s.as_str())))).unwrap();
    });
    expect_invalid(&dir, &["column request_id, row 5: duplicate request id", "req-000004"]);
}

#[test]
fn chunk_outside_span() {
    let s = Scratch::new("chunk");
    let dir = broken_copy(&s);
    edit_table(&dir, TableKind::Requests, |t| {
        let mut lists = t.timestamp_lists("chunk_ns").unwrap().clone();
        let row = (0..lists.len()).find(|&r| lists.get(r).is_some_and(|l| !l.is_empty())).unwrap();
        let last = lists.offsets[row + 1] - 1;
        lists.values[last] += 60_000_000_000;
        t.replace_column("chunk_ns", Column::TimestampList(lists)).unwrap();
    });
    expect_invalid(&dir, &["column chunk_ns", "chunk time outside the request's span"]);
}

#[test]
fn telemetry_not_monotonic_and_out_of_range() {
    let s = Scratch::new("telemetry");
    let dir = broken_copy(&s);
    edit_table(&dir, TableKind::Gpu, |t| {
        shift_timestamps(t, "ts_ns", &[40], -5_000_000_000);
        let mut temp = t.f64s("temp_gpu_c").unwrap().to_vec();
        temp[7] = Some(512.0);
        t.replace_column("temp_gpu_c", Column::Float64(temp)).unwrap();
    });
    expect_invalid(
        &dir,
        &[
            "gpu.parquet: column ts_ns, row 40: timestamps of gpu-node-0/GPU-",
            "are not increasing",
            "column temp_gpu_c, row 7: value outside the physical range",
        ],
    );
}

#[test]
fn telemetry_gap_and_short_coverage_are_warnings() {
    let s = Scratch::new("gap");
    let dir = broken_copy(&s);
    edit_table(&dir, TableKind::Host, |t| {
        // Keep the first 60 samples and drop 10 after them, then stop 20 s early.
        let n = t.num_rows();
        let keep: Vec<usize> = (0..n).filter(|&i| !(60..70).contains(&i) && i < n - 20).collect();
        *t = take_rows(t, &keep);
    });
    let (code, text) = validate(&dir);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("warning: host.parquet: column ts_ns, row 60: sampling gaps"), "{text}");
    assert!(text.contains("does not cover the requests"), "{text}");
}

fn take_rows(t: &Table, rows: &[usize]) -> Table {
    let cols = t
        .specs_and_columns()
        .map(|(spec, c)| {
            let c = match c {
                Column::Timestamp(v) => Column::Timestamp(rows.iter().map(|&r| v[r]).collect()),
                Column::UInt32(v) => Column::UInt32(rows.iter().map(|&r| v[r]).collect()),
                Column::UInt64(v) => Column::UInt64(rows.iter().map(|&r| v[r]).collect()),
                Column::Float64(v) => Column::Float64(rows.iter().map(|&r| v[r]).collect()),
                Column::Utf8(v) => Column::Utf8(rows.iter().map(|&r| v.is_valid(r).then(|| v.value(r))).collect()),
                Column::TimestampList(_) => unreachable!("host has no list columns"),
            };
            (spec.name, c)
        })
        .collect();
    Table::from_columns(t.kind, cols).unwrap()
}

#[test]
fn missing_or_malformed_manifest() {
    let s = Scratch::new("manifest");
    let dir = broken_copy(&s);
    std::fs::write(dir.join("run.json"), "{\"format_version\": 1,").unwrap();
    expect_invalid(&dir, &["run.json", "line 1"]);
    std::fs::remove_file(dir.join("run.json")).unwrap();
    expect_invalid(&dir, &["run.json", "cannot read run.json"]);
}

#[test]
fn missing_requests_table() {
    let s = Scratch::new("noreq");
    let dir = broken_copy(&s);
    std::fs::remove_file(dir.join("requests.parquet")).unwrap();
    expect_invalid(&dir, &["requests.parquet: file is missing", "tables lists requests"]);
}

#[test]
fn nonexistent_directory() {
    let s = Scratch::new("none");
    expect_invalid(&s.path("nope"), &["no such directory"]);
}

#[test]
fn json_report() {
    let s = Scratch::new("json");
    let dir = broken_copy(&s);
    edit_table(&dir, TableKind::Requests, |t| shift_timestamps(t, "end_ns", &[1, 2, 3, 4, 5, 6, 7], -100_000_000_000));
    let out = credence(&["validate", "--json", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["valid"], false);
    let p = v["problems"].as_array().unwrap().iter().find(|p| p["column"] == "end_ns").unwrap();
    assert_eq!(p["severity"], "error");
    assert_eq!(p["rows"]["count"], 7);
    assert_eq!(p["rows"]["first"], serde_json::json!([1, 2, 3, 4, 5]));
}

#[test]
fn segment_folder_reads_as_one_table() {
    let s = Scratch::new("segments");
    let dir = broken_copy(&s);
    let (host, _) = Table::read(&dir.join("host.parquet"), TableKind::Host).unwrap();
    let n = host.num_rows();
    std::fs::remove_file(dir.join("host.parquet")).unwrap();
    std::fs::create_dir(dir.join("host")).unwrap();
    take_rows(&host, &(0..n / 2).collect::<Vec<_>>()).write_parquet(&dir.join("host/seg-000.parquet")).unwrap();
    take_rows(&host, &(n / 2..n).collect::<Vec<_>>()).write_parquet(&dir.join("host/seg-001.parquet")).unwrap();
    let (code, text) = validate(&dir);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains(&format!("host      {n} rows")), "{text}");
}

// The command line's conventions (kept in this test binary rather than a new one: each costs a
// link): completions, the manual page, the version, and help that fits a terminal.

/// The subcommands, as `credence help` lists them.
fn subcommands() -> Vec<String> {
    let help = stdout(&credence(&["help"]));
    let listed = help.split("Commands:").nth(1).expect("help lists the commands").split("\n\n").next().unwrap();
    listed.lines().filter_map(|l| l.split_whitespace().next()).filter(|c| *c != "help").map(String::from).collect()
}

#[test]
fn completions_for_each_shell_name_the_subcommands() {
    let commands = subcommands();
    assert!(commands.len() >= 16 && commands.contains(&"audit".to_string()) && commands.contains(&"man".to_string()), "{commands:?}");
    for shell in ["bash", "zsh", "fish"] {
        let o = credence(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        for c in &commands {
            assert!(script.contains(c.as_str()), "{shell} completion lacks {c}");
        }
    }
    let o = credence(&["completions", "powershell-ise"]);
    assert_eq!(o.status.code(), Some(2), "an unknown shell is a usage error");
}

#[test]
fn man_prints_a_roff_page() {
    let o = credence(&["man"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{}", &page[..page.len().min(200)]);
    assert!(page.contains(".TH credence 1") && page.contains("audit"), "{}", &page[..page.len().min(400)]);
}

/// `--version` is the crate's version, with the commit when built from a git checkout whose
/// HEAD has a reflog (see build.rs).
#[test]
fn version_names_the_version_and_the_commit() {
    let o = credence(&["--version"]);
    assert!(o.status.success());
    let v = stdout(&o);
    assert!(v.starts_with(&format!("credence {}", env!("CARGO_PKG_VERSION"))), "{v}");
    let git = |args: &[&str]| std::process::Command::new("git").args(args).current_dir(crate::common::repo()).output().ok().filter(|o| o.status.success());
    let reflog = git(&["rev-parse", "--absolute-git-dir"]).map(|o| Path::new(stdout(&o).trim()).join("logs/HEAD")).filter(|p| p.is_file());
    if let (Some(_), Some(head)) = (reflog, git(&["rev-parse", "HEAD"])) {
        assert_eq!(v.trim_end(), format!("credence {} (git {})", env!("CARGO_PKG_VERSION"), &stdout(&head)[..9]));
    }
}

/// Every command's help fits a terminal and ends with an example.
#[test]
fn every_help_fits_a_terminal_with_an_example() {
    let mut helps = vec![(String::from("credence --help"), credence(&["--help"]))];
    for c in subcommands() {
        helps.push((format!("credence {c} --help"), credence(&[&c, "--help"])));
    }
    for sub in ["save", "check"] {
        helps.push((format!("credence baseline {sub} --help"), credence(&["baseline", sub, "--help"])));
    }
    for (what, o) in &helps {
        assert!(o.status.success(), "{what}");
        let text = stdout(o);
        let lines = text.lines().count();
        assert!(lines <= 50, "{what}: {lines} lines");
        assert!(text.contains("Example: credence "), "{what} has no example:\n{text}");
    }
    // The long explanations are one command away: `credence help COMMAND`.
    let (short, long) = (stdout(&credence(&["import", "--help"])), stdout(&credence(&["help", "import"])));
    assert!(!short.contains("inference-perf's files are read together") && long.contains("inference-perf's files are read together"), "{long}");
}

// The manual (README.md and docs/): its links resolve, and its getting-started commands run.

/// The Markdown files of the manual: README.md and every docs/*.md.
fn manual_files() -> Vec<std::path::PathBuf> {
    let mut files = vec![crate::common::repo().join("README.md")];
    let docs = crate::common::repo().join("docs");
    let mut chapters: Vec<_> = std::fs::read_dir(&docs).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "md")).collect();
    chapters.sort();
    files.extend(chapters);
    files
}

/// The lines outside fenced code blocks (links and headings in code are not Markdown).
fn prose_lines(text: &str) -> Vec<&str> {
    let mut in_fence = false;
    text.lines()
        .filter(|line| {
            if line.starts_with("```") {
                in_fence = !in_fence;
                return false;
            }
            !in_fence
        })
        .collect()
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor_of(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors_in(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    prose_lines(&text).iter().filter(|l| l.starts_with('#')).map(|l| anchor_of(l.trim_start_matches('#'))).collect()
}

/// Every `](target)` of a Markdown text, outside code blocks.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose_lines(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                targets.push(rest[..end].to_string());
            }
        }
    }
    targets
}

#[test]
fn every_relative_link_in_readme_and_docs_resolves() {
    let mut broken = Vec::new();
    for file in manual_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').map_or((target.as_str(), None), |(p, a)| (p, Some(a)));
            let linked = if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
            if !linked.exists() {
                broken.push(format!("{}: {target} (no such file)", file.display()));
            } else if let Some(anchor) = anchor.filter(|_| linked.extension().is_some_and(|e| e == "md")) {
                if !anchors_in(&linked).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: {target} (no heading with that anchor)", file.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The commands of the ```sh blocks of a Markdown text, comments dropped.
fn sh_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        let command = line.split(" #").next().unwrap().trim();
        if in_sh && !command.is_empty() && !command.starts_with('#') {
            commands.push(command.to_string());
        }
    }
    commands
}

#[test]
fn getting_started_commands_run_on_the_demo_data() {
    let text = std::fs::read_to_string(crate::common::repo().join("docs/getting-started.md")).unwrap();
    let commands = sh_commands(&text);
    assert!(commands.len() >= 6, "the quick start shows its commands: {commands:?}");
    let scratch = Scratch::new("getting-started");
    for command in &commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "credence", "a getting-started command runs credence: {command}");
        let args: Vec<String> =
            words[1..].iter().map(|w| if w.starts_with("fixtures/") { crate::common::repo().join(w).display().to_string() } else { w.to_string() }).collect();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_credence")).args(&args).current_dir(&scratch.0).output().unwrap();
        assert!(out.status.success(), "`{command}` exited {:?}:\n{}", out.status.code(), stderr(&out));
    }
    assert!(scratch.path("demo.pdf").exists() && scratch.path("demo.md").exists() && scratch.path("run1/truth.json").exists());
}
