"""The dashboard in Chinese (issue 40): the catalog holds every string the code shows, the
language is chosen per session, and no page shows English prose with ``?lang=zh``."""

from __future__ import annotations

import re
import threading
from collections import Counter

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir, extract_from_file
from babel.messages.pofile import read_po

from attnviz import i18n
from attnviz.i18n import INTERFACE_LANGUAGES, catalog_path
from attnviz.plots.lesson_notes import STEPS
from attnviz_ui.pages.navigation import Page, View
from attnviz_ui.state.session_keys import Key
from attnviz_ui.views.what_if_view import WhatIf
from attnviz_ui.widgets.language import from_locale, header, translations

from ..helpers import ROOT, run_corpus, type_sentence
from .prose import ALLOWED, WORD, english_prose

KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")  # str.format's {name:spec}, plotly's %{y}


def _source_messages() -> set[str]:
    """Every message the code marks for translation (``_``, ``N_``), as pybabel extracts it."""
    found = {
        message
        for package in ("attnviz", "attnviz_ui")
        for _file, _line, message, *_ in extract_from_dir(
            ROOT / package, method_map=[("**.py", "python")], keywords=KEYWORDS
        )
    }
    found |= {m for _line, m, *_ in extract_from_file("python", ROOT / "dashboard.py", KEYWORDS)}
    return {m for m in found if isinstance(m, str) and m}


@pytest.fixture(scope="module")
def chinese():
    with catalog_path("zh").open("rb") as f:
        return {m.id: m for m in read_po(f) if m.id}


def test_every_string_the_code_shows_has_a_chinese_translation(chinese):
    missing = sorted(m for m in _source_messages() if m not in chinese)
    assert not missing, f"not in the zh catalog (pybabel update, then translate): {missing}"
    empty = sorted(m.id for m in chinese.values() if not m.string or m.fuzzy)
    assert not empty, f"untranslated or fuzzy: {empty}"


def test_the_catalog_holds_no_string_the_code_no_longer_shows(chinese):
    assert not sorted(set(chinese) - _source_messages())


def test_translations_keep_their_placeholders(chinese):
    changed = [
        (m.id, m.string)
        for m in chinese.values()
        if Counter(PLACEHOLDER.findall(m.id)) != Counter(PLACEHOLDER.findall(m.string))
    ]
    assert not changed


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("zh-CN", "zh"),
        ("zh_TW", "zh"),
        ("zh", "zh"),
        ("en-GB", "en"),
        ("fr-FR", "en"),
        (None, "en"),
    ],
)
def test_the_browser_language_picks_chinese_or_else_english(locale, language):
    assert from_locale(locale) == language


def test_a_language_bound_in_one_session_does_not_reach_another():
    seen = {}

    def session(language: str) -> None:
        i18n.bind(translations(language))
        barrier.wait()  # both bound before either reads
        seen[language] = i18n.gettext("Attention")

    barrier = threading.Barrier(2)
    threads = [threading.Thread(target=session, args=(lang,)) for lang in ("zh", "en")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"zh": "注意力", "en": "Attention"}
    assert i18n.gettext("Attention") == "Attention"  # this thread bound nothing


def test_corpus_headers_are_translated_around_the_model_names():
    i18n.bind(translations("zh"))
    try:
        names = ["bahdanau", "bahdanau-taught"]
        assert header("bahdanau-taught BLEU", names) == "bahdanau-taught BLEU"
        assert header("bahdanau entropy", names) == "bahdanau 熵"
        assert header("bahdanau strays from bahdanau-taught", names) == (
            "bahdanau 偏离 bahdanau-taught"
        )
        assert header("#", names) == "#"
    finally:
        i18n.bind(None)


# The pages in AppTest, with ?lang=zh


