#!/usr/bin/env bash
# Writes the seed corpus of every fuzz target into DIR/<target>/ (default .build/fuzz/seeds),
# from the repository's fixtures, the checked-in containers in fuzz/seeds/ and hand-made
# inputs. Each file starts with its target's selector byte (see FuzzTarget in harness.swift).
# Needs sqlite3, gzip, xxd and python3. Usage: fuzz/seeds.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/fuzz/seeds}"
fx=Tests/MapSnapTests/Fixtures
rm -rf "$out"

# Target names in selector order (FuzzTarget's cases).
mapfile -t targets < <(fuzz/run.sh --list)
selector() { local i; for i in "${!targets[@]}"; do [ "${targets[$i]}" = "$1" ] && { printf "\\x$(printf %02x "$i")"; return; }; done; exit 1; }
# seed TARGET NAME < bytes
seed() { mkdir -p "$out/$1"; { selector "$1"; cat; } > "$out/$1/$2"; }
# seeds TARGET < lines: one text seed per line
seeds() { local n=0 line; while IFS= read -r line; do printf '%s' "$line" | seed "$1" "$n"; n=$((n + 1)); done; }

# Vector tiles (stored gzipped in the MBTiles fixtures).
i=0
for db in Data/helsinki.mbtiles "$fx/helsinki-openmaptiles.mbtiles"; do
  while IFS= read -r hex; do
    printf '%s' "$hex" | xxd -r -p | gzip -dc | seed mvt "tile-$i" || true
    i=$((i + 1))
  done < <(sqlite3 "$db" "select hex(tile_data) from tiles where zoom_level in (5, 9, 13) limit 4")
done

