#!/usr/bin/env bash
# The order family's top-k work on the GPU machine, in one call: builds only
# what it needs with nvcc (the runtime, the order instantiations of every
# precompiled type, the order tests with the top-k select and ladder tests,
# the top-k ladder and gpuprim-bench with the order family alone), then runs
# the GPU order tests, `gpuprim-bench order` and `gpuprim-bench order
# --ladder`. Logs go to $OUT.
# Usage (from the repository root): lab/probes/topk_device_check.sh
# Environment: JOBS (default 16), TOPK_BUILD_DIR (default /root/build-topk),
# SANITIZE=1 (also memcheck and racecheck of the top-k tests on small
# sizes: a few minutes more), PROBE=1 (also build and run the standalone
# probe lab/probes/probe_order.cu), NO_BENCH=1, BUILD_ONLY=1 (compile and
# link, run nothing), BENCH_ARGS (e.g. --quick).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_check_lib.sh
. "$(dirname "$0")/device_check_lib.sh"
dc_init "${TOPK_BUILD_DIR:-/root/build-topk}" -Ilab/bench

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

# With SANITIZE=1, the side tests (sizes capped) take the radix select's
# passes under the sanitizers; the typed select test's sweep is left out
# (tens of thousands of launches).
sanitize_filter=
[ "${SANITIZE:-0}" = 1 ] &&
  sanitize_filter=${SANITIZE_FILTER:-*topk*-*two_to_the_31*:*2_to_the_20*:*matches_a_stable_sort*}
dc_run_tests "$B/order_tests" 150 "$sanitize_filter"
if [ -x "$B/gpuprim-bench" ]; then
  timeout 150 "$B/gpuprim-bench" order ${BENCH_ARGS:-} --markdown "$OUT/bench-order.md" \
    --json "$OUT/bench-order.json" >"$OUT/bench-order.txt" 2>"$OUT/bench-order.log"
  stamp "bench order rc=$?"
  timeout 100 "$B/gpuprim-bench" order --ladder ${BENCH_ARGS:-} --markdown "$OUT/bench-order-ladder.md" \
    >"$OUT/bench-order-ladder.txt" 2>"$OUT/bench-order-ladder.log"
  stamp "bench order --ladder rc=$?"
fi
if [ -x "$B/probe_order" ]; then
  timeout 150 "$B/probe_order" >"$OUT/probe-order.txt" 2>&1
  stamp "probe rc=$?"
fi
dc_finish
