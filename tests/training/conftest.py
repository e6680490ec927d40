"""Fixtures of the training tests."""

import pytest

from ..synthetic import corpus, write_corpus


@pytest.fixture(scope="module")
def toy_corpus(tmp_path_factory):
    """The issue's 6,000 toy pairs to train on, and 60 held-out pairs with their gold links
    (at 3,000 pairs half of a Luong toy's first words still look at <eos>)."""
    path = tmp_path_factory.mktemp("toy") / "toy.txt"
    pairs = corpus(6000, seed=51)
    write_corpus(path, pairs)
    seen = {en for en, *_ in pairs}
    held = [p for p in corpus(2000, seed=52) if p[0] not in seen][:60]
    return path, held
