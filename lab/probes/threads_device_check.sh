#!/usr/bin/env bash
# Issue 47, point 5 (many threads calling at once) on the GPU machine, in
# one call: configures the CUDA build with the Python extension, builds only
# the threads tests (gpuprim_threads_cuda_tests: tests/cuda/threads_test.cpp
# and tests/sides/threads_test.cpp) and the extension (_core, which needs
# the library), runs the C++ tests, then stages the extension beside
# python/gpuprim (as scripts/device-check.sh does) and runs the Python
# thread tests (test_gpu_threads.py on CuPy and PyTorch, test_host_threads.py,
# test_memory.py). Writes three files to $OUT: summary.txt, build.log,
# tests.log.
# Usage (from the repository root): lab/probes/threads_device_check.sh
# Environment: THREADS_BUILD_DIR (default /root/build-threads), JOBS
# (default nproc), MEMCHECK=1 (also the C++ tests under compute-sanitizer
# memcheck with two rounds a thread: a use of a freed or another thread's
# workspace shows; a minute or two more).
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${THREADS_BUILD_DIR:-/root/build-threads}
JOBS=${JOBS:-$(nproc)}
export PATH=/usr/local/cuda/bin:$PATH
summary="$OUT/summary.txt"
log="$OUT/tests.log"
: >"$summary"
: >"$log"
start=$(date +%s)
stamp() { echo "[$(($(date +%s) - start)) s] $*" | tee -a "$summary"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$summary" 2>&1
git log -1 --format='commit %h %s' >>"$summary" 2>&1

cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" \
  -DGPUPRIM_INSTANTIATION_ROWS_PER_FILE=1 -DGPUPRIM_BUILD_PYTHON=ON -DGPUPRIM_ENABLE_DIST=OFF \
  >"$OUT/build.log" 2>&1
stamp "configure rc=$?"
cmake --build "$B" -j "$JOBS" --target gpuprim_threads_cuda_tests _core -- -k 0 \
  >>"$OUT/build.log" 2>&1
rc=$?
stamp "build rc=$rc"
[ $rc -eq 0 ] || grep -E 'error|FAILED' "$OUT/build.log" | head -30 >>"$summary"

tests="$B/tests/gpuprim_threads_cuda_tests"
if [ -x "$tests" ]; then
  timeout 150 "$tests" >>"$log" 2>&1
  stamp "C++ threads tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|SKIPPED \]' "$log" | tr '\n' ' ')"
  grep -E '^\[  FAILED' "$log" >>"$summary"
  if [ "${MEMCHECK:-0}" = 1 ]; then
    GPUPRIM_THREADS_TEST_ROUNDS=2 timeout 240 compute-sanitizer --tool memcheck \
      --error-exitcode 9 "$tests" --gtest_filter='*each_thread*' >>"$log" 2>&1
    stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$log" | tail -1)"
  fi
fi

stage="$B/pystage"
if ls "$B"/python/_core*.so >/dev/null 2>&1; then
  rm -rf "$stage" && mkdir -p "$stage" && cp -r python/gpuprim "$stage/" &&
    cp "$B"/python/_core*.so "$stage/gpuprim/"
  echo "==== pytest" >>"$log"
  XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONPATH="$stage" timeout 200 python3 -m pytest -q -rs \
    -p no:cacheprovider python/tests/test_gpu_threads.py python/tests/test_host_threads.py \
    python/tests/test_memory.py >>"$log" 2>&1
  stamp "pytest rc=$? $(tail -1 "$log")"
  grep -E '^(FAILED|ERROR|SKIPPED)' "$log" | head -20 >>"$summary"
fi
stamp "done"