def shown_texts(at) -> list[tuple[str, str]]:
    """(kind, text) of everything a reader reads on the page, widgets' labels and options."""
    texts = []
    for kind in ("title", "header", "subheader", "markdown", "caption"):
        texts += [(kind, e.value) for e in at.get(kind)]
    for kind in ("info", "warning", "error", "success", "exception"):
        texts += [(kind, str(e.value)) for e in at.get(kind)]
    for kind in ("radio", "selectbox", "multiselect", "select_slider"):
        for e in at.get(kind):
            texts += [(kind, e.label), *((f"{kind} option", str(o)) for o in e.options)]
    for kind in ("button", "toggle", "checkbox", "slider", "text_input", "text_area", "metric"):
        texts += [(kind, e.label) for e in at.get(kind)]
    for kind in ("expander", "tab"):
        texts += [(kind, e.label) for e in at.get(kind)]
    for e in [*at.get("radio"), *at.get("selectbox"), *at.get("toggle"), *at.get("button")]:
        if getattr(e, "help", None):
            texts.append(("help", e.help))
    return [(kind, text) for kind, text in texts if text]


def assert_chinese(at, allowed: set[str], where: str) -> None:
    assert not at.exception, at.exception
    english = [
        (kind, text, words)
        for kind, text in shown_texts(at)
        if (words := english_prose(text, allowed))
    ]
    assert not english, f"{where}: English on the page: {english}"


@pytest.fixture
def zh_app(checkpoints, monkeypatch):
    """The dashboard opened with ?lang=zh, on the tiny checkpoints."""
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("ATTNVIZ_CHECKPOINTS", str(checkpoints))
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120)
    at.query_params["lang"] = "zh"
    return at.run()


SENTENCES = {  # the selectboxes whose options are sentences or words, not prose
    Key.EXAMPLE, Key.PROBE, Key.LIVE_PROBE, Key.CORPUS_PICK, Key.WHAT_IF_WORD, Key.WHAT_IF_SOURCE,
}  # fmt: skip


def _allowed(at) -> set[str]:
    """The words that are not prose here: the models' names, the sentence typed, and the
    sentences and words offered to pick from (examples, probes, a corpus's lines)."""
    names = {s.value for s in at.sidebar.selectbox if s.value}
    state = at.session_state
    sentence = state[Key.SENTENCE] if Key.SENTENCE in state else ""  # noqa: SIM401 (no .get)
    examples = [o for e in at.get("selectbox") if e.key in SENTENCES for o in e.options]
    words = {w.lower() for text in [*names, sentence, *examples] for w in WORD.findall(text)}
    return ALLOWED | words


def test_every_view_of_the_sentence_page_is_in_chinese(zh_app):
    at = zh_app
    assert at.session_state[Key.LANGUAGE] == "zh"
    type_sentence(at, "The red cat sees a dog.")
    for view in View:
        at.radio(key=Key.VIEW).set_value(view).run()
        assert_chinese(at, _allowed(at), view.value)
    at.radio(key=Key.VIEW).set_value(View.STEPS).run()
    for switch in (Key.FINISHED, Key.NUMBERS, Key.ATTRIBUTION_ON, Key.EFLOMAL_ON):
        at.toggle(key=switch).set_value(True).run()
    assert_chinese(at, _allowed(at), "step by step, every switch on")
    for what_if in list(WhatIf)[1:]:
        at.selectbox(key=Key.WHAT_IF).set_value(what_if).run()
        assert_chinese(at, _allowed(at), what_if.value)
    at.sidebar.radio[0].set_value("beam").run()  # beam search: the beam view draws its trees
    at.radio(key=Key.VIEW).set_value(View.BEAM).run()
    assert_chinese(at, _allowed(at), "beam search")


def test_the_corpus_results_are_in_chinese(zh_app):
    run_corpus(
        zh_app, "The red cat sees a dog.\tLe chat rouge voit un chien.\nI am cold.\tJ'ai froid."
    )
    assert_chinese(zh_app, _allowed(zh_app), "corpus results")


@pytest.mark.parametrize("page", ["A corpus", "Training"])
def test_the_corpus_and_training_pages_are_in_chinese(zh_app, page):
    at = zh_app
    at.radio(key=Key.PAGE).set_value(page).run()
    assert_chinese(at, _allowed(at), page)


