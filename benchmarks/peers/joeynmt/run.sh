#!/usr/bin/env bash
# attnviz beside JoeyNMT 2.3.0 on the same split, pieces, model size and threads, in one run:
#   benchmarks/peers/joeynmt/run.sh DATA [--quick]
# DATA is the corpus (fra.txt). Prints every figure as a `key value` line on stdout: ratios
# (train_ratio_bahdanau, greedy_ratio_general, ...: > 1 where attnviz is better), BLEU after
# the same CPU budget (bleu_per_budget_bahdanau_attnviz, ..._joeynmt) and the curve, peak
# resident memory, then each raw figure. --quick measures throughput and latency only (about
# 5 minutes on an idle 2-core machine, after the one-time setup and preparation).
# Environment knobs:
#   JOEYNMT_VENV (~/venv-joeynmt)  JoeyNMT's own environment; setup.sh makes it if missing
#   WORK (~/.cache/attnviz-joeynmt) prepared data, hypotheses, raw figures and the log
#   THREADS (1)    CPU threads of every process (the recipe's --threads 1)
#   ROUNDS (1)     speed rounds; each runs, per attention, attnviz (auto), JoeyNMT, attnviz
#                  (fp32), so that each ratio compares neighbouring processes
#   STEPS (30)     timed training steps of each speed run, after 3 untimed
#   MINUTES (20)   CPU minutes of each budget run (4 runs: 2 toolkits x 2 attentions)
#   MARKS (4)      BLEU evaluations per budget run, evenly spread (the curve)
#   PAIRED (1)     budget runs of the two toolkits side by side (one attention at a time);
#                  0 runs them one after the other (a machine with fewer than 2 x THREADS cores)
#   NICE (0)       niceness of every process (10 beside another job that must not slow down)
# Run it on an otherwise idle machine: two processes that each want a core slow each other.
set -euo pipefail
usage="usage: $0 DATA [--quick]"
data="" quick=0
for arg in "$@"; do
    case $arg in
        --quick) quick=1 ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) data=$arg ;;
    esac
done
[ -n "$data" ] || { echo "$usage" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
venv=${JOEYNMT_VENV:-$HOME/venv-joeynmt}
work=${WORK:-$HOME/.cache/attnviz-joeynmt}
threads=${THREADS:-1}
steps=${STEPS:-30}
export OMP_NUM_THREADS=$threads MKL_NUM_THREADS=$threads
export PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"
niced=(nice -n "${NICE:-0}")

"$venv/bin/python" -c "import joeynmt.training" 2>/dev/null || bash "$here/setup.sh" "$venv" >&2
mkdir -p "$work"
"${niced[@]}" python "$here/prepare.py" --data "$data" --work "$work"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
raw="$work/raw-$stamp.txt" log="$work/run-$stamp.log"
echo "raw figures: $raw; log: $log" >&2

# run ROUND TOOLKIT ATTENTION VARIANT COMMAND...: the command's `key value` lines, tagged,
# appended to the raw file in one write; its stderr goes to the log, each line tagged
run() {
    local tag="$1 $2 $3 $4"
    shift 4
    local out
    echo "== $tag: $*" >>"$log"
    out=$("${niced[@]}" "$@" 2> >(sed "s/^/[$tag] /" >>"$log") | sed "s/^/$tag /")
    echo "$out" >>"$raw"
}
attnviz=(python "$here/attnviz_side.py")
joeynmt=("$venv/bin/python" "$here/joeynmt_side.py")
common=(--work "$work" --threads "$threads")

load() { echo "machine_load_$1 $(cut -d' ' -f1-3 /proc/loadavg | tr ' ' '/')"; }
load start
for round in $(seq "${ROUNDS:-1}"); do
    for attention in bahdanau general; do
        run "$round" attnviz "$attention" auto "${attnviz[@]}" speed "${common[@]}" \
            --attention "$attention" --steps "$steps"
        run "$round" joeynmt "$attention" own "${joeynmt[@]}" speed "${common[@]}" \
            --attention "$attention" --steps "$steps"
        run "$round" attnviz "$attention" fp32 "${attnviz[@]}" speed "${common[@]}" \
            --attention "$attention" --steps "$steps" --precision fp32 --decoding fp32
    done
done
report=()
if [ "$quick" = 0 ]; then
    report=(--work "$work")
    rm -rf "$work/hyps"
    budget=(budget "${common[@]}" --minutes "${MINUTES:-20}" --marks "${MARKS:-4}")
    for attention in bahdanau general; do
        if [ "${PAIRED:-1}" = 1 ]; then
            # Both toolkits at once, each on its own core: the budget is CPU time, and
            # whatever slows the machine slows both alike.
            run 1 attnviz "$attention" budget "${attnviz[@]}" "${budget[@]}" --attention "$attention" &
            run 1 joeynmt "$attention" budget "${joeynmt[@]}" "${budget[@]}" --attention "$attention"
            wait
        else
            run 1 attnviz "$attention" budget "${attnviz[@]}" "${budget[@]}" --attention "$attention"
            run 1 joeynmt "$attention" budget "${joeynmt[@]}" "${budget[@]}" --attention "$attention"
        fi
    done
fi
load end
python "$here/report.py" "$raw" "${report[@]}"
