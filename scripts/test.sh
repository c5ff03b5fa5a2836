#!/usr/bin/env bash
# Sets up the machine (Debian packages) and runs the whole test suite: the package's tests,
# then the sample user packages in examples/ (which test mapsnap as a dependency), then a
# type-check of the fuzz harness.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The routing engine the directions tests route with (pyvalhalla from PyPI, cached under
# .build/valhalla). Without network, MAPSNAP_SKIP_ROUTING_ENGINE=1 skips those tests.
[ "${MAPSNAP_SKIP_ROUTING_ENGINE:-}" = 1 ] || scripts/valhalla-setup.sh >/dev/null
# Regions in the user's own data directory (~/.local/share/mapsnap) must not reach the tests.
export MAPSNAP_DATA=/nonexistent/mapsnap-test-data
# Hide Swift Testing's per-test "started" lines; pipefail keeps swift test's exit status.
swift test 2>&1 | grep -v -E '^[[:space:]]*◇'
# mapsnap serve under issue 28's attacks, short form (about 40 s, loopback only): memory,
# /health answered throughout, exit within the drain limit after SIGTERM with a full queue.
python3 Benchmarks/serve_bench.py --attacks-only --short --binary .build/debug/mapsnap
scripts/test-examples.sh
# The fuzz harness is built outside the package; check it still compiles against the sources.
fuzz/run.sh --check
