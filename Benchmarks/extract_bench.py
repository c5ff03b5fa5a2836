#!/usr/bin/env python3
"""S7: `mapsnap data extract` of a city from a planet-scale PMTiles archive on 127.0.0.1.

    python3 Benchmarks/extract_bench.py --bin .build/release/mapsnap [--runs 3]   # prints the S7 section

bench.py runs it as scenario S7 (`Benchmarks/run.sh --only S7`). The archive is
`gen_planet.py`'s synthetic planet (z0–14, ~9 million directory entries in ~2,000 leaves,
~380 MB; generated once into .fixtures/), served by the small range server below (HTTP/1.1
keep-alive, `Range: bytes=a-b` → 206 with `Content-Range`, a fixed `ETag`), which counts
requests and the bytes it sends. For each area (`--place Paris`, 10 km and 40 km) the
extract runs `runs` times, each into a new file; reported: requests, bytes moved ÷ bytes of
the tiles written (the output's tile data), the median time, peak RSS, and whether the
output holds exactly the tiles of the area (its addressed-tile count against the count
of tiles overlapping the box its header records, worked out here).

Target (issue 27): bytes moved ÷ tile bytes ≤ 1.3.
"""
import argparse
import http.server
import math
import os
import re
import statistics
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, ".fixtures")
OUT = os.path.join(HERE, ".out")
PLANET = os.path.join(FX, "planet-z14.pmtiles")


class RangeServer(http.server.ThreadingHTTPServer):
    """Serves one file at /planet.pmtiles with byte ranges and an ETag; counts what it sends."""
    daemon_threads = True

    def __init__(self, path):
        self.path_on_disk, self.size = path, os.path.getsize(path)
        self.lock = threading.Lock()
        self.requests, self.bytes_sent = 0, 0
        super().__init__(("127.0.0.1", 0), RangeHandler)

    def reset(self):
        with self.lock:
            self.requests, self.bytes_sent = 0, 0


class RangeHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        srv = self.server
        if self.path != "/planet.pmtiles":
            self.send_error(404)
            return
        m = re.fullmatch(r"bytes=(\d+)-(\d+)", self.headers.get("Range", ""))
        first, last = (int(m.group(1)), min(int(m.group(2)), srv.size - 1)) if m else (0, srv.size - 1)
        if first > last:
            self.send_error(416)
            return
        length = last - first + 1
        self.send_response(206 if m else 200)
        if m:
            self.send_header("Content-Range", f"bytes {first}-{last}/{srv.size}")
        self.send_header("Content-Length", str(length))
        self.send_header("ETag", '"planet-1"')
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        with open(srv.path_on_disk, "rb") as f:
            f.seek(first)
            left = length
            while left > 0:
                chunk = f.read(min(left, 1 << 20))
                self.wfile.write(chunk)
                left -= len(chunk)
        with srv.lock:
            srv.requests += 1
            srv.bytes_sent += length


def tiles_overlapping(box, maxzoom):
    w, s, e, n = box

    def row(latitude, z):
        phi = math.radians(latitude)
        return (1 - math.log(math.tan(phi) + 1 / math.cos(phi)) / math.pi) / 2 * (1 << z)

    total = 0
    for z in range(maxzoom + 1):
        k = 1 << z
        x0, x1 = (w + 180) / 360 * k, (e + 180) / 360 * k
        y0, y1 = row(n, z), row(s, z)
        total += (math.ceil(x1) - math.floor(x0)) * (math.ceil(y1) - math.floor(y0))
    return total


def header_numbers(path):
    """(addressed tiles, tile data length, (W, S, E, N)) from a PMTiles header."""
    with open(path, "rb") as f:
        h = f.read(127)
    tile_data_length = struct.unpack_from("<Q", h, 64)[0]
    addressed = struct.unpack_from("<Q", h, 72)[0]
    w, s, e, n = (v / 1e7 for v in struct.unpack_from("<4i", h, 102))
    return addressed, tile_data_length, (w, s, e, n)


def ensure_planet():
    if not os.path.exists(PLANET):
        os.makedirs(FX, exist_ok=True)
        print("  generating the synthetic planet (about 20 s) …", file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(HERE, "gen_planet.py"), PLANET, "--maxzoom", "14"], check=True)
    return PLANET


