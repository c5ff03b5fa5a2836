#!/usr/bin/env bash
# Builds and tests the sample user packages in examples/ the way a user's package gets
# mapsnap: as a versioned dependency, `.package(url: …, from: "X.Y.Z")`, resolved from a
# git tag. SwiftPM refuses versioned dependencies that use unsafe build flags, so this is
# what proves the package can be depended on.
#
# The checkout's current files (committed or not, minus what .gitignore hides) are
# committed to a throwaway git repository tagged with the CLI's version; each example is
# copied next to it with its `path:` dependency rewritten to that tag. Each example builds
# mapsnap once more from scratch (about 2 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
version="$(sed -n 's/^let version = "\(.*\)"$/\1/p' Sources/mapsnap/main.swift)"
[ -n "$version" ] || { echo "test-examples: no 'let version = \"…\"' in Sources/mapsnap/main.swift" >&2; exit 1; }

work="${TMPDIR:-/tmp}/mapsnap-examples"
rm -rf "$work/mapsnap"
mkdir -p "$work/mapsnap"

# A tagged snapshot of the working tree (tracked and untracked, not ignored files).
git -C "$repo" ls-files -z --cached --others --exclude-standard |
    (cd "$repo" && xargs -0 cp --parents -t "$work/mapsnap" 2>/dev/null || true)
git -C "$work/mapsnap" init -q
git -C "$work/mapsnap" add -A
git -C "$work/mapsnap" -c user.name=test -c user.email=test@localhost commit -q -m "snapshot for the examples"
git -C "$work/mapsnap" tag "$version"

for package in examples/*/; do
    [ -f "$package/Package.swift" ] || continue
    name="$(basename "$package")"
    dest="$work/$name"
    rm -rf "$dest"
    mkdir -p "$dest"
    (cd "$package" && tar --exclude=./.build -cf - .) | (cd "$dest" && tar -xf -)
    grep -q '\.package(name: "mapsnap", path: "../..")' "$dest/Package.swift" ||
        { echo "test-examples: $package/Package.swift does not depend on mapsnap by path ../.." >&2; exit 1; }
    sed -i "s|\.package(name: \"mapsnap\", path: \"../..\")|.package(url: \"file://$work/mapsnap\", from: \"$version\")|" "$dest/Package.swift"
    echo "== swift test --package-path $dest (mapsnap from: \"$version\", by git tag)"
    # Hide Swift Testing's per-test "started" lines; pipefail keeps swift test's exit status.
    swift test --disable-dependency-cache --package-path "$dest" 2>&1 | grep -v -E '^[[:space:]]*◇'
done
