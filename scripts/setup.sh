#!/usr/bin/env bash
# Installs everything modprec's main job and tests need on a fresh Debian/Ubuntu machine:
#  - system packages: Mesa's EGL/OpenGL (so Dawn's WebGPU runs on llvmpipe when there is no GPU) and Chromium
#    (the study report's browser test); installed only when missing, only as root with apt-get;
#  - the npm dependencies, exactly as locked (npm ci).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
packages=(libegl1 libegl-dev libegl-mesa0 libgl1-mesa-dri chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing ${missing[*]} ..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing system packages: ${missing[*]} (install them as root; GPU tests and the report test need them)" >&2
  fi
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
