#!/usr/bin/env python3
"""Where a benchmark scenario's time goes: samples mapsnap with `perf record` while it runs
the scenario's command a few times, and prints the self time per component (PNG encode,
tile decode, vector walk, …) and the hottest functions. Used to write PROFILES.md, the
profile and reason for every target RESULTS.md shows unmet.

    Benchmarks/profile.py [--bin PATH] [--repeat N] S0|S1|S2|S3|S5|S6 ...

Needs `perf` (Debian: linux-perf) and the fixtures of Benchmarks/run.sh (or
`python3 Benchmarks/gen_fixtures.py . TILES`). Sampling, so the shares move by a point or
two between runs; the component table is what PROFILES.md quotes.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

from bench import FX, OUT, REPO   # the suite's fixture and output folders (same directory)

# First match wins: (component, regular expression over "dso symbol").
COMPONENTS = [
    # The release binary links libdeflate, zlib, libpng, TurboJPEG, libwebp, SQLite, FreeType
    # and Expat statically (scripts/build-release.sh), so their functions appear under
    # `mapsnap` by their own names; decompression is matched before compression.
    ("tile decode (PNGFastDecoder, libpng, JPEG)", r"PNGFastDecoder|libpng|png_|inflate|adler32|deflate_decompress|"
                                                   r"decompress|build_decode_table|libturbojpeg|tj[A-Z]|jpeg_|"
                                                   r"decode_mcu|jsimd|PNGCodec|JPEGCodec|RasterImageDecoder|Gzip"),
    # A shared libdeflate's or zlib's internal functions have no symbols: their time counts as
    # encoding (igzip deflates the first part of a big image).
    ("PNG encode (libdeflate, igzip, filters)", r"libdeflate|libisal|libz\.so|deflate_|PNGEncoder|PNG8Encoder|"
                                                r"IgzipDeflate|crc32|WebP|VP8"),
    ("tile source reading (SQLite)", r"libsqlite|sqlite3|MBTiles"),
    ("JSON reading", r"JSONReader|JSONValue|JSONNumber|JSONObject|GeoJSON|RenderSpec|JSONLines|XML_|libexpat"),
    ("vector tile decode", r"ProtobufReader|VectorTile|GeometryDecoder|RingClassifier|TileGeometry|TileBox|"
                           r"FeatureValue"),
    ("feature walk and filters", r"FeatureWalker|CompiledFilter|TileLayerIndex|StyleFeature"),
    ("style expressions", r"Expression|PropertyValue|StyleValue|StyleColor|StyleProperty"),
    ("style parsing", r"StyleParser|Style\.|MapStyleRule"),
    ("line stroking and dashes", r"Stroker|Dasher|LinePainter|StrokeStyle"),
    ("polygon fill and rasterizer", r"Rasterizer|Canvas\.fill|Canvas\+Fill|FillRule|FillPainter|PolygonClipper"),
    ("path projection, clipping, simplification", r"LineClipper|Simplifier|WebMercator|Camera|PathOverlay|"
                                                  r"OverlayPainter|projected"),
    ("raster tile compositing", r"ImageSampler|RasterPainter|Canvas\.draw|Canvas\+Drawing"),
    ("text and labels", r"libfreetype|FreeType|\bFT_|\bft_|\btt_|\baf_|\bcff_|\bps_|Brotli|Glyph|TextLayout|"
                        r"TextRenderer|TextEngine|LabelCollision|LineBreaker|SymbolPlacer|OpenTypeKerning|"
                        r"FontLibrary|SignedDistance|Shaper"),
    ("sorting (rasterizer edges, labels)", r"_stableSortImpl|_merge<|sort\("),
    ("canvas allocation and clearing", r"Canvas\.init|MapImage\.init"),
    ("Swift retain/release", r"swift_retain|swift_release|swift_bridgeObject|swift_unknownObject"),
    ("Swift runtime (metadata, allocation, generics)", r"libswift|swift_|swift::|\$s[0-9a-zA-Z_]*Mp|"
                                                        r"__swift|type metadata|witness table|Conformance"),
    ("Swift arrays, strings and hashing", r"Array|_merge|String|Hasher|Dictionary|Set<|_NativeSet|_NativeDict"),
    ("memory (malloc, memcpy)", r"malloc|free|memmove|memcpy|memset|cfree|_int_|realloc"),
    ("kernel: page faults and zeroing new memory", r"clear_page|page_fault|do_anonymous_page|"
                                                   r"handle_mm_fault|memcg|lru|folio|__list_del|zap_|"
                                                   r"_raw_spin_unlock_irqrestore|rmqueue|get_page_from_freelist"),
    ("kernel (exec, I/O, other)", r"\[kernel|\[k\]"),
    ("libm (trigonometry)", r"libm\.so"),
    ("dynamic loading", r"ld-linux|_dl_"),
]


def commands(scenario, bin_):
    """The mapsnap commands a scenario times (the first of each group of hyperfine)."""
    o = os.path.join(OUT, "profile.png")
    s1 = os.path.join(FX, "s1")
    return {
        "S0": [[bin_, "render", "-q", "--size", "64x64", "--center", "60.1699,24.9384", "--zoom", "15", "-o", o]],
        "S1": [[bin_, "render", "-q", "--spec", os.path.join(s1, "raster.json"), "-o", o]],
        "S2": [[bin_, "render", "-q", "--center", "60.1705,24.9443", "--zoom", "15", "--size", "1024x1024",
                "--scale", "1", "-o", o]],
        "S3": [[bin_, "bench-encode", S3_IMAGE, "--repeat", "5"]],
        "S5": [[bin_, "render", "-q", "--spec", os.path.join(FX, "s5", f"{k}-1000000.json"), "-o", o]
               for k in ("geojson", "polyline")],
        "S6": [[bin_, "batch", os.path.join(FX, "s6", "jobs.jsonl"), "--out-dir", os.path.join(OUT, "profile-s6"),
                "--jobs", str(os.cpu_count() or 1)]],
    }[scenario]


S3_IMAGE = os.path.join(OUT, "s3-2048×2048.png")   # bench.py's S3 image: the S2 z16 @2x map


def prepare(scenario, bin_):
    """Inputs a scenario's command reads that bench.py makes on the way (not sampled)."""
    os.makedirs(os.path.join(OUT, "profile-s6"), exist_ok=True)
    if scenario == "S3" and not os.path.exists(S3_IMAGE):
        subprocess.run([bin_, "render", "-q", "--center", "60.1705,24.9443", "--zoom", "16", "--size", "1024x1024",
                        "--scale", "2", "-o", S3_IMAGE], check=True)


