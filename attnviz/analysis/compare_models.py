"""Two models compared over many sentences: per-sentence BLEU, AER and attention diagnostics,
and the corpus totals.

The dashboard's corpus page is built on these functions; they are plain Python and pandas, so
tests call them directly. One model scores a list of :class:`Item` with
:func:`score_sentences`; :func:`table` and :func:`bleu_by_length` then put two models side by
side.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from sacrebleu.metrics import BLEU

from ..data.corpus import DataConfig, held_out, read_corpus, spread_sample
from ..data.text import normalize
from ..decoding.translator import Translator
from ..errors import InputError, Refused
from . import attribution, diagnostics
from .aer import AerResult, Gold, check_bounds, parse_gold, score
from .align import forced_words, trace_links
from .attribution import Agreement
from .evaluate import bleu, metric
from .length_buckets import BUCKETS, bucket_index


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
class SentenceScore:
    """What one model did with one :class:`Item`."""

    text: str  # the translation ("" when refused)
    error: str | None  # why the model refused the sentence, else None
    bleu: float | None  # sentence BLEU against the references, if any
    aer: float | None  # AER of the argmax links on the first reference, if gold exists
    entropy: float | None  # diagnostics.summary: mean entropy per word written, in bits
    monotonicity: float | None  # Kendall's tau of the argmax source positions
    eos_mass: float | None  # mean attention on the source <eos> per word written
    links: frozenset = frozenset()  # argmax word links on the first reference (with gold)
    words: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # source, output (no <eos>)
    attention: frozenset = frozenset()  # argmax links of the model's own output, over `words`


def parse_items(text: str) -> list[Item]:
    """``source[<TAB>reference[<TAB>...]]`` lines, blank lines skipped; more than
    :data:`MAX_ITEMS` sentences are refused."""
    items = []
    for line in text.splitlines():
        fields = [f.strip() for f in line.split("\t")]
        if fields[0]:
            items.append(Item(fields[0], tuple(f for f in fields[1:] if f)))
        if len(items) > MAX_ITEMS:
            raise ValueError(f"more than {MAX_ITEMS} sentences: one run takes at most {MAX_ITEMS}")
    return items


def decode_upload(data: bytes, name: str) -> str:
    """An uploaded file's text: UTF-8 (a byte-order mark allowed), else a ValueError that says
    so, rather than garbage sentences decoded with replacement characters."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError(f"{name} is not UTF-8 text (byte {e.start}); save it as UTF-8") from None


MAX_ITEMS = 1000  # sentences in one corpus run of the dashboard


def attach_gold(items: list[Item], gold: list[Gold]) -> list[Item]:
    """``items`` with gold links, one alignment per item in order; every item needs a
    reference, since the links go from its source to its first reference."""
    if len(gold) != len(items):
        raise ValueError(f"{len(items)} sentences but {len(gold)} gold alignments")
    missing = [n for n, item in enumerate(items, 1) if not item.references]
    if missing:
        raise ValueError(f"sentence {missing[0]} has gold links but no reference to link to")
    lengths = [(len(i.source.split()), len(i.references[0].split())) for i in items]
    check_bounds(gold, lengths, "gold alignments")
    return [Item(i.source, i.references, g) for i, g in zip(items, gold, strict=True)]


def read_items(text: str, gold_text: str = "") -> list[Item]:
    """Pasted or uploaded sentences (:func:`parse_items`) with, when ``gold_text`` is not
    blank, one gold alignment per sentence (Pharaoh or HLT-NAACL 2003)."""
    items = parse_items(text)
    if gold_text.strip():
        items = attach_gold(items, parse_gold(gold_text, "gold alignments", len(items)))
    return items


def held_out_items(path: str, data: DataConfig | None, count: int) -> list[Item]:
    """``count`` sentences spread over the held-out test split of the corpus at ``path``, as
    a model trained with ``data`` split it (so no model saw them), with all their references."""
    if data is None:
        raise ValueError("the checkpoint does not record how its data was split")
    sources, refs = held_out(
        read_corpus(path, data.source_column), data.valid_percent, data.test_percent
    )
    sources, refs = spread_sample(sources, refs, count)
    return [Item(s, tuple(r)) for s, r in zip(sources, refs, strict=True)]


def score_sentences(
    translator: Translator,
    items: list[Item],
    beam: int = 1,
    batch_size: int = 32,
    progress: Callable[[int, int], None] | None = None,
) -> list[SentenceScore]:
    """Translate every item in batches (``progress(done, total)`` after each) and score it."""
    text = translator.text
    sentence_bleu = metric(text.lowercase, text.tgt_lang, effective_order=True)
    out: list[SentenceScore] = []
    for start in range(0, len(items), batch_size):
        chunk = items[start : start + batch_size]
        traces = translator.translate_each([i.source for i in chunk], beam=beam)
        for item, trace in zip(chunk, traces, strict=True):
            out.append(_score(translator, item, trace, sentence_bleu))
        if progress:
            progress(len(out), len(items))
    return out