def measure(binary, runs):
    planet = ensure_planet()
    server = RangeServer(planet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/planet.pmtiles"
    os.makedirs(OUT, exist_ok=True)
    rows = []
    try:
        for radius in (10, 40):
            times, rss, stats = [], [], []
            out = os.path.join(OUT, f"s7-paris-{radius}km.pmtiles")
            for _ in range(runs):
                server.reset()
                if os.path.exists(out):
                    os.remove(out)
                argv = [binary, "data", "extract", url, "--place", "Paris", "--radius", str(radius), "-o", out, "-q"]
                timed = os.path.exists("/usr/bin/time")
                t0 = time.perf_counter()
                p = subprocess.run((["/usr/bin/time", "-v"] if timed else []) + argv, capture_output=True, text=True)
                times.append(time.perf_counter() - t0)
                if p.returncode != 0:
                    raise RuntimeError(f"extract failed (exit {p.returncode}): {p.stderr.strip()[-300:]}")
                m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
                if m:
                    rss.append(int(m.group(1)))
                with server.lock:
                    stats.append((server.requests, server.bytes_sent))
            addressed, tile_bytes, bounds = header_numbers(out)
            expected = tiles_overlapping(bounds, 14)
            requests, moved = stats[-1]
            rows.append(dict(radius=radius, tiles=addressed, expected=expected, tile_bytes=tile_bytes,
                             requests=requests, moved=moved, ratio=moved / tile_bytes,
                             median=statistics.median(times), times=times, rss_kib=max(rss) if rss else None,
                             archive=os.path.getsize(planet)))
    finally:
        server.shutdown()
    return rows


def planet_facts():
    with open(PLANET, "rb") as f:
        h = f.read(127)
    leaves = struct.unpack_from("<Q", h, 48)[0]
    entries = struct.unpack_from("<Q", h, 80)[0]
    addressed = struct.unpack_from("<Q", h, 72)[0]
    return (f"synthetic planet z0–14, {os.path.getsize(PLANET) / 1e6:,.0f} MB: {addressed / 1e6:,.0f} million tiles "
            f"addressed in {entries / 1e6:.1f} million directory entries, {leaves / 1e6:.0f} MB of leaf directories "
            f"(`Benchmarks/gen_planet.py`)")


def section(rows, runs):
    """(table title, intro, header, rows, notes, targets) for bench.py's report."""
    header = ["area", "tiles (expected)", "tile bytes", "requests", "bytes moved", "moved ÷ tile bytes",
              "median time", "times", "peak RSS"]
    table = []
    for r in rows:
        ok = "✓" if r["tiles"] == r["expected"] else "✗"
        table.append((f"`--place Paris --radius {r['radius']}`", f"{r['tiles']:,} ({r['expected']:,}) {ok}",
                      f"{r['tile_bytes']:,}", f"{r['requests']:,}", f"{r['moved']:,}", f"{r['ratio']:.3f}",
                      f"{r['median']:.2f} s", ", ".join(f"{t:.2f}" for t in r["times"]),
                      "—" if r["rss_kib"] is None else f"{r['rss_kib'] / 1024:.1f} MiB"))
    intro = (f"`mapsnap data extract http://127.0.0.1:PORT/planet.pmtiles --place Paris --radius KM -o OUT` "
             f"against a {planet_facts()}, served by a Python range server on 127.0.0.1 (HTTP/1.1 keep-alive, "
             f"ETag). Whole process, {runs} runs per area; requests and bytes moved as the server counted them "
             f"(the 16 KiB header read, leaf directories and tile data); tile bytes = the output's tile data.")
    notes = ["Tiles are counted against the tiles overlapping the area's box (all exist in the synthetic "
             "planet there). Loopback hides latency: over the Internet the time is dominated by the requests "
             "(4 run at once), which is why they are coalesced."]
    targets = [("S7", f"moved ÷ tile bytes, Paris {r['radius']} km", f"{r['ratio']:.3f}", "≤ 1.3", r["ratio"] <= 1.3)
               for r in rows]
    return "S7 data extract", intro, header, table, notes, targets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rows = measure(args.bin, args.runs)
    title, intro, header, table, notes, targets = section(rows, args.runs)
    print(f"## {title}\n\n{intro}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in table:
        print("| " + " | ".join(str(x) for x in r) + " |")
    for n in notes:
        print(f"\n{n}")
    print("\n| scenario | check | measured | target | result |\n|---|---|---|---|---|")
    for s, what, value, target, ok in targets:
        print(f"| {s} | {what} | {value} | {target} | {'**PASS**' if ok else '**FAIL**'} |")


if __name__ == "__main__":
    main()
