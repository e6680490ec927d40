"""Shared fixtures: the toy corpus and tiny models trained on it, for tests of behaviour.

Helpers and settings live in ``tests/helpers.py``; the dashboard's fixtures in
``tests/ui/conftest.py``, so that no other test needs streamlit.
"""

from __future__ import annotations

import pytest
import torch
from hypothesis import settings

from attnviz.data.corpus import DataConfig
from attnviz.data.text import TextConfig
from attnviz.model.attention import SCORES
from attnviz.model.networks import ModelConfig
from attnviz.training.config import TrainingRun
from attnviz.training.train import train

from .helpers import TINY, TINY_TRAIN
from .synthetic import corpus, write_corpus

# Tiny models gain nothing from a second thread, and on a busy machine two threads per
# process wait on each other.
torch.set_num_threads(1)
# Property tests check what a function returns, not how fast: on a busy machine an example may
# take longer than hypothesis's default 200 ms, which it reports as a failure.
settings.register_profile("attnviz", deadline=None)
settings.load_profile("attnviz")


def pytest_collection_modifyitems(items):
    """Every test that needs the trained models is slow: the first of them trains them."""
    for item in items:
        if "trained" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(params=SCORES)
def attention(request) -> str:
    return request.param


@pytest.fixture(scope="session")
def synthetic_pairs():
    return corpus(3000, seed=0)


@pytest.fixture(scope="session")
def corpus_file(tmp_path_factory, synthetic_pairs):
    path = tmp_path_factory.mktemp("data") / "syn.txt"
    write_corpus(path, synthetic_pairs)
    return path


@pytest.fixture(scope="session")
def trained(tmp_path_factory, corpus_file):
    """Train once per session and per attention type; returns {attention: (path, card)}."""
    cache: dict[str, tuple] = {}

    def get(attention: str):
        if attention not in cache:
            out = tmp_path_factory.mktemp("models") / f"{attention}.safetensors"
            run = TrainingRun(
                corpus_file,
                out,
                ModelConfig(attention=attention, **TINY),
                TextConfig(),
                DataConfig(),
                TINY_TRAIN,
            )
            card = train(run, log=lambda *_: None)
            cache[attention] = (out, card)
        return cache[attention]

    return get
