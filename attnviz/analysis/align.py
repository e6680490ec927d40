"""Word alignments from attention, over the whitespace-separated words of the input.

The model's tokenizer may split an input word further (``j'ai`` -> ``j'`` ``ai``); its
attention is summed over the pieces of a source word and averaged over the pieces of a target
word, so links are reported between the words the user wrote (Pharaoh ``i-j``, 0-based).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..decoding.trace import Trace
from ..decoding.translator import Translator
from ..decoding.words import words_attention
from ..errors import InputError
from .aer import GoldPair


def word_weights(
    trace: Trace,
    src_owner: list[int],
    tgt_owner: list[int],
    n_src: int,
    n_tgt: int,
    shift: bool = False,
    layer: int | None = None,
    head: int | None = None,
) -> np.ndarray:
    """Attention between words, (n_tgt, n_src + 1); the last column is the source ``<eos>``.

    ``trace`` is a forced decoding whose tokens are the pieces listed in the owner lists,
    each followed by ``<eos>``. Row t of the attention belongs to the output token t; with
    ``shift`` it belongs to the *input* of step t, y_{t-1}, so token t takes row t + 1 (the
    step that reads it; the last token takes the ``<eos>`` step's row: Shift-Att, Chen et al.,
    2020). ``layer`` and ``head`` choose a Transformer's attention (:meth:`Trace.picture`).
    """
    S, T = len(src_owner), len(tgt_owner)
    matrix = trace.picture(layer, head)
    rows = matrix[1 : T + 1] if shift else matrix[:T]
    return words_attention(rows[:, : S + 1], [*src_owner, n_src], tgt_owner, n_src + 1, n_tgt)


def argmax_links(weights: np.ndarray) -> list[tuple[int, int]]:
    """Link each target word to the source word it attends to most; ``<eos>`` links nothing."""
    n_src = weights.shape[1] - 1
    links = []
    for j, row in enumerate(weights):
        i = int(np.argmax(row))
        if row.any() and i < n_src:
            links.append((i, j))
    return links


def threshold_links(weights: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """Every (source, target) pair whose weight is at least ``threshold``; ``<eos>`` excluded."""
    n_src = weights.shape[1] - 1
    rows, cols = np.nonzero(weights[:, :n_src] >= threshold)
    return [(int(i), int(j)) for j, i in zip(rows, cols, strict=True)]


def intersect_links(weights: np.ndarray) -> list[tuple[int, int]]:
    """Links that are the argmax of their row (target word) and of their column (source
    word) at once: fewer links than argmax, and more of them right."""
    words = weights[:, :-1]
    if words.size == 0:
        return []
    best_src, best_tgt = words.argmax(1), words.argmax(0)
    return [(int(i), j) for j, i in enumerate(best_src) if best_tgt[i] == j and words[j, i] > 0]


METHODS = ("argmax", "threshold", "intersect")


def extract_links(
    weights: np.ndarray, method: str = "argmax", threshold: float = 0.5
) -> list[tuple[int, int]]:
    """Links from a word-level matrix (n_tgt, n_src + 1) by one of :data:`METHODS`."""
    if method == "argmax":
        return argmax_links(weights)
    if method == "threshold":
        return threshold_links(weights, threshold)
    if method == "intersect":
        return intersect_links(weights)
    raise ValueError(f"method must be one of {METHODS}, not {method!r}")


@dataclass(frozen=True)
class ForcedWords:
    """A forced decoding over whitespace words, each tokenized alone; for a subword model, the
    decoding over pieces, each piece owned by the whitespace word it spells part of."""

    trace: Trace
    src_owner: list[int]  # for each source token (or piece), the index of its word
    tgt_owner: list[int]  # for each target token (or piece), the index of its word
    n_src: int  # source words
    n_tgt: int  # target words

    def links(
        self,
        method: str = "argmax",
        threshold: float = 0.5,
        shift: bool = False,
        layer: int | None = None,
        head: int | None = None,
    ) -> list[tuple[int, int]]:
        """Word links; ``method``, ``threshold``, ``shift``, ``layer`` and ``head`` as in
        :func:`extract_links` and :func:`word_weights`."""
        weights = word_weights(
            self.trace, self.src_owner, self.tgt_owner, self.n_src, self.n_tgt, shift, layer, head
        )
        return extract_links(weights, method, threshold)


def forced_words(translator: Translator, source: str, target: str) -> ForcedWords:
    """Force-decode ``target`` on ``source``, both tokenized word by word (their words as
    :meth:`TextConfig.words` counts them: Chinese by jieba unless already cut)."""
    text = translator.text
    src_words, tgt_words = text.words(source, "src"), text.words(target, "tgt")
    src_tokens, src_owner = translator.text.tokenize_words(src_words, "src")
    tgt_tokens, tgt_owner = translator.text.tokenize_words(tgt_words, "tgt")
    if not src_tokens:
        raise InputError("the source side is empty")
    trace = translator.align_tokens(src_tokens, tgt_tokens, source=source)
    if trace.owners is not None and trace.pieces is not None:  # (both or neither) read the
        # decoder's own steps, one per piece (see --shift): the token each piece spells part
        # of, then its word; a forced decoding ends in <eos>
        src_owner = [src_owner[i] for i in trace.owners.src[:-1]]
        tgt_owner = [tgt_owner[i] for i in trace.owners.tgt[:-1]]
        trace = trace.pieces
    return ForcedWords(trace, src_owner, tgt_owner, len(src_words), len(tgt_words))


def gold_on_trace(
    translator: Translator, trace: Trace, source: str, target: str, links
) -> list[tuple[int, int]] | None:
    """Word links between ``source`` and ``target`` as token links of ``trace``, a forced
    decoding of ``target`` on ``source``; None when the trace's tokens are not those of the
    words tokenized one by one (then no token-level picture of the links is exact)."""
    text = translator.text
    src_tokens, src_owner = text.tokenize_words(text.words(source, "src"), "src")
    tgt_tokens, tgt_owner = text.tokenize_words(text.words(target, "tgt"), "tgt")
    if trace.src_tokens[:-1] != src_tokens or trace.tgt_tokens[:-1] != tgt_tokens:
        return None
    links = set(links)
    return [
        (i, j)
        for i, si in enumerate(src_owner)
        for j, tj in enumerate(tgt_owner)
        if (si, tj) in links
    ]


def gold_to_draw(
    translator: Translator, trace: Trace, gold: GoldPair | None, source: str, target: str
) -> list[tuple[int, int]] | None:
    """The token links of ``gold``'s word links to draw on ``trace``, the decoding of
    ``source`` on the reference ``target``; None when they do not apply: no gold, a trace that
    is not a forced decoding, or gold that belongs to another pair."""
    if gold is None or trace.mode != "forced":
        return None
    if (gold.source, gold.target) != (source.strip(), target.strip()):
        return None
    return gold_on_trace(translator, trace, gold.source, gold.target, gold.links)


def attention_word_links(
    translator: Translator,
    source: str,
    target: str,
    method: str = "argmax",
    threshold: float = 0.5,
    shift: bool = False,
    layer: int | None = None,
    head: int | None = None,
) -> list[tuple[int, int]]:
    """(source word, target word) links for one pair of whitespace-tokenized sentences."""
    return forced_words(translator, source, target).links(method, threshold, shift, layer, head)


def trace_links(trace: Trace, method: str = "argmax", threshold: float = 0.5):
    """Token-level links of a Trace (source token, output token); the output ``<eos>`` row and
    the source ``<eos>`` column link nothing."""
    return extract_links(trace.output_picture(), method, threshold)


def pharaoh(links: list[tuple[int, int]]) -> str:
    """Links as Pharaoh text: ``i-j`` pairs sorted by source, then target index."""
    return " ".join(f"{i}-{j}" for i, j in sorted(links))
