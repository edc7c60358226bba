#!/usr/bin/env bash
# One call on a GPU machine: the headline bench (`gpuprim bench`) of two
# builds timed in turn on the same GPU, to show that a change left the
# speed where it was. The "before" tree is a source tree beside this one
# (e.g. `git archive REV | tar -x -C .devcarry/before`, carried to the
# device); "after" is this checkout. Both build only the CLI; then the
# benches alternate before, after, before, after (ROUNDS pairs), so that a
# drift of the machine shows as noise between the rounds of one build, not
# as a difference.
# Results in $OUT: before-N.json, after-N.json, compare.md (every row's
# medians, after / before, and the spread between a build's own rounds).
# Usage: scripts/bench-before-after.sh BEFORE_DIR [bench arguments ...]
# Environment: ROUNDS (default 2), GPUPRIM_BUILD_DIR (default build/device).
set -uo pipefail
before_src=$(cd "${1:?usage: $0 BEFORE_DIR [bench arguments]}" && pwd)
shift
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
ROUNDS=${ROUNDS:-2}
after_build=${GPUPRIM_BUILD_DIR:-build/device}
before_build=$before_src/build/device
# One after the other with every core: a checkout already built (by
# device-check.sh on the same machine) costs nothing.
"$(dirname "$0")/build-cli.sh" . "$after_build" "$OUT/build-after.log"
after_rc=$?
"$(dirname "$0")/build-cli.sh" "$before_src" "$before_build" "$OUT/build-before.log"
before_rc=$?
echo "build: before rc=$before_rc, after rc=$after_rc"
if [ $before_rc -ne 0 ] || [ $after_rc -ne 0 ]; then
  grep -hE 'error|FAILED' "$OUT"/build-*.log | head -20
  exit 1
fi

for round in $(seq 1 "$ROUNDS"); do
  for side in before after; do
    if [ $side = before ]; then bin=$before_build; else bin=$after_build; fi
    "$bin/apps/gpuprim/gpuprim" bench "$@" --json "$OUT/$side-$round.json" \
      >"$OUT/$side-$round.md" 2>>"$OUT/bench.log"
    echo "bench $side, round $round: rc=$?"
  done
done
python3 "$(dirname "$0")/bench_compare.py" --before "$OUT"/before-*.json \
  --after "$OUT"/after-*.json >"$OUT/compare.md"
echo "compare: rc=$?"
tail -n 12 "$OUT/compare.md"
