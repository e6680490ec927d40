"""Attention sinks beside alignment and translation: one Markdown row per checkpoint.

    python benchmarks/quality/sinks.py checkpoints/*.safetensors --hansards DIR [--show]

For each checkpoint, decoded greedily in fp32 as the dashboard decodes:
- sinks: the share of first output tokens, and of all steps that write a token, whose attention
  argmax is the source `<eos>` (and, after the slash, the final punctuation), over the pieces a
  subword model reads (`python -m attnviz evaluate CHECKPOINT --sinks FILE` gives the same), on
  the 25 sentences of benchmarks/quality/gold/tatoeba-test.txt and, with --hansards, on the English
  side of the 37 Hansards trial sentences (lowercased and tokenized, as the gold has them);
- AER of argmax links on the 25 Tatoeba gold sentences and, with --hansards, on the 37 trial
  sentences of DIR/hansards.{e,f,a} (see aer_hansards.sh);
- the validation BLEU of the snapshot the file keeps (its card);
- names and numbers written verbatim on benchmarks/quality/names.txt (25 sentences, as users
  type them);
- short inputs: how many of the 20 greetings, answers and one- to three-word sentences of
  benchmarks/quality/short.txt, and of the 20 of benchmarks/quality/short_fresh.txt (written
  before the natural pair of issue 37 was trained, and never used to choose between runs), the model
  translates as a French speaker would say them: its output, lowercased and without final
  punctuation, is one of the answers written there by hand. --show prints every output that
  is not.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from attnviz import load
from attnviz.analysis.aer import read_gold_of_pairs, read_pairs
from attnviz.analysis.evaluate import copy_rate, corpus_aer, corpus_sinks
from attnviz.data.corpus import read_corpus
from attnviz.decoding.trace import Trace

HERE = Path(__file__).parent


def said(text: str) -> str:
    """A short answer as compared: lowercased, one kind of apostrophe and space, no final
    punctuation."""
    text = text.lower().replace("’", "'").replace("\u202f", " ").replace("\u00a0", " ")
    return re.sub(r"[\s.!?…]+$", "", re.sub(r"\s+", " ", text.strip()))


SHORT = ("short.txt", "short_fresh.txt")


def short_inputs(tr, path: Path, show: bool) -> str:
    """ "k/n": the lines of ``path`` (English<TAB>answer<TAB>answer...) whose translation is one
    of the answers."""
    lines = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line]
    outputs = tr.translate_each([line[0] for line in lines])
    good = 0
    for (english, *answers), out in zip(lines, outputs, strict=True):
        text = out.text if isinstance(out, Trace) else ""
        if said(text) in {said(a) for a in answers}:
            good += 1
        elif show:
            print(f"    {english} -> {text}")
    return f"{good}/{len(lines)}"


def aer(tr, pairs: list[tuple[str, str]], gold) -> str:
    return f"{corpus_aer(tr, pairs, gold)[('argmax', False)].aer:.1f}"


def sinks(tr, sources: list[str]) -> str:
    r = corpus_sinks(tr, sources)
    return f"{r.first_eos:.0f}% / {r.first_punct:.0f}%, {r.steps_eos:.1f}% / {r.steps_punct:.1f}%"


def names(tr, corpus) -> str:
    sources = [p[0] for p in corpus.pairs]
    outputs = [t.text if isinstance(t, Trace) else "" for t in tr.translate_each(sources)]
    r = copy_rate(sources, outputs, [[p[1]] for p in corpus.pairs])
    return f"{r.share('numbers'):.0f}% / {r.share('names'):.0f}%"


def valid_bleu(tr) -> str:
    history = tr.history
    best = (history.best.get("best_epoch") if history else None) or tr.card.get("best_epoch")
    kept = [s for s in (history.snapshots if history else []) if s.epoch == best]
    return str(kept[-1].valid_bleu) if kept else "–"


def gold_sets(hansards: Path | None) -> dict[str, tuple[list, list]]:
    """(pairs, gold) of the Tatoeba gold sentences and, from ``hansards``, of the 37 trial
    sentences (their first 37 lines, as aer_hansards.sh reads them; French-first links)."""
    tatoeba = read_pairs(HERE / "gold/tatoeba-test.txt")
    sets = {
        "Tatoeba": (tatoeba, read_gold_of_pairs(HERE / "gold/tatoeba-test.align", False, tatoeba))
    }
    if hansards is not None:
        english, french = (
            (hansards / f"hansards.{n}").read_text(encoding="utf-8").splitlines()[:37] for n in "ef"
        )
        pairs = list(zip(english, french, strict=True))
        sets["Hansards"] = (pairs, read_gold_of_pairs(hansards / "hansards.a", True, pairs))
    return sets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--hansards", type=Path, help="folder with hansards.{e,f,a}")
    ap.add_argument("--show", action="store_true", help="print the short inputs missed")
    a = ap.parse_args()
    sets = gold_sets(a.hansards)
    typed = read_corpus(HERE / "names.txt")
    print(
        "| checkpoint | first token / steps on `<eos>` / final punctuation, Tatoeba gold (25) "
        "| the same, Hansards (37) | AER Tatoeba (25) | AER Hansards (37) | valid BLEU "
        "| numbers / names (names.txt) | short inputs (short.txt, short_fresh.txt) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for path in a.checkpoints:
        tr = load(path, precision="fp32")
        measured = {
            name: (sinks(tr, [s for s, _ in pairs]), aer(tr, pairs, gold))
            for name, (pairs, gold) in sets.items()
        }
        tatoeba, hansards = measured["Tatoeba"], measured.get("Hansards", ("–", "–"))
        row = [
            Path(path).stem,
            tatoeba[0],
            hansards[0],
            tatoeba[1],
            hansards[1],
            valid_bleu(tr),
            names(tr, typed),
            ", ".join(short_inputs(tr, HERE / name, a.show) for name in SHORT),
        ]
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
