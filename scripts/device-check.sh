#!/usr/bin/env bash
# One call on the GPU machine: build, GPU tests, the same tests under
# compute-sanitizer (memcheck, racecheck, synccheck), and the benchmarks.
# Logs and results go to $OUT (flat: the device tool brings back at most 8
# files). Usage: scripts/device-check.sh [--no-bench] [--no-sanitize]
# [--tests-only] [--no-tests] [--tune-radix] [--ncu-radix] [--tune-scan]
# [--tune-histogram] [--tune-reduce] [--ncu-scan] [--ncu-small]
# [--tune-gemm] [--ncu-gemm] [--probe-merge] (the radix probes time the radix sort's tile sizes
# against CUB: tune-radix.txt, and profile its passes and CUB's with Nsight
# Compute: ncu-radix.txt; --tune-scan times the scan's look-back windows
# against CUB: tune-scan.txt; --tune-histogram the byte histogram's
# kernels: tune-histogram.txt; --tune-reduce the reduction's block shapes:
# tune-reduce.txt; --ncu-scan profiles one scan and CUB's with Nsight
# Compute: ncu-scan.txt, ncu-scan-source.txt; --ncu-small profiles one
# 2^20 scan and one 2^20 sum with CUB's, for the GPU time apart from the
# launch: ncu-small.txt; --tune-gemm times the bf16 tensor-core gemm rung's
# tile shapes, depths, stages and block orders against cuBLAS:
# tune-gemm_mma.txt, and writes the ladder row's SASS: sass-gemm.txt;
# --ncu-gemm profiles the two ladder rows and cuBLAS at 8192^3 with
# Nsight Compute: ncu-gemm.txt; --probe-merge times the distributed sort's
# merge of sorted runs against a copy and profiles one merge kernel:
# tune-dist_merge.txt, ncu-merge.txt).
# --probe-cg times one CG iteration's kernels against variants: tune-cg.txt;
# --probe-batched-sort times the batched sort of full tiles (the library's
# dispatch) against the guarded kernel of partial arrays: tune-batched_sort.txt;
# --probe-spmv-rmat times SpMV on the R-MAT matrix (production's merge path,
# cuSPARSE, variants): tune-spmv_rmat.txt;
# --probe-segmented-scan times the segmented float sum's variants against
# production and CUB: tune-segmented_scan.txt;
# --probe-transpose times the transpose's kernels at every element size on
# unaligned shapes against a copy: tune-transpose.txt.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_common.sh
. "$(dirname "$0")/device_common.sh"
BUILD=${GPUPRIM_BUILD_DIR:-build/device}  # e.g. build/cuda after scripts/gpuprim built it
RUN_BENCH=1
RUN_SANITIZE=1
RUN_TESTS=1
# The options that turn on one probe or profile: --tune-radix sets
# RUN_TUNE_RADIX=1, and so on.
on_options=(tune-radix ncu-radix tune-scan ncu-scan ncu-small tune-histogram tune-reduce tune-gemm
  ncu-gemm probe-merge probe-cg probe-batched-sort probe-spmv-rmat probe-segmented-scan
  probe-transpose python)
