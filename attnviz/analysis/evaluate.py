"""Scores over a corpus: BLEU with sacreBLEU, every reference translation of a source used;
AER of the alignments read off attention, against gold links."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from sacrebleu.metrics import BLEU

from ..data.text import normalize
from ..decoding.trace import Trace
from ..decoding.translator import Translator
from ..errors import InputError
from . import attribution
from .aer import AerResult, Gold, score
from .align import METHODS, ForcedWords, forced_words
from .diagnostics import Sinks, sinks


@dataclass(frozen=True)
class BleuResult:
    score: float  # corpus BLEU, 0-100
    signature: str  # sacreBLEU's signature: how to reproduce the number
    sentences: int  # source sentences scored
    refused: int  # sources the translator refused (over its length limit): scored as empty output


def reference_streams(refs: list[list[str]]) -> list[list[str | None]]:
    """sacreBLEU wants one stream per reference slot; sources with fewer references get None."""
    width = max(map(len, refs), default=0)
    return [[r[k] if k < len(r) else None for r in refs] for k in range(width)]


def corpus_bleu(
    translator: Translator,
    sources: list[str],
    refs: list[list[str]],
    beam: int = 1,
    batch_size: int = 64,
    **options,
) -> BleuResult:
    """Translate ``sources`` and score them against all their references ``refs``; ``options``
    go to :meth:`Translator.translate_each` (``alpha``, ``beta`` of beam search).

    A source the translator refuses (longer than its limit) counts as an empty translation, so
    the score never looks better for skipping it.
    """
    results = translator.translate_each(sources, beam=beam, batch_size=batch_size, **options)
    hyps = [r.text if isinstance(r, Trace) else "" for r in results]
    score, signature = bleu(hyps, refs, translator.text.lowercase, translator.text.tgt_lang)
    refused = sum(not isinstance(r, Trace) for r in results)
    return BleuResult(round(score, 2), signature, len(sources), refused)


def corpus_sinks(translator: Translator, sources: list[str], batch_size: int = 64) -> Sinks:
    """How often ``translator``'s attention sinks into the source ``<eos>`` or the final
    punctuation when it translates ``sources`` greedily (see :func:`.diagnostics.sinks`); a
    source it refuses is left out."""
    results = translator.translate_each(sources, batch_size=batch_size)
    return sinks(r for r in results if isinstance(r, Trace))


def metric(lowercase: bool = False, target: str = "", **options) -> BLEU:
    """sacreBLEU's BLEU for text in the ``target`` language: Chinese, written without spaces,
    is split by its ``zh`` tokenizer (characters), any other by ``13a``."""
    return BLEU(lowercase=lowercase, tokenize="zh" if target == "zh" else "13a", **options)


def bleu(
    hyps: list[str], refs: list[list[str]], lowercase: bool = False, target: str = ""
) -> tuple[float, str]:
    """Corpus BLEU of ``hyps`` against every reference of each (normalized as the training
    text is), and sacreBLEU's signature; ``target``: their language (:func:`metric`)."""
    scorer = metric(lowercase, target)
    # sacreBLEU reads None as a missing reference (its docstring), which its hints do not say
    score = scorer.corpus_score(hyps, _streams(refs)).score  # type: ignore[arg-type]
    return score, str(scorer.get_signature())


def _streams(refs: list[list[str]]) -> list[list[str | None]]:
    """References normalized as the training text is, in sacreBLEU's streams."""
    return reference_streams([[normalize(r) for r in rs] for rs in refs])


@dataclass(frozen=True)
class BleuStatistics:
    """Each sentence's BLEU sufficient statistics, so that corpus BLEU of any subset or
    resample is a sum and one formula, not a new pass over the text (what sacreBLEU's own
    paired bootstrap does, through the same two methods of its ``BLEU``)."""

    # (sentences, 10): hypothesis length, closest reference length, matched 1- to 4-grams,
    # 1- to 4-grams in the hypothesis
    counts: np.ndarray
    metric: BLEU  # the metric that counted them: its smoothing turns sums into a score

    def score(self, summed: np.ndarray) -> float:
        """Corpus BLEU (0-100) of sentences whose counts sum to ``summed``, as
        ``corpus_score`` computes it."""
        return self.metric._compute_score_from_stats(summed.tolist()).score


def bleu_statistics(
    hyps: list[str], refs: list[list[str]], lowercase: bool = False, target: str = ""
) -> BleuStatistics:
    """:class:`BleuStatistics` of ``hyps`` against their references, normalized as
    :func:`bleu` normalizes them: summed over all sentences they give :func:`bleu`'s score."""
    scorer = metric(lowercase, target)
    streams = _streams(refs)  # None for a missing reference: see bleu
    counts = scorer._extract_corpus_statistics(hyps, streams) if hyps else []  # type: ignore[arg-type]
    width = 2 + 2 * scorer.max_ngram_order
    return BleuStatistics(np.array(counts, dtype=np.int64).reshape(len(hyps), width), scorer)


