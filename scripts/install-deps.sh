#!/usr/bin/env bash
# Debian packages gpuprim builds with (the CUDA toolkit itself is expected
# under /usr/local/cuda; without it only the CPU backend is built).
set -euo pipefail
packages=(cmake ninja-build g++ ccache libgtest-dev libbenchmark-dev libcli11-dev
  nlohmann-json3-dev libpng-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
