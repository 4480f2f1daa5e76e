#!/usr/bin/env bash
# Overload study: does the analysis name overload when the server is offered more than it
# completes, and only then, and does `bench --until` stop such a run quickly?
#
# Usage: benches/overload_study.sh ./target/release/credence [RUNS] [PARALLEL]
#
# The server is `credence mock-server --max-batch 4 --step-ms 10 --step-ms-per-seq 2.5
# --output-tokens 10`: a continuous-batching engine that completes 4 / (10 × 20 ms) = 20
# requests/s at most (its truth). For each seed 1..RUNS (default 12): a 30-s open loop at 24/s
# (1.2 × capacity) and one at 16/s (0.8 ×), each analyzed (overload verdict, first finding,
# completed rate); and `bench --until ttft_p50=3% --max-duration 2m` at 24/s (stop reason and
# time). Each run gets its own mock on its own loopback port; PARALLEL (default 4) run at once.
# Prints one line per run, then the counts.
set -euo pipefail
CREDENCE=$(readlink -f "${1:?usage: $0 /path/to/credence [RUNS] [PARALLEL]}")
RUNS=${2:-12}
PARALLEL=${3:-4}
OUT=$(mktemp -d /tmp/overload-study.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

one() {  # one PORT RATE SEED MODE
    local port=$1 rate=$2 seed=$3 mode=$4 dir="$OUT/$4-$2-$3"
    "$CREDENCE" mock-server --port "$port" --max-batch 4 --step-ms 10 --step-ms-per-seq 2.5 --output-tokens 10 >/dev/null 2>&1 &
    local mock=$!
    sleep 0.5
    if [ "$mode" = fixed ]; then
        "$CREDENCE" bench --url "http://127.0.0.1:$port" --model m --rate "$rate" --duration 30s --timeout 10s --seed "$seed" --out "$dir" >/dev/null 2>&1
        "$CREDENCE" analyze "$dir" --json --resamples 299 | python3 -c "import json,sys; a=json.load(sys.stdin); f=a['findings']; print('$mode $rate $seed', a['load']['verdict'], f[0]['cause'] if f else '-', round(a['load']['completed_per_s'], 2))"
    else
        "$CREDENCE" bench --url "http://127.0.0.1:$port" --model m --rate "$rate" --until ttft_p50=3% --max-duration 2m --timeout 10s --seed "$seed" --out "$dir" >/dev/null 2>&1
        python3 -c "import json; s=json.load(open('$dir/run.json'))['phases']['stop']; print('$mode $rate $seed', s['reason'], round(s['stopped_at_s'], 1))"
    fi
    kill "$mock"
}
export -f one
export CREDENCE OUT

{
    for s in $(seq 1 "$RUNS"); do
        echo "$((18400 + 2 * s)) 24 $s fixed"
        echo "$((18401 + 2 * s)) 16 $s fixed"
        echo "$((18600 + s)) 24 $s until"
    done
} | xargs -P "$PARALLEL" -L 1 bash -c 'one "$@"' _ | sort | tee "$OUT/lines.txt"
echo "counts (mode, rate, verdict or stop, first finding):"
awk '{print $1, $2, $4, ($1 == "fixed" ? $5 : "")}' "$OUT/lines.txt" | sort | uniq -c
