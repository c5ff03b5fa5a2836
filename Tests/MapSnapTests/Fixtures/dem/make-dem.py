#!/usr/bin/env python3
"""Writes the synthetic DEM fixture: a 2x2 block of z12 tiles around Helsinki, Terrarium- and
Mapbox-Terrain-RGB-encoded (see README.md). Dev-only dependencies: numpy, Pillow.

    python3 Tests/MapSnapTests/Fixtures/dem/make-dem.py
"""
import math, os
import numpy as np
from PIL import Image

Z, X0, Y0, SIDE = 12, 2331, 1183, 256  # tiles x 2331-2332, y 1183-1184


def surface(gx, gy):
    """Elevation in metres at global pixel coordinates (pixels of the z12 grid, 256 per tile).
    A Gaussian hill on the shared tile corner, a ridge running north-east from it, and a
    flat plain at 0 m elsewhere (so flat areas can be checked for transparency)."""
    cx, cy = (X0 + 1) * SIDE, (Y0 + 1) * SIDE
    dx, dy = gx - cx, gy - cy
    hill = 900.0 * np.exp(-(dx * dx + dy * dy) / (2 * 45.0 ** 2))
    # Ridge along the direction (1, -1) (north-east), Gaussian across it, fading along it.
    along = (dx - dy) / math.sqrt(2)
    across = (dx + dy) / math.sqrt(2)
    ridge = 400.0 * np.exp(-across ** 2 / (2 * 25.0 ** 2)) * np.exp(-np.maximum(along, 0) / 120.0) * (along > -40)
    # Everything under 15 m becomes exactly flat; half-metre steps keep the PNGs small and
    # are exact in both encodings.
    e = np.maximum(np.maximum(hill, ridge) - 15.0, 0.0)
    return np.round(e * 2) / 2


def terrarium(e):
    v = e + 32768.0
    r = np.floor(v / 256)
    g = np.floor(v - r * 256)
    b = np.floor((v - np.floor(v)) * 256)
    return np.stack([r, g, b], axis=-1).astype(np.uint8)


def mapbox(e):
    v = np.round((e + 10000.0) * 10).astype(np.int64)
    return np.stack([(v >> 16) & 255, (v >> 8) & 255, v & 255], axis=-1).astype(np.uint8)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ys, xs = np.mgrid[0:SIDE, 0:SIDE].astype(np.float64)
    for name, encode in [("terrarium", terrarium), ("mapbox", mapbox)]:
        for tx in (X0, X0 + 1):
            for ty in (Y0, Y0 + 1):
                # Pixel centres.
                e = surface(tx * SIDE + xs + 0.5, ty * SIDE + ys + 0.5)
                d = os.path.join(here, name, str(Z), str(tx))
                os.makedirs(d, exist_ok=True)
                Image.fromarray(encode(e), "RGB").save(os.path.join(d, f"{ty}.png"), optimize=True)


if __name__ == "__main__":
    main()
