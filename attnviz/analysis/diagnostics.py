"""Diagnostics of attention matrices: how peaked, how spread, how two models differ.

The measures take plain (T, S) weight matrices, rows summing to 1 (a Trace's ``weights``),
and return numpy arrays or floats, so they are easy to test on small hand-made matrices.
:func:`summary` is the one place that turns them into a sentence's figures: every page of the
dashboard and every table shows those, so a sentence gets the same entropy and tau everywhere.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import asdict, dataclass

import numpy as np

from ..decoding.trace import Trace


def entropy(weights: np.ndarray) -> np.ndarray:
    """Entropy in bits of each step's weights, (T,): 0 when all attention is on one word,
    log2(S) when it is spread evenly over S words."""
    w = np.asarray(weights, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, -w * np.log2(w), 0.0)
    return terms.sum(-1)


def coverage(weights: np.ndarray) -> np.ndarray:
    """Attention each source word received over all steps, (S,). About 1 per word for a
    one-to-one translation; near 0 hints at a word left out, well above 1 at one repeated."""
    return np.asarray(weights, dtype=np.float64).sum(0)


def js_divergence(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Jensen-Shannon divergence in bits between the rows of two (T, S) matrices, (T,).
    0 for identical rows, 1 for rows with no source word in common."""
    p, q = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if p.shape != q.shape:
        raise ValueError(f"the matrices must have one shape, got {p.shape} and {q.shape}")
    m = (p + q) / 2

    def kl(x):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(x > 0, x * np.log2(x / m), 0.0).sum(-1)

    return (kl(p) + kl(q)) / 2


def total_variation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Total-variation distance between the rows of two (T, S) matrices, (T,): half the summed
    absolute difference, the share of a step's attention that must move to turn one row into
    the other. 0 for identical rows, 1 for rows with no source word in common."""
    p, q = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if p.shape != q.shape:
        raise ValueError(f"the matrices must have one shape, got {p.shape} and {q.shape}")
    return np.abs(p - q).sum(-1) / 2


def same_argmax(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether two (T, S) matrices attend most to the same source word at each step, (T,)."""
    if np.shape(a) != np.shape(b):
        raise ValueError(f"the matrices must have one shape, got {np.shape(a)} and {np.shape(b)}")
    return np.argmax(a, -1) == np.argmax(b, -1)


def monotonicity(weights: np.ndarray) -> float:
    """Kendall's tau between output position and the argmax source position: 1 when the
    attention moves left to right through the source, -1 right to left, NaN below 2 steps."""
    pos = np.argmax(np.asarray(weights), -1)
    n = len(pos)
    if n < 2:
        return float("nan")
    i, j = np.triu_indices(n, 1)
    sign = np.sign(pos[j] - pos[i])  # output order is strictly increasing
    concordant, discordant = int((sign > 0).sum()), int((sign < 0).sum())
    ties = int((sign == 0).sum())
    pairs = n * (n - 1) // 2
    denom = np.sqrt(pairs * (pairs - ties))  # tau-b: ties only on the source side
    return float((concordant - discordant) / denom) if denom else float("nan")


def eos_mass(weights: np.ndarray, tokens: list[str]) -> np.ndarray:
    """Share of each step's attention on the source ``<eos>``, (T,): where a model parks
    attention it has no use for."""
    pick = np.array([t == "<eos>" for t in tokens], dtype=bool)
    return np.asarray(weights, dtype=np.float64)[:, pick].sum(-1)


def is_punctuation(token: str) -> bool:
    """Whether ``token`` (a word, or a piece with its word-start mark) is punctuation alone."""
    core = token.replace("\u2581", "")
    return bool(core) and all(unicodedata.category(c).startswith("P") for c in core)


def sink_positions(tokens: list[str]) -> tuple[int | None, int | None]:
    """The two places attention sinks into, as positions in ``tokens`` (a source ending in
    ``<eos>``): the source ``<eos>``, and the final punctuation before it; None where there is
    none."""
    eos = len(tokens) - 1 if tokens and tokens[-1] == "<eos>" else None
    last = (len(tokens) - 2) if eos is not None else len(tokens) - 1
    punct = last if last >= 0 and is_punctuation(tokens[last]) else None
    return eos, punct


