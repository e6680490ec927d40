"""What the views draw that does not change, made once (attnviz_ui/serving/figures.py): a model's
card per file version and language, the training curves per files, moment and language, and an
export image per figure."""

from __future__ import annotations

import os

import altair as alt
import pandas as pd
import pytest

from attnviz.data.corpus import DataConfig
from attnviz.plots import heatmaps, history_charts, image_export
from attnviz.store import checkpoint
from attnviz.store.catalog import Checkpoint
from attnviz_ui.serving import figures

from ..handmade import hand_trace
from ..helpers import tiny_translator
from .cache_helpers import Calls, chosen_language

LOSSES = [3.0, 2.5, 2.2]


@pytest.fixture
def saved(tmp_path, monkeypatch):
    """A tiny model saved with a card that records its validation losses, described in
    fp32."""
    tr = tiny_translator("general")
    path = tmp_path / "tiny.safetensors"
    card = {"history": {"valid_loss": LOSSES}, "best_epoch": 3, "epochs": 3}
    words = DataConfig(subwords=0)
    checkpoint.save(path, tr.model, tr.src_vocab, tr.tgt_vocab, tr.text, words, card)
    monkeypatch.setenv("ATTNVIZ_DECODING", "fp32")
    return path


@pytest.fixture
def language(monkeypatch):
    """The session's language, as the cache keys read it, and the catalog bound with it."""
    yield from chosen_language(monkeypatch, figures)


def _newer(path) -> None:
    """The file at ``path``, a second later: a new version, as the page sees it."""
    mtime = os.stat(path).st_mtime_ns + 1_000_000_000
    os.utime(path, ns=(mtime, mtime))


def test_a_card_is_made_once_per_file_version_and_language(saved, language, monkeypatch):
    made = Calls(monkeypatch, history_charts, "card_loss_chart")
    first = figures.card_of(Checkpoint.at(saved))
    assert figures.card_of(Checkpoint.at(saved)) is first and made.n == 1
    assert [row["loss"] for row in _rows(first.losses)] == LOSSES
    assert first.card["best_epoch"] == 3 and "BLEU" in first.summary
    language.set("zh")
    chinese = figures.card_of(Checkpoint.at(saved))
    assert made.n == 2 and chinese.summary != first.summary
    language.set("en")
    _newer(saved)
    assert figures.card_of(Checkpoint.at(saved)) is not first and made.n == 3


def _rows(spec: dict) -> list[dict]:
    """The rows of the loss line of a card's chart (the larger of its two datasets)."""
    return max(spec["datasets"].values(), key=len)


def test_the_training_curves_are_made_once_per_files_moment_and_language(
    saved, language, monkeypatch
):
    def curves(frame, epoch):
        return [alt.Chart(pd.DataFrame({"epoch": [epoch]})).mark_rule().encode(x="epoch:Q")]

    monkeypatch.setattr(figures, "history_of", lambda c: None)
    monkeypatch.setattr(history_charts, "history_frame", lambda histories: pd.DataFrame())
    made = Calls(monkeypatch, history_charts, "curves_chart", curves)
    models = (Checkpoint.at(saved),)
    first = figures.curves_of(models, 0.5)
    assert figures.curves_of(models, 0.5) is first and made.n == 1
    assert figures.curves_of(models, 1.0) is not first and made.n == 2  # another moment
    language.set("zh")
    figures.curves_of(models, 0.5)
    assert made.n == 3
    language.set("en")
    _newer(saved)
    figures.curves_of((Checkpoint.at(saved),), 0.5)
    assert made.n == 4


def test_an_export_image_is_made_once_per_figure_and_format(monkeypatch):
    def image(fig, fmt):
        return f"{fig.layout.title.text}.{fmt}".encode()

    made = Calls(monkeypatch, image_export, "to_image", image)
    trace = hand_trace([[0.9, 0.1], [0.2, 0.8]], ["a", "<eos>"], ["A", "<eos>"])
    figure = heatmaps.heatmap(trace, title="made once")
    assert figures.image_of(figure, "png") == b"made once.png" and made.n == 1
    # The same picture built again, by another run or visitor: the image already made
    assert figures.image_of(heatmaps.heatmap(trace, title="made once"), "png") == b"made once.png"
    assert made.n == 1
    assert figures.image_of(figure, "svg") == b"made once.svg" and made.n == 2
    assert figures.image_of(heatmaps.heatmap(trace, title="another"), "png") == b"another.png"
    assert made.n == 3
