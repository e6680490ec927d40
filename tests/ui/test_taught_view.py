"""The natural vs taught view: a model beside the model taught from it (found by their cards,
not their names), eflomal's links on both heatmaps, their difference, each one's AER and what
teaching changed; a model without a taught partner says how to make one; and the corpus page
ranks sentences by how far natural attention strays from taught."""

from __future__ import annotations

import numpy as np
import pytest

from attnviz.analysis.aer import GoldPair
from attnviz.plots.heatmaps import FORCED
from attnviz_ui.state.session_keys import Key

from ..helpers import TAUGHT, heatmaps_on, open_dashboard, plotly_array, plotly_figures, run_corpus
from ..helpers import type_sentence as typed
from ..synthetic import corpus


@pytest.fixture
def app(taught_folder, monkeypatch):
    at = open_dashboard(taught_folder, monkeypatch)
    assert not at.exception, at.exception
    return at


def _taught_view(at, sentence: str, reference: str = ""):
    typed(at, sentence, reference)
    at.radio(key=Key.VIEW).set_value("Natural vs taught").run()
    assert not at.exception, at.exception
    return at


def test_the_natural_models_stay_the_default(app):
    assert [s.value for s in app.sidebar.selectbox[:2]] == ["bahdanau", "luong"]


def test_a_natural_model_is_shown_beside_its_taught_partner_with_eflomal_links(app):
    (en, fr, _), *_ = corpus(1, seed=31)
    source, reference = f"{en[0].upper()}{en[1:-2]}.", f"{fr[0].upper()}{fr[1:-2]}."
    app.session_state[Key.GOLD] = GoldPair(source, reference, frozenset({(0, 0)}))
    _taught_view(app, source, reference)
    heatmaps = heatmaps_on(app)
    titles = [f["layout"]["title"]["text"] for f in heatmaps]
    assert titles == [f"bahdanau (natural) · {FORCED}", f"{TAUGHT} (taught) · {FORCED}"]
    for fig in heatmaps:
        assert fig["data"][0]["y"][-1].endswith("<eos>")  # both on the reference
        assert any(d.get("name") == "eflomal link" and d["x"] for d in fig["data"])
        assert any(d.get("name") == "gold link" for d in fig["data"])
    (difference,) = [
        f for f in plotly_figures(app, "heatmap") if f["layout"]["title"]["text"] not in titles
    ]
    assert difference["layout"]["title"]["text"] == f"{TAUGHT} minus bahdanau"
    natural, taught = (plotly_array(f["data"][0]["z"]) for f in heatmaps)
    assert np.allclose(plotly_array(difference["data"][0]["z"]), taught - natural)
    assert np.abs(taught - natural).max() > 0.01  # one epoch of teaching moved something
    metrics = {m.label: float(m.value) for m in app.metric}
    for name in ("bahdanau", TAUGHT):
        assert 0 <= metrics[f"{name}: attention vs eflomal (AER)"] <= 100
    captions = " ".join(c.value for c in app.caption)
    assert captions.count("Against the gold links") == 2
    note = next(m.value for m in app.markdown if "What teaching changed" in m.value)
    assert "λ = 0.5" in note and "links\\.txt" in note and "Test BLEU" in note


def test_a_taught_model_finds_its_natural_parent(app):
    app.sidebar.selectbox[0].set_value(TAUGHT).run()
    _taught_view(app, "The red cat sees a dog.")
    titles = [f["layout"]["title"]["text"] for f in heatmaps_on(app)]
    assert titles == [f"bahdanau (natural) · {FORCED}", f"{TAUGHT} (taught) · {FORCED}"]


def test_a_model_without_a_taught_partner_says_so_in_plain_words_the_command_set_apart(app):
    _taught_view(app, "The red cat sees a dog.")
    app.radio(key=Key.TAUGHT_MODEL).set_value(1).run()  # the right model: luong
    assert not app.exception, app.exception
    assert not heatmaps_on(app)
    (info,) = [i.value for i in app.info if "taught partner" in i.value]
    assert "luong" in info and "python" not in info  # what it would show, not a command
    (command,) = [c.value for c in app.code if "--init-from" in c.value]
    assert "--guide eflomal" in command


def test_the_corpus_page_ranks_sentences_by_how_far_natural_strays_from_taught(app):
    pairs = corpus(4, seed=32)
    run_corpus(app, "\n".join(f"{en}\t{fr}" for en, fr, _ in pairs))
    column = f"bahdanau strays from {TAUGHT}"
    assert column not in app.dataframe[0].value  # a choice, not the default
    app.toggle(key=Key.CORPUS_STRAYS).set_value(True).run()
    assert not app.exception, app.exception
    strays = list(app.dataframe[0].value[column])
    assert strays == sorted(strays, reverse=True) and strays[0] > 0
    app.button(key=Key.CORPUS_OPEN).click().run()
    assert app.radio(key=Key.VIEW).value == "Natural vs taught"
    assert len(heatmaps_on(app)) == 2
