"""Whether to doubt a translation: the "Check this translation" note, on evidence that was
measured to separate right translations from wrong ones.

benchmarks/quality/check_note/ holds 440 outputs of the six shipped models, each judged right
or wrong by hand, and the script that measures this note on them through ``translate --json``.
The signals, each with what it caught there:

- **The model is unsure.** The geometric mean of the probabilities it gave its own output
  pieces: under :data:`UNSURE`, an output is far more often wrong than right (the signal
  that separates best, area under the ROC curve 0.96).
- **A word it never saw.** A source word in no training pair (numbers aside: the models copy
  them) is one the model can only guess at.
- **Longer than anything it learned**: a source beyond the longest training pair.
- **A word written twice in a row**, the start of a loop.
- **A made-up word.** An output word that no training target has, in any case, nor the source
  (a name copied through is no invention): the model spelled it from pieces of other words
  ("Bonnez" for "Goodbye."), which happens when it has lost its way; where the model's corpus
  index is at hand.
- **A word lost.** A content word that eflomal links to no output word the corpus ever
  translates it as (:mod:`.lost_words`), where the model's corpus has eflomal priors.

The attention's own coverage is not evidence: it flagged right translations (a first word
parked on ``<eos>``, a Chinese particle the English has no word for) and missed wrong ones
that looked everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from ..decoding.trace import Trace
from ..decoding.translator import Translator
from .diagnostics import is_punctuation
from .eflomal_aligner import EflomalAligner
from .lost_words import TrainingPairs, lost_or_unknown

UNSURE = 0.675  # geometric mean probability of the output pieces under which to doubt


@dataclass(frozen=True)
class Doubts:
    """What speaks against one translation; :attr:`flagged` when anything does."""

    confidence: float  # geometric mean of the probabilities of the output's pieces
    unseen: tuple[str, ...] = ()  # source words in no training pair
    too_long: int | None = None  # the source's tokens, where longer than any training pair's
    doubled: tuple[str, ...] = ()  # output words written twice in a row
    made_up: tuple[str, ...] = ()  # output words in no training target and not in the source
    lost: tuple[str, ...] = ()  # source words eflomal finds no translation of
    counted: bool = False  # whether the training pairs were counted (unseen words looked for)
    aligned: bool = False  # whether eflomal looked for lost words
    forced: bool = False  # a forced decoding: its output is a reference, so nothing is doubted

    @property
    def unsure(self) -> bool:
        return self.confidence < UNSURE and not self.forced

    @property
    def flagged(self) -> bool:
        return bool(
            self.unsure or self.unseen or self.too_long or self.doubled or self.made_up or self.lost
        )

    def to_json(self) -> dict:
        return {
            "flagged": self.flagged,
            "confidence": round(self.confidence, 4),
            "unsure": self.unsure,
            "unseen": list(self.unseen) if self.counted else None,
            "too_long": self.too_long,
            "doubled": list(self.doubled),
            "made_up": list(self.made_up) if self.counted else None,
            "lost": list(self.lost) if self.aligned else None,
            "forced": self.forced,
        }


def confidence(trace: Trace) -> float:
    """The geometric mean of the probabilities the model gave the tokens it wrote (its own
    pieces, ``<eos>`` included): 1 for an output it was sure of, down to 0."""
    probs = (trace.pieces or trace).probs
    return float(np.exp(np.log(np.maximum(probs, 1e-12)).mean())) if len(probs) else 0.0


def doubled_words(trace: Trace) -> tuple[str, ...]:
    """Output words written twice in a row (punctuation aside), each once; none where the
    output was forced or already loops (its own warning says so)."""
    if trace.mode == "forced" or trace.loop:
        return ()
    words = trace.output_tokens
    return tuple(dict.fromkeys(b for a, b in pairwise(words) if a == b and not is_punctuation(b)))


def doubts(
    trace: Trace,
    lost: Sequence[bool] | None = None,
    corpus: TrainingPairs | None = None,
    max_len: int | None = None,
) -> Doubts:
    """What speaks against ``trace``, a translation (word-level where the model reads pieces):
    ``lost``, one flag per source word but ``<eos>`` (:func:`.lost_words.lost_or_unknown`;
    None: not looked for); ``corpus``, the training pairs, for the words never seen (None: not
    asked);
    ``max_len``, the longest training source in tokens (None: not known). A forced decoding
    writes the reference it was given: nothing speaks against the model there."""
    if trace.mode == "forced":  # the output is the reference given, not the model's own
        return Doubts(confidence(trace), forced=True)
    source = trace.src_tokens[:-1]
    unseen: tuple[str, ...] = ()
    made_up: tuple[str, ...] = ()
    if corpus is not None:
        words = dict.fromkeys(w for w in source if _countable(w))
        unseen = tuple(w for w in words if not corpus.seen(w))
        copied = {w.lower() for w in source}
        output = dict.fromkeys(
            w for w in trace.output_tokens if _countable(w) and w.lower() not in copied
        )
        made_up = tuple(w for w in output if not corpus.written(w))
    own = (trace.pieces or trace).src_tokens[:-1]
    return Doubts(
        confidence=confidence(trace),
        unseen=unseen,
        too_long=len(own) if max_len is not None and len(own) > max_len else None,
        doubled=doubled_words(trace),
        made_up=made_up,
        lost=tuple(dict.fromkeys(w for w, g in zip(source, lost or (), strict=False) if g)),
        counted=corpus is not None,
        aligned=lost is not None,
    )


def check_translations(
    translator: Translator,
    traces: Sequence[Trace],
    aligner: EflomalAligner | None = None,
    corpus: TrainingPairs | None = None,
) -> list[Doubts]:
    """:func:`doubts` of each of ``translator``'s ``traces``: their lost words by ``aligner``
    (eflomal with the priors of the model's corpus; None: not looked for), all aligned in one
    run (:func:`.lost_words.lost_or_unknown`); ``corpus`` as :func:`doubts` takes it."""
    lost: list[list[bool] | None] = [None] * len(traces)
    if aligner is not None and traces:
        pairs = [(t.src_tokens[:-1], t.output_tokens) for t in traces]
        lost = lost_or_unknown(aligner, pairs, translator.text.src_lang, [corpus] * len(traces))
    longest = longest_source(translator)
    return [doubts(t, g, corpus, longest) for t, g in zip(traces, lost, strict=True)]


def longest_source(translator: Translator) -> int | None:
    """The most tokens a training source had: ``max_len``, three times that where training
    joined pairs (``join_fraction``); None for a model whose card does not say."""
    if translator.data is None:
        return None
    joined = translator.card.get("train_config", {}).get("join_fraction", 0)
    return translator.data.max_len * (3 if joined else 1)


def _countable(word: str) -> bool:
    """Whether a source word's training pairs say something: it has letters (numbers and
    punctuation are copied, not learned)."""
    return any(c.isalpha() for c in word)
