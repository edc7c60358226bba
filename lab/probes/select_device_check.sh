#!/usr/bin/env bash
# The selection family alone on the GPU machine, in one call (not yet run
# on one): builds only what it needs with nvcc (the runtime, the select
# instantiations for every precompiled type, the select tests, the ladder
# and the probe) instead of the whole library, then runs the GPU tests,
# the same tests under compute-sanitizer memcheck and racecheck (sizes
# capped), and lab/probes/probe_select.cu. Logs go to $OUT.
# Usage (from the repository root): lab/probes/select_device_check.sh
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_check_lib.sh
. "$(dirname "$0")/device_check_lib.sh"
dc_init "${SELECT_BUILD_DIR:-/root/build-select}"

# One instantiation file per row of GPUPRIM_SELECT_TYPES.
dc_instantiations select "uint8 std::uint8_t" "int32 std::int32_t" "uint32 std::uint32_t" \
  "int64 std::int64_t" "uint64 std::uint64_t" "float float" "double double"
lib_src=("${dc_core_sources[@]}" "$B"/gen/select_*.cu)
tests_src=(tests/sides/select_test.cpp tests/cuda/select_test.cpp tests/cuda/select_custom_test.cu
  tests/cuda/select_ladder_test.cpp lab/ladder/select_ladder.cu)
probe_src=(lab/probes/probe_select.cu lab/ladder/select_ladder.cu)
dc_compile_all "${lib_src[@]}" "${tests_src[@]}" lab/probes/probe_select.cu || exit 1
dc_link_tests select_tests "${tests_src[@]}" "${lib_src[@]}"
dc_link probe_select "the probe" "${probe_src[@]}" "${lib_src[@]}"
stamp "linked"

dc_run_tests "$B/select_tests" 200 '-*two_to_the_31*'
if [ -x "$B/probe_select" ]; then
  timeout "${PROBE_TIMEOUT:-120}" "$B/probe_select" ${PROBE_ARGS:-} >"$OUT/tune-select.txt" 2>&1
  stamp "probe rc=$?"
fi
dc_finish
