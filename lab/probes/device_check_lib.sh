# Functions of the one-family device checks (lab/probes/<family>_device_check.sh),
# sourced by them: each builds only what its family needs with nvcc and g++
# (no CMake), links the tests, a probe or gpuprim-bench, runs them and writes
# logs and a summary to $OUT. A rerun in the same build directory keeps the
# objects that are newer than their source and every header.
#
#   dc_init BUILD_DIR [FLAG...]    OUT, B, JOBS, NVCC, CXX, GTEST_LIBS, summary;
#                                  FLAGs go to both compilers (e.g. -Ilab/bench)
#   dc_instantiations FAMILY "NAME TYPE"...
#                                  $B/gen/FAMILY_NAME.cu, one per precompiled
#                                  type, as CMake writes them
#   dc_compile_all SOURCE...       compiles JOBS at a time, the .cu first (the
#                                  slowest); returns 1 if one failed
#   dc_link OUTPUT WHAT SOURCE...  links the sources' objects into $B/OUTPUT
#   dc_link_tests OUTPUT SOURCE... the same with GoogleTest's main
#   dc_run_tests BINARY SECONDS [FILTER]
#                                  the tests, then with a gtest FILTER the
#                                  tests under memcheck and racecheck (sizes
#                                  capped at SANITIZE_MAX_SIZE)
#   dc_finish                      the GPU and the nvcc version in the summary
#
# The checks that build with CMake's ninja files instead, only the objects
# they name (sort_skip_device_check.sh, sort_sparse_segscan_device_check.sh):
#   dc_cmake_init BUILD_DIR        OUT, B, JOBS, summary, an empty build.log;
#                                  configures BUILD_DIR as scripts/device-check.sh
#                                  does (one instantiation file per type)
#                                  unless it holds a build.ninja; returns 1
#                                  if that failed
#   dc_cmake_link OUTPUT [--gtest] OBJECT...
#                                  links the objects (paths in BUILD_DIR) into
#                                  BUILD_DIR/OUTPUT; --gtest: with GoogleTest's
#                                  main, where CMake found it
# shellcheck shell=bash

# The runtime and timing sources every family's objects link with.
# shellcheck disable=SC2034  # used by the scripts that source this file
dc_core_sources=(src/core/runtime_cuda.cpp src/core/timing.cpp src/core/timing_cuda.cpp
  src/tune/tuner_common.cpp)

dc_init() {
  OUT=${OUT:-$PWD/out}
  mkdir -p "$OUT"
  B=$1
  shift
  mkdir -p "$B/gen"
  JOBS=${JOBS:-16}
  export PATH=/usr/local/cuda/bin:$PATH
  GTEST_LIBS=()
  NVCC=(nvcc -std=c++20 -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr
    -DGPUPRIM_HAS_CUDA=1 -Iinclude -Itests -I. "$@" -Xcompiler=-fopenmp -w)
  CXX=(g++ -std=c++20 -O2 -fopenmp -DGPUPRIM_HAS_CUDA=1 -Iinclude -Itests -I. "$@"
    -I/usr/local/cuda/include -w)
  # GoogleTest carried beside the tree (.gtest/) when the machine has none.
  if [ ! -d /usr/include/gtest ] && [ -d .gtest ]; then
    NVCC+=(-isystem .gtest/include)
    CXX+=(-isystem .gtest/include)
    GTEST_LIBS=(-L.gtest/lib)
  fi
  summary="$OUT/summary.txt"
  : >"$summary"
  dc_start=$(date +%s)
}

stamp() { echo "[$(($(date +%s) - dc_start)) s] $*" | tee -a "$summary"; }

