"""What the What if… view offers and asks a model for, built from Traces and the user's
choices, so that the view only asks and draws: :func:`word_prefix` makes a model write another
word at a step, and :func:`attention_edit` makes it look elsewhere there (:class:`Edit`), over
the model's own tokens (see attnviz.decoding.steer)."""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from attnviz.data.vocab import EOS, UNK
from attnviz.decoding.steer import piece_step, source_owner
from attnviz.decoding.trace import Trace


def spread(word_weights: np.ndarray, owner: list[int], own: np.ndarray) -> np.ndarray:
    """Weights over words as weights over the model's tokens: each word's weight is shared
    among its pieces as the model's ``own`` weights share it there (evenly where those are
    all 0); the result sums to 1."""
    owner_arr = np.asarray(owner)
    own = np.asarray(own, dtype=np.float64)
    word_total = np.bincount(owner_arr, weights=own, minlength=len(word_weights))[owner_arr]
    word_pieces = np.bincount(owner_arr, minlength=len(word_weights))[owner_arr]
    share = np.divide(own, word_total, out=1.0 / word_pieces, where=word_total > 0)
    out = np.asarray(word_weights, dtype=np.float64)[owner_arr] * share
    return out / out.sum()


def all_on(word: int, n_words: int) -> np.ndarray:
    """Every weight on source word ``word``."""
    return np.eye(n_words)[word]


def without(word: int, weights: np.ndarray) -> np.ndarray:
    """``weights`` with source word ``word`` removed and the rest renormalized; all on the
    others evenly when it held everything."""
    w = np.asarray(weights, dtype=np.float64).copy()
    w[word] = 0.0
    if w.sum() <= 0:
        w = np.ones_like(w)
        w[word] = 0.0
    return w / w.sum()


class Edit(StrEnum):
    """How a what-if replaces the attention of one step, over the source words."""

    ALL_ON = "all_on"  # every weight on one source word
    WITHOUT = "without"  # one source word taken out, the others renormalized
    OTHER = "other"  # the other model's weights at the same step


def _last(trace: Trace, step: int) -> int:
    """Output word ``step`` of ``trace``, or its last one past the end."""
    return min(step, len(trace.tgt_tokens) - 1)


def words_offered(trace: Trace, step: int) -> list[str]:
    """The words to write instead of ``trace``'s at output word ``step`` (its last past the
    end): the other candidates of that step, neither ``<eos>`` nor ``<unk>``."""
    t = _last(trace, step)
    written = trace.tgt_tokens[t]
    return [c.token for c in trace.candidates[t] if c.token not in (EOS, UNK, written)]


def word_prefix(trace: Trace, step: int, word: str) -> tuple[str, ...]:
    """The prefix (see :meth:`Translator.translate`) that makes a model write ``word`` at
    output word ``step`` of ``trace`` (its last past the end): the words ``trace`` wrote
    before it, then ``word``."""
    return (*trace.tgt_tokens[: _last(trace, step)], word)


def edits_offered(trace: Trace, other: Trace, step: int) -> list[Edit]:
    """The edits of ``trace``'s attention at output word ``step``: the ``other`` model's
    weights only where they fit, over the same source tokens at a step it reached."""
    if trace.src_tokens == other.src_tokens and step < len(other.tgt_tokens):
        return list(Edit)
    return [Edit.ALL_ON, Edit.WITHOUT]


def attention_edit(
    trace: Trace, step: int, how: Edit, source: int = 0, other: Trace | None = None
) -> tuple[int, tuple[float, ...]]:
    """The attention edit (step, weights) of :meth:`Translator.translate` that makes the
    model of ``trace``, a greedy decoding, look elsewhere at output word ``step`` (its last
    past the end): all on source word ``source``, without it, or as ``other`` (a decoding of
    the same source words) looked at that step. The step and weights are over the model's own
    tokens: a word's weight is shared among its pieces as the model shared it (:func:`spread`).
    """
    t = _last(trace, step)
    if how == Edit.ALL_ON:
        word_weights = all_on(source, len(trace.src_tokens))
    elif how == Edit.WITHOUT:
        word_weights = without(source, trace.weights[t])
    elif other is None:
        raise ValueError("Edit.OTHER needs the other model's Trace (other=)")
    else:
        word_weights = other.weights[_last(other, step)]
    piece = piece_step(trace, t)
    own = (trace.pieces or trace).weights[piece]
    weights = spread(word_weights, source_owner(trace), own)
    return piece, tuple(float(w) for w in weights)
