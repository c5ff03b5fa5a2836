#!/usr/bin/env bash
# Installs the Debian packages mapsnap builds against, and the tools its commands run
# (tilemaker, for `mapsnap data build` and its tests), when missing. Idempotent; needs root
# (or sudo) only when something is missing.
set -euo pipefail
packages=(pkg-config libpng-dev libfreetype-dev zlib1g-dev libsqlite3-dev libturbojpeg0-dev libdeflate-dev libisal-dev libexpat1-dev libcurl4-openssl-dev libwebp-dev libmicrohttpd-dev libharfbuzz-dev libfribidi-dev)
# Programs mapsnap runs, not builds against.
tools=(tilemaker libharfbuzz-bin)
missing=()
for p in "${packages[@]}" "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: the Swift toolchain (swift) is not on PATH" >&2; exit 1; }
