#!/usr/bin/env python3
"""Regenerates the JPEG fixtures beside this script (needs Pillow; dev only, never at test time).

Colour images are 32×32 in four 16×16 quadrants — red (top left), green (top right),
blue (bottom left), white (bottom right) — saved at quality 95 without chroma subsampling,
so every quadrant's centre decodes within a few levels of its nominal colour.
"""
import io
import os
import struct

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
QUADRANTS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]


def quadrant_image():
    img = Image.new("RGB", (32, 32))
    for i, colour in enumerate(QUADRANTS):
        x0, y0 = (i % 2) * 16, (i // 2) * 16
        img.paste(colour, (x0, y0, x0 + 16, y0 + 16))
    return img


def save(img, name, **options):
    buf = io.BytesIO()
    img.save(buf, "JPEG", **options)
    data = buf.getvalue()
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
    return data


def find_marker(data, marker):
    """Offset of the first `FF marker` segment, walking segments from SOI."""
    i = 2
    while i + 4 <= len(data):
        assert data[i] == 0xFF
        m = data[i + 1]
        if m == marker:
            return i
        i += 2 + struct.unpack(">H", data[i + 2:i + 4])[0]
    raise ValueError("marker not found")


rgb = save(quadrant_image(), "rgb-baseline.jpg", quality=95, subsampling=0)
save(quadrant_image(), "rgb-progressive.jpg", quality=95, subsampling=0, progressive=True)
save(quadrant_image(), "rgb-restart.jpg", quality=95, subsampling=0, restart_marker_blocks=1)
save(quadrant_image(), "rgb-420.jpg", quality=90)  # default 4:2:0 subsampling

grey = Image.new("L", (16, 8))
grey.paste(0, (0, 0, 8, 8))
grey.paste(200, (8, 0, 16, 8))
save(grey, "grey.jpg", quality=95)

# Pillow writes CMYK with an Adobe APP14 marker and inverted samples, as Photoshop does.
save(quadrant_image().convert("CMYK"), "cmyk.jpg", quality=95, subsampling=0)

with open(os.path.join(HERE, "truncated.jpg"), "wb") as f:
    f.write(rgb[: len(rgb) // 2])

# SOF0 with its segment length field increased by one: libjpeg's "Bogus marker length".
sof = find_marker(rgb, 0xC0)
bad = bytearray(rgb)
length = struct.unpack(">H", rgb[sof + 2:sof + 4])[0]
bad[sof + 2:sof + 4] = struct.pack(">H", length + 1)
with open(os.path.join(HERE, "corrupt-sof-length.jpg"), "wb") as f:
    f.write(bytes(bad))

# The same image with SOF0 declaring 60000 × 60000 pixels (3.6 gigapixels).
huge = bytearray(rgb)
huge[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
with open(os.path.join(HERE, "huge-header.jpg"), "wb") as f:
    f.write(bytes(huge))

# Plain CMYK (no Adobe APP14 marker: samples are ink amounts, not inverted). Pillow inverts
# CMYK when it writes the Adobe marker, so the samples are inverted first and the marker is
# then cut out, leaving ink amounts that decode to the quadrant colours again.
inverted = Image.eval(quadrant_image().convert("CMYK"), lambda v: 255 - v)
adobe = save(inverted, "cmyk-plain.jpg", quality=95, subsampling=0)
app14 = find_marker(adobe, 0xEE)
app14_end = app14 + 2 + struct.unpack(">H", adobe[app14 + 2:app14 + 4])[0]
with open(os.path.join(HERE, "cmyk-plain.jpg"), "wb") as f:
    f.write(adobe[:app14] + adobe[app14_end:])

# A valid progressive 8×8 grey image (every sample 128) with 568 scans: one DC scan, then for
# each of the 63 AC coefficients a first scan at Al=8 and eight refinement scans down to
# Al=0. Written by hand: every coefficient is zero, so each scan's entropy data is a single
# 1-bit code (DC difference 0, or end-of-band) padded with 1s, i.e. the byte 7F.
def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


scans = [segment(0xDA, bytes([1, 1, 0x00, 0, 0, 0x00])) + b"\x7f"]
for k in range(1, 64):
    scans.append(segment(0xDA, bytes([1, 1, 0x00, k, k, 0x08])) + b"\x7f")
    for ah in range(8, 0, -1):
        scans.append(segment(0xDA, bytes([1, 1, 0x00, k, k, (ah << 4) | (ah - 1)])) + b"\x7f")
one_symbol_table = bytes([1] + [0] * 15) + b"\x00"  # one code of length 1 for symbol 0
many_scans = (b"\xff\xd8"
              + segment(0xDB, b"\x00" + bytes([1] * 64))
              + segment(0xC2, bytes([8, 0, 8, 0, 8, 1, 1, 0x11, 0]))
              + segment(0xC4, b"\x00" + one_symbol_table + b"\x10" + one_symbol_table)
              + b"".join(scans) + b"\xff\xd9")
with open(os.path.join(HERE, "many-scans.jpg"), "wb") as f:
    f.write(many_scans)
