#!/usr/bin/env bash
# Usage: fuzz/run.sh SECONDS [TARGET...]
# Fuzzes each target (all by default) for SECONDS, one process at a time. Before a target's
# run, its minimized corpus is unpacked from corpus-archives/<target>.tar.gz into corpus/<target>/
# (not tracked: .gitignore), replacing what was there; the run starts from that corpus, the
# seeds in git (seeds/<target>/), the crash inputs (regressions/<target>/) and any seeds in
# $SEEDS/<target>/. Then the corpus and what the run found are minimized (-merge=1) back into
# corpus/<target>/ and packed again into corpus-archives/<target>.tar.gz (reproducibly: sorted
# names, no owners or times), the file to commit. Crashes go to fuzz/artifacts/<target>/,
# each run's log to fuzz/logs/<target>.log (its last line holds the final cov:/ft: numbers).
# The archived corpus is kept under $CORPUS_KB (300) KB of inputs per target: past that, the
# largest inputs are dropped (the full merged corpus stays in fuzz/work/<target>/).
set -euo pipefail
cd "$(dirname "$0")"
seconds="$1"; shift
bin="${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-gnu/release"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ls fuzz_targets | sed 's/\.rs$//')
flags=(-rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1)
# Deletes the largest files of folder $1 until its files add up to at most $2 KB. A subshell
# without pipefail: leaving the loop early closes the pipe on `sort`, whose SIGPIPE would
# otherwise end the whole script.
trim() (
  set +o pipefail
  local total
  total=$(find "$1" -type f -printf '%s\n' | awk '{s+=$1} END {print s+0}')
  find "$1" -type f -printf '%s %p\n' | sort -rn | while read -r size file; do
    [ "$total" -le $(( $2 * 1024 )) ] && break
    rm -f "$file"; total=$(( total - size ))
  done
)
# Replaces corpus/$1/ with the contents of its archive (an empty folder if there is none).
unpack() {
  rm -rf "corpus/$1" && mkdir -p "corpus/$1"
  [ ! -f "corpus-archives/$1.tar.gz" ] || tar -xzf "corpus-archives/$1.tar.gz" -C corpus
}
# Packs corpus/$1/ into corpus-archives/$1.tar.gz, the format tests/it/fuzz_corpus.rs reads
# (ustar, gzip); the same files give the same bytes.
pack() {
  mkdir -p corpus-archives
  tar --format=ustar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 --mode=a+r,u+w,go-w \
    -C corpus -cf - "$1" | gzip -9n > "corpus-archives/$1.tar.gz.new"
  mv "corpus-archives/$1.tar.gz.new" "corpus-archives/$1.tar.gz"
}
for t in "${targets[@]}"; do
  unpack "$t"
  mkdir -p "work/$t" "artifacts/$t" logs
  seeds=(); for d in "seeds/$t" "regressions/$t" "${SEEDS:-/nonexistent}/$t"; do [ -d "$d" ] && seeds+=("$d"); done
  "$bin/$t" "${flags[@]}" -max_total_time="$seconds" -artifact_prefix="artifacts/$t/" \
    "work/$t" "corpus/$t" "${seeds[@]}" > "logs/$t.log" 2>&1 || echo "$t: exited $? (see fuzz/logs/$t.log, fuzz/artifacts/$t/)"
  grep -aE 'DONE +cov|^Done [0-9]+ runs' "logs/$t.log" | tail -2 | sed "s/^/$t: /" || true
  rm -rf "corpus/$t.merged" && mkdir -p "corpus/$t.merged"
  "$bin/$t" -merge=1 -max_len=65536 -rss_limit_mb=2048 -timeout=10 "corpus/$t.merged" "corpus/$t" "work/$t" "${seeds[@]}" > "logs/$t.merge.log" 2>&1
  rm -rf "corpus/$t" && mv "corpus/$t.merged" "corpus/$t"
  trim "corpus/$t" "${CORPUS_KB:-300}"
  pack "$t"
done
