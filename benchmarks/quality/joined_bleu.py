"""BLEU on long inputs: held-out test pairs joined two or three at a time.

    python benchmarks/quality/joined_bleu.py --data ../shared/data/fra-eng/fra.txt \\
        checkpoints/*.safetensors

Tatoeba's sentences are short (6 words on average), so a model can score well on its test split
and still lose its place in the sentence people paste from a paper or a news page. This joins
consecutive test sources (after a seeded shuffle) two, then three, then two ... at a time, with
their first references joined the same way, and scores greedy output with sacreBLEU against that
one reference. For comparison it also scores the same sentences one by one against their first
reference. The split is the one each checkpoint records, so no joined sentence was trained on.
"""

from __future__ import annotations

import argparse
import random

from attnviz import load
from attnviz.analysis.evaluate import bleu
from attnviz.data.corpus import held_out, read_corpus


def joined_items(sources, refs, items: int, seed: int = 0):
    """``items`` (source, reference) pairs, each two or three test pairs joined by a space."""
    order = list(range(len(sources)))
    random.Random(seed).shuffle(order)
    joined, k = [], 0
    while len(joined) < items and k < len(order):
        size = 2 + len(joined) % 2
        group = order[k : k + size]
        k += size
        joined.append((" ".join(sources[i] for i in group), " ".join(refs[i][0] for i in group)))
    return joined, order[:k]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--data", required=True, help="the corpus the checkpoints were trained on")
    ap.add_argument("--items", type=int, default=400, help="joined inputs to score")
    ap.add_argument("--seed", type=int, default=0, help="the shuffle before joining")
    ap.add_argument("--beam", type=int, default=1, help="beam width (1: greedy)")
    ap.add_argument("--coverage", type=float, default=0.0, help="beam search's coverage penalty")
    args = ap.parse_args()
    corpus = read_corpus(args.data)
    print(
        "| checkpoint | joined: BLEU | words per input | outputs that loop or hit the length "
        "cap | the same sentences one by one: BLEU |"
    )
    print("|---|---|---|---|---|")
    for path in args.checkpoints:
        tr = load(path)
        sources, refs = held_out(corpus, tr.data.valid_percent, tr.data.test_percent)
        joined, used = joined_items(sources, refs, args.items, args.seed)
        options = dict(beam=args.beam, beta=args.coverage)
        traces = tr.translate_each([s for s, _ in joined], **options)
        hyps = [getattr(t, "text", "") for t in traces]
        remarked = sum(bool(t.warning()) for t in traces if hasattr(t, "warning"))
        long_bleu, signature = bleu(hyps, [[r] for _, r in joined])
        single = tr.translate_each([sources[i] for i in used], **options)
        single = [getattr(t, "text", "") for t in single]
        short_bleu, _ = bleu(single, [[refs[i][0]] for i in used])
        words = sum(len(s.split()) for s, _ in joined) / len(joined)
        print(f"| {path} | {long_bleu:.2f} | {words:.1f} | {remarked} | {short_bleu:.2f} |")
    print(
        f"\n{len(joined)} joined inputs from {len(used)} test sentences, seed {args.seed}, "
        f"beam {args.beam}, coverage {args.coverage}, {tr.precision}; {signature}"
    )


if __name__ == "__main__":
    main()
