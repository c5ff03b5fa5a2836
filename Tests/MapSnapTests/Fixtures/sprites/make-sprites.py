#!/usr/bin/env python3
"""Writes the test sprite sheets test.json/.png and test@2x.json/.png (our own drawings).

Images (sizes at 1x; @2x doubles every pixel):
  square  8x8   opaque red
  arrow   12x8  dark grey arrow pointing right (a rectangle shaft, a triangle head)
  stripes 4x4   blue rows 0-1, transparent rows 2-3 (a fill pattern)
  checker 2x2   black and white (a pattern whose phase is visible)
  shield  10x8  green, 1-px white border (icon-text-fit)
Run: python3 make-sprites.py  (deterministic: same bytes every time)
"""
import json, struct, zlib

def png(w, h, rows):
    raw = b"".join(b"\x00" + bytes(v for px in row for v in px) for row in rows)
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

T = (0, 0, 0, 0)
def square():
    return [[(255, 0, 0, 255)] * 8 for _ in range(8)]
def arrow():
    rows = []
    for y in range(8):
        row = []
        for x in range(12):
            shaft = x < 7 and 3 <= y <= 4
            head = x >= 7 and abs(y - 3.5) <= (11 - x) * 0.8
            row.append((40, 40, 40, 255) if shaft or head else T)
        rows.append(row)
    return rows
def stripes():
    return [[(0, 0, 255, 255) if y < 2 else T for x in range(4)] for y in range(4)]
def checker():
    return [[(0, 0, 0, 255) if (x + y) % 2 == 0 else (255, 255, 255, 255) for x in range(2)] for y in range(2)]
def shield():
    return [[(255, 255, 255, 255) if x in (0, 9) or y in (0, 7) else (0, 128, 0, 255) for x in range(10)] for y in range(8)]

images = [("square", square()), ("arrow", arrow()), ("stripes", stripes()), ("checker", checker()), ("shield", shield())]

for ratio in (1, 2):
    placed, x, height = {}, 0, 0
    scaled = []
    for name, rows in images:
        big = [[px for px in row for _ in range(ratio)] for row in rows for _ in range(ratio)]
        w, h = len(big[0]), len(big)
        placed[name] = {"x": x, "y": 0, "width": w, "height": h, "pixelRatio": ratio}
        scaled.append((x, big))
        x += w + 1
        height = max(height, h)
    sheet = [[T] * x for _ in range(height)]
    for ox, big in scaled:
        for y, row in enumerate(big):
            for i, px in enumerate(row):
                sheet[y][ox + i] = px
    suffix = "" if ratio == 1 else "@2x"
    with open(f"test{suffix}.png", "wb") as f:
        f.write(png(x, height, sheet))
    with open(f"test{suffix}.json", "w") as f:
        json.dump(placed, f, indent=1, sort_keys=True)
        f.write("\n")
