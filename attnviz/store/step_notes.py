"""What the training corpus says at one step of a translation: for the word written and the
source words the step attended to most, how often the corpus links them, the other
translations it gives, and example pairs (read from a model's
:class:`~attnviz.store.corpus_lookup.Lookup`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data.vocab import EOS
from ..decoding.trace import Trace
from .corpus_lookup import Answer, Lookup

MOST = 2  # source words looked up per step: the most attended, and the next if it has ...
FLOOR = 0.2  # ... at least this weight


@dataclass(frozen=True)
class WordNote:
    """One attended source word: what the corpus says about it, and about it with the word
    written."""

    word: str
    weight: float  # the attention the step gave it
    answer: Answer  # the word alone
    linked: Answer | None  # the word with the word written (None at <eos>)


@dataclass(frozen=True)
class StepNotes:
    """What the corpus says at one step."""

    sentence: str
    sentence_pairs: int  # training pairs whose source is the sentence
    written: str  # the word the step wrote
    words: tuple[WordNote, ...]


def attended(trace: Trace, t: int, most: int = MOST, floor: float = FLOOR) -> list[int]:
    """The source positions step ``t`` attended to most: the first, and the next ``most - 1``
    that have at least ``floor``; never ``<eos>``."""
    row = trace.picture()[t]
    picks = [int(j) for j in np.argsort(-row, kind="stable") if trace.src_tokens[j] != EOS]
    return [j for k, j in enumerate(picks[:most]) if k == 0 or row[j] >= floor]


def step_notes(lookup: Lookup, trace: Trace, t: int) -> StepNotes:
    """What the corpus says at step ``t`` of ``trace`` (a Trace over words, with attention)."""
    source = [w for w in trace.src_tokens if w != EOS]
    written = trace.tgt_tokens[t]
    words = []
    for j in attended(trace, t):
        word = trace.src_tokens[j]
        linked = None if written == EOS else lookup.tokens([word], [written])
        words.append(WordNote(word, float(trace.picture()[t][j]), lookup.tokens([word]), linked))
    whole = lookup.sentence_pairs(source) if source else 0
    return StepNotes(trace.source, whole, written, tuple(words))
