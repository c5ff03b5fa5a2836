#!/usr/bin/env bash
# Sets up the machine, builds mapsnap in release mode (scripts/build-release.sh: static Swift
# runtime, packed relocations) and renders the demo route: demo.png
# (normal style), demo-terrain.png and demo-hybrid.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bin="$(scripts/build-release.sh)"
"$bin" render --spec examples/helsinki-walk.json -o demo.png
"$bin" render --spec examples/helsinki-walk.json --style terrain -o demo-terrain.png
"$bin" render --spec examples/helsinki-walk.json --style hybrid -o demo-hybrid.png
echo "wrote $(pwd)/demo.png, demo-terrain.png and demo-hybrid.png"
