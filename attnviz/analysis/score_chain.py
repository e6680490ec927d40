"""The chain of attention scores from Bahdanau to the Transformer, with one step's own numbers:
at the step that wrote an output word, each model's score of the source word the Transformer's
picture looks at most, and the weight its softmax gave it.

The chain: Bahdanau's additive vᵀ tanh(W s + U h), Luong's general hᵀ W h, the plain dot
product hᵀ h (read off Luong's own vectors: no shipped model scores with it), the Transformer's
scaled q·k/√d (its picture layer's heads averaged), then each of those heads alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..decoding.steer import piece_step
from ..decoding.step_math import step_math
from ..decoding.trace import Trace
from ..decoding.translator import Translator


@dataclass(frozen=True)
class ChainLink:
    """One score of the chain at this step, on the chosen source word."""

    form: str  # "additive", "general", "dot", "scaled" or "head"
    model: str  # the model whose vectors made it
    score: float | None  # None where no score is kept (a head's: its weight alone)
    weight: float  # the softmax's share for the word's first piece
    head: int | None = None  # a "head" link's head of the picture layer, 0-based
    scaled: bool = False  # the model divided this score by sqrt(H) (Trace.scaled)


Decoding = tuple[str, Translator, Trace]  # a model's name, its translator and its trace


def score_chain(
    recurrent: list[Decoding], transformer: Decoding, t: int
) -> tuple[int, list[ChainLink]]:
    """The source word (0-based) the Transformer's picture weighs most at its output word
    ``t``, and the chain's links on that word, each at its model's own output word ``t``
    (``recurrent``: the Bahdanau and Luong models beside it)."""
    name, translator, trace = transformer
    t = min(t, len(trace.tgt_tokens) - 1)
    word = int(np.argmax(trace.picture()[t, : len(trace.src_tokens) - 1]))
    links = []
    for model in recurrent:
        links += _recurrent_links(*model, t, word)
    own, step, piece = _on_pieces(trace, t, word)
    if own.heads is None or own.scores is None:
        raise ValueError(f"{name} is not a Transformer, whose heads end the chain")
    heads = own.heads[step, translator.model.config.picture_layer]  # (N, S)
    scaled = ChainLink(
        "scaled", name, float(own.scores[step, piece]), float(own.picture()[step, piece])
    )
    return word, [
        *links,
        scaled,
        *(ChainLink("head", name, None, float(row[piece]), h) for h, row in enumerate(heads)),
    ]


def _recurrent_links(
    model: str, translator: Translator, trace: Trace, t: int, word: int
) -> list[ChainLink]:
    """A GRU model's score and weight of ``word`` at its output word ``t``: additive for
    Bahdanau; for Luong its general score and, from the same vectors, the plain dot product."""
    if not trace.has_attention or trace.heads is not None:
        return []
    t = min(t, len(trace.tgt_tokens) - 1)
    own, step, piece = _on_pieces(trace, t, word)
    m = step_math(translator, own, step)
    form = "additive" if m.attention == "bahdanau" else m.attention
    score, weight = float(m.scores[piece]), float(m.weights[piece])
    links = [ChainLink(form, model, score, weight, scaled=trace.scaled)]
    if m.attention == "general":
        dots = m.values @ m.query
        shares = np.exp(dots - dots.max())
        links.append(
            ChainLink("dot", model, float(dots[piece]), float(shares[piece] / shares.sum()))
        )
    return links


def _on_pieces(trace: Trace, t: int, word: int) -> tuple[Trace, int, int]:
    """The trace over the model's own tokens, the step that started output word ``t`` and the
    first token of source word ``word`` (the word itself where tokens are words)."""
    if trace.pieces is None or trace.owners is None:  # (both or neither)
        return trace, t, min(word, len(trace.src_tokens) - 1)
    return trace.pieces, piece_step(trace, t), trace.owners.src.index(word)
