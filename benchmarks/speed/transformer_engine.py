"""A Transformer's greedy translation through CTranslate2 against luong-pieces and against the
same Transformer stepping in torch, on typed sentences: wall-clock milliseconds (the engine runs
in threads of its own, which a thread's CPU time would not count), one intra-op thread each,
medians of the rounds, and how many translations the engine and torch write alike.

    python benchmarks/speed/transformer_engine.py [--rounds 20] [--precision auto]

Run on an otherwise idle machine; the ratios are the figures that hold.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import torch

import attnviz

ROOT = Path(__file__).resolve().parents[2]
SENTENCES = ROOT / "benchmarks" / "quality" / "short_fresh.txt"
MIDDLE = [
    "The old man bought us a newspaper and two cakes.",
    "She wants to visit her parents in Paris next summer.",
    "My brother forgot his keys at the station yesterday.",
    "We will go for a walk in the park if the weather is good tomorrow.",
    "Attention allows the decoder to look at every word of the source sentence.",
]


def typed() -> list[str]:
    """The short typed sentences of benchmarks/quality (first column) and five middle ones."""
    lines = [line.split("\t")[0].strip() for line in SENTENCES.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")] + MIDDLE


def per_sentence_ms(translator, sentences: list[str], rounds: int) -> tuple[float, list[str]]:
    """Median over ``rounds`` of the mean wall-clock ms a sentence, and the outputs."""
    texts = [translator.translate(s).text for s in sentences]  # warm: loads, the engine made
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for s in sentences:
            translator.translate(s)
        times.append((time.perf_counter() - start) / len(sentences) * 1000)
    return statistics.median(times), texts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--precision", default="auto")
    args = ap.parse_args()
    torch.set_num_threads(1)
    sentences = typed()
    folder = ROOT / "checkpoints"
    luong = attnviz.load(folder / "luong-pieces.safetensors", precision=args.precision)
    engine = attnviz.load(folder / "transformer-pieces.safetensors", precision=args.precision)
    stepping = attnviz.load(folder / "transformer-pieces.safetensors", precision=args.precision)
    stepping._by_engine = lambda prefix, edits: False  # the Transformer stepping in torch
    base, _ = per_sentence_ms(luong, sentences, args.rounds)
    fast, found = per_sentence_ms(engine, sentences, args.rounds)
    slow, stepped = per_sentence_ms(stepping, sentences, args.rounds)
    same = sum(a == b for a, b in zip(found, stepped, strict=True))
    print(f"{len(sentences)} typed sentences, {engine.precision}, one thread, median of "
          f"{args.rounds} rounds, wall-clock ms a sentence")  # fmt: skip
    print(f"luong-pieces                      {base:7.2f}")
    print(f"transformer-pieces, CTranslate2   {fast:7.2f}  ({fast / base:.2f}x luong)")
    print(f"transformer-pieces, torch steps   {slow:7.2f}  ({slow / base:.2f}x luong)")
    print(f"the same translation from both searches: {same} of {len(sentences)}")


if __name__ == "__main__":
    main()
