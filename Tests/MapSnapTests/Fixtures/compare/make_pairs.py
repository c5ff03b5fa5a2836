#!/usr/bin/env python3
"""Generates image pairs for ImageComparatorTests and prints pixelmatch's reference counts.

Dev-only: needs `pip install pixelmatch pillow` (pixelmatch-py 0.4.0, a port of Mapbox
pixelmatch v5 — alpha blended over white). Tests never run this; the printed numbers are
copied into Tests/MapSnapTests/Compare/ImageComparatorTests.swift.
"""
import math
from PIL import Image
from pixelmatch.core import pixelmatch

W, H = 64, 48


def render(cx=30.0, cy=22.0, r=14.0, fill=(30, 60, 200, 255), bg=(255, 255, 255, 255), alpha_bg=None):
    """A supersampled (4x4) anti-aliased disc plus a 1.5-px diagonal-ish line."""
    px = []
    for y in range(H):
        for x in range(W):
            cov = 0
            line = 0
            for sy in range(4):
                for sx in range(4):
                    fx = x + (sx + 0.5) / 4
                    fy = y + (sy + 0.5) / 4
                    if (fx - cx) ** 2 + (fy - cy) ** 2 <= r * r:
                        cov += 1
                    if abs((fy - 40) - 0.25 * (fx - 5)) <= 0.75 and 5 <= fx <= 60:
                        line += 1
            c = list(bg)
            a = cov / 16
            c = [round(c[i] * (1 - a) + fill[i] * a) for i in range(4)]
            la = line / 16
            c = [round(c[i] * (1 - la) + (200, 30, 30, 255)[i] * la) for i in range(4)]
            px.append(tuple(c))
    return px


def save(name, px, w=W, h=H):
    im = Image.new("RGBA", (w, h))
    im.putdata(px)
    im.save(name)


def flat(px):
    return [v for p in px for v in p]


def compare(a, b, **kw):
    return pixelmatch(flat(a), flat(b), W, H, **kw)


base = render()
save("base.png", base)

one = list(base)
one[10 * W + 50] = (255, 0, 0, 255)
save("one_pixel.png", one)

shift1 = render(cx=31.0)
save("shift_1px.png", shift1)

aa = render(cx=30.3)
save("aa_shift.png", aa)

color_small = render(fill=(33, 63, 203, 255))
save("color_small.png", color_small)

color_big = render(fill=(60, 120, 120, 255))
save("color_big.png", color_big)

translucent = render(bg=(255, 255, 255, 0))
save("translucent.png", translucent)
translucent2 = render(bg=(255, 255, 255, 0), fill=(30, 60, 200, 180))
save("translucent_fainter.png", translucent2)

taller = render()
save("taller.png", taller + [(255, 255, 255, 255)] * W, W, H + 1)

for name, other in [("identical", base), ("one_pixel", one), ("shift_1px", shift1), ("aa_shift", aa),
                    ("color_small", color_small), ("color_big", color_big)]:
    print(name, "default:", compare(base, other), "includeAA:", compare(base, other, includeAA=True),
          "t=0:", compare(base, other, threshold=0.0), "t=0.05:", compare(base, other, threshold=0.05))
print("translucent_fainter", "default:", pixelmatch(flat(translucent), flat(translucent2), W, H),
      "includeAA:", pixelmatch(flat(translucent), flat(translucent2), W, H, includeAA=True))
