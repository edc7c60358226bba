#!/usr/bin/env bash
# One call on a GPU machine (one or several GPUs) for the distributed part:
# builds only the dist targets, runs `gpuprim bench dist` for gp::multi_gpu
# (one process over 1, 2 and all GPUs, with the NCCL roofline) and for GPU
# ranks under mpirun -np $RANKS (the path they took is printed), the dist
# tests (label dist: host ranks, GPU ranks, gp::multi_gpu, the GPU sample
# sort for any rank count on one device, the CLI with --backend cuda), the
# multi_gpu and GPU-sort tests under compute-sanitizer memcheck
# (--report-api-errors no: NCCL probes on its own), and CLI round trips at
# 2^K elements on GPU ranks against the one-process GPU command.
# Results in $OUT (flat, at most 8 files): summary.txt, build-tests.log,
# bench-dist-multi_gpu.md, bench-dist-cuda-np$RANKS.md, bench-dist.log,
# memcheck.log, roundtrip.log.
# Usage: scripts/device-check-dist.sh [--no-tests] [--no-roundtrip]
# [--no-bench] [--no-memcheck] [--quick] (--quick: `bench dist --quick`, K = 22).
# Environment: GPUPRIM_BUILD_DIR (default build/device), RANKS (GPU ranks
# of the round trips and the bench; default: the number of GPUs, at least
# 2), PER_GPU and TOTAL (bench sizes; default 2^28 and 2^30), K (default
# 24), BACKEND (of the round trips, default cuda), NO_BUILD=1 (use the
# build directory as it is), TESTS_REGEX (a ctest -R filter of the dist tests).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=device_common.sh
. "$(dirname "$0")/device_common.sh"
BUILD=${GPUPRIM_BUILD_DIR:-build/device}
GPUS=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
RANKS=${RANKS:-$((GPUS > 2 ? GPUS : 2))}
PER_GPU=${PER_GPU:-2^28}
TOTAL=${TOTAL:-2^30}
BACKEND=${BACKEND:-cuda}
K=${K:-24}
RUN_TESTS=1
RUN_ROUNDTRIP=1
RUN_BENCH=1
RUN_MEMCHECK=1
QUICK=
for arg in "$@"; do
  case "$arg" in
    --no-tests) RUN_TESTS=0 ;;
    --no-roundtrip) RUN_ROUNDTRIP=0 ;;
    --no-bench) RUN_BENCH=0 ;;
    --no-memcheck) RUN_MEMCHECK=0 ;;
    --quick) QUICK=--quick; K=${K_QUICK:-22}; PER_GPU=2^20; TOTAL=2^22 ;;
  esac
done
device_init eval 'mpirun --version | head -1'

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
MPIRUN=(mpirun --allow-run-as-root --oversubscribe)

build_rc=0
if [ "${NO_BUILD:-0}" != 1 ]; then
  device_configure "$BUILD" &&
    cmake --build "$BUILD" -j "$(nproc)" --target gpuprim-cli gpuprim_mpi_tests \
      gpuprim_multi_gpu_tests gpuprim_gpu_sort_tests make_dist_cli_arrays \
      >>"$OUT/build-tests.log" 2>&1
  build_rc=$?
fi
note "build: rc=$build_rc"
if [ $build_rc -ne 0 ]; then
  grep -E 'error|FAILED' "$OUT/build-tests.log" | head -40
  exit 1
fi
gpuprim=$BUILD/apps/gpuprim/gpuprim

if [ $RUN_BENCH -eq 1 ]; then
  export NCCL_NVLS_ENABLE=0
  "$gpuprim" bench dist --backend multi_gpu $QUICK --per-gpu "$PER_GPU" --total "$TOTAL" \
    >"$OUT/bench-dist-multi_gpu.md" 2>>"$OUT/bench-dist.log"
  note "bench dist, multi_gpu (one process, $PER_GPU per GPU, $TOTAL in all): rc=$?"
  "${MPIRUN[@]}" -np "$RANKS" "$gpuprim" bench dist --backend cuda $QUICK --per-gpu "$PER_GPU" \
    --total "$TOTAL" >"$OUT/bench-dist-cuda-np$RANKS.md" 2>>"$OUT/bench-dist.log"
  note "bench dist, $RANKS GPU ranks: rc=$?"
  grep -E '^(multi_gpu rows|device|GPU ranks)' "$OUT"/bench-dist-*.md | tee -a "$summary"
  grep -E 'WRONG' "$OUT"/bench-dist-*.md | tee -a "$summary"
