#!/usr/bin/env python3
"""Runs the benchmark scenarios S0–S7 and writes Benchmarks/RESULTS.md. Called by run.sh
(which builds mapsnap and generates the fixtures first); see README.md.

Timing: hyperfine, `-N` (no shell), warm-ups, mapsnap and its anchors in the same
invocation. hyperfine runs each command's runs back to back, so every comparison is split
into rounds whose command order alternates (mapsnap first, then anchors first, …); the
rounds' raw times are merged before the median is taken. Peak RSS comes from one extra
`/usr/bin/time -v` run of each command, which also checks that it succeeds and writes its
PNG into Benchmarks/.out/ for a look.
"""
import argparse
import datetime
import json
import math
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FX = os.path.join(HERE, ".fixtures")
OUT = os.path.join(HERE, ".out")
ANCHORS = os.path.join(HERE, "anchors")
PY = sys.executable

HEAVY_SECONDS = 4.0      # commands slower than this get `heavy_runs` runs and no warm-up


# ---------------------------------------------------------------- measurement
class Cmd:
    def __init__(self, label, argv, anchor=False, env=None, prepare=None):
        self.label, self.argv, self.anchor, self.env, self.prepare = label, argv, anchor, env, prepare
        self.times, self.rss_kib, self.error, self.check_seconds, self.stderr = [], None, None, None, ""

    @property
    def median(self):
        return statistics.median(self.times) if self.times else None


def check_run(cmd):
    """One run under /usr/bin/time -v: exit status, peak RSS, wall time, stderr."""
    env = dict(os.environ, **(cmd.env or {}))
    if cmd.prepare:
        subprocess.run(cmd.prepare, check=False)
    t0 = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd.argv, capture_output=True, text=True, env=env)
    cmd.check_seconds = time.perf_counter() - t0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    cmd.rss_kib = int(m.group(1)) if m else None
    cmd.stderr = p.stderr.split("\tCommand being timed")[0].strip()
    if p.returncode != 0:
        cmd.error = f"exit {p.returncode}: {cmd.stderr.splitlines()[-1][:200] if cmd.stderr else ''}"


