//! `schemas/` is the contract; the code mirrors it. These tests fail when the two drift apart.


use credence::run::json_schema::{check, declared_paths, present_paths};
use credence::run::manifest::{GpuProcess, Manifest, Observed, SourceFile};
use credence::run::schema::{ColumnType, TableKind, describe};
use credence::simulate::{Scenario, SimOptions, simulate};
use serde_json::Value;

fn committed(name: &str) -> Value {
    let path = crate::common::repo().join("schemas").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Differences between a committed table schema and the code's columns.
fn table_drift(committed: &Value, kind: TableKind) -> Vec<String> {
    let mut out = Vec::new();
    let code = describe(kind);
    let cols = committed["columns"].as_array().cloned().unwrap_or_default();
    let code_cols = code["columns"].as_array().unwrap();
    for (i, spec) in kind.columns().iter().enumerate() {
        match cols.get(i) {
            None => out.push(format!("column {} is missing from the file", spec.name)),
            Some(c) if c != &code_cols[i] => out.push(format!("column {i}: file has {c}, code has {}", code_cols[i])),
            _ => {}
        }
        if let Some(c) = cols.get(i)
            && ColumnType::from_name(c["type"].as_str().unwrap_or("")).is_none()
        {
            out.push(format!("column {i}: unknown type {}", c["type"]));
        }
    }
    if cols.len() > kind.columns().len() {
        out.push(format!("the file has {} columns, the code {}", cols.len(), kind.columns().len()));
    }
    for key in ["table", "file", "format_version", "required", "description"] {
        if committed[key] != code[key] {
            out.push(format!("{key}: file has {}, code has {}", committed[key], code[key]));
        }
    }
    out
}

#[test]
fn table_schemas_match_the_code() {
    for kind in TableKind::ALL {
        let drift = table_drift(&committed(&format!("{}.schema.json", kind.name())), kind);
        assert!(
            drift.is_empty(),
            "schemas/{}.schema.json and crates/run/src/schema.rs disagree:\n{}\n\
             Update one of them; `credence schema {}` prints what the code has.",
            kind.name(),
            drift.join("\n"),
            kind.name()
        );
    }
}

#[test]
fn drift_check_can_fail() {
    let mut file = committed("requests.schema.json");
    file["columns"][4]["type"] = "int64".into();
    let chunk_ns = file["columns"].as_array().unwrap().iter().position(|c| c["name"] == "chunk_ns").unwrap();
    file["columns"][chunk_ns]["nullable"] = false.into();
    assert_eq!(table_drift(&file, TableKind::Requests).len(), 3);
    let mut file = committed("gpu.schema.json");
    file["columns"].as_array_mut().unwrap().pop();
    assert!(!table_drift(&file, TableKind::Gpu).is_empty());
}

#[test]
fn written_parquet_schemas_match_the_spec() {
    // (A bench run writes `first_byte_ns`; tests/it/bench_cli.rs reads it back.)
    let scratch = crate::common::Scratch::new("drift");
    let mut opts = SimOptions::new(Scenario::Steady, 3);
    opts.duration_s = 20.0;
    let sim = simulate(&opts).unwrap();
    let out = scratch.path("run");
    credence::run::write::write_run(&out, &sim.data).unwrap();
    for kind in TableKind::ALL {
        let file = std::fs::File::open(out.join(kind.file_name())).unwrap();
        let builder = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let schema = builder.schema();
        // Optional columns the simulator leaves empty are not written (they read back as null).
        let written: Vec<_> = kind.columns().iter().filter(|c| !c.optional).collect();
        assert_eq!(schema.fields().len(), written.len());
        for (field, spec) in schema.fields().iter().zip(written) {
            assert_eq!(field.name(), spec.name);
            assert_eq!(field.data_type(), &spec.ty.data_type(), "{}", spec.name);
            assert_eq!(field.is_nullable(), spec.nullable, "{}", spec.name);
            let unit = field.metadata().get("unit").map(String::as_str).unwrap_or("");
            assert_eq!(unit, spec.unit, "{}", spec.name);
        }
    }
}

/// A manifest with every optional field filled, so it exercises the whole schema.
fn full_manifest() -> Manifest {
    let mut opts = SimOptions::new(Scenario::Steady, 1);
    opts.duration_s = 20.0;
    let mut m = simulate(&opts).unwrap().data.manifest;
    m.source.files.push(SourceFile { name: "result.json".into(), size_bytes: 10, sha256: "0".repeat(64) });
    m.config.extra.insert("k".into(), "v".into());
    m.workload.concurrency = Some(8);
    m.workload.connections = Some(8);
    m.workload.tls = Some(credence::run::manifest::TlsUse { insecure: false, ca_cert: Some("ca.pem".into()) });
    m.workload.request_headers = vec!["Authorization".into()];
    m.workload.in_flight = Some(credence::run::manifest::InFlight {
        limit: 19_900,
        limited_by: "fd_limit".into(),
        fd_soft_limit: Some(20_000),
        fd_hard_limit: Some(20_000),
        prewarmed: 4,
        peak: 130,
    });
    m.workload.dataset = Some("sharegpt".into());
    m.environment.foreign_gpu_processes = Observed::known(vec![GpuProcess { gpu_index: 0, pid: 7, name: "python".into(), used_mem_bytes: Some(1) }]);
    m.environment.prefix_cache_reset = Observed::known(true);
    m.phases.note = Some("n".into());
    m.phases.stop = Some(credence::run::manifest::RunStop {
        rule: "staged".into(),
        min_duration_s: 60.0,
        max_duration_s: 1800.0,
        max_error_rate: Some(0.05),
        reason: "targets_met".into(),
        detail: None,
        stopped_at_s: 412.0,
        warmup_end_s: Some(38.0),
        targets: vec![credence::run::manifest::StopTarget { key: "ttft_p99".into(), goal: 0.03, estimate: Some(80.0), half_width: Some(0.029), met: true }],
        excluded: vec![credence::run::manifest::StopEpisode { cause: "thermal_throttle".into(), start_s: 120.0, end_s: 160.0 }],
    });
    m.server_scrapes = Some(credence::run::manifest::ServerScrapes {
        endpoint: "http://127.0.0.1:8000/metrics".into(),
        attempts: 300,
        succeeded: 297,
        failed: [("http_status".to_string(), 3)].into_iter().collect(),
        first_failure: Some("HTTP 500".into()),
        first_failure_s: Some(41.0),
    });
    m.clock.timezone_assumed = Some("Europe/Berlin".into());
    m.clock.conversion = Some("local time + --tz".into());
    m.source.capabilities = Some(credence::run::manifest::Capabilities {
        timestamps: "absolute".into(),
        scheduled_times: false,
        itl: "chunk".into(),
        warmup: "excluded".into(),
        notes: vec!["n".into()],
    });
    m
}

#[test]
fn manifest_and_run_schema_agree() {
    let schema = committed("run.schema.json");
    let value = serde_json::to_value(full_manifest()).unwrap();
    let violations = check(&schema, &value);
    assert!(violations.is_empty(), "run.json written by the code violates schemas/run.schema.json:\n{}", violations.join("\n"));
    // Every property the schema declares is written by the code (free maps aside).
    let present = present_paths(&value);
    let missing: Vec<_> = declared_paths(&schema).into_iter().filter(|p| !present.contains(p)).collect();
    assert!(missing.is_empty(), "schemas/run.schema.json declares fields the code never writes: {missing:?}");
}

#[test]
fn run_schema_check_can_fail() {
    let schema = committed("run.schema.json");
    let mut value = serde_json::to_value(full_manifest()).unwrap();
    value["workload"]["arrival"] = "bursty".into();
    value["environment"]["new_item"] = Value::Null;
    assert_eq!(check(&schema, &value).len(), 2);
}
