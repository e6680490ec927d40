"""What several of the by-length tests read: the toy corpus's test split."""

from __future__ import annotations

import pytest

from attnviz.data.corpus import held_out, read_corpus


@pytest.fixture(scope="module")
def test_split(corpus_file):
    return held_out(read_corpus(corpus_file), 2.0, 2.0)
