#!/usr/bin/env bash
# Every speed figure of the README's "Performance" section, in one run on one machine:
#   benchmarks/speed/run.sh ../shared/data/fra-eng/fra.txt ../shared/peers/d2l_peer.py [PEER_PYTHON]
# PEER_PYTHON is the Python of the peer's own environment (default ~/venv-d2l/bin/python, set up
# as ../shared/peers/README.md says). Environment knobs:
#   STEPS (30)        timed training steps of each speed run
#   ROUNDS (1)        speed rounds; each runs the peer, then ours, so that ratios come from
#                     neighbouring runs on a machine whose speed drifts
#   VALID_STEPS (200) steps after which fp32 and bf16 compare validation loss; 0 skips it
#   VALID_SEEDS (0)   seeds of that comparison, e.g. "0 1": the fp32 runs of two seeds show
#                     how far the loss moves by chance
#   DECODE_THREADS    if set (e.g. 1), each `auto` model is also timed decoding on that many
#                     threads
#   DECODE_ROUNDS (0) more rounds of decoding only: the peer's greedy sentence, then each of
#                     our `auto` models', a minute apart, so that each ratio compares
#                     neighbouring runs (benchmarks/speed/ratios.py reads them off the log)
# Run it on an otherwise idle machine: two processes that each use both cores slow each other
# down many times over.
set -euo pipefail
data=${1:?usage: benchmarks/speed/run.sh CORPUS PEER_SCRIPT [PEER_PYTHON]}
peer=${2:?usage: benchmarks/speed/run.sh CORPUS PEER_SCRIPT [PEER_PYTHON]}
peer_python=${3:-$HOME/venv-d2l/bin/python}
here=$(dirname "$0")
steps=${STEPS:-30}
models=("bahdanau" "general" "general --no-input-feeding")

for round in $(seq "${ROUNDS:-1}"); do
    echo "== round $round: peer (d2l.ai)"
    "$peer_python" "$peer" "$data" --steps "$steps"
    for precision in fp32 auto; do  # plain fp32, then what `auto` picks on this machine
        for model in "${models[@]}"; do
            echo "== round $round: attnviz $model --precision $precision --decoding $precision"
            # shellcheck disable=SC2086  # $model is two words on purpose
            python "$here/speed.py" --data "$data" --attention $model --precision "$precision" \
                --decoding "$precision" --steps "$steps"
        done
    done
    for threads in ${DECODE_THREADS:-}; do
        for model in "${models[@]}"; do
            echo "== round $round: attnviz $model --precision auto, decoding on $threads thread(s)"
            # shellcheck disable=SC2086
            python "$here/speed.py" --data "$data" --attention $model --steps "$steps" \
                --decode-threads "$threads"
        done
    done
done

for round in $(seq "${DECODE_ROUNDS:-0}"); do
    echo "== decoding round $round: peer (d2l.ai)"
    "$peer_python" "$peer" "$data" --steps 1
    for model in "${models[@]}"; do
        echo "== decoding round $round: attnviz $model --precision auto"
        # shellcheck disable=SC2086
        python "$here/speed.py" --data "$data" --attention $model --steps 1 --warmup 1
    done
done

valid_steps=${VALID_STEPS:-200}
[ "$valid_steps" -gt 0 ] || exit 0
for seed in ${VALID_SEEDS:-0}; do
    for model in "${models[@]}"; do
        for precision in fp32 bf16; do
            echo "== validation loss after $valid_steps steps, seed $seed: attnviz $model" \
                "--precision $precision"
            # shellcheck disable=SC2086
            python "$here/speed.py" --data "$data" --attention $model --precision "$precision" \
                --steps "$valid_steps" --warmup 0 --valid-loss --repeats 1 --seed "$seed"
        done
    done
done
