#!/usr/bin/env bash
# Tests scripts/install-deps.sh's decisions with fake tools first on PATH:
# fake cmake / ninja / compiler (whose header checks pass or fail as each
# case says) and an apt-get that records its calls and fails, as on a
# machine where no Debian mirror answers.
#   install_deps_test.sh <path to scripts/install-deps.sh>
set -u
script=$1
. "$(dirname "$0")/fake_tools.sh"

# make_tools <dir> <cmake version> <headers and -l libraries the compiler
# does not find...>
make_tools() {
  local dir=$1 version=$2
  shift 2
  fake_tool "$dir/cmake" "echo \"cmake version $version\""
  local tool
  for tool in ninja ccache mpirun mpicxx; do
    fake_tool "$dir/$tool" "exit 0"
  done
  fake_tool "$dir/clang++" "cat >/dev/null" "exit 0"
  # The fake compiler reads the #include line from stdin and fails for the
  # headers named here, and for the libraries named here (-lname) when it is
  # asked to link them.
  {
    echo '#!/bin/sh'
    echo 'line=$(cat)'
    for h in "$@"; do
      case "$h" in
        -l*) echo "for a in \"\$@\"; do [ \"\$a\" = \"$h\" ] && exit 1; done" ;;
        *) echo "case \"\$line\" in *\"<$h>\"*) exit 1;; esac" ;;
      esac
    done
    echo 'exit 0'
  } >"$dir/fake-c++"
  fake_tool "$dir/apt-get" "echo \"apt-get \$*\" >>\"$dir/apt-calls\"" "exit 100"
  chmod +x "$dir/fake-c++"
}

# The script runs with the fake tools and a few real basics on PATH, nothing
# else, so the machine's own cmake, ccache or apt-get cannot answer.
real_tools "$work/base" bash sh cat id

# expect_optional_note <dir> <what> <packages>: with <what> missing and
# apt-get failing, exit 0 and a note naming its packages.
expect_optional_note() {
  local dir=$1 what=$2 packages=$3 status
  run_script "$dir"
  status=$?
  [ $status -eq 0 ] || fail "$what missing: exit $status, want 0"
  grep -q "not installed (optional): $packages" "$dir/out" ||
    fail "$what missing: no note: $(cat "$dir/out")"
}

run_script() {
  local dir=$1
  shift
  env "$@" PATH="$dir:$work/base" CXX=fake-c++ "$work/base/bash" "$script" >"$dir/out" 2>&1
}

# 1. Everything there (CMake and Ninja from elsewhere): apt-get is never called.
make_tools "$work/all" 3.31.6
run_script "$work/all"
status=$?
[ $status -eq 0 ] || fail "all present: exit $status, want 0 ($(cat "$work/all/out"))"
[ ! -e "$work/all/apt-calls" ] || fail "all present: apt-get was called: $(cat "$work/all/apt-calls")"

# 2. A library missing and apt-get failing: exit 1, naming the need and its package.
make_tools "$work/no-png" 3.31.6 png.h
run_script "$work/no-png"
status=$?
[ $status -eq 1 ] || fail "png.h missing: exit $status, want 1"
grep -q "libpng (png.h): Debian package libpng-dev" "$work/no-png/out" ||
  fail "png.h missing: the message does not name it: $(cat "$work/no-png/out")"
grep -q "apt-get install" "$work/no-png/apt-calls" 2>/dev/null ||
  grep -q "apt-get update" "$work/no-png/apt-calls" 2>/dev/null ||
  fail "png.h missing: apt-get was not tried"
grep -q "GoogleTest" "$work/no-png/out" && fail "png.h missing: names GoogleTest, which is there"

# 3. CMake too old: it is a need like any other.
make_tools "$work/old-cmake" 3.18.4
run_script "$work/old-cmake"
status=$?
[ $status -eq 1 ] || fail "cmake 3.18: exit $status, want 1"
grep -q "CMake >= 3.25" "$work/old-cmake/out" || fail "cmake 3.18: not named: $(cat "$work/old-cmake/out")"

