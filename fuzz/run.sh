#!/usr/bin/env bash
# Builds the libFuzzer harness (fuzz/harness.swift compiled into the MapSnap module with every
# library source, -sanitize=fuzzer,address) and fuzzes one target, or all of them in one run.
#
# The build is the shipped one plus instrumentation: Swift 6 mode, -O with whole-module
# optimisation, linked against every system library Package.swift names (include paths from
# pkg-config, as SwiftPM does). It is rebuilt when a source is newer than the binary.
#
# Usage: fuzz/run.sh TARGET [SECONDS]   fuzz one target (default 120 s)
#        fuzz/run.sh all [SECONDS]      every target through the selector byte
#        fuzz/run.sh --build            only build
#        fuzz/run.sh --list             the target names
# TARGET names are FuzzTarget's in harness.swift. Seeds are made by fuzz/seeds.sh; the corpus
# grows in .build/fuzz/corpus/TARGET, findings land in .build/fuzz/artifacts/TARGET/, the log
# in .build/fuzz/logs/TARGET.log (its last lines hold the run count and peak memory).
# Reproduce a finding: .build/fuzz/fuzz-mapsnap ARTIFACT (the file's first byte picks the target).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(mvt png jpeg gzip polyline path geojson gpx style pmtiles-dir
         pmtiles-header pmtiles mbtiles spec url color template dem expression
         fill stroke text compare request sprite)
out=.build/fuzz
binary="$out/fuzz-mapsnap"

# Longest input per target: enough for the seeds and real inputs, small enough to keep runs fast.
max_len() {
  case "$1" in
    mvt|png|jpeg|style|dem) echo 200000 ;;
    gzip|geojson|gpx|pmtiles-dir|pmtiles|mbtiles|compare) echo 65536 ;;
    spec|url|polyline|path|expression) echo 32768 ;;
    fill|stroke) echo 8192 ;;
    text) echo 4096 ;;
    template) echo 2048 ;;
    pmtiles-header|color) echo 512 ;;
    *) echo 200000 ;;
  esac
}

build() {
  local S newest
  S="$(pwd)/Sources"
  newest=$(find "$S/MapSnap" "$S"/C* fuzz/harness.swift Package.swift -newer "$binary" -print -quit 2>/dev/null || true)
  if [ -x "$binary" ] && [ -z "$newest" ]; then return; fi
  mkdir -p "$out"
  local includes=() libs=() pc
  for d in "$S"/C*; do includes+=(-I "$d"); done
  # The pkg-config names of Package.swift's system-library targets, and the libraries their
  # module maps link (some have no .pc file: zlib, sqlite).
  for pc in $(grep -oE 'pkgConfig: "[^"]+"' Package.swift | cut -d'"' -f2); do
    for flag in $(pkg-config --cflags-only-I "$pc"); do includes+=(-Xcc "$flag"); done
  done
  for lib in $(sed -n 's/^ *link "\(.*\)"/\1/p' "$S"/C*/module.modulemap); do libs+=("-l$lib"); done
  echo "fuzz: building $binary (-O -wmo, ASan + libFuzzer; several minutes)" >&2
  swiftc -sanitize=fuzzer,address -parse-as-library -module-name MapSnap -package-name mapsnap \
    -swift-version 6 -O -wmo -g -D SWIFT_PACKAGE "${includes[@]}" \
    $(find "$S/MapSnap" -name '*.swift' | sort) fuzz/harness.swift "${libs[@]}" -o "$binary.tmp" 2>&1 |
    { grep -v "Cannot export local symbol '__asan" || true; } >&2  # gold's noise about ASan's own symbols
  mv "$binary.tmp" "$binary"
}

case "${1:-}" in
  --list) printf '%s\n' "${targets[@]}"; exit 0 ;;
  --build) build; exit 0 ;;
  ""|-h|--help) sed -n '2,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2 ;;
esac
target="$1"
seconds="${2:-120}"
if [ "$target" != all ] && ! printf '%s\n' "${targets[@]}" | grep -qx -- "$target"; then
  echo "fuzz: unknown target '$target' (fuzz/run.sh --list)" >&2
  exit 2
fi
build
[ -d "$out/seeds" ] || fuzz/seeds.sh "$out/seeds"
if [ "$target" = all ]; then
  seeds=("$out"/seeds/*)
  limit=200000
  unset MAPSNAP_FUZZ_TARGET
else
  seeds=("$out/seeds/$target")
  limit=$(max_len "$target")
  export MAPSNAP_FUZZ_TARGET="$target"
fi
mkdir -p "$out/corpus/$target" "$out/artifacts/$target" "$out/logs"
echo "fuzz: $target for ${seconds}s; log in $out/logs/$target.log" >&2
# -timeout: one input may take 20 s (a hang is a finding); -rss_limit_mb: the process may grow
# to 2 GiB (malloc_limit_mb defaults to the same, so one huge allocation is a finding too).
exec "$binary" "$out/corpus/$target" "${seeds[@]}" \
  -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len="$limit" \
  -artifact_prefix="$out/artifacts/$target/" -print_final_stats=1 >"$out/logs/$target.log" 2>&1