def measure(cmds, cfg):
    """Times every working command; runs are split into alternating-order rounds."""
    ok = []
    for c in cmds:
        check_run(c)
        if c.error:
            print(f"  ! {c.label}: {c.error}", file=sys.stderr)
        else:
            ok.append(c)
    if not ok:
        return
    heavy = max(c.check_seconds for c in ok) > HEAVY_SECONDS
    runs = cfg.heavy_runs if heavy else cfg.runs
    rounds = 2 if runs >= 4 and len(ok) > 1 else 1
    per_round = [runs // rounds + (1 if r < runs % rounds else 0) for r in range(rounds)]
    for r in range(rounds):
        order = ok if r % 2 == 0 else list(reversed(ok))
        with tempfile.NamedTemporaryFile(suffix=".json") as tf:
            hf = ["hyperfine", "-N", "--style", "none", "--export-json", tf.name,
                  "--runs", str(per_round[r]),
                  "--warmup", str(0 if heavy or r > 0 else cfg.warmup)]
            if any(c.prepare for c in order):   # one --prepare per command, in order
                for c in order:
                    hf += ["--prepare", shlex.join(c.prepare) if c.prepare else "true"]
            for c in order:
                hf += ["--command-name", c.label, shlex.join(c.argv)]
            p = subprocess.run(hf, capture_output=True, text=True)
            if p.returncode != 0:
                for c in order:
                    c.error = "hyperfine: " + (p.stderr.strip().splitlines() or ["failed"])[-1][:200]
                return
            for res in json.load(open(tf.name))["results"]:
                next(c for c in order if c.label == res["command"]).times += res["times"]
    for c in ok:
        print(f"  {c.label}: median {fmt_s(c.median)} over {len(c.times)} runs, "
              f"peak RSS {fmt_mib(c.rss_kib)}", file=sys.stderr)


# ---------------------------------------------------------------- formatting
def fmt_s(s):
    if s is None:
        return "—"
    return f"{s * 1000:.1f} ms" if s < 10 else f"{s:.2f} s"


def fmt_mib(kib):
    return "—" if kib is None else f"{kib / 1024:.1f} MiB"


def spread(c):
    if len(c.times) < 2:
        return "—"
    k, u = (1, "s") if c.median >= 10 else (1000, "ms")
    sd = statistics.stdev(c.times) * k
    lo, hi = min(c.times) * k, max(c.times) * k
    digits = 2 if u == "s" else 0
    return f"±{sd:.{digits if u == 's' else 1}f} {u} ({lo:.{digits}f}–{hi:.{digits}f}, n={len(c.times)})"


def fmt_bytes(path):
    return f"{os.path.getsize(path):,}" if path and os.path.exists(path) else "—"


def verdict(ok):
    return "—" if ok is None else ("**PASS**" if ok else "**FAIL**")


class Report:
    def __init__(self):
        self.sections, self.summary = [], []

    def table(self, title, intro, header, rows, notes=()):
        lines = [f"## {title}", "", intro, "", "| " + " | ".join(header) + " |",
                 "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
        for n in notes:
            lines += ["", n]
        self.sections.append("\n".join(lines))

    def target(self, scenario, what, value, target, ok):
        self.summary.append((scenario, what, value, target, verdict(ok)))


def timing_rows(cmds, outputs=None):
    rows = []
    for c in cmds:
        if c.error:
            rows.append((c.label, "failed", c.error, "—", "—"))
        else:
            rows.append((c.label, fmt_s(c.median), spread(c), fmt_mib(c.rss_kib),
                         fmt_bytes((outputs or {}).get(c.label))))
    return rows


def ratio(a, b):
    return a / b if a and b else None


def fmt_x(r):
    return "—" if r is None else f"{r:.2f}×"


# ---------------------------------------------------------------- scenarios
def s0(cfg, rep):
    out = os.path.join(OUT, "s0-64.png")
    cmds = [Cmd("mapsnap --version", [cfg.bin, "--version"]),
            Cmd("mapsnap render 64×64", [cfg.bin, "render", "-q", "--size", "64x64",
                                         "--center", "60.1699,24.9384", "--zoom", "15", "-o", out])]
    saved = cfg.runs
    cfg.runs = max(cfg.runs * 3, 10)   # fast commands: more runs for a stable median
    measure(cmds, cfg)
    cfg.runs = saved
    rows = timing_rows(cmds, {cmds[1].label: out})
    rep.table("S0 start-up", "Whole process, default style (bundled vector tiles + world data), no overlays.",
              ["command", "median", "spread (stddev, min–max, runs)", "peak RSS", "PNG bytes"], rows)
    for c, limit in zip(cmds, (0.008, 0.020)):
        rep.target("S0", c.label, fmt_s(c.median), f"≤ {limit * 1000:.0f} ms",
                   None if c.median is None else c.median <= limit)


def s1(cfg, rep):
    tiles = cfg.tiles
    o = {k: os.path.join(OUT, f"s1-{k}.png") for k in ("raster", "vector", "http", "staticmap", "pystaticmaps")}
    fixture = os.path.join(FX, "s1", "route.json")
    cmds = [Cmd("mapsnap (raster dir)", [cfg.bin, "render", "-q", "--spec", os.path.join(FX, "s1", "raster.json"),
                                         "-o", o["raster"]]),
            Cmd("mapsnap (vector tiles)", [cfg.bin, "render", "-q", "--spec", os.path.join(FX, "s1", "vector.json"),
                                           "-o", o["vector"]])]
    if cfg.http:
        # the old bench/ case: the same tiles over HTTP from 127.0.0.1, cache emptied before each run
        cache = os.path.join(OUT, "s1-http-cache")
        cmds.append(Cmd("mapsnap (HTTP 127.0.0.1, cold cache)",
                        [cfg.bin, "render", "-q", "--spec", os.path.join(FX, "s1", "raster.json"),
                         "--source", cfg.http + "/{z}/{x}/{y}.png", "--cache-dir", cache, "-o", o["http"]],
                        prepare=["rm", "-rf", cache]))
    if cfg.have["staticmap"]:
        cmds.append(Cmd("staticmap", [PY, os.path.join(ANCHORS, "staticmap_route.py"), fixture, tiles,
                                      o["staticmap"]], anchor=True))
    if cfg.have["staticmaps"]:
        cmds.append(Cmd("py-staticmaps", [PY, os.path.join(ANCHORS, "pystaticmaps_route.py"), fixture, tiles,
                                          os.path.join(FX, "pystaticmaps-cache"), o["pystaticmaps"]], anchor=True))
    measure(cmds, cfg)
    outs = {c.label: c.argv[-1] for c in cmds}
    rows = timing_rows(cmds, outs)
    raster, vector = cmds[0], cmds[1]
    rows = [r + ((f"{fmt_x(ratio(c.median, raster.median))} (raster), "
                  f"{fmt_x(ratio(c.median, vector.median))} (vector)",) if c.anchor and c.median else ("",))
            for r, c in zip(rows, cmds)]
    rep.table("S1 route image", "10,000-point route + 20 labelled markers, 800×600 @2x at z16 (z17 raster tiles), "
              "whole process. Ratio = anchor median / mapsnap median.",
              ["command", "median", "spread (stddev, min–max, runs)", "peak RSS", "PNG bytes", "anchor ÷ mapsnap"],
              rows)
    for c in cmds:
        if c.anchor:
            x = ratio(c.median, raster.median)
            rep.target("S1", f"vs {c.label} (raster dir)", fmt_x(x), "≥ 10×", None if x is None else x >= 10)
    if not any(c.anchor for c in cmds):
        rep.target("S1", "vs staticmap / py-staticmaps", "anchors not installed", "≥ 10×", None)


def s2(cfg, rep):
    rows, all_cmds = [], []
    for zoom in (15, 16):
        for scale in (1, 2):
            tag = f"z{zoom} @{scale}x ({1024 * scale}²)"
            mo = os.path.join(OUT, f"s2-z{zoom}-{scale}x-mapsnap.png")
            ao = os.path.join(OUT, f"s2-z{zoom}-{scale}x-mapnik.png")
            cmds = [Cmd(f"mapsnap {tag}", [cfg.bin, "render", "-q", "--center", "60.1705,24.9443", "--zoom", str(zoom),
                                           "--size", "1024x1024", "--scale", str(scale), "-o", mo])]
            if cfg.have["mapnik"]:
                cmds.append(Cmd(f"Mapnik {tag}", [PY, os.path.join(ANCHORS, "mapnik_basemap.py"),
                                                  os.path.join(FX, f"s2-mapnik-z{zoom}.xml"), "60.1705", "24.9443",
                                                  str(zoom), "1024", str(scale), ao], anchor=True))
            measure(cmds, cfg)
            all_cmds += cmds
            r = timing_rows(cmds, {cmds[0].label: mo, cmds[-1].label: ao})
            x = ratio(cmds[0].median, cmds[1].median) if len(cmds) > 1 else None
            rows.append(r[0] + (fmt_x(x),))
            rows += [e + ("",) for e in r[1:]]
            rep.target("S2", f"mapsnap ÷ Mapnik, {tag}", fmt_x(x) if cfg.have["mapnik"] else "Mapnik not installed",
                       "≤ 0.5×", None if x is None else x <= 0.5)
    rep.table("S2 base map", "Helsinki base map centred 60.1705,24.9443, 1024×1024 points at @1x and @2x, whole "
              "process. Mapnik renders the same GeoJSON features (decoded once from Data/helsinki.mbtiles) with an "
              "XML subset of Styles/normal.json. Ratio = mapsnap median / Mapnik median.",
              ["command", "median", "spread (stddev, min–max, runs)", "peak RSS", "PNG bytes", "mapsnap ÷ Mapnik"], rows)


def s3(cfg, rep):
    probe = os.path.join(FX, "encode_timer.so")
    cases = [("1600×1200 (S1 route image)", [cfg.bin, "render", "-q", "--spec", os.path.join(FX, "s1", "raster.json")]),
             ("2048×2048 (S2 z16 @2x)", [cfg.bin, "render", "-q", "--center", "60.1705,24.9443", "--zoom", "16",
                                         "--size", "1024x1024", "--scale", "2"])]
    hook = subprocess.run([cfg.bin, "bench-encode", "--help"], capture_output=True).returncode == 0
    rows = []
    for name, argv in cases:
        out = os.path.join(OUT, f"s3-{name.split(' ')[0]}.png")
        log = os.path.join(OUT, "s3-encode.log")
        if os.path.exists(log):
            os.remove(log)
        env = dict(os.environ, LD_PRELOAD=probe, MAPSNAP_BENCH_ENCODE_LOG=log)
        wall = []
        n = max(cfg.runs, 3)
        for _ in range(n + 1):   # the first run warms the file cache and is dropped
            t0 = time.perf_counter()
            p = subprocess.run(argv + ["-o", out], env=env, capture_output=True)
            wall.append(time.perf_counter() - t0)
            if p.returncode:
                break
        enc = []
        if os.path.exists(log):
            enc = [int(l.split()[0]) / 1e9 for l in open(log).read().split("\n") if l.strip()][1:]
        if hook and os.path.exists(out):
            # the encode-only hook proposed in README.md, once mapsnap has it
            h = subprocess.run([cfg.bin, "bench-encode", out, "--repeat", str(n)], capture_output=True, text=True)
            try:
                j = json.loads(h.stdout)
                enc = [j["min_ms"] / 1000, j["median_ms"] / 1000, j["max_ms"] / 1000]
            except (ValueError, KeyError):
                pass
        ref = subprocess.run([PY, os.path.join(ANCHORS, "libpng_encode.py"), out, str(n),
                              os.path.join(OUT, f"s3-{name.split(' ')[0]}-libpng.png")],
                             capture_output=True, text=True)
        lib = json.loads(ref.stdout) if ref.returncode == 0 else None
        mbytes = os.path.getsize(out) if os.path.exists(out) else None
        m_enc = statistics.median(enc) if enc else None
        x = ratio(lib["median_ms"] / 1000, m_enc) if lib and m_enc else None
        rows.append((name, fmt_s(statistics.median(wall[1:])) if len(wall) > 1 else "—",
                     fmt_s(m_enc) + (f" ({min(enc) * 1000:.0f}–{max(enc) * 1000:.0f})" if enc else
                                     " (encoder not visible to the probe)"),
                     f"{mbytes:,}" if mbytes else "—",
                     f"{lib['median_ms']:.1f} ms ({lib['min_ms']:.0f}–{lib['max_ms']:.0f})" if lib else "—",
                     f"{lib['bytes']:,}" if lib else "—", fmt_x(x)))
        smaller = mbytes is not None and lib is not None and mbytes <= lib["bytes"]
        rep.target("S3", f"encode {name.split(' ')[0]} vs libpng default", fmt_x(x) +
                   ("" if not lib or not mbytes else f", {mbytes / lib['bytes']:.3f}× bytes"),
                   "≥ 4×, bytes ≤ 1×", None if x is None else (x >= 4 and smaller))
    rep.table("S3 PNG encoding", ("mapsnap's encode time comes from its `bench-encode` hook. " if hook else "") +
              "Without the hook, mapsnap's encode time is taken inside an unmodified `mapsnap render` by an "
              "LD_PRELOAD probe (anchors/encode_timer.c) around libpng's `png_image_write_to_memory`; "
              "the libpng-default anchor calls the same function through ctypes on the decoded pixels "
              "of mapsnap's output (warm, median). Ratio = libpng ÷ mapsnap.",
              ["image", "mapsnap whole process", "mapsnap encode (min–max ms)", "mapsnap bytes",
               "libpng default encode", "libpng bytes", "libpng ÷ mapsnap"], rows,
              ["If mapsnap's encoder stops calling `png_image_write_to_memory`, the probe sees nothing and the "
               "encode column says so: the suite then needs an encode-only hook in mapsnap (see README)."])


def s4(cfg, rep):
    mo, so = os.path.join(OUT, "s4-mapsnap.png"), os.path.join(OUT, "s4-skia.png")
    cmds = [Cmd("mapsnap", [cfg.bin, "render", "-q", "--spec", os.path.join(FX, "s4-stroke.json"), "-o", mo])]
    if cfg.have["skia"]:
        cmds.append(Cmd("skia-python", [PY, os.path.join(ANCHORS, "skia_stroke.py"),
                                        os.path.join(FX, "s4-stroke.f32"), so], anchor=True))
    measure(cmds, cfg)
    rows = timing_rows(cmds, {cmds[0].label: mo, cmds[-1].label: so})
    x = ratio(cmds[1].median, cmds[0].median) if len(cmds) > 1 else None
    notes = []
    if len(cmds) > 1 and cmds[1].stderr:
        m = re.search(r"skia-draw-ms=([\d.]+) skia-encode-ms=([\d.]+)", cmds[1].stderr)
        if m:
            notes.append(f"Inside the Skia process (check run): path build + stroke {m.group(1)} ms, "
                         f"PNG encode {m.group(2)} ms; the rest is Python start-up, imports and reading the points.")
    rep.table("S4 anti-aliased stroke", "100,000-segment polyline, 3 px, anti-aliased, round caps/joins, black on "
              "a white 4096² image, PNG out, whole process (mapsnap: background-only style, no attribution or "
              "scale bar; the points as lat/lon in a spec file; Skia: the same points as float32 pixels).",
              ["command", "median", "spread (stddev, min–max, runs)", "peak RSS", "PNG bytes"], rows, notes)
    rep.target("S4", "Skia ÷ mapsnap (whole process)", fmt_x(x) if cfg.have["skia"] else "skia-python not installed",
               "≥ 1×", None if x is None else x >= 1)


def s5(cfg, rep):
    counts = (100_000, 1_000_000) if cfg.quick else (100_000, 300_000, 1_000_000)
    cmds, outs = [], {}
    for n in counts:
        for kind in ("geojson", "polyline"):
            o = os.path.join(OUT, f"s5-{kind}-{n}.png")
            c = Cmd(f"mapsnap {kind} {n:,}", [cfg.bin, "render", "-q", "--spec", os.path.join(FX, "s5", f"{kind}-{n}.json"),
                                               "-o", o])
            cmds.append(c)
            outs[c.label] = o
    anchor_n = 100_000 if cfg.quick else 1_000_000
    anchor = None
    if cfg.have["staticmap"]:
        o = os.path.join(OUT, f"s5-staticmap-{anchor_n}.png")
        anchor = Cmd(f"staticmap geojson {anchor_n:,}", [PY, os.path.join(ANCHORS, "staticmap_route.py"),
                                                          os.path.join(FX, "s1", "route.json"), cfg.tiles, o,
                                                          os.path.join(FX, "s5", f"route-{anchor_n}.geojson")],
                     anchor=True)
        outs[anchor.label] = o
    # each size is timed with the anchor run at that size (if any) in one hyperfine call
    for n in counts:
        group = [c for c in cmds if c.label.endswith(f"{n:,}")]
        if anchor and n == anchor_n:
            group.append(anchor)
        measure(group, cfg)
    allc = cmds + ([anchor] if anchor else [])
    rows = timing_rows(allc, outs)
    notes = []
    for kind in ("geojson", "polyline"):
        pts = [(n, c.median) for n in counts for c in cmds if c.label == f"mapsnap {kind} {n:,}" and c.median]
        if len(pts) >= 2:
            (n0, t0), (n1, t1) = pts[0], pts[-1]
            k = math.log(t1 / t0) / math.log(n1 / n0)
            per = ", ".join(f"{n // 1000}k: {t / n * 1e9:.0f} ns/pt" for n, t in pts)
            marg = ", ".join(f"{a // 1000}k→{b // 1000}k: {(tb - ta) / (b - a) * 1e9:.0f} ns/pt"
                             for (a, ta), (b, tb) in zip(pts, pts[1:]))
            notes.append(f"Scaling {kind}: time ∝ n^{k:.2f} between {n0:,} and {n1:,} points ({per}); "
                         f"marginal cost {marg}. The base map and PNG cost is in every run, so the exponent is < 1 "
                         f"even for a linear overlay cost; a marginal cost that rises with n would show super-linear "
                         f"work.")
            rep.target("S5", f"{kind} scaling exponent {n0 // 1000}k→{n1 // 1000}k", f"n^{k:.2f}", "≤ 1.0 (linear)",
                       k <= 1.0)
    big = [c for c in cmds if c.label.endswith(f"{1_000_000:,}")]
    for c in big:
        x = ratio(anchor.median, c.median) if anchor and anchor_n == 1_000_000 else None
        rep.target("S5", f"{c.label} vs staticmap", fmt_x(x) if anchor else "staticmap not installed",
                   "≥ 10×", None if x is None else x >= 10)
        rep.target("S5", f"{c.label} peak RSS", fmt_mib(c.rss_kib), "≤ 150 MiB",
                   None if c.rss_kib is None else c.rss_kib <= 150 * 1024)
    rep.table("S5 huge route", "An n-point route of fixed total length (so only the point density changes) in the "
              "S1 frame over the raster tiles, width 2 pt, start/end markers; GeoJSON file vs. precision-6 encoded "
              "polyline (in a spec file: a 1M-point polyline exceeds the argument-length limit). Whole process.",
              ["command", "median", "spread (stddev, min–max, runs)", "peak RSS", "PNG bytes"], rows, notes)


def s6(cfg, rep):
    n = 20 if cfg.quick else 100
    suffix = "-20" if cfg.quick else ""
    bdir, sdir = os.path.join(OUT, "s6-batch"), os.path.join(OUT, "s6-single")
    os.makedirs(bdir, exist_ok=True)
    os.makedirs(sdir, exist_ok=True)
    jobs = os.path.join(FX, "s6", f"jobs{suffix}.jsonl")
    ids = os.path.join(FX, "s6", f"ids{suffix}.txt")
    cores = str(os.cpu_count() or 1)
    cmds = [Cmd(f"mapsnap batch ({n} jobs, --jobs {cores})", [cfg.bin, "batch", jobs, "--out-dir", bdir, "--jobs", cores]),
            Cmd(f"{n} × mapsnap render (xargs -P {cores})",
                ["xargs", "-a", ids, "-P", cores, "-I{}", cfg.bin, "render", "-q", "--spec",
                 os.path.join(FX, "s6", "specs", "{}.json"), "-o", os.path.join(sdir, "{}.png")])]
    measure(cmds, cfg)
    rows = timing_rows(cmds)
    x = ratio(cmds[1].median, cmds[0].median)
    rep.table("S6 batch", f"{n} different route images (1,000-point route + 2 pins, 600×400 @1x, default style, "
              f"fitted). Both sides use all {cores} cores: batch with --jobs {cores}, separate processes through "
              f"`xargs -P {cores}`. Peak RSS of xargs is the largest single child.",
              ["command", "median", "spread (stddev, min–max, runs)", "peak RSS", "—"], rows)
    rep.target("S6", "separate ÷ batch", fmt_x(x), "≥ 3×", None if x is None else x >= 3)


def s7(cfg, rep):
    sys.path.insert(0, HERE)
    import extract_bench
    runs = 2 if cfg.quick else 3
    try:
        rows = extract_bench.measure(cfg.bin, runs)
    except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
        rep.target("S7", "data extract", f"failed: {e}"[:200], "≤ 1.3", False)
        return
    title, intro, header, table, notes, targets = extract_bench.section(rows, runs)
    rep.table(title, intro, header, table, notes)
    for scenario, what, value, target, ok in targets:
        rep.target(scenario, what, value, target, ok)


# ---------------------------------------------------------------- main
def have_module(name):
    return subprocess.run([PY, "-c", f"import {name}"], capture_output=True).returncode == 0


def machine():
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(open("/proc/meminfo").readline().split()[1])
        mem = f", {kb / 1024 / 1024:.1f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}, Linux {platform.release()}"


def git(*args):
    p = subprocess.run(["git", "-C", REPO] + list(args), capture_output=True, text=True)
    return p.stdout.strip()


def versions():
    out = []
    for mod, dist in (("staticmap", "staticmap"), ("staticmaps", "py-staticmaps"), ("mapnik", "mapnik"),
                      ("skia", "skia-python"), ("PIL", "pillow")):
        p = subprocess.run([PY, "-c", f"import importlib.metadata as m; print(m.version('{dist}'))"],
                           capture_output=True, text=True)
        out.append(f"{dist} {p.stdout.strip()}" if p.returncode == 0 else f"{dist}: not installed")
    hf = subprocess.run(["hyperfine", "--version"], capture_output=True, text=True).stdout.strip()
    sw = subprocess.run(["swift", "--version"], capture_output=True, text=True)
    swv = (sw.stdout or sw.stderr).strip().splitlines()[0] if (sw.stdout or sw.stderr) else "swift ?"
    return out, hf, swv


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--tiles", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="S0,S1,S2,S3,S4,S5,S6,S7")
    ap.add_argument("--runs", type=int)
    ap.add_argument("--results", default=os.path.join(HERE, "RESULTS.md"))
    ap.add_argument("--http", help="base URL of a local server for the tile directory (S1 HTTP row)")
    cfg = ap.parse_args()
    cfg.runs = cfg.runs or (3 if cfg.quick else 10)
    cfg.heavy_runs = 2 if cfg.quick else max(5, cfg.runs // 2)
    cfg.warmup = 1 if cfg.quick else 2
    cfg.have = {m: have_module(m) for m in ("staticmap", "staticmaps", "mapnik", "skia")}
    os.makedirs(OUT, exist_ok=True)
    only = [s.strip().upper() for s in cfg.only.split(",") if s.strip()]
    rep = Report()
    started = datetime.datetime.now(datetime.timezone.utc)
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    for name, fn in (("S0", s0), ("S1", s1), ("S2", s2), ("S3", s3), ("S4", s4), ("S5", s5), ("S6", s6), ("S7", s7)):
        if name in only:
            print(f"{name} …", file=sys.stderr)
            fn(cfg, rep)
    elapsed = time.perf_counter() - t0
    load1 = os.getloadavg()
    missing = [k for k, v in cfg.have.items() if not v]
    vers, hf, swv = versions()

    head = [
        "# mapsnap benchmark results", "",
        "Written by `Benchmarks/run.sh" + (" --quick" if cfg.quick else "") +
        (f" --only {cfg.only}" if set(only) != {"S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7"} else "") +
        "`; see Benchmarks/README.md for what each scenario measures and how to read this file.", "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')} (run took {elapsed / 60:.1f} min)",
        f"- Commit: {git('rev-parse', '--short', 'HEAD')} ({git('log', '-1', '--format=%s')[:90]})"
        + (" + uncommitted changes" if git("status", "--porcelain", "--", "Sources", "Package.swift") else ""),
        f"- Machine: {machine()}",
        f"- Load average at start / end: {load0[0]:.2f} / {load1[0]:.2f}"
        + ("  ⚠ other work was running: treat the numbers as noisy" if max(load0[0], load1[0]) > 1.0 else ""),
        f"- Toolchain: {swv}; {hf}; Python {platform.python_version()}",
        f"- Anchors: {'; '.join(vers)}" + (f" — **skipped: {', '.join(missing)}**" if missing else ""),
        f"- Runs: {cfg.runs} per command ({cfg.runs * 3 if cfg.runs * 3 >= 10 else 10} for S0), "
        f"{cfg.heavy_runs} for commands over {HEAVY_SECONDS:.0f} s; {cfg.warmup} warm-up runs"
        + ("; **--quick: indicative only**" if cfg.quick else ""),
        "", "## Targets", "",
        "| scenario | check | measured | target | result |", "|---|---|---|---|---|"]
    head += [f"| {a} | {b} | {c} | {d} | {e} |" for a, b, c, d, e in rep.summary]
    if any("FAIL" in e for *_, e in rep.summary):
        head += ["", "For every target marked FAIL, *Unmet targets* below gives the profile (where the time goes, "
                 "from `Benchmarks/profile.py`) and the reason (Benchmarks/PROFILES.md)."]

    def appendix(name):
        path = os.path.join(HERE, name)
        return open(path).read().strip() if os.path.exists(path) else ""

    text = "\n".join(head) + "\n\n" + "\n\n".join(rep.sections) + "\n"
    for extra in (appendix("PROFILES.md"), appendix("FAIRNESS.md")):
        if extra:
            text += "\n" + extra + "\n"
    with open(cfg.results, "w") as f:
        f.write(text)
    table = head.index("| scenario | check | measured | target | result |")
    print("\n".join(head[table:table + len(rep.summary) + 2]))
    print(f"\nwrote {os.path.relpath(cfg.results)}", file=sys.stderr)


if __name__ == "__main__":
    main()
