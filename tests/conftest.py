"""Shared fixtures: tiny untrained models for the mechanics, tiny trained ones for behaviour."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch
from streamlit.testing.v1 import AppTest

from attnviz import ModelConfig, Seq2Seq, TextConfig, Translator, Vocab
from attnviz.data.corpus import DataConfig
from attnviz.model.attention import SCORES
from attnviz.training.train import TrainConfig, train

from .synthetic import corpus, write_corpus

# Tiny models gain nothing from a second thread, and on a busy machine two threads per
# process wait on each other: the trained fixture took 36 s on one thread, 749 s on two.
torch.set_num_threads(1)

DASHBOARD = str(Path(__file__).parent.parent / "dashboard.py")
WORDS = ["the", "a", "cat", "dog", "sees", "likes", "red", "big", "small", "house", ".", ","]


def tiny_translator(attention: str, seed: int = 0, **options) -> Translator:
    """An untrained model over a toy vocabulary: enough for shapes, masks and decoding rules."""
    torch.manual_seed(seed)
    src = Vocab.build([WORDS])
    tgt = Vocab.build([[w.upper() for w in WORDS]])
    config = ModelConfig(
        len(src), len(tgt), attention=attention, embed=8, hidden=16, dropout=0.0, **options
    )
    return Translator(Seq2Seq(config), src, tgt, TextConfig())


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


TINY = dict(embed=32, hidden=64, layers=1, dropout=0.1)
TINY_TRAIN = TrainConfig(
    epochs=6, batch_size=64, lr=0.005, bleu_sentences=50, test_beam=0, join_fraction=0.0
)


@pytest.fixture(scope="session")
def trained(tmp_path_factory, corpus_file):
    """Train once per session and per attention type; returns {attention: (path, card)}."""
    cache: dict[str, tuple] = {}

    def get(attention: str):
        if attention not in cache:
            out = tmp_path_factory.mktemp("models") / f"{attention}.safetensors"
            card = train(
                corpus_file,
                out,
                dict(attention=attention, **TINY),
                TextConfig(),
                DataConfig(),
                TINY_TRAIN,
                log=lambda *_: None,
            )
            cache[attention] = (out, card)
        return cache[attention]

    return get


@pytest.fixture(scope="module")
def checkpoints(trained, tmp_path_factory):
    """A checkpoints folder as shipped: bahdanau and luong (general), tiny and trained."""
    folder = tmp_path_factory.mktemp("checkpoints")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau.safetensors")
    shutil.copy(trained("general")[0], folder / "luong.safetensors")
    return folder


@pytest.fixture
def app(checkpoints, monkeypatch):
    """The dashboard in AppTest, on the tiny checkpoints, as a visitor first sees it."""
    monkeypatch.setenv("ATTNVIZ_CHECKPOINTS", str(checkpoints))
    at = AppTest.from_file(DASHBOARD, default_timeout=120)
    at.run()
    assert not at.exception
    return at
