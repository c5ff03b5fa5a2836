#!/usr/bin/env bash
# Installs mapsnap: the release build of the command and the resources it reads.
#
#   scripts/install.sh [--prefix DIR] [--destdir DIR] [--binary PATH] [--no-setup]
#
#   PREFIX/bin/mapsnap                                   the command
#   PREFIX/share/mapsnap/{Styles,Fonts,Data}/            its styles, fonts and data (with their
#                                                        licences and attribution), and BUILD
#                                                        (the commit installed, for --version)
#   PREFIX/share/doc/mapsnap/{LICENSE,README.md}         mapsnap's licence and the notices of the
#                                                        libraries the release binary contains
#   PREFIX/share/man/man1/mapsnap.1.gz                   the man page (from the --help texts)
#   PREFIX/share/bash-completion/completions/mapsnap     shell completions
#   PREFIX/share/zsh/vendor-completions/_mapsnap
#   PREFIX/share/fish/vendor_completions.d/mapsnap.fish
#
# The command finds its resources relative to itself (PREFIX/bin/../share/mapsnap), so the
# prefix can be anywhere and moved later; the checkout is not needed after installing.
#
# --prefix DIR   where to install (default /usr/local); needs write access there (sudo).
# --destdir DIR  stage the files under DIR as if DIR were the root (DIR/PREFIX/…), for
#                packaging: nothing outside DIR is written.
# --binary PATH  install this already built mapsnap instead of building the release
#                (scripts/build-release.sh, ~4 min); the tests install the debug build so.
# --no-setup     do not run scripts/setup.sh (which apt-get installs missing build packages)
#                before building; implied by --binary.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/usr/local
destdir=""
binary=""
setup=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
    --prefix=*) prefix="${1#*=}"; shift ;;
    --destdir) destdir="${2:?--destdir needs a directory}"; shift 2 ;;
    --destdir=*) destdir="${1#*=}"; shift ;;
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    --binary=*) binary="${1#*=}"; shift ;;
    --no-setup) setup=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$1' (see scripts/install.sh --help)" >&2; exit 2 ;;
  esac
done
case "$prefix" in
  /*) ;;
  *) echo "install.sh: --prefix must be an absolute path, not '$prefix'" >&2; exit 2 ;;
esac
prefix="${prefix%/}"   # "/" → "": a tarball's root
if [ -n "$destdir" ]; then
  mkdir -p "$destdir"
  destdir="$(cd "$destdir" && pwd)"
fi

if [ -z "$binary" ]; then
  [ "$setup" -eq 1 ] && "$repo/scripts/setup.sh"
  binary="$("$repo/scripts/build-release.sh")"
fi
[ -f "$binary" ] && [ -x "$binary" ] || { echo "install.sh: no executable at '$binary'" >&2; exit 2; }

root="$destdir$prefix"
share="$root/share/mapsnap"
echo "install.sh: installing $binary into ${destdir:+$destdir (staged) }${prefix:-/}" >&2
install -d "$root/bin" "$share" "$root/share/doc/mapsnap" "$root/share/man/man1" \
  "$root/share/bash-completion/completions" "$root/share/zsh/vendor-completions" "$root/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/bin/mapsnap.new"
mv -f "$root/bin/mapsnap.new" "$root/bin/mapsnap"

# The resource folders as the repository has them (git's list when this is a checkout, so
# build outputs and scratch files stay behind), replacing what an older install left.
for folder in Styles Fonts Data; do
  rm -rf "$share/$folder"
  if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$repo" && git ls-files -z -- "$folder" | xargs -0 -I{} install -D -m 0644 {} "$share/{}")
  else
    cp -R "$repo/$folder" "$share/$folder"
    chmod -R u=rwX,go=rX "$share/$folder"
  fi
done
install -m 0644 "$repo/LICENSE" "$repo/README.md" "$root/share/doc/mapsnap/"

# What --version reports as the commit: the checkout's, marked -dirty when tracked files
# differ from it (the binary given with --binary is taken to be built from this checkout).
{
  echo "version $("$root/bin/mapsnap" --version | sed -n '1s/^mapsnap \([^ ]*\).*/\1/p')"
  if commit="$(git -C "$repo" rev-parse HEAD 2>/dev/null)"; then
    git -C "$repo" diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
    echo "commit $commit"
  fi
} > "$share/BUILD"
chmod 0644 "$share/BUILD"

# The man page and completions come from the installed command itself (its --help texts,
# option tables and styles): they cannot disagree with it. The page's date is the commit's.
date="$(git -C "$repo" log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)"
"$root/bin/mapsnap" manpage --date "$date" | gzip -9n > "$root/share/man/man1/mapsnap.1.gz"
"$root/bin/mapsnap" completions bash > "$root/share/bash-completion/completions/mapsnap"
"$root/bin/mapsnap" completions zsh > "$root/share/zsh/vendor-completions/_mapsnap"
"$root/bin/mapsnap" completions fish > "$root/share/fish/vendor_completions.d/mapsnap.fish"
chmod 0644 "$root/share/man/man1/mapsnap.1.gz" "$root/share/bash-completion/completions/mapsnap" \
  "$root/share/zsh/vendor-completions/_mapsnap" "$root/share/fish/vendor_completions.d/mapsnap.fish"
echo "install.sh: done; run ${prefix:-}/bin/mapsnap --version" >&2
