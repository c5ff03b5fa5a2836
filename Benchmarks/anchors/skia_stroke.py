#!/usr/bin/env python3
"""Anchor for S4: skia-python strokes the same 100,000-segment polyline (pixel coordinates,
little-endian float32 pairs, the same points mapsnap gets as lat/lon) 3 px wide,
anti-aliased, round caps and joins, black on a white 4096² raster, and writes PNG.
The whole process is timed like mapsnap's; the draw-only and encode-only times are
printed to stderr as `skia-draw-ms=… skia-encode-ms=…` for the report.

Usage: skia_stroke.py STROKE.f32 OUT.png
"""
import sys
import time

import numpy as np
import skia


def main():
    src, out = sys.argv[1:3]
    pts = np.fromfile(src, dtype="<f4").reshape(-1, 2)
    t0 = time.perf_counter()
    # opaque, so the PNG is RGB like mapsnap's (an RGBA PNG would be 4× larger and slower)
    surface = skia.Surface.MakeRaster(skia.ImageInfo.Make(4096, 4096, skia.kRGBA_8888_ColorType,
                                                          skia.kOpaque_AlphaType))
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorWHITE)
    path = skia.Path()
    path.addPoly([skia.Point(x, y) for x, y in pts.tolist()], False)
    paint = skia.Paint(AntiAlias=True, Style=skia.Paint.kStroke_Style, StrokeWidth=3.0,
                       Color=skia.ColorBLACK, StrokeCap=skia.Paint.kRound_Cap,
                       StrokeJoin=skia.Paint.kRound_Join)
    canvas.drawPath(path, paint)
    image = surface.makeImageSnapshot()
    t1 = time.perf_counter()
    data = image.encodeToData(skia.EncodedImageFormat.kPNG, 100)
    with open(out, "wb") as f:
        f.write(bytes(data))
    t2 = time.perf_counter()
    print(f"skia-draw-ms={(t1 - t0) * 1000:.1f} skia-encode-ms={(t2 - t1) * 1000:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
