"""Word alignments from attention, over the whitespace-separated words of the input.

The model's tokenizer may split an input word further (``j'ai`` -> ``j'`` ``ai``); its
attention is summed over the pieces of a source word and averaged over the pieces of a target
word, so links are reported between the words the user wrote (Pharaoh ``i-j``, 0-based).
"""

from __future__ import annotations

import numpy as np

from .trace import Trace
from .translator import InputError, Translator


def tokenize_words(
    translator: Translator, words: list[str], side: str
) -> tuple[list[str], list[int]]:
    """Tokenize each word alone; returns the tokens and, for each, the index of its word."""
    tokens, owner = [], []
    for i, word in enumerate(words):
        pieces = translator.text.tokenize(word, side)
        tokens += pieces
        owner += [i] * len(pieces)
    return tokens, owner


def word_weights(
    trace: Trace, src_owner: list[int], tgt_owner: list[int], n_src: int, n_tgt: int
) -> np.ndarray:
    """Attention between words, (n_tgt, n_src + 1); the last column is the source ``<eos>``.

    ``trace`` is a forced decoding whose tokens are the pieces listed in the owner lists,
    each followed by ``<eos>``; the target ``<eos>`` row is left out.
    """
    S, T = len(src_owner), len(tgt_owner)
    by_src = np.zeros((T, n_src + 1))
    np.add.at(by_src.T, np.array([*src_owner, n_src]), trace.weights[:T, : S + 1].T)  # sum pieces
    out = np.zeros((n_tgt, n_src + 1))
    np.add.at(out, np.array(tgt_owner, dtype=int), by_src)
    counts = np.bincount(np.array(tgt_owner, dtype=int), minlength=n_tgt)
    return out / np.maximum(counts, 1)[:, None]  # average pieces; a word with none stays 0


def argmax_links(weights: np.ndarray) -> list[tuple[int, int]]:
    """Link each target word to the source word it attends to most; ``<eos>`` links nothing."""
    n_src = weights.shape[1] - 1
    links = []
    for j, row in enumerate(weights):
        i = int(np.argmax(row))
        if row.any() and i < n_src:
            links.append((i, j))
    return links


def align_words(translator: Translator, source: str, target: str) -> list[tuple[int, int]]:
    """(source word, target word) links for one pair of whitespace-tokenized sentences."""
    src_words, tgt_words = source.split(), target.split()
    src_tokens, src_owner = tokenize_words(translator, src_words, "src")
    tgt_tokens, tgt_owner = tokenize_words(translator, tgt_words, "tgt")
    if not src_tokens:
        raise InputError("the source side is empty")
    trace = translator.align_tokens(src_tokens, tgt_tokens, source=source)
    return argmax_links(word_weights(trace, src_owner, tgt_owner, len(src_words), len(tgt_words)))


def pharaoh(links: list[tuple[int, int]]) -> str:
    """Links as Pharaoh text: ``i-j`` pairs sorted by source, then target index."""
    return " ".join(f"{i}-{j}" for i, j in sorted(links))