def test_the_switch_changes_the_language_and_nothing_else(app):
    type_sentence(app, "The red cat sees a dog.")
    app.radio(key=Key.VIEW).set_value(View.COMPARE).run()
    assert app.title[0].value == "Watch attention translate"  # English by default
    app.sidebar.radio(key=Key.LANGUAGE).set_value("zh").run()
    assert app.title[0].value == "看注意力如何翻译"
    assert app.query_params["lang"] == ["zh"] or app.query_params["lang"] == "zh"
    assert app.text_input(key=Key.SENTENCE).value == "The red cat sees a dog."
    assert app.radio(key=Key.VIEW).value == View.COMPARE
    assert [s.value for s in app.sidebar.selectbox] == ["bahdanau", "luong"]
    app.radio(key=Key.PAGE).set_value("Training").run()  # the choice survives a page switch
    assert app.title[0].value == "看注意力如何翻译"
    assert set(INTERFACE_LANGUAGES) == {"en", "zh"}


def test_a_refusal_reads_in_the_language_of_each_session(zh_app, app):
    from attnviz.decoding.translator import MAX_SOURCE_TOKENS

    long = " ".join(["cat"] * (MAX_SOURCE_TOKENS + 1))
    type_sentence(zh_app, long)  # refused, and the refusal cached...
    assert any("上限" in w.value for w in zh_app.warning)
    type_sentence(app, long)  # ...apart from the English one
    assert any("the limit is" in w.value for w in app.warning)


def test_charts_are_labelled_in_the_bound_language():
    from attnviz.plots import heatmaps

    from ..helpers import tiny_translator

    trace = tiny_translator("bahdanau").translate("the cat")
    i18n.bind(translations("zh"))
    try:
        fig = heatmaps.heatmap(trace, step=0, title="bahdanau")
        assert fig.layout.xaxis.title.text == "源端"
        (title,) = fig.layout.annotations  # level, in the corner: Chinese on its side reads badly
        assert title.text.startswith("输出") and not fig.layout.yaxis.title.text  # which rows, too
        assert fig.data[0].hovertemplate.startswith("输出 %{y}<br>源端 %{x}<br>权重")
        assert fig.data[0].colorbar.title.text == "权重"
    finally:
        i18n.bind(None)
    assert heatmaps.heatmap(trace).layout.xaxis.title.text == "source"


def test_a_checkpoint_that_fails_to_load_is_named_in_each_sessions_language(
    checkpoints, tmp_path, monkeypatch
):
    import shutil

    from streamlit.testing.v1 import AppTest

    shutil.copy(checkpoints / "bahdanau.safetensors", tmp_path / "bahdanau.safetensors")
    shutil.copy(checkpoints / "luong.safetensors", tmp_path / "luong.safetensors")
    (tmp_path / "broken.safetensors").write_bytes(b"PK\x03\x04 not a checkpoint")
    monkeypatch.setenv("ATTNVIZ_CHECKPOINTS", str(tmp_path))
    errors = {}
    for language in ("zh", "en"):  # one server: the failure is loaded once, shown twice
        at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=120)
        at.query_params["lang"] = language
        errors[language] = [e.value for e in at.run().sidebar.error]
    assert len(errors["zh"]) == 1 and "无法加载 broken" in errors["zh"][0]
    assert "pickle/PyTorch 文件" in errors["zh"][0]
    assert errors["en"] == [errors["en"][0]] and "could not be loaded" in errors["en"][0]
    assert "this is a pickle/PyTorch file" in errors["en"][0]


def test_every_step_of_the_lesson_is_in_chinese(zh_app):
    at = zh_app
    at.radio(key=Key.PAGE).set_value(Page.LESSON).run()
    for step in range(1, len(STEPS) + 1):
        assert at.session_state[Key.LESSON_STEP] == step
        assert_chinese(at, _allowed(at), f"lesson step {step}")
        if step < len(STEPS):
            at.button(key=Key.LESSON_NEXT).click().run()
