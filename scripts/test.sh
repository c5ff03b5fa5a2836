#!/usr/bin/env bash
# Sets up the machine (Debian packages) and runs the whole test suite: the package's tests,
# then the sample user packages in examples/ (which test mapsnap as a dependency).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Hide Swift Testing's per-test "started" lines; pipefail keeps swift test's exit status.
swift test 2>&1 | grep -v -E '^[[:space:]]*◇'
scripts/test-examples.sh
