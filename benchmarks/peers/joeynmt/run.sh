#!/usr/bin/env bash
# attnviz beside JoeyNMT 2.3.0 on the same split, pieces, model size and threads, in one run:
#   benchmarks/peers/joeynmt/run.sh DATA [--quick | --budget]
# DATA is the corpus (fra.txt). Prints every figure as a `key value` line on stdout: ratios
# (train_ratio_bahdanau, greedy_ratio_general, ...: > 1 where attnviz is better), BLEU after
# the same CPU budget (bleu_per_budget_bahdanau_attnviz, ..._joeynmt) and the curve, peak resident memory, then each raw figure; each budget run's attention on SENTENCE,
# as each toolkit draws it, goes to figures/ beside this script.
#   --quick   throughput and latency only (about 8 minutes on an idle 2-core machine, after
#             the one-time setup and preparation)
#   --budget  the budget runs only (issue 27's item 4, the shipped and the lean recipe for 50
#             minutes: MINUTES=50 MARKS=5 ATTENTIONS=general RUNS="attnviz attnviz_lean" \
#             run.sh DATA --budget)
# Environment knobs:
#   JOEYNMT_VENV (~/venv-joeynmt)  JoeyNMT's own environment; setup.sh makes it if missing
#   WORK (~/.cache/attnviz-joeynmt) prepared data, hypotheses, raw figures and the log
#   THREADS (1)    CPU threads of every process (the recipe's --threads 1)
#   ATTENTIONS ("bahdanau general")  the attentions compared
#   ROUNDS (1)     speed rounds; each runs, per attention, attnviz (auto), JoeyNMT, attnviz
#                  (fp32), so that each ratio compares neighbouring processes
#   STEPS (30)     timed training steps of each speed run, after 3 untimed
#   MINUTES (20)   CPU minutes of each budget run
#   MARKS (4)      BLEU evaluations per budget run, evenly spread (the curve)
#   RUNS ("attnviz joeynmt")  the budget runs of each attention, started at once (the budget
#                  is CPU time, so whatever slows the machine slows each alike): attnviz's
#                  shipped recipe, JoeyNMT's, and on request attnviz_lean, attnviz's lean
#                  recipe (tied output layer, linear decay: attnviz_side.py --recipe lean)
#   SENTENCE ("The old man is reading a book in the garden.")  the sentence of the pictures
#   NICE (0)       niceness of every process (10 beside another job that must not slow down)
# Run it on an otherwise idle machine: two processes that each want a core slow each other.
set -euo pipefail
usage="usage: $0 DATA [--quick | --budget]"
data="" speed=1 budget=1
for arg in "$@"; do
    case $arg in
        --quick) budget=0 ;;
        --budget) speed=0 ;;
        -*) echo "$usage" >&2; exit 2 ;;
        *) data=$arg ;;
    esac
done
[ -n "$data" ] && [ $((speed + budget)) -gt 0 ] || { echo "$usage" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
venv=${JOEYNMT_VENV:-$HOME/venv-joeynmt}
work=${WORK:-$HOME/.cache/attnviz-joeynmt}
threads=${THREADS:-1}
steps=${STEPS:-30}
attentions=(${ATTENTIONS:-bahdanau general})
sentence=${SENTENCE:-The old man is reading a book in the garden.}
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
if [ "$speed" = 1 ]; then
    for round in $(seq "${ROUNDS:-1}"); do
        for attention in "${attentions[@]}"; do
            run "$round" attnviz "$attention" auto "${attnviz[@]}" speed "${common[@]}" \
                --attention "$attention" --steps "$steps"
            run "$round" joeynmt "$attention" own "${joeynmt[@]}" speed "${common[@]}" \
                --attention "$attention" --steps "$steps"
            run "$round" attnviz "$attention" fp32 "${attnviz[@]}" speed "${common[@]}" \
                --attention "$attention" --steps "$steps" --precision fp32 --decoding fp32
        done
    done
fi
report=()
if [ "$budget" = 1 ]; then
    report=(--work "$work")
    rm -rf "$work/hyps" "$work/weights"
    minutes=${MINUTES:-20}
    budget=(budget "${common[@]}" --minutes "$minutes" --marks "${MARKS:-4}")
    for attention in "${attentions[@]}"; do
        for name in ${RUNS:-attnviz joeynmt}; do
            case $name in
                attnviz) cmd=("${attnviz[@]}") ;;
                attnviz_lean) cmd=("${attnviz[@]}" --recipe lean) ;;
                joeynmt) cmd=("${joeynmt[@]}") ;;
                *) echo "RUNS: attnviz, joeynmt or attnviz_lean, not $name" >&2; exit 2 ;;
            esac
            run 1 "$name" "$attention" budget "${cmd[@]}" "${budget[@]}" --attention "$attention" &
        done
        wait
        # Each toolkit's picture of its own attention on one sentence: attnviz's first (it
        # writes the sentence's pieces for JoeyNMT's side).
        pictures=(attention "${common[@]}" --attention "$attention" --out "$here/figures")
        "${attnviz[@]}" "${pictures[@]}" --minutes "$minutes" --sentence "$sentence" 2>>"$log"
        "${joeynmt[@]}" "${pictures[@]}" 2>>"$log"
    done
fi
load end
python "$here/report.py" "$raw" "${report[@]}"
