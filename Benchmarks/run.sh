#!/usr/bin/env bash
# The mapsnap benchmark suite: builds the release CLI, generates the fixtures, times every
# scenario (S0–S7) against the installed anchors and writes Benchmarks/RESULTS.md.
#
#   Benchmarks/run.sh [--quick] [--only S1,S2] [--runs N] [--tiles DIR] [--install-anchors]
#
# --quick            fewer runs, smaller S5/S6 cases (about 3 minutes; indicative only)
# --only LIST        scenarios to run, e.g. S0,S3 (RESULTS.md then holds only those)
# --runs N           runs per command (default 10; commands over 4 s get max(5, N/2))
# --tiles DIR        the z/x/y raster tile directory (default ../shared/data/helsinki-raster-tiles)
# --install-anchors  first apt-get install hyperfine/time and pip install the Python anchors
#
# Not part of the test suite: nothing here asserts, the targets are reported as PASS/FAIL.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
tiles="$root/../shared/data/helsinki-raster-tiles"
[ -d "$tiles" ] || tiles="/work/shared/data/helsinki-raster-tiles"
args=()
install=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tiles) tiles="$(cd "$2" && pwd)"; shift 2 ;;
    --install-anchors) install=1; shift ;;
    --quick) args+=("$1"); shift ;;
    --only|--runs) args+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

if [ "$install" = 1 ]; then
  command -v hyperfine >/dev/null && [ -x /usr/bin/time ] || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq hyperfine time >/dev/null; }
  for p in staticmap py-staticmaps mapnik skia-python numpy pillow; do
    pip install -q "$p" >/dev/null 2>&1 || echo "run.sh: pip install $p failed; its scenarios skip that anchor" >&2
  done
fi
command -v hyperfine >/dev/null || { echo "run.sh: hyperfine missing (apt-get install hyperfine, or --install-anchors)" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "run.sh: /usr/bin/time missing (apt-get install time, or --install-anchors)" >&2; exit 3; }
[ -d "$tiles/17" ] || { echo "run.sh: no raster tiles at $tiles (give --tiles DIR)" >&2; exit 3; }

scripts/setup.sh
echo "building mapsnap (release) …" >&2
bin="$(scripts/build-release.sh 2> >(tail -1 >&2))"

python3 Benchmarks/gen_fixtures.py "$root" "$tiles"
cc -O2 -shared -fPIC -o Benchmarks/.fixtures/encode_timer.so Benchmarks/anchors/encode_timer.c -ldl

# the tile directory over HTTP on 127.0.0.1 for S1's HTTP-source row (an ephemeral port)
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
(cd "$tiles" && exec python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
trap 'kill "$server" 2>/dev/null' EXIT
sleep 0.5

python3 Benchmarks/bench.py --bin "$bin" --tiles "$tiles" --http "http://127.0.0.1:$port" ${args[@]+"${args[@]}"}