def _score(translator: Translator, item: Item, trace, metric: BLEU) -> SentenceScore:
    if isinstance(trace, Refused):
        return SentenceScore(
            "", trace.message, 0.0 if item.references else None, None, None, None, None
        )
    refs = [normalize(r) for r in item.references]
    bleu_score = metric.sentence_score(trace.text, refs).score if refs else None
    aer: float | None = None
    links: frozenset[tuple[int, int]] = frozenset()
    attended = trace.has_attention  # a model without attention has no links to read
    if item.gold is not None and attended:
        with contextlib.suppress(InputError):  # a pair the model refuses gets no links
            links = frozenset(forced_words(translator, item.source, item.references[0]).links())
        aer = score([item.gold], [set(links)]).aer
    d = diagnostics.summary(trace)
    words = (tuple(trace.src_tokens[:-1]), tuple(trace.output_tokens))
    return SentenceScore(
        trace.text, None, bleu_score, aer, d.entropy, d.monotonicity, d.eos_mass, links,
        words, frozenset(trace_links(trace)) if attended else frozenset(),
    )  # fmt: skip


def table(items: list[Item], results: dict[str, list[SentenceScore]]) -> pd.DataFrame:
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


def bleu_of(items: list[Item], results: list[SentenceScore], target: str = "") -> float:
    """Corpus BLEU of one model over ``items`` (all must have references), its output in the
    ``target`` language (as :func:`.evaluate.metric` scores it, and :func:`score_sentences`
    each sentence)."""
    return bleu([r.text for r in results], [list(i.references) for i in items], target=target)[0]


def bleu_by_length(
    items: list[Item], results: dict[str, list[SentenceScore]], target: str = ""
) -> pd.DataFrame:
    """Corpus BLEU of each model per source-length bucket (:data:`.length_buckets.BUCKETS`,
    labelled as the by-length evaluation labels them), over the items that have references:
    columns model, words, BLEU, sentences; a bucket without such items has no rows."""
    buckets = [bucket_index(i.words) if i.references and i.words else None for i in items]
    rows = []
    for b, bucket in enumerate(BUCKETS):
        picked = [k for k, found in enumerate(buckets) if found == b]
        if not picked:
            continue
        for name, rs in results.items():
            value = bleu_of([items[k] for k in picked], [rs[k] for k in picked], target)
            rows.append(
                {"model": name, "words": bucket.label, "BLEU": value, "sentences": len(picked)}
            )
    return pd.DataFrame(rows, columns=["model", "words", "BLEU", "sentences"])


def aer_of(items: list[Item], results: list[SentenceScore]) -> AerResult | None:
    """AER of one model counted over all the gold sentences at once (Och & Ney), or None
    without gold."""
    picked = [(k, item.gold) for k, item in enumerate(items) if item.gold is not None]
    if not picked:
        return None
    return score([gold for _, gold in picked], [set(results[k].links) for k, _ in picked])


@dataclass(frozen=True)
class Totals:
    """One model's scores over all the items at once."""

    bleu: float | None  # corpus BLEU over the items with references; None without any
    aer: AerResult | None  # AER pooled over the items with gold links; None without any


def totals(items: list[Item], scores: list[SentenceScore], target: str = "") -> Totals:
    """Corpus BLEU (of output in the ``target`` language) and AER of one model, each over the
    items that can have it."""
    with_refs = [k for k, item in enumerate(items) if item.references]
    corpus_bleu = (
        bleu_of([items[k] for k in with_refs], [scores[k] for k in with_refs], target)
        if with_refs
        else None
    )
    return Totals(corpus_bleu, aer_of(items, scores))


def attribution_agreement(
    translator: Translator,
    items: list[Item],
    method: str,
    beam: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> list[Agreement | None]:
    """Per item, how far the model's attention agrees with ``method``'s attribution over the
    words of its own translation (:func:`attnviz.analysis.attribution.agreement`); None where the
    model refuses the sentence. ``progress(done, total)`` after each item."""
    out: list[Agreement | None] = []
    for item in items:
        trace = translator.translate_each([item.source], beam=beam)[0]
        out.append(None if isinstance(trace, Refused) else _agreement(translator, trace, method))
        if progress:
            progress(len(out), len(items))
    return out


def _agreement(translator: Translator, trace, method: str) -> Agreement:
    return attribution.agreement(trace, attribution.attribute(translator, trace, method))


def agreement_table(items: list[Item], results: dict[str, list[Agreement | None]]) -> pd.DataFrame:
    """One row per sentence: per model, the mean rank correlation (Spearman) of attention and
    attribution over the steps, and the share of steps whose argmax source word agrees."""
    frame = pd.DataFrame({"#": range(1, len(items) + 1), "source": [i.source for i in items]})
    for name, rows in results.items():
        frame[f"{name} rho"] = [None if a is None else a.mean_spearman for a in rows]
        frame[f"{name} argmax agrees"] = [None if a is None else a.argmax_agreement for a in rows]
    return frame.round(2)
