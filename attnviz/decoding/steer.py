"""Steering a decoding: a prefix the output must start with, and attention weights that replace
the model's at chosen steps. Both are checked here, before any decoding, with messages a user
can act on (:class:`InputError`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch

from ..data.vocab import SPECIALS, Vocab
from ..errors import InputError

SUMS_TO_ONE = 1e-6  # weights already summing to 1 this closely are used as given


def prefix_words(prefix: str | Sequence[str], tokenize) -> list[str]:
    """The target words of ``prefix``: text is tokenized as a reference is (``tokenize``), a
    sequence of tokens (as a Trace shows them) is taken as it is."""
    words = tokenize(prefix) if isinstance(prefix, str) else list(prefix)
    if not all(isinstance(w, str) and w.strip() for w in words):
        raise InputError("A prefix is target words: text, or a list of non-empty strings.")
    if special := [w for w in words if w in SPECIALS]:
        raise InputError(f"A prefix cannot hold {special[0]}: it is not a word the model writes.")
    return words


def check_known(words: list[str], vocab: Vocab) -> None:
    """A whole-word model can only be made to write words of its vocabulary."""
    if unknown := [w for w in words if w not in vocab]:
        raise InputError(
            f"“{unknown[0]}” is not in the model's target vocabulary ({len(vocab)} words), "
            "so it cannot write it; pick one of its candidates."
        )


def edit_weights(
    edits: Mapping[int, Sequence[float]], n_src: int, device: torch.device
) -> dict[int, torch.Tensor]:
    """Each step's replacement weights as a (1, ``n_src``) tensor summing to 1.

    Weights are over the source tokens the model attends to, ``<eos>`` included (a subword
    model's pieces); they must be finite, not negative, and not all zero."""
    out = {}
    for step, weights in edits.items():
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
        out[int(step)] = torch.tensor(w, dtype=torch.float32, device=device).unsqueeze(0)
    return out


def source_owner(translator, trace) -> list[int]:
    """For each source token the model read (its pieces, then ``<eos>``), the index of the
    word of ``trace.src_tokens`` it belongs to."""
    if trace.pieces is None:
        return list(range(len(trace.src_tokens)))
    words = trace.src_tokens[:-1]
    return [*translator.subwords.src.split(words)[1], len(words)]


def piece_step(translator, trace, t: int) -> int:
    """The decoding step (over the model's own tokens) that started output word ``t``."""
    if trace.pieces is None:
        return t
    pieces = trace.pieces.tgt_tokens
    ended = pieces[-1:] == ["<eos>"]
    words, owner = translator.subwords.tgt.join(pieces[:-1] if ended else pieces)
    return [*owner, *([len(words)] if ended else [])].index(t)


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
