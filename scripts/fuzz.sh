#!/usr/bin/env bash
# Fuzzes the file readers with libFuzzer: the .npy and Matrix Market
# readers of the library, the PNG and CSV readers of the command line.
#
#   scripts/fuzz.sh [--seconds N] [--if-available] [TARGET...]
#
# TARGETs: npy, mtx, png, csv (default: all). Builds each target with clang
# (-fsanitize=fuzzer,address,undefined; Debian: clang, libclang-rt-dev,
# libomp-dev, libpng-dev) into build/fuzz, then runs it for N seconds
# (default 60) from the seeds in tests/fuzz/corpus/TARGET, keeping what it
# finds in build/fuzz/corpus/TARGET. A crash, a leak, undefined behavior,
# an exception other than the reader's error, or an input that takes more
# than 2 GB or 20 s fails the run: the input is saved as
# build/fuzz/artifacts/TARGET-crash-... (commit it to the seed corpus as a
# regression test once fixed). --if-available: exit 0 with a note when
# clang cannot build a libFuzzer program (scripts/test.sh uses it).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
if_available=0
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds)
      seconds=${2:?--seconds needs a number}
      shift 2
      ;;
    --if-available)
      if_available=1
      shift
      ;;
    npy | mtx | png | csv)
      targets+=("$1")
      shift
      ;;
    *)
      echo "fuzz.sh: unknown argument '$1' (targets: npy mtx png csv)" >&2
      exit 2
      ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(npy mtx png csv)

cxx=${FUZZ_CXX:-clang++}
out=build/fuzz
mkdir -p "$out/obj" "$out/artifacts"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
  "$cxx" -x c++ -fsanitize=fuzzer,address,undefined -fopenmp - -o "$probe/probe" >/dev/null 2>&1; then
  if [ $if_available = 1 ]; then
    echo "fuzz.sh: $cxx cannot build a libFuzzer program (Debian: clang, libclang-rt-dev," \
      "libomp-dev): fuzzing skipped"
    exit 0
  fi
  echo "fuzz.sh: $cxx cannot build a libFuzzer program (Debian: clang, libclang-rt-dev," \
    "libomp-dev)" >&2
  exit 1
fi

launcher=()
if command -v ccache >/dev/null; then launcher=(ccache); fi
flags=(-std=c++20 -O1 -g -fno-omit-frame-pointer -fopenmp -Iinclude -I.
  -DGPUPRIM_HAS_CUDA=0 -fsanitize=address,undefined -fno-sanitize-recover=all)
# The readers, built once with the sanitizers and libFuzzer's coverage.
sources=(src/io/npy.cpp src/io/mtx.cpp src/io/memory_limit.cpp apps/gpuprim/png_image.cpp
  apps/gpuprim/point_csv.cpp apps/gpuprim/input_file.cpp apps/gpuprim/progress.cpp)
objects=()
compiles=()
for source in "${sources[@]}"; do
  object="$out/obj/$(basename "${source%.cpp}").o"
  objects+=("$object")
  if [ ! -e "$object" ] || [ "$source" -nt "$object" ] ||
    [ -n "$(find include apps/gpuprim -newer "$object" -name '*.hpp' -print -quit)" ]; then
    echo "fuzz.sh: compiling $source"
    rm -f "$object"
    "${launcher[@]}" "$cxx" "${flags[@]}" -fsanitize=fuzzer-no-link -c "$source" -o "$object" &
    compiles+=($!)
  fi
done
for pid in "${compiles[@]}"; do
  wait "$pid" || {
    echo "fuzz.sh: a reader did not compile" >&2
    exit 1
  }
done

status=0
for target in "${targets[@]}"; do
  binary="$out/${target}_fuzz"
  echo "fuzz.sh: building $binary"
  "${launcher[@]}" "$cxx" "${flags[@]}" -fsanitize=fuzzer "tests/fuzz/${target}_fuzz.cpp" \
    "${objects[@]}" -lpng -lz -o "$binary"
  mkdir -p "$out/corpus/$target"
  echo "fuzz.sh: running $target for $seconds s"
  if ! "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
    -artifact_prefix="$out/artifacts/$target-" "$out/corpus/$target" \
    "tests/fuzz/corpus/$target" 2>"$out/$target.log"; then
    tail -n 60 "$out/$target.log" >&2
    echo "fuzz.sh: $target FAILED: the input is in $out/artifacts/ (log: $out/$target.log)" >&2
    status=1
  else
    grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$out/$target.log" |
      sed "s/^/fuzz.sh: $target: /"
  fi
done
exit $status
