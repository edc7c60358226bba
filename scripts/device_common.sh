# Functions of the device scripts (scripts/device-check.sh,
# scripts/device-check-dist.sh), sourced by them.
# shellcheck shell=bash

# Results go to $OUT; summary.txt begins with the date, the GPUs and the
# tools' versions, and `note` adds a line to it (and prints it).
device_init() {
  OUT=${OUT:-$PWD/out}
  mkdir -p "$OUT"
  summary="$OUT/summary.txt"
  : >"$summary"
  {
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    "$@"
  } >>"$summary" 2>&1
  export PATH=/usr/local/cuda/bin:$PATH
}

note() { echo "$*" | tee -a "$summary"; }

# device_configure BUILD [CMAKE_ARG...]: the Release build with one
# instantiation row per file, configured (log: build-tests.log).
device_configure() {
  local build=$1
  shift
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" -DGPUPRIM_INSTANTIATION_ROWS_PER_FILE=1 "$@" \
    >"$OUT/build-tests.log" 2>&1
}

# device_ctest BUILD WHAT CTEST_ARG...: runs ctest in BUILD, notes "WHAT:
# rc=..." with ctest's count, lists what failed in the summary and keeps
# the whole log in build-tests.log.
device_ctest() {
  local build=$1 what=$2
  shift 2
  (cd "$build" && ctest --output-on-failure "$@") >"$OUT/ctest.tmp" 2>&1
  note "$what: rc=$? $(grep -E 'tests passed|tests failed' "$OUT/ctest.tmp" | tail -1)"
  grep -E '(Failed|Not Run|Timeout)' "$OUT/ctest.tmp" | head -20 | tee -a "$summary"
}

# After device_ctest and anything else read from ctest.tmp.
device_ctest_done() {
  cat "$OUT/ctest.tmp" >>"$OUT/build-tests.log" && rm "$OUT/ctest.tmp"
}
