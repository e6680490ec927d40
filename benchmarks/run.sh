#!/usr/bin/env bash
# Every speed figure of the README's "Performance" section, in one run on one machine:
#   benchmarks/run.sh ../shared/data/fra-eng/fra.txt ../shared/peers/d2l_peer.py [PEER_PYTHON]
# PEER_PYTHON is the Python of the peer's own environment (default ~/venv-d2l/bin/python, set up
# as ../shared/peers/README.md says). STEPS (default 30) sets the timed training steps;
# VALID_STEPS (default 200) the steps after which fp32 and bf16 runs compare validation loss.
# Run it on an otherwise idle machine: two processes that each use both cores slow each other
# down many times over.
set -euo pipefail
data=${1:?usage: benchmarks/run.sh CORPUS PEER_SCRIPT [PEER_PYTHON]}
peer=${2:?usage: benchmarks/run.sh CORPUS PEER_SCRIPT [PEER_PYTHON]}
peer_python=${3:-$HOME/venv-d2l/bin/python}
here=$(dirname "$0")
steps=${STEPS:-30}

echo "== peer (d2l.ai)"
"$peer_python" "$peer" "$data" --steps "$steps"
for precision in fp32 bf16; do
    for model in "bahdanau" "general" "general --no-input-feeding"; do
        echo "== attnviz $model --precision $precision"
        # shellcheck disable=SC2086  # $model is two words on purpose
        python "$here/speed.py" --data "$data" --attention $model --precision "$precision" \
            --steps "$steps"
    done
done

valid_steps=${VALID_STEPS:-200}
for model in "bahdanau" "general" "general --no-input-feeding"; do
    for precision in fp32 bf16; do
        echo "== validation loss after $valid_steps steps: attnviz $model --precision $precision"
        # shellcheck disable=SC2086
        python "$here/speed.py" --data "$data" --attention $model --precision "$precision" \
            --steps "$valid_steps" --warmup 0 --valid-loss --repeats 1
    done
done