def all_forced_words(
    translator: Translator, pairs: list[tuple[str, str]], gold: list[Gold]
) -> list[ForcedWords | None]:
    """Each pair force-decoded once, word by word; None for a pair the translator refuses."""
    if len(pairs) != len(gold):
        raise ValueError(f"{len(pairs)} sentence pairs but {len(gold)} gold alignments")
    traces: list[ForcedWords | None] = []
    for source, target in pairs:
        try:
            traces.append(forced_words(translator, source, target))
        except InputError:
            traces.append(None)
    return traces


def corpus_aer(
    translator: Translator,
    pairs: list[tuple[str, str]],
    gold: list[Gold],
    threshold: float = 0.5,
    layer: int | None = None,
    head: int | None = None,
) -> dict[tuple[str, bool], AerResult]:
    """AER of every way :mod:`attnviz.analysis.align` reads links off attention, keyed by
    (method, shift), over whitespace-tokenized (source, target) ``pairs`` with ``gold`` links;
    ``layer`` and ``head`` choose a Transformer's attention (:meth:`Trace.picture`).

    Each pair is force-decoded once; a pair the translator refuses counts as no links.
    """
    traces = all_forced_words(translator, pairs, gold)
    return {
        (method, shift): score(
            gold,
            [set(t.links(method, threshold, shift, layer, head)) if t else set() for t in traces],
        )
        for method in METHODS
        for shift in (False, True)
    }


def heads_aer(
    translator: Translator, pairs: list[tuple[str, str]], gold: list[Gold]
) -> dict[tuple[int, int | None, bool], AerResult]:
    """A Transformer's argmax AER for every decoder layer's heads averaged (head None) and
    every head alone, with and without Shift-Att, keyed by (layer, head, shift): which of its
    attentions aligns, over the same pairs and gold as :func:`corpus_aer`."""
    traces = all_forced_words(translator, pairs, gold)
    config = translator.model.config
    return {
        (layer, head, shift): score(
            gold,
            [set(t.links("argmax", shift=shift, layer=layer, head=head)) if t else set()
             for t in traces],
        )
        for layer in range(config.layers)
        for head in (None, *range(config.heads))
        for shift in (False, True)
    }  # fmt: skip


def attribution_aer(
    translator: Translator,
    pairs: list[tuple[str, str]],
    gold: list[Gold],
    methods: tuple[str, ...] = tuple(attribution.METHODS),
    steps: int = attribution.STEPS,
) -> dict[str, AerResult]:
    """AER of the links read off attribution
    (:func:`attnviz.analysis.attribution.word_links`) by each of ``methods``, over the same
    pairs and gold as :func:`corpus_aer`."""
    traces = all_forced_words(translator, pairs, gold)
    return {
        method: score(
            gold,
            [
                set(attribution.word_links(translator, t, method, steps)) if t else set()
                for t in traces
            ],
        )
        for method in methods
    }


WORD = re.compile(r"\w[\w'-]*")  # words of running text, with inner apostrophes and hyphens


def should_copy(source: str, refs: list[str]) -> dict[str, list[str]]:
    """The source's tokens that a translation should write unchanged, by kind: ``numbers``
    (any token with a digit) and ``names`` (capitalised words after the first), each only where
    it appears verbatim in a reference."""
    words = WORD.findall(source)
    in_refs = {w for r in refs for w in WORD.findall(r)}
    kept = [(k, w) for k, w in enumerate(words) if w in in_refs]
    return {
        "numbers": [w for _, w in kept if any(c.isdigit() for c in w)],
        "names": [w for k, w in kept if k and w[:1].isupper() and not any(c.isdigit() for c in w)],
    }


@dataclass(frozen=True)
class CopyResult:
    written: dict[str, int]  # by kind: tokens the translations wrote verbatim
    wanted: dict[str, int]  # by kind: tokens that should have been
    missed: tuple[int, ...] = ()  # the sentences (by index) with a token not written

    def share(self, kind: str) -> float:
        """Percent of ``kind`` written verbatim (100 when there was none to write)."""
        return 100 * self.written[kind] / self.wanted[kind] if self.wanted[kind] else 100.0


def copy_rate(sources: list[str], outputs: list[str], refs: list[list[str]]) -> CopyResult:
    """How many of the tokens each source should pass through (:func:`should_copy`) its
    output writes verbatim, by kind, over a corpus."""
    written, wanted = {"numbers": 0, "names": 0}, {"numbers": 0, "names": 0}
    missed: list[int] = []
    for k, (source, output, rs) in enumerate(zip(sources, outputs, refs, strict=True)):
        out = set(WORD.findall(output))
        for kind, tokens in should_copy(source, rs).items():
            wanted[kind] += len(tokens)
            written[kind] += sum(w in out for w in tokens)
            if not set(tokens) <= out and missed[-1:] != [k]:
                missed.append(k)
    return CopyResult(written, wanted, tuple(missed))
