#!/usr/bin/env bash
# The selection family alone on the GPU machine, in one call (not yet run
# on one): builds only what it needs with nvcc (the runtime, the select
# instantiations for every precompiled type, the select tests, the ladder
# and the probe) instead of the whole library, then runs the GPU tests,
# the same tests under compute-sanitizer memcheck and racecheck (sizes
# capped), and lab/probes/probe_select.cu. Logs go to $OUT.
# Usage (from the repository root): lab/probes/select_device_check.sh
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${SELECT_BUILD_DIR:-/root/build-select}
mkdir -p "$B/gen"
JOBS=${JOBS:-16}
GTEST_LIBS=()
NVCC=(nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr
  -DGPUPRIM_HAS_CUDA=1 -Iinclude -Itests -I. -Xcompiler=-fopenmp -w)
CXX=(g++ -std=c++20 -O2 -fopenmp -DGPUPRIM_HAS_CUDA=1 -Iinclude -Itests -I.
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

# One instantiation file per row of GPUPRIM_SELECT_TYPES, as CMake writes them.
for row in "uint8 std::uint8_t" "int32 std::int32_t" "uint32 std::uint32_t" "int64 std::int64_t" \
  "uint64 std::uint64_t" "float float" "double double"; do
  set -- $row
  printf '#define GPUPRIM_INSTANTIATING 1\n#include "%s/src/select/instantiate.cuh"\nnamespace gpuprim::detail {\ntemplate struct instantiation<select_instances_of<%s>>;\n}\n' \
    "$PWD" "$2" >"$B/gen/select_$1.cu"
done
sources=(src/core/runtime_cuda.cpp src/core/timing.cpp src/core/timing_cuda.cpp src/tune/tuner_common.cpp
  lab/ladder/select_ladder.cu tests/sides/select_test.cpp tests/cuda/select_test.cpp
  tests/cuda/select_custom_test.cu tests/cuda/select_ladder_test.cpp lab/probes/probe_select.cu "$B"/gen/select_*.cu)
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
[ "$failed" = 0 ] || { tail -50 "$OUT/build.log" >>"$summary"; exit 1; }
lib=("$B"/gen/select_*.cu.o "$(obj src/core/runtime_cuda.cpp)" "$(obj src/core/timing.cpp)"
  "$(obj src/core/timing_cuda.cpp)" "$(obj src/tune/tuner_common.cpp)")
nvcc -arch=sm_90 -Xcompiler=-fopenmp -o "$B/select_tests" "$(obj tests/sides/select_test.cpp)" \
  "$(obj tests/cuda/select_test.cpp)" "$(obj tests/cuda/select_custom_test.cu)" \
  "$(obj tests/cuda/select_ladder_test.cpp)" \
  "$(obj lab/ladder/select_ladder.cu)" "${lib[@]}" "${GTEST_LIBS[@]}" -lgtest_main -lgtest >>"$OUT/build.log" 2>&1 ||
  { stamp "link of the tests failed"; tail -30 "$OUT/build.log" >>"$summary"; }
nvcc -arch=sm_90 -Xcompiler=-fopenmp -o "$B/probe_select" "$(obj lab/probes/probe_select.cu)" \
  "$(obj lab/ladder/select_ladder.cu)" "${lib[@]}" >>"$OUT/build.log" 2>&1 ||
  { stamp "link of the probe failed"; tail -30 "$OUT/build.log" >>"$summary"; }
stamp "linked"

if [ -x "$B/select_tests" ]; then
  timeout 200 "$B/select_tests" >"$OUT/tests.log" 2>&1
  stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|tests ran' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED" "$OUT/tests.log" >>"$summary"
  for tool in memcheck racecheck; do
    GPUPRIM_TEST_MAX_SIZE=${SANITIZE_MAX_SIZE:-70000} timeout ${SANITIZE_TIMEOUT:-120} \
      compute-sanitizer --tool $tool --error-exitcode 9 "$B/select_tests" \
      --gtest_filter='-*two_to_the_31*' >"$OUT/sanitize-$tool.log" 2>&1
    stamp "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)' "$OUT/sanitize-$tool.log" | tr '\n' ' ')"
  done
fi
if [ -x "$B/probe_select" ]; then
  timeout ${PROBE_TIMEOUT:-120} "$B/probe_select" ${PROBE_ARGS:-} >"$OUT/tune-select.txt" 2>&1
  stamp "probe rc=$?"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$summary" 2>&1
nvcc --version | tail -2 >>"$summary"
