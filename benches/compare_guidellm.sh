#!/usr/bin/env bash
# Side by side: credence bench and guidellm against the same credence mock-server (loopback,
# no TTFT or token delay, 4 tokens per response), at rising Poisson rates, 10 s each.
# Reports per tool: achieved request rate, client CPU (user + system of the whole process
# tree, from GNU time), CPU per request, and the TTFT each tool measured (the server answers
# in ~0.1 ms, so TTFT above that is the client's own overhead).
#
# Needs guidellm (pip install guidellm; tested with 0.8.1): GUIDELLM=/path/to/guidellm.
# Usage: GUIDELLM=/tmp/gl/bin/guidellm benches/compare_guidellm.sh [RATES...]
set -euo pipefail
cd "$(dirname "$0")/.."
GUIDELLM=${GUIDELLM:-guidellm}
PY=$(dirname "$(command -v "$GUIDELLM")")/python
RATES=${*:-200 500 1000 2000 4000}
cargo build --release -q
BIN=target/release/credence
WORK=$(mktemp -d)
trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
$BIN mock-server --port 0 --ttft 0 --token-delay 0 --output-tokens 4 > "$WORK/server.out" &
SERVER=$!
sleep 0.5
URL=$(sed 's/listening on //' "$WORK/server.out")
python3 -c "
import random
random.seed(1)
w='the of and to in is that for it as was with be by on not he this are or'.split()
print('\n'.join(' '.join(random.choice(w) for _ in range(16)) for _ in range(120000)))" > "$WORK/prompts.txt"
printf '%-9s %7s %9s %10s %12s %10s %10s\n' tool offered achieved "client CPU" "CPU/request" "TTFT p50" "TTFT p99"
for r in $RATES; do
  /usr/bin/time -f "%e %U %S" -o "$WORK/time" $BIN bench --url "$URL" --model m --out "$WORK/c$r" --rate "$r" --duration 10s --input-len 16 --output-len 4 --connections 64 2>/dev/null
  read -r wall user sys < "$WORK/time"
  $BIN analyze "$WORK/c$r" --json --resamples 999 > "$WORK/c$r.json"
  python3 - "$WORK/c$r.json" "$r" "$wall" "$user" "$sys" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); r, wall, user, sys_ = map(float, sys.argv[2:])
n = a["requests"]["total"]; cpu = user + sys_
t = a["metrics"]["ttft"]
print(f"{'credence':<9} {r:7.0f} {a['throughput']['requests_per_s']['estimate']:9.0f} {cpu / wall * 100:9.0f}% {cpu / n * 1e6:10.0f}µs {t['p50']['estimate']:8.2f}ms {t['p99']['estimate']:8.2f}ms")
PY
  (cd "$WORK" && /usr/bin/time -f "%e %U %S" -o "$WORK/time" "$GUIDELLM" run --backend kind=openai_http,target="$URL",model=m \
     --profile kind=poisson,rate="$r" --constraint kind=max_duration,seconds=10 --data kind=text_file,path="$WORK/prompts.txt" \
     --disable-console --output kind=json,path="$WORK/g$r.json" > /dev/null 2>&1) || { echo "guidellm failed at $r/s"; continue; }
  read -r wall user sys < "$WORK/time"
  "$PY" - "$WORK/g$r.json" "$r" "$wall" "$user" "$sys" <<'PY'
import json, sys
import numpy as np
b = json.load(open(sys.argv[1]))["benchmarks"][0]; r, wall, user, sys_ = map(float, sys.argv[2:])
ok = b["requests"]["successful"]; n = len(ok) + len(b["requests"]["errored"]) + len(b["requests"]["incomplete"])
ttft = np.array([x["time_to_first_token_ms"] for x in ok if x["time_to_first_token_ms"] is not None])
cpu = user + sys_
print(f"{'guidellm':<9} {r:7.0f} {len(ok) / b['duration']:9.0f} {cpu / wall * 100:9.0f}% {cpu / max(n, 1) * 1e6:10.0f}µs {np.percentile(ttft, 50):8.2f}ms {np.percentile(ttft, 99):8.2f}ms")
PY
done
