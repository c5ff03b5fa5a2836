#!/usr/bin/env bash
# Builds and tests the sample user packages in examples/ against this checkout.
# Each has its own .build, so the first run compiles mapsnap again (about 2 minutes on
# 2 cores); later runs take seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
for package in examples/*/; do
    [ -f "$package/Package.swift" ] || continue
    echo "== swift test --package-path $package"
    # Hide Swift Testing's per-test "started" lines; pipefail keeps swift test's exit status.
    swift test --package-path "$package" 2>&1 | grep -v -E '^[[:space:]]*(◇|↳)'
done
