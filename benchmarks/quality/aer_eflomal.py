"""eflomal beside attention: its alignment error rate on the gold alignments, and its speed.

    python benchmarks/quality/aer_eflomal.py --data fra.txt \\
        [--priors checkpoints/eflomal-priors.txt.gz]
        [--hansards DIR] [--repeats 3] [--rebuild]

Loads the priors (or, when the file is missing, made from another corpus, or ``--rebuild``
is given, builds them from the training split of ``--data`` and saves them there), then
prints eflomal's AER (forward, reverse, grow-diag-final-and) on ``benchmarks/quality/gold/`` (25
held-out Tatoeba sentences) and, with ``--hansards``, on the 37 Hansards sentences that
``benchmarks/quality/aer_hansards.sh`` describes. Each figure is the mean of ``--repeats`` runs
(eflomal samples), with the lowest and highest, for two ways of aligning: every sentence of
a test set in one run of eflomal (as ``attnviz align --source eflomal`` aligns a file) and
each sentence alone (as the dashboard aligns a typed one). Then the time to load the priors
and to align one sentence alone.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from pathlib import Path

from attnviz.analysis.aer import read_gold_of_pairs, read_pairs, score
from attnviz.analysis.eflomal_aligner import DIRECTIONS, EflomalAligner, build_priors
from attnviz.analysis.eflomal_priors import mismatch
from attnviz.data.corpus import read_corpus
from attnviz.store.priors_file import PriorsError, load_priors, read_meta, save_priors

GOLD = Path(__file__).parent / "gold"


def priors_for(data: str, path: Path, rebuild: bool):
    """The priors at ``path`` if they are ``data``'s, else built from ``data`` and saved."""
    corpus = read_corpus(data)
    if path.is_file() and not rebuild:
        try:
            if read_meta(path)["corpus"]["sha256"] == corpus.sha256:
                start = time.perf_counter()
                priors = load_priors(path)
                print(f"loaded {path} in {time.perf_counter() - start:.2f} s")
                return priors
            print(f"{path}: made from another corpus; rebuilding")
        except PriorsError as e:
            print(f"{e}; rebuilding")
    start = time.perf_counter()
    command = shlex.join(["python", *sys.argv])
    priors = build_priors(corpus, command=command)
    print(
        f"built priors from {priors.meta['corpus']['train_pairs']} training pairs in "
        f"{time.perf_counter() - start:.0f} s"
    )
    size = save_priors(priors, path)
    print(f"saved {path}: {size / 1e6:.2f} MB, {priors.counts()}")
    return priors


def test_sets(hansards: str | None) -> dict[str, tuple[list, list]]:
    """name -> (pairs, gold) of each gold test set."""
    pairs = read_pairs(GOLD / "tatoeba-test.txt")
    sets = {"Tatoeba test": (pairs, read_gold_of_pairs(GOLD / "tatoeba-test.align", False, pairs))}
    if hansards:
        folder = Path(hansards)
        english = (folder / "hansards.e").read_text(encoding="utf-8").splitlines()
        french = (folder / "hansards.f").read_text(encoding="utf-8").splitlines()
        pairs = list(zip(english, french, strict=True))
        sets["Hansards"] = (
            pairs,
            read_gold_of_pairs(folder / "hansards.a", True, pairs),
        )  # f-e links
    return sets


def aer_runs(priors, pairs, gold, repeats: int, alone: bool) -> dict[str, list[float]]:
    """AER per direction over ``repeats`` runs, each with an empty cache."""
    runs: dict[str, list[float]] = {d: [] for d in DIRECTIONS}
    for _ in range(repeats):
        aligner = EflomalAligner(priors)
        if alone:
            alignments = [aligner.link_words([pair])[0] for pair in pairs]
        else:
            alignments = aligner.link_words(pairs)
        for d in DIRECTIONS:
            runs[d].append(score(gold, [set(a.links(d)) for a in alignments]).aer)
    return runs


def timing(priors, pairs) -> list[float]:
    """Milliseconds to align each pair alone, as the dashboard does (tokenizing included)."""
    aligner = EflomalAligner(priors)
    aligner.link_text("Hello.", "Bonjour.")  # the tokenizers' first use is not timed
    times = []
    for source, target in pairs:
        start = time.perf_counter()
        aligner.link_text(source, target)
        times.append(1000 * (time.perf_counter() - start))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True, help="the corpus the models were trained on")
    parser.add_argument("--priors", default="checkpoints/eflomal-priors.txt.gz")
    parser.add_argument("--hansards", help="folder of hansards.{e,f,a} (aer_hansards.sh)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure")
    parser.add_argument("--rebuild", action="store_true", help="build the priors again")
    args = parser.parse_args()

    priors = priors_for(args.data, Path(args.priors), args.rebuild)
    card = {"corpus": {"sha256": read_corpus(args.data).sha256}}
    print(f"model card and priors agree: {mismatch(priors, card) is None}")
    print("\nAER (%, lower is better): mean [lowest, highest] of", args.repeats, "runs")
    sets = test_sets(args.hansards)
    for name, (pairs, gold) in sets.items():
        for alone in (False, True):
            runs = aer_runs(priors, pairs, gold, args.repeats, alone)
            how = "each sentence alone" if alone else "all in one run"
            figures = "  ".join(
                f"{d} {statistics.mean(r):5.1f} [{min(r):.1f}, {max(r):.1f}]"
                for d, r in runs.items()
            )
            print(f"{name:<13} {how:<20} {figures}  ({len(pairs)} pairs)")
    print()
    for name, (pairs, _) in sets.items():
        ms = timing(priors, pairs)
        print(
            f"one {name} sentence alone, uncached: median {statistics.median(ms):.0f} ms, "
            f"slowest {max(ms):.0f} ms ({len(ms)} pairs)"
        )


if __name__ == "__main__":
    main()
