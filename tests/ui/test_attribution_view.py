"""Attribution beside attention in the dashboard (AppTest), and its pure chart builders."""

from __future__ import annotations

import json

import numpy as np
import pytest

import attnviz
from attnviz.analysis.attribution import METHODS, attribute
from attnviz.analysis.compare_models import Item, agreement_table, attribution_agreement
from attnviz.plots import attribution_charts, heatmaps
from attnviz_ui.state.session_keys import Key

from ..helpers import (
    SENTENCE,
    plotly_array,
    plotly_figures,
    run_corpus,
    tiny_translator,
    type_sentence,
)
from ..synthetic import corpus


def _titled(at, title: str) -> list[dict]:
    return [f for f in plotly_figures(at, "heatmap") if f["layout"]["title"]["text"] == title]


def _turn_on(at, method: str | None = None):
    type_sentence(at, SENTENCE)
    at.slider(key=Key.STEP).set_value(1)  # a new sentence opens on its last step
    at.toggle(key=Key.ATTRIBUTION_ON).set_value(True).run()
    assert not at.exception, at.exception
    if method:
        at.radio(key=Key.ATTRIBUTION_METHOD).set_value(method).run()
        assert not at.exception, at.exception
    return at


def test_attribution_is_off_until_asked_then_beside_attention_for_both_models(app, checkpoints):
    type_sentence(app, SENTENCE)
    assert not _titled(app, "erasure")  # nothing computed while the toggle is off
    _turn_on(app)
    assert app.radio(key=Key.ATTRIBUTION_METHOD).value == "erasure"  # the default
    assert app.radio(key=Key.ATTRIBUTION_METHOD).options == [
        METHODS[m].label for m in ("saliency", "integrated_gradients", "erasure")
    ]
    beside, shown = _titled(app, "attention"), _titled(app, "erasure")
    assert len(beside) == len(shown) == 2
    for name, fig in zip(("bahdanau", "luong"), shown, strict=True):
        tr = attnviz.load(checkpoints / f"{name}.safetensors", precision="fp32")
        expected = attribute(tr, tr.translate(SENTENCE), "erasure").values
        np.testing.assert_allclose(plotly_array(fig["data"][0]["z"]), expected, atol=1e-5)
        assert fig["data"][0]["x"][:3] == ["1:The", "2:red", "3:cat"]  # words, no <eos>
        assert heatmaps.framed_step(fig) == 0
    labels = [m.label for m in app.metric]
    assert labels.count("Step 1: ρ") == 2 and labels.count("Same argmax word") == 2
    specs = [c.proto.spec for c in app.get("vega_lite_chart")]
    assert sum("erasure (word" in s for s in specs) == 2  # the attribution bars


def test_the_method_selector_and_the_step_slider_redraw_from_the_cache(app, monkeypatch):
    _turn_on(app, "saliency")
    assert len(_titled(app, "saliency")) == 2
    _turn_on(app, "integrated_gradients")
    assert any("completeness gap" in c.value for c in app.caption)  # IG states its delta
    import attnviz.analysis.attribution

    def refuse(*args, **kwargs):
        raise AssertionError("attributed again")

    monkeypatch.setattr(attnviz.analysis.attribution, "attribute", refuse)
    app.radio(key=Key.ATTRIBUTION_METHOD).set_value("saliency").run()
    app.slider[0].set_value(3).run()
    assert not app.exception, app.exception
    assert all(heatmaps.framed_step(f) == 2 for f in _titled(app, "saliency"))
    assert [m.label for m in app.metric].count("Step 3: ρ") == 2


def test_the_corpus_page_compares_attention_and_attribution_per_sentence(app):
    pairs = corpus(4, seed=12)
    run_corpus(app, "\n".join(f"{en}\t{fr}" for en, fr, _ in pairs))
    app.radio(key=Key.CORPUS_ATTRIBUTION_METHOD).set_value("saliency").run()
    app.button(key=Key.CORPUS_ATTRIBUTION_RUN).click().run()
    assert not app.exception, app.exception
    frame = app.dataframe[-1].value
    assert list(frame.columns) == [
        "#",
        "source",
        "bahdanau rho",
        "bahdanau argmax agrees",
        "luong rho",
        "luong argmax agrees",
    ]
    assert frame["luong argmax agrees"].between(0, 1).all()
    assert frame["bahdanau rho"].between(-1, 1).all()


def test_agreement_table_is_one_row_per_sentence_and_none_where_refused():
    tr = tiny_translator("general")
    items = [Item("the cat sees a dog .", ()), Item("cat " * 300, ())]  # the second is refused
    rows = attribution_agreement(tr, items, "saliency")
    assert rows[1] is None and -1 <= rows[0].mean_spearman <= 1
    frame = agreement_table(items, {"m": rows})
    assert frame["m rho"].isna().tolist() == [False, True]


@pytest.mark.parametrize("method", ["saliency", "erasure"])
def test_chart_builders_show_the_values_they_are_given(method):
    tr = tiny_translator("bahdanau")
    trace = tr.translate("the big cat sees a small house .")
    att = attribute(tr, trace, method)
    fig = attribution_charts.attribution_heatmap(att, step=1).to_plotly_json()
    np.testing.assert_allclose(plotly_array(fig["data"][0]["z"]), att.values)
    top = np.abs(att.values).max()
    assert fig["data"][0]["zmin"] == -top and fig["data"][0]["zmax"] == top  # 0 is white
    assert heatmaps.framed_step(fig) == 1
    frame = attribution_charts.step_frame(trace, att, 2)
    np.testing.assert_allclose(frame[frame.measure == method]["value"], att.values[2])
    np.testing.assert_allclose(frame[frame.measure == "attention"]["value"], trace.weights[2, :-1])
    bars = attribution_charts.attribution_bars(trace, att, 2)
    spec = json.dumps([b.to_dict() for b in bars], ensure_ascii=False)
    assert "attention weight" in spec and METHODS[method].label in spec


def test_integrated_gradients_on_a_long_sentence_are_refused_with_the_limit(app):
    from attnviz_ui.serving.attribution import IG_MAX_WORDS

    type_sentence(app, " ".join(["cat"] * IG_MAX_WORDS))  # exactly the limit: computed
    app.toggle(key=Key.ATTRIBUTION_ON).set_value(True).run()
    app.radio(key=Key.ATTRIBUTION_METHOD).set_value("integrated_gradients").run()
    assert not app.exception
    assert not any("up to" in w.value for w in app.warning)
    assert len(_titled(app, "integrated_gradients")) == 2
    type_sentence(app, " ".join(["cat"] * (IG_MAX_WORDS + 1)))  # one word over: refused
    assert any(f"up to {IG_MAX_WORDS} words" in w.value for w in app.warning)
    assert not _titled(app, "integrated_gradients")
    app.radio(key=Key.ATTRIBUTION_METHOD).set_value("erasure").run()
    assert len(_titled(app, "erasure")) == 2  # the other methods still answer
