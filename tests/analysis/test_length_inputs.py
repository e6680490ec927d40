"""The inputs scored by source length: the test sentences, and consecutive ones joined to fill
the long buckets, drawn with a seed."""

from __future__ import annotations

from collections import Counter

import pytest

from attnviz.analysis.length_buckets import BUCKETS
from attnviz.analysis.length_inputs import length_inputs, source_words


def test_joined_inputs_fill_every_bucket_the_test_split_can_reach(test_split):
    sources, refs = test_split
    inputs = length_inputs(sources, refs, per_bucket=7, seed=0)
    counts = Counter(x.bucket for x in inputs)
    # The toy's test sentences have 5 to 7 words, and only a few have 5: the first bucket
    # holds those, as no two joined are that short; joining fills every longer bucket.
    short = sum(len(s.split()) <= 5 for s in sources)
    assert 0 < short < 7 and counts[0] == short
    assert [counts[b] for b in range(1, len(BUCKETS))] == [7] * (len(BUCKETS) - 1)
    assert [x.bucket for x in inputs] == sorted(x.bucket for x in inputs)
    for x in inputs:
        assert x.source == " ".join(sources[i] for i in x.parts)
        assert x.reference == " ".join(refs[i][0] for i in x.parts)
        assert x.words == len(x.source.split()) and len(set(x.parts)) == len(x.parts)
    assert all(len(x.parts) == 1 for x in inputs if x.bucket < 2)  # the test sentences
    assert all(len(x.parts) > 1 for x in inputs if x.bucket > 1)
    assert len({x.parts for x in inputs}) == len(inputs)


def test_the_seed_decides_the_inputs(test_split):
    a, b, c = (length_inputs(*test_split, per_bucket=5, seed=s) for s in (1, 1, 2))
    assert a == b and a != c


def test_short_buckets_take_test_sentences_before_joined_ones():
    sources = ["Go.", "Hi.", "Run!", "He ran.", "I am very cold this morning.", "We lost the game."]
    refs = [[f"ref {k}", "other"] for k in range(len(sources))]
    inputs = length_inputs(sources, refs, per_bucket=6, seed=0)
    first = [x for x in inputs if x.bucket == 0]
    singles = [x.parts for x in first if len(x.parts) == 1]
    assert len(first) == 6 and sorted(singles) == [(0,), (1,), (2,), (3,), (5,)]
    assert all(x.reference.startswith("ref") and "other" not in x.reference for x in inputs)
    few = length_inputs(sources, refs, per_bucket=3, seed=0)
    assert all(len(x.parts) == 1 for x in few if x.bucket == 0)
    with pytest.raises(ValueError, match="per_bucket must be at least 1"):
        length_inputs(sources, refs, per_bucket=0)


def test_source_words_are_whitespace_words_and_jieba_words_for_chinese():
    assert source_words("I'm cold, Tom.", "en") == ["I'm", "cold,", "Tom."]
    assert source_words("我爱吃苹果。", "zh") == ["我", "爱", "吃", "苹果", "。"]
