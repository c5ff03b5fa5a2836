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
# - C libraries linked statically where the -dev packages ship an archive (SQLite, FreeType
#   with its Brotli, libpng, zlib, Expat, libdeflate, libwebp, TurboJPEG) and libstdc++: the
#   loader then maps 5 shared objects instead of 16 and binds a few hundred symbols instead
#   of ~4,000 (libstdc++'s alone were half of them); `mapsnap --version` 7.7 -> 4.1 ms
#   measured, same output bytes. How: SwiftPM puts the -L of each pkg-config package before
#   the system's, so copies of those .pc files whose Libs start with a folder holding only
#   the archives make every -l find the archive first (the link line changes, no compile
#   flag does). ISA-L has no archive and stays shared, FriBiDi too (LGPL); libc, libm and
#   libgcc_s stay shared. HarfBuzz is not linked: mapsnap opens it when it first shapes text.
#   Falls back to shared libraries, with a note, when no archive is found or the link fails.
#   The binary then contains those libraries: see "License" in README.md for their notices.
# These are build-command flags, not manifest flags: unsafeFlags in Package.swift would
# stop other packages depending on mapsnap by version.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib)
# No $ORIGIN run path: the binary loads no library of its own, and with one the loader
# first looks for each shared library beside the binary (a dozen failed opens at every start).
if swift build --help 2>/dev/null | grep -q -- --disable-local-rpath; then flags+=(--disable-local-rpath); fi
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
static_dir="$PWD/.build/static-link"
rm -rf "$static_dir"
mkdir -p "$static_dir/pkgconfig"
cc="$(command -v clang || command -v cc || true)"
static_flags=()
if [ -n "$cc" ] && command -v pkg-config >/dev/null; then
  for lib in sqlite3 freetype brotlidec brotlicommon png16 z expat deflate webp turbojpeg stdc++; do
    archive="$("$cc" -print-file-name="lib$lib.a")"   # the bare name when there is none
    [ -f "$archive" ] && ln -s "$archive" "$static_dir/"
  done
  # fribidi stays shared (FriBiDi is LGPL), but its .pc file names the system library folder,
  # which must not come before this one. HarfBuzz is not linked at all (opened on first
  # shaping, see Sources/CHarfBuzz/shim.h), so SwiftPM asks pkg-config nothing about it.
  for pc in libpng freetype2 libdeflate libisal expat libturbojpeg libwebp fribidi; do
    dir="$(pkg-config --variable=pcfiledir "$pc" 2>/dev/null)" || continue
    sed "s#^Libs:#Libs: -L$static_dir#" "$dir/$pc.pc" > "$static_dir/pkgconfig/$pc.pc"
  done
  # What the archives need that a shared library would have brought itself.
  for l in $(pkg-config --static --libs-only-l sqlite3 freetype2 libpng16 expat libwebp 2>/dev/null); do
    static_flags+=(-Xlinker "$l")
  done
fi
if [ -n "$(ls "$static_dir"/*.a 2>/dev/null)" ] \
   && PKG_CONFIG_PATH="$static_dir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
      swift build "${flags[@]}" "${static_flags[@]}" --product mapsnap >&2; then
  flags+=("${static_flags[@]}")
  export PKG_CONFIG_PATH="$static_dir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
else
  echo "build-release.sh: linking the C libraries as shared objects (no static archives, or the static link failed)" >&2
  swift build "${flags[@]}" --product mapsnap >&2
fi
echo "$(swift build "${flags[@]}" --show-bin-path)/mapsnap"
