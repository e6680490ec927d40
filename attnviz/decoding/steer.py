"""Steering a decoding: a prefix the output must start with, and attention weights that replace
the model's at chosen steps. Both are checked here, before any decoding, with messages a user
can act on (:class:`InputError`). A Trace's word steps as the model's own token steps
(:func:`piece_step`, :func:`source_owner`), where an edit is made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import torch

from ..data.vocab import SPECIALS, Vocab
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
    head = edits.head if edits else None
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
        out[int(step)] = row if head is None else edited_head(row, head, heads)
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
