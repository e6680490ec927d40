"""Issue 50's targets for a fixed-context model, measured, and with --write-card kept in its card.

    python benchmarks/experiments/fixed_context_targets.py --data fra.txt \\
        --table checkpoints/why-attention-en-fr.json [--write-card] \\
        checkpoints/encdec-pieces.safetensors checkpoints/luong-pieces.safetensors \\
        checkpoints/bahdanau-pieces.safetensors

1. A real model, not a straw man: greedy fp32 BLEU on the test split's sentences of at most 10
   words, every reference of a sentence used (as the card's test BLEU), for the fixed-context
   model (the first checkpoint) and each attention model: it should be within 10 points.
2. What attention fixes: from the table of ``evaluate --by-length`` (same inputs for every
   model), each attention model's BLEU over the fixed-context model's in every bucket of 41
   words and more: it should be at least 1.5 in each.

``--write-card`` records both under ``targets`` in the fixed-context model's card, rewriting
only its metadata (the weights are copied as they are). That changes the file's sha256, so make
the shipped table again afterwards: BLEU comes out the same, the table's digests current.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from attnviz import load
from attnviz.analysis.evaluate import corpus_bleu
from attnviz.data.corpus import held_out, read_corpus
from attnviz.store.by_length_file import load_result
from attnviz.store.checkpoint import read_tensors, write_tensors

SHORT = 10  # words: "sentences people type"
LONG = 41  # words: the first bucket of joined inputs "of 40 words and more" past 40


def short_bleu(paths: list[str], data: str) -> dict[str, float]:
    """Greedy fp32 BLEU of each model on the test sentences of at most SHORT words."""
    first = load(paths[0], precision="fp32")
    corpus = read_corpus(data, first.data.source_column)
    sources, refs = held_out(corpus, first.data.valid_percent, first.data.test_percent, "test")
    keep = [i for i, s in enumerate(sources) if len(s.split()) <= SHORT]
    picked, picked_refs = [sources[i] for i in keep], [refs[i] for i in keep]
    return {
        Path(p).stem: corpus_bleu(load(p, precision="fp32"), picked, picked_refs).score
        for p in paths
    } | {"sentences": len(keep)}


def long_ratios(table: str, fixed: str) -> dict[str, dict[str, float]]:
    """Per attention model, its BLEU over the fixed model's in each bucket from LONG words."""
    result = load_result(table)
    scores = {m.name: m for m in result.models}
    base = scores[fixed]
    ratios = {}
    for name, model in scores.items():
        if name == fixed:
            continue
        ratios[name] = {
            bucket.label: round(b.bleu / a.bleu, 2)
            for bucket, a, b in zip(result.buckets, base.buckets, model.buckets, strict=True)
            if bucket.low >= LONG and a.bleu
        }
    return ratios


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+", help="the fixed-context model first")
    ap.add_argument("--data", required=True, help="the corpus the checkpoints were trained on")
    ap.add_argument("--table", required=True, help="evaluate --by-length --json of them")
    ap.add_argument("--write-card", action="store_true", help="keep the figures in its card")
    args = ap.parse_args()
    fixed = Path(args.checkpoints[0]).stem
    short = short_bleu(args.checkpoints, args.data)
    ratios = long_ratios(args.table, fixed)
    targets = {
        f"test_bleu_up_to_{SHORT}_words": short,
        f"bleu_ratio_from_{LONG}_words": ratios,
        "measured_by": "benchmarks/experiments/fixed_context_targets.py (greedy, fp32)",
    }
    print(json.dumps(targets, indent=1, ensure_ascii=False))
    if args.write_card:
        tensors, meta = read_tensors(args.checkpoints[0])
        meta["card"] = {**meta["card"], "targets": targets}
        write_tensors(args.checkpoints[0], tensors, meta)
        print(f"written into the card of {args.checkpoints[0]}")


if __name__ == "__main__":
    main()
