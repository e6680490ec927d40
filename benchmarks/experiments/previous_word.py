"""Does the attention query know the word just written? Attention against eflomal's links, by
how sure the model was of the previous word.

    python benchmarks/experiments/previous_word.py --data fra.txt [--sentences 600] [--greedy]
        [--priors checkpoints/eflomal-priors.txt.gz] CHECKPOINT ...

Bahdanau attends with s_{t-1}, the state before the word y_{t-1} is read; Luong attends with
h_t, after it. For each held-out test pair (spread over the test split, as the Corpus page
takes them), each model is force-decoded on the first reference (or, with ``--greedy``, on its
own greedy translation); eflomal links each pair's words (grow-diag-final-and, with the priors
shipped). A target word with links counts as hit when its attention argmax (over source words,
``<eos>`` left out) is one of them. Hits are reported for the first word and by the probability
the model gave the previous word: where that word was a surprise, a query that has not read it
does not know where the translation has got to.
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np
import torch

import attnviz
from attnviz.analysis.compare_models import held_out_items
from attnviz.analysis.eflomal_aligner import EflomalAligner
from attnviz.store.priors_file import load_priors

BINS = (0.0, 0.5, 0.9, 1.01)  # the previous word's probability: surprise, likely, sure


def hits(trace, links) -> list[tuple[float, bool]]:
    """(probability of the previous word, 2.0 for the first word; argmax on a link) for each
    linked target word of ``trace``."""
    linked: dict[int, set[int]] = {}
    for i, j in links:
        linked.setdefault(j, set()).add(i)
    return [
        (float(trace.probs[j - 1]) if j else 2.0, int(np.argmax(trace.weights[j][:-1])) in src)
        for j, src in sorted(linked.items())
    ]


def row(name: str, found: list[tuple[float, bool]]) -> str:
    cells = [f"{np.mean([ok for _, ok in found]):.1%} ({len(found)})"]
    groups = [[ok for p, ok in found if p == 2.0]]
    groups += [[ok for p, ok in found if lo <= p < hi] for lo, hi in itertools.pairwise(BINS)]
    cells += [f"{np.mean(g):.1%} ({len(g)})" if g else "–" for g in groups]
    return f"| {name} | " + " | ".join(cells) + " |"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoints", nargs="+")
    p.add_argument("--data", required=True, help="the corpus the checkpoints were trained on")
    p.add_argument("--sentences", type=int, default=600)
    p.add_argument("--greedy", action="store_true", help="each model's own translation")
    p.add_argument("--priors", default="checkpoints/eflomal-priors.txt.gz")
    args = p.parse_args()
    torch.set_num_threads(1)
    aligner = EflomalAligner(load_priors(args.priors))
    print(f"| checkpoint ({'greedy' if args.greedy else 'forced on the reference'}) | all "
          "| first word | previous word p < 0.5 | 0.5 ≤ p < 0.9 | p ≥ 0.9 |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for path in args.checkpoints:
        tr = attnviz.load(path, precision="fp32")
        items = held_out_items(args.data, tr.data, args.sentences)
        if args.greedy:
            traces = [t for t in map(tr.translate, (it.source for it in items)) if t.ended]
        else:
            traces = [tr.align(it.source, it.references[0]) for it in items]
        pairs = [(t.src_tokens[:-1], t.tgt_tokens[:-1]) for t in traces]
        links = [a.links("symmetric") for a in aligner.link_many(pairs)]
        found = [h for t, a in zip(traces, links, strict=True) for h in hits(t, a)]
        print(row(path.rsplit("/", 1)[-1].removesuffix(".safetensors"), found), flush=True)


if __name__ == "__main__":
    main()
