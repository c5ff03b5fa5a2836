#!/usr/bin/env bash
# Builds and tests the sample user packages in examples/ the way a user's package gets
# mapsnap: as a versioned dependency, `.package(url: …, from: "X.Y.Z")`, resolved from a
# git tag. SwiftPM refuses versioned dependencies that use unsafe build flags, so this is
# what proves the package can be depended on.
#
# The checkout's current files (committed or not, minus what .gitignore hides) are
# committed to a throwaway git repository tagged with the CLI's version; each example is
# copied next to it with its `path:` dependency rewritten to that tag. Then a consumer
# package is made from exactly the README's "Swift library" blocks (its Package.swift, with
# only the URL replaced by the snapshot's, and its main.swift), built, and run: it must
# write a PNG. All builds share one scratch folder, so mapsnap is compiled once (about 3
# minutes on 2 cores) and the consumer adds well under a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
version="$(sed -n 's/^ *public static let version = "\(.*\)"$/\1/p' Sources/MapSnap/Support/MapSnapBuildInfo.swift)"
[ -n "$version" ] || { echo "test-examples: no 'public static let version = \"…\"' in Sources/MapSnap/Support/MapSnapBuildInfo.swift" >&2; exit 1; }

work="${TMPDIR:-/tmp}/mapsnap-examples"
# The snapshot is new each run but keeps its version tag, so a build folder from an earlier
# run would hold a stale checkout of the same version: start both afresh.
rm -rf "$work/mapsnap" "$work/build"
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
    swift test --disable-dependency-cache --package-path "$dest" --scratch-path "$work/build" 2>&1 | grep -v -E '^[[:space:]]*◇'
done

# The README's Package.swift and main.swift, as a user copies them: the first ```swift block
# after "## Swift library" that declares a package, and the block after it.
consumer="$work/MyMaps"
rm -rf "$consumer"
mkdir -p "$consumer/Sources/MyMaps"
awk -v out="$consumer" '
    /^## / { inside = ($0 == "## Swift library") }
    inside && /^```swift$/ { block++; open = 1; next }
    open && /^```$/ { open = 0; next }
    open && block == 1 { print > (out "/Package.swift") }
    open && block == 2 { print > (out "/Sources/MyMaps/main.swift") }
' README.md
grep -q 'from: "'"$version"'"' "$consumer/Package.swift" ||
    { echo "test-examples: README's Package.swift does not depend on mapsnap from: \"$version\"" >&2; exit 1; }
grep -q '^import MapSnap$' "$consumer/Sources/MyMaps/main.swift" ||
    { echo "test-examples: README's main.swift block not found after its Package.swift" >&2; exit 1; }
# Only the URL changes: the README's remote becomes the tagged snapshot.
sed -i -E 's|\.package\(url: "[^"]*"|.package(url: "file://'"$work/mapsnap"'"|' "$consumer/Package.swift"
echo "== swift build --package-path $consumer (the README's Package.swift and main.swift)"
swift build --disable-dependency-cache --package-path "$consumer" --scratch-path "$work/build"
(cd "$consumer" && rm -f walk.png && "$(swift build --package-path "$consumer" --scratch-path "$work/build" --show-bin-path)/MyMaps")
head -c 8 "$consumer/walk.png" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' ||
    { echo "test-examples: the README's main.swift did not write a PNG to walk.png" >&2; exit 1; }
echo "== the README's library example wrote $consumer/walk.png ($(stat -c %s "$consumer/walk.png") bytes)"
