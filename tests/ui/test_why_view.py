"""The fixed-context model in the dashboard: every view that draws attention says it has none
and draws its one context instead, and the "Why attention" view grows the sentence and shows
the three models' BLEU by length once the table beside them is current."""

from __future__ import annotations

import json
import shutil

import pytest

from attnviz.cli.main import main
from attnviz_ui.pages.navigation import View
from attnviz_ui.state.session_keys import Key

from ..helpers import SENTENCE, open_dashboard, type_sentence

CONTEXT_LINE = "every step reads the same c"  # the legend of the context picture's lines


@pytest.fixture
def fixed_left(fixed_folder, monkeypatch):
    """The dashboard with the fixed-context model in the left column and a sentence typed."""
    at = open_dashboard(fixed_folder, monkeypatch)
    at.sidebar.selectbox[0].set_value("encdec").run()
    return type_sentence(at, SENTENCE)


def _view(at, view: View):
    at.radio(key=Key.VIEW).set_value(view).run()
    assert not at.exception, at.exception
    return at


def _figures(at) -> list[dict]:
    """Every plotly figure on the page, as the browser receives it."""
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _named(at, name: str) -> list[dict]:
    """The figures with a trace whose name has ``name`` in it."""
    return [f for f in _figures(at) if any(name in str(t.get("name")) for t in f["data"])]


def test_the_step_view_draws_one_context_for_the_fixed_model_and_never_weights(fixed_left):
    pictures = _named(fixed_left, CONTEXT_LINE)
    heatmaps = [f for f in _figures(fixed_left) if f["data"][0]["type"] == "heatmap"]
    assert len(pictures) == 1 and len(heatmaps) == 1  # the fixed model's picture, luong's map
    headers = [m.value for m in fixed_left.markdown if m.value.startswith("**")]
    assert headers[:2] == ["**encdec** · no attention · `fp32`", "**luong** · general · `fp32`"]
    details = " ".join(str(h.proto) for h in fixed_left.get("html"))
    assert "reads the one context c" in details
    assert details.count("raw score") >= 1  # luong's bars are there, the fixed model's are not


@pytest.mark.parametrize("view", [View.COMPARE, View.EXPORT, View.CARDS, View.BEAM])
def test_every_view_says_the_fixed_model_has_no_attention_and_runs(fixed_left, view):
    at = _view(fixed_left, view)
    text = " ".join(e.value for e in [*at.info, *at.caption, *at.markdown])
    assert "no attention" in text.lower() or "No attention" in text


def test_the_numbers_and_an_attention_edit_are_refused_in_words(fixed_left):
    at = fixed_left
    at.toggle(key=Key.NUMBERS).set_value(True).run()
    assert any("encdec has no attention" in i.value for i in at.info)
    at.selectbox(key=Key.WHAT_IF).set_value(at.selectbox(key=Key.WHAT_IF).options[2]).run()
    at.radio(key=Key.WHAT_IF_MODEL).set_value(0).run()
    assert not at.exception
    assert sum("encdec has no attention" in i.value for i in at.info) >= 1


def test_the_why_view_grows_the_sentence_and_marks_the_words_each_model_lost(
    fixed_folder, monkeypatch
):
    at = _view(type_sentence(open_dashboard(fixed_folder, monkeypatch), SENTENCE), View.WHY)
    heads = [m.value for m in at.markdown if m.value.startswith("**")]
    assert heads == ["**encdec** · no attention", "**bahdanau** · bahdanau", "**luong** · general"]
    assert at.metric[0].value == str(len(SENTENCE.split()))
    at.slider(key=Key.WHY_LENGTH).set_value(4).run()
    assert not at.exception
    grown = int(at.metric[0].value)
    assert grown > 3 * len(SENTENCE.split())
    lost = [c.value for c in at.caption if "source content words lost" in c.value]
    assert len(lost) == 3
    assert any("source words lost:" in m.value for m in at.markdown)
    # No table beside the models yet: the view says how to make it.
    assert any("evaluate --by-length" in i.value for i in at.info)


def test_the_why_view_draws_the_shipped_curve_only_while_it_is_current(
    fixed_folder, corpus_file, tmp_path, monkeypatch
):
    folder = tmp_path / "ck"
    shutil.copytree(fixed_folder, folder)
    models = [str(folder / f"{n}.safetensors") for n in ("encdec", "bahdanau", "luong")]
    table = folder / "why-attention-en-fr.json"
    argv = ["evaluate", "--by-length", *models, "--data", str(corpus_file), "--per-bucket", "3"]
    assert main([*argv, "--json", str(table)]) == 0
    at = _view(type_sentence(open_dashboard(folder, monkeypatch), SENTENCE), View.WHY)
    assert _named(at, "fixed context (no attention)")  # the length curve, its grey line
    assert not any("evaluate --by-length" in i.value for i in at.info)
    with open(folder / "luong.safetensors", "ab") as f:  # a new version of one model
        f.write(b" ")
    at = _view(type_sentence(open_dashboard(folder, monkeypatch), SENTENCE), View.WHY)
    assert any("evaluate --by-length" in i.value for i in at.info)
