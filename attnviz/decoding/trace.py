"""A Trace: everything one translation did, step by step, ready to display."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..data.vocab import EOS
from ..model.precision import Precision


def repetition(
    tokens: list[str], min_repeats: int = 3, max_n: int = 6
) -> tuple[int, int, int] | None:
    """The longest run of an n-gram (n <= ``max_n``) that ``tokens`` repeat ``min_repeats`` or
    more times in a row, as (start, n, times), or None: the mark of a decoder that loops
    ("de la source de la source de la source ..."). Longest: the most tokens covered, then
    the most repeats (": : : :" is ":" four times, not ": :" twice), then the first."""
    runs = []
    for start in range(len(tokens)):
        for n in range(1, min(max_n, len(tokens) - start) + 1):
            gram, times = tokens[start : start + n], 1
            while tokens[start + times * n : start + (times + 1) * n] == gram:
                times += 1
            if times >= min_repeats:
                runs.append((n * times, times, -start, n))
    if not runs:
        return None
    _covered, times, start, n = max(runs)
    return -start, n, times


def ends_in_eos(tokens: Sequence[str]) -> bool:
    """True when ``tokens`` end in ``<eos>``: an output the model ended itself. The one test of
    a finished output (:attr:`Trace.ended` reads it)."""
    return len(tokens) > 0 and tokens[-1] == EOS


@dataclass(frozen=True)
class Candidate:
    token: str
    prob: float


@dataclass(frozen=True)
class BeamStep:
    """The hypotheses kept after one beam-search step; ``parents`` index the previous step's."""

    tokens: list[str]
    scores: list[float]  # cumulative log-probabilities
    parents: list[int]
    finished: list[bool]  # already ended in <eos> before this step (extended by <pad> only)


@dataclass(frozen=True)
class Owners:
    """Which word owns each piece: for every token of a decoding over pieces (``Trace.pieces``),
    the index of the token of the word-level Trace it spells part of. Worked out once, where the
    word-level Trace is made (:func:`attnviz.decoding.words.words_trace`), and read from there.
    """

    src: tuple[int, ...]  # (S_pieces,) the source word of each source piece; <eos> owns the last
    tgt: tuple[int, ...]  # (T_pieces,) the target word of each step; a final <eos> owns the last


