#!/usr/bin/env bash
# Builds the Python wheel (maturin, `bin` bindings: the credence binary inside) and checks it the
# way a user installs it: a fresh virtual environment, `pip install --no-index` of the wheel
# alone, then `credence --version`, the demo report and an audit of an AIPerf artifacts folder,
# all from that environment.
#
#   scripts/wheel.sh            # wheel in dist/, checked in a throwaway venv under /tmp
#
# Needs python3 with venv and pip; maturin is pip-installed into its own venv under /tmp
# ($CREDENCE_WHEEL_TOOLS, reused across calls) the first time, from PyPI. maturin builds with
# the release profile into the same CARGO_TARGET_DIR as `cargo build --release` (.ci/run's
# default when unset), so after a release build it only relinks and packs.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

if [ -z "${CARGO_TARGET_DIR:-}" ]; then
  cache="${XDG_CACHE_HOME:-$HOME/.cache}/credence-target"
  if mkdir -p "$cache" 2>/dev/null; then export CARGO_TARGET_DIR="$cache"; fi
fi
echo "wheel: CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}"

tools="${CREDENCE_WHEEL_TOOLS:-/tmp/credence-wheel-tools}"
if [ ! -x "$tools/bin/maturin" ]; then
  echo "wheel: installing maturin into $tools"
  python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet --disable-pip-version-check "maturin>=1.7,<2"
fi
"$tools/bin/maturin" --version

mkdir -p dist
rm -f dist/credence-*.whl
built=$(date +%s)
# pyproject.toml sets the release profile, --locked and the `bin` bindings.
"$tools/bin/maturin" build --release --out dist
wheel=$(ls dist/credence-*.whl)
echo "wheel: built $wheel ($(stat -c %s "$wheel") bytes) in $(( $(date +%s) - built )) s"

check=$(mktemp -d /tmp/credence-wheel-check.XXXXXX)
trap 'rm -rf "$check"' EXIT
python3 -m venv "$check/venv"
# No index: the wheel must install on its own, without network and without dependencies.
"$check/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
cli="$check/venv/bin/credence"
[ -x "$cli" ] || { echo "wheel: no credence in the venv's bin/" >&2; exit 1; }
"$cli" --version
"$cli" report --demo -o "$check/demo.pdf"
"$cli" audit fixtures/peers/aiperf-0.13.0/concurrency -o "$check/aiperf.pdf"
for pdf in "$check/demo.pdf" "$check/aiperf.pdf"; do
  [ "$(head -c 5 "$pdf")" = "%PDF-" ] || { echo "wheel: $pdf is not a PDF" >&2; exit 1; }
done
echo "wheel: checked in a fresh venv; $(( $(date +%s) - start )) s in all"
