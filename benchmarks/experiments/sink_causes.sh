#!/usr/bin/env bash
# Why the first output word looked at the source <eos>: controlled short runs, one change at a
# time, then the sink measure beside alignment and translation for each (benchmarks/quality/sinks.py).
#
#   benchmarks/experiments/sink_causes.sh fra.txt WORK [HANSARDS_DIR]
#
# Every run: Luong (general, scaled), the shipped size (embed 192, hidden 384, dropout 0.3,
# label smoothing 0.1), seed 0, one thread, one epoch over every third pair of fra.txt (55,710
# pairs: a third of an epoch of the full corpus, where the shipped recipe's sink had formed in
# its history), 30% of pairs joined, no swapping. They differ only in the flags after the name.
# About 6 minutes a run with native bf16; two run at a time on a 2-core machine.
set -euo pipefail
corpus=${1:?usage: benchmarks/experiments/sink_causes.sh fra.txt WORK [HANSARDS_DIR]}
work=${2:?usage: benchmarks/experiments/sink_causes.sh fra.txt WORK [HANSARDS_DIR]}
hansards=${3:-}
mkdir -p "$work"
awk 'NR % 3 == 0' "$corpus" > "$work/fra-third.txt"
common=(--data "$work/fra-third.txt" --attention general --scaled-scores --embed 192
    --hidden 384 --dropout 0.3 --label-smoothing 0.1 --epochs 1 --threads 1 --seed 0
    --test-beam 1 --bleu-sentences 500 --probe-pairs benchmarks/quality/gold/tatoeba-test.txt
    --probe-gold benchmarks/quality/gold/tatoeba-test.align)
runs=(
    "joint-tied --joint-subwords --tie-embeddings"                       # the shipped recipe
    "separate"                                                           # the earlier recipe
    "joint-untied --joint-subwords"                                      # one vocabulary, untied
    "joint-tied-specials --joint-subwords --tie-embeddings --untied-specials"  # own <eos> row
    "joint-tieout --joint-subwords --tie-output"                         # output tied only
    "separate-tieout --tie-output"                                       # the same, two vocabularies
    "joint-projected --joint-subwords --output-projection"               # a tied layer's shape, untied
    "separate-projected --output-projection"                             # the same, two vocabularies
)
for run in "${runs[@]}"; do
    read -r name flags <<< "$run"
    # shellcheck disable=SC2086  # the flags are words
    python -m attnviz train "${common[@]}" $flags --out "$work/luong-$name.safetensors" \
        > "$work/luong-$name.log" 2>&1 &
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
done
wait
python benchmarks/quality/sinks.py "$work"/luong-*.safetensors ${hansards:+--hansards "$hansards"}
