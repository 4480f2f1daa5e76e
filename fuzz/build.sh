#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer's coverage instrumentation on stable Rust: the
# sanitizer-coverage flags stable rustc accepts (the ones cargo-fuzz passes), no -Z flags.
# --target keeps the flags off build scripts and proc macros, which run on the host.
set -euo pipefail
cd "$(dirname "$0")"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}"
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares"
exec cargo build --release --target x86_64-unknown-linux-gnu "$@"
