#!/usr/bin/env bash
# The guided-alignment weight λ (--guide-weight), swept on a small budget: one epoch over every
# 8th pair of fra.txt (20,892 pairs), fine-tuning the separate-vocabulary Luong the natural
# pair was continued from, with eflomal's links; λ = 0 is the same fine-tuning unguided. Then
# sinks, AER (Tatoeba gold, Hansards trial), validation BLEU, names and short inputs per λ.
#
#     bash benchmarks/experiments/guide_sweep.sh FRA_TXT PARENT.safetensors HANSARDS_DIR [OUT_DIR]
#
# PARENT: ../shared/models/luong.safetensors here; HANSARDS_DIR as for benchmarks/quality/sinks.py.
# Each run takes 5 to 15 minutes on one core; the table is in docs/alignment.md.
set -euo pipefail
fra=$1 parent=$2 hansards=$3 out=${4:-guide-sweep}
mkdir -p "$out"
awk 'NR % 8 == 1' "$fra" > "$out/fra-eighth.txt"
for w in 0 0.3 1 3; do
  guide=(--guide eflomal --guide-weight "$w")
  [ "$w" = 0 ] && guide=()
  python -m attnviz train --data "$out/fra-eighth.txt" --init-from "$parent" \
    --out "$out/luong-w$w.safetensors" --label-smoothing 0.1 --epochs 1 --lr 2.5e-4 \
    --threads 1 --seed 1 --test-beam 1 --bleu-sentences 400 "${guide[@]}"
done
python benchmarks/quality/sinks.py "$out"/luong-w*.safetensors --hansards "$hansards"
