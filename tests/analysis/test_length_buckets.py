"""The one bucket scheme of source lengths: five words wide up to sixty, then one open bucket."""

from __future__ import annotations

import pytest

from attnviz.analysis.length_buckets import BUCKETS, bucket_index


def test_buckets_are_five_words_wide_up_to_sixty_then_one_open_bucket():
    assert [(b.low, b.high) for b in BUCKETS] == [
        *((w, w + 4) for w in range(1, 60, 5)),
        (61, None),
    ]
    assert [bucket_index(w) for w in (1, 5, 6, 10, 56, 60, 61, 500)] == [0, 0, 1, 1, 11, 11, 12, 12]
    assert (BUCKETS[0].label, BUCKETS[-2].label, BUCKETS[-1].label) == ("1–5", "56–60", "61+")
    with pytest.raises(ValueError, match="at least one word"):
        bucket_index(0)
