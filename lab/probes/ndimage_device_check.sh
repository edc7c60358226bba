#!/usr/bin/env bash
# The N-D filters on the GPU (issue 46, ndimage on CUDA arrays) in one call
# on the GPU machine:
#  1. C++: builds only what the tests need with nvcc and g++ (the runtime,
#     the convolve_nd instantiations, tests/cuda/convolve_nd_test.cpp),
#     runs the tests (the CUDA backend against the host, bit for bit), then
#     the in-place, large-filter and bad-argument cases under
#     compute-sanitizer memcheck and racecheck.
#  2. Python: builds the extension (_core, which needs the whole library)
#     with CMake, stages it beside python/gpuprim and runs
#     test_ndimage_gpu.py and test_ndimage.py on CuPy, PyTorch and CPU
#     tensors, then lab/probes/ndimage_gpu_timing.py (the exact N-D path
#     against the 2-D kernels on 2048^2 images), then SciPy's own
#     test_filters.py on CuPy arrays (the peer suite's device mode).
# Writes summary.txt, build.log, tests.log, pytest.log, timing.txt,
# peers.log and the sanitizer logs to $OUT.
# Usage (from the repository root): lab/probes/ndimage_device_check.sh
# Environment: ND_BUILD_DIR (default /root/build-nd); PY_BUILD_DIR (a build
# directory configured with -DGPUPRIM_BUILD_PYTHON=ON: default build/device
# when scripts/device-check.sh made one with Python on this machine, so only
# what changed is rebuilt, else $ND_BUILD_DIR/py, a cold build of the whole
# library: 3-4 minutes on 16 cores); PY_BUILD_TIMEOUT (default 420 s);
# SKIP_PYTHON=1; PEERS=0 (no peer suite); JOBS. The C++ part takes about a
# minute, the Python tests, timing and peer suite two to three.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_check_lib.sh
. "$(dirname "$0")/device_check_lib.sh"
dc_init "${ND_BUILD_DIR:-/root/build-nd}"
git log -1 --format='commit %h' >>"$summary" 2>&1

# 1. One instantiation file per row of GPUPRIM_CONVOLVE_ND_TYPES, as CMake
# writes them.
for row in "boolean bool" "int8 std::int8_t" "uint8 std::uint8_t" "int16 std::int16_t" \
  "uint16 std::uint16_t" "int32 std::int32_t" "uint32 std::uint32_t" "int64 std::int64_t" \
  "uint64 std::uint64_t" "float32 float" "float64 double"; do
  read -r name type <<<"$row"
  printf '#define GPUPRIM_INSTANTIATING 1\n#include "%s/src/convolve/instantiate.cuh"\nnamespace gpuprim::detail {\ntemplate struct instantiation<type_list<convolve_nd_instance<%s>>>;\n}\n' \
    "$PWD" "$type" >"$B/gen/convolve_nd_$name.cu.new"
done
dc_keep_unchanged
lib_src=("${dc_core_sources[@]}" "$B"/gen/convolve_nd_*.cu)
tests_src=(tests/cuda/convolve_nd_test.cpp)
if dc_compile_all "${lib_src[@]}" "${tests_src[@]}"; then
  dc_link_tests convolve_nd_tests "${tests_src[@]}" "${lib_src[@]}"
  stamp "linked"
  SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-60} dc_run_tests "$B/convolve_nd_tests" 120 \
    '*in_place*:*refuses*'
fi

# 2. The Python package.
if [ "${SKIP_PYTHON:-0}" != 1 ]; then
  P=${PY_BUILD_DIR:-$B/py}
  if [ -z "${PY_BUILD_DIR:-}" ] && grep -qs 'GPUPRIM_BUILD_PYTHON:BOOL=ON' build/device/CMakeCache.txt; then
    P=build/device
  fi
  stamp "python build directory: $P"
  if [ ! -f "$P/CMakeCache.txt" ]; then
    cmake -S . -B "$P" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" \
      -DGPUPRIM_INSTANTIATION_ROWS_PER_FILE=1 -DGPUPRIM_BUILD_PYTHON=ON -DGPUPRIM_ENABLE_DIST=OFF \
      -DGPUPRIM_BUILD_TESTS=OFF -DGPUPRIM_BUILD_APPS=OFF -DGPUPRIM_BUILD_BENCH=OFF >>"$OUT/build.log" 2>&1
    stamp "configure rc=$?"
  fi
  timeout "${PY_BUILD_TIMEOUT:-420}" cmake --build "$P" -j "$JOBS" --target _core -- -k 0 \
    >>"$OUT/build.log" 2>&1
  rc=$?
  stamp "python build rc=$rc"
  [ $rc -eq 0 ] || grep -E 'error|FAILED' "$OUT/build.log" | head -30 >>"$summary"
  stage="$B/pystage"
  if ls "$P"/python/_core*.so >/dev/null 2>&1; then
    rm -rf "$stage" && mkdir -p "$stage" && cp -r python/gpuprim "$stage/" &&
      cp "$P"/python/_core*.so "$stage/gpuprim/"
    XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONPATH="$stage" timeout 150 python3 -m pytest -q -rs \
      -p no:cacheprovider python/tests/test_ndimage_gpu.py python/tests/test_ndimage.py \
      >"$OUT/pytest.log" 2>&1
    stamp "pytest rc=$? $(tail -1 "$OUT/pytest.log")"
    grep -E '^(FAILED|ERROR)' "$OUT/pytest.log" | head -20 >>"$summary"
    PYTHONPATH="$stage" timeout 60 python3 lab/probes/ndimage_gpu_timing.py >"$OUT/timing.txt" 2>&1
    stamp "timing rc=$?"
    cat "$OUT/timing.txt" >>"$summary"
    if [ "${PEERS:-1}" = 1 ]; then
      # SciPy's test_filters.py on CuPy arrays, every call compared with
      # SciPy bit for bit (python/tests/peers/_peer.py's device mode).
      GPUPRIM_PEER_ARRAYS=cupy PYTHONPATH="$PWD/python/tests/peers:$stage" timeout 150 \
        python3 -m pytest -q -p no:cacheprovider python/tests/peers/scipy_ndimage_filters.py \
        >"$OUT/peers.log" 2>&1
      stamp "ndimage peer suite on CuPy rc=$? $(tail -1 "$OUT/peers.log")"
      grep -E '^(FAILED|ERROR)' "$OUT/peers.log" | head -20 >>"$summary"
    fi
  fi
fi
dc_finish
stamp "done"
