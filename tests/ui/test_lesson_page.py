"""The Lesson page: the notes' path one step a screen, Back and Next, each step's picture drawn
from the models and sentence at hand, and the notes' table with its evidence."""

from __future__ import annotations

from attnviz.plots.lesson_notes import STEPS
from attnviz_ui.pages.navigation import Page
from attnviz_ui.state.session_keys import Key

from ..helpers import plotly_figures


def _lesson(app):
    app.radio(key=Key.PAGE).set_value(Page.LESSON).run()
    assert not app.exception, app.exception
    return app


def test_next_and_back_walk_the_notes_path_and_stop_at_its_ends(app):
    at = _lesson(app)
    assert at.button(key=Key.LESSON_BACK).disabled and at.session_state[Key.LESSON_STEP] == 1
    for step in range(2, len(STEPS) + 1):
        at.button(key=Key.LESSON_NEXT).click().run()
        assert not at.exception, at.exception
        assert at.session_state[Key.LESSON_STEP] == step
    assert at.session_state[Key.LESSON_STEP] == len(STEPS) == 6
    assert at.button(key=Key.LESSON_NEXT).disabled
    at.button(key=Key.LESSON_BACK).click().run()
    assert at.session_state[Key.LESSON_STEP] == len(STEPS) - 1


def test_bahdanau_and_luong_share_a_step_and_show_its_numbers(app):
    at = _lesson(app)
    at.button(key=Key.LESSON_NEXT).click().run()  # 2. Bahdanau
    at.slider(key=Key.LESSON_AT).set_value(2).run()
    assert not at.exception, at.exception
    (heatmap,) = plotly_figures(at, "heatmap")
    assert heatmap["layout"]["shapes"][0]["y0"] == 0.5  # row 2 framed
    assert any("score e" in d.value.columns for d in at.dataframe)
    at.button(key=Key.LESSON_NEXT).click().run()  # 3. Luong, on the same step
    assert at.slider(key=Key.LESSON_AT).value == 2
    assert any("h_t" in latex.value for latex in at.latex)


def test_the_notes_table_gives_every_row_its_evidence(app):
    at = _lesson(app)
    at.session_state[Key.LESSON_STEP] = 4
    at.run()
    assert not at.exception, at.exception
    (table,) = at.table
    rows = table.value
    assert list(rows.iloc[:, 0]) == [  # the notes' five rows, as the notes name them, then ours
        "alias", "computation", "speed", "where it is applied", "when to use it",
        "sharpness (added by attnviz)",
    ]  # fmt: skip
    assert rows.iloc[:, 3].str.len().gt(10).all()  # each row with its evidence
    assert "µs" in rows.iloc[2, 1] and "times as long" in rows.iloc[2, 3]


def test_a_step_without_its_model_says_so_plainly_and_the_others_still_run(
    checkpoints, monkeypatch
):
    """The tiny checkpoints have no model without attention and no Transformer: steps 1 and 6
    say which model they show and that this direction has none, with no template hole and
    nothing to try; the steps between draw. In both languages."""
    import re

    from attnviz import i18n
    from attnviz.plots.lesson_notes import MISSING

    from ..helpers import open_dashboard

    for language in ("en", "zh"):
        at = _lesson(open_dashboard(checkpoints, monkeypatch, {"lang": language}))
        say = i18n.catalog(language).gettext if language == "zh" else str
        for step in range(1, len(STEPS) + 1):
            at.session_state[Key.LESSON_STEP] = step
            at.run()
            assert not at.exception, at.exception
            texts = [e.value for e in (*at.markdown, *at.info, *at.caption)]
            holes = [t for t in texts if "{" in t or re.search(r"(^|\s)–(\s|$)", t)]
            assert not holes, (language, step, holes)
            said = [t for t in (e.value for e in at.info) if t.startswith(say(MISSING)[:6])]
            if step in (1, 6):
                needs = say(STEPS[step - 1].needs)
                assert len(said) == 1 and needs in said[0], (language, step, said)
                assert not [t for t in texts if t.startswith(say("Try this: {what}")[:4])]
            else:
                assert not said, (language, step)


def test_the_notes_example_is_one_click_from_their_wording_on_bahdanau_s_step(
    two_directions, monkeypatch
):
    from ..helpers import open_dashboard

    at = _lesson(open_dashboard(two_directions, monkeypatch, {"direction": "zh-en"}))
    at.session_state[Key.LESSON_STEP] = 2
    at.text_input(key=Key.SENTENCE).set_value("我爱吃苹果。").run()
    assert not at.exception, at.exception
    at.button(key=Key.TAUGHT_FORCE).click().run()
    assert at.session_state[Key.REFERENCE] == "I love to eat apples."
    assert any("lecture notes' “I love to eat apples.”" in e.value for e in at.info)
