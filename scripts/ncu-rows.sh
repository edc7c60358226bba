#!/usr/bin/env bash
# Profiles bench rows under Nsight Compute, one row a run: `gpuprim bench
# FAMILY --only REGEX` under ncu (not --quick, which shrinks the sizes),
# the first NCU_COUNT kernel launches of the process profiled (the row's
# warm-up calls of gpuprim and of the vendor are among them), summarised
# per kernel name: time, SM and memory throughput, occupancy and its
# limits, warp states, memory workload. For the rows furthest from their
# roofline (the hardware-limits round): what stalls and what the memory
# system sees, before any attempt.
# Results in $OUT: ncu-rows.txt (every row's summary, the row's name above
# it) and summary.txt (one line a row: its exit status).
# Usage: scripts/ncu-rows.sh [ROW ...] (names from the table below; default:
# all). Environment: GPUPRIM_BUILD_DIR (default build/device, built here with
# the CLI target when the binary is missing), NCU_COUNT (default 24),
# ROW_TIMEOUT (seconds a row may take, default 120).
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
BUILD=${GPUPRIM_BUILD_DIR:-build/device}
export PATH=/usr/local/cuda/bin:$PATH
gpuprim=$BUILD/apps/gpuprim/gpuprim
if [ ! -x "$gpuprim" ]; then
  "$(dirname "$0")/build-cli.sh" . "$BUILD" "$OUT/build.log" ||
    { echo "build failed"; tail -20 "$OUT/build.log"; exit 1; }
fi

# name | bench arguments (the family, then options; --only takes a regular
# expression of the case's description, as the bench's progress lines show it)
rows=(
  "histogram-u8-256|histogram --only 256 bins uint8 2\\^28"
  "sort-u32|sort --only keys uint32 2\\^28"
  "scan-f32|scan --only inclusive sum float 2\\^28"
  "segmented-scan-1024|scan --only segments of 1024 float 2\\^28"
  "convolve-5x5|convolve --only general 5x5 float 2\\^26"
  "separable-17|convolve --only separable k=17 float 2\\^26"
  "convolve-17x17|convolve --full --only general 17x17 float"
  "spmv-rmat|spmv --only R-MAT 2\\^22 x16"
  "cg-poisson|solve --only cg iteration Poisson 2-D 4096"
  "transpose-10007x3001|transpose --full --only 10007 x 3001 float"
  "gemm-bf16-rungs|gemm --ladder --only bf16|bfloat16"
  "closest-pair-tiled|closest_pair --only tiled float 2\\^17"
  "batched-sort-1024|sort --full --only arrays of 1024"
)
# The kernels to profile (an ncu --kernel-name regex) of the rows whose first
# launches are not the ones that matter: the bf16 ladder starts with many
# calls of its first rung.
declare -A kernels_of=(
  [gemm-bf16-rungs]='gemm_bf16_mma|wgmma|nvjet|sm90'
)

summary=$OUT/summary.txt
report=$OUT/ncu-rows.txt
: >"$report"
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  ncu --version | tail -1
} >>"$summary" 2>&1
for row in "${rows[@]}"; do
  name=${row%%|*}
  rest=${row#*|}
  kernels=${kernels_of[$name]:-}
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  family=${rest%% *}
  options=${rest#* }
  before_only=${options%%--only *}
  only=${options#*--only }
  echo "## $name: gpuprim bench $family ${before_only}--only '$only'" >>"$report"
  # shellcheck disable=SC2086  # the options before --only are separate words
  timeout "${ROW_TIMEOUT:-120}" ncu ${kernels:+--kernel-name "regex:$kernels"} \
    --launch-count "${NCU_COUNT:-24}" --print-summary per-kernel \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis \
    --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    "$gpuprim" bench "$family" $before_only --only "$only" >>"$report" 2>&1
  echo "$name: rc=$?" | tee -a "$summary"
done
