#!/usr/bin/env python3
"""Anchor for S2: Python Mapnik renders the Helsinki base map (same area, zoom and pixel size
as `mapsnap render --center … --zoom Z --size 1024x1024 --scale S`) from the GeoJSON layers
decoded from the bundled vector tiles, with the XML written by mapnik_style.py. Writes
32-bit PNG (as mapsnap writes truecolour PNG), whole process timed like mapsnap's.

Usage: mapnik_basemap.py MAP.xml LAT LON ZOOM SIZE_POINTS SCALE OUT.png
"""
import math
import sys

import mapnik


def main():
    xml, lat, lon, zoom, size, scale, out = sys.argv[1:8]
    lat, lon, zoom, size, scale = float(lat), float(lon), float(zoom), int(size), int(scale)
    px = size * scale
    m = mapnik.Map(px, px)
    mapnik.load_map(m, xml)
    # Web Mercator metres per image pixel: 256-px tiles at scale 1, extent independent of scale
    r = 6378137.0
    res = 2 * math.pi * r / (256 * 2 ** zoom)
    cx = math.radians(lon) * r
    cy = math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) * r
    half = size / 2 * res
    m.zoom_to_box(mapnik.Box2d(cx - half, cy - half, cx + half, cy + half))
    im = mapnik.Image(px, px)
    mapnik.render(m, im, float(scale))
    im.save(out, "png32")


if __name__ == "__main__":
    main()