option_variable() { local v=${1//-/_}; echo "RUN_${v^^}"; }
for option in "${on_options[@]}"; do declare "$(option_variable "$option")=0"; done
for arg in "$@"; do
  case "$arg" in
    --no-bench) RUN_BENCH=0 ;;
    --no-sanitize) RUN_SANITIZE=0 ;;
    --tests-only) RUN_BENCH=0; RUN_SANITIZE=0 ;;
    --no-tests) RUN_TESTS=0 ;;
    --*) [[ " ${on_options[*]} " == *" ${arg#--} "* ]] && declare "$(option_variable "${arg#--}")=1" ;;
  esac
done
device_init eval 'nvcc --version | tail -1; cmake --version | head -1'

# At most 8 files come back: summary.txt, build-tests.log, sanitize.log,
# tune-radix.txt, ncu-radix.txt, ncu-stalls.txt, sass-radix.txt,
# tune-scan.txt, tune-histogram.txt, tune-reduce.txt, bench.json
# (or bench-<family>.json each), bench.md, bench.log: with benchmarks, leave
# out the radix options. Environment: CTEST_TIMEOUT and SANITIZE_TIMEOUT
# (seconds), CTEST_REGEX (the tests to run, a ctest -R pattern), CTEST_JOBS
# (default 4), CTEST_ARGS (more ctest arguments, e.g. -LE dist),
# SANITIZE_FILTER (a gtest filter), SANITIZE_TOOLS, SANITIZE_MAX_SIZE, SANITIZE_SHARDS
# (sanitizer processes side by side, default 1), PROBE_TIMEOUT
# (seconds a probe may run, default 300), PROBE_ARGS (the probe's
# arguments, e.g. --segmented for probe_scan),
# BENCH_FAMILY, BENCH_ARGS (e.g. --backend cuda), LADDER_FAMILIES,
# BUILD_TARGETS (build only these CMake targets, e.g. "gpuprim-bench
# gpuprim_sparse_cuda_tests"; default: everything).
cat "$summary"

mkdir -p "$BUILD"
# The requested probes (lab/probes/probe_NAME.cu): CMake targets
# gpuprim_lab_probe_NAME, built with the library after the main build
# (-lineinfo for Nsight Compute), then copied to $BUILD/probe_NAME.
PROBES=()
{ [ $RUN_TUNE_RADIX -eq 1 ] || [ $RUN_NCU_RADIX -eq 1 ]; } && PROBES+=(radix_tile)
{ [ $RUN_TUNE_SCAN -eq 1 ] || [ $RUN_NCU_SCAN -eq 1 ] || [ $RUN_NCU_SMALL -eq 1 ]; } &&
  PROBES+=(scan)
[ $RUN_TUNE_HISTOGRAM -eq 1 ] && PROBES+=(histogram)
{ [ $RUN_TUNE_REDUCE -eq 1 ] || [ $RUN_NCU_SMALL -eq 1 ]; } && PROBES+=(reduce)
{ [ $RUN_TUNE_GEMM -eq 1 ] || [ $RUN_NCU_GEMM -eq 1 ]; } && PROBES+=(gemm_mma)
[ $RUN_PROBE_MERGE -eq 1 ] && PROBES+=(dist_merge)
[ $RUN_PROBE_CG -eq 1 ] && PROBES+=(cg)
[ $RUN_PROBE_BATCHED_SORT -eq 1 ] && PROBES+=(batched_sort)
[ $RUN_PROBE_SPMV_RMAT -eq 1 ] && PROBES+=(spmv_rmat)
[ $RUN_PROBE_SEGMENTED_SCAN -eq 1 ] && PROBES+=(segmented_scan)
[ $RUN_PROBE_TRANSPOSE -eq 1 ] && PROBES+=(transpose)

MAIN_BUILD=0
{ [ $RUN_TESTS -eq 1 ] || [ $RUN_SANITIZE -eq 1 ] || [ $RUN_BENCH -eq 1 ]; } && MAIN_BUILD=1
if [ $MAIN_BUILD -eq 1 ] || [ ${#PROBES[@]} -gt 0 ]; then
  python_args=()
  [ $RUN_PYTHON -eq 1 ] && python_args=(-DGPUPRIM_BUILD_PYTHON=ON)
  device_configure "$BUILD" ${GPUPRIM_CMAKE_ARGS:-} "${python_args[@]}"
  build_rc=$?
  if [ $build_rc -eq 0 ] && [ $MAIN_BUILD -eq 1 ]; then
    cmake --build "$BUILD" -j "$(nproc)" ${BUILD_TARGETS:+--target $BUILD_TARGETS} \
      >>"$OUT/build-tests.log" 2>&1
    build_rc=$?
  fi
  if [ $build_rc -eq 0 ] && [ ${#PROBES[@]} -gt 0 ]; then
    cmake --build "$BUILD" -j "$(nproc)" --target "${PROBES[@]/#/gpuprim_lab_probe_}" \
      >>"$OUT/build-tests.log" 2>&1
    build_rc=$?
    for name in "${PROBES[@]}"; do
      cp "$BUILD/lab/probes/gpuprim_lab_probe_$name" "$BUILD/probe_$name" 2>/dev/null
    done
  fi
  note "build: rc=$build_rc${PROBES:+ (probes: ${PROBES[*]})}"
  if [ $build_rc -ne 0 ]; then
    grep -E 'error|FAILED' "$OUT/build-tests.log" | head -40
    exit 1
  fi
fi

if [ $RUN_TESTS -eq 1 ]; then
  device_ctest "$BUILD" tests -j "${CTEST_JOBS:-4}" --timeout "${CTEST_TIMEOUT:-600}" \
    ${CTEST_REGEX:+-R "$CTEST_REGEX"} ${CTEST_ARGS:-}
  device_ctest_done
fi

if [ $RUN_SANITIZE -eq 1 ]; then
  # The > 2^31-element tests are left out: they add minutes under the
  # sanitizer and exercise no code path the other sizes miss.
  # SANITIZE_FILTER narrows the run to some suites (a gtest filter).
  filter="--gtest_filter=${SANITIZE_FILTER:-*}-*two_to_the_31*"
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
    # racecheck runs kernels hundreds of times slower: its size sweeps stop
    # at SANITIZE_MAX_SIZE (default 2^16 elements, 16 radix tiles), which
    # still reaches every code path (tests/support/test_data.hpp).
    cap=
    [ "$tool" = racecheck ] && cap="GPUPRIM_TEST_MAX_SIZE=${SANITIZE_MAX_SIZE:-65536}"
    # Line-buffered, every test named: if the time limit cuts the run off,
    # the log still says how far it got. SANITIZE_SHARDS processes (gtest
    # sharding) share the GPU, each running every SANITIZE_SHARDS-th test.
    shards=${SANITIZE_SHARDS:-1}
    pids=()
    for ((shard = 0; shard < shards; ++shard)); do
      env $cap GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$shard \
        timeout -s INT "${SANITIZE_TIMEOUT:-600}" stdbuf -oL compute-sanitizer --tool "$tool" \
        --error-exitcode 3 --print-limit 20 \
        "$BUILD/tests/gpuprim_cuda_tests" "$filter" >"$OUT/tool-$shard.tmp" 2>&1 &
      pids+=($!)
    done
    for ((shard = 0; shard < shards; ++shard)); do
      wait "${pids[$shard]}"
      rc=$?
      note "compute-sanitizer $tool (shard $shard of $shards): rc=$rc $(grep -cE '^\[       OK' "$OUT/tool-$shard.tmp") tests passed, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/tool-$shard.tmp" | tail -1)"
      { echo "==== $tool, shard $shard of $shards"; cat "$OUT/tool-$shard.tmp"; } >>"$OUT/sanitize.log" &&
        rm "$OUT/tool-$shard.tmp"
    done
  done
fi

if [ $RUN_BENCH -eq 1 ] && [ -x "$BUILD/lab/bench/gpuprim-bench" ]; then
  # BENCH_FAMILY: one family or several (space-separated); with several,
  # each writes bench-<family>.json and all append to bench.md.
  families=${BENCH_FAMILY:-all}
  : >"$OUT/bench.md"
  for family in $families; do
    json="$OUT/bench.json"
    [ "$families" = "$family" ] || json="$OUT/bench-$family.json"
    "$BUILD/lab/bench/gpuprim-bench" "$family" ${BENCH_ARGS:-} --json "$json" --markdown "$OUT/table.tmp" \
      >>"$OUT/bench.log" 2>&1
    note "bench $family: rc=$?"
    cat "$OUT/table.tmp" >>"$OUT/bench.md" 2>/dev/null && rm -f "$OUT/table.tmp"
  done
  for family in ${LADDER_FAMILIES:-reduce scan histogram sort}; do
    "$BUILD/lab/bench/gpuprim-bench" "$family" --ladder --markdown "$OUT/ladder.tmp" \
      >>"$OUT/bench.log" 2>&1
    note "bench $family ladder: rc=$?"
    cat "$OUT/ladder.tmp" >>"$OUT/bench.md" 2>/dev/null && rm -f "$OUT/ladder.tmp"
  done
  grep -v '^\[' "$OUT/bench.log"
fi
if [ $RUN_TUNE_RADIX -eq 1 ] || [ $RUN_NCU_RADIX -eq 1 ]; then
  # The SASS of the default keys-only uint32 pass (32 keys per thread,
  # window 4, 2 blocks per SM) and of the probe's match-rank variants of
  # it (sass-radix.txt): what a tile's work compiles to, instruction by
  # instruction.
  cuobjdump -sass "$BUILD/probe_radix_tile" 2>/dev/null |
    awk '/Function : /{keep = /radix_(onesweep|match)_passIL?.*jNS[0-9]_9no_valuesELi32ELi4ELi2E/} keep' \
      >"$OUT/sass-radix.txt"
  if [ $RUN_TUNE_RADIX -eq 1 ]; then
    "$BUILD/probe_radix_tile" >>"$OUT/tune-radix.txt" 2>&1
    note "tune radix: rc=$?"
  fi
  if [ $RUN_NCU_RADIX -eq 1 ]; then
    # Our onesweep passes (either ranking: the match ranking's pass is
    # radix_onesweep_pass<..., block_radix_rank_match<...>>) and CUB's, side
    # by side: time, issue, stalls, occupancy, memory (ncu-radix.txt).
    ncu --kernel-name regex:'[Oo]nesweep|radix_digit_histograms|Histogram' \
      --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis \
      --section MemoryWorkloadAnalysis --section SchedulerStats --section SourceCounters \
      "$BUILD/probe_radix_tile" --profile >"$OUT/ncu-radix.txt" 2>&1
    note "ncu radix: rc=$?"
    # Where the passes' warps wait, reason by reason (cycles per issued
    # instruction), in a file of its own: ncu-stalls.txt.
    ncu --kernel-name regex:'[Oo]nesweep' \
      --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
      "$BUILD/probe_radix_tile" --profile >"$OUT/ncu-stalls.txt" 2>&1
    note "ncu stalls: rc=$?"
  fi
fi

# probe NAME: runs the stand-alone probe built above, output appended to
# tune-NAME.txt.
probe() {
  timeout "${PROBE_TIMEOUT:-300}" "$BUILD/probe_$1" ${PROBE_ARGS:-} >>"$OUT/tune-$1.txt" 2>&1
  note "tune $1: rc=$?"
}
# The scan's look-back window widths against CUB (lab/probes/probe_scan.cu).
[ $RUN_TUNE_SCAN -eq 1 ] && probe scan
if [ $RUN_NCU_SCAN -eq 1 ]; then
  # One default scan and one CUB scan of 2^26 floats under Nsight Compute
  # (ncu-scan.txt: time, memory, occupancy, warp states and stall reasons),
  # then the default kernel's SASS with where its warps stalled, instruction
  # by instruction (ncu-scan-source.txt).
  ncu --kernel-name regex:'scan_decoupled_lookback|DeviceScanKernel' \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --section SourceCounters \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    "$BUILD/probe_scan" --profile >"$OUT/ncu-scan.txt" 2>&1
  note "ncu scan: rc=$?"
  ncu --kernel-name regex:scan_decoupled_lookback -c 1 --section WarpStateStats \
    --section SourceCounters --page source --csv --print-source sass \
    "$BUILD/probe_scan" --profile >"$OUT/ncu-scan-source.txt" 2>&1
  note "ncu scan source: rc=$?"
fi
if [ $RUN_NCU_SMALL -eq 1 ]; then
  # 2^20 elements, where a call is mostly launch: each kernel's own GPU
  # time (gpu__time_duration), its warp states and stall reasons, ours and
  # CUB's (ncu-small.txt).
  for probe in scan reduce; do
    ncu --kernel-name regex:'scan_decoupled_lookback|DeviceScan|reduce_single_pass|DeviceReduce' \
      --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
      --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
      "$BUILD/probe_$probe" --profile 20 >>"$OUT/ncu-small.txt" 2>&1
    note "ncu small $probe: rc=$?"
  done
fi
# The byte histogram's kernels against CUB (lab/probes/probe_histogram.cu).
[ $RUN_TUNE_HISTOGRAM -eq 1 ] && probe histogram
if [ $RUN_PROBE_MERGE -eq 1 ]; then
  # The distributed sort's merge against a copy (lab/probes/probe_dist_merge.cu),
  # then one merge and its partition under Nsight Compute (ncu-merge.txt:
  # time, memory, occupancy, warp states and stall reasons).
  probe dist_merge
  ncu --kernel-name regex:'merge_kernel|merge_partition_kernel' -c 2 \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    "$BUILD/probe_dist_merge" >"$OUT/ncu-merge.txt" 2>&1
  note "ncu merge: rc=$?"
fi
# One CG iteration's kernels against variants (lab/probes/probe_cg.cu).
[ $RUN_PROBE_CG -eq 1 ] && probe cg
# The batched sort of full tiles against the partial arrays' kernel (lab/probes/probe_batched_sort.cu).
[ $RUN_PROBE_BATCHED_SORT -eq 1 ] && probe batched_sort
# SpMV on the R-MAT matrix against cuSPARSE and variants (lab/probes/probe_spmv_rmat.cu).
[ $RUN_PROBE_SPMV_RMAT -eq 1 ] && probe spmv_rmat
# The segmented float sum's variants against production and CUB
# (lab/probes/probe_segmented_scan.cu).
[ $RUN_PROBE_SEGMENTED_SCAN -eq 1 ] && probe segmented_scan
# The transpose's kernels at every element size on unaligned shapes
# (lab/probes/probe_transpose.cu).
[ $RUN_PROBE_TRANSPOSE -eq 1 ] && probe transpose
# The reduction's block shapes against CUB (lab/probes/probe_reduce.cu).
[ $RUN_TUNE_REDUCE -eq 1 ] && probe reduce
if [ $RUN_TUNE_GEMM -eq 1 ]; then
  # The bf16 tensor-core rung's variants against cuBLAS
  # (lab/probes/probe_gemm_mma.cu), then the SASS of the ladder row's kernel
  # (128 x 256 x 32, 4 stages, cp.async path; sass-gemm.txt).
  probe gemm_mma
  cuobjdump -sass "$BUILD/probe_gemm_mma" 2>/dev/null |
    awk '/Function : /{keep = /gemm_mma_shapeILi128ELi256ELi32ELi64ELi64ELi4ELi1ELi16EEELb1E/} keep' \
      >"$OUT/sass-gemm.txt"
fi
if [ $RUN_NCU_GEMM -eq 1 ]; then
  # The two ladder rows and cuBLAS's kernel at 8192^3: time, tensor pipe,
  # shared-memory bank conflicts, L2 and DRAM throughput, stall reasons.
  ncu --kernel-name regex:'gemm_bf16_mma|gemm|sm90|sm80' \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --metrics 'sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,lts__t_sectors.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    "$BUILD/probe_gemm_mma" --profile >"$OUT/ncu-gemm.txt" 2>&1
  note "ncu gemm: rc=$?"
fi

if [ $RUN_PYTHON -eq 1 ]; then
  # The Python package from this build (extension built beside the library
  # with -DGPUPRIM_BUILD_PYTHON=ON), staged with its Python files: its
  # pytest suite (the GPU tests run on CuPy and PyTorch inputs here), then
  # `python -m gpuprim.bench` (gpuprim against CuPy and PyTorch in one run).
  stage="$BUILD/pystage"
  rm -rf "$stage" && mkdir -p "$stage" && cp -r python/gpuprim "$stage/" &&
    cp "$BUILD"/python/_core*.so "$stage/gpuprim/"
  (PYTHONPATH="$stage" timeout "${PYTEST_TIMEOUT:-400}" python3 -m pytest -q -rs python/tests \
    ${PYTEST_ARGS:-} >"$OUT/pytest.log" 2>&1)
  note "pytest: rc=$? $(tail -1 "$OUT/pytest.log")"
  if [ "${PYTHON_BENCH:-1}" = 1 ]; then
    (PYTHONPATH="$stage" timeout "${PYBENCH_TIMEOUT:-300}" python3 -m gpuprim.bench \
      --json "$OUT/python-bench.json" ${PYBENCH_ARGS:-} >"$OUT/python-bench.md" 2>&1)
    note "python bench: rc=$?"
  fi
fi

cat "$summary"
