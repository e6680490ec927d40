"""BLEU by length with its bootstrap interval: the point BLEU is the bucket's corpus BLEU, and
the interval, drawn from summed sentence statistics, holds it."""

from __future__ import annotations

import pytest
import sacrebleu

from attnviz.analysis.evaluate import bleu, bleu_statistics
from attnviz.analysis.length_bootstrap import bucket_scores
from attnviz.analysis.length_inputs import length_inputs


def _damaged(text: str, k: int) -> str:
    """Every third word dropped, starting at ``k % 3``: a translation with mistakes."""
    return " ".join(w for i, w in enumerate(text.split()) if (i + k) % 3)


def test_the_interval_holds_the_bleu_of_the_bucket_and_is_ordered(test_split):
    inputs = length_inputs(*test_split, per_bucket=10, seed=0)
    outputs = [_damaged(x.reference, k) for k, x in enumerate(inputs)]
    scores, _ = bucket_scores(inputs, outputs, resamples=300, seed=3)
    for b, s in enumerate(scores):
        rows = [k for k, x in enumerate(inputs) if x.bucket == b]
        direct = sacrebleu.corpus_bleu(
            [outputs[k] for k in rows], [[inputs[k].reference for k in rows]]
        )
        assert s.bleu == round(direct.score, 2)
        assert 0 < s.bleu_low < s.bleu < s.bleu_high < 100
    assert bucket_scores(inputs, outputs, resamples=300, seed=3)[0] == scores
    assert bucket_scores(inputs, outputs, resamples=300, seed=4)[0] != scores


def test_summed_sentence_statistics_give_the_corpus_bleu():
    hyps = ["le chat rouge .", "un chien voit", "", "la maison"]
    refs = [["le chat rouge ."], ["le chien voit un chat"], ["la maison"], ["la maison", "une"]]
    stats = bleu_statistics(hyps, refs)
    assert stats.counts.shape == (4, 10)
    assert stats.score(stats.counts.sum(0)) == pytest.approx(bleu(hyps, refs)[0])
    assert stats.score(stats.counts[[0, 0]].sum(0)) == pytest.approx(100.0)
