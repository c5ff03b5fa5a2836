#!/usr/bin/env python3
"""S8: route images from places (issue 29) against a local Valhalla, per travel mode.

    python3 Benchmarks/directions_bench.py --bin .build/release/mapsnap [--runs 15]   # prints the S8 section

The engine is the one the tests route with: `scripts/valhalla-setup.sh` (pyvalhalla's
programs and routing tiles of the repository's Helsinki extract, under .build/valhalla),
started here on a free loopback port with one worker thread and stopped at the end. For
walk, drive and bike, from the Central Station to the Market Square (coordinates, so that
place lookup is not in the figures), 800×600 with the bundled style, it times with
hyperfine -N:

  A  end to end: `render --from … --to … --mode M --router URL` (router call + render);
  B  the render alone: the same image from the engine's saved answer (`--directions-json`);
  C  the same picture without directions: the route's line as `--path enc:` with the
     camera and size of B, no pins or callout (so B − C is the parse of the answer plus
     the pins and callout);

and, for the router alone, the median of `runs` requests of the same question made from
Python (urllib, one connection each, as mapsnap makes them). A − B is then the router
call as mapsnap makes it. B − C is the cost of `--directions-json` over a plain route.
Times are wall-clock medians and mean CPU times (user + system, hyperfine's): on a shared
machine the CPU times are the steadier comparison.

Nothing is asserted: the figures are printed as a Markdown section.
"""
import argparse
import json
import os
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FX = os.path.join(HERE, ".fixtures", "directions")
OUT = os.path.join(HERE, ".out")

FROM, TO = "60.1712,24.9414", "60.1672,24.9528"     # station square → Market Square
MODES = [("walk", "pedestrian"), ("drive", "auto"), ("bike", "bicycle")]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_valhalla(tmp):
    root = subprocess.run(["bash", os.path.join(REPO, "scripts/valhalla-setup.sh")], check=True,
                          capture_output=True, text=True).stdout.strip()
    config = json.load(open(os.path.join(root, "valhalla.json")))
    port = free_port()
    service = config["httpd"]["service"]
    service["listen"] = f"tcp://127.0.0.1:{port}"
    service["loopback"] = f"ipc://{tmp}/loopback"
    service["interrupt"] = f"ipc://{tmp}/interrupt"
    config["mjolnir"]["tile_extract"] = ""
    path = os.path.join(tmp, "valhalla.json")
    json.dump(config, open(path, "w"))
    proc = subprocess.Popen([os.path.join(root, "wheel/valhalla/bin/valhalla_service"), path, "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(url + "/status", timeout=1).read()
            return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("valhalla_service did not start")


def valhalla_query(costing):
    lat1, lon1 = FROM.split(",")
    lat2, lon2 = TO.split(",")
    # The document mapsnap's Router sends (same keys, same order).
    return ('{"locations":[{"lat":%s,"lon":%s,"type":"break"},{"lat":%s,"lon":%s,"type":"break"}],"costing":"%s",'
            '"units":"kilometers","directions_options":{"units":"kilometers","language":"en-US"}}'
            % (lat1, lon1, lat2, lon2, costing))


def hyperfine(commands, runs):
    with tempfile.NamedTemporaryFile(suffix=".json") as tf:
        argv = ["hyperfine", "-N", "--style", "none", "--warmup", "3", "--runs", str(runs), "--export-json", tf.name]
        for label, cmd in commands:
            argv += ["--command-name", label, shlex.join(cmd)]
        subprocess.run(argv, check=True, capture_output=True)
        # Wall-clock medians, and the mean CPU time (user + system), which a loaded machine
        # disturbs less: B − C in CPU time is the parse and the pins and callout.
        return {r["command"]: (statistics.median(r["times"]), r["user"] + r["system"])
                for r in json.load(open(tf.name))["results"]}


def ms(s):
    return f"{s * 1000:.1f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    os.makedirs(FX, exist_ok=True)
    os.makedirs(OUT, exist_ok=True)
    env = dict(os.environ, MAPSNAP_DATA="/nonexistent/mapsnap-bench")
    os.environ.update(env)
    tmp = tempfile.mkdtemp(prefix="mapsnap-directions-bench-")
    proc, url = start_valhalla(tmp)
    rows = []
    try:
        for mode, costing in MODES:
            query = valhalla_query(costing)
            target = url + "/route?json=" + urllib.parse.quote(query, safe="")
            saved = os.path.join(FX, f"{mode}.json")
            with open(saved, "wb") as f:
                f.write(urllib.request.urlopen(target, timeout=10).read())
            router_times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                urllib.request.urlopen(target, timeout=10).read()
                router_times.append(time.perf_counter() - t0)
            common = ["--size", "800x600", "-q"]
            steps = os.path.join(OUT, f"s8-{mode}-steps.json")
            end_to_end = [binary, "render", "--from", FROM, "--to", TO, "--mode", mode, "--router", url,
                          "-o", os.path.join(OUT, f"s8-{mode}-router.png")] + common
            saved_answer = [binary, "render", "--directions-json", saved, "--mode", mode,
                            "-o", os.path.join(OUT, f"s8-{mode}-saved.png"), "--steps-out", steps] + common
            subprocess.run(saved_answer, check=True, env=env)
            camera = json.load(open(steps))["camera"]
            shape = json.load(open(saved))["trip"]["legs"][0]["shape"]
            plain = [binary, "render", "--center", "%.7f,%.7f" % tuple(camera["center"]), "--zoom", str(camera["zoom"]),
                     "--polyline6", shape, "-o", os.path.join(OUT, f"s8-{mode}-plain.png")] + common
            subprocess.run(end_to_end, check=True, env=env)
            times = hyperfine([("A", end_to_end), ("B", saved_answer), ("C", plain)], args.runs)
            rows.append((mode, statistics.median(router_times), times["A"], times["B"], times["C"]))
            print(f"  {mode}: router {ms(rows[-1][1])}, A {ms(times['A'][0])}, B {ms(times['B'][0])}, C {ms(times['C'][0])}",
                  file=sys.stderr)
    finally:
        proc.kill()
        proc.wait()
    print("## S8 — route images from places (local Valhalla)\n")
    load = os.getloadavg()[0]
    print(f"800×600, bundled style, Central Station → Market Square, {args.runs} runs each (hyperfine -N): wall-clock "
          f"median, and in brackets the mean CPU time (user + system). Load average at the end: {load:.1f} "
          f"on {os.cpu_count()} cores.\n")
    print("| mode | router alone (Python) | A: end to end (router + render) | B: render from the saved answer | "
          "C: same line as `--polyline6`, no directions | A − B | B − C |")
    print("|---|---|---|---|---|---|---|")
    for mode, router, a, b, c in rows:
        cells = [f"{ms(x[0])} ({ms(x[1])})" for x in (a, b, c)]
        print(f"| {mode} | {ms(router)} | " + " | ".join(cells)
              + f" | {ms(a[0] - b[0])} ({ms(a[1] - b[1])}) | {ms(b[0] - c[0])} ({ms(b[1] - c[1])}) |")


if __name__ == "__main__":
    main()
