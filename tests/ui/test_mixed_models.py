"""A whole-word model beside a subword model, as the shipped pair of pairs allows: every view of
the dashboard compares them (the tiny trained models of conftest.py read pieces; this module
trains a tiny one that reads words)."""

from __future__ import annotations

import shutil

import pytest

from attnviz.data.corpus import DataConfig
from attnviz.data.text import TextConfig
from attnviz.model.model_config import ModelConfig
from attnviz.store import checkpoint
from attnviz.training.config import TrainingRun
from attnviz.training.train import train
from attnviz_ui.pages.navigation import View
from attnviz_ui.state.session_keys import Key

from ..helpers import (
    SENTENCE,
    TINY,
    TINY_TRAIN,
    heatmaps_on,
    open_dashboard,
    open_training_page,
    run_corpus,
    type_sentence,
)

WORDS = "luong-words"


@pytest.fixture(scope="module")
def mixed(trained, corpus_file, tmp_path_factory):
    """bahdanau-pieces (the conftest's subword model) and luong-words (whole words)."""
    folder = tmp_path_factory.mktemp("mixed")
    shutil.copy(trained("bahdanau")[0], folder / "bahdanau-pieces.safetensors")
    config = ModelConfig(attention="general", **TINY)
    words = DataConfig(subwords=0, min_freq=1)
    run = TrainingRun(
        corpus_file, folder / f"{WORDS}.safetensors", config, TextConfig(), words, TINY_TRAIN
    )
    train(run, log=lambda *_: None)
    return folder


@pytest.fixture
def mixed_app(mixed, monkeypatch):
    at = open_dashboard(mixed, monkeypatch)
    assert not at.exception, at.exception
    return at


def test_the_pair_is_a_piece_model_and_a_word_model(mixed):
    models = {p.stem: checkpoint.load(p) for p in mixed.glob("*.safetensors")}
    assert models["bahdanau-pieces"].subwords is not None
    assert models[WORDS].subwords is None


def test_every_view_draws_both_models_on_the_same_words(mixed_app):
    at = type_sentence(mixed_app, SENTENCE)
    assert [s.value for s in at.sidebar.selectbox] == ["bahdanau-pieces", WORDS]
    for fig in heatmaps_on(at):
        assert fig["data"][0]["x"][:3] == ["1:The", "2:red", "3:cat"]
    for view in View:
        at.radio(key=Key.VIEW).set_value(view).run()
        assert not at.exception, (view, at.exception)
        assert view != "Bahdanau vs Luong" or len(heatmaps_on(at)) >= 2
    at.radio(key=Key.VIEW).set_value(View.STEPS).run()
    for key in (Key.NUMBERS, Key.PIECES, Key.ATTRIBUTION_ON):
        at.toggle(key=key).set_value(True).run()
        assert not at.exception, (key, at.exception)
    assert len(heatmaps_on(at)) >= 4  # attention and attribution, both models


@pytest.mark.parametrize("edit", ["All on one source word", "The other model's attention"])
def test_what_if_works_across_a_word_model_and_a_piece_model(mixed_app, edit):
    at = type_sentence(mixed_app, SENTENCE)
    at.slider(key=Key.STEP).set_value(2).run()
    at.selectbox(key=Key.WHAT_IF).set_value("Another word here").run()
    at.radio(key=Key.WHAT_IF_BASE).set_value(1).run()  # the word model's output, then a word
    word = at.selectbox(key=Key.WHAT_IF_WORD).options[0]
    at.selectbox(key=Key.WHAT_IF_WORD).set_value(word).run()
    assert not at.exception, at.exception
    given = [f for f in heatmaps_on(at) if "from the prefix" in f["layout"]["title"]["text"]]
    assert [f["data"][0]["y"][1] for f in given] == [f"2:{word}"] * 2
    at.selectbox(key=Key.WHAT_IF).set_value("Attention elsewhere").run()
    if edit in at.selectbox(key=Key.WHAT_IF_EDIT).options:
        at.selectbox(key=Key.WHAT_IF_EDIT).set_value(edit).run()
    assert not at.exception, at.exception
    assert any(f["layout"]["title"]["text"].endswith(", edited") for f in heatmaps_on(at))


def test_the_corpus_and_training_pages_take_the_mixed_pair(mixed, monkeypatch):
    at = open_training_page(mixed, monkeypatch)  # the Training page
    assert len(heatmaps_on(at)) == 2  # both histories replayed
    at.radio(key=Key.PAGE).set_value("A corpus").run()
    at = run_corpus(at, "the red cat sees a dog .\tle chat rouge voit un chien .", "0-0")
    frame = at.dataframe[0].value
    assert {"bahdanau-pieces BLEU", f"{WORDS} BLEU", f"{WORDS} AER"} <= set(frame)
