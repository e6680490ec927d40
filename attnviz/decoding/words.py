"""A decoding over pieces read as words: the word-level view the user sees.

The model attends over pieces; the user reads words. Attention between words is the
attention between their pieces, **summed over a source word's pieces** (the share of the
source it took) and **averaged over a target word's pieces** (each piece's step counts the
same), so every row still sums to 1.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from ..data.subwords import WORD_START, Subwords
from ..data.vocab import EOS
from .trace import Candidate, Owners, Trace


def group_rows(matrix: np.ndarray, owner: list[int], n: int, how: str) -> np.ndarray:
    """Rows of ``matrix`` combined by ``owner`` into ``n`` rows: "sum" or "mean".

    A word's pieces are consecutive, so where ``owner`` never decreases each group is a run of
    rows: the k-th rows of every run are added in one step, k = 0, 1, ..., which sums each
    group in float64 in the order ``np.add.at`` does (the same sums, bit for bit) in as many
    steps as the longest word has pieces, not one per element. Any other ``owner`` falls back
    to ``np.add.at``."""
    out = np.zeros((n, *matrix.shape[1:]), dtype=np.float64)
    runs = _runs(tuple(map(int, owner)), n)
    if runs is None:
        np.add.at(out, np.asarray(owner, dtype=int), matrix)
        counts = np.maximum(np.bincount(np.asarray(owner, dtype=int), minlength=n), 1)
    else:
        steps, counts = runs
        for words, rows in steps:
            out[words] += matrix[rows]
    if how == "mean":
        out /= counts.reshape(-1, *([1] * (matrix.ndim - 1)))
    return out


@functools.lru_cache(maxsize=256)
def _runs(owner: tuple[int, ...], n: int) -> tuple[list, np.ndarray] | None:
    """How :func:`group_rows` adds up rows owned by ``owner`` (never decreasing, each in
    [0, n)): for k = 0, 1, ..., the words of more than k rows and the k-th row of each; and
    every word's row count, at least 1. None for any other ``owner``. Cached: the owners of one
    Trace serve several matrices."""
    if not owner or owner[0] < 0 or owner[-1] >= n:
        return None
    if any(a > b for a, b in itertools.pairwise(owner)):
        return None
    starts = [0, *(i + 1 for i, (a, b) in enumerate(itertools.pairwise(owner)) if a != b)]
    ends = [*starts[1:], len(owner)]
    steps = []
    for k in range(max(e - s for s, e in zip(starts, ends, strict=True))):
        live = [(owner[s], s + k) for s, e in zip(starts, ends, strict=True) if e - s > k]
        steps.append(tuple(np.array(column) for column in zip(*live, strict=True)))
    return steps, np.maximum(np.bincount(owner, minlength=n), 1)


def words_attention(
    weights: np.ndarray, src_owner: list[int], tgt_owner: list[int], n_src: int, n_tgt: int
) -> np.ndarray:
    """Attention (T pieces, S pieces) as attention (n_tgt words, n_src words): summed over a
    source word's pieces, averaged over a target word's pieces; rows keep summing to 1."""
    by_src = group_rows(weights.T, src_owner, n_src, "sum").T  # (T, n_src)
    return group_rows(by_src, tgt_owner, n_tgt, "mean")


def words_heads(heads: np.ndarray, by_words) -> np.ndarray:
    """Every head's attention (T pieces, L, N, S pieces) as attention over words
    (T words, L, N, S words), each head read as :func:`words_attention` reads one picture."""
    T, L, N, S = heads.shape
    flat = heads.reshape(T, L * N, S).transpose(1, 0, 2)  # (L * N, T, S)
    words = np.stack([by_words(words_attention, m) for m in flat])  # (L * N, T', S')
    return words.transpose(1, 0, 2).reshape(words.shape[1], L, N, words.shape[2])


def words_scores(
    scores: np.ndarray, src_owner: list[int], tgt_owner: list[int], n_src: int, n_tgt: int
) -> np.ndarray:
    """Raw scores of words: a source word's is the log-sum-exp of its pieces' scores (so that
    one step's softmax over words gives the summed weights), averaged over a target word's
    pieces."""
    by_src = np.full((scores.shape[0], n_src), -np.inf)
    first = np.full(n_src, True)
    for j, k in enumerate(src_owner):
        if first[k]:  # log(exp(-inf) + exp(x)) is x: a word's first piece is copied
            by_src[:, k], first[k] = scores[:, j], False
        else:
            by_src[:, k] = np.logaddexp(by_src[:, k], scores[:, j])
    return group_rows(by_src, tgt_owner, n_tgt, "mean")


def words_trace(
    trace: Trace, subwords: Subwords, src_words: list[str], tgt_words: list[str] | None = None
) -> Trace:
    """The word-level view of ``trace``, a decoding over pieces: the same steps read as words
    (see the module docstring), with ``trace`` kept as its ``pieces`` and the word that owns
    each of its tokens as its ``owners``.

    ``src_words`` are the words the source pieces came from; ``tgt_words``, when given (forced
    decoding), the words the target pieces came from, else words are read off the pieces.
    Per target word: its probability is the product of its pieces' (the word's probability),
    its candidates are those of the step that wrote its first letters (not of a bare word-start
    piece before them, whose candidates are pieces, not words), its query and context the mean
    of its steps'.
    """
    src_owner, tgt_owner, tgt_words = _owners(trace, subwords, src_words, tgt_words)
    n_src, n_tgt = len(src_words) + 1, len(tgt_words) + trace.ended  # <eos>: a word of its own
    first = [_first_letters(trace.tgt_tokens, tgt_owner, i) for i in range(n_tgt)]
    known = _known(src_owner, trace.src_tokens, n_src, subwords)
    log_probs = group_rows(np.log(np.maximum(trace.probs, 1e-45))[:, None], tgt_owner, n_tgt, "sum")

    def mean(matrix):
        return None if matrix is None else group_rows(matrix, tgt_owner, n_tgt, "mean")

    def by_words(read, matrix):  # none without attention
        return None if matrix is None else read(matrix, src_owner, tgt_owner, n_src, n_tgt)

    return Trace(
        source=trace.source,
        src_tokens=[*src_words, EOS],
        src_known=known,
        tgt_tokens=[*tgt_words, *([EOS] if trace.ended else [])],
        text=trace.text,
        weights=by_words(words_attention, trace.weights),
        scores=by_words(words_scores, trace.scores),
        heads=None if trace.heads is None else words_heads(trace.heads, by_words),
        probs=np.exp(log_probs[:, 0]),
        candidates=[_as_words(trace.candidates[t], subwords) for t in first],
        replaced=[None] * n_tgt,
        mode=trace.mode,
        attention=trace.attention,
        scaled=trace.scaled,
        log_prob=trace.log_prob,
        query=mean(trace.query),
        context=mean(trace.context),
        pieces=trace,
        owners=Owners(tuple(src_owner), tuple(tgt_owner)),
        prefix=tgt_owner[trace.prefix - 1] + 1 if trace.prefix else 0,
        edited=tuple(sorted({tgt_owner[t] for t in trace.edited if t < len(tgt_owner)})),
        precision=trace.precision,
    )


def _as_words(candidates: list[Candidate], subwords: Subwords) -> list[Candidate]:
    """A step's candidate pieces as text."""
    return [Candidate(_as_text(c.token, subwords), c.prob) for c in candidates]


