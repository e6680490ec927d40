"""Joint subwords and tied embeddings, proved cheaply: tiny models on the toy ``names``
language, where every sentence carries a name and a number through unchanged.

    python benchmarks/experiments/copy_toy.py [--pairs 3000] [--epochs 6] [--seeds 0 1 2]

Trains, at the same budget and seed, the separate-vocabulary recipe (one sentencepiece model
per language, as the first subword checkpoints), one joint vocabulary, and one joint vocabulary
with tied embeddings, then reports held-out BLEU and the share of names and numbers each writes
verbatim (``attnviz.analysis.evaluate.copy_rate``). Held-out names are mostly never seen in
training: they are drawn from random syllables.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import torch

from attnviz import load
from attnviz.analysis.evaluate import bleu, copy_rate
from attnviz.data import toy
from attnviz.data.corpus import DataConfig, held_out, read_corpus
from attnviz.data.text import TextConfig
from attnviz.model.model_config import ModelConfig
from attnviz.training.config import TrainConfig, TrainingRun
from attnviz.training.train import train

RECIPES = {  # name: (data options, model options)
    "separate": ({}, {}),
    "joint": ({"joint_subwords": True}, {}),
    "joint, tied": ({"joint_subwords": True}, {"tie_embeddings": True}),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=3000)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--attention", default="general")
    ap.add_argument("--subwords", type=int, default=500, help="pieces per vocabulary")
    ap.add_argument("--lr", type=float, default=0.005)
    ap.add_argument("--recipes", nargs="+", default=list(RECIPES), choices=list(RECIPES))
    a = ap.parse_args()
    torch.set_num_threads(1)
    folder = Path(tempfile.mkdtemp())
    corpus_path = folder / "names.txt"
    toy.write_plain(corpus_path, toy.corpus(a.pairs, seed=0, language="names"))
    sources, refs = held_out(read_corpus(corpus_path), 2.0, 2.0)
    print("| recipe | seed | held-out BLEU | numbers copied | names copied | seconds |")
    print("|---|---|---|---|---|---|")
    for seed in a.seeds:
        for name in a.recipes:
            data, model = RECIPES[name]
            t0 = time.perf_counter()
            out = folder / f"{name}-{seed}.safetensors"
            run = TrainingRun(
                corpus_path,
                out,
                ModelConfig(attention=a.attention, embed=32, hidden=64, dropout=0.1, **model),
                TextConfig(),
                DataConfig(subwords=a.subwords, **data),
                TrainConfig(epochs=a.epochs, lr=a.lr, seed=seed, test_beam=0, join_fraction=0),
            )
            train(run, log=lambda *_: None)
            outputs = [t.text for t in load(out).translate_batch(sources)]
            score, _ = bleu(outputs, refs)
            copied = copy_rate(sources, outputs, refs)
            print(
                f"| {name} | {seed} | {score:.1f} | {copied.share('numbers'):.0f}% of "
                f"{copied.wanted['numbers']} | {copied.share('names'):.0f}% of "
                f"{copied.wanted['names']} | {time.perf_counter() - t0:.0f} |",
                flush=True,
            )
    print(
        f"\n{a.pairs} pairs, {len(sources)} held out, {a.epochs} epochs, lr {a.lr}, {a.attention}"
    )


if __name__ == "__main__":
    main()
