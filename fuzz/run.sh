#!/usr/bin/env bash
# Builds the libFuzzer harness (fuzz/harness.swift + every library source, with
# -sanitize=fuzzer,address) and fuzzes the decoders for SECONDS (default 120), starting from
# a corpus made of the test fixtures. Crashes are written to .build/fuzz/ by libFuzzer.
# Usage: fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-120}"
out=.build/fuzz
mkdir -p "$out/corpus"
S="$(pwd)/Sources"
swiftc -sanitize=fuzzer,address -parse-as-library -module-name MapSnap -package-name mapsnap -O \
  -I "$S/CPNG" -I "$S/CFreeType" -I "$S/CZlib" -I "$S/CSQLite" -I "$S/CDeflate" -I "$S/CTurboJPEG" -I "$S/CExpat" \
  -Xcc -I/usr/include/freetype2 -Xcc -I/usr/include/libpng16 \
  $(find "$S/MapSnap" -name '*.swift') fuzz/harness.swift \
  -lpng16 -lfreetype -lz -lsqlite3 -lturbojpeg -ldeflate -lexpat -o "$out/fuzz-mapsnap"
# Seed corpus: one input per decoder from the fixtures (selector byte + bytes).
fx=Tests/MapSnapTests/Fixtures
for f in "$fx"/png/*.png; do { printf '\x01'; cat "$f"; } > "$out/corpus/png-$(basename "$f")"; done
for f in "$fx"/jpeg/*.jpg; do { printf '\x02'; cat "$f"; } > "$out/corpus/jpeg-$(basename "$f")"; done
i=0
while IFS= read -r hex; do
  { printf '\x00'; printf '%s' "$hex" | xxd -r -p | gzip -dc; } > "$out/corpus/mvt-$i" || true
  i=$((i + 1))
done < <(sqlite3 Data/helsinki.mbtiles "select hex(tile_data) from tiles where zoom_level >= 13 limit 3")
printf '\x04_p~iF~ps|U_ulLnnqC_mqNvxq`@' > "$out/corpus/polyline"
printf '\x05color:0xff0000|weight:5|60.1,24.9|enc:_p~iF~ps|U' > "$out/corpus/path"
for f in "$fx"/geojson/*.geojson; do { printf '\x06'; cat "$f"; } > "$out/corpus/geojson-$(basename "$f")"; done
for f in "$fx"/gpx/*.gpx; do { printf '\x07'; cat "$f"; } > "$out/corpus/gpx-$(basename "$f")"; done
{ printf '\x08'; cat Styles/normal.json; } > "$out/corpus/style-normal"
cd "$out" && ./fuzz-mapsnap corpus -max_total_time="$seconds" -max_len=200000 -rss_limit_mb=2048
