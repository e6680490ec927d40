"""Write the attention sinks of each checkpoint's test split into its card, as training now
does at its end, for files trained before it measured them.

    python scripts/card_sinks.py --data fra.txt checkpoints/bahdanau-words.safetensors ...

The weights are not touched; the file is rewritten atomically with the new card.
"""

from __future__ import annotations

import argparse

from attnviz import load
from attnviz.analysis.evaluate import corpus_sinks
from attnviz.data.corpus import held_out, read_corpus
from attnviz.store.checkpoint import read_tensors, write_tensors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--data", required=True, help="the corpus the checkpoints were trained on")
    a = ap.parse_args()
    corpus = read_corpus(a.data)
    for path in a.checkpoints:
        tr = load(path, precision="fp32")
        if tr.data is None:
            raise SystemExit(f"{path}: the card does not say how its data was split")
        sources, _ = held_out(corpus, tr.data.valid_percent, tr.data.test_percent)
        sinks = corpus_sinks(tr, sources)
        tensors, meta = read_tensors(path)
        meta["card"]["attention_sinks"] = sinks.card("test")
        write_tensors(path, tensors, meta)
        print(f"{path}: {sinks}")


if __name__ == "__main__":
    main()
