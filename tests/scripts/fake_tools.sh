# The setup the script tests share (sourced): a scratch folder $work,
# removed on exit; fail, which counts a failed case; fake_tool and
# real_tools, which fill a folder that is then the whole PATH, so that the
# machine's own tools cannot answer; finish, the verdict.

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# fake_tool <file> <line...>: an executable /bin/sh script of these lines.
fake_tool() {
  local file=$1
  shift
  mkdir -p "$(dirname "$file")"
  printf '#!/bin/sh\n' >"$file"
  printf '%s\n' "$@" >>"$file"
  chmod +x "$file"
}

# real_tools <dir> <tool...>: links to the machine's own tools.
real_tools() {
  local dir=$1 tool
  shift
  mkdir -p "$dir"
  for tool in "$@"; do
    ln -s "$(command -v "$tool")" "$dir/$tool"
  done
}

# finish <what is tested>: exit 0 when every case passed.
finish() {
  if [ $failures -eq 0 ]; then
    echo "$1: all cases passed"
    exit 0
  fi
  exit 1
}
