"""Links to a state (issue 75, item 2), in AppTest: a link opens the direction, models,
sentence, view and step it names; the address follows every choice, so that it opens the same
page again in a new session; a value the page cannot use is set aside with one line, the rest of
the link opens, and no address raises."""

from __future__ import annotations

import pytest

from attnviz.plots.lesson_notes import STEPS as LESSON_STEPS
from attnviz.store.catalog import Direction
from attnviz_ui.pages.navigation import Page, View
from attnviz_ui.state.session_keys import Key

from ..helpers import heatmaps_on, open_dashboard

ZH_EN = Direction("zh", "en")
LINK = {
    "page": "sentence", "direction": "zh-en", "left": "luong-zh-en", "right": "bahdanau-zh-en",
    "sentence": "我爱你。", "view": "compare", "step": "2", "lang": "en",
}  # fmt: skip


def _notes(at) -> list[str]:
    """The lines that say a value of the link was set aside."""
    return [w.value for w in at.warning if w.icon == "🔗"]


def _shown(at) -> dict:
    """What a student sees chosen: direction, models, sentence, view and step."""
    return {
        "direction": at.sidebar.radio(key=Key.DIRECTION).value,
        "models": [at.selectbox(key=k).value for k in (Key.LEFT_MODEL, Key.RIGHT_MODEL)],
        "sentence": at.text_input(key=Key.SENTENCE).value,
        "view": at.radio(key=Key.VIEW).value,
        "step": at.slider(key=Key.STEP).value,
    }


def test_a_link_opens_its_direction_models_sentence_view_and_step(two_directions, monkeypatch):
    at = open_dashboard(two_directions, monkeypatch, query=LINK)
    assert not at.exception, at.exception
    assert _shown(at) == {
        "direction": ZH_EN, "models": ["luong-zh-en", "bahdanau-zh-en"], "sentence": "我爱你。",
        "view": View.COMPARE, "step": 2,
    }  # fmt: skip
    assert at.selectbox(key=Key.EXAMPLE).value != "我爱你。"  # typed: not one of the examples
    assert not _notes(at)
    assert at.query_params == LINK  # the address is the link itself


def test_the_address_follows_each_choice_and_opens_the_same_page_in_a_new_session(
    two_directions, monkeypatch
):
    at = open_dashboard(two_directions, monkeypatch)
    opened = dict(at.query_params)
    assert opened["page"] == "sentence" and opened["direction"] == "en-fr"
    assert opened["sentence"] == at.text_input(key=Key.SENTENCE).value
    assert int(opened["step"]) == at.slider(key=Key.STEP).value > 1  # an example, finished
    at.sidebar.radio(key=Key.DIRECTION).set_value(ZH_EN).run()
    at.selectbox(key=Key.LEFT_MODEL).set_value("luong-zh-en").run()
    at.selectbox(key=Key.RIGHT_MODEL).set_value("bahdanau-zh-en").run()
    at.text_input(key=Key.SENTENCE).input("我爱你。").run()
    at.radio(key=Key.VIEW).set_value(View.TRANSFORMER).run()
    at.radio(key=Key.VIEW).set_value(View.COMPARE).run()
    at.slider(key=Key.STEP).set_value(2).run()
    assert not at.exception, at.exception
    assert at.query_params == LINK
    shown = _shown(at)
    again = open_dashboard(two_directions, monkeypatch, query=dict(at.query_params))
    assert _shown(again) == shown and not _notes(again)
    at.radio(key=Key.VIEW).set_value(View.WHY).run()  # a view without steps: no step
    assert "step" not in at.query_params and at.query_params["view"] == "why"
    at.radio(key=Key.PAGE).set_value(Page.CORPUS).run()  # the corpus page: no sentence
    assert at.query_params == {
        "page": "corpus", "direction": "zh-en", "left": "luong-zh-en", "right": "bahdanau-zh-en",
        "lang": "en",
    }  # fmt: skip


def test_a_link_with_a_step_but_no_sentence_opens_the_first_example_at_that_step(app):
    at = app
    example, last = at.text_input(key=Key.SENTENCE).value, at.slider(key=Key.STEP).value
    at.query_params["step"] = "2"  # the address changed within the session
    at.run()
    assert at.text_input(key=Key.SENTENCE).value == example
    assert at.slider(key=Key.STEP).value == 2 < last


HOSTILE = [  # ten addresses, each with one value the page cannot use
    ({"view": "<script>alert(1)</script>"}, "view"),
    ({"step": "-3"}, "step"),
    ({"step": "999"}, "step"),  # past the end, known once the sentence is decoded
    ({"step": "abc"}, "step"),
    ({"direction": "xx-yy"}, "direction"),
    ({"left": "nope"}, "left"),
    ({"sentence": "word " * 1000}, "sentence"),  # 5,000 characters
    ({"page": "admin"}, "page"),
    ({"lang": "../../"}, "lang"),
    ({"reference": "<b>x</b>"}, "reference"),
]


@pytest.mark.parametrize(("query", "param"), HOSTILE, ids=lambda v: str(v)[:30])
def test_a_hostile_address_raises_nothing_and_says_what_it_set_aside(
    checkpoints, monkeypatch, query, param
):
    at = open_dashboard(checkpoints, monkeypatch, query=query)
    assert not at.exception, at.exception
    (note,) = _notes(at)
    assert note.startswith(f"The link's {param} `") and " was set aside: " in note
    assert len(note) < 200  # one line, however long the value
    assert len(heatmaps_on(at)) == 2  # the page opens all the same, on its first example
    assert query[param] not in at.query_params.values()  # and its address leaves it out


def test_the_rest_of_the_link_opens_beside_a_value_set_aside(checkpoints, monkeypatch):
    query = {"sentence": "The red cat sees a dog.", "view": "nope", "step": "2", "left": "luong"}
    at = open_dashboard(checkpoints, monkeypatch, query=query)
    assert _notes(at) == [
        "The link's view `nope` was set aside: it is none of steps, why, compare, transformer, "
        "taught, beam, cards, export."
    ]
    assert at.text_input(key=Key.SENTENCE).value == "The red cat sees a dog."
    assert at.slider(key=Key.STEP).value == 2
    assert at.selectbox(key=Key.LEFT_MODEL).value == "luong"
    assert at.radio(key=Key.VIEW).value == View.STEPS


def test_a_note_is_in_the_links_language(checkpoints, monkeypatch):
    at = open_dashboard(checkpoints, monkeypatch, query={"lang": "zh", "step": "abc"})
    (note,) = _notes(at)
    assert note.startswith("链接中的 step `abc`") and "整数" in note


def test_a_link_opens_the_lessons_step(checkpoints, monkeypatch):
    at = open_dashboard(checkpoints, monkeypatch, query={"page": "lesson", "lesson": "3"})
    assert not at.exception, at.exception
    assert at.radio(key=Key.PAGE).value == Page.LESSON
    assert at.query_params["page"] == "lesson" and at.query_params["lesson"] == "3"
    at = open_dashboard(checkpoints, monkeypatch, query={"page": "lesson", "lesson": "99"})
    last = len(LESSON_STEPS)
    assert _notes(at) == [f"The link's lesson `99` was set aside: the last step is {last}."]
