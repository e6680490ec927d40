"""How long ``attnviz corpus`` takes to answer, on the shipped corpus indexes.

    python benchmarks/speed/corpus_lookup_speed.py checkpoints/luong-pieces.safetensors \\
        checkpoints/luong-zh-en.safetensors checkpoints/luong-en-zh.safetensors

For each model, words drawn from its own training split's sources as a reader meets them (each
token of a random training pair, so common words come often) and as a dictionary lists them
(each distinct word once, so rare words dominate), looked up alone, with the word eflomal
links them to most (``--target``), and two in a row (a phrase); the index opened once, warm
(the first query of a process also loads jieba and SQLite's pages). Prints the median, 90th
percentile and slowest time of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from attnviz.store.checkpoint import read_settings
from attnviz.store.corpus_index import CARD_KEY, CorpusIndex, source_column
from attnviz.store.corpus_lookup import Lookup


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def summary(times: list[float]) -> str:
    times = sorted(times)
    p90 = times[int(0.9 * (len(times) - 1))]
    return f"median {statistics.median(times):6.2f}  p90 {p90:6.2f}  max {times[-1]:7.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--words", type=int, default=300, help="words drawn per kind")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for path in args.checkpoints:
        card, text, data = read_settings(path)
        index = CorpusIndex(Path(path).parent / card[CARD_KEY]["file"])
        lookup = Lookup(index, text, data)
        source, _ = source_column(data)
        rows = index._db.execute(
            f"SELECT {source}_tokens FROM pairs WHERE split_{source} = 0"
        ).fetchall()
        sentences = [r[0].split(" ") for r in rows]
        rng = random.Random(args.seed)
        running = [rng.choice(rng.choice(sentences)) for _ in range(args.words)]
        types = sorted({t for s in sentences for t in s})
        listed = rng.sample(types, min(args.words, len(types)))
        phrases = []
        while len(phrases) < args.words:
            s = rng.choice(sentences)
            if len(s) > 1:
                i = rng.randrange(len(s) - 1)
                phrases.append(s[i : i + 2])
        lookup.word("warm", "warm")  # loads both sides' tokenizers (jieba: a second)
        print(f"{Path(path).stem} ({index.path.name}, {len(sentences)} training pairs)")
        report(lookup, {"running text": running, "dictionary": listed}, phrases)


def report(lookup: Lookup, kinds: dict[str, list[str]], phrases: list[list[str]]) -> None:
    """Time the lookups of each kind of words, alone and with their most linked target."""
    for name, words in kinds.items():
        alone = [timed(lambda w=w: lookup.tokens([w])) for w in words]
        print(f"  {name:<18} word    {summary(alone)}")
        targets = []
        for w in words:
            links = lookup.tokens([w], limit=0).links
            if links:
                targets.append((w, links[0].target))
        linked = [timed(lambda w=w, t=t: lookup.word(w, t)) for w, t in targets]
        print(f"  {name:<18} target  {summary(linked)}")
    two = [timed(lambda p=p: lookup.tokens(p)) for p in phrases]
    print(f"  {'two words in a row':<18} phrase  {summary(two)}")


if __name__ == "__main__":
    main()
