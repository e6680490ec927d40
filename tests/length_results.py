"""Scores by source length written by hand, for tests of what is made from a
:class:`attnviz.analysis.by_length.LengthResult` without translating anything."""

from __future__ import annotations

from attnviz.analysis.by_length import BucketInputs, LengthResult, ModelScores
from attnviz.analysis.length_bootstrap import CONFIDENCE, BucketScore
from attnviz.analysis.length_buckets import BUCKETS


def hand_length_result(
    attention: dict[str, str], lost: bool = True, sha256: dict[str, str] | None = None
) -> LengthResult:
    """A result for models named as ``attention``'s keys, each with the attention its value
    names: a fixed-context model ("none") falls with length, the others hold; the first bucket
    is empty; ``lost`` False leaves that measure out."""
    sha256 = sha256 or {name: f"{k:064x}" for k, name in enumerate(attention)}
    buckets = tuple(
        BucketInputs(b.low, b.high, 0 if k == 0 else 10, None if k == 0 else b.low + 2.0)
        for k, b in enumerate(BUCKETS)
    )
    models = []
    for name, kind in attention.items():
        scores = [BucketScore(None, None, None, None, None, None)]
        for k in range(1, len(BUCKETS)):
            point = 40.0 - (3.0 * k if kind == "none" else 0.5 * k)
            gone = (5.0 + (4.0 * k if kind == "none" else k)) if lost else None
            shares = (gone, gone - 2, gone + 2) if lost else (None, None, None)
            scores.append(BucketScore(point, point - 4, point + 4, *shares))
        models.append(ModelScores(name, kind, sha256[name], "nrefs:1|case:mixed", 0, tuple(scores)))
    notes = () if lost else ("no eflomal priors given: source words lost not measured",)
    return LengthResult(
        buckets=buckets,
        models=tuple(models),
        corpus={"file": "fra.txt", "sha256": "f" * 64, "test_sentences": 2340},
        seed=0,
        per_bucket=10,
        resamples=1000,
        confidence=CONFIDENCE,
        precision="fp32",
        lost_words="source words, by hand",
        notes=notes,
    )
