#!/usr/bin/env bash
# Builds the Protomaps-schema test tiles of central Helsinki (Tests/MapSnapTests/Fixtures/
# helsinki-protomaps.pmtiles, the current v4 schema, and helsinki-protomaps-v2.pmtiles, the
# 2020–2021 "version 2" schema the corpus's hand-written Protomaps styles read) from the
# same OpenStreetMap extract as Data/helsinki.mbtiles.
#
#   scripts/helsinki-tiles/build-protomaps.sh EXTRACT.osm.pbf [OUT_DIR]
#
# Needs what build.sh needs (Debian's tilemaker 2.2, python3-pyosmium, python3-shapely,
# python3-pyshp, sqlite3) and a built `mapsnap` for `mapsnap convert` (MBTiles → PMTiles):
# $MAPSNAP, else .build/release/mapsnap, else .build/debug/mapsnap.
#
# Steps: prepare.py cleans the extract and cuts the box into sea and land polygons;
# tilemaker runs protomaps.lua with config-protomaps-SCHEMA.json once per schema; the
# `attribution` metadata row mapsnap draws is added; mapsnap converts to PMTiles.
#
# Reproducible: the same extract, scripts and packages give the same bytes wherever the
# repository is. tilemaker 2.2 orders features in a way that depends on its memory layout,
# so the run uses one thread and copies the profile and config into the work directory
# (the same relative paths on every machine); an edit anywhere in protomaps.lua can still
# re-order features (the same features: labels without a sort key may then swap places).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
extract=${1:?usage: build-protomaps.sh EXTRACT.osm.pbf [OUT_DIR]}
outdir=${2:-$root/Tests/MapSnapTests/Fixtures}
bbox=24.9351,60.1641,24.9535,60.1792

mapsnap=${MAPSNAP:-}
if [ -z "$mapsnap" ]; then
  for candidate in "$root/.build/release/mapsnap" "$root/.build/debug/mapsnap"; do
    if [ -x "$candidate" ]; then mapsnap=$candidate; break; fi
  done
fi
[ -n "$mapsnap" ] && [ -x "$mapsnap" ] || { echo "build-protomaps.sh: no mapsnap binary (swift build, or set MAPSNAP)" >&2; exit 1; }
for tool in tilemaker sqlite3 /usr/bin/python3; do
  command -v "$tool" >/dev/null || { echo "build-protomaps.sh: $tool is missing (see build.sh's header)" >&2; exit 1; }
done

extract=$(cd "$(dirname "$extract")" && pwd)/$(basename "$extract")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/prepare.py" "$extract" "$work/clean.osm.pbf" "$work/coastline" "$bbox"
for schema in v4 v2; do
  name=helsinki-protomaps$([ "$schema" = v4 ] || echo "-$schema")
  cp "$here/protomaps.lua" "$work/process.lua"
  cp "$here/config-protomaps-$schema.json" "$work/config.json"
  (
    cd "$work"
    rm -f out.mbtiles
    MAPSNAP_PROTOMAPS_SCHEMA=$schema \
      tilemaker --input clean.osm.pbf --output out.mbtiles --config config.json \
        --process process.lua --bbox "$bbox" --threads 1 >tilemaker-$schema.log 2>&1 \
      || { cat tilemaker-$schema.log >&2; exit 1; }
  )
  sqlite3 "$work/out.mbtiles" "INSERT OR REPLACE INTO metadata (name, value) VALUES ('attribution', '© OpenStreetMap contributors'); VACUUM;"
  "$mapsnap" convert "$work/out.mbtiles" "$work/$name.pmtiles" >/dev/null
  mv "$work/$name.pmtiles" "$outdir/$name.pmtiles"
  echo "build-protomaps.sh: wrote $outdir/$name.pmtiles" >&2
done
