#!/usr/bin/env bash
# Builds gpuprim in both configurations and runs every test: the CPU-only
# preset and the readers' fuzz targets (scripts/fuzz.sh), then the CUDA
# preset (when nvcc is present), then an installed copy used from a
# separate project through find_package, then the Python package
# (CPU-only) in a fresh virtual environment with its pytest suite. GPU
# tests skip (never pass) on a machine without a CUDA device.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export PATH=/usr/local/cuda/bin:$PATH
# Tests run side by side: most are short processes that wait on their own
# start-up more than on a core (GPUPRIM_TEST_JOBS overrides).
jobs="${GPUPRIM_TEST_JOBS:-$(($(nproc) * 2))}"

cmake --preset cpu
cmake --build --preset cpu
ctest --preset cpu -j "$jobs"
# The file readers under libFuzzer, 30 s a target (GPUPRIM_FUZZ_SECONDS),
# when clang can build them (install-deps.sh installs it); a crash fails.
scripts/fuzz.sh --seconds "${GPUPRIM_FUZZ_SECONDS:-30}" --if-available

if command -v nvcc >/dev/null; then
  cmake --preset cuda
  cmake --build --preset cuda
  if nvidia-smi -L >/dev/null 2>&1; then
    ctest --preset cuda -j "$jobs"
  else
    # No GPU: the GPU tests skip, and the host suite is the CPU preset's
    # code, run above; the rest shows how the CUDA build behaves without a
    # device (the CLI, the distributed part, the scripts).
    ctest --preset cuda -j "$jobs" -LE '^host$'
  fi
  prefix=build/cuda
else
  echo "nvcc not found: CUDA preset skipped"
  prefix=build/cpu
fi

rm -rf build/install build/consumer
cmake --install "$prefix" --prefix build/install
cmake -S examples/consumer -B build/consumer -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install"
cmake --build build/consumer
build/consumer/consumer

# The Python package, CPU backend only, into a fresh virtual environment.
# Its build folder (build/python/<wheel tag>) persists, so a rerun compiles
# only what changed; the build requirements are installed in the venv and
# used from there (no build isolation, whose temporary paths would make
# every build reconfigure).
scripts/test-python.sh
