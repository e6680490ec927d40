#!/usr/bin/env bash
# The natural pair retrained from scratch with a joint vocabulary of 16,000 pieces, read whole
# where 8,000 split "Hello" into "He llo" (issue 37; docs/alignment.md, "Retrained with 16,000
# pieces"). Made for one GPU within a fixed time: a tiny smoke run of both models, a speed probe
# of both at once (benchmarks/experiments/train_step_speed.py), then both runs side by side with as many
# epochs as the time left allows (at most 10), each ended by DEADLINE whatever happens.
#
#   DEADLINE=570 DEVICE=cuda benchmarks/experiments/retrain_16k.sh fra.txt WORK
#
# DEADLINE: seconds from the start by which both runs end. On an H200 on 2026-11-27 (two runs
# sharing the GPU: 44 ms an update for Luong, 53 for Bahdanau) it gave 4 and 3 epochs; both
# were then continued for two more with --init-from (lr 5e-4 falling linearly to 0, seed 1).
set -uo pipefail
corpus=${1:?usage: benchmarks/experiments/retrain_16k.sh fra.txt WORK}
work=${2:?usage: benchmarks/experiments/retrain_16k.sh fra.txt WORK}
deadline=${DEADLINE:-570}
device=${DEVICE:-cuda}
start=$(date +%s)
mkdir -p "$work"
common=(--joint-subwords --output-projection --swap-fraction 3 --tatoeba --half --dropout 0.3
    --label-smoothing 0.1 --batch-size 128 --lr 2e-3 --schedule linear --test-beam 1
    --threads 4 --seed 0 --device "$device" --precision fp32
    --probe-pairs benchmarks/quality/gold/tatoeba-test.txt --probe-gold benchmarks/quality/gold/tatoeba-test.align)
luong=(--attention general --scaled-scores)
bahdanau=(--attention bahdanau --bridge backward)

# 1. smoke: the whole pipeline on 3,000 pairs and a tiny model, both attentions
head -3000 "$corpus" > "$work/smoke.txt"
for model in luong bahdanau; do
    declare -n flags=$model
    python -m attnviz train --data "$work/smoke.txt" --out "$work/smoke-$model.safetensors" \
        "${flags[@]}" "${common[@]}" --subwords 1000 --embed 32 --hidden 64 --epochs 1 \
        > "$work/smoke-$model.log" 2>&1 &
done
wait -n && wait -n || { echo "smoke run failed: see $work/smoke-*.log"; exit 1; }

# 2. speed, both at once as they will train; 1,341 updates an epoch (fra.txt, batches of 128),
# 15 s of snapshot an epoch, 165 s to prepare and finish, 1.15 for the real lengths
python benchmarks/experiments/train_step_speed.py general "$device" 60 > "$work/ms-luong" &
python benchmarks/experiments/train_step_speed.py bahdanau "$device" 60 > "$work/ms-bahdanau"
wait
left=$(( deadline - $(date +%s) + start ))
epochs() {
    python -c 'import sys; ms, left = map(float, sys.argv[1:]); print(max(2, min(10, int((left - 165) / (1341 * ms / 1000 * 1.15 + 15)))))' "$1" "$left"
}

# 3. both runs, side by side
for model in luong bahdanau; do
    declare -n flags=$model
    n=$(epochs "$(cat "$work/ms-$model")")
    echo "$model: $(cat "$work/ms-$model") ms an update, $n epochs"
    timeout "$left" python -m attnviz train --data "$corpus" \
        --out "$work/$model-pieces.safetensors" "${flags[@]}" "${common[@]}" \
        --subwords 16000 --embed 192 --hidden 384 --epochs "$n" > "$work/$model.log" 2>&1 &
done
wait
echo "ended after $(( $(date +%s) - start )) s"
