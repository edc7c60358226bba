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
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${TOPK_BUILD_DIR:-/root/build-topk}
mkdir -p "$B/gen"
JOBS=${JOBS:-16}
export PATH=/usr/local/cuda/bin:$PATH
GTEST_LIBS=()
NVCC=(nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr
  -DGPUPRIM_HAS_CUDA=1 -Iinclude -Itests -I. -Ilab/bench -Xcompiler=-fopenmp -w)
CXX=(g++ -std=c++20 -O2 -fopenmp -DGPUPRIM_HAS_CUDA=1 -Iinclude -Itests -I. -Ilab/bench
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

# One instantiation file per row of GPUPRIM_ORDER_TYPES, as CMake writes them.
for row in "int32 std::int32_t" "uint32 std::uint32_t" "int64 std::int64_t" \
  "uint64 std::uint64_t" "float float" "double double"; do
  set -- $row
  printf '#define GPUPRIM_INSTANTIATING 1\n#include "%s/src/order/instantiate.cuh"\nnamespace gpuprim::detail {\ntemplate struct instantiation<order_instances_of<%s>>;\n}\n' \
    "$PWD" "$2" >"$B/gen/order_$1.cu.new"
done
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
# (Rewritten only when changed, so that a rerun keeps their objects.)
for f in "$B"/gen/*.new; do
  cmp -s "$f" "${f%.new}" && rm "$f" || mv "$f" "${f%.new}"
done

lib_src=(src/core/runtime_cuda.cpp src/core/timing.cpp src/core/timing_cuda.cpp
  src/tune/tuner_common.cpp "$B"/gen/order_*.cu)
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
sources=("${lib_src[@]}" "${tests_src[@]}" "${ladder_src[@]}" "${bench_src[@]}" "${probe_src[@]}")
obj() { case "$1" in /*) echo "$1.o" ;; *) echo "$B/$(echo "$1" | tr '/' '_').o" ;; esac; }
objs() { for s in "$@"; do obj "$s"; done; }
compile() {
  local src=$1 obj
  obj=$(obj "$1")
  # A rerun in the same build directory keeps an object newer than its
  # source and every header.
  if [ -s "$obj" ] && [ ! "$src" -nt "$obj" ] &&
    [ -z "$(find include lab tests/support -newer "$obj" \( -name '*.h*' -o -name '*.cuh' \) -print -quit)" ]; then
    return 0
  fi
  local flags=("${NVCC[@]}")
  # Plain C++ as CMake compiles it (the facade's precompiled checks apply).
  case "$src" in
    *.cpp) flags=("${CXX[@]}") ;;
  esac
  case "$src" in
    tests/sides/*) flags+=(-DGPUPRIM_TEST_ON_CUDA=1) ;;
    lab/probes/*) flags+=(-Ilab/probes) ;;
  esac
  "${flags[@]}" -c "$src" -o "$obj" >"$obj.log" 2>&1 || { echo "FAILED $src"; cat "$obj.log"; return 1; }
}
stamp "build: ${#sources[@]} files, -j $JOBS"
failed=0
pids=()
# The slowest first (the instantiations and the .cu tests).
for s in "$B"/gen/order_*.cu tests/cuda/*select*.cu tests/cuda/merge_custom_test.cu "${sources[@]}"; do
  case " ${started:-} " in *" $s "*) continue ;; esac
  case " ${sources[*]} " in *" $s "*) ;; *) continue ;; esac
  started="${started:-} $s"
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
  compile "$s" >>"$OUT/build.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
stamp "compiled (failed=$failed)"
[ "$failed" = 0 ] || { grep -A20 FAILED "$OUT/build.log" | head -80 >>"$summary"; }
LINK=(nvcc -arch=sm_90 -Xcompiler=-fopenmp)
"${LINK[@]}" -o "$B/order_tests" $(objs "${tests_src[@]}" "${ladder_src[@]}" "${lib_src[@]}") \
  "${GTEST_LIBS[@]}" -lgtest_main -lgtest >>"$OUT/build.log" 2>&1 ||
  { stamp "link of the tests failed"; tail -30 "$OUT/build.log" >>"$summary"; }
if [ ${#bench_src[@]} -gt 0 ]; then
  "${LINK[@]}" -o "$B/gpuprim-bench" $(objs "${bench_src[@]}" "${ladder_src[@]}" "${lib_src[@]}") \
    >>"$OUT/build.log" 2>&1 || { stamp "link of gpuprim-bench failed"; tail -30 "$OUT/build.log" >>"$summary"; }
fi
if [ ${#probe_src[@]} -gt 0 ]; then
  "${LINK[@]}" -o "$B/probe_order" $(objs "${probe_src[@]}" "${lib_src[@]}") >>"$OUT/build.log" 2>&1 ||
    { stamp "link of the probe failed"; tail -30 "$OUT/build.log" >>"$summary"; }
fi
stamp "linked"
[ "${BUILD_ONLY:-0}" = 1 ] && exit "$failed"

if [ -x "$B/order_tests" ]; then
  timeout 150 "$B/order_tests" >"$OUT/tests.log" 2>&1
  stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|tests ran|SKIPPED' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED" "$OUT/tests.log" >>"$summary"
  if [ "${SANITIZE:-0}" = 1 ]; then
    # The side tests (sizes capped) take the radix select's passes; the
    # typed select test's sweep is left out (tens of thousands of launches).
    for tool in memcheck racecheck; do
      GPUPRIM_TEST_MAX_SIZE=${SANITIZE_MAX_SIZE:-70000} timeout ${SANITIZE_TIMEOUT:-120} \
        compute-sanitizer --tool $tool --error-exitcode 9 "$B/order_tests" \
        --gtest_filter="${SANITIZE_FILTER:-*topk*-*two_to_the_31*:*2_to_the_20*:*matches_a_stable_sort*}" \
        >"$OUT/sanitize-$tool.log" 2>&1
      stamp "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)' "$OUT/sanitize-$tool.log" | tr '\n' ' ')"
    done
  fi
fi
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
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$summary" 2>&1
nvcc --version | tail -2 >>"$summary"
