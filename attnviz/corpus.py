"""Two models over a file of sentences: per-sentence BLEU, AER and attention diagnostics.

The dashboard's corpus view is built on these functions; they are plain Python and pandas, so
tests call them directly.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from sacrebleu.metrics import BLEU

from . import diagnostics
from .aer import AerResult, Gold, score
from .align import word_trace
from .evaluate import bleu
from .text import normalize
from .trace import Trace
from .translator import InputError, Translator

LENGTH_BUCKETS = ((1, 5), (6, 10), (11, 15), (16, 25), (26, None))  # source words, inclusive


@dataclass(frozen=True)
class Item:
    """One source sentence, its reference translations and, optionally, gold word links
    between the source and the first reference (whitespace words, 0-based)."""

    source: str
    references: tuple[str, ...] = ()
    gold: Gold | None = None

    @property
    def words(self) -> int:
        return len(self.source.split())


@dataclass(frozen=True)
class Result:
    """What one model did with one :class:`Item`."""

    text: str  # the translation ("" when refused)
    error: str | None  # why the model refused the sentence, else None
    bleu: float | None  # sentence BLEU against the references, if any
    aer: float | None  # AER of the argmax links on the first reference, if gold exists
    entropy: float | None  # mean attention entropy per output step, in bits
    monotonicity: float | None  # Kendall's tau of the argmax source positions
    eos_mass: float | None  # mean attention on the source <eos>
    links: frozenset = frozenset()  # argmax word links on the first reference (with gold)


def parse_items(text: str) -> list[Item]:
    """``source[<TAB>reference[<TAB>...]]`` lines, blank lines skipped."""
    items = []
    for line in text.splitlines():
        fields = [f.strip() for f in line.split("\t")]
        if fields[0]:
            items.append(Item(fields[0], tuple(f for f in fields[1:] if f)))
    return items


def attach_gold(items: list[Item], gold: list[Gold]) -> list[Item]:
    """``items`` with gold links, one alignment per item in order; every item needs a
    reference, since the links go from its source to its first reference."""
    if len(gold) != len(items):
        raise ValueError(f"{len(items)} sentences but {len(gold)} gold alignments")
    missing = [n for n, item in enumerate(items, 1) if not item.references]
    if missing:
        raise ValueError(f"sentence {missing[0]} has gold links but no reference to link to")
    return [Item(i.source, i.references, g) for i, g in zip(items, gold, strict=True)]


def _diagnose(trace: Trace) -> tuple[float, float, float]:
    words = trace.output_weights
    if not len(words):
        return float("nan"), float("nan"), float("nan")
    return (
        float(diagnostics.entropy(words).mean()),
        diagnostics.monotonicity(words),
        float(diagnostics.mass_on(words, trace.src_tokens, "eos").mean()),
    )


def run(
    translator: Translator,
    items: list[Item],
    beam: int = 1,
    batch_size: int = 32,
    progress: Callable[[int, int], None] | None = None,
) -> list[Result]:
    """Translate every item in batches (``progress(done, total)`` after each) and score it."""
    sentence_bleu = BLEU(lowercase=translator.text.lowercase, effective_order=True)
    out: list[Result] = []
    for start in range(0, len(items), batch_size):
        chunk = items[start : start + batch_size]
        traces = translator.translate_each([i.source for i in chunk], beam=beam)
        for item, trace in zip(chunk, traces, strict=True):
            out.append(_result(translator, item, trace, sentence_bleu))
        if progress:
            progress(len(out), len(items))
    return out


def _result(translator: Translator, item: Item, trace, metric: BLEU) -> Result:
    if isinstance(trace, InputError):
        return Result("", str(trace), 0.0 if item.references else None, None, None, None, None)
    refs = [normalize(r) for r in item.references]
    bleu_score = metric.sentence_score(trace.text, refs).score if refs else None
    aer, links = None, frozenset()
    if item.gold is not None:
        with contextlib.suppress(InputError):  # a pair the model refuses gets no links
            links = frozenset(word_trace(translator, item.source, item.references[0]).links())
        aer = score([item.gold], [set(links)]).aer
    return Result(trace.text, None, bleu_score, aer, *_diagnose(trace), links)


def table(items: list[Item], results: dict[str, list[Result]]) -> pd.DataFrame:
    """One row per sentence: each model's translation and scores. With two models and
    references, ``BLEU difference`` is the first model's BLEU minus the second's, and rows
    come sorted by its size, largest first: where the two models disagree most."""
    frame = pd.DataFrame(
        {
            "#": range(1, len(items) + 1),
            "source": [i.source for i in items],
            "reference": [i.references[0] if i.references else "" for i in items],
            "words": [i.words for i in items],
        }
    )
    for name, rs in results.items():
        frame[name] = [r.text if r.error is None else f"(refused: {r.error})" for r in rs]
        frame[f"{name} BLEU"] = [r.bleu for r in rs]
        if any(i.gold is not None for i in items):
            frame[f"{name} AER"] = [r.aer for r in rs]
        frame[f"{name} entropy"] = [r.entropy for r in rs]
        frame[f"{name} tau"] = [r.monotonicity for r in rs]
        frame[f"{name} <eos> mass"] = [r.eos_mass for r in rs]
    names = list(results)
    if len(names) == 2 and any(i.references for i in items):
        diff = frame[f"{names[0]} BLEU"].astype(float) - frame[f"{names[1]} BLEU"].astype(float)
        frame.insert(4, "BLEU difference", diff)
        order = diff.abs().sort_values(ascending=False, kind="stable").index
        frame = frame.loc[order].reset_index(drop=True)
    scores = [c for c in frame if c.endswith(("BLEU", "AER", "difference"))]
    return frame.round(
        {c: 1 for c in scores} | {c: 2 for c in frame if c.endswith(("entropy", "tau", "mass"))}
    )


def bleu_of(items: list[Item], results: list[Result], lowercase: bool = False) -> float:
    """Corpus BLEU of one model over ``items`` (all must have references)."""
    return bleu([r.text for r in results], [list(i.references) for i in items], lowercase)[0]


def bleu_by_length(
    items: list[Item], results: dict[str, list[Result]], lowercase: bool = False
) -> pd.DataFrame:
    """Corpus BLEU of each model per source-length bucket (:data:`LENGTH_BUCKETS`), over the
    items that have references: columns model, words, BLEU, sentences."""
    rows = []
    for low, high in LENGTH_BUCKETS:
        picked = [
            k
            for k, item in enumerate(items)
            if item.references and item.words >= low and (high is None or item.words <= high)
        ]
        if not picked:
            continue
        label = f"{low}+" if high is None else f"{low}-{high}"
        for name, rs in results.items():
            value = bleu_of([items[k] for k in picked], [rs[k] for k in picked], lowercase)
            rows.append({"model": name, "words": label, "BLEU": value, "sentences": len(picked)})
    return pd.DataFrame(rows, columns=["model", "words", "BLEU", "sentences"])


def aer_of(items: list[Item], results: list[Result]) -> AerResult | None:
    """AER of one model counted over all the gold sentences at once (Och & Ney), or None
    without gold."""
    picked = [k for k, item in enumerate(items) if item.gold is not None]
    if not picked:
        return None
    return score([items[k].gold for k in picked], [set(results[k].links) for k in picked])
