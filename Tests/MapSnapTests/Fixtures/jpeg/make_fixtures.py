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
