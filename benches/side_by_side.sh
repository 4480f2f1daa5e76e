#!/usr/bin/env bash
# Side by side: credence bench, AIPerf 0.13 and guidellm 0.8.1 against one `credence mock-server`
# on loopback with a scripted TTFT and token delay, at rising constant (evenly spaced) rates.
#
# Per tool and rate it reports, from the tool's own per-request output:
#   - offered rate, and achieved rate = (requests sent − 1) / (last send − first send);
#   - ok / failed requests;
#   - client CPU, user + system of the tool's whole process tree (its own session), over the
#     load window (from the first sample where the server's request counter moved to the first
#     where it reached its final value, sampled every 0.2 s): cores and µs per request served;
#     plus the CPU of the whole run (wait4, as GNU time gives it), start-up and report writing
#     included (AIPerf spends 10–20 s starting its services on 2 cores);
#   - TTFT error: median and P99 of (measured TTFT − scripted TTFT);
#   - the server's cores and everything else's (other sessions on a shared machine, this harness)
#     over the same window, and the 1-minute load average before and after the step.
# The server is excluded from client CPU. Each tool runs with its default workers / connections,
# except credence's --connections, raised so that connections never limit the open loop.
#
# Needs the venvs of fixtures/peers/regenerate.sh (aiperf 0.13.0, guidellm 0.8.1) under
# $PEERS_VENVS (default /work/peers/venvs). Offline: the tokenizer is fixtures/peers/tokenizer.
#
# Usage: benches/side_by_side.sh [RATES...]          (default: 100 500 2000 5000)
#        benches/side_by_side.sh --table OUT          (recompute the rows and the table of a run kept in OUT)
# Environment: DURATION (s per step, default 12), TTFT (default 50ms), TOKEN_DELAY (5ms),
#   OUTPUT_TOKENS (3), STARTUP_LIMIT (180), TOOLS (default "credence aiperf guidellm"), OUT (default
#   target/side_by_side/<date>: every tool's run output is kept there), PEERS_VENVS.
# Writes OUT/table.md (and prints the table).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PEERS_VENVS:-/work/peers/venvs}/aiperf/bin/python   # numpy + pyarrow
HELPER=$ROOT/benches/side_by_side.py
if [ "${1:-}" = --table ]; then
  OUT=$(readlink -f "$2")
  SCRIPTED_MS=$(cat "$OUT/scripted_ttft_ms")
  "$PY" -c 'import json, sys; [print(r["tool"], int(r["offered"])) for r in map(json.loads, open(sys.argv[1]))]' "$OUT/rows.jsonl" > "$OUT/steps"
  : > "$OUT/rows.jsonl"
echo "$SCRIPTED_MS" > "$OUT/scripted_ttft_ms"
  while read -r tool rate; do
    "$PY" "$HELPER" row "$tool" "$rate" "$OUT/$tool-$rate" "$OUT/$tool-$rate.samples.json" "$SCRIPTED_MS" >> "$OUT/rows.jsonl"
  done < "$OUT/steps"
  "$PY" "$HELPER" table "$OUT/rows.jsonl" "$OUT/table.md" "$OUT/header.md"
  exit
fi
RATES=${*:-100 500 2000 5000}
DURATION=${DURATION:-12}
TTFT=${TTFT:-50ms}
TOKEN_DELAY=${TOKEN_DELAY:-5ms}
OUTPUT_TOKENS=${OUTPUT_TOKENS:-3}
TOOLS=${TOOLS:-credence aiperf guidellm}
# Seconds allowed beyond DURATION for start-up, draining and writing results (AIPerf and
# guidellm start many Python processes: on a busy 2-core machine that alone can take minutes);
# then SIGINT, SIGTERM 20 s later, SIGKILL 10 s after that.
STARTUP_LIMIT=${STARTUP_LIMIT:-180}
VENVS=${PEERS_VENVS:-/work/peers/venvs}
OUT=$(readlink -m "${OUT:-target/side_by_side/$(date -u +%Y%m%dT%H%M%SZ)}")
TOK=$ROOT/fixtures/peers/tokenizer
INPUT_TOKENS=32
case $TTFT in *ms) SCRIPTED_MS=${TTFT%ms} ;; *) echo "TTFT in ms, e.g. 50ms" >&2; exit 2 ;; esac

for t in $TOOLS; do
  case $t in
    credence) ;;
    aiperf | guidellm) [ -x "$VENVS/$t/bin/$t" ] || { echo "no $VENVS/$t/bin/$t (see fixtures/peers/regenerate.sh)" >&2; exit 2; } ;;
    *) echo "unknown tool $t" >&2; exit 2 ;;
  esac
done

cargo build --release --locked -q
BIN=$ROOT/target/release/credence
mkdir -p "$OUT"
: > "$OUT/rows.jsonl"
echo "$SCRIPTED_MS" > "$OUT/scripted_ttft_ms"

