#!/usr/bin/env python3
"""Anchor for S1/S5: the Python `staticmap` library draws the route and markers over the
shared raster tiles, in the same frame as mapsnap (800×600 pt @2x at z16 = 1600×1200 px
from z17 tiles).

Tiles: `staticmap` has no cache and fetches every tile through its `get(url)` method with
`requests`; here `get` reads the file from the local tile directory instead (no HTTP, no
server), the fastest offline path the library allows. Everything else is the library as
shipped: its 2× supersampled line drawing, its default line simplification, PNG via Pillow.
staticmap has no text: the 20 markers are circles without their letters.

Usage: staticmap_route.py FIXTURE.json TILE_DIR OUT.png [ROUTE.geojson]
"""
import os
import sys

from staticmap import CircleMarker, Line, StaticMap

from common import load_route


class LocalTiles(StaticMap):
    def get(self, url, **kwargs):
        try:
            with open(url, "rb") as f:
                return 200, f.read()
        except OSError:
            return 404, None


def main():
    fixture, tiles, out = sys.argv[1:4]
    frame, route, markers, color, width = load_route(fixture, sys.argv[4] if len(sys.argv) > 4 else None)
    s = frame["scale"]
    m = LocalTiles(frame["width"] * s, frame["height"] * s,
                   url_template=os.path.join(tiles, "{z}", "{x}", "{y}.png"))
    m.add_line(Line([(lon, lat) for lat, lon in route], color, int(round(width * s))))
    for mk in markers:
        m.add_marker(CircleMarker((mk["lon"], mk["lat"]), "#ea4335", 12 * s))
    lat, lon = frame["center"]
    img = m.render(zoom=frame["zoom"] + (s.bit_length() - 1), center=(lon, lat))
    img.save(out)


if __name__ == "__main__":
    main()