for f in "$fx"/png/*.png "$fx"/png/corrupt/*.png; do seed png "$(basename "$f")" < "$f"; done
# The OSM extract's header blob and first data blob (stored uncompressed), whole.
python3 - "$fx/osm/helsinki.osm.pbf" <<'EOF' | seed osmpbf helsinki-2-blobs.osm.pbf
import sys
data = open(sys.argv[1], "rb").read()
offset = 0
for _ in range(2):
    n = int.from_bytes(data[offset:offset + 4], "big")
    header = data[offset + 4:offset + 4 + n]
    # BlobHeader field 3 (datasize) is the varint after the key byte 0x18.
    i = header.index(0x18) + 1
    size = shift = 0
    while True:
        b = header[i]; size |= (b & 0x7F) << shift; i += 1; shift += 7
        if b < 0x80: break
    offset += 4 + n + size
sys.stdout.buffer.write(data[:offset])
EOF
for f in "$fx"/jpeg/*.jpg; do seed jpeg "$(basename "$f")" < "$f"; done

# gzip and zlib streams of small fixtures, plus an empty member.
for f in "$fx"/geojson/*.geojson "$fx"/styles/plain.json; do gzip -9c < "$f" | seed gzip "$(basename "$f").gz"; done
printf '' | gzip -c | seed gzip empty.gz
python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(open(sys.argv[1], "rb").read(), 6))' \
  "$fx/styles/raster.json" | seed gzip raster.zlib

seeds polyline <<'EOF'
_p~iF~ps|U_ulLnnqC_mqNvxq`@
??
_ibE_ibE_ibE_ibE
}~kvHmzrr@ba\hnc@jiu@r{Zqx~@hjp@pwEhnc@zhu@zflAbxn@fhjBvqHroaAgcnAp}gAeahAtqGkngAinc@_h|@r{Zad\y|_D}_y@swg@ysg}llBpoZqa{@xrw@~eBaaX}{uAero@uqGadY}nr@`dYs_NquNgbjAf{l@|yh@bfc@}nr@z}q@i|i@zgz@r{ZhjFr}gApob@ff}@laIsen@dgYhdPvbIren@
EOF

seeds path <<'EOF'
color:0xff0000|weight:5|60.1,24.9|enc:_p~iF~ps|U
color:0x0000ff80|weight:3|fillcolor:0xFFFF0033|geodesic:true|60.17,24.94|60.18,24.95|60.16,24.96|60.17,24.94
weight:0|Helsinki|Espoo
enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@
color:red|-89.9,179.9|89.9,-179.9|0,180.000001
EOF

for f in "$fx"/geojson/*.geojson "$fx"/corpus/*.geojson; do seed geojson "$(basename "$f")" < "$f"; done
for f in "$fx"/gpx/*.gpx "$fx"/corpus/*.gpx; do seed gpx "$(basename "$f")" < "$f"; done
for f in Styles/*.json "$fx"/styles/*.json "$fx"/Style/*.json; do
  [ -f "$f" ] && seed style "$(basename "$(dirname "$f")")-$(basename "$f")" < "$f"
done

# PMTiles: archives made by `mapsnap convert` from the MBTiles seeds (see fuzz/seeds/README.md),
# their headers, and their root directories as stored (internally gzipped: inflated here).
for f in fuzz/seeds/*.pmtiles; do
  name=$(basename "$f" .pmtiles)
  seed pmtiles "$name" < "$f"
  head -c 127 "$f" | seed pmtiles-header "$name"
  python3 - "$f" <<'EOF' | seed pmtiles-dir "$name-root"
import gzip, struct, sys
data = open(sys.argv[1], "rb").read()
offset, length = struct.unpack_from("<QQ", data, 8)
internal = data[97]
root = data[offset:offset + length]
sys.stdout.buffer.write(gzip.decompress(root) if internal == 2 else root)
EOF
done
# One archive with leaf directories (the converted ones are too small to need any): five z0–z1
# tiles of the vector seed's z0 tile, two entries per leaf, one run of two.
python3 - "$fx/helsinki-openmaptiles.mbtiles" <<'EOF' | seed pmtiles leaves
import gzip, sqlite3, struct, sys
tile = sqlite3.connect(sys.argv[1]).execute("select tile_data from tiles where zoom_level = 0").fetchone()[0]
def varint(n):
    b = b""
    while True:
        if n < 0x80: return b + bytes([n])
        b += bytes([n & 0x7F | 0x80]); n >>= 7
def directory(entries):  # (tile id, offset, length, run length)
    b, last = varint(len(entries)), 0
    for e in entries: b += varint(e[0] - last); last = e[0]
    for e in entries: b += varint(e[3])
    for e in entries: b += varint(e[2])
    for i, e in enumerate(entries):
        follows = i > 0 and e[1] == entries[i - 1][1] + entries[i - 1][2]
        b += varint(0 if follows else e[1] + 1)
    return gzip.compress(b)
entries = [(0, 0, len(tile), 1), (1, 0, len(tile), 2), (3, 0, len(tile), 1), (4, 0, len(tile), 1)]
leaves, root = b"", []
for i in range(0, len(entries), 2):
    leaf = directory(entries[i:i + 2])
    root.append((entries[i][0], len(leaves), len(leaf), 0))
    leaves += leaf
root = directory(root)
meta = gzip.compress(b'{"name": "leaves", "vector_layers": []}')
o_root = 127; o_meta = o_root + len(root); o_leaves = o_meta + len(meta); o_data = o_leaves + len(leaves)
header = b"PMTiles\x03" + struct.pack("<11Q", o_root, len(root), o_meta, len(meta), o_leaves, len(leaves), o_data, len(tile), 5, 4, 1)
header += bytes([1, 2, 2, 1, 0, 1]) + struct.pack("<4i", -1800000000, -850511300, 1800000000, 850511300) + bytes([0]) + struct.pack("<2i", 0, 0)
sys.stdout.buffer.write(header + root + meta + leaves + tile)
EOF
for f in fuzz/seeds/*.mbtiles; do seed mbtiles "$(basename "$f")" < "$f"; done
# Hostile MBTiles: an endless recursive view, a view of a 100 MB blob, and rows of every
# SQLite type at out-of-range addresses.
mb=$(mktemp -d)
sqlite3 "$mb/endless.mbtiles" "CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'pbf');
  CREATE VIEW tiles AS WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r)
  SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row, x'1a00' AS tile_data FROM r WHERE n < 0;"
sqlite3 "$mb/bigblob.mbtiles" "CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'png');
  CREATE VIEW tiles AS SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row, zeroblob(100000000) AS tile_data;"
sqlite3 "$mb/types.mbtiles" "CREATE TABLE metadata (name text, value text);
  INSERT INTO metadata VALUES ('format', NULL), ('minzoom', 'x'), ('maxzoom', 99), ('bounds', '1,2,3'), ('center', '');
  CREATE TABLE tiles (zoom_level, tile_column, tile_row, tile_data);
  INSERT INTO tiles VALUES (0, 0, 0, 'text'), (1, 0, 0, NULL), (1, 1, 1, 1.5), (-1, 0, 0, x'00'), (31, 0, 0, x'00'),
    (3, 9, 0, x'00'), (2, 0, 4, x'00'), ('1', '0', '1', x'1f8b'), (9223372036854775807, 0, 0, x'00');"
for f in "$mb"/*.mbtiles; do seed mbtiles "$(basename "$f")" < "$f"; done
rm -r "$mb"

# Render specs: the examples, the fixtures and hand-made ones (files named relative to the
# fixtures folder, which the harness uses as the base directory); one JSON Lines batch.
for f in examples/*.json "$fx"/spec/*.json; do seed spec "$(basename "$f")" < "$f"; done
seeds spec <<'EOF'
{"center": [60.17, 24.94], "zoom": 12, "size": [200, 100], "style": "normal", "paths": [{"coordinates": [[60.17, 24.94], [60.18, 24.95]], "color": "#ff0000", "width": 4, "dash": [4, 2], "cap": "round"}]}
{"center": "Helsinki", "zoom": 5, "markers": [{"location": "Tampere", "label": "T", "style": "pin", "size": "mid", "color": "blue"}], "caption": "Finland"}
{"geojson": "geojson/point.geojson", "size": [300, 200], "circles": [{"center": [60.17, 24.94], "radius": 500, "fill": "#00ff0040"}]}
{"bounds": [[60.1, 24.8], [60.3, 25.1]], "polygons": [{"coordinates": [[60.1, 24.8], [60.2, 24.9], [60.1, 25.0]], "fill": "0xff000080"}], "scale": 2}
{"center": [0, 179.9], "zoom": 0, "size": [64, 64], "paths": [{"polyline": "_p~iF~ps|U_ulLnnqC", "color": "red"}], "attribution": false}
EOF
i=0
while IFS= read -r spec; do printf '%s' "$spec" | seed spec "test-$i"; i=$((i + 1)); done \
  < <(grep -ohE '#"\{.*\}"#' Tests/MapSnapTests/Inputs/RenderSpecTests.swift | sed -e 's/^#"//' -e 's/"#$//' | sort -u)
sed -n '/let json = ##"""/,/"""##/p' Tests/MapSnapTests/Inputs/RenderSpecTests.swift | sed -e '1d' -e '$d' | seed spec test-full
printf '%s\n' '{"center": [60.17, 24.94], "zoom": 12, "output": "a.png"}' '' '{"center": [0, 0], "zoom": 1}' \
  '{"bad": true}' | seed spec jobs.jsonl

seeds url <<'EOF'
https://maps.googleapis.com/maps/api/staticmap?center=Brooklyn+Bridge,New+York,NY&zoom=13&size=600x300&maptype=roadmap
https://maps.googleapis.com/maps/api/staticmap?size=120x80&markers=color:red|60.17,24.94&path=color:0x0000ffff|weight:4|60.17,24.94|60.18,24.95
https://maps.googleapis.com/maps/api/staticmap?size=512x256&scale=2&maptype=terrain&markers=1,1&key=abc
staticmap?size=400x400&scale=2&maptype=satellite&path=color:0x0000ff%7Cweight:5%7Cenc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60@
staticmap?markers=icon:spec/pin.png|60.17,24.94&markers=size:tiny|label:A|Helsinki|Espoo,FI&visible=Turku
center=60.17,24.94&zoom=14&size=300x300&style=feature:road|element:geometry|color:0x00ff00&style=feature:poi|visibility:off&language=fi
size=640x640&scale=2&format=png32&maptype=hybrid&path=fillcolor:0xAA000033|color:0xFFFFFF00|enc:}zswFtikbMjJzZ|_G{@&region=fi&signature=x
EOF

seeds color <<'EOF'
0xff0000
0xFF880080
#f80
#ff8800
#ff880080
orange
  blue
rgb(255, 128, 0)
rgba(255,128,0,0.5)
hsl(120, 100%, 25%)
hsla(240,50%,50%,.3)
transparent
rebeccapurple
#
0x
rgb(1e308, -5, 50%)
hsl(-720deg, 200%, -1%)
EOF

seeds template <<'EOF'
https://tile.openstreetmap.org/{z}/{x}/{y}.png
https://{s}.tile.example.org/{z}/{x}/{y}{r}.png
http://tms.example.org/{z}/{x}/{-y}.jpg
https://t.example.org/tiles/{quadkey}.jpeg?g=1
https://api.maptiler.com/tiles/v3/{z}/{x}/{y}.pbf?key=abc&lang=fi
https://user:pass@tiles.example.org/{z}/{x}/{y}.png
http:///{z}/{x}/{y}
http://example.org/{z}/{x}/{y
EOF
printf 'https://{s}.example.org/{z}/{x}/{y}.png\nt1\nt2\n' | seed template subdomains
printf 'https://{s}.example.org/{z}/{x}/{y}.png\n\n' | seed template empty-subdomain

for f in "$fx"/dem/*/12/*/*.png; do seed dem "$(echo "$f" | cut -d/ -f5,7,8 | tr / -)" < "$f"; done

# Expressions: every quoted expression of the expression and filter tests, evaluated for one
# feature with properties of each type.
i=0
while IFS= read -r expr; do
  printf '[10, {"class": "primary", "rank": 3, "name": "Main St", "oneway": true, "hex": "#00ff00", "numtext": " 12.5 "}, %s, "LineString", 42]' "$expr" \
    | seed expression "test-$i"
  i=$((i + 1))
done < <(grep -ohE '#"\[.*\]"#' Tests/MapSnapTests/Style/ExpressionTests.swift Tests/MapSnapTests/Style/ExpressionOperatorTests.swift \
           Tests/MapSnapTests/Style/FilterTests.swift 2>/dev/null | sed -e 's/^#"//' -e 's/"#$//' | sort -u | head -400)

# Geometry programs (see InputReader in harness.swift): a few shapes at ordinary, huge,
# NaN and denormal coordinates; strokes with each cap, join and a dash pattern.
python3 - "$out" <<'EOF'
import os, random, struct, sys
out = sys.argv[1]
sel = {"fill": 19, "stroke": 20, "text": 21, "compare": 22}
def write(target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    open(os.path.join(out, target, name), "wb").write(bytes([sel[target]]) + data)
def grid(v): return bytes([0]) + struct.pack("<h", int(v * 4))          # tag 0: small grid value
def raw(v): return bytes([1]) + struct.pack("<d", v)                    # tag 1: any double
def extreme(i): return bytes([2, i])                                    # tag 2: table of extremes
def pt(x, y, f=grid): return f(x) + f(y)
rnd = random.Random(10)
def shape(f=grid, n=6, spread=40):
    b = bytes([0]) + pt(rnd.uniform(-5, spread), rnd.uniform(-5, spread), f)
    for _ in range(n):
        b += bytes([rnd.choice([1, 2, 3, 4])])
        op = b[-1]
        b += pt(rnd.uniform(-5, spread), rnd.uniform(-5, spread), f)
        if op == 3: b += pt(rnd.uniform(0, spread), rnd.uniform(0, spread), f)
        if op == 4: b += pt(rnd.uniform(0, spread), rnd.uniform(0, spread), f) * 2
    return b + bytes([5])
paths = {
    "triangle": bytes([0]) + pt(2, 2) + bytes([1]) + pt(40, 8) + bytes([1]) + pt(12, 30) + bytes([5]),
    "random": shape() + shape(),
    "huge": bytes([0]) + pt(-1e12, -1e12, raw) + bytes([1]) + pt(1e12, 5, raw) + bytes([1]) + pt(3, 1e12, raw) + bytes([5]),
    "nan": bytes([0]) + extreme(2) + grid(3) + bytes([1]) + pt(20, 20) + bytes([1]) + grid(5) + extreme(2),
    "denormal": bytes([0]) + extreme(5) + extreme(6) + bytes([1]) + pt(30, 30) + bytes([1]) + extreme(5) + grid(30),
    "limit": bytes([0]) + extreme(12) + grid(0) + bytes([1]) + pt(-1e15, 10, raw) + bytes([1]) + pt(10, 40),
    "circle": bytes([6]) + pt(20, 20) + grid(15) + bytes([7]) + pt(2, 2) + pt(30, 20) + bytes([1]) + grid(4),
    "curves": shape(n=12, spread=60),
}
for name, path in paths.items():
    write("fill", name, bytes([40, 30, rnd.randrange(2), rnd.randrange(4)]) + path)
for i, (name, path) in enumerate(paths.items()):
    dash = [grid(4), grid(2)] if i % 2 else []
    if name == "nan": dash = [grid(3), extreme(2)]
    style = bytes([48, 32]) + grid([3, 8, 0.5, 20][i % 4]) + bytes([i % 3, (i // 3) % 3]) + grid(4)
    style += bytes([len(dash)]) + b"".join(dash) + grid(i)
    write("stroke", name, style + path)
write("stroke", "wide", bytes([20, 20]) + raw(1e12) + bytes([1, 1]) + grid(4) + bytes([0]) + grid(0) + paths["triangle"])
write("stroke", "fine-dash", bytes([64, 64]) + grid(2) + bytes([1, 0]) + grid(4) + bytes([2]) + raw(0.01) + raw(0.02) + grid(0) + paths["random"])
# 180,000 round-capped dashes of a 9,000-px line (the raw building blocks once made 1.6 GB of caps).
write("stroke", "wide-round-dashes", bytes([64, 64]) + raw(9000.0) + bytes([1, 1]) + grid(4) + bytes([2]) + raw(0.00025) + raw(0.00025) + grid(0) + paths["triangle"])

texts = ["Helsinki", "Helsingfors\nHelsinki", "Café au lait", "e\u0301 a\u0308 o\u0323\u0302 Z\u0335\u0321\u0327",
         "القاهرة", "עברית ו-English", "東京都 北京市 서울", "こんにちは世界、長い日本語のラベルが折り返される",
         "🗺️ 👩‍👩‍👧‍👦 🇫🇮 1️⃣", "\u200b\u200d\ufeff\u00ad", "a" * 300, "\ufffd\U0010ffff\U0001f600", "Ⅻ ∑ ≠ ⌘ ♞ ☂",
         "long words without breaks " * 10, "\t\r\n\n\n", ""]
for i, t in enumerate(texts):
    head = bytes([i % 12 if i % 3 else 0, i % 8, i % 3, i % 6, i % 6, i % 2, i % 6])
    write("text", f"t{i}", head + t.encode("utf-8"))
write("text", "bad-utf8", bytes([0, 1, 1, 0, 0, 0, 0]) + b"\xff\xfe\xc3(\xed\xa0\x80 ok")

import zlib
def png(w, h, rgba):
    def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rgba[(y * w) * 4:(y * w + w) * 4]) for y in range(h))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
def image(w, h, f): return [c for y in range(h) for x in range(w) for c in f(x, y)]
base = image(8, 8, lambda x, y: (255, 255, 255, 255) if (x + y) % 3 else (0, 0, 0, 255))
pairs = {
    "same": (base, base),
    "one-pixel": (base, base[:4] + [255, 0, 0, 255] + base[8:]),
    "translucent": (image(8, 8, lambda x, y: (200, 0, 0, 128)), image(8, 8, lambda x, y: (200, 0, 0, 100))),
    "shifted": (base, base[4:] + base[:4]),
}
for name, (a, b) in pairs.items():
    pa, pb = png(8, 8, a), png(8, 8, b)
    write("compare", name, bytes([13, 0]) + struct.pack("<H", len(pa)) + pa + pb)
pa, pb = png(8, 8, base), png(8, 6, base[:8 * 6 * 4])
write("compare", "size-mismatch", bytes([13, 0]) + struct.pack("<H", len(pa)) + pa + pb)
for i in range(4):
    w, h = rnd.randrange(1, 12), rnd.randrange(1, 12)
    pixels = bytes(rnd.randrange(256) for _ in range(w * h * 8))
    write("compare", f"raw-{i}", bytes([rnd.randrange(255), 1 | (rnd.randrange(64) << 2) | (2 * (i % 2)), w - 1, h - 1]) + pixels)
EOF
# Server requests: mode byte 0 and a query string (the URL seeds' queries), mode byte 1 and
# a POST /render body (the hand-made specs, which name no files or sources).
i=0
for f in "$out"/url/*; do
  { printf '\x00'; tail -c +2 "$f" | sed 's/^[^?]*?//'; } | seed request "query-$i"; i=$((i + 1))
done
printf '\x00%s' 'center=60.17,24.94&zoom=12&size=64x64&maptype=terrain&key=abc&format=jpg' | seed request query-terrain
printf '\x00%s' 'center=Helsinki&zoom=5&size=64x64&markers=%7C60.1,24.9&flag&=&maptype=nope' | seed request query-odd
i=0
for f in "$out"/spec/[0-9]*; do
  { printf '\x01'; tail -c +2 "$f"; } | seed request "body-$i"; i=$((i + 1))
done
printf '\x01%s' '{"center": [60.17, 24.94], "zoom": 9, "size": [64, 64], "style": "hybrid", "format": "webp"}' | seed request body-style
printf '\x01%s' '{"center": [60.17, 24.94], "zoom": 9, "source": "/etc/passwd"}' | seed request body-source

# Sprites: the fixtures' sheets (2-byte index length, index, PNG) and a signed-distance-field
# sheet with stretch ranges and a content box.
for name in test test@2x; do
  python3 - "$fx/sprites/$name.json" "$fx/sprites/$name.png" <<'EOF' | seed sprite "$name"
import struct, sys
index, png = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
sys.stdout.buffer.write(struct.pack("<H", len(index)) + index + png)
EOF
done
python3 - <<'EOF' | seed sprite sdf
import json, math, struct, sys, zlib
w, h = 24, 12
def alpha(x, y):  # MapLibre's encoding: 192 on the edge of a circle of radius 4, 32 per pixel
    d = math.hypot(x % 12 - 5.5, y - 5.5) - 4
    return max(0, min(255, round(192 - 32 * d)))
rows = b"".join(b"\x00" + b"".join(bytes([0, 0, 0, alpha(x, y)]) for x in range(w)) for y in range(h))
def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
index = json.dumps({
    "dot": {"x": 0, "y": 0, "width": 12, "height": 12, "pixelRatio": 2, "sdf": True},
    "shield": {"x": 12, "y": 0, "width": 12, "height": 12, "pixelRatio": 1, "sdf": True,
               "stretchX": [[2, 4], [8, 10]], "stretchY": [[3, 9]], "content": [2, 2, 10, 10]},
    "outside": {"x": 20, "y": 0, "width": 12, "height": 12},
}).encode()
sys.stdout.buffer.write(struct.pack("<H", len(index)) + index + png)
EOF

for t in "${targets[@]}"; do
  [ -d "$out/$t" ] || { echo "seeds: no seeds for $t" >&2; exit 1; }
done
