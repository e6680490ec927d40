"""BLEU by length with its bootstrap interval: per bucket and model, corpus BLEU and the share
of source words lost, each with a percentile bootstrap interval. The resamples are drawn once
per bucket with a seed and shared by the models, so their intervals are paired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .evaluate import BleuStatistics, bleu, bleu_statistics
from .length_buckets import BUCKETS
from .length_inputs import LengthInput

RESAMPLES = 1000  # bootstrap resamples of each bucket's inputs
CONFIDENCE = 95.0  # percent: the bootstrap interval's coverage


@dataclass(frozen=True)
class BucketScore:
    """One model on one bucket; every value None when the bucket is empty."""

    bleu: float | None  # corpus BLEU, 0-100
    bleu_low: float | None  # the bootstrap interval (CONFIDENCE percent)
    bleu_high: float | None
    lost: float | None  # percent of content words linked to nothing; None: not measured
    lost_low: float | None
    lost_high: float | None


def bucket_scores(
    inputs: Sequence[LengthInput],
    outputs: Sequence[str],
    lowercase: bool = False,
    lost: np.ndarray | None = None,
    resamples: int = RESAMPLES,
    seed: int = 0,
    target: str = "",
) -> tuple[tuple[BucketScore, ...], str]:
    """Each bucket's :class:`BucketScore` for ``outputs`` of ``inputs``, and sacreBLEU's
    signature. ``lost``: :func:`attnviz.analysis.by_length.lost_counts`, or None to leave that
    measure out; ``target``: the outputs' language (Chinese is scored by characters:
    :func:`.evaluate.metric`).

    The point BLEU is :func:`attnviz.analysis.evaluate.bleu` of the bucket. Its interval is
    the percentile bootstrap: the bucket's inputs resampled with replacement ``resamples``
    times (with ``seed``, so every model gets the same resamples), corpus BLEU of each resample
    from per-sentence sufficient statistics (sacreBLEU's ``BLEU._extract_corpus_statistics``
    once, then ``_compute_score_from_stats`` of each resample's sums, as its paired bootstrap
    does). The lost share is pooled, lost words over content words, resampled alike.
    """
    refs = [[x.reference] for x in inputs]
    stats = bleu_statistics(list(outputs), refs, lowercase, target)
    signature = bleu(list(outputs), refs, lowercase, target)[1]
    rng = np.random.default_rng(seed)
    scores = []
    for b in range(len(BUCKETS)):
        rows = np.array([k for k, x in enumerate(inputs) if x.bucket == b], dtype=np.int64)
        draws = rows[rng.integers(0, len(rows), (resamples, len(rows)))] if len(rows) else None
        if draws is None:
            scores.append(BucketScore(None, None, None, None, None, None))
            continue
        point = bleu([outputs[k] for k in rows], [refs[k] for k in rows], lowercase, target)[0]
        low, high = _interval(_bootstrap_bleu(stats, draws))
        shares: tuple[float | None, float | None, float | None] = (None, None, None)
        if lost is not None:
            shares = (_share(lost[rows].sum(0)), *_interval(_bootstrap_lost(lost, draws)))
        scores.append(BucketScore(round(point, 2), low, high, *shares))
    return tuple(scores), signature


def _bootstrap_bleu(stats: BleuStatistics, draws: np.ndarray) -> np.ndarray:
    sums = stats.counts[draws].sum(1)  # (R, 10): each resample's summed counts
    return np.array([stats.score(s) for s in sums])


def _bootstrap_lost(lost: np.ndarray, draws: np.ndarray) -> np.ndarray:
    sums = lost[draws].sum(1)  # (R, 2): lost and content words of each resample
    return np.array([_share(s) for s in sums], dtype=float)


def _share(summed: np.ndarray) -> float | None:
    """Percent of content words lost; None without any content word."""
    return round(100 * float(summed[0]) / float(summed[1]), 2) if summed[1] else None


def _interval(values: np.ndarray) -> tuple[float | None, float | None]:
    values = values[~np.isnan(values.astype(float))]
    if not len(values):
        return None, None
    tail = (100 - CONFIDENCE) / 2
    low, high = np.percentile(values, [tail, 100 - tail])
    return round(float(low), 2), round(float(high), 2)
