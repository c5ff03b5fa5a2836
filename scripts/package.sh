#!/usr/bin/env bash
# Packages mapsnap for other machines: a Debian package and a relocatable tarball.
#
#   scripts/package.sh [--binary PATH] [--out DIR] [--fast]
#
#   DIR/mapsnap_<version>_<arch>.deb          prefix /usr; Depends on the shared libraries the
#                                             binary loads, by their Debian package names
#   DIR/mapsnap-<version>-linux-<arch>.tar.gz bin/ and share/ at the top: unpack it anywhere
#                                             (tar -xzf … -C ~/opt/mapsnap) and run bin/mapsnap
#
# Both hold what scripts/install.sh installs (the binary, Styles/ Fonts/ Data/, licences,
# man page, completions), staged once by it.
#
# --binary PATH  package this mapsnap instead of building the release (scripts/build-release.sh)
# --out DIR      where to write the two files (default: .build/packages)
# --fast         light compression (none for the .deb, gzip -1): for tests, not for distribution
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
binary=""
out="$repo/.build/packages"
fast=0
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    --binary=*) binary="${1#*=}"; shift ;;
    --out) out="${2:?--out needs a directory}"; shift 2 ;;
    --out=*) out="${1#*=}"; shift ;;
    --fast) fast=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "package.sh: unknown argument '$1' (see scripts/package.sh --help)" >&2; exit 2 ;;
  esac
done
for tool in dpkg-deb dpkg-query dpkg ldd; do
  command -v "$tool" >/dev/null || { echo "package.sh: needs $tool (Debian's dpkg and libc-bin)" >&2; exit 3; }
done
if [ -z "$binary" ]; then
  binary="$("$repo/scripts/build-release.sh")"
fi
[ -f "$binary" ] && [ -x "$binary" ] || { echo "package.sh: no executable at '$binary'" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"

version="$("$binary" --version | sed -n '1s/^mapsnap \([^ ]*\).*/\1/p')"
[ -n "$version" ] || { echo "package.sh: '$binary --version' did not print a version" >&2; exit 3; }
debarch="$(dpkg --print-architecture)"
arch="$(uname -m)"
stage="$(mktemp -d "${TMPDIR:-/tmp}/mapsnap-package.XXXXXX")"
trap 'rm -rf "$stage"' EXIT

# --- The Debian package (prefix /usr) -------------------------------------------------------
deb="$stage/deb"
"$repo/scripts/install.sh" --binary "$binary" --prefix /usr --destdir "$deb" --no-setup
# Debian keeps the licence as usr/share/doc/PACKAGE/copyright.
mv "$deb/usr/share/doc/mapsnap/LICENSE" "$deb/usr/share/doc/mapsnap/copyright"

# Depends: the package of every shared library the binary loads (ldd), and of the ones it
# opens on first use, which ldd cannot see (each dlopen("SONAME" in Sources/C*/shim.h:
# libcurl for HTTP sources, libmicrohttpd for serve, HarfBuzz for text), named as dpkg knows
# them here, each at least the version installed here.
libraries="$(ldd "$binary" | awk '/=> \// { print $3 } /^\t\/[^ ]+ \(/ { print $1 }')"
for soname in $(grep -ho 'dlopen("[^"]*"' "$repo"/Sources/C*/shim.h | sed 's/dlopen("\(.*\)"/\1/'); do
  path="$(ldconfig -p | awk -v so="$soname" '$1 == so && !found { print $NF; found = 1 }')"   # reads to the end: no SIGPIPE under pipefail
  [ -n "$path" ] || { echo "package.sh: $soname (opened at run time) is not installed here" >&2; exit 3; }
  libraries="$libraries"$'\n'"$path"
done
depends=()
for lib in $libraries; do
  real="$(readlink -f "$lib")"
  pkg=""
  for candidate in "$lib" "$real" "${lib/#\/lib\//\/usr\/lib\/}" "${real/#\/lib\//\/usr\/lib\/}" "${lib/#\/usr\/lib\//\/lib\/}"; do
    pkg="$(dpkg -S "$candidate" 2>/dev/null | sed -n 1p | cut -d: -f1)" && [ -n "$pkg" ] && break
  done
  if [ -z "$pkg" ]; then
    # A debug build's Swift runtime (the release build links it statically): not a Debian
    # package, so no dependency can name it; the package then works only where it is.
    echo "package.sh: warning: no Debian package owns $lib; the package needs it at that path" >&2
    continue
  fi
  upstream="$(dpkg-query -W -f='${Version}' "$pkg" | sed 's/-[^-]*$//')"   # epoch kept, Debian revision dropped
  entry="$pkg (>= $upstream)"
  case " ${depends[*]-} " in *" $pkg "*) ;; *) depends+=("$entry") ;; esac
done
depends_line="$(printf '%s\n' "${depends[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')"
installed_kb="$(du -sk "$deb" | cut -f1)"
install -d "$deb/DEBIAN"
cat > "$deb/DEBIAN/control" <<EOF
Package: mapsnap
Version: $version
Architecture: $debarch
Maintainer: mapsnap developers <mapsnap@users.noreply.github.com>
Installed-Size: $installed_kb
Depends: $depends_line
Suggests: tilemaker
Section: graphics
Priority: optional
Homepage: https://github.com/mapsnap/mapsnap
Description: static map images from one command, offline and deterministic
 mapsnap renders static map images (PNG, JPEG, WebP) from the embedded world
 data, vector or raster tiles (MBTiles, PMTiles, folders, HTTP), with routes,
 markers and labels, using the Google Static Maps syntax. It compares images,
 renders batches, serves the Static Maps API over HTTP and builds offline
 regions of your own city (data build needs tilemaker).
EOF
debfile="$out/mapsnap_${version}_${debarch}.deb"
if [ "$fast" -eq 1 ]; then compress=(-Znone); else compress=(-Zxz -z6); fi
dpkg-deb --root-owner-group "${compress[@]}" --build "$deb" "$debfile" >/dev/null
echo "package.sh: wrote $debfile" >&2

# --- The relocatable tarball (bin/ and share/ at the top) -----------------------------------
# The package's usr/ is that tree: the binary finds share/ relative to itself wherever it is.
tree="$deb/usr"
tarball="$out/mapsnap-${version}-linux-${arch}.tar.gz"
level=9
[ "$fast" -eq 1 ] && level=1
# Sorted names, fixed owner and the commit's time: the same inputs give the same archive.
mtime="$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$tree" -cf - bin share \
  | gzip -n "-$level" > "$tarball.tmp"
mv -f "$tarball.tmp" "$tarball"
echo "package.sh: wrote $tarball" >&2
printf '%s\n%s\n' "$debfile" "$tarball"
