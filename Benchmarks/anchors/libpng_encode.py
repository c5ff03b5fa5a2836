#!/usr/bin/env python3
"""Anchor for S3: encode-only time and size of libpng's default settings on given pixels.

Calls the system libpng's simplified API, png_image_write_to_memory (zlib level 6,
libpng's default adaptive filter heuristic, an sRGB chunk) through ctypes on the RGB(A)
pixels of a PNG decoded by Pillow. This is "the current libpng default" the S3 target
compares against; it stays fixed when mapsnap's own encoder changes. Prints JSON:
{"width", "height", "channels", "median_ms", "min_ms", "max_ms", "runs", "bytes"}.

Usage: libpng_encode.py IN.png RUNS [OUT.png]
"""
import ctypes
import ctypes.util
import json
import statistics
import sys
import time

from PIL import Image


class PNGImage(ctypes.Structure):
    _fields_ = [("opaque", ctypes.c_void_p), ("version", ctypes.c_uint32), ("width", ctypes.c_uint32),
                ("height", ctypes.c_uint32), ("format", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("colormap_entries", ctypes.c_uint32), ("warning_or_error", ctypes.c_uint32),
                ("message", ctypes.c_char * 64)]


def main():
    src, runs = sys.argv[1], int(sys.argv[2])
    im = Image.open(src)
    im = im.convert("RGBA" if "A" in im.mode or "transparency" in im.info else "RGB")
    channels = len(im.mode)
    raw = im.tobytes()
    lib = ctypes.CDLL(ctypes.util.find_library("png16") or "libpng16.so.16")
    lib.png_image_write_to_memory.argtypes = [ctypes.POINTER(PNGImage), ctypes.c_void_p,
                                              ctypes.POINTER(ctypes.c_size_t), ctypes.c_int,
                                              ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]
    cap = len(raw) + im.height + len(raw) // 1000 + 1024
    out = ctypes.create_string_buffer(cap)
    times, size = [], 0
    for i in range(runs + 1):  # the first run warms caches and is dropped
        img = PNGImage(version=1, width=im.width, height=im.height, format=3 if channels == 4 else 2)
        n = ctypes.c_size_t(cap)
        t0 = time.perf_counter()
        ok = lib.png_image_write_to_memory(ctypes.byref(img), out, ctypes.byref(n), 0, raw, 0, None)
        t1 = time.perf_counter()
        lib.png_image_free(ctypes.byref(img))
        if not ok:
            sys.exit(f"libpng: {img.message.decode()}")
        size = n.value
        if i:
            times.append((t1 - t0) * 1000)
    if len(sys.argv) > 3:
        with open(sys.argv[3], "wb") as f:
            f.write(out.raw[:size])
    print(json.dumps({"width": im.width, "height": im.height, "channels": channels, "runs": runs,
                      "median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times),
                      "bytes": size}))


if __name__ == "__main__":
    main()
