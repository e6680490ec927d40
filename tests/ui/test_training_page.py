"""The Training page through Streamlit's AppTest: the slider replays the recorded attention,
an older checkpoint gets a word, and a live toy run learns and joins the session's models."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attnviz.analysis.history import most_changed
from attnviz.plots import history_charts
from attnviz.store import checkpoint
from attnviz_ui.serving.live import live_run
from attnviz_ui.state.session_keys import Key

from ..helpers import PATIENCE, heatmaps_on, open_training_page, plotly_array

MODELS = ("bahdanau", "luong")  # the tiny checkpoints' names (tests/ui/conftest.py)


def _curves_moment(at: AppTest) -> float | None:
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    return next(m for m in map(history_charts.moment_of, specs) if m is not None)


def test_the_page_opens_on_the_probe_whose_attention_moved_most(checkpoints, monkeypatch):
    at = open_training_page(checkpoints, monkeypatch)
    histories = [checkpoint.load(checkpoints / f"{m}.safetensors").history for m in MODELS]
    k = at.selectbox(key=Key.PROBE).value
    assert k == most_changed(histories)
    left = plotly_array(heatmaps_on(at)[0]["data"][0]["z"])  # at the first snapshot, ready to play
    np.testing.assert_allclose(left, histories[0].matrices(0)[k], atol=1e-6)


def test_the_slider_shows_the_matrix_of_the_chosen_snapshot(checkpoints, monkeypatch):
    at = open_training_page(checkpoints, monkeypatch)
    history = checkpoint.load(checkpoints / "bahdanau.safetensors").history
    k = 3
    at.selectbox(key=Key.PROBE).set_value(k).run()
    shown = {}
    for epoch in (0.0, 0.25, history.snapshots[-1].epoch):
        at.select_slider(key=Key.MOMENT).set_value(epoch).run()
        assert not at.exception, at.exception
        left = heatmaps_on(at)[0]
        assert left["layout"]["title"]["text"].startswith(f"bahdanau · epoch {epoch:g}")
        shown[epoch] = plotly_array(left["data"][0]["z"])
        expected = history.matrices(history.at(epoch))[k]
        np.testing.assert_allclose(shown[epoch], expected, atol=1e-6)
        assert _curves_moment(at) == epoch
    first, *_, last = shown.values()
    assert np.abs(first - last).max() > 0.1  # training moved the attention


def test_a_checkpoint_without_a_history_gets_a_word(checkpoints, tmp_path, monkeypatch):
    old = checkpoint.load(checkpoints / "luong.safetensors", precision="fp32")
    card = {k: v for k, v in old.card.items() if k != "history"}
    checkpoint.save(
        tmp_path / "older.safetensors", old.model, old.src_vocab, old.tgt_vocab, old.text,
        old.data, card, subwords=old.subwords,
    )  # fmt: skip
    shutil.copy(checkpoints / "bahdanau.safetensors", tmp_path)
    at = open_training_page(tmp_path, monkeypatch)
    at.sidebar.selectbox[1].set_value("older").run()
    assert not at.exception, at.exception
    assert any("older has no training history" in i.value for i in at.info)
    assert [h["layout"]["title"]["text"].split(" ·")[0] for h in heatmaps_on(at)] == ["bahdanau"]


@pytest.fixture
def training_page(checkpoints, monkeypatch):
    """The Training page; a live run it starts is stopped when the test ends, however it ends
    (the server's runs outlive a session: one left training would hold a core, and a place
    among the runs the server allows, in the tests after it)."""
    at = open_training_page(checkpoints, monkeypatch)
    yield at
    run = live_run(at.session_state[Key.LIVE_OWNER]) if Key.LIVE_OWNER in at.session_state else None
    if run is not None and run.thread is not None:
        run.stop.set()
        run.thread.join()


def _wait_for_run(at: AppTest) -> AppTest:
    """The page once the session's live run has ended: its training thread (in this process,
    as in the server's) joined, then the page drawn again."""
    run = live_run(at.session_state[Key.LIVE_OWNER])
    run.thread.join(timeout=PATIENCE)
    assert not run.running, f"the live run still trains after {PATIENCE:.0f} s"
    at.run()
    assert not at.exception and not at.error, (at.exception, at.error)
    return at


def test_a_live_toy_run_learns_the_alignment_and_joins_the_models(training_page):
    at = training_page
    next(s for s in at.selectbox if s.label == "Toy language").set_value("adjectives")
    # three epochs: from the unigram output bias (issue 51) two leave AER ~11 on this toy
    next(s for s in at.slider if s.label == "Epochs").set_value(3)
    next(s for s in at.slider if s.label == "Training sentences").set_value(1000)
    next(b for b in at.button if b.label == "Train").click().run()
    assert not at.warning, [w.value for w in at.warning]
    _wait_for_run(at)
    text = at.get("progress")[0].proto.text
    assert "toy adjectives · general: trained, epoch 3 of 3" in text
    assert float(text.rsplit("AER ", 1)[1].rstrip("%")) <= 10  # the adjective order, learned
    name = "toy adjectives · general"
    assert name in at.sidebar.selectbox[0].options
    at.sidebar.selectbox[0].set_value(name)
    at.radio(key=Key.PAGE).set_value("One sentence").run()
    at.text_input[0].input("the red cat sees a dog .").run()
    at.toggle(key=Key.FINISHED).set_value(True).run()
    assert not at.exception, at.exception
    rows = heatmaps_on(at)[0]["data"][0]["y"]
    assert [r.split(":", 1)[1] for r in rows[:3]] == ["le", "chat", "rouge"]
