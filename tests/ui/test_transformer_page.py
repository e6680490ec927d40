"""A Transformer on the sentence page (issue 64): every view and switch draws, its heatmap is
its picture layer's heads averaged, and what cannot apply to it says so."""

from __future__ import annotations

import pytest

from attnviz.model.model_config import MULTIHEAD
from attnviz.plots.formulas import score_text
from attnviz_ui.pages.navigation import View
from attnviz_ui.state.session_keys import Key
from attnviz_ui.views.what_if_view import WhatIf

from ..helpers import heatmaps_on, open_dashboard, type_sentence

pytestmark = pytest.mark.slow
SENTENCE = "The red cat sees a small dog ."


def test_every_view_and_switch_draws_a_transformer(transformer_folder, monkeypatch):
    at = open_dashboard(transformer_folder, monkeypatch)
    at.sidebar.selectbox[0].set_value("transformer")
    type_sentence(at, SENTENCE)
    assert not at.exception, at.exception
    assert len(heatmaps_on(at)) == 2
    assert any("multi-head" in m.value for m in at.markdown)  # its header names its attention
    for key in (Key.NUMBERS, Key.ATTRIBUTION_ON, Key.EFLOMAL_ON, Key.FINISHED, Key.PIECES):
        at.toggle(key=key).set_value(True).run()
        assert not at.exception, (key, at.exception)
        if key == Key.NUMBERS:  # one attention's numbers: said in plain words, not drawn
            assert any("is a Transformer" in i.value for i in at.info)
        at.toggle(key=key).set_value(False).run()
    for what_if in (WhatIf.WORD, WhatIf.ATTENTION):
        at.selectbox(key=Key.WHAT_IF).set_value(what_if).run()
        assert not at.exception, (what_if, at.exception)
    at.selectbox(key=Key.WHAT_IF).set_value(WhatIf.NOTHING).run()
    for view in View:
        at.radio(key=Key.VIEW).set_value(view).run()
        assert not at.exception, (view, at.exception)


def test_to_the_transformer_draws_every_head_and_a_picked_one_large(
    transformer_folder, monkeypatch
):
    from ..helpers import plotly_figures

    at = open_dashboard(transformer_folder, monkeypatch)
    at.sidebar.selectbox[1].set_value("luong")
    type_sentence(at, SENTENCE)
    at.radio(key=Key.VIEW).set_value(View.TRANSFORMER).run()
    assert not at.exception, at.exception
    heads = [f for f in plotly_figures(at, "heatmap") if len(f["data"]) == 4]  # 2 layers x 2
    assert len(heads) == 1
    at.selectbox(key=Key.TRANSFORMER_HEAD).set_value((1, 0)).run()
    assert not at.exception, at.exception
    titles = [f["layout"].get("title", {}).get("text", "") for f in plotly_figures(at, "heatmap")]
    assert any(t.endswith("layer 2, head 1") for t in titles), titles
    assert any("eflomal's priors do not fit" in c.value for c in at.caption)  # none here
    # the chain of scores with this step's numbers: Luong's general and dot, the Transformer's
    # scaled score and each head of its picture layer
    (chain,) = [d.value for d in at.dataframe if "α" in d.value.columns]
    forms = set(chain.iloc[:, 0])  # each written as every surface writes it
    assert {score_text("dot"), score_text(MULTIHEAD)} <= forms
    assert forms & {score_text("general", scaled) for scaled in (False, True)}
    assert chain["α"].between(0, 1).all()
    assert len(chain) == 2 * 2 + 1 + 2  # two Luong sides (general, dot), scaled, two heads


def test_to_the_transformer_says_plainly_when_no_transformer_is_here(app):
    type_sentence(app, SENTENCE)
    app.radio(key=Key.VIEW).set_value(View.TRANSFORMER).run()
    assert not app.exception, app.exception
    assert any("No Transformer translates" in i.value for i in app.info)


def test_attention_elsewhere_edits_one_head_of_a_transformer(transformer_folder, monkeypatch):
    at = open_dashboard(transformer_folder, monkeypatch)
    at.sidebar.selectbox[0].set_value("transformer")
    type_sentence(at, SENTENCE)
    at.selectbox(key=Key.WHAT_IF).set_value(WhatIf.ATTENTION).run()
    at.radio(key=Key.WHAT_IF_MODEL).set_value(0).run()
    assert not at.exception, at.exception
    head = at.selectbox(key=Key.WHAT_IF_HEAD)
    assert len(head.options) == 2  # the tiny Transformer's heads in its picture layer
    head.set_value(1).run()
    assert not at.exception, at.exception
    assert any("Your weights replace one head's" in c.value for c in at.caption)
    assert any("edited:" in m.value for m in at.markdown)  # the edited translation is shown
