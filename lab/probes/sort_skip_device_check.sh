#!/usr/bin/env bash
# The GPU radix sort's "skip constant digits" design on the GPU machine, in
# one call: builds only what it needs with nvcc (the runtime and tuner,
# the sort instantiations for every precompiled key type, the scan's
# uint32 row for the sort ladder's split rung, the sort ladder, the sort
# tests, the probe) instead of the whole library, then runs
#   1. the sort GPU tests (tests/cuda/sort_test.cpp, tests/sides/sort_test.cpp,
#      tests/sides/argsort_test.cpp, tests/cuda/sort_ladder_test.cpp,
#      tests/cuda/radix_tile_test.cu);
#   2. the tests of the skipped passes and of the cut-overs under
#      compute-sanitizer memcheck (sizes capped at 140000: the one-block
#      sort, tiles of 8 keys a thread and the default tiles all run);
#   3. lab/probes/probe_radix_designs.cu: every pass sorting against
#      constant digits skipped against CUB, per distribution.
# Writes 4 files to $OUT: summary.txt (times, results, the probe's table),
# build.log, tests.log, memcheck.log.
# Usage (from the repository root): lab/probes/sort_skip_device_check.sh
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${SORT_BUILD_DIR:-/root/build-sortskip}
mkdir -p "$B/gen"
JOBS=${JOBS:-16}
GTEST_LIBS=()
NVCC=(nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr
  -DGPUPRIM_HAS_CUDA=1 -Iinclude -Isrc -Itests -I. -Xcompiler=-fopenmp -w)
CXX=(g++ -std=c++20 -O2 -fopenmp -DGPUPRIM_HAS_CUDA=1 -Iinclude -Isrc -Itests -I.
  -I/usr/local/cuda/include -w)
# GoogleTest carried beside the tree (.gtest/) when the machine has none.
if [ ! -d /usr/include/gtest ] && [ -d .gtest ]; then
  NVCC+=(-isystem .gtest/include)
  CXX+=(-isystem .gtest/include)
  GTEST_LIBS=(-L.gtest/lib)
fi
summary="$OUT/summary.txt"
: >"$summary"
start=$(date +%s)
stamp() { echo "[$(($(date +%s) - start)) s] $*" | tee -a "$summary"; }

# One instantiation file per row of GPUPRIM_SORT_TYPES, as CMake writes them
# (cmake/GpuprimInstantiate.cmake), and the scan's uint32 row.
for row in "int8 std::int8_t" "uint8 std::uint8_t" "int16 std::int16_t" \
  "uint16 std::uint16_t" "int32 std::int32_t" "uint32 std::uint32_t" "int64 std::int64_t" \
  "uint64 std::uint64_t" "float float" "double double"; do
  set -- $row
  printf '#define GPUPRIM_INSTANTIATING 1\n#include "sort/instantiate.cuh"\nnamespace gpuprim::detail {\ntemplate struct instantiation<type_list<radix_sort_instance<%s>>>;\n}\n' \
    "$2" >"$B/gen/sort_$1.cu"
done
printf '#define GPUPRIM_INSTANTIATING 1\n#include "scan/instantiate.cuh"\nnamespace gpuprim::detail {\ntemplate struct instantiation<scan_instances_of<std::uint32_t>>;\n}\n' \
  >"$B/gen/scan_uint32.cu"
runtime=(src/core/runtime_cuda.cpp src/core/timing.cpp src/core/timing_cuda.cpp
  src/tune/config.cpp src/tune/search.cpp src/tune/cache.cpp src/tune/tuner_common.cpp
  src/sort/host_simd_sort.cpp src/sort/argsort_batched.cu lab/ladder/sort_ladder.cu)
tests_src=(tests/cuda/sort_test.cpp tests/sides/sort_test.cpp tests/sides/argsort_test.cpp
  tests/cuda/sort_ladder_test.cpp tests/cuda/radix_tile_test.cu)
