#!/usr/bin/env bash
# The selection family alone on the GPU machine, in one call of under 4
# minutes: builds only what it needs with nvcc and g++ (the runtime, the
# select instantiations for every precompiled type, the select GPU tests, and
# gpuprim-bench holding the select family alone: the other families'
# planners are empty stand-ins), then
#  1. the select GPU tests ($OUT/tests.log),
#  2. `gpuprim-bench select --backend cuda` (its Markdown table in
#     $OUT/bench-select.md, progress in $OUT/bench-select.txt),
#  3. the same tests under compute-sanitizer memcheck, sizes capped, the
#     2^31 cases left out ($OUT/memcheck-gpu.log, memcheck-shared.log), in
#     the time left.
# A summary goes to $OUT/summary.txt, the build's messages to $OUT/build.log.
# Usage (from the repository root): lab/probes/select_device_check.sh
# (SELECT_BUILD_DIR: the build directory, /root/build-sel by default; a
# rerun rebuilds only what changed. SELECT_DEADLINE: seconds from the start
# by which the memcheck run must end, 230 by default.)
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_check_lib.sh
. "$(dirname "$0")/device_check_lib.sh"
dc_init "${SELECT_BUILD_DIR:-/root/build-sel}"
deadline=${SELECT_DEADLINE:-230}

# One instantiation file per row of GPUPRIM_SELECT_TYPES.
dc_instantiations select "uint8 std::uint8_t" "int32 std::int32_t" "uint32 std::uint32_t" \
  "int64 std::int64_t" "uint64 std::uint64_t" "float float" "double double"
# gpuprim-bench's families other than select, empty.
{
  echo '// gpuprim-bench with the select family alone (lab/probes/select_device_check.sh).'
  echo '#include "lab/bench/plan.hpp"'
  echo 'namespace gpuprim::bench {'
  for f in reduce scan segmented_reduce histogram sort sorting_network transpose gemm convolve \
    spmv solve closest_pair order; do
    echo "planners ${f}_planners() { return {}; }"
  done
  echo '}'
} >"$B/gen/bench_other_families.cpp.new"
dc_keep_unchanged

lib_src=("${dc_core_sources[@]}" "$B"/gen/select_*.cu)
tests_src=(tests/sides/select_test.cpp tests/cuda/select_test.cpp tests/cuda/select_custom_test.cu
  tests/cuda/select_ladder_test.cpp lab/ladder/select_ladder.cu)
bench_src=(lab/bench/main.cpp lab/bench/run.cpp lab/bench/report.cpp lab/bench/roofline.cpp
  lab/bench/system_info.cpp lab/bench/select_bench.cpp lab/bench/anchors_cub_select.cu
  lab/bench/anchors_cub_storage.cu "$B/gen/bench_other_families.cpp")
dc_compile_all "${lib_src[@]}" "${tests_src[@]}" "${bench_src[@]}" || exit 1
dc_link_tests select_tests "${tests_src[@]}" "${lib_src[@]}"
dc_link gpuprim-bench "gpuprim-bench (select)" "${bench_src[@]}" lab/ladder/select_ladder.cu \
  "${lib_src[@]}"
stamp "linked"

# 1. The tests.
if [ -x "$B/select_tests" ]; then
  timeout 150 "$B/select_tests" >"$OUT/tests.log" 2>&1
  stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|tests ran|SKIPPED' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED" "$OUT/tests.log" >>"$summary"
fi

# 2. The bench.
if [ -x "$B/gpuprim-bench" ]; then
  timeout 120 "$B/gpuprim-bench" select --backend cuda --markdown "$OUT/bench-select.md" \
    >"$OUT/bench-select.txt" 2>&1
  stamp "bench rc=$?"
  grep -E '^\| gpuprim' "$OUT/bench-select.md" |
    awk -F'|' '{ printf "  %-32s %-6s vendor/gpuprim %s\n", $3, $5, $12 }' >>"$summary"
fi

# 3. memcheck in the time left: the GPU backend's own cases (tiles, runs
# across them) first, then the shared ones.
memcheck() {
  local name=$1 filter=$2 left=$((deadline - ($(date +%s) - dc_start)))
  if [ ! -x "$B/select_tests" ] || [ "$left" -le 20 ]; then
    stamp "memcheck $name not run: ${left} s left"
    return
  fi
  GPUPRIM_TEST_MAX_SIZE=${SANITIZE_MAX_SIZE:-70000} timeout "$left" \
    compute-sanitizer --tool memcheck --error-exitcode 9 "$B/select_tests" \
    --gtest_filter="$filter" >"$OUT/memcheck-$name.log" 2>&1
  stamp "memcheck $name rc=$? (124: cut at the deadline) $(grep -E 'ERROR SUMMARY|^\[  (PASSED|FAILED)' "$OUT/memcheck-$name.log" | tr '\n' ' ')"
}
memcheck gpu 'cuda_test.select_*-*two_to_the_31*'
memcheck shared '*-cuda_test.select_*:*two_to_the_31*'
dc_finish
