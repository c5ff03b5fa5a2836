#!/usr/bin/env bash
# Builds the libFuzzer harness (fuzz/harness.swift compiled into the MapSnap module with every
# library source, -sanitize=fuzzer,address) and fuzzes one target, every target in turn, or
# all of them mixed in one process.
#
# The build is the shipped one plus instrumentation: Swift 6 mode, -O with whole-module
# optimisation, linked against every system library Package.swift names (include paths from
# pkg-config, as SwiftPM does). It is rebuilt when a source is newer than the binary.
#
# Usage: fuzz/run.sh TARGET [SECONDS]   fuzz one target (default 600 s)
#        fuzz/run.sh all [SECONDS]      every target in turn, SECONDS each
#        fuzz/run.sh mixed [SECONDS]    every target in one process (the first byte picks)
#        fuzz/run.sh --build            only build
#        fuzz/run.sh --check            only type-check the harness against the sources (~1 min)
#        fuzz/run.sh --list             the target names
# On a shared machine run it as `nice -n 15 fuzz/run.sh ...`; it runs one process at a time
# (start one per core for several targets at once: the build is shared and locked).
#
# TARGET names are FuzzTarget's in harness.swift. Seeds are made by fuzz/seeds.sh (again when
# it or fuzz/seeds/ changed); the corpus grows in .build/fuzz/corpus/TARGET, findings land in
# .build/fuzz/artifacts/TARGET/, the log in .build/fuzz/logs/TARGET.log. Each run appends a
# line to .build/fuzz/logs/summary.tsv and prints it: date, target, seconds, runs (execs),
# corpus (inputs/bytes, libFuzzer's own count), peak RSS, findings.
# Limits: one input may take 20 s (-timeout: a hang is a finding), the process may grow to
# 2 GiB (-rss_limit_mb) and one allocation may take 1 GiB (-malloc_limit_mb): blow-ups
# are findings too.
# Reproduce a finding: MAPSNAP_FUZZ_TARGET=TARGET .build/fuzz/fuzz-mapsnap ARTIFACT
# (without the variable the file's first byte picks the target); minimise one with
# -minimize_crash=1 -runs=10000.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(mvt png jpeg gzip polyline path geojson gpx style pmtiles-dir
         pmtiles-header pmtiles mbtiles spec url color template dem expression
         fill stroke text compare request sprite osmpbf)
out=.build/fuzz
binary="$out/fuzz-mapsnap"

# Longest input per target: enough for the seeds and real inputs, small enough to keep runs fast.
max_len() {
  case "$1" in
    mvt|png|jpeg|style|dem) echo 200000 ;;
    gzip|geojson|gpx|pmtiles-dir|pmtiles|mbtiles|compare|sprite) echo 65536 ;;
    spec|url|polyline|path|expression|request) echo 32768 ;;
    fill|stroke) echo 8192 ;;
    text) echo 4096 ;;
    template) echo 2048 ;;
    pmtiles-header|color) echo 512 ;;
    *) echo 200000 ;;
  esac
}

S="$(pwd)/Sources"
includes=() libs=()
for d in "$S"/C*; do includes+=(-I "$d"); done
# The pkg-config names of Package.swift's system-library targets, and the libraries their
# module maps link (some have no .pc file: zlib, sqlite).
for pc in $(grep -oE 'pkgConfig: "[^"]+"' Package.swift | cut -d'"' -f2); do
  for flag in $(pkg-config --cflags-only-I "$pc"); do includes+=(-Xcc "$flag"); done
done
for lib in $(sed -n 's/^ *link "\(.*\)"/\1/p' "$S"/C*/module.modulemap); do libs+=("-l$lib"); done
root="$(pwd)"
sources() { find "$S/MapSnap" -name '*.swift' | sort; echo "$root/fuzz/harness.swift"; }
module_flags=(-parse-as-library -module-name MapSnap -package-name mapsnap -swift-version 6 -D SWIFT_PACKAGE)

build() {
  mkdir -p "$out"
  # One build at a time: several fuzz/run.sh processes (one per core) may start together.
  exec 9>"$out/.build.lock"
  flock 9
  local newest
  newest=$(find "$S/MapSnap" "$S"/C* fuzz/harness.swift Package.swift -newer "$binary" -print -quit 2>/dev/null || true)
  if [ -x "$binary" ] && [ -z "$newest" ]; then flock -u 9; return; fi
  echo "fuzz: building $binary (-O -wmo, ASan + libFuzzer; several minutes)" >&2
  # Built inside $out, where swiftc leaves its module files. gold warns about ASan's own
  # local symbols; that noise is dropped.
  (cd "$out" && swiftc -sanitize=fuzzer,address "${module_flags[@]}" -O -wmo -g "${includes[@]}" \
    $(sources) "${libs[@]}" -o fuzz-mapsnap.tmp 2>&1) | { grep -v "Cannot export local symbol '__asan" || true; } >&2
  mv "$binary.tmp" "$binary"
  flock -u 9
}

seeds() {
  local stamp="$out/seeds/.stamp"
  if [ -f "$stamp" ] && [ -z "$(find fuzz/seeds.sh fuzz/seeds -newer "$stamp" -print -quit)" ]; then return; fi
  fuzz/seeds.sh "$out/seeds"
  touch "$stamp"
}

# fuzz NAME SECONDS: one libFuzzer process; NAME is a target or "mixed".
fuzz() {
  local name="$1" seconds="$2" corpus_seeds limit status=0
  if [ "$name" = mixed ]; then
    corpus_seeds=("$out"/seeds/*/)
    limit=200000
    unset MAPSNAP_FUZZ_TARGET
  else
    corpus_seeds=("$out/seeds/$name")
    limit=$(max_len "$name")
    export MAPSNAP_FUZZ_TARGET="$name"
  fi
  mkdir -p "$out/corpus/$name" "$out/artifacts/$name" "$out/logs"
  echo "fuzz: $name for ${seconds}s; log in $out/logs/$name.log" >&2
  "$binary" "$out/corpus/$name" "${corpus_seeds[@]}" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len="$limit" \
    -artifact_prefix="$out/artifacts/$name/" -print_final_stats=1 >"$out/logs/$name.log" 2>&1 || status=$?
  local runs corpus rss findings
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/logs/$name.log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$out/logs/$name.log")
  corpus=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$out/logs/$name.log" | tail -1 | cut -d' ' -f2)
  findings=$(find "$out/artifacts/$name" -type f | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%sMB\t%s\texit %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$name" "$seconds" "${runs:-?}" \
    "${corpus:-?}" "${rss:-?}" "$findings" "$status" | tee -a "$out/logs/summary.tsv"
  return "$status"
}

case "${1:-}" in
  --list) printf '%s\n' "${targets[@]}"; exit 0 ;;
  --build) build; exit 0 ;;
  --check)
    swiftc -typecheck "${module_flags[@]}" "${includes[@]}" $(sources)
    exit 0 ;;
  ""|-h|--help) sed -n '2,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2 ;;
esac
target="$1"
seconds="${2:-600}"
if [ "$target" != all ] && [ "$target" != mixed ] && ! printf '%s\n' "${targets[@]}" | grep -qx -- "$target"; then
  echo "fuzz: unknown target '$target' (fuzz/run.sh --list)" >&2
  exit 2
fi
build
seeds
if [ "$target" = all ]; then
  failed=0
  for t in "${targets[@]}"; do fuzz "$t" "$seconds" || failed=1; done
  exit "$failed"
fi
fuzz "$target" "$seconds"
