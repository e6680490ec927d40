"""The page's address (attnviz_ui/state/address.py): a link read into what it asks for, each
value it cannot use set aside with its reason, and the choices written back as a link that
reads the same."""

from __future__ import annotations

import pytest

from attnviz.i18n import INTERFACE_LANGUAGES
from attnviz.store.catalog import Direction
from attnviz_ui.pages.address_bar import PAGES, VIEWS
from attnviz_ui.pages.navigation import Page, View
from attnviz_ui.state.address import (
    Link,
    Param,
    SetAside,
    Vocabulary,
    Why,
    excerpt,
    params_of,
    past_the_end,
    read_link,
    url_of,
)

EN_FR, ZH_EN, EN_ZH = Direction("en", "fr"), Direction("zh", "en"), Direction("en", "zh")
HERE = Vocabulary(
    PAGES,
    VIEWS,
    {
        EN_FR: ["bahdanau-pieces", "luong-pieces", "transformer-pieces"],
        ZH_EN: ["bahdanau-zh-en", "luong-zh-en"],
        EN_ZH: ["bahdanau-en-zh", "luong-en-zh"],
    },
    INTERFACE_LANGUAGES,
    max_chars=4000,
    lesson_steps=6,
)
EVERYTHING = Link(
    page=Page.SENTENCE,
    lesson=None,
    direction=ZH_EN,
    left="luong-zh-en",
    right="bahdanau-zh-en",
    sentence="我爱吃苹果。",
    reference="I love to eat apples & pears.",
    view=View.COMPARE,
    step=3,
    language="zh",
)


def test_every_field_of_a_link_has_its_parameter():
    assert list(Link.__dataclass_fields__) == [p.name.lower() for p in Param]


def test_the_names_of_pages_and_views_are_the_issues_and_name_every_member():
    assert list(PAGES) == ["sentence", "lesson", "corpus", "training"]
    assert list(VIEWS) == [
        "steps", "why", "compare", "transformer", "taught", "beam", "cards", "export",
    ]  # fmt: skip
    assert set(PAGES.values()) == set(Page) and set(VIEWS.values()) == set(View)


@pytest.mark.parametrize(
    "link",
    [
        EVERYTHING,
        Link(page=Page.LESSON, lesson=4, direction=EN_ZH, sentence="I love you.", step=2),
        Link(page=Page.TRAINING, direction=EN_FR, left="transformer-pieces", language="en"),
        Link(),
    ],
)
def test_a_link_written_then_read_is_the_same_link_with_nothing_set_aside(link):
    assert read_link(params_of(link, HERE), HERE) == (link, ())


def test_a_link_reads_as_the_issue_spells_it():
    params = params_of(EVERYTHING, HERE)
    assert params == {
        "page": "sentence", "direction": "zh-en", "left": "luong-zh-en",
        "right": "bahdanau-zh-en", "sentence": "我爱吃苹果。",
        "reference": "I love to eat apples & pears.", "view": "compare", "step": "3",
        "lang": "zh",
    }  # fmt: skip
    url = url_of("http://class.example:8501/", params)
    assert url.startswith("http://class.example:8501/?page=sentence&direction=zh-en&")
    assert "%E6%88%91" in url and " " not in url and "apples%20%26%20pears" in url


def test_an_empty_value_asks_nothing_and_a_parameter_not_ours_is_left_alone():
    link, aside = read_link({"sentence": "", "view": "", "embed": "true", "utm": "x"}, HERE)
    assert link == Link() and aside == ()


HOSTILE = [  # (parameter, value, why, detail)
    ("view", "<script>alert(1)</script>", Why.UNKNOWN, ", ".join(VIEWS)),
    ("page", "admin", Why.UNKNOWN, "sentence, lesson, corpus, training"),
    ("direction", "xx-yy", Why.UNKNOWN, "en-fr, zh-en, en-zh"),
    ("left", "nope", Why.UNKNOWN, "bahdanau-zh-en, luong-zh-en"),
    ("right", "../../etc/passwd", Why.UNKNOWN, "bahdanau-zh-en, luong-zh-en"),
    ("lang", "../../", Why.UNKNOWN, "en, zh"),
    ("step", "abc", Why.NOT_A_NUMBER, ""),
    ("step", "2.5", Why.NOT_A_NUMBER, ""),
    ("step", "9" * 5000, Why.NOT_A_NUMBER, ""),  # more digits than int() reads
    ("step", "-3", Why.BELOW_ONE, ""),
    ("step", "0", Why.BELOW_ONE, ""),
    ("lesson", "7", Why.PAST_THE_END, "6"),
    ("lesson", "one", Why.NOT_A_NUMBER, ""),
    ("sentence", "a" * 5000, Why.TOO_LONG, "4,000"),
    ("reference", "<b>x</b>", Why.MARKUP, ""),
    ("sentence", "I am <img src=x onerror=alert(1)>", Why.MARKUP, ""),
    ("sentence", "<!-- hidden -->", Why.MARKUP, ""),
    ("sentence", "two\nlines", Why.MARKUP, ""),
    ("reference", "nul\x00", Why.MARKUP, ""),
]  # fmt: skip


@pytest.mark.parametrize(("param", "value", "why", "detail"), HOSTILE)
def test_a_value_the_page_cannot_use_is_set_aside_with_its_reason_and_the_rest_opens(
    param, value, why, detail
):
    params = {**params_of(EVERYTHING, HERE), param: value}
    link, aside = read_link(params, HERE, current=ZH_EN)  # models of the page's direction kept
    assert aside == (SetAside(Param(param), value, why, detail),)
    assert getattr(link, Param(param).name.lower()) is None
    kept = {p: v for p, v in params.items() if p != param}
    assert params_of(link, HERE) == kept  # every other value opens


def test_a_model_is_checked_against_the_direction_the_page_will_show():
    assert read_link({"left": "luong-zh-en"}, HERE, current=ZH_EN)[0].left == "luong-zh-en"
    assert read_link({"left": "luong-zh-en"}, HERE)[1][0].why == Why.UNKNOWN  # English → French
    link, aside = read_link({"direction": "xx-yy", "left": "luong-pieces"}, HERE, current=ZH_EN)
    assert link.left is None and [a.param for a in aside] == [Param.DIRECTION, Param.LEFT]


def test_a_sentence_with_angle_brackets_that_are_not_markup_is_kept():
    assert read_link({"sentence": "3 < 5 and 7 > 4"}, HERE) == (
        Link(sentence="3 < 5 and 7 > 4"),
        (),
    )


def test_a_step_past_the_end_is_known_once_the_sentence_is_decoded():
    assert read_link({"step": "999"}, HERE)[0].step == 999
    assert past_the_end(999, 7) == (Why.PAST_THE_END, "7")
    assert past_the_end(7, 7) is None


def test_a_value_is_quoted_on_one_line_shortened_and_without_backticks():
    assert excerpt("a" * 5000) == "a" * 39 + "…"
    assert excerpt("x`y\nz") == "x'y z"
