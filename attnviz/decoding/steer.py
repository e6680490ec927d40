"""Steering a decoding: a prefix the output must start with, and attention weights that replace
the model's at chosen steps. Both are checked here, before any decoding, with messages a user
can act on (:class:`InputError`).

The dashboard's what-ifs are built here too, from a Trace and the user's choices, so that the
page only asks and draws: :func:`word_prefix` makes a model write another word at a step, and
:func:`attention_edit` makes it look elsewhere there (:class:`Edit`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import NamedTuple

import numpy as np
import torch

from ..data.vocab import EOS, SPECIALS, UNK, Vocab
from ..errors import InputError
from ..i18n import gettext as _
from ..model.transformer import edited_head
from .trace import Trace

SUMS_TO_ONE = 1e-6  # weights already summing to 1 this closely are used as given


def prefix_words(prefix: str | Sequence[str], tokenize) -> list[str]:
    """The target words of ``prefix``: text is tokenized as a reference is (``tokenize``), a
    sequence of tokens (as a Trace shows them) is taken as it is."""
    words = tokenize(prefix) if isinstance(prefix, str) else list(prefix)
    if not all(isinstance(w, str) and w.strip() for w in words):
        raise InputError(_("A prefix is target words: text, or a list of non-empty strings."))
    if special := [w for w in words if w in SPECIALS]:
        raise InputError(
            _("A prefix cannot hold {token}: it is not a word the model writes.").format(
                token=special[0]
            )
        )
    return words


def check_known(words: list[str], vocab: Vocab) -> None:
    """A whole-word model can only be made to write words of its vocabulary."""
    if unknown := [w for w in words if w not in vocab]:
        raise InputError(
            _(
                "“{word}” is not in the model's target vocabulary ({n} words), so it cannot "
                "write it; pick one of its candidates."
            ).format(word=unknown[0], n=len(vocab))
        )


class Edits(NamedTuple):
    """What-if attention edits: each step's weights, and for a Transformer the head of its
    picture layer that they replace (0-based; the other heads keep their own)."""

    weights: Mapping[int, Sequence[float]]
    head: int | None = None


def edit_weights(
    edits: Edits | None, n_src: int, device: torch.device, heads: int
) -> dict[int, torch.Tensor]:
    """Each step's replacement weights as a (1, ``n_src``) tensor summing to 1, or for a
    Transformer of ``heads`` heads a layer (1, N, ``n_src``), the edited head's row and NaN for
    the others
    (:func:`~attnviz.model.transformer.edited_head`).

    Weights are over the source tokens the model attends to, ``<eos>`` included (a subword
    model's pieces); they must be finite, not negative, and not all zero."""
    out = {}
    for step, weights in (edits.weights if edits else {}).items():
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)) or step < 0:
            raise InputError(f"An attention edit's step must be a step number, not {step!r}.")
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (n_src,):
            raise InputError(
                f"The attention edit at step {step} has {w.size} weights; the model attends "
                f"to {n_src} source tokens (<eos> included)."
            )
        if not np.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
            raise InputError(
                f"The attention edit at step {step} must be weights that are not negative and "
                "not all zero."
            )
        if abs(w.sum() - 1.0) > SUMS_TO_ONE:
            w = w / w.sum()
        row = torch.tensor(w, dtype=torch.float32, device=device).unsqueeze(0)
        out[int(step)] = row if edits.head is None else edited_head(row, edits.head, heads)
    return out


def source_owner(trace: Trace) -> list[int]:
    """For each source token the model read (its pieces, then ``<eos>``), the index of the
    word of ``trace.src_tokens`` it belongs to."""
    if trace.owners is None:
        return list(range(len(trace.src_tokens)))
    return list(trace.owners.src)


def piece_step(trace: Trace, t: int) -> int:
    """The decoding step (over the model's own tokens) that started output word ``t``."""
    return t if trace.owners is None else trace.owners.tgt.index(t)


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


# --- the dashboard's what-ifs, from a Trace and the user's choices -------------------------------


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