def _as_text(piece: str, subwords: Subwords) -> str:
    """A candidate piece as the word view shows it: without its word-start mark, and a byte
    piece of a printable ASCII character as that character (``<0x3A>`` -> ``:``); the mark
    alone, a control byte, or a byte of a longer character, as it is."""
    if subwords.tgt.is_byte(piece):
        char = chr(int(piece[3:-1], 16))
        return char if char.isascii() and char.isprintable() else piece
    return piece.lstrip(WORD_START) or piece


def _first_letters(pieces: list[str], owner: list[int], word: int) -> int:
    """The step that wrote ``word``'s first letters: its first piece, or the next where the
    first is the word-start mark alone ("▁" then ":" for a ":" after a space)."""
    steps = [t for t, o in enumerate(owner) if o == word]
    return next((t for t in steps if t < len(pieces) and pieces[t] != WORD_START), steps[0])


def _known(
    src_owner: list[int], src_tokens: list[str], n_src: int, subwords: Subwords
) -> list[bool]:
    """Per source word: whether the model knew it, that is, whether no piece of it is a byte
    piece (a character the sentencepiece model never saw)."""
    known = [True] * n_src
    for j, piece in zip(src_owner, src_tokens, strict=True):
        known[j] &= not subwords.src.is_byte(piece)
    return known


def _owners(
    trace: Trace, subwords: Subwords, src_words: list[str], tgt_words: list[str] | None
) -> tuple[list[int], list[int], list[str]]:
    """The word that owns each source and each target token of ``trace`` (the source <eos>,
    and a final <eos>, words of their own), and the target words: ``tgt_words``, or read off
    the pieces."""
    _, src_owner = subwords.src.split(src_words)
    src_owner = [*src_owner, len(src_words)]  # the source <eos>
    if tgt_words is None:
        tgt_words, tgt_owner = subwords.tgt.join(trace.output_tokens)
    else:
        tgt_owner = subwords.tgt.split(tgt_words)[1]
    tgt_owner = [*tgt_owner, *([len(tgt_words)] if trace.ended else [])]
    return src_owner, tgt_owner, tgt_words


NUMBER = re.compile(r"[0-9]+")


def copy_numbers(trace: Trace, detokenize: Callable[[list[str]], str]) -> Trace:
    """``trace`` with each number the model wrote copied over by the source number it
    attends to most, where the two differ.

    A model over pieces writes a number digit by digit, and may drop or double one ("2003"
    as "203", "31" as "311"); the source number it attends to is the one it was copying, so it
    takes that number's place, as an output ``<unk>`` takes the source word's
    (``Trace.replaced`` marks both). Only whole numbers on both sides, each copied once; a
    given prefix is kept. ``detokenize`` writes the text of the new words. A model without
    attention points at no source number, and its numbers stay as it wrote them."""
    if trace.weights is None:  # no attention
        return trace
    out, replaced = list(trace.tgt_tokens), list(trace.replaced)
    for t in range(trace.prefix, len(out) - trace.ended):
        j = int(np.argmax(trace.weights[t, :-1]))  # never the source <eos>
        source = trace.src_tokens[j]
        if NUMBER.fullmatch(out[t]) and NUMBER.fullmatch(source) and source not in out:
            out[t], replaced[t] = source, j
    if out == trace.tgt_tokens:
        return trace
    words = [w for w in out[: len(out) - trace.ended] if w != WORD_START]
    return replace(trace, tgt_tokens=out, replaced=replaced, text=detokenize(words))
