#!/usr/bin/env bash
# Usage: fuzz/run.sh SECONDS [TARGET...]
# Fuzzes each target (all by default) for SECONDS, one process at a time, starting from its
# committed corpus plus any seeds in $SEEDS/<target>/; then minimizes (-merge=1) the corpus
# and what the run found back into fuzz/corpus/<target>/. Crashes go to fuzz/artifacts/<target>/,
# each run's log to fuzz/logs/<target>.log (its last line holds the final cov:/ft: numbers).
set -euo pipefail
cd "$(dirname "$0")"
seconds="$1"; shift
bin="${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-gnu/release"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ls fuzz_targets | sed 's/\.rs$//')
flags=(-rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1)
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t" "work/$t" "artifacts/$t" logs
  seeds=(); [ -d "${SEEDS:-/nonexistent}/$t" ] && seeds=("$SEEDS/$t")
  "$bin/$t" "${flags[@]}" -max_total_time="$seconds" -artifact_prefix="artifacts/$t/" \
    "work/$t" "corpus/$t" "${seeds[@]}" > "logs/$t.log" 2>&1 || echo "$t: exited $? (see fuzz/logs/$t.log, fuzz/artifacts/$t/)"
  grep -E '^#[0-9]+ +DONE|^Done [0-9]+ runs' "logs/$t.log" | tail -2 | sed "s/^/$t: /" || true
  rm -rf "corpus/$t.merged" && mkdir -p "corpus/$t.merged"
  "$bin/$t" -merge=1 -max_len=65536 -rss_limit_mb=2048 -timeout=10 "corpus/$t.merged" "corpus/$t" "work/$t" "${seeds[@]}" > "logs/$t.merge.log" 2>&1
  rm -rf "corpus/$t" && mv "corpus/$t.merged" "corpus/$t"
done
