"""The dashboard in two directions: English → French and 中文 → English, each with its own
models and examples, and a note when a sentence is in the other language."""

from __future__ import annotations

import itertools

import pytest

from attnviz.store.catalog import Direction
from attnviz_ui.pages.navigation import Page
from attnviz_ui.state.session_keys import Key

from ..helpers import heatmaps_on, open_dashboard, type_sentence

ZH_EN, EN_FR = Direction("zh", "en"), Direction("en", "fr")


@pytest.fixture
def app(two_directions, monkeypatch):
    at = open_dashboard(two_directions, monkeypatch)
    assert not at.exception
    return at


def _switch(app, direction: str):
    app.sidebar.radio(key=Key.DIRECTION).set_value(direction).run()
    assert not app.exception, app.exception
    return app


def test_the_sidebar_offers_each_direction_with_only_its_own_models(app):
    radio = app.sidebar.radio(key=Key.DIRECTION)
    assert list(radio.options) == ["English → French", "Chinese → English"] and radio.value == EN_FR
    assert [s.options for s in app.sidebar.selectbox] == [["bahdanau", "luong"]] * 2
    _switch(app, ZH_EN)
    assert [s.value for s in app.sidebar.selectbox] == ["bahdanau-zh-en", "luong-zh-en"]
    assert [s.options for s in app.sidebar.selectbox] == [["bahdanau-zh-en", "luong-zh-en"]] * 2


def test_switching_to_chinese_opens_on_the_classroom_sentence_translated(app):
    assert app.text_input(key=Key.SENTENCE).value.startswith("He bought")
    _switch(app, ZH_EN)
    assert app.text_input(key=Key.SENTENCE).value == "我爱吃苹果。"
    assert app.text_input(key=Key.SENTENCE).label == "Chinese sentence"
    examples = app.selectbox(key=Key.EXAMPLE).options
    assert "汤姆有三个孩子。" in examples and any(c.isdigit() for e in examples for c in e)
    heatmaps = heatmaps_on(app)
    assert len(heatmaps) == 2
    for fig in heatmaps:
        assert fig["data"][0]["x"] == ["1:我", "2:爱", "3:吃", "4:苹果", "5:。", "6:<eos>"]
    _switch(app, EN_FR)  # and back: its own first example
    assert app.text_input(key=Key.SENTENCE).value.startswith("He bought")


def test_a_sentence_in_the_other_language_gets_a_note(app):
    type_sentence(app, "我爱吃苹果。")
    assert any("holds Chinese characters" in w.value for w in app.warning)
    _switch(app, ZH_EN)
    assert not any("Chinese" in w.value for w in app.warning)
    type_sentence(app, "I love apples.")
    assert any("reads Chinese" in w.value for w in app.warning)


def test_every_view_works_on_the_chinese_sentence(app):
    """Reveal, the numbers, both what-ifs, attribution, the comparison, beam search, the cards
    and export, each on 我爱吃苹果。: each shows the Chinese words, none fails."""
    _switch(app, ZH_EN)
    app.slider(key=Key.STEP).set_value(2).run()
    app.toggle(key=Key.NUMBERS).set_value(True).run()
    app.toggle(key=Key.ATTRIBUTION_ON).set_value(True).run()
    app.selectbox(key=Key.WHAT_IF).set_value("Another word here").run()
    app.selectbox(key=Key.WHAT_IF).set_value("Attention elsewhere").run()
    app.selectbox(key=Key.WHAT_IF_SOURCE).set_value(3).run()  # 4:苹果
    assert not app.exception, app.exception
    assert "4:苹果" in app.selectbox(key=Key.WHAT_IF_SOURCE).format_func(3)
    for view in ("Bahdanau vs Luong", "Beam search", "Export", "Model cards"):
        app.radio(key=Key.VIEW).set_value(view).run()
        assert not app.exception, (view, app.exception)
    assert sum("Translates Chinese → English" in m.value for m in app.markdown) == 2  # the cards


def test_the_walk_through_opens_on_the_models_own_and_forces_the_notes_wording_on_a_click(app):
    # Issue 74: 我爱吃苹果。 opens on what the models write themselves; one click forces both
    # to the notes' "I love to eat apples.", said above the pictures and on each heatmap, with
    # what each writes on its own and where "eat" and "apples" look (issue 51).
    _switch(app, ZH_EN)
    assert app.text_input(key=Key.REFERENCE).value == ""
    assert all("forced" not in f["layout"]["title"]["text"] for f in heatmaps_on(app))
    assert any("I love to eat apples." in c.value for c in app.caption)
    app.button(key=Key.TAUGHT_FORCE).click().run()
    assert app.text_input(key=Key.REFERENCE).value == "I love to eat apples."
    assert any(i.value.startswith("Forced: both pictures") for i in app.info)
    heatmaps = heatmaps_on(app)
    assert all("forced: words given, not chosen" in f["layout"]["title"]["text"] for f in heatmaps)
    assert [f["data"][0]["y"][:5] for f in heatmaps] == [
        ["1:I", "2:love", "3:to", "4:eat", "5:apples"]
    ] * 2
    note = next(i.value for i in app.info if "forced to the lecture notes'" in i.value)
    for name in ("bahdanau-zh-en", "luong-zh-en"):
        assert f"**{name}** writes" in note
    assert "“eat” looks most at" in note and "“apples” looks most at" in note
    assert "我父亲爱吃比萨。" in note
    app.button(key=Key.TAUGHT_FORCE).click().run()  # back to the models' own
    assert app.text_input(key=Key.REFERENCE).value == ""
    app.button(key=Key.TAUGHT_FORCE).click().run()
    app.text_input(key=Key.SENTENCE).input("我爱你。").run()  # drops the filled-in reference
    assert app.text_input(key=Key.REFERENCE).value == ""
    assert not any("lecture notes'" in i.value for i in app.info)


SWITCHES = (Key.LANGUAGE, Key.DIRECTION, Key.PAGE)  # each switch is a radio of that key


@pytest.mark.parametrize("order", list(itertools.permutations(SWITCHES)), ids="-".join)
def test_every_order_of_language_direction_and_page_switches_keeps_each_choice(app, order):
    """Issue 51: each switch, made in any order there and back, changes its own choice and
    nothing else, and no run fails (the language switch once lost a direction kept as its
    translated label)."""
    state = {Key.LANGUAGE: "en", Key.DIRECTION: EN_FR, Key.PAGE: Page.SENTENCE}
    other = {
        Key.LANGUAGE: {"en": "zh", "zh": "en"},
        Key.DIRECTION: {EN_FR: ZH_EN, ZH_EN: EN_FR},
        Key.PAGE: {Page.SENTENCE: Page.TRAINING, Page.TRAINING: Page.SENTENCE},
    }
    for switch in order + order:
        state[switch] = other[switch][state[switch]]
        app.radio(key=switch).set_value(state[switch]).run()
        assert not app.exception, (switch, state, app.exception)
        for key in SWITCHES:
            assert app.radio(key=key).value == state[key]
        title = {"en": "Watch attention translate", "zh": "看注意力如何翻译"}
        assert app.title[0].value == title[state[Key.LANGUAGE]]
        if state[Key.PAGE] == Page.SENTENCE:  # the box names the direction's source language
            label = app.text_input(key=Key.SENTENCE).label
            chinese_box = {"en": "Chinese sentence", "zh": "中文句子"}[state[Key.LANGUAGE]]
            assert (label == chinese_box) == (state[Key.DIRECTION] == ZH_EN), (label, state)