@dataclass(frozen=True)
class Sinks:
    """How often a model's attention sinks into the source ``<eos>`` or the final punctuation,
    over a set of translations: the share of argmaxes on each, in percent. An attention sink is
    where a model parks the weight it must spend somewhere when it writes what it can tell
    without reading a source word."""

    sentences: int  # translations that wrote at least one token
    steps: int  # steps that wrote a token (all but a final <eos> step), over all of them
    first_eos: float  # first output tokens whose attention argmax is the source <eos>
    steps_eos: float  # steps that wrote a token, with the argmax on the source <eos>
    first_punct: float  # first output tokens that are words, the argmax on the final punctuation
    steps_punct: float  # steps that wrote a word, with the argmax on the final punctuation

    def card(self, split: str) -> dict:
        """As a model card keeps them: measured on ``split``, by greedy search."""
        return {**asdict(self), "split": split, "search": "greedy"}


def sunk_steps(trace: Trace) -> tuple[np.ndarray, np.ndarray]:
    """For each step of ``trace`` that wrote a token, (T',) booleans: whether its attention
    argmax is the source ``<eos>``, and whether it is the final punctuation while the step writes
    a word (punctuation that looks at punctuation is aligned, not sunk)."""
    top = trace.output_picture().argmax(-1)
    eos, punct = sink_positions(trace.src_tokens)
    writes_word = np.array([not is_punctuation(t) for t in trace.tgt_tokens[: len(top)]], bool)
    on_eos = top == eos if eos is not None else np.zeros(len(top), bool)
    on_punct = (top == punct) & writes_word if punct is not None else np.zeros(len(top), bool)
    return on_eos, on_punct


def sinks(traces: Iterable[Trace]) -> Sinks:
    """The :class:`Sinks` of ``traces``, each over the tokens its model reads (a subword
    model's pieces)."""
    firsts, steps = np.zeros(2), np.zeros(2)
    sentences = written = 0
    for trace in traces:
        on_eos, on_punct = sunk_steps(trace.pieces or trace)
        if not len(on_eos):
            continue
        firsts += [on_eos[0], on_punct[0]]
        steps += [on_eos.sum(), on_punct.sum()]
        sentences += 1
        written += len(on_eos)
    first, step = 100 * firsts / max(sentences, 1), 100 * steps / max(written, 1)
    return Sinks(
        sentences,
        written,
        first_eos=round(float(first[0]), 1),
        steps_eos=round(float(step[0]), 1),
        first_punct=round(float(first[1]), 1),
        steps_punct=round(float(step[1]), 1),
    )


@dataclass(frozen=True)
class Summary:
    """A sentence's attention in three figures, over the steps that wrote a word."""

    entropy: float  # mean entropy per step, in bits; NaN without a word
    monotonicity: float  # Kendall's tau of the argmax source positions; NaN below 2 words
    eos_mass: float  # mean share of attention on the source <eos>; NaN without a word


def summary(trace: Trace) -> Summary:
    """The figures of one translation, over ``trace.output_weights``: a final ``<eos>`` step
    writes no word, and its attention (often spread, or parked on the source ``<eos>``) would
    otherwise move every mean with the sentence's length. NaN without attention."""
    words = trace.output_weights
    if words is None or not len(words):  # no attention, or no word written
        return Summary(float("nan"), float("nan"), float("nan"))
    return Summary(
        float(entropy(words).mean()),
        monotonicity(words),
        float(eos_mass(words, trace.src_tokens).mean()),
    )


def comparable(a: Trace, b: Trace) -> bool:
    """Whether two traces' matrices can be compared cell by cell: the same source tokens and
    the same output tokens (two models force-decoded on one reference)."""
    return a.src_tokens == b.src_tokens and a.tgt_tokens == b.tgt_tokens