fi

if [ $RUN_TESTS -eq 1 ]; then
  device_ctest "$BUILD" "dist tests" -L dist -R "${TESTS_REGEX:-.}" -j 8 --timeout 300
  note "skipped: $(grep -c 'Skipped' "$OUT/ctest.tmp")" \
    "(of them dist.cli.cuda: $(grep 'Skipped' "$OUT/ctest.tmp" | grep -c 'dist.cli.cuda'))"
  grep -E 'Skipped' "$OUT/ctest.tmp" | head -10 >>"$summary"
  device_ctest_done
fi

if [ $RUN_ROUNDTRIP -eq 1 ]; then
  # Each command once in one process and once on $RANKS GPU ranks: the same
  # stdout and the same output file, byte for byte.
  data=$BUILD/dist-large
  log=$OUT/roundtrip.log
  : >"$log"
  "$BUILD/tests/dist/make_dist_cli_arrays" large "$data" "$K" >>"$log" 2>&1
  roundtrip() {  # roundtrip NAME OUTPUT|- ARGS...
    local name=$1 output=$2
    shift 2
    local one_args=("$@") dist_args=("$@")
    if [ "$output" != - ]; then
      one_args+=(-o "$data/$output.one")
      dist_args+=(-o "$data/$output.dist")
    fi
    local t0 t1 t2
    t0=$(date +%s.%N)
    "$gpuprim" "${one_args[@]}" --backend "$BACKEND" >"$data/$name.one.out" 2>>"$log"
    local one_rc=$?
    t1=$(date +%s.%N)
    "${MPIRUN[@]}" -np "$RANKS" "$gpuprim" "${dist_args[@]}" --backend "$BACKEND" --distributed \
      >"$data/$name.dist.out" 2>>"$log"
    local dist_rc=$?
    t2=$(date +%s.%N)
    local same=yes
    cmp -s "$data/$name.one.out" "$data/$name.dist.out" || same="NO (stdout)"
    if [ "$output" != - ]; then
      cmp -s "$data/$output.one" "$data/$output.dist" || same="NO (file)"
    fi
    note "$(printf 'roundtrip %-22s 2^%s: one process rc=%s %.2f s, %s %s ranks rc=%s %.2f s, identical: %s' \
      "$name" "$K" "$one_rc" "$(awk "BEGIN { print $t1 - $t0 }")" "$RANKS" "$BACKEND" "$dist_rc" \
      "$(awk "BEGIN { print $t2 - $t1 }")" "$same")"
    head -c 300 "$data/$name.dist.out" >>"$log"
  }
  roundtrip sort.u32 sorted.npy sort "$data/large_u32.npy"
  roundtrip sort.f32.descending sorted_d.npy sort "$data/large_f32.npy" --descending
  roundtrip scan.u32.sum scanned.npy scan "$data/large_u32.npy"
  roundtrip scan.f32.max scanned_max.npy scan "$data/large_f32.npy" --op max
  roundtrip reduce.u32.sum - reduce "$data/large_u32.npy" --op sum
  roundtrip reduce.f32.argmax - reduce "$data/large_f32.npy" --op argmax
  roundtrip histogram.f32 - histogram "$data/large_f32.npy" --bins 256
  rm -rf "$data"
fi


if [ $RUN_MEMCHECK -eq 1 ] && command -v compute-sanitizer >/dev/null; then
  for t in gpuprim_gpu_sort_tests gpuprim_multi_gpu_tests; do
    exe=$(find "$BUILD/tests/dist" -name "$t" -type f | head -1)
    timeout 240 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
      "$exe" >>"$OUT/memcheck.log" 2>&1
    note "memcheck $t: rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
  done
fi