probe=lab/probes/probe_radix_designs.cu
# The slowest first, so that they start first.
sources=("$B"/gen/sort_uint64.cu "$B"/gen/sort_int64.cu "$B"/gen/sort_double.cu
  tests/cuda/radix_tile_test.cu "$probe" "$B"/gen/sort_uint32.cu "$B"/gen/sort_int32.cu
  "$B"/gen/sort_float.cu "$B"/gen/sort_int16.cu "$B"/gen/sort_uint16.cu "$B"/gen/sort_int8.cu
  "$B"/gen/sort_uint8.cu "$B"/gen/scan_uint32.cu src/sort/argsort_batched.cu
  lab/ladder/sort_ladder.cu tests/cuda/sort_test.cpp tests/sides/sort_test.cpp
  tests/sides/argsort_test.cpp tests/cuda/sort_ladder_test.cpp src/core/runtime_cuda.cpp
  src/core/timing.cpp src/core/timing_cuda.cpp src/tune/config.cpp src/tune/search.cpp
  src/tune/cache.cpp src/tune/tuner_common.cpp src/sort/host_simd_sort.cpp)
obj() { case "$1" in /*) echo "$1.o" ;; *) echo "$B/$(echo "$1" | tr '/' '_').o" ;; esac; }
compile() {
  local src=$1 obj
  obj=$(obj "$1")
  local flags=("${NVCC[@]}")
  # Plain C++ as CMake compiles it (the facade's precompiled checks apply).
  case "$src" in
    *.cpp) flags=("${CXX[@]}") ;;
  esac
  case "$src" in
    tests/sides/*) flags+=(-DGPUPRIM_TEST_ON_CUDA=1) ;;
    "$probe") flags+=(-lineinfo) ;;
  esac
  "${flags[@]}" -c "$src" -o "$obj" >"$obj.log" 2>&1 || { echo "FAILED $src"; cat "$obj.log"; return 1; }
}
stamp "build: ${#sources[@]} files, -j $JOBS"
failed=0
pids=()
for s in "${sources[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
  compile "$s" >>"$OUT/build.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
stamp "compiled (failed=$failed)"
[ "$failed" = 0 ] || { grep -A30 "^FAILED" "$OUT/build.log" | head -80 >>"$summary"; }
lib=("$B"/gen/sort_*.cu.o "$B"/gen/scan_uint32.cu.o)
for s in "${runtime[@]}"; do lib+=("$(obj "$s")"); done
test_objs=()
for t in "${tests_src[@]}"; do test_objs+=("$(obj "$t")"); done
nvcc -arch=sm_90 -Xcompiler=-fopenmp -o "$B/sort_tests" "${test_objs[@]}" "${lib[@]}" \
  "${GTEST_LIBS[@]}" -lgtest_main -lgtest >>"$OUT/build.log" 2>&1 ||
  { stamp "link of the tests failed"; tail -30 "$OUT/build.log" >>"$summary"; }
nvcc -arch=sm_90 -Xcompiler=-fopenmp -o "$B/probe_radix_designs" "$(obj "$probe")" "${lib[@]}" \
  >>"$OUT/build.log" 2>&1 || { stamp "link of the probe failed"; tail -30 "$OUT/build.log" >>"$summary"; }
stamp "linked"

if [ -x "$B/sort_tests" ]; then
  timeout 150 "$B/sort_tests" >"$OUT/tests.log" 2>&1
  stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|tests ran' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED|^\[  SKIPPED" "$OUT/tests.log" >>"$summary"
  GPUPRIM_TEST_MAX_SIZE=${SANITIZE_MAX_SIZE:-140000} timeout ${SANITIZE_TIMEOUT:-100} \
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/sort_tests" \
    --gtest_filter='*distributions_whose_constant_digits*:*captured_in_a_graph*:*narrow_keys_back_to_back*:*sizes_around_the_cut_overs*:*sort_ladder_every_rung_sorts_a_subspan*' \
    >"$OUT/memcheck.log" 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED)' "$OUT/memcheck.log" | tr '\n' ' ')"
fi
if [ -x "$B/probe_radix_designs" ]; then
  stamp "probe: probe_radix_designs"
  timeout 150 "$B/probe_radix_designs" >>"$summary" 2>&1
  stamp "probe rc=$?"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >>"$summary" 2>&1
nvcc --version | tail -2 >>"$summary"
