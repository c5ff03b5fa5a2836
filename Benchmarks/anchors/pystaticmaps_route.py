#!/usr/bin/env python3
"""Anchor for S1: `py-staticmaps` draws the route and markers over the shared raster tiles,
in the same frame as mapsnap (1600×1200 px from z17 tiles).

Tiles: py-staticmaps reads tiles from its on-disk cache before any download; the cache
directory given here holds, under the provider's name, a symlink to the shared tile
directory, so every tile is a cache hit (offline, no server). Rendering with its Pillow
renderer (the default when pycairo is absent); the provider is given no attribution, so
none is drawn (mapsnap draws its credit line and scale bar). py-staticmaps markers are
pins without text.

Usage: pystaticmaps_route.py FIXTURE.json TILE_DIR CACHE_DIR OUT.png
"""
import os
import sys

import staticmaps

from common import load_route


def main():
    fixture, tiles, cache, out = sys.argv[1:5]
    frame, route, markers, color, width = load_route(fixture)
    provider = staticmaps.TileProvider("mapsnap-bench", url_pattern="file:///$z/$x/$y.png", max_zoom=17)
    link = os.path.join(cache, provider.name())
    if not os.path.exists(link):
        os.makedirs(cache, exist_ok=True)
        os.symlink(os.path.abspath(tiles), link)
    s = frame["scale"]
    ctx = staticmaps.Context()
    ctx.set_cache_dir(cache)
    ctx.set_tile_provider(provider)
    ctx.set_zoom(frame["zoom"] + (s.bit_length() - 1))
    ctx.set_center(staticmaps.create_latlng(*frame["center"]))
    ctx.add_object(staticmaps.Line([staticmaps.create_latlng(lat, lon) for lat, lon in route],
                                   color=staticmaps.parse_color(color), width=int(round(width * s))))
    for mk in markers:
        ctx.add_object(staticmaps.Marker(staticmaps.create_latlng(mk["lat"], mk["lon"]),
                                         color=staticmaps.RED, size=12 * s))
    img = ctx.render_pillow(frame["width"] * s, frame["height"] * s)
    img.save(out)


if __name__ == "__main__":
    main()
