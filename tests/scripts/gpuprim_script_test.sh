#!/usr/bin/env bash
# Tests scripts/gpuprim's decisions in a copy of the tree's layout with a
# fake cmake (which records its calls and "builds" a fake binary), a fake
# install-deps.sh (which records its arguments) and no nvcc:
#   1. no binary: it builds (install-deps --required, the gpuprim-cli
#      target), says on stderr where the binary is, then runs it;
#   2. warm (nothing newer than the binary): no build and nothing on stderr,
#      only the command's own output;
#   3. a source newer than the binary: it builds again.
#   gpuprim_script_test.sh <path to scripts/gpuprim>
set -u
script=$1
. "$(dirname "$0")/fake_tools.sh"

tree=$work/tree
mkdir -p "$tree/scripts" "$tree/src" "$tree/include" "$tree/apps" "$tree/lab" "$tree/cmake" \
  "$work/bin"
cp "$script" "$tree/scripts/gpuprim"
touch "$tree/CMakeLists.txt" "$tree/CMakePresets.json" "$tree/src/a.cpp"
fake_tool "$tree/scripts/install-deps.sh" "echo \"install-deps \$*\" >>\"$work/calls\""
# cmake --build writes the binary: a script that prints its arguments.
cat >"$work/bin/cmake" <<FAKE
#!/bin/sh
echo "cmake \$*" >>"$work/calls"
case "\$*" in
  *--build*)
    mkdir -p "$tree/build/cpu/apps/gpuprim"
    printf '#!/bin/sh\necho "gpuprim \$@"\n' >"$tree/build/cpu/apps/gpuprim/gpuprim"
    chmod +x "$tree/build/cpu/apps/gpuprim/gpuprim"
    ;;
esac
FAKE
chmod +x "$work/bin/cmake"
real_tools "$work/bin" bash sh cat dirname find mkdir printf chmod touch

run() {
  rm -f "$work/calls"
  env -i PATH="$work/bin" GPUPRIM_PRESET=cpu "$work/bin/bash" "$tree/scripts/gpuprim" "$@" \
    >"$work/out" 2>"$work/err"
}

# 1. No binary yet.
run info --no-measure
[ $? -eq 0 ] || fail "first call: exit $?"
grep -q "install-deps --required" "$work/calls" 2>/dev/null ||
  fail "first call: install-deps --required not run: $(cat "$work/calls" 2>/dev/null)"
grep -q -- "--target gpuprim-cli" "$work/calls" 2>/dev/null || fail "first call: no build"
grep -q "built $tree/build/cpu/apps/gpuprim/gpuprim" "$work/err" ||
  fail "first call: stderr does not say where the binary is: $(cat "$work/err")"
grep -qx "gpuprim info --no-measure" "$work/out" || fail "first call: output $(cat "$work/out")"

# 2. Warm: the binary is newer than every source.
run info
[ ! -e "$work/calls" ] || fail "warm call: ran $(cat "$work/calls")"
[ ! -s "$work/err" ] || fail "warm call: said $(cat "$work/err")"
grep -qx "gpuprim info" "$work/out" || fail "warm call: output $(cat "$work/out")"

# 3. A source changed after the build.
touch -d '+1 minute' "$tree/src/a.cpp"
run info
grep -q -- "--target gpuprim-cli" "$work/calls" 2>/dev/null || fail "changed source: no build"
grep -q "src/a.cpp changed" "$work/err" || fail "changed source: reason not said: $(cat "$work/err")"

finish "scripts/gpuprim decisions"
