#!/usr/bin/env bash
# Makes sure what gpuprim builds with is there, installing from Debian's
# packages only what is really missing (the CUDA toolkit itself is expected
# under /usr/local/cuda; without it only the CPU backend is built).
#
# Each need is checked by what it provides, not by a package name, so tools
# that came from elsewhere (CMake and Ninja from PyPI, libraries built by
# hand under CMAKE_PREFIX_PATH) count: a command on PATH, or a header the
# C++ compiler finds (in its default paths or under $CMAKE_PREFIX_PATH/include).
# ccache, OpenBLAS, OpenMPI and clang's libFuzzer are optional. When something is missing and installing it fails,
# the script says what is missing and how to get it, and exits 1.
#
# Usage: install-deps.sh [--required]
#   --required  only the needs without which gpuprim does not build: the
#               optional ones are neither checked nor installed, so apt-get
#               runs only when a required need is missing (scripts/gpuprim
#               uses this mode before it builds).
#
# Environment: CXX (the compiler to check headers with, default g++),
# CMAKE_PREFIX_PATH (more places to look), GPUPRIM_DEPS_DRY_RUN=1 (print what
# would be installed, install nothing).
set -uo pipefail

required_only=0
case "${1:-}" in
  --required) required_only=1 ;;
  "") ;;
  *)
    printf 'install-deps: unknown option %s (usage: install-deps.sh [--required])\n' "$1" >&2
    exit 2
    ;;
esac

cxx="${CXX:-g++}"
missing_packages=()
missing_needs=()
optional_packages=()

say() { printf 'install-deps: %s\n' "$*" >&2; }

have_command() { command -v "$1" >/dev/null 2>&1; }

# CMake 3.25 or newer (the presets' version 6).
have_cmake() {
  have_command cmake || return 1
  local version
  version=$(cmake --version 2>/dev/null) || return 1
  [[ $version =~ ([0-9]+)\.([0-9]+) ]] || return 1
  local major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}
  ((major > 3 || (major == 3 && minor >= 25)))
}

# prefix_flags FLAG SUBDIR: FLAG<prefix>/SUBDIR for each prefix of
# CMAKE_PREFIX_PATH, into the array prefix_flags.
prefix_flags() {
  local prefix prefixes
  prefix_flags=()
  IFS=':' read -r -a prefixes <<<"${CMAKE_PREFIX_PATH:-}"
  for prefix in "${prefixes[@]}"; do
    [ -n "$prefix" ] && prefix_flags+=("$1$prefix/$2")
  done
}

# A library the compiler links (-l<name>), in its own paths or under a prefix.
have_library() {
  have_command "$cxx" || return 1
  prefix_flags -L lib
  local flags=("${prefix_flags[@]}")
  local probe="${TMPDIR:-/tmp}/gpuprim-library-probe.$$"
  printf 'int main() { return 0; }\n' | "$cxx" -x c++ - "${flags[@]}" "-l$1" -o "$probe" \
    >/dev/null 2>&1
  local status=$?
  if [ -e "$probe" ]; then rm -f "$probe"; fi
  return $status
}

# A header the compiler finds, in its own paths or under a prefix.
have_header() {
  have_command "$cxx" || return 1
  prefix_flags -I include
  local flags=("${prefix_flags[@]}")
  printf '#include <%s>\n' "$1" | "$cxx" -std=c++20 "${flags[@]}" -E -x c++ - -o /dev/null \
    >/dev/null 2>&1
}

# need <check> <what it is> <Debian package> <how else to get it>
need() {
  local check=$1 what=$2 package=$3 otherwise=$4
  if ! eval "$check"; then
    missing_packages+=("$package")
    missing_needs+=("$what: Debian package $package, or $otherwise")
  fi
}

