#!/usr/bin/env bash
# Writes hb-shape.tsv: HarfBuzz's own shaping (glyph ids, offsets, advances in font units)
# of every line of strings.tsv, the reference ShapingReferenceTests compares mapsnap with
# when hb-shape (Debian libharfbuzz-bin) is not installed. Run from anywhere:
#   Tests/MapSnapTests/Fixtures/Shaping/make-expected.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fonts="$here/../../../../Fonts"
{
  echo "# $(hb-shape --version | head -1); command per line: LC_ALL=C.UTF-8 hb-shape --font-funcs=ot --no-glyph-names --no-clusters Fonts/FONT TEXT"
  grep -v '^#' "$here/strings.tsv" | while IFS=$'\t' read -r font text; do
    printf '%s\t%s\t%s\n' "$font" "$text" "$(LC_ALL=C.UTF-8 hb-shape --font-funcs=ot --no-glyph-names --no-clusters "$fonts/$font" "$text")"
  done
} > "$here/hb-shape.tsv"
