#!/usr/bin/env bash
# End to end against a real inference server: llama-cpp-python's OpenAI-compatible server
# (llama.cpp underneath, CPU) serving a tiny random-weight llama written here
# (benches/llama_cpp_model.py: 2 layers, 64 wide, the byte-level BPE of fixtures/peers/tokenizer),
# loaded by `credence bench` under `credence collect`, then `credence validate`, `analyze` and
# `report` on the run. Nothing is downloaded but the PyPI packages; the model is made locally.
#
# From scratch: creates the venv $LLAMA_VENV (default /work/peers/venvs/llama) with Python 3.12
# and pip-installs llama-cpp-python[server] (compiles llama.cpp with cmake; measured here:
# see the build time it prints and the README) and gguf. Reuses the venv when it imports.
#
# Usage: benches/llama_cpp_e2e.sh [OUT]     (default target/llama_cpp_e2e/<date>)
# Environment: LLAMA_VENV, PY312 (a Python 3.12), DURATION (default 20s), RATE (default 4 /s,
#   Poisson), OUTPUT_LEN (default 32), JOBS (compile jobs, default 2), PORT (default 8391).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=${LLAMA_VENV:-/work/peers/venvs/llama}
DURATION=${DURATION:-20s}
RATE=${RATE:-4}
OUTPUT_LEN=${OUTPUT_LEN:-32}
PORT=${PORT:-8391}
OUT=$(readlink -m "${1:-target/llama_cpp_e2e/$(date -u +%Y%m%dT%H%M%SZ)}")
URL=http://127.0.0.1:$PORT
mkdir -p "$OUT"

find_py312() {
  if [ -n "${PY312:-}" ]; then echo "$PY312"; return; fi
  if command -v python3.12 > /dev/null; then command -v python3.12; return; fi
  local p
  for p in "$HOME"/.pyenv/versions/3.12*/bin/python3.12; do [ -x "$p" ] && { echo "$p"; return; }; done
  echo "no Python 3.12 found (set PY312)" >&2; exit 2
}

# 1. llama-cpp-python (built from source by pip) and gguf.
if ! "$VENV/bin/python" -c 'import llama_cpp.server, gguf' 2> /dev/null; then
  [ -x "$VENV/bin/python" ] || "$(find_py312)" -m venv "$VENV"
  start=$(date +%s)
  echo "building llama-cpp-python (llama.cpp compiles with ${JOBS:-2} jobs; minutes)..." >&2
  CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-2} "$VENV/bin/pip" install -q 'llama-cpp-python[server]' gguf numpy
  echo "llama-cpp-python installed in $(( $(date +%s) - start )) s" >&2
fi
"$VENV/bin/python" -c 'import importlib.metadata as m; print("llama-cpp-python", m.version("llama-cpp-python"), "gguf", m.version("gguf"))' >&2

# 2. credence.
cargo build --release --locked -q
BIN=$ROOT/target/release/credence

# 3. The model.
"$VENV/bin/python" "$ROOT/benches/llama_cpp_model.py" "$ROOT/fixtures/peers/tokenizer/tokenizer.json" "$OUT/tiny-llama.gguf"

# 4. The server (one request at a time: llama-cpp-python serializes them).
SERVER=""
trap '[ -n "$SERVER" ] && kill $SERVER 2> /dev/null; wait 2> /dev/null || true' EXIT
"$VENV/bin/python" -m llama_cpp.server --model "$OUT/tiny-llama.gguf" --model_alias tiny-llama \
  --host 127.0.0.1 --port "$PORT" --n_ctx 2048 --n_threads 1 > "$OUT/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 120); do
  curl -sf "$URL/v1/models" > /dev/null 2>&1 && break
  kill -0 $SERVER 2> /dev/null || { echo "llama_cpp.server exited:" >&2; tail -20 "$OUT/server.log" >&2; exit 1; }
  sleep 0.5
done
curl -sf "$URL/v1/models" > /dev/null || { echo "llama_cpp.server did not answer:" >&2; tail -20 "$OUT/server.log" >&2; exit 1; }

# 5. The load, with collect around it (host telemetry and bench's CPU; no GPU here).
"$BIN" collect --out "$OUT/collect" --gpu auto --interval 1s --label server=llama-cpp-python --label model=tiny-random-llama -- \
  "$BIN" bench --url "$URL" --model tiny-llama --out "$OUT/bench" --rate "$RATE" --duration "$DURATION" \
  --input-len 32 --output-len "$OUTPUT_LEN" --connections 8 --seed 1

# 6. Check, analyze, report.
"$BIN" validate "$OUT/bench"
"$BIN" validate "$OUT/collect"
"$BIN" analyze "$OUT/bench" --out "$OUT/analysis.json" | tee "$OUT/analyze.txt"
"$BIN" report "$OUT/bench" --format md -o "$OUT/report.md"
"$BIN" report "$OUT/bench" -o "$OUT/report.pdf"
echo "written: $OUT (bench/, collect/, analysis.json, report.md, report.pdf)" >&2