need have_cmake "CMake >= 3.25 (cmake on PATH)" cmake "pip install cmake"
need "have_command ninja" "Ninja (ninja on PATH)" ninja-build "pip install ninja"
need "have_command $cxx" "a C++20 compiler ($cxx on PATH)" g++ "set CXX to your compiler"
need "have_header gtest/gtest.h" "GoogleTest (gtest/gtest.h)" libgtest-dev \
  "build googletest and add its prefix to CMAKE_PREFIX_PATH"
need "have_header benchmark/benchmark.h" "Google Benchmark (benchmark/benchmark.h)" \
  libbenchmark-dev "build google/benchmark and add its prefix to CMAKE_PREFIX_PATH"
need "have_header CLI/CLI.hpp" "CLI11 (CLI/CLI.hpp)" libcli11-dev \
  "put CLI11's single header under a prefix in CMAKE_PREFIX_PATH"
need "have_header nlohmann/json.hpp" "nlohmann-json (nlohmann/json.hpp)" nlohmann-json3-dev \
  "put nlohmann/json under a prefix in CMAKE_PREFIX_PATH"
need "have_header png.h" "libpng (png.h)" libpng-dev "install libpng's development files"
if [ $required_only = 0 ]; then
  # Optional: without OpenBLAS the host gemm uses the library's own (slower)
  # loop; without ccache rebuilds take longer. The check is the library, not
  # cblas.h: Debian's reference BLAS (libblas-dev) installs a cblas.h too.
  # The OpenMP build of OpenBLAS shares the library's OpenMP threads (it
  # honours OMP_NUM_THREADS, gp::host.threads(n) and the wait policy).
  have_library openblas || optional_packages+=(libopenblas-openmp-dev)
  have_command ccache || optional_packages+=(ccache)
  # Optional: without OpenMPI (mpirun, and mpicxx with mpi.h) the distributed
  # part (gp::mpi, gpuprim ... --distributed) is not built.
  have_command mpirun || optional_packages+=(openmpi-bin)
  have_command mpicxx || optional_packages+=(libopenmpi-dev)
  # Optional: clang with libFuzzer and OpenMP builds the readers' fuzz
  # targets (scripts/fuzz.sh, which scripts/test.sh runs when it can).
  have_libfuzzer() {
    have_command clang++ || return 1
    local probe="${TMPDIR:-/tmp}/gpuprim-libfuzzer-probe.$$"
    echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
      clang++ -x c++ -fsanitize=fuzzer,address,undefined -fopenmp - -o "$probe" >/dev/null 2>&1
    local status=$?
    if [ -e "$probe" ]; then rm -f "$probe"; fi
    return $status
  }
  have_libfuzzer || optional_packages+=(clang libclang-rt-dev libomp-dev)
fi

if [ ${#missing_packages[@]} -eq 0 ] && [ ${#optional_packages[@]} -eq 0 ]; then
  exit 0
fi

to_install=("${missing_packages[@]}" "${optional_packages[@]}")
if [ "${GPUPRIM_DEPS_DRY_RUN:-0}" = 1 ]; then
  say "would install: ${to_install[*]}"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ] && have_command sudo; then sudo=(sudo); fi
installed=0
if have_command apt-get; then
  say "installing: ${to_install[*]}"
  if "${sudo[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
      "${to_install[@]}"; then
    installed=1
  fi
fi

if [ $installed = 0 ]; then
  if [ ${#missing_packages[@]} -gt 0 ]; then
    say "cannot install what gpuprim needs; missing:"
    for n in "${missing_needs[@]}"; do
      say "  - $n"
    done
    exit 1
  fi
  say "not installed (optional): ${optional_packages[*]}: builds work without them" \
    "(ccache: faster rebuilds; libopenblas-openmp-dev: the host gemm through OpenBLAS;" \
    "openmpi-bin, libopenmpi-dev: the distributed part over MPI ranks;" \
    "clang, libclang-rt-dev, libomp-dev: the readers' fuzz targets)"
fi
exit 0
