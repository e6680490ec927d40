"""Checkpoints side by side, as candidates for `checkpoints/`: one run, one table.

    python benchmarks/quality/candidates.py --data ../shared/data/fra-eng/fra.txt \
        --hansards /work/hansards checkpoints/*.safetensors

For each checkpoint, on its own held-out test split (the 2,340 distinct English sentences of
Tatoeba's, every French translation a reference):

- test BLEU, greedy and beam 5, in fp32 (as the dashboard decodes) and int8 (the command line);
- BLEU on test pairs joined two or three at a time (`joined_bleu.py`: long inputs);
- outputs that loop or hit the length cap, on the test split and on the joined pairs;
- `<unk>`: source words outside the vocabulary, and output words copied through `<unk>`;
- English left in the output: output words that are source words and in none of the
  references (a cased word of two letters or more), per output word;
- what should be copied and is (`attnviz.analysis.evaluate.copy_rate`): numbers and capitalised
  words (not sentence-initial) of the source that appear verbatim in a reference, and the share
  the greedy output writes verbatim;
- AER of the argmax links (fp32) on the 25 hand-aligned Tatoeba test sentences of
  `benchmarks/quality/gold/` and, with --hansards, the 37 Hansards sentences (see aer_hansards.sh);
- greedy decoding time per sentence, fp32 and int8, median over --timed test sentences
  translated one at a time, every checkpoint in turn for each sentence (so drift hits all).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch
from joined_bleu import joined_items

from attnviz import load
from attnviz.analysis.aer import read_gold_of_pairs, read_pairs
from attnviz.analysis.evaluate import WORD, bleu, copy_rate, corpus_aer
from attnviz.data.corpus import held_out, read_corpus, spread_sample
from attnviz.decoding.trace import Trace

GOLD = Path(__file__).parent / "gold"


def english_left(source: str, output: str, refs: list[str]) -> tuple[int, int]:
    """(output words that are source words found in no reference, output words)."""
    out = [w for w in WORD.findall(output) if len(w) > 1]
    src = {w.lower() for w in WORD.findall(source)}
    in_refs = {w.lower() for r in refs for w in WORD.findall(r)}
    left = [w for w in out if w.lower() in src and w.lower() not in in_refs]
    return len(left), len(out)


def texts(traces: list) -> list[str]:
    return [t.text if isinstance(t, Trace) else "" for t in traces]


def remarked(traces: list) -> int:
    return sum(bool(t.warning()) for t in traces if isinstance(t, Trace))


def quality(path: str, corpus, gold_sets: dict, items: int, sample: int) -> dict[str, str]:
    """Every figure but speed for one checkpoint."""
    fp32, int8 = load(path, precision="fp32"), load(path, precision="int8")
    sources, refs = held_out(corpus, fp32.data.valid_percent, fp32.data.test_percent)
    sources, refs = spread_sample(sources, refs, sample)
    row: dict[str, str] = {}
    greedy = None
    for name, tr in (("fp32", fp32), ("int8", int8)):
        for beam in (1, 5):
            traces = tr.translate_each(sources, beam=beam)
            score, _ = bleu(texts(traces), refs, tr.text.lowercase)
            row[f"{name} beam {beam}"] = f"{score:.2f}"
            if (name, beam) == ("int8", 1):
                greedy = traces
    joined, _ = joined_items(sources, refs, items)
    joined_traces = int8.translate_each([s for s, _ in joined])
    score, _ = bleu(texts(joined_traces), [[r] for _, r in joined], int8.text.lowercase)
    row["joined BLEU"] = f"{score:.2f}"
    row["loops or cut (test / joined)"] = f"{remarked(greedy)} / {remarked(joined_traces)}"
    ok = [t for t in greedy if isinstance(t, Trace)]
    src_words = sum(len(t.src_known) - 1 for t in ok)
    unknown = sum(not k for t in ok for k in t.src_known[:-1])
    copied = sum(r is not None for t in ok for r in t.replaced)
    out_words = sum(len(t.tgt_tokens) for t in ok)
    row["source <unk> / output <unk> copied"] = (
        f"{100 * unknown / src_words:.1f}% / {100 * copied / out_words:.1f}%"
    )
    left = [
        english_left(s, t.text, r)
        for s, t, r in zip(sources, greedy, refs, strict=True)
        if isinstance(t, Trace)
    ]
    row["English left"] = f"{100 * sum(a for a, _ in left) / sum(b for _, b in left):.2f}%"
    copied = copy_rate(sources, texts(greedy), refs)
    for kind in ("numbers", "names"):
        row[f"{kind} copied"] = f"{copied.share(kind):.0f}% of {copied.wanted[kind]}"
    for name, (pairs, gold) in gold_sets.items():
        row[f"AER {name}"] = f"{corpus_aer(fp32, pairs, gold)[('argmax', False)].aer:.1f}"
    return row


def speed(paths: list[str], sentences: list[str]) -> dict[str, dict[str, str]]:
    """Median greedy ms per sentence, fp32 and int8, sentence by sentence over all models."""
    rows: dict[str, dict[str, str]] = {p: {} for p in paths}
    for precision in ("fp32", "int8"):
        models = {p: load(p, precision=precision) for p in paths}
        times: dict[str, list[float]] = {p: [] for p in paths}
        for sentence in sentences:
            for p, tr in models.items():
                t0 = time.perf_counter()
                tr.translate(sentence)
                times[p].append(time.perf_counter() - t0)
        for p in paths:
            rows[p][f"ms {precision}"] = f"{1000 * statistics.median(times[p]):.1f}"
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+")
    ap.add_argument("--data", required=True, help="the corpus the checkpoints were trained on")
    ap.add_argument("--hansards", help="folder with hansards.e/.f/.a (see aer_hansards.sh)")
    ap.add_argument("--items", type=int, default=400, help="joined inputs to score")
    ap.add_argument("--timed", type=int, default=200, help="test sentences timed one by one")
    ap.add_argument("--sample", type=int, default=0, help="test sentences scored (0: all)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument(
        "--time-also", nargs="*", default=[], help="checkpoints timed beside them, not scored"
    )
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    corpus = read_corpus(a.data)
    tatoeba = read_pairs(GOLD / "tatoeba-test.txt")
    gold_sets = {
        "Tatoeba": (tatoeba, read_gold_of_pairs(GOLD / "tatoeba-test.align", False, tatoeba))
    }
    if a.hansards:  # hansards.e/.f, a sentence a line, and hansards.a, French first
        h = Path(a.hansards)
        english, french = (
            h.joinpath(f"hansards.{x}").read_text("utf-8").splitlines() for x in "ef"
        )
        hansards = list(zip(english, french, strict=True))
        gold_sets["Hansards"] = (hansards, read_gold_of_pairs(h / "hansards.a", True, hansards))
    rows = {}
    for path in a.checkpoints:
        t0 = time.perf_counter()
        rows[path] = quality(path, corpus, gold_sets, a.items, a.sample)
        print(f"{path}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    first = load(a.checkpoints[0], precision="fp32")
    sources, _ = held_out(corpus, first.data.valid_percent, first.data.test_percent)
    step = max(1, len(sources) // a.timed)
    timed = [*a.checkpoints, *a.time_also]
    for path, figures in speed(timed, sources[::step][: a.timed]).items():
        rows.setdefault(path, {}).update(figures)
    columns = list(rows[a.checkpoints[0]])
    print("| figure | " + " | ".join(f"`{Path(p).stem}`" for p in timed) + " |")
    print("|---" * (len(timed) + 1) + "|")
    for column in columns:
        print(f"| {column} | " + " | ".join(rows[p].get(column, "") for p in timed) + " |")
    print(f"\ntorch threads {a.threads}, {len(sources[::step][: a.timed])} sentences timed")


if __name__ == "__main__":
    main()
