#!/usr/bin/env bash
# NumPy's and SciPy's own test files with gpuprim substituted (the peer
# suites of python/tests/peers, issue 46) in the device mode: every
# substituted call gets CuPy arrays (GPUPRIM_PEER_ARRAYS=cupy; see
# python/tests/peers/_peer.py), and the answers come back to the tests as
# NumPy arrays. Prints per suite the tests that call gpuprim, those with a
# device call, passed, failed, xfailed, xpassed, skipped and the pass rate
# (python/tests/peers/_peer_report.py), also as JSON in
# $GPUPRIM_PEER_REPORT (default build/peers-gpu.json, or $OUT/peers-gpu.json
# where $OUT is set). pytest-xdist, where installed, runs 8 workers
# (GPUPRIM_PEER_JOBS). The run is interrupted after GPUPRIM_PEER_TIMEOUT
# seconds (default 200; SIGINT, so pytest still prints the figures of the
# tests that ran).
#
# Takes an already built package: run from the repository root with
# PYTHONPATH naming a folder that holds gpuprim/ (the tree's Python files and
# its _core*.so), on a machine with CuPy, SciPy, pytest and hypothesis:
#   PYTHONPATH=/root/stage scripts/test-python-peers-gpu.sh [pytest args]
# GPUPRIM_PEER_ARRAYS=numpy runs the same suites on NumPy arrays (the CPU
# figures, for comparison), GPUPRIM_PEER_ARRAYS=simulate the device mode's
# mechanics on the CPU (no GPU needed). Exit status: pytest's.
set -uo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
if ! "$python" -c "import gpuprim, numpy, scipy, pytest, hypothesis"; then
  echo "test-python-peers-gpu.sh: needs gpuprim (on PYTHONPATH), numpy, scipy, pytest, hypothesis" >&2
  exit 2
fi
jobs=()
if "$python" -c "import xdist" 2>/dev/null; then
  jobs=(-n "${GPUPRIM_PEER_JOBS:-8}")
fi
export GPUPRIM_PEER_ARRAYS="${GPUPRIM_PEER_ARRAYS:-cupy}"
if [[ -n "${OUT:-}" ]]; then
  export GPUPRIM_PEER_REPORT="${GPUPRIM_PEER_REPORT:-$OUT/peers-gpu.json}"
else
  mkdir -p build
  export GPUPRIM_PEER_REPORT="${GPUPRIM_PEER_REPORT:-build/peers-gpu.json}"
fi
export PYTHONPATH="$PWD/python/tests/peers${PYTHONPATH:+:$PYTHONPATH}"
timeout -s INT -k 30 "${GPUPRIM_PEER_TIMEOUT:-200}" \
  "$python" -m pytest -q -rsfE --tb=line -p _peer_report -p no:cacheprovider "${jobs[@]}" \
  python/tests/peers/numpy_sort.py \
  python/tests/peers/test_numpy_cumsum.py \
  python/tests/peers/test_numpy_histograms.py \
  python/tests/peers/scipy_iterative.py \
  python/tests/peers/scipy_ndimage_filters.py \
  "$@"