SERVER=""
trap '[ -n "$SERVER" ] && kill $SERVER 2>/dev/null' EXIT
MOCK=("$BIN" mock-server --port 0 --ttft "$TTFT" --token-delay "$TOKEN_DELAY" --output-tokens "$OUTPUT_TOKENS")
"${MOCK[@]}" > "$OUT/server.out" 2>&1 &
SERVER=$!
for _ in $(seq 50); do grep -q listening "$OUT/server.out" 2>/dev/null && break; sleep 0.1; done
URL=$(sed -n 's/^listening on //p' "$OUT/server.out")
[ -n "$URL" ] || { echo "mock-server did not start:" >&2; cat "$OUT/server.out" >&2; exit 1; }

{
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo); $(uname -r)."
  echo "Started $(date -u '+%Y-%m-%d %H:%M UTC'); uptime then: $(uptime | sed 's/.*load average/load average/')."
  echo
  echo "Server: \`credence mock-server --ttft $TTFT --token-delay $TOKEN_DELAY --output-tokens $OUTPUT_TOKENS\` (loopback)."
  echo "Load: constant arrivals, $DURATION s per step, $INPUT_TOKENS-token prompts, streamed /v1/completions, $OUTPUT_TOKENS tokens per response."
  echo
} > "$OUT/header.md"

# step TOOL RATE LIMIT_S -- CMD...: runs one tool at one rate under the watcher, adds a row.
step() {
  local tool=$1 rate=$2 limit=$3; shift 4
  local dir=$OUT/$tool-$rate
  echo "== $tool at $rate/s ($(uptime | sed 's/.*load average/load average/'))" >&2
  "$PY" "$HELPER" watch --metrics "$URL/metrics" --server-pid "$SERVER" --limit "$limit" \
    --samples "$dir.samples.json" --log "$dir.log" -- "$@" || true
  "$PY" "$HELPER" row "$tool" "$rate" "$dir" "$dir.samples.json" "$SCRIPTED_MS" | tee -a "$OUT/rows.jsonl" >&2
}

for r in $RATES; do
  for t in $TOOLS; do
    dir=$OUT/$t-$r
    rm -rf "$dir"
    case $t in
      credence)
        # Connections: ~ rate × request time (TTFT + token delays) with headroom.
        step credence "$r" $((DURATION + 30)) -- "$BIN" bench --url "$URL" --model mock --out "$dir" \
          --rate "$r" --arrival constant --duration "${DURATION}s" --input-len $INPUT_TOKENS \
          --output-len "$OUTPUT_TOKENS" --connections 1024 --seed 1
        ;;
      aiperf)
        # HF_HUB_OFFLINE must stay unset: aiperf then rejects a local tokenizer path.
        mkdir -p "$dir"
        step aiperf "$r" $((DURATION + STARTUP_LIMIT)) -- env -u HF_HUB_OFFLINE HF_HUB_DISABLE_TELEMETRY=1 \
          "$VENVS/aiperf/bin/aiperf" profile --model mock --url "$URL" --endpoint-type completions --streaming \
          --tokenizer "$TOK" --extra-inputs ignore_eos:true \
          --prompt-input-tokens-mean $INPUT_TOKENS --prompt-input-tokens-stddev 0 \
          --prompt-output-tokens-mean "$OUTPUT_TOKENS" --prompt-output-tokens-stddev 0 \
          --request-rate "$r" --arrival-pattern constant --benchmark-duration "$DURATION" --benchmark-grace-period 5 \
          --ui-type none --no-gpu-telemetry --no-server-metrics --random-seed 42 --export-level records \
          --artifact-dir "$dir"
        ;;
      guidellm)
        mkdir -p "$dir"
        step guidellm "$r" $((DURATION + STARTUP_LIMIT)) -- env HF_HUB_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1 \
          "$VENVS/guidellm/bin/guidellm" run --tokenizer "kind=huggingface_auto,model=$TOK" \
          --backend "kind=openai_http,target=$URL,model=mock,request_format=/v1/completions" \
          --data "kind=synthetic_text,prompt_tokens=$INPUT_TOKENS,output_tokens=$OUTPUT_TOKENS" \
          --profile "kind=constant,rate=$r" --constraint "kind=max_duration,seconds=$DURATION" \
          --seed kind=static,value=42 --output "kind=json,path=$dir/benchmarks.json" --disable-console
        ;;
    esac
  done
done

echo "Finished $(date -u '+%Y-%m-%d %H:%M UTC'); uptime then: $(uptime | sed 's/.*load average/load average/')." >> "$OUT/header.md"
echo >> "$OUT/header.md"
"$PY" "$HELPER" table "$OUT/rows.jsonl" "$OUT/table.md" "$OUT/header.md"
echo "written: $OUT/table.md" >&2
