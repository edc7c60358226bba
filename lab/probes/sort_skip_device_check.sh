#!/usr/bin/env bash
# The GPU radix sort's "skip constant digits" design on the GPU machine, in
# one call. Configures the project as scripts/device-check.sh does (one
# instantiation file per type), builds with ninja only the objects the sort
# needs (the runtime and tuner, the sort instantiations of every key type,
# the scan's uint32 row for the sort ladder's split rung, the sort ladder,
# the sort tests, the probe) and links two programs from them, then runs
#   1. the sort GPU tests (tests/cuda/sort_test.cpp, tests/sides/sort_test.cpp,
#      tests/sides/argsort_test.cpp, tests/cuda/sort_ladder_test.cpp,
#      tests/cuda/radix_tile_test.cu, tests/cuda/radix_all_passes_test.cu);
#   2. the tests of skipped passes, graph capture, the cut-overs, the
#      design that sorts every pass and the resident grid under
#      compute-sanitizer memcheck (sizes capped at 140000, so the one-block
#      sort, tiles of 8 keys a thread and the default tiles all run);
#   3. lab/probes/probe_radix_designs.cu: a skipped pass's cost, then
#      every pass sorting against constant digits skipped (one block a
#      tile, and on a resident grid) against CUB, per distribution.
# Writes 4 files to $OUT: summary.txt (times, results, the probe's table),
# build.log, tests.log, memcheck.log.
# Usage (from the repository root): lab/probes/sort_skip_device_check.sh
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_check_lib.sh
. "$(dirname "$0")/device_check_lib.sh"
dc_cmake_init "${SORT_BUILD_DIR:-/root/build-sortskip}" || exit 1

lib_dir=src/CMakeFiles/gpuprim.dir
test_dir=tests/CMakeFiles/gpuprim_cuda_tests.dir
library=()
for type in int8 uint8 int16 uint16 int32 uint32 int64 uint64 float double; do
  library+=("$lib_dir/instantiate/sort_$type.cu.o")
done
library+=("$lib_dir/instantiate/scan_uint32.cu.o" "$lib_dir/sort/argsort_batched.cu.o"
  "$lib_dir/sort/host_simd_sort.cpp.o" "$lib_dir/core/runtime_cuda.cpp.o"
  "$lib_dir/core/timing.cpp.o" "$lib_dir/core/timing_cuda.cpp.o"
  lab/ladder/CMakeFiles/gpuprim_lab_ladder.dir/sort_ladder.cu.o)
for file in config search cache tuner_common; do library+=("$lib_dir/tune/$file.cpp.o"); done
tests=("$test_dir/cuda/sort_test.cpp.o" "$test_dir/sides/sort_test.cpp.o"
  "$test_dir/sides/argsort_test.cpp.o" "$test_dir/cuda/sort_ladder_test.cpp.o"
  "$test_dir/cuda/radix_tile_test.cu.o" "$test_dir/cuda/radix_all_passes_test.cu.o")
probe=lab/probes/CMakeFiles/gpuprim_lab_probe_radix_designs.dir/probe_radix_designs.cu.o

stamp "build: $((${#library[@]} + ${#tests[@]} + 1)) objects, -j $JOBS"
ninja -C "$B" -j "$JOBS" "${library[@]}" "${tests[@]}" "$probe" >>"$OUT/build.log" 2>&1
stamp "objects rc=$?"
dc_cmake_link sort_tests --gtest "${tests[@]}" "${library[@]}"
dc_cmake_link probe_radix_designs "$probe" "${library[@]}"
grep -E "error|FAILED" "$OUT/build.log" | head -40 >>"$summary"

if [ -x "$B/sort_tests" ]; then
  timeout 150 "$B/sort_tests" >"$OUT/tests.log" 2>&1
  stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|tests ran' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED|^\[  SKIPPED" "$OUT/tests.log" >>"$summary"
  filter='*distributions_whose_constant_digits*:*captured_in_a_graph_each_replay*:*narrow_keys_back_to_back*'
  filter+=':*sizes_around_the_cut_overs*:*radix_sort_design_that_sorts_every_pass*'
  filter+=':*radix_sort_passes_on_a_resident_grid*'
  GPUPRIM_TEST_MAX_SIZE=${SANITIZE_MAX_SIZE:-140000} timeout "${SANITIZE_TIMEOUT:-80}" \
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/sort_tests" --gtest_filter="$filter" \
    >"$OUT/memcheck.log" 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED)' "$OUT/memcheck.log" | tr '\n' ' ')"
fi
if [ -x "$B/probe_radix_designs" ]; then
  stamp "probe_radix_designs:"
  timeout 150 "$B/probe_radix_designs" >>"$summary" 2>&1
  stamp "probe rc=$?"
fi
dc_finish
