#!/usr/bin/env bash
# Side by side (issue 42): credence history, Apache Otava 0.8 and MongoDB's
# signal-processing-algorithms on the same per-run estimates: simulated 30-run series of
# 120-s steady runs at 10 requests/s (P50 TTFT; tests/it/history_study.rs builds and caches the
# pool of analyzed runs), 40 series per scenario (no change, +10 % and +5 % steps at run 20,
# +8 % from run 10 to 19, a 0 -> +10 % drift). Prints a table per scenario and every change
# point Otava or signal-processing-algorithms find that credence does not find within ±1 run.
#
# Needs two venvs (not committed; each tool pins a different numpy):
#   python3 -m venv /tmp/hist-venv && /tmp/hist-venv/bin/pip install apache-otava==0.8.0
#   python3 -m venv /tmp/hist-venv-spa && /tmp/hist-venv-spa/bin/pip install --only-binary gevent signal-processing-algorithms==2.1.6
# Usage: benches/history_side_by_side.sh [OUT]     (default OUT: target/history_side_by_side)
# Environment: OTAVA_PY, SPA_PY (the venvs' python), SERIES (per scenario, default 40),
#   CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(mkdir -p "${1:-target/history_side_by_side}" && readlink -f "${1:-target/history_side_by_side}")
OTAVA_PY=${OTAVA_PY:-/tmp/hist-venv/bin/python}
SPA_PY=${SPA_PY:-/tmp/hist-venv-spa/bin/python}
rm -rf "$OUT/series" && mkdir -p "$OUT/series"
HISTORY_SIDE_BY_SIDE_OUT="$OUT/series" HISTORY_SIDE_BY_SIDE_SERIES=${SERIES:-40} \
  cargo test --release --locked --test it -- --ignored --exact history_study::export_simulated_series --nocapture
"$OTAVA_PY" -c 'import importlib.metadata as m; print("apache-otava", m.version("apache-otava"))'
"$SPA_PY" -c 'import importlib.metadata as m; print("signal-processing-algorithms", m.version("signal-processing-algorithms"))'
"$OTAVA_PY" benches/history_side_by_side.py detect otava "$OUT/series" > "$OUT/otava.json"
"$SPA_PY" benches/history_side_by_side.py detect spa "$OUT/series" > "$OUT/spa.json"
python3 benches/history_side_by_side.py table "$OUT/series" "$OUT/otava.json" "$OUT/spa.json" | tee "$OUT/table.md"
