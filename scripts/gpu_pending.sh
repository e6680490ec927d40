#!/usr/bin/env bash
# The training runs still pending for issue 80, for a lent GPU (one H100 or H200): each run's
# command as it would run on one CPU thread, on --device cuda with a larger batch, bounded by
# --minutes so that all of them end within one 10-minute call. The checkpoints come back in
# $OUT (the device tool fetches at most 8 files of 16 MiB each); nothing else is written there.
#
# Before the call, here: the corpora the runs read, in an ignored folder that the call carries
# (the device machine has no ../shared):
#     mkdir -p runs/gpu
#     python -m attnviz dialogue ../shared/data/dailydialog-zh-en --out runs/gpu/dialogue.tsv
#     cat ../shared/data/cmn-eng/cmn.txt runs/gpu/dialogue.tsv > runs/gpu/cmn-dialogue.txt
# then run it with carry ["runs/gpu", ".venv"] (or install requirements.txt there first):
#     bash scripts/gpu_pending.sh runs/gpu
# What comes back is a candidate, measured here before it is committed
# (benchmarks/quality/typed_sets.py), never committed as it comes.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: scripts/gpu_pending.sh DATA_DIR (holding cmn-dialogue.txt)}
out=${OUT:?the device tool sets OUT}
corpus="$data/cmn-dialogue.txt"
[ -f "$corpus" ] || { echo "no $corpus: see this script's header" >&2; exit 2; }
license='CC BY-NC-SA 4.0 (XDailyDialog and DailyDialog); CC-BY 2.0 FR (Tatoeba)'
credit='Tatoeba (tatoeba.org, via manythings.org/anki) and XDailyDialog (Liu et al. 2023) on DailyDialog (Li et al. 2017)'
run() {  # NAME MINUTES TRAIN-OPTIONS...: one run, its log beside its checkpoint
    local name=$1 minutes=$2
    shift 2
    python -m attnviz train "$@" --data "$corpus" --device cuda --batch-size 128 \
        --minutes "$minutes" --half --license "$license" --attribution "$credit" --seed 0 \
        --out "$out/$name.safetensors" 2>&1 | tr '\r' '\n' | grep -v 'batch/s' > "$out/$name.log"
    rm -f "$out/$name.safetensors.state"
}
# The English -> Chinese pair, fine-tuned as the Chinese -> English pair was (docs/checkpoints.md).
for kind in bahdanau luong; do
    run "$kind-en-zh" 2 --init-from "checkpoints/$kind-en-zh.safetensors" --add-pieces 1000 \
        --dropout 0.3 --label-smoothing 0.1 --epochs 6 --schedule linear --lr 5e-4 --warmup 0.3
done
# The fixed-context models: Chinese -> English fine-tuned, English -> Chinese from scratch.
run encdec-zh-en 2 --init-from checkpoints/encdec-zh-en.safetensors --add-pieces 1000 \
    --dropout 0.3 --label-smoothing 0.1 --epochs 6 --schedule linear --lr 5e-4 --warmup 0.3
run encdec-en-zh 3 --attention none --src-lang en --tgt-lang zh --subwords 5000 --embed 192 \
    --hidden 384 --dropout 0.3 --label-smoothing 0.1 --epochs 20 --schedule linear --lr 1e-3 \
    --warmup 0.5
ls -l "$out"
