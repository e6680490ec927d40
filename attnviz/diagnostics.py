"""Diagnostics of attention matrices: how peaked, how spread, how two models differ.

Every function takes plain (T, S) weight matrices, rows summing to 1 (a Trace's ``weights``),
and returns numpy arrays or floats, so they are easy to test on small hand-made matrices.
"""

from __future__ import annotations

import numpy as np

PUNCTUATION = frozenset(".,;:!?¿¡…-–—\"'«»()[]{}")


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


def argmax_agreement(a: np.ndarray, b: np.ndarray) -> np.ndarray:
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


def mass_on(weights: np.ndarray, tokens: list[str], which: str) -> np.ndarray:
    """Share of each step's attention on ``<eos>`` (``which="eos"``) or on punctuation
    (``which="punctuation"``), (T,)."""
    if which == "eos":
        pick = [t == "<eos>" for t in tokens]
    elif which == "punctuation":
        pick = [bool(t) and all(c in PUNCTUATION for c in t) for t in tokens]
    else:
        raise ValueError(f"which must be 'eos' or 'punctuation', not {which!r}")
    return np.asarray(weights, dtype=np.float64)[:, np.array(pick, dtype=bool)].sum(-1)


def repetition(
    tokens: list[str], min_repeats: int = 3, max_n: int = 6
) -> tuple[int, int, int] | None:
    """The first n-gram (n <= ``max_n``) that ``tokens`` repeat ``min_repeats`` or more times
    in a row, as (start, n, times), or None: the mark of a decoder that loops
    ("de la source de la source de la source ...")."""
    for start in range(len(tokens)):
        for n in range(1, max_n + 1):
            gram, times = tokens[start : start + n], 1
            if len(gram) < n:
                break
            while tokens[start + times * n : start + (times + 1) * n] == gram:
                times += 1
            if times >= min_repeats:
                return start, n, times
    return None
