#!/usr/bin/env bash
# Client-saturation study (issue 42): does `analyze` name the load generator when, and only
# when, it limited the run? On the simulator (120-s runs at 10 requests/s, output median 64
# tokens: the scenario fixtures' size), with fixed seeds:
#   - power: `client-saturation` runs (Poisson and constant arrivals) whose client_saturation
#     finding overlaps the true episode within ±2 s;
#   - false alarms: runs of every other scenario with a client_saturation finding at all.
# Prints one line per part and the totals. Runs the given binary's CLI only, so two builds can
# be compared on the same simulated files (the simulator is the same in both).
#
# Usage: benches/client_saturation_study.sh /path/to/credence [SEEDS]   (default 20 seeds per part)
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 /path/to/credence [SEEDS]" >&2; exit 2; }
BIN=$(readlink -f "$1")
SEEDS=${2:-20}
WORK=$(mktemp -d /tmp/client-sat-study.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# found RUN_JSON TRUTH_JSON: 1 if a client_saturation finding overlaps a true episode (±2 s).
found() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
a, t = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
truth = [x for x in t["anomalies"] if x["cause"] == "client_saturation"]
eps = [e for f in a["findings"] if f["cause"] == "client_saturation" for e in f["episodes"]]
print(int(any(e["start_s"] < x["end_s"] + 2 and e["end_s"] > x["start_s"] - 2 for x in truth for e in eps)))
EOF
}

# any RUN_JSON: 1 if the analysis has a client_saturation finding.
any() {
    python3 -c 'import json, sys; print(int(any(f["cause"] == "client_saturation" for f in json.load(open(sys.argv[1]))["findings"])))' "$1"
}

# part SCENARIO ARRIVAL KIND: runs SEEDS seeds from 100 and prints the count.
part() {
    local scenario=$1 arrival=$2 kind=$3 hits=0 seed
    for seed in $(seq 100 $((100 + SEEDS - 1))); do
        local run="$WORK/$scenario-$arrival-$seed"
        "$BIN" simulate --scenario "$scenario" --arrival "$arrival" --seed "$seed" --duration 120s --rate 10 --output-median 64 --out "$run" >/dev/null 2>&1
        "$BIN" analyze "$run" --json --resamples 200 >"$run.json" 2>/dev/null
        if [ "$kind" = power ]; then
            hits=$((hits + $(found "$run.json" "$run/truth.json")))
        else
            hits=$((hits + $(any "$run.json")))
        fi
        rm -rf "$run" "$run.json"
    done
    echo "$hits"
}

total_power=0; total_runs=0
for arrival in poisson constant; do
    n=$(part client-saturation "$arrival" power)
    echo "power: client-saturation ($arrival): found $n/$SEEDS"
    total_power=$((total_power + n)); total_runs=$((total_runs + SEEDS))
done
false_alarms=0; other_runs=0
for scenario in steady warmup thermal-throttle power-cap memory-pressure foreign-process no-steady-state error-burst ramp-down; do
    n=$(part "$scenario" poisson false)
    echo "false alarms: $scenario: $n/$SEEDS"
    false_alarms=$((false_alarms + n)); other_runs=$((other_runs + SEEDS))
done
echo "TOTAL power $total_power/$total_runs; client_saturation findings in other scenarios $false_alarms/$other_runs"
