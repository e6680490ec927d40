"""Where a toy trained with the command line's defaults looks (issue 51): train the
``adjectives`` toy language with ``attnviz train`` and the flags given, for each seed, and print
the card's attention sinks and the argmax AER of 100 held-out pairs forced through the model.

    python benchmarks/experiments/toy_defaults.py --attention general --seeds 1 2 3
    python benchmarks/experiments/toy_defaults.py --attention general -- --join-fraction 0
    python benchmarks/experiments/toy_defaults.py --pad-vocab 470 -- --subwords 0 --min-freq 1

The model is the issue's: embed 32, hidden 64, one layer, 8 epochs, batches of 64, rate 0.005,
one thread; every other setting is the default unless given after ``--``. ``--pad-vocab N``
adds N tokens that never occur to each word vocabulary (a control: the rows a small corpus's
sentencepiece vocabulary has and never uses). Results: docs/alignment.md, "A toy's attention
and the never-written pieces".
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from unittest import mock

import attnviz
from attnviz.analysis.aer import Gold, score
from attnviz.analysis.align import forced_words
from attnviz.cli.main import main as attnviz_main
from attnviz.data import toy
from attnviz.data.vocab import Vocab

ISSUE_COMMAND = [
    "--embed", "32", "--hidden", "64", "--layers", "1", "--epochs", "8", "--batch-size", "64",
    "--lr", "0.005", "--threads", "1",
]  # fmt: skip


def padded_build(extra: int):
    """Vocab.build that adds ``extra`` tokens no sentence holds."""
    build = Vocab.build.__func__

    def padded(cls, sentences, min_freq=1, max_size=None):
        vocab = build(cls, sentences, min_freq, max_size)
        return cls([*vocab.itos, *(f"<never{i}>" for i in range(extra))])

    return classmethod(padded)


def held_out_aer(path: Path, corpus: Path, pairs: int = 100) -> float:
    """Argmax AER of ``pairs`` toy pairs not in ``corpus``, forced through ``path``'s model."""
    tr = attnviz.load(path, precision="fp32")
    trained = {line.split("\t")[0] for line in corpus.read_text().splitlines()}
    held = [p for p in toy.corpus(3000, seed=999) if toy.written(p[0]) not in trained][:pairs]
    gold, hyps = [], []
    for pair in held:
        links = toy.written_links(pair)  # between the words forced_words links
        gold.append(Gold(links, links))
        hyps.append(set(forced_words(tr, toy.written(pair[0]), toy.written(pair[1])).links()))
    return score(gold, hyps).aer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--attention", default="general")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--pairs", type=int, default=6000, help="toy pairs in the corpus")
    ap.add_argument("--pad-vocab", type=int, default=0, help="never-seen tokens per vocabulary")
    ap.add_argument("flags", nargs="*", help="more `attnviz train` flags, after --")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="toy-defaults-"))
    corpus = work / "toy.txt"
    toy.write_corpus(corpus, toy.corpus(a.pairs, seed=51))
    for seed in a.seeds:
        out = work / f"{a.attention}-{seed}.safetensors"
        argv = ["train", "--data", str(corpus), "--out", str(out), "--attention", a.attention,
                *ISSUE_COMMAND, "--seed", str(seed), *a.flags]  # fmt: skip
        with mock.patch.object(Vocab, "build", padded_build(a.pad_vocab)):
            attnviz_main(argv)
        sinks = attnviz.load(out).card["attention_sinks"]
        print(
            f"{a.attention} seed {seed} {' '.join(a.flags)}: steps on <eos> {sinks['steps_eos']}%,"
            f" on the full stop {sinks['steps_punct']}%, AER {held_out_aer(out, corpus):.1f}"
        )


if __name__ == "__main__":
    main()
