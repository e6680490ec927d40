"""A Transformer's cross-attention heads on one sentence: how well each aligns, which ones look
at the end of the sentence instead of a word, and whether reading a step's attention as its
input word's (Shift-Att, Chen et al., 2020) aligns better."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..decoding.trace import Trace
from .aer import Gold, score
from .align import argmax_links
from .diagnostics import is_punctuation


@dataclass(frozen=True)
class HeadsOnSentence:
    """Every head's figures on one translation, each (layers, heads)."""

    aer: np.ndarray  # argmax AER against the given links, percent
    on_end: np.ndarray  # share of output words whose argmax is <eos> or the final punctuation
    mean_aer: np.ndarray  # (layers,) each layer's heads averaged
    shifted_aer: np.ndarray  # (layers,) the same, Shift-Att

    @property
    def best(self) -> tuple[int, int]:
        """The (layer, head) that aligns best."""
        layer, head = np.unravel_index(np.argmin(self.aer), self.aer.shape)
        return int(layer), int(head)


def heads_on_sentence(trace: Trace, links: Sequence[tuple[int, int]]) -> HeadsOnSentence:
    """Each head of ``trace`` (a Transformer's, over the words its heatmap shows) scored
    against ``links`` (source word, output word), eflomal's or gold."""
    if trace.heads is None:
        raise ValueError("only a Transformer has heads to score")
    layers, heads = trace.heads.shape[1:3]
    gold = [Gold(set(links), set(links))]
    rows = len(trace.output_tokens)

    def aer(matrix: np.ndarray) -> float:
        return score(gold, [set(argmax_links(matrix[:rows]))]).aer

    end = {len(trace.src_tokens) - 1} | {
        j for j in (len(trace.src_tokens) - 2,) if j >= 0 and is_punctuation(trace.src_tokens[j])
    }
    grid = np.empty((layers, heads))
    on_end = np.empty((layers, heads))
    for layer in range(layers):
        for head in range(heads):
            matrix = trace.picture(layer, head)
            grid[layer, head] = aer(matrix)
            on_end[layer, head] = np.isin(matrix[:rows].argmax(1), list(end)).mean() if rows else 0
    means = [trace.picture(layer) for layer in range(layers)]
    return HeadsOnSentence(
        aer=grid,
        on_end=on_end,
        mean_aer=np.array([aer(m) for m in means]),
        shifted_aer=np.array([aer(m[1:]) for m in means]),
    )


def best_picture_head(card: dict, layer: int) -> int:
    """The head of ``layer`` (the picture layer) that aligned best on the gold probes of a
    Transformer's card (``heads_aer``, written at the end of training); head 0 without."""
    measured = card.get("heads_aer")
    if not measured or layer >= len(measured["heads"]):
        return 0
    return int(np.argmin(measured["heads"][layer]))
