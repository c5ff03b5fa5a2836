#!/usr/bin/env bash
# Builds the mapsnap command for production use and prints the binary's path on stdout
# (the build's own output goes to stderr):
#
#   bin="$(scripts/build-release.sh)"
#
# The one release build of the repository: scripts/demo.sh, Benchmarks/run.sh and
# deploy/Dockerfile use it, so what is measured is what ships.
# - Static Swift runtime (--static-swift-stdlib): no Swift libraries needed at run time,
#   and no Swift shared objects to load at start.
# - Linked by lld with packed relative relocations (-z pack-relative-relocs): the binary
#   stays position-independent (address randomisation kept), but its ~76,000 RELATIVE
#   relocations (1.8 MB the loader walks at every start) become ~15 kB of RELR entries;
#   `mapsnap --version` 7.7 -> 6.8 ms measured. Needs glibc 2.36 or newer at run time
#   (Debian 12). Skipped, with a note, when lld or the option is not available.
# - Generic type metadata reached through metadata accessors, not mangled names
#   (-disable-concrete-type-metadata-mangled-name-accessors): by default the compiler emits a
#   mangled name for each concrete generic type (`[StyleProperty: PropertyValue]`) and the
#   runtime demangles it on first use, checking every `Hashable` requirement by a linear scan
#   of all the binary's protocol conformances. A 64x64 render spent 8.7 M of its 85.8 M
#   instructions in 159 such lookups; with accessors 1.5 M, 78.2 M in all (callgrind), same
#   bytes. Binary +70 kB. Skipped, with a note, when the compiler does not know the option.
# These are build-command flags, not manifest flags: unsafeFlags in Package.swift would
# stop other packages depending on mapsnap by version.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib)
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
echo 'print("ok")' > "$probe/main.swift"
if swiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs "$probe/main.swift" -o "$probe/probe" >/dev/null 2>&1 \
   && [ "$("$probe/probe")" = ok ]; then
  flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
else
  echo "build-release.sh: lld with -z pack-relative-relocs unavailable; linking without packed relocations" >&2
fi
accessors=(-Xfrontend -disable-concrete-type-metadata-mangled-name-accessors)
if swiftc "${accessors[@]}" "$probe/main.swift" -o "$probe/probe2" >/dev/null 2>&1 && [ "$("$probe/probe2")" = ok ]; then
  flags+=(-Xswiftc "${accessors[0]}" -Xswiftc "${accessors[1]}")
else
  echo "build-release.sh: the compiler lacks ${accessors[1]}; building with its default" >&2
fi
swift build "${flags[@]}" --product mapsnap >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/mapsnap"
