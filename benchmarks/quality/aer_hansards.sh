#!/usr/bin/env bash
# Alignment error rate of checkpoints on public human gold alignments (English-French Hansards):
#   benchmarks/quality/aer_hansards.sh DATA_DIR [CHECKPOINT ...]      (default: checkpoints/*.safetensors)
#
# DATA_DIR holds three files of 37 lines each, the Hansards sentences aligned by Ulrich Germann
# that the JHU machine-translation course ships as its alignment data (data/hansards.{e,f,a}
# there: the first 37 lines of the e and f files, and the whole a file):
#   hansards.e   English, tokenized, one sentence per line
#   hansards.f   French, tokenized (contractions undone: "de les", "je ai")
#   hansards.a   gold links `f-e` (sure) and `f?e` (possible), 0-based, French position first
# The course's own scorer (score-alignments) gives an independent AER: feed it our links turned
# round to `f-e` (this script writes them to DATA_DIR/NAME.fe) and compare.
set -euo pipefail
dir=${1:?usage: benchmarks/quality/aer_hansards.sh DATA_DIR [CHECKPOINT ...]}
shift
[ "$#" -gt 0 ] || set -- checkpoints/*.safetensors
paste -d '\t' "$dir/hansards.e" "$dir/hansards.f" | sed 's/\t/ ||| /' > "$dir/pairs.txt"
for checkpoint in "$@"; do
    name=$(basename "$checkpoint" .safetensors)
    echo "== $name"
    python -m attnviz evaluate "$checkpoint" --pairs "$dir/pairs.txt" --gold "$dir/hansards.a" \
        --reverse-gold
    # The default links (argmax), turned round to f-e for the course's scorer.
    python -m attnviz align "$checkpoint" < "$dir/pairs.txt" |
        awk '{s = ""; for (k = 1; k <= NF; k++) { split($k, p, "-"); s = s (k > 1 ? " " : "") p[2] "-" p[1] } print s}' \
        > "$dir/$name.fe"
    python -m attnviz aer --gold "$dir/hansards.a" --hyp "$dir/$name.fe" | grep AER
done