def demangle(lines):
    p = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(lines), capture_output=True,
                       text=True)
    return p.stdout.splitlines() if p.returncode == 0 else lines


def profile(scenario, bin_, repeat):
    argvs = commands(scenario, bin_)
    prepare(scenario, bin_)
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        script = os.path.join(tmp, "run.sh")
        with open(script, "w") as f:
            f.write("#!/bin/sh\nset -e\n")
            for _ in range(repeat):
                for argv in argvs:
                    f.write(" ".join("'" + a.replace("'", "'\\''") + "'" for a in argv) + " >/dev/null\n")
        os.chmod(script, 0o755)
        subprocess.run(["perf", "record", "-q", "-F", "2999", "-o", data, "--", script], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rep = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "comm,dso,symbol",
                              "--stdio", "-q", "--percent-limit", "0"], capture_output=True, text=True).stdout
    merged = collections.Counter()   # one row per function over all threads
    for line in demangle(rep.splitlines()):
        m = re.match(r"\s*([0-9.]+)%\s+(\S+)\s+(\S+)\s+\[(.)\]\s+(.*)", line)
        if not m or m.group(2) in ("sh", "run.sh", "perf-exec"):
            continue
        merged[(m.group(3), m.group(4), m.group(5).strip())] += float(m.group(1))
    rows = [(pct, dso, kind, sym) for (dso, kind, sym), pct in merged.items()]
    total = sum(r[0] for r in rows) or 1.0
    by_comp = collections.Counter()
    other = []
    for pct, dso, kind, sym in rows:
        key = f"{dso} [{kind}] {sym}"
        comp = next((name for name, rx in COMPONENTS if re.search(rx, key)), "other")
        by_comp[comp] += pct / total * 100
        if comp == "other":
            other.append((pct, key))
    print(f"### {scenario}: {' ; '.join(' '.join(os.path.basename(a) for a in argv[:3]) for argv in argvs)} "
          f"(×{repeat}, {len(rows)} symbols)\n")
    print("| component | self time |\n|---|---|")
    for comp, share in by_comp.most_common():
        if share >= 1.0:
            print(f"| {comp} | {share:.0f} % |")
    rest = sum(s for s in by_comp.values() if s < 1.0)
    if rest:
        print(f"| (components under 1 % each) | {rest:.0f} % |")
    print("\nHottest functions:\n")
    for pct, dso, kind, sym in sorted(rows, reverse=True)[:12]:
        print(f"- {pct / total * 100:.1f} % `{sym[:110].strip()}` ({dso})")
    if os.environ.get("PROFILE_OTHER"):
        for pct, key in sorted(other, reverse=True)[:15]:
            print(f"  other {pct / total * 100:.1f} % {key[:140]}")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenarios", nargs="+", choices=["S0", "S1", "S2", "S3", "S5", "S6"])
    ap.add_argument("--bin", default=os.path.join(REPO, ".build", "release", "mapsnap"))
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    if not os.path.isdir(FX):
        sys.exit("profile.py: no fixtures; run Benchmarks/run.sh once (or gen_fixtures.py)")
    for s in a.scenarios:
        profile(s, a.bin, a.repeat if s not in ("S5", "S6") else max(1, a.repeat // 3))


if __name__ == "__main__":
    main()
