#!/usr/bin/env bash
# The whole suite on a busy machine: a fresh clone of HEAD, with one CPU-bound loop per core
# running beside it for the whole run, RUNS times, then once on the idle machine. Prints each
# run's wall time and pytest's summary line; exits non-zero if any run failed.
#
#     bash scripts/busy_suite.sh [RUNS] [NICE]
#
# RUNS: busy runs (default 3). NICE: the loops' niceness (default 0: they compete as equals;
# 19 lets the suite go first). The packages must be installed already (README's test command).
set -uo pipefail
runs=${1:-3}
nice_level=${2:-0}
top=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
git clone -q "$top" "$work/attnviz"
cd "$work/attnviz" || exit 1

suite() {  # one run: its wall time and pytest's last line
  local start status
  start=$(date +%s)
  python -m pytest -q -p no:cacheprovider > "$work/run.log" 2>&1
  status=$?
  echo "$1: $(( $(date +%s) - start )) s, $(tail -n 1 "$work/run.log")"
  [ "$status" = 0 ] || { grep -E "^(FAILED|ERROR)" "$work/run.log"; return 1; }
}

failed=0
for n in $(seq "$runs"); do
  loops=()
  for _ in $(seq "$(nproc)"); do
    nice -n "$nice_level" python -c "while True: pass" &
    loops+=($!)
  done
  suite "busy run $n ($(nproc) loops at nice $nice_level)" || failed=1
  kill "${loops[@]}" 2>/dev/null
  wait "${loops[@]}" 2>/dev/null
done
suite "idle run" || failed=1
exit "$failed"