# 4. Only ccache missing and apt-get failing: optional, exit 0 with a note.
make_tools "$work/no-ccache" 3.31.6
rm "$work/no-ccache/ccache"
expect_optional_note "$work/no-ccache" ccache ccache
grep -q "apt-get install.*ccache" "$work/no-ccache/apt-calls" 2>/dev/null ||
  grep -q "apt-get update" "$work/no-ccache/apt-calls" 2>/dev/null ||
  fail "ccache missing: apt-get was not tried"

# 7. OpenMPI missing and apt-get failing: optional, exit 0 naming both packages.
make_tools "$work/no-mpi" 3.31.6
rm "$work/no-mpi/mpirun" "$work/no-mpi/mpicxx"
expect_optional_note "$work/no-mpi" OpenMPI "openmpi-bin libopenmpi-dev"

# 8. --required (scripts/gpuprim's mode): optional tools missing and apt-get
# failing: exit 0, apt-get never called, nothing said.
make_tools "$work/required" 3.31.6 -lopenblas
rm "$work/required/ccache" "$work/required/mpirun" "$work/required/mpicxx"

env PATH="$work/required:$work/base" CXX=fake-c++ "$work/base/bash" "$script" --required \
  >"$work/required/out" 2>&1
status=$?
[ $status -eq 0 ] || fail "--required, optional missing: exit $status, want 0"
[ ! -s "$work/required/out" ] || fail "--required, optional missing: said $(cat "$work/required/out")"
[ ! -e "$work/required/apt-calls" ] ||
  fail "--required, optional missing: apt-get was called: $(cat "$work/required/apt-calls")"

# 9. --required still installs (tries apt-get for) a missing required need.
make_tools "$work/required-png" 3.31.6 png.h
env PATH="$work/required-png:$work/base" CXX=fake-c++ "$work/base/bash" "$script" --required \
  >"$work/required-png/out" 2>&1
status=$?
[ $status -eq 1 ] || fail "--required, png.h missing: exit $status, want 1"
grep -q "libpng (png.h)" "$work/required-png/out" ||
  fail "--required, png.h missing: not named: $(cat "$work/required-png/out")"

# 10. clang's libFuzzer missing and apt-get failing: optional, exit 0 naming the packages.
make_tools "$work/no-fuzzer" 3.31.6
printf '#!/bin/sh\ncat >/dev/null\nexit 1\n' >"$work/no-fuzzer/clang++"
expect_optional_note "$work/no-fuzzer" libFuzzer "clang libclang-rt-dev libomp-dev"

# 6. A header under CMAKE_PREFIX_PATH is found there (the compiler is given -I).
mkdir -p "$work/prefix/include"
make_tools "$work/prefixed" 3.31.6
# This compiler finds png.h only when it is passed -I<prefix>/include.
printf '#!/bin/sh
line=$(cat)
case "$line" in *"<png.h>"*) case "$*" in *"-I%s/include"*) exit 0;; *) exit 1;; esac;; esac
exit 0
' \
  "$work/prefix" >"$work/prefixed/fake-c++"
run_script "$work/prefixed" CMAKE_PREFIX_PATH="/nowhere:$work/prefix"
status=$?
[ $status -eq 0 ] || fail "prefix: exit $status, want 0 ($(cat "$work/prefixed/out"))"
[ ! -e "$work/prefixed/apt-calls" ] || fail "prefix: apt-get was called"

# 5. Dry run: says what it would install and calls nothing. A cblas.h that
# is there (Debian's reference BLAS installs one) does not stand for OpenBLAS:
# the library is what counts.
make_tools "$work/dry" 3.31.6 -lopenblas CLI/CLI.hpp
run_script "$work/dry" GPUPRIM_DEPS_DRY_RUN=1
status=$?
[ $status -eq 0 ] || fail "dry run: exit $status"
grep -q "would install: libcli11-dev libopenblas-openmp-dev" "$work/dry/out" ||
  fail "dry run: $(cat "$work/dry/out")"
[ ! -e "$work/dry/apt-calls" ] || fail "dry run: apt-get was called"

# 11. OpenBLAS linked already: not asked for.
make_tools "$work/blas" 3.31.6 CLI/CLI.hpp
run_script "$work/blas" GPUPRIM_DEPS_DRY_RUN=1
grep -q "openblas" "$work/blas/out" && fail "OpenBLAS there: still asked for: $(cat "$work/blas/out")"

finish "install-deps decisions"
