//! The integration tests, one binary (one link on a 2-core machine instead of 30): each module
//! runs the real `credence` binary, or the library the way a caller would. Filter with the module
//! name: `cargo test --release --locked --test it golden::`.

mod common;

mod analyze_cli;
mod analyze_edges;
mod attribution_sim;
mod audit_telemetry;
mod bench_cli;
mod bench_https;
mod capacity_cli;
mod capacity_study;
mod censoring_cli;
mod censoring_study;
mod collect_cli;
mod compare_cli;
mod compare_study;
mod conditions_sim;
mod conversations_sim;
mod coverage;
mod edges_cli;
#[cfg(feature = "fuzzing")]
mod fuzz_corpus;
mod golden;
mod history_cli;
mod history_study;
mod html_report;
mod import_cli;
mod import_invalid_rows;
mod interop_rewritten;
mod messages_cli;
mod mock_server;
mod mock_timeline;
mod overload_cli;
mod overload_sim;
mod peers_aiperf;
mod peers_guidellm;
mod peers_inference_perf;
mod plan_cli;
mod plan_study;
mod report_cli;
mod report_zh;
mod resource_bounds;
mod schema_drift;
mod series_cli;
mod simulate;
mod steady_sim;
mod until_cli;
mod until_study;
mod validate_cli;
mod workloads_cli;
mod zh_definitions;
mod zh_layout;
