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
from attnviz.model.model_config import ModelConfig
from attnviz.training.config import TrainingRun
from attnviz.training.train import train

from . import chinese_toy
from .helpers import CHINESE_FLAGS, TINY, TINY_TRAIN
from .synthetic import corpus, write_corpus

# Tiny models gain nothing from a second thread, and on a busy machine two threads per
# process wait on each other.
torch.set_num_threads(1)
# Property tests check what a function returns, not how fast: on a busy machine an example may
# take longer than hypothesis's default 200 ms, which it reports as a failure.
settings.register_profile("attnviz", deadline=None)
settings.load_profile("attnviz")


@pytest.fixture(scope="session", autouse=True)
def exact_decoding():
    """Every test decodes in fp32 unless it names a precision: "auto" takes whichever is
    fastest on this machine, timed while the test runs (int8-output on one CPU, fp32 or bf16
    on others, and on a busy machine either of two close ones), and a translation's words may
    change with it. A test of "auto" itself unsets ATTNVIZ_DECODING; the servers and commands
    the tests start inherit it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ATTNVIZ_DECODING", "fp32")
        yield


def pytest_collection_modifyitems(items):
    """Every test that needs the trained models is slow: the first of them trains them."""
    for item in items:
        if {"trained", "chinese_trained"} & set(getattr(item, "fixturenames", ())):
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


@pytest.fixture(scope="session")
def cli_priors(corpus_file, tmp_path_factory):
    """Priors from the corpus the `trained` models learned, as `attnviz priors` makes them."""
    from attnviz.cli.main import main

    out = tmp_path_factory.mktemp("priors") / "priors.txt.gz"
    assert main(["priors", "--data", str(corpus_file), "--out", str(out)]) == 0
    return out


@pytest.fixture(scope="session")
def chinese_trained(tmp_path_factory):
    """Train once per session and per attention type on the Chinese toy (1,500 pairs, written
    as cmn.txt is); returns get(attention) -> the checkpoint's path."""
    from attnviz.cli.main import main

    folder = tmp_path_factory.mktemp("zh")
    data = folder / "cmn.txt"
    chinese_toy.write_cmn(data, chinese_toy.corpus(1500, seed=0))
    cache = {}

    def get(attention: str):
        if attention not in cache:
            out = folder / f"{attention}-zh-en.safetensors"
            argv = ["train", "--data", str(data), "--out", str(out), "--attention", attention]
            assert main([*argv, *CHINESE_FLAGS]) == 0
            cache[attention] = out
        return cache[attention]

    return get
