#!/usr/bin/env bash
# The radix sort, SpMV / solvers and segmented scan on the GPU machine, in
# one call: the families whose kernels share the helpers of
# cuda/block/block_radix_rank.cuh (count_digits), radix_sort/onesweep.cuh
# (the Rank and WarpCount parameters), cuda/block/block_sum_by_key.cuh,
# cuda/support/blocked_tile.cuh and detail/sparse/spmv.hpp (csr_diagonal).
# Configures the project as scripts/device-check.sh does (one instantiation
# file per type), builds with ninja only the objects these families' tests
# and probes need and links them, then runs
#   1. the tests: sort (tests/cuda/sort_test.cpp, radix_tile_test.cu,
#      radix_all_passes_test.cu, tests/sides/sort_test.cpp, argsort_test.cpp),
#      segmented scan (tests/cuda/segmented_scan_test.cpp,
#      segmented_scan_custom_test.cu, tests/sides/segmented_scan_test.cpp),
#      SpMV and solvers (tests/cuda/spmv_test.cpp, solve_test.cpp,
#      tests/sides/spmv_test.cpp, solve_test.cpp);
#   2. under compute-sanitizer memcheck and racecheck (dc_run_tests, sizes
#      capped, 60 s each): the sort's designs (every pass sorting, the
#      resident grid), the segmented scan's custom operators, the
#      hot-columns SpMV and the solvers' row strategies;
#   3. with PROBES=1: lab/probes/probe_radix_tile.cu (production against
#      the match ranking, a Rank of production's sort, each checked against
#      CUB) and lab/probes/probe_radix_designs.cu (the digit histogram's
#      countings), 60 s each: the first sizes' checks and timings (their
#      builds take minutes more).
# Writes to $OUT: summary.txt (times, results, the probes' tables),
# build.log, tests.log, sanitize-memcheck.log, sanitize-racecheck.log.
# Usage (from the repository root): lab/probes/sort_sparse_segscan_device_check.sh
# Environment: CHECK_BUILD_DIR (default /root/build-helpers; an existing
# build directory is used as it is configured), JOBS (default nproc),
# NO_RUN=1 (build and link only), PROBES=1.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_check_lib.sh
. "$(dirname "$0")/device_check_lib.sh"
dc_cmake_init "${CHECK_BUILD_DIR:-/root/build-helpers}" || exit 1

lib_dir=src/CMakeFiles/gpuprim.dir
test_dir=tests/CMakeFiles/gpuprim_cuda_tests.dir
probe_dir=lab/probes/CMakeFiles
# The instantiation objects of the families, however many rows a file holds,
# and the scan's int32 and uint32 rows (the segmented scan tests and the
# sort ladder call them).
mapfile -t library < <(ninja -C "$B" -t targets all |
  grep -oE "^$lib_dir/instantiate/((sort|segmented_scan|spmv|solve)(_[a-z0-9_]+)?|scan(_u?int32)?)\.cu\.o" |
  sort -u)
library+=("$lib_dir/sort/argsort_batched.cu.o" "$lib_dir/sort/host_simd_sort.cpp.o"
  "$lib_dir/core/runtime_cuda.cpp.o" "$lib_dir/core/timing.cpp.o"
  "$lib_dir/core/timing_cuda.cpp.o" lab/ladder/CMakeFiles/gpuprim_lab_ladder.dir/sort_ladder.cu.o)
for file in config search cache tuner_common; do library+=("$lib_dir/tune/$file.cpp.o"); done
tests=()
for file in cuda/sort_test.cpp cuda/radix_tile_test.cu cuda/radix_all_passes_test.cu \
  sides/sort_test.cpp sides/argsort_test.cpp cuda/segmented_scan_test.cpp \
  cuda/segmented_scan_custom_test.cu sides/segmented_scan_test.cpp cuda/spmv_test.cpp \
  cuda/solve_test.cpp sides/spmv_test.cpp sides/solve_test.cpp; do
  tests+=("$test_dir/$file.o")
done
probes=()
[ "${PROBES:-0}" = 1 ] && probes=(
  "$probe_dir/gpuprim_lab_probe_radix_tile.dir/probe_radix_tile.cu.o"
  "$probe_dir/gpuprim_lab_probe_radix_designs.dir/probe_radix_designs.cu.o")

stamp "build: $((${#library[@]} + ${#tests[@]} + ${#probes[@]})) objects, -j $JOBS"
ninja -C "$B" -j "$JOBS" "${library[@]}" "${tests[@]}" "${probes[@]}" >>"$OUT/build.log" 2>&1
stamp "objects rc=$?"
dc_cmake_link check_tests --gtest "${tests[@]}" "${library[@]}"
for probe in "${probes[@]}"; do
  dc_cmake_link "$(basename "$probe" .cu.o)" "$probe" "${library[@]}"
done
grep -E "error|FAILED|undefined reference" "$OUT/build.log" | head -40 >>"$summary"
[ "${NO_RUN:-0}" = 1 ] && exit 0

filter='*radix_sort_design_that_sorts_every_pass*:*radix_sort_passes_on_a_resident_grid*'
filter+=':*segmented_scan_non_commutative*:*spmv_hot_columns_unaligned_arrays*'
filter+=':*solve_row_strategies_float_int32*'
SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-60} dc_run_tests "$B/check_tests" 120 "$filter"
for probe in probe_radix_tile probe_radix_designs; do
  [ -x "$B/$probe" ] || continue
  stamp "$probe:"
  timeout 60 "$B/$probe" >>"$summary" 2>&1
  stamp "$probe rc=$?"
done
dc_finish
