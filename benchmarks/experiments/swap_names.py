"""A corpus where names and numbers vary: each training pair that carries a name or a number
through verbatim is added again with them swapped for new ones, the same on both sides
(`attnviz.data.swap.swap_pair`; `train --swap-fraction` does it afresh each epoch instead).

    python benchmarks/experiments/swap_names.py fra.txt swapped.txt [--copies 1] [--seed 0]

Tatoeba's names are nearly all "Tom" and "Mary", and it has few numbers, so a model learns to
translate them, not to copy them. In the swapped copies a capitalised word found verbatim on
both sides becomes a name of random syllables (as the toy ``names`` language makes them), and a
number becomes a random number of as many digits, so copying is what the data asks for. Only
pairs of the training split are copied (`attnviz.data.corpus.split_of`, default percentages), so the
held-out sentences stay unseen; the original lines come first, unchanged.
"""

from __future__ import annotations

import argparse
import random

from attnviz.data.corpus import read_corpus, split_of
from attnviz.data.swap import swap_pair


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("out")
    ap.add_argument("--copies", type=int, default=1, help="swapped copies of each pair")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pairs = read_corpus(a.corpus).pairs
    added = 0
    with open(a.out, "w", encoding="utf-8") as f:
        f.writelines(f"{s}\t{t}\n" for s, t in pairs)
        for s, t in pairs:
            if split_of(s) != "train":
                continue
            for _ in range(a.copies):
                pair = swap_pair(s, t, rng)
                if pair:
                    f.write(f"{pair[0]}\t{pair[1]}\n")
                    added += 1
    print(f"{a.out}: {len(pairs)} pairs and {added} swapped copies")


if __name__ == "__main__":
    main()