@dataclass(frozen=True)
class Trace:
    """One sentence's translation (or forced alignment), with T output and S source tokens;
    immutable once built.

    Row t of ``weights`` is the attention the model paid to the source while producing output
    token t. Source and output tokens both end in ``<eos>`` when the model produced one.

    A model without attention (``attention == "none"``, the fixed-context encoder-decoder)
    has no weights, scores or query: they are None, and ``context`` is the one context c that
    every step read, the same row T times.
    """

    source: str  # the sentence as the user gave it
    src_tokens: list[str]  # (S,) tokens, surface forms, then "<eos>"
    src_known: list[bool]  # (S,) False where a token is outside the source vocabulary
    tgt_tokens: list[str]  # (T,) output tokens, "<eos>" last if produced
    text: str  # detokenized output, for display
    weights: np.ndarray | None  # (T, S) attention weights; each row sums to 1
    scores: np.ndarray | None  # (T, S) raw attention scores before the softmax
    probs: np.ndarray  # (T,) probability the model gave each output token
    candidates: list[list[Candidate]]  # (T, k) the most probable next tokens at each step
    replaced: list[int | None]  # (T,) source position copied in place of an <unk>, else None
    mode: str  # "greedy", "beam" or "forced"
    attention: str  # the model's attention type
    log_prob: float  # summed log-probability of the output
    query: np.ndarray | None = None  # (T, H) the query of each step: s_{t-1} or h_t
    context: np.ndarray | None = None  # (T, H) the context vector c_t of each step
    beam: list[BeamStep] | None = None  # hypotheses kept at each step (beam search only)
    beam_path: list[int] | None = None  # the winner's index in ``beam`` at each step
    pieces: Trace | None = None  # a subword model's decoding over pieces, of which this is
    # the view over words (see attnviz.decoding.words); None when the model's tokens are words
    owners: Owners | None = None  # the word of this Trace that owns each token of ``pieces``
    prefix: int = 0  # how many leading output tokens were given (a prefix), not chosen
    edited: tuple[int, ...] = ()  # steps whose attention weights were replaced by an edit
    scaled: bool = False  # the scores were divided by sqrt(H) (a scaled dot or general score)
    heads: np.ndarray | None = None  # (T, L, N, S) a Transformer's every cross-attention
    # head, layer by layer; ``weights`` is the picture drawn from them (one layer's average)
    precision: Precision = Precision.FP32  # how the model's weights were stored when it
    # decoded this (the words below fp32 may differ from fp32's: see attnviz.model.low_precision)

    @property
    def has_attention(self) -> bool:
        """False for the fixed-context model: it reads one context c at every step, and has
        no attention weights to show."""
        return self.weights is not None

    @property
    def ended(self) -> bool:
        """True when the model ended the output itself (``<eos>``), False when the length
        limit cut it."""
        return ends_in_eos(self.tgt_tokens)

    @property
    def loop(self) -> tuple[int, int, int] | None:
        """(start, n, times) where the output repeats an n-gram three or more times in a row,
        the mark of a decoder that loops; None otherwise."""
        return repetition([t for t in self.tgt_tokens if t != "<eos>"])

    def written(self, t: int) -> str:
        """Output token ``t`` as the model wrote it, before any copy from the source: its
        pieces joined in a view over pieces, ``<unk>`` where the source word replaced one."""
        if self.pieces is None or self.owners is None:  # (both or neither: __post_init__)
            return "<unk>" if self.replaced[t] is not None else self.tgt_tokens[t]
        mine = zip(self.pieces.tgt_tokens, self.owners.tgt, strict=True)
        return "".join(p for p, o in mine if o == t).replace("\u2581", "")

    def picture(self, layer: int | None = None, head: int | None = None) -> np.ndarray:
        """The attention (T, S) to draw or align with: ``weights``, the model's one picture,
        by default; for a Transformer, decoder layer ``layer``'s heads averaged, or its head
        ``head`` alone (0-based; a negative layer counts from the last). ValueError for a model
        without attention, which has no picture."""
        if layer is None and head is None:
            if self.weights is None:
                raise ValueError("a model without attention has no attention to draw")
            return self.weights
        if self.heads is None:
            raise ValueError("only a Transformer has attention layers and heads to choose from")
        _, layers, heads, _ = self.heads.shape
        if layer is None or not -layers <= layer < layers:
            raise ValueError(f"layer must be in [0, {layers}) for this model, got {layer}")
        if head is None:
            return self.heads[:, layer].mean(1)
        if not 0 <= head < heads:
            raise ValueError(f"head must be in [0, {heads}) for this model, got {head}")
        return self.heads[:, layer, head]

    @property
    def output_tokens(self) -> list[str]:
        """The output tokens that write a word: all but a final ``<eos>``."""
        return self.tgt_tokens[:-1] if self.ended else self.tgt_tokens

    @property
    def output_weights(self) -> np.ndarray | None:
        """The rows of ``weights`` that wrote a word: all but a final ``<eos>`` step's; None
        without attention."""
        if self.weights is None:
            return None
        return self.weights[:-1] if self.ended else self.weights

    def output_picture(self) -> np.ndarray:
        """:attr:`output_weights`, for a reader that needs attention: ValueError for a model
        without it."""
        weights = self.picture()
        return weights[:-1] if self.ended else weights

    def __post_init__(self):
        T, S = len(self.tgt_tokens), len(self.src_tokens)
        if (self.weights is None) != (self.scores is None):
            raise ValueError("a Trace has both weights and scores, or neither (no attention)")
        if self.weights is not None and (
            self.weights.shape != (T, S) or self.scores.shape != (T, S)
        ):
            raise ValueError(
                f"weights {self.weights.shape} and scores {self.scores.shape} must be ({T}, {S})"
            )
        if self.heads is not None and (
            self.heads.shape[0] != T or self.heads.shape[-1] != S or self.heads.ndim != 4
        ):
            raise ValueError(f"heads {self.heads.shape} must be ({T}, layers, heads, {S})")
        pieces, owners = self.pieces, self.owners
        if (pieces is None) != (owners is None):
            raise ValueError("a Trace over words carries both its pieces and their owners")
        if owners is not None:
            counts = (len(owners.src), len(owners.tgt))
            if counts != (len(pieces.src_tokens), len(pieces.tgt_tokens)):
                raise ValueError(
                    f"owners for {counts} source and target pieces, but the pieces are "
                    f"({len(pieces.src_tokens)}, {len(pieces.tgt_tokens)})"
                )
        for value in vars(self).values():  # frozen to the last number: one Trace may be
            if isinstance(value, np.ndarray):  # shared by every session of a server
                value.setflags(write=False)
