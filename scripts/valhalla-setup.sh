#!/usr/bin/env bash
# Sets up the Valhalla routing engine the directions tests route with, under .build/valhalla:
#   1. downloads the pyvalhalla wheel from PyPI (its wheels are tagged cp312-abi3, but the
#      programs inside run without Python: they load their own libraries from
#      pyvalhalla.libs/ through their RPATH, so no Python 3.12 is needed);
#   2. writes valhalla.json with the wheel's own valhalla_build_config.py (a plain script
#      that runs on any Python 3.9+);
#   3. builds routing tiles from the repository's OpenStreetMap extract of central Helsinki
#      (Tests/MapSnapTests/Fixtures/osm/helsinki.osm.pbf, about a second).
# Re-runs are instant: each step is skipped when its result exists. The tests start
# valhalla_service themselves (on a free loopback port, see ValhallaEngine.swift).
# Needs PyPI (pip) the first time; prints the directory on success.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD/.build/valhalla"
version="3.9.1"
pbf="$PWD/Tests/MapSnapTests/Fixtures/osm/helsinki.osm.pbf"
mkdir -p "$root"
if [ ! -x "$root/wheel/valhalla/bin/valhalla_service" ]; then
  rm -rf "$root/download" "$root/wheel.partial"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 \
    --platform manylinux_2_28_x86_64 -d "$root/download" "pyvalhalla==$version" >&2
  wheel=$(ls "$root"/download/pyvalhalla-*.whl | head -1)
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$wheel" "$root/wheel.partial"
  chmod +x "$root"/wheel.partial/valhalla/bin/*
  rm -rf "$root/wheel" && mv "$root/wheel.partial" "$root/wheel"
  rm -rf "$root/download"
fi
bin="$root/wheel/valhalla/bin"
if [ ! -s "$root/valhalla.json" ]; then
  python3 "$root/wheel/valhalla/valhalla_build_config.py" \
    --mjolnir-tile-dir "$root/tiles" --mjolnir-tile-extract "$root/tiles.tar" \
    --mjolnir-admin "$root/none-admin.sqlite" --mjolnir-timezone "$root/none-tz.sqlite" \
    --mjolnir-concurrency 1 --logging-color false > "$root/valhalla.json.partial"
  mv "$root/valhalla.json.partial" "$root/valhalla.json"
fi
if [ ! -s "$root/tiles.stamp" ] || [ "$pbf" -nt "$root/tiles.stamp" ]; then
  rm -rf "$root/tiles"
  "$bin/valhalla_build_tiles" -c "$root/valhalla.json" "$pbf" > "$root/build-tiles.log" 2>&1 \
    || { tail -20 "$root/build-tiles.log" >&2; echo "valhalla-setup: building routing tiles failed" >&2; exit 1; }
  date -u > "$root/tiles.stamp"
fi
echo "$root"
