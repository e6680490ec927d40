#!/usr/bin/env bash
# AER of links read off attention and off each attribution method, for the README's table:
#   benchmarks/quality/aer_attribution.sh HANSARDS_DIR [CHECKPOINT ...]   (default: checkpoints/*.safetensors)
#
# Scores the 25 hand-aligned Tatoeba sentences in benchmarks/quality/gold/ and the 37 Hansards
# sentences in HANSARDS_DIR (hansards.e/.f/.a, see benchmarks/quality/aer_hansards.sh, which writes
# HANSARDS_DIR/pairs.txt). Integrated gradients take most of the time (some minutes a model on
# the long Hansards sentences, on two cores); THREADS=1 keeps a shared machine usable.
set -euo pipefail
dir=${1:?usage: benchmarks/quality/aer_attribution.sh HANSARDS_DIR [CHECKPOINT ...]}
shift
[ "$#" -gt 0 ] || set -- checkpoints/*.safetensors
[ -f "$dir/pairs.txt" ] ||
    paste -d '\t' "$dir/hansards.e" "$dir/hansards.f" | sed 's/\t/ ||| /' > "$dir/pairs.txt"
export OMP_NUM_THREADS=${THREADS:-2}
methods=(saliency integrated_gradients erasure)
for checkpoint in "$@"; do
    name=$(basename "$checkpoint" .safetensors)
    echo "== $name, Tatoeba test (25 sentences)"
    python -m attnviz evaluate "$checkpoint" --pairs benchmarks/quality/gold/tatoeba-test.txt \
        --gold benchmarks/quality/gold/tatoeba-test.align --attribution "${methods[@]}"
    echo "== $name, Hansards (37 sentences)"
    python -m attnviz evaluate "$checkpoint" --pairs "$dir/pairs.txt" --gold "$dir/hansards.a" \
        --reverse-gold --attribution "${methods[@]}"
done
