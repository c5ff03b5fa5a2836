#!/usr/bin/env python3
"""mapsnap serve: throughput and latency against a process per image, and a bounded load test.

    Benchmarks/serve_bench.py [--binary .build/release/mapsnap] [--requests 200] [--out FILE]
    Benchmarks/serve_bench.py --load [--load-requests 2000] [--concurrency 16]

Benchmark (default): a 600x400 route image (a 60-point route with start and end markers
over the bundled vector tiles, all cached after the warm-up) requested from one
`mapsnap serve` at concurrency 1, 4 and 16, against spawning `mapsnap render --url` for
each image at the same concurrencies. Prints requests/s and p50/p99 latency and the
server/process ratio; the target is >= 10x at concurrency 4.

Load test (--load): requests at a fixed concurrency mixing route images (each request
another route), every format, bad requests (400, 404, 405, 413, 414) and slow clients that
trickle their request line and stall. It counts statuses, requires zero 5xx except 503 from
a full queue, zero dropped connections and a server still alive at the end, and samples
the server's resident memory (peak, after warm-up, at the end).

Loopback only (127.0.0.1), every loop bounded in count and time. Python standard library only.
"""
import argparse
import http.client
import json
import math
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def route(seed, points=60):
    """A seeded random walk through central Helsinki, as Static Maps path and markers."""
    rng = random.Random(seed)
    lat, lon = 60.1699 + rng.uniform(-0.004, 0.004), 24.9384 + rng.uniform(-0.008, 0.008)
    heading = rng.uniform(0, 2 * math.pi)
    coords = []
    for _ in range(points):
        heading += rng.uniform(-0.5, 0.5)
        lat += 0.00018 * math.sin(heading)
        lon += 0.00036 * math.cos(heading)
        coords.append(f"{lat:.5f},{lon:.5f}")
    path = "color:0x1a73e8ff|weight:5|" + "|".join(coords)
    return (f"size=600x400&path={quote(path)}&markers={quote('color:green|label:S|' + coords[0])}"
            f"&markers={quote('color:red|label:E|' + coords[-1])}")


def quote(text):
    out = []
    for ch in text:
        if ch.isalnum() or ch in "-_.~,:":
            out.append(ch)
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode()))
    return "".join(out)


