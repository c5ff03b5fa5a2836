#!/usr/bin/env python3
"""Draws a block of world.mbtiles tiles with Pillow, for eyeballing the built data.

    python3 scripts/worlddata/preview.py Data/world.mbtiles Z X0 Y0 COLS ROWS out.png [--relief Data/relief.mbtiles]

Decodes the MVT with mapbox-vector-tile (a check independent of our encoder),
fills ocean/lakes, strokes rivers and borders, dots places. Tile edges are
drawn faintly so seams show up. Also verifies MVT 2.1 winding: exterior rings
must have positive area in y-down tile coordinates.
"""

from __future__ import annotations

import gzip
import io
import sqlite3
import sys

import mapbox_vector_tile
from PIL import Image, ImageDraw

TS = 256


def ring_area2(r):
    return sum(r[i][0] * r[(i + 1) % len(r)][1] - r[(i + 1) % len(r)][0] * r[i][1] for i in range(len(r)))


def main() -> None:
    path, z, x0, y0, cols, rows, out = sys.argv[1:8]
    z, x0, y0, cols, rows = map(int, (z, x0, y0, cols, rows))
    relief = sys.argv[9] if len(sys.argv) > 9 and sys.argv[8] == "--relief" else None
    db = sqlite3.connect(path)
    rdb = sqlite3.connect(relief) if relief else None
    img = Image.new("RGB", (cols * TS, rows * TS), (242, 239, 233))
    draw = ImageDraw.Draw(img)
    bad_winding = 0
    n = 1 << z
    for cx in range(cols):
        for cy in range(rows):
            tx, ty = (x0 + cx) % n, y0 + cy
            if rdb:
                r = rdb.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                                (z, tx, n - 1 - ty)).fetchone()
                if r:
                    img.paste(Image.open(io.BytesIO(r[0])).convert("RGB"), (cx * TS, cy * TS))
            row = db.execute("SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                             (z, tx, n - 1 - ty)).fetchone()
            if not row:
                continue
            tile = mapbox_vector_tile.decode(gzip.decompress(row[0]), default_options={"y_coord_down": True})
            s = TS / 4096.0
            ox, oy = cx * TS, cy * TS

            def P(pt):
                return (ox + pt[0] * s, oy + pt[1] * s)

            def polys(geom):
                if geom["type"] == "Polygon":
                    return [geom["coordinates"]]
                if geom["type"] == "MultiPolygon":
                    return geom["coordinates"]
                return []

            def lines(geom):
                if geom["type"] == "LineString":
                    return [geom["coordinates"]]
                if geom["type"] == "MultiLineString":
                    return geom["coordinates"]
                return []

            # Draw only inside the tile (renderers clip the buffer away).
            layer_img = Image.new("RGBA", (TS, TS), (0, 0, 0, 0))
            ld = ImageDraw.Draw(layer_img)
            for name, colour in (("landcover", (250, 250, 255, 255)), ("water", (170, 200, 235, 255))):
                for f in tile.get(name, {}).get("features", []):
                    for poly in polys(f["geometry"]):
                        ext = poly[0]
                        if ring_area2(ext) <= 0:
                            bad_winding += 1
                        ld.polygon([(p[0] * s, p[1] * s) for p in ext], fill=colour)
                        for hole in poly[1:]:
                            ld.polygon([(p[0] * s, p[1] * s) for p in hole], fill=(0, 0, 0, 0))
            for f in tile.get("waterway", {}).get("features", []):
                for ln in lines(f["geometry"]):
                    ld.line([(p[0] * s, p[1] * s) for p in ln], fill=(110, 160, 220, 255), width=1)
            for f in tile.get("boundary", {}).get("features", []):
                lvl = f["properties"].get("admin_level")
                for ln in lines(f["geometry"]):
                    ld.line([(p[0] * s, p[1] * s) for p in ln],
                            fill=(150, 80, 150, 255) if lvl == 2 else (180, 150, 180, 255), width=2 if lvl == 2 else 1)
            img.paste(layer_img, (ox, oy), layer_img)
            for name in ("water_name", "place"):
                for f in tile.get(name, {}).get("features", []):
                    px, py = P(f["geometry"]["coordinates"])
                    props = f["properties"]
                    cls = props.get("class")
                    if cls in ("city", "town"):
                        draw.ellipse((px - 2, py - 2, px + 2, py + 2), fill=(0, 0, 0))
                    colour = (30, 60, 140) if name == "water_name" else ((120, 0, 0) if cls == "country" else (0, 0, 0))
                    draw.text((px + 3, py - 5), str(props.get("name", "")), fill=colour)
            draw.rectangle((ox, oy, ox + TS - 1, oy + TS - 1), outline=(200, 200, 200))
    img.save(out)
    print(f"{out}: bad winding exteriors: {bad_winding}")


if __name__ == "__main__":
    main()
