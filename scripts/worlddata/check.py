#!/usr/bin/env python3
"""Sanity checks on a built world.mbtiles, decoding with mapbox-vector-tile.

    python3 scripts/worlddata/check.py Data/world.mbtiles [ZOOM ...]

For every tile of the given zooms (default 0-5):
  * each polygon's first ring has positive area in y-down tile coordinates
    (MVT 2.1: exterior rings clockwise on screen), later rings of the same
    polygon negative;
  * seams: the 64-unit buffer strip a tile shares with its right and bottom
    neighbours is rasterised from both tiles; the ocean coverage must agree
    away from coastlines (differences of one pixel along a coast come from the
    rounded clip vertex and are ignored).
Exits non-zero on failure.
"""

from __future__ import annotations

import gzip
import sqlite3
import sys

import mapbox_vector_tile
import numpy as np
from PIL import Image, ImageDraw

EXTENT, BUFFER, SCALE = 4096, 64, 4  # rasterise at 1 px per 4 units
# A sliver island touching a clip edge can be a hole in one tile and a notch of the
# outer ring in the other: same outline, but the rasteriser may differ by a pixel.
MAX_SEAM_PIXELS = 2


def area2(r):
    return sum(r[i][0] * r[(i + 1) % len(r)][1] - r[(i + 1) % len(r)][0] * r[i][1] for i in range(len(r)))


def ocean_polys(tile):
    out = []
    for f in tile.get("water", {}).get("features", []):
        if f["properties"].get("class") != "ocean":
            continue
        g = f["geometry"]
        out.extend([g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"])
    return out


def strip_mask(polys, x0, y0, w, h):
    """Ocean coverage of the tile-unit rectangle [x0, x0+w) x [y0, y0+h)."""
    img = Image.new("L", (w // SCALE, h // SCALE), 0)
    d = ImageDraw.Draw(img)
    for poly in polys:
        d.polygon([((x - x0) / SCALE, (y - y0) / SCALE) for x, y in poly[0]], fill=255)
        for hole in poly[1:]:
            d.polygon([((x - x0) / SCALE, (y - y0) / SCALE) for x, y in hole], fill=0)
    return np.asarray(img) > 127


def interior(mask):
    """Pixels whose 8 neighbours all have the same value (away from any coastline)."""
    p = np.pad(mask, 1, mode="edge")
    same = np.ones_like(mask)
    h, w = mask.shape
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            same &= p[dy:dy + h, dx:dx + w] == mask
    return same


def main() -> int:
    path = sys.argv[1]
    zooms = [int(z) for z in sys.argv[2:]] or list(range(6))
    db = sqlite3.connect(path)
    failures = 0
    for z in zooms:
        n = 1 << z
        tiles = {}
        for x, row, data in db.execute("SELECT tile_column, tile_row, tile_data FROM tiles WHERE zoom_level=?", (z,)):
            tiles[(x, n - 1 - row)] = mapbox_vector_tile.decode(gzip.decompress(data),
                                                               default_options={"y_coord_down": True})
        if len(tiles) != n * n:
            print(f"z{z}: {len(tiles)} tiles, expected {n * n}")
            failures += 1
        bad_winding = 0
        for t in tiles.values():
            for layer in t.values():
                for f in layer["features"]:
                    g = f["geometry"]
                    if g["type"] not in ("Polygon", "MultiPolygon"):
                        continue
                    for poly in ([g["coordinates"]] if g["type"] == "Polygon" else g["coordinates"]):
                        if area2(poly[0]) <= 0 or any(area2(h) >= 0 for h in poly[1:]):
                            bad_winding += 1
        worst = 0
        for (x, y), t in sorted(tiles.items()):
            a = ocean_polys(t)
            for dx, dy in ((1, 0), (0, 1)):
                nb = ((x + dx) % n, y + dy)
                if nb not in tiles:
                    continue
                b = ocean_polys(tiles[nb])
                # a's right (bottom) buffer is b's left (top) edge strip; the last
                # 8 units are left out because a's clip edge runs along them.
                strip = BUFFER - 8
                if dx:
                    ma = strip_mask(a, EXTENT, 0, strip, EXTENT)
                    mb = strip_mask(b, 0, 0, strip, EXTENT)
                else:
                    ma = strip_mask(a, 0, EXTENT, EXTENT, strip)
                    mb = strip_mask(b, 0, 0, EXTENT, strip)
                # Rounding the clip vertex at the buffer edge moves a coastline by
                # under a pixel; a gap or overlap shows as a difference away from edges.
                real = (ma != mb) & interior(ma) & interior(mb)
                worst = max(worst, int(real.sum()))
        ok = bad_winding == 0 and worst <= MAX_SEAM_PIXELS
        failures += 0 if ok else 1
        print(f"z{z}: {len(tiles)} tiles, bad winding {bad_winding}, worst seam mismatch {worst} px {'ok' if ok else 'FAIL'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