class Server:
    """`mapsnap serve --listen 127.0.0.1:0` with its port read from stderr."""

    def __init__(self, binary, args):
        self.process = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--quiet"] + args,
                                        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise SystemExit(f"serve did not start: {line!r}")
        self.port = int(match.group(1))
        threading.Thread(target=self.process.stderr.read, daemon=True).start()

    def rss_kib(self):
        try:
            with open(f"/proc/{self.process.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def stop(self):
        self.process.terminate()
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


def get(port, target, method="GET", body=None, headers=None, timeout=60):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, target, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, data
    finally:
        conn.close()


def run_concurrent(jobs, concurrency):
    """Runs callables at `concurrency`; returns (seconds, latencies, results)."""
    latencies = [0.0] * len(jobs)
    results = [None] * len(jobs)

    def one(i):
        start = time.perf_counter()
        results[i] = jobs[i]()
        latencies[i] = time.perf_counter() - start

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        list(pool.map(one, range(len(jobs))))
    return time.perf_counter() - start, latencies, results


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def benchmark(args):
    query = route(1)
    target = "/maps/api/staticmap?" + query
    server = Server(args.binary, ["--threads", str(os.cpu_count() or 2), "--max-concurrent", "256"])
    rows = []
    try:
        for _ in range(5):  # warm-up: styles prepared, tiles decoded and cached
            status, _ = get(server.port, target)
            assert status == 200, status
        for concurrency in (1, 4, 16):
            n = args.requests
            seconds, lat, results = run_concurrent([lambda: get(server.port, target)[0]] * n, concurrency)
            assert all(r == 200 for r in results), set(results)
            rows.append(("serve", concurrency, n, n / seconds, percentile(lat, 50), percentile(lat, 99)))
    finally:
        server.stop()
    url = "https://maps.googleapis.com/maps/api/staticmap?" + query
    for concurrency in (1, 4, 16):
        n = max(8, args.requests // 10)

        def spawn():
            return subprocess.run([args.binary, "render", "--url", url, "-o", "/dev/null", "-q"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        spawn()
        seconds, lat, results = run_concurrent([spawn] * n, concurrency)
        assert all(r == 0 for r in results), set(results)
        rows.append(("process per image", concurrency, n, n / seconds, percentile(lat, 50), percentile(lat, 99)))
    lines = ["| mode | concurrency | requests | requests/s | p50 ms | p99 ms |", "|---|---|---|---|---|---|"]
    for mode, c, n, rate, p50, p99 in rows:
        lines.append(f"| {mode} | {c} | {n} | {rate:.1f} | {p50 * 1000:.1f} | {p99 * 1000:.1f} |")
    by = {(m, c): rate for m, c, _, rate, _, _ in rows}
    lines.append("")
    for c in (1, 4, 16):
        lines.append(f"serve / process per image at concurrency {c}: {by[('serve', c)] / by[('process per image', c)]:.1f}x"
                     + ("  (target >= 10x)" if c == 4 else ""))
    report(args, "serve benchmark: 600x400 route image, cached tiles", lines)


def load_test(args):
    server = Server(args.binary, ["--threads", str(os.cpu_count() or 2), "--max-concurrent", str(args.max_concurrent), "--timeout", "2"])
    port = server.port
    formats = ["", "&format=png32", "&format=jpg", "&format=jpg-baseline&quality=70", "&format=webp", "&format=png8"]
    rng = random.Random(7)
    jobs = []
    for i in range(args.load_requests):
        kind = rng.random()
        if kind < 0.70:
            target = "/maps/api/staticmap?" + route(1000 + i % 400, points=rng.choice([20, 60, 200])) + rng.choice(formats)
            jobs.append(("image", lambda t=target: get(port, t)))
        elif kind < 0.78:
            jobs.append(("400", lambda: get(port, "/staticmap?center=1,2&zoom=99")))
        elif kind < 0.82:
            jobs.append(("404", lambda: get(port, "/nothing")))
        elif kind < 0.85:
            jobs.append(("405", lambda: get(port, "/staticmap?center=1,2&zoom=3", method="DELETE")))
        elif kind < 0.87:
            jobs.append(("413", lambda: oversized_post(port, 2 << 20)))
        elif kind < 0.89:
            jobs.append(("414", lambda: get(port, "/staticmap?x=" + "a" * 20000)))
        elif kind < 0.92:
            spec = json.dumps({"size": "300x200", "center": [60.17, 24.94], "zoom": 14, "format": "webp",
                               "markers": [f"label:{chr(65 + i % 26)}|60.17,24.94"]}).encode()
            jobs.append(("post", lambda b=spec: get(port, "/render", method="POST", body=b)))
        elif kind < 0.95:
            jobs.append(("metrics", lambda: get(port, "/metrics")))
        else:
            jobs.append(("slow", lambda: slow_client(port)))
    rss = []
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            value = server.rss_kib()
            if value:
                rss.append((time.perf_counter(), value))
            time.sleep(0.1)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    statuses = {}
    failures = []

    def run(job):
        kind, call = job
        try:
            status, _ = call()
        except Exception as error:  # a dropped connection counts against the server
            failures.append(f"{kind}: {error!r}")
            return
        statuses[(kind, status)] = statuses.get((kind, status), 0) + 1

    start = time.perf_counter()
    warm = max(1, len(jobs) // 10)
    with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        list(pool.map(run, jobs[:warm]))
        warm_rss = server.rss_kib()
        list(pool.map(run, jobs[warm:]))
    seconds = time.perf_counter() - start
    end_rss = server.rss_kib()
    alive = get(port, "/health")[0] == 200
    stop.set()
    sampler.join()
    exit_status = server.stop()
    unexpected = {k: v for k, v in statuses.items() if k[1] >= 500 and k[1] != 503}
    lines = [f"{len(jobs)} requests at concurrency {args.concurrency} in {seconds:.1f} s ({len(jobs) / seconds:.1f}/s)", "",
             "| kind | status | count |", "|---|---|---|"]
    for (kind, status), count in sorted(statuses.items()):
        lines.append(f"| {kind} | {status} | {count} |")
    lines += ["", f"5xx other than 503: {sum(unexpected.values())}", f"failed connections: {len(failures)} {failures[:5]}",
              f"server alive after the run: {alive}; exit status after SIGTERM: {exit_status}",
              f"RSS: peak {max(v for _, v in rss) / 1024:.0f} MiB, after warm-up {(warm_rss or 0) / 1024:.0f} MiB, "
              f"at the end {(end_rss or 0) / 1024:.0f} MiB"]
    report(args, "serve load test", lines)
    if unexpected or failures or not alive or exit_status != 0:
        sys.exit(1)


def oversized_post(port, size):
    """A body over the limit, announced with `Expect: 100-continue` as curl does for large
    bodies: the server answers 413 at once and the body is never sent. (A client that sends a
    large body blindly may see the connection closed under it after the 413.)"""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(f"POST /render HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {size}\r\n"
                  "Expect: 100-continue\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        return int(data.split()[1]), data


def slow_client(port):
    """Sends half a request line, stalls past the server's idle timeout, expects it closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"GET /staticmap?center=60.17,24.94&zo")
        time.sleep(0.5)
        s.sendall(b"om=12")
        data = s.recv(1024)  # the server closes an idle connection: b""
        return (408 if not data else int(data.split()[1])), data


def report(args, title, lines):
    text = f"## {title}\n\n" + "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "a") as f:
            f.write(text + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/mapsnap"))
    parser.add_argument("--requests", type=int, default=200, help="requests per concurrency level")
    parser.add_argument("--load", action="store_true", help="run the load test instead of the benchmark")
    parser.add_argument("--load-requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--max-concurrent", type=int, default=12,
                        help="the server's queue for the load test: below --concurrency, so some requests get 503")
    parser.add_argument("--out", help="append the report (Markdown) to this file")
    args = parser.parse_args()
    load_test(args) if args.load else benchmark(args)


if __name__ == "__main__":
    main()
