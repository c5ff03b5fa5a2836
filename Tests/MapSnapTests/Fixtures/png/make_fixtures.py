#!/usr/bin/env python3
"""Generates the PNG decoder fixtures (stdlib only: zlib + struct).

Run from this directory: python3 make_fixtures.py
The pixel values are formulas repeated in Tests/MapSnapTests/PNG/PNGDecodeFixtureTests.swift.
"""
import struct
import zlib

SIG = b"\x89PNG\r\n\x1a\n"


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, depth, color, rows, interlace=0, extra=b"", raw_idat=None):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace)
    idat = raw_idat if raw_idat is not None else zlib.compress(b"".join(b"\x00" + r for r in rows), 9)
    return SIG + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


# grey8: 4x2, values listed row by row.
grey8 = [0, 64, 128, 255, 1, 2, 254, 100]
write("grey8.png", png(4, 2, 8, 0, [bytes(grey8[0:4]), bytes(grey8[4:8])]))

# grey16: 4x1, 16-bit big-endian samples.
grey16 = [0x0000, 0x8080, 0xFFFF, 0x1234]
write("grey16.png", png(4, 1, 16, 0, [b"".join(struct.pack(">H", v) for v in grey16)]))

# grey1: 10x1, 1-bit: alternating bits 1010110010 packed MSB first.
bits = [1, 0, 1, 0, 1, 1, 0, 0, 1, 0]
packed = bytes([int("".join(map(str, bits[0:8])), 2), int("".join(map(str, bits[8:10])) + "000000", 2)])
write("grey1.png", png(10, 1, 1, 0, [packed]))

# greyalpha8: 4x1 (grey, alpha) pairs.
ga = [(200, 128), (50, 0), (255, 255), (10, 1)]
write("greyalpha8.png", png(4, 1, 8, 4, [b"".join(bytes(p) for p in ga)]))

# palette_trns: 4x1 palette indices 0..3; tRNS gives alpha 0, 128, 255 for entries 0-2
# (entry 3 is implicitly opaque).
palette = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
plte = chunk(b"PLTE", b"".join(bytes(c) for c in palette)) + chunk(b"tRNS", bytes([0, 128, 255]))
write("palette_trns.png", png(4, 1, 8, 3, [bytes([0, 1, 2, 3])], extra=plte))

# rgb16: 3x1 16-bit RGB.
rgb16 = [(0xFFFF, 0x0000, 0x8080), (0x0101, 0x7F7F, 0xFEFE), (0x1234, 0xABCD, 0x00FF)]
write("rgb16.png", png(3, 1, 16, 2, [b"".join(struct.pack(">HHH", *p) for p in rgb16)]))


# interlaced: 9x9 RGBA 8-bit, Adam7. Pixel (x, y) = (x*28, y*28, (x+y)*14, 128 if (x+y)%3==0 else 255).
def rgba_at(x, y):
    return bytes([x * 28, y * 28, (x + y) * 14, 128 if (x + y) % 3 == 0 else 255])


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
raw = b""
for (x0, y0, dx, dy) in ADAM7:
    xs = list(range(x0, 9, dx))
    ys = list(range(y0, 9, dy))
    if not xs or not ys:
        continue
    for y in ys:
        raw += b"\x00" + b"".join(rgba_at(x, y) for x in xs)
write("interlaced.png", png(9, 9, 8, 6, [], interlace=1, raw_idat=zlib.compress(raw, 9)))

# --- corrupt corpus -------------------------------------------------------------------
good = open("grey8.png", "rb").read()
# IHDR is bytes 8..32 (8 length/type + 13 data + 4 CRC); IDAT starts at 33.
write("corrupt/truncated.png", good[:40])
bad_crc = bytearray(good)
bad_crc[29] ^= 0xFF  # first CRC byte of IHDR
write("corrupt/bad_crc.png", bytes(bad_crc))
write("corrupt/zero_width.png", png(0, 2, 8, 0, [b"", b""]))
# 100000 x 100000 grey: declared 10^10 pixels; the IDAT is a few bytes, never inflated.
write("corrupt/huge.png", png(100000, 100000, 8, 0, [], raw_idat=zlib.compress(b"\x00" * 16)))
write("corrupt/not_png.png", b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
write("corrupt/empty.png", b"")
write("corrupt/no_iend.png", good[: len(good) - 12])
# A valid chunk layout whose IDAT is not zlib data: libpng must reject it.
write("corrupt/bad_zlib.png", png(4, 2, 8, 0, [], raw_idat=b"\x78\x9c\xff\xff\xff\xff"))
