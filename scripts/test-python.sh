#!/usr/bin/env bash
# Builds the Python package with the CPU backend only into a fresh virtual
# environment (build/pyenv) and runs its pytest suite (python/tests; the
# GPU tests skip without a CUDA device), then the peer suites kept out of the
# default run (SciPy's solver tests, seconds; SciPy's ndimage filter tests,
# about a minute; NumPy's sort tests, about a minute). Part of scripts/test.sh.
# The same peer suites on CuPy arrays (a GPU machine, a built package):
# scripts/test-python-peers-gpu.sh (GPUPRIM_PEER_ARRAYS=simulate there runs
# them all in the simulation).
#   GPUPRIM_PYTHON_CUDA=1 scripts/test-python.sh   # the CUDA package instead
#   GPUPRIM_PEER_SUITES=0 scripts/test-python.sh   # without numpy's sort tests
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
venv=build/pyenv
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check \
  numpy scipy pytest hypothesis nanobind scikit-build-core
cuda_off=(-C cmake.define.GPUPRIM_ENABLE_CUDA=OFF)
if [[ "${GPUPRIM_PYTHON_CUDA:-0}" == 1 ]]; then cuda_off=(); fi
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation \
  "${cuda_off[@]}" .
"$venv/bin/python" -m pytest -q python/tests
"$venv/bin/python" -m pytest -q python/tests/peers/scipy_iterative.py
"$venv/bin/python" -m pytest -q python/tests/peers/scipy_ndimage_filters.py
# The peer suites' device mode without a GPU (python/tests/peers/_peer.py,
# GPUPRIM_PEER_ARRAYS=simulate): its plumbing through the small suites.
GPUPRIM_PEER_ARRAYS=simulate "$venv/bin/python" -m pytest -q \
  python/tests/peers/test_numpy_histograms.py python/tests/peers/test_numpy_cumsum.py \
  python/tests/peers/scipy_iterative.py
# NumPy's own sort tests (about 12,000, a minute here); GPUPRIM_PEER_SUITES=0 skips them.
if [[ "${GPUPRIM_PEER_SUITES:-1}" == 1 ]]; then
  "$venv/bin/python" -m pytest -q python/tests/peers/numpy_sort.py
fi
