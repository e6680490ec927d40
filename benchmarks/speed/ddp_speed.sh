#!/usr/bin/env bash
# Training tokens/s of one process against torchrun's DistributedDataParallel, on a slice of a
# corpus (every EVERY-th line, so that all lengths are in it; one epoch, a few hundred steps):
#   benchmarks/speed/ddp_speed.sh ../shared/data/fra-eng/fra.txt [EVERY]
# Runs `train --epochs 1` as 1 process with 1 thread, 1 process with 2 threads, and torchrun
# with 2 processes of 1 thread each (gloo), and prints each run's "epoch 1: ... tokens/s" line:
# target tokens trained per second, snapshots and validation left out. With DEVICE=cuda (and
# NPROC, the GPUs to use) it times `--device cuda` alone and under torchrun instead.
# Run it on an otherwise idle machine.
set -euo pipefail
data=${1:?usage: benchmarks/speed/ddp_speed.sh CORPUS [EVERY]}
every=${2:-8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v k="$every" 'NR % k == 0' "$data" > "$work/slice.txt"
common=(train --data "$work/slice.txt" --attention bahdanau --epochs 1 --probe-sentences 0
        --bleu-sentences 100 --test-beam 1 --valid-percent 1 --test-percent 1)
torchrun="python -m torch.distributed.run --standalone --nproc_per_node"
run() {  # NAME "LAUNCHER" "OPTIONS": one run, its corpus and speed lines
    echo "== $1"
    # shellcheck disable=SC2086  # the launcher and options are words
    $2 "${common[@]}" $3 --out "$work/$1.safetensors" 2>&1 | tr '\r' '\n' | grep -E "pairs|epoch 1:"
}
if [[ "${DEVICE:-cpu}" == cuda ]]; then
    run cuda-alone "python -m attnviz" "--device cuda"
    run cuda-torchrun "$torchrun ${NPROC:-1} -m attnviz" "--device cuda"
else
    run one-process-1-thread "python -m attnviz" "--threads 1"
    run one-process-2-threads "python -m attnviz" "--threads 2"
    OMP_NUM_THREADS=1 run torchrun-2x1-thread "$torchrun 2 -m attnviz" "--threads 1"
fi
