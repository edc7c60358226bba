#!/usr/bin/env bash
# Configures SOURCE (Release, CUDA through nvcc) into BUILD and builds the
# `gpuprim` command there, every core, the output in LOG; for the device
# scripts that need only the CLI (bench-before-after.sh, ncu-rows.sh). A
# build already up to date costs a configure check.
# Usage: scripts/build-cli.sh SOURCE BUILD LOG
set -uo pipefail
source_dir=${1:?usage: $0 SOURCE BUILD LOG}
build_dir=${2:?usage: $0 SOURCE BUILD LOG}
log=${3:?usage: $0 SOURCE BUILD LOG}
export PATH=/usr/local/cuda/bin:$PATH
cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" >"$log" 2>&1 &&
  cmake --build "$build_dir" -j "$(nproc)" --target gpuprim-cli >>"$log" 2>&1
