#!/usr/bin/env bash
# The order family (search, merge, merge sort, top-k) alone on the GPU
# machine, in one call of under 4 minutes: builds only what it needs with
# nvcc (the runtime, the order instantiations of every precompiled type,
# the order, top-k and ladder tests, the top-k ladder and gpuprim-bench with
# the order family alone) instead of the whole library, then runs
#  1. the GPU tests (the 2^31 cases and the 2^27 + 5 top-k with ties
#     included);
#  2. the tests of the kernels changed since the last memcheck (the top-k
#     pre-filter, the search's shared-memory tree) under compute-sanitizer
#     memcheck, sizes capped;
#  3. `gpuprim-bench order` (Markdown and JSON; about 75 s at 2^28, most of
#     it the two merge sorts of records), whose every check must say ok; with
#     LADDER=1 also `gpuprim-bench order --ladder` (about 30 s more).
# Logs and results go to $OUT; $OUT/summary.txt has one line a step.
# Usage (from the repository root): lab/probes/order_device_check.sh
# Environment: JOBS (default 16), ORDER_BUILD_DIR (default /root/build-ord),
# LADDER=1, RACECHECK=1 (racecheck too), PROBE=1 (also the standalone probe
# lab/probes/probe_order.cu), NO_BENCH=1, BUILD_ONLY=1 (compile and link,
# run nothing), BENCH_ARGS (e.g. --quick), TEST_FILTER (a gtest filter).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_check_lib.sh
. "$(dirname "$0")/device_check_lib.sh"
dc_init "${ORDER_BUILD_DIR:-/root/build-ord}" -Ilab/bench

# One instantiation file per row of GPUPRIM_ORDER_TYPES.
dc_instantiations order "int32 std::int32_t" "uint32 std::uint32_t" "int64 std::int64_t" \
  "uint64 std::uint64_t" "float float" "double double"
# gpuprim-bench with the order family alone: the other families' planners
# are empty here.
{
  echo '#include "lab/bench/plan.hpp"'
  echo 'namespace gpuprim::bench {'
  for f in reduce scan segmented_reduce histogram sort sorting_network transpose gemm convolve \
    spmv solve closest_pair select; do
    echo "planners ${f}_planners() { return {}; }"
  done
  echo '}'
} >"$B/gen/other_families.cpp.new"
dc_keep_unchanged

lib_src=("${dc_core_sources[@]}" "$B"/gen/order_*.cu)
tests_src=(tests/sides/search_test.cpp tests/sides/merge_test.cpp tests/sides/topk_test.cpp
  tests/cuda/search_test.cpp tests/cuda/search_custom_test.cu tests/cuda/merge_custom_test.cu
  tests/cuda/topk_select_test.cu tests/cuda/topk_ladder_test.cpp)
ladder_src=(lab/ladder/topk_ladder.cu)
bench_src=(lab/bench/main.cpp lab/bench/run.cpp lab/bench/report.cpp lab/bench/roofline.cpp
  lab/bench/system_info.cpp lab/bench/order_bench.cpp lab/bench/anchors_cub_order.cu
  lab/bench/anchors_cub_storage.cu "$B/gen/other_families.cpp")
probe_src=(lab/probes/probe_order.cu)
[ "${PROBE:-0}" = 1 ] || probe_src=()
[ "${NO_BENCH:-0}" = 1 ] && bench_src=()
dc_compile_all "${lib_src[@]}" "${tests_src[@]}" "${ladder_src[@]}" "${bench_src[@]}" \
  "${probe_src[@]}"
failed=$?
dc_link_tests order_tests "${tests_src[@]}" "${ladder_src[@]}" "${lib_src[@]}"
if [ ${#bench_src[@]} -gt 0 ]; then
  dc_link gpuprim-bench gpuprim-bench "${bench_src[@]}" "${ladder_src[@]}" "${lib_src[@]}"
fi
if [ ${#probe_src[@]} -gt 0 ]; then
  dc_link probe_order "the probe" "${probe_src[@]}" "${lib_src[@]}"
fi
stamp "linked"
[ "${BUILD_ONLY:-0}" = 1 ] && exit "$failed"

# 1.
tests="$B/order_tests"
if [ -x "$tests" ]; then
  timeout 120 "$tests" --gtest_filter="${TEST_FILTER:-*}" >"$OUT/tests.log" 2>&1
  stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|tests ran|SKIPPED' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED" "$OUT/tests.log" >>"$summary"
  # 2. The kernels changed since the last memcheck: the top-k pre-filter's
  # every outcome for float, at 4096 (a few hundred calls), and the
  # search's shared-memory tree.
  filter='*topk_select/3.the_pre_filter*:*topk_select_through*:*many_queries*:*search_records*'
  tools=(memcheck)
  [ "${RACECHECK:-0}" = 1 ] && tools+=(racecheck)
  for tool in "${tools[@]}"; do
    GPUPRIM_TEST_MAX_SIZE=4096 timeout 75 \
      compute-sanitizer --tool "$tool" --error-exitcode 9 "$tests" --gtest_filter="$filter" \
      >"$OUT/sanitize-$tool.log" 2>&1
    stamp "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)' "$OUT/sanitize-$tool.log" | tr '\n' ' ')"
  done
fi
# 3.
# shellcheck disable=SC2086  # BENCH_ARGS: words
if [ -x "$B/gpuprim-bench" ]; then
  timeout 100 "$B/gpuprim-bench" order ${BENCH_ARGS:-} --markdown "$OUT/bench-order.md" \
    --json "$OUT/bench-order.json" >"$OUT/bench-order.txt" 2>"$OUT/bench-order.log"
  stamp "bench order rc=$? checks: $(grep -c '| ok |' "$OUT/bench-order.md") ok, $(grep -cE 'differs from|wrong result' "$OUT/bench-order.md") wrong"
fi
# shellcheck disable=SC2086
if [ -x "$B/gpuprim-bench" ] && [ "${LADDER:-0}" = 1 ]; then
  timeout 60 "$B/gpuprim-bench" order --ladder ${BENCH_ARGS:-} \
    --markdown "$OUT/bench-order-ladder.md" >"$OUT/bench-order-ladder.txt" \
    2>"$OUT/bench-order-ladder.log"
  stamp "bench order --ladder rc=$? wrong: $(grep -cE 'differs from|wrong result' "$OUT/bench-order-ladder.md")"
fi
if [ -x "$B/probe_order" ]; then
  timeout 100 "$B/probe_order" >"$OUT/probe-order.txt" 2>&1
  stamp "probe rc=$?"
fi
dc_finish
