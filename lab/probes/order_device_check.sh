#!/usr/bin/env bash
# The order family (search, merge, merge sort, top-k) alone on the GPU
# machine, in one call (not yet run on one): builds only what it needs with
# nvcc (the runtime, the order instantiations for every precompiled type,
# the order tests) instead of the whole library, then runs the GPU tests
# and the same tests under compute-sanitizer memcheck and racecheck (sizes
# capped, the 2^31 cases left out). Logs go to $OUT.
# Usage (from the repository root): lab/probes/order_device_check.sh
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_check_lib.sh
. "$(dirname "$0")/device_check_lib.sh"
dc_init "${ORDER_BUILD_DIR:-/root/build-order}"

# One instantiation file per row of GPUPRIM_ORDER_TYPES.
dc_instantiations order "int32 std::int32_t" "uint32 std::uint32_t" "int64 std::int64_t" \
  "uint64 std::uint64_t" "float float" "double double"
lib_src=("${dc_core_sources[@]}" "$B"/gen/order_*.cu)
tests_src=(tests/sides/search_test.cpp tests/sides/merge_test.cpp tests/sides/topk_test.cpp
  tests/cuda/search_test.cpp tests/cuda/search_custom_test.cu tests/cuda/merge_custom_test.cu)
dc_compile_all "${lib_src[@]}" "${tests_src[@]}" || exit 1
dc_link_tests order_tests "${tests_src[@]}" "${lib_src[@]}"
stamp "linked"

dc_run_tests "$B/order_tests" 200 '-*two_to_the_31*:*2_to_the_20*'
dc_finish
