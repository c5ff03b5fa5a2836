#!/usr/bin/env bash
# Times mapsnap against the Python `staticmap` library on the same job: a 1024×1024 map of
# central Helsinki at z16 from the shared raster tiles, with a route and two markers.
# Needs hyperfine (apt) and staticmap (pip); serves the tiles on 127.0.0.1:8765 for the run.
# Usage: bench/run.sh [TILE_DIR]   (default ../shared/data/helsinki-raster-tiles)
set -euo pipefail
cd "$(dirname "$0")/.."
tiles="${1:-../shared/data/helsinki-raster-tiles}"
swift build -c release --product mapsnap >/dev/null
bin="$(swift build -c release --show-bin-path)/mapsnap"
(cd "$tiles" && exec python3 -m http.server 8765 --bind 127.0.0.1 >/dev/null 2>&1) &
server=$!
trap 'kill $server 2>/dev/null' EXIT
sleep 1
args=(--center 60.1699,24.9450 --zoom 16 --size 1024x1024
      --path 'color:0x1a73e8|weight:5|60.17095,24.9414|60.16985,24.94385|60.16930,24.94930|60.16785,24.9523|60.1677,24.9476'
      --marker 'style:dot|60.17095,24.9414' --marker 'style:dot|60.1677,24.9476')
q() { printf '%q ' "$@"; }
hyperfine -w 1 -r 10 -N --prepare 'rm -rf /tmp/mapsnap-bench-cache' \
  "python3 bench/staticmap_helsinki.py" \
  "$(q "$bin" render --source 'http://127.0.0.1:8765/{z}/{x}/{y}.png' --cache-dir /tmp/mapsnap-bench-cache "${args[@]}" -o /tmp/mapsnap-bench-http.png)" \
  "$(q "$bin" render --source "$tiles" "${args[@]}" -o /tmp/mapsnap-bench-dir.png)" \
  "$(q "$bin" render "${args[@]}" -o /tmp/mapsnap-bench-vector.png)"