# A file under $B/gen rewritten only when its text changed, so that a rerun
# keeps its object: generate into FILE.new, then dc_keep_unchanged.
dc_keep_unchanged() {
  local f
  for f in "$B"/gen/*.new; do
    [ -e "$f" ] || continue
    if cmp -s "$f" "${f%.new}"; then rm "$f"; else mv "$f" "${f%.new}"; fi
  done
}

dc_instantiations() {
  local family=$1 row name type
  shift
  for row in "$@"; do
    read -r name type <<<"$row"
    printf '#define GPUPRIM_INSTANTIATING 1\n#include "%s/src/%s/instantiate.cuh"\nnamespace gpuprim::detail {\ntemplate struct instantiation<%s_instances_of<%s>>;\n}\n' \
      "$PWD" "$family" "$family" "$type" >"$B/gen/${family}_$name.cu.new"
  done
  dc_keep_unchanged
}

dc_obj() { case "$1" in /*) echo "$1.o" ;; *) echo "$B/$(echo "$1" | tr '/' '_').o" ;; esac; }
dc_objs() { for s in "$@"; do dc_obj "$s"; done; }

dc_compile() {
  local src=$1 obj
  obj=$(dc_obj "$1")
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

dc_compile_all() {
  local s failed=0 pids=() p
  stamp "build: $# files, -j $JOBS"
  for s in $(printf '%s\n' "$@" | grep '\.cu$') $(printf '%s\n' "$@" | grep -v '\.cu$'); do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
    dc_compile "$s" >>"$OUT/build.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || failed=1; done
  stamp "compiled (failed=$failed)"
  [ "$failed" = 0 ] || grep -A20 FAILED "$OUT/build.log" | head -80 >>"$summary"
  return $failed
}

dc_link() {
  local output=$1 what=$2 libs=()
  shift 2
  [ "$what" = "the tests" ] && libs=("${GTEST_LIBS[@]}" -lgtest_main -lgtest)
  # shellcheck disable=SC2046  # one object a word
  nvcc -arch=sm_90 -Xcompiler=-fopenmp -o "$B/$output" $(dc_objs "$@") "${libs[@]}" \
    >>"$OUT/build.log" 2>&1 || { stamp "link of $what failed"; tail -30 "$OUT/build.log" >>"$summary"; }
}
dc_link_tests() {
  local output=$1
  shift
  dc_link "$output" "the tests" "$@"
}

dc_run_tests() {
  local binary=$1 seconds=$2 filter=${3:-} tool
  [ -x "$binary" ] || return 0
  timeout "$seconds" "$binary" >"$OUT/tests.log" 2>&1
  stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|tests ran|SKIPPED' "$OUT/tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED" "$OUT/tests.log" >>"$summary"
  [ -n "$filter" ] || return 0
  for tool in memcheck racecheck; do
    GPUPRIM_TEST_MAX_SIZE=${SANITIZE_MAX_SIZE:-70000} timeout "${SANITIZE_TIMEOUT:-120}" \
      compute-sanitizer --tool $tool --error-exitcode 9 "$binary" --gtest_filter="$filter" \
      >"$OUT/sanitize-$tool.log" 2>&1
    stamp "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  (PASSED|FAILED)' "$OUT/sanitize-$tool.log" | tr '\n' ' ')"
  done
}

dc_finish() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$summary" 2>&1
  nvcc --version | tail -2 >>"$summary"
}

dc_cmake_init() {
  OUT=${OUT:-$PWD/out}
  mkdir -p "$OUT"
  B=$1
  JOBS=${JOBS:-$(nproc)}
  summary="$OUT/summary.txt"
  : >"$summary"
  : >"$OUT/build.log"
  dc_start=$(date +%s)
  [ -f "$B/build.ninja" ] && return 0
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" \
    -DGPUPRIM_INSTANTIATION_ROWS_PER_FILE=1 >>"$OUT/build.log" 2>&1 && return 0
  stamp "cmake configure failed"
  tail -30 "$OUT/build.log" >>"$summary"
  return 1
}

dc_cmake_link() {
  local output=$1 libs=() found
  shift
  if [ "${1:-}" = --gtest ]; then
    shift
    # GoogleTest where CMake found it (or carried beside the tree in .gtest/).
    found=$(grep -E '^GTEST_LIBRARY(_RELEASE)?:FILEPATH=' "$B/CMakeCache.txt" | head -1 | cut -d= -f2)
    [ -n "$found" ] && libs+=(-L"$(dirname "$found")")
    found=$(grep -E '^GTest_DIR:PATH=' "$B/CMakeCache.txt" | head -1 | cut -d= -f2)
    [ -n "$found" ] && libs+=(-L"$found/../..")
    [ -d .gtest/lib ] && libs+=(-L"$PWD/.gtest/lib")
    libs+=(-lgtest_main -lgtest)
  fi
  (cd "$B" && nvcc -arch=sm_90 -Xcompiler=-fopenmp -o "$output" "$@" "${libs[@]}") \
    >>"$OUT/build.log" 2>&1
  stamp "$output linked rc=$?"
}
