"""The step-by-step view as a user drives it: revealing, the numbers of a step, what-ifs."""

from __future__ import annotations

import numpy as np

from attnviz_ui.pages.sentence_inputs import EXAMPLES
from attnviz_ui.state.session_keys import Key

from ..helpers import (
    SENTENCE,
    heatmaps_on,
    plotly_array,
    plotly_figures,
    type_sentence,
)


def _shown_rows(fig: dict) -> list[str]:
    return [label for label in fig["data"][0]["y"] if not label.endswith(":…")]


def _at_last_step(app) -> bool:
    slider = app.slider(key=Key.STEP)
    return slider.value == slider.max and all(
        _shown_rows(fig) == fig["data"][0]["y"] for fig in heatmaps_on(app)
    )


def test_the_opening_example_is_shown_finished_and_play_replays_it(app):
    steps = app.slider(key=Key.STEP).max
    assert steps > 1 and _at_last_step(app)
    assert max(len(fig["data"][0]["y"]) for fig in heatmaps_on(app)) == steps
    app.button(key=Key.PLAY).click().run()
    assert app.slider(key=Key.STEP).value == 1
    assert app.button(key=Key.PLAY).label == "Pause"
    assert all(len(_shown_rows(fig)) == 1 for fig in heatmaps_on(app))


def test_an_example_picked_and_a_sentence_typed_are_both_shown_finished(app):
    app.slider(key=Key.STEP).set_value(2).run()
    app.selectbox(key=Key.EXAMPLE).set_value(EXAMPLES["en-fr"][-1]).run()
    assert app.text_input(key=Key.SENTENCE).value == EXAMPLES["en-fr"][-1] and _at_last_step(app)
    app.slider(key=Key.STEP).set_value(2).run()
    type_sentence(app, SENTENCE)
    assert _at_last_step(app)  # the whole translation first (issue 63), however far one was


def test_step_one_shows_one_output_word_per_model_and_hides_the_rest(app):
    type_sentence(app, SENTENCE)
    app.slider(key=Key.STEP).set_value(1).run()
    for fig in heatmaps_on(app):
        assert len(_shown_rows(fig)) == 1 and len(fig["data"][0]["y"]) > 1
        z = plotly_array(fig["data"][0]["z"]).astype(float)
        assert np.isclose(z[0].sum(), 1, atol=1e-3) and np.isnan(z[1:]).all()
    app.slider(key=Key.STEP).set_value(3).run()
    assert all(len(_shown_rows(fig)) == 3 for fig in heatmaps_on(app))


def test_the_finished_translation_is_one_toggle_away(app):
    type_sentence(app, SENTENCE)
    app.toggle(key=Key.FINISHED).set_value(True).run()
    for fig in heatmaps_on(app):
        assert _shown_rows(fig) == fig["data"][0]["y"]


def test_the_numbers_of_a_step_add_up_to_its_weights(app):
    type_sentence(app, SENTENCE)
    app.slider(key=Key.STEP).set_value(2).run()
    app.toggle(key=Key.NUMBERS).set_value(True).run()
    assert not app.exception
    terms = [df.value for df in app.dataframe if "weight α" in getattr(df.value, "columns", [])]
    assert len(terms) == 2  # one table per model
    for frame in terms:
        frame = getattr(frame, "data", frame)  # a Styler or a DataFrame
        assert np.isclose(frame["weight α"].sum(), 1, atol=1e-4)
        assert np.isclose(frame["share of c"].sum(), 1, atol=1e-3)
        expected = frame["exp(e − max)"] / frame["exp(e − max)"].sum()
        np.testing.assert_allclose(frame["weight α"], expected, atol=1e-5)
    titles = [f["layout"]["title"]["text"] for f in plotly_figures(app, "heatmap")]
    assert sum(t.startswith("The score: query") for t in titles) == 2


def test_another_word_makes_both_models_continue_from_it(app):
    type_sentence(app, SENTENCE)
    app.slider(key=Key.STEP).set_value(2).run()
    app.selectbox(key=Key.WHAT_IF).set_value("Another word here").run()
    choice = app.selectbox(key=Key.WHAT_IF_WORD).options[1]
    app.selectbox(key=Key.WHAT_IF_WORD).set_value(choice).run()
    assert not app.exception
    outcomes = [f for f in heatmaps_on(app) if "from the prefix" in f["layout"]["title"]["text"]]
    assert len(outcomes) == 2
    for fig in outcomes:
        assert fig["data"][0]["y"][1] == f"2:{choice}"


def test_attention_all_on_one_word_gives_a_one_hot_row(app):
    type_sentence(app, SENTENCE)
    app.slider(key=Key.STEP).set_value(2).run()
    app.selectbox(key=Key.WHAT_IF).set_value("Attention elsewhere").run()
    app.selectbox(key=Key.WHAT_IF_SOURCE).set_value(2).run()
    assert not app.exception
    (edited,) = [f for f in heatmaps_on(app) if f["layout"]["title"]["text"].endswith(", edited")]
    row = plotly_array(edited["data"][0]["z"]).astype(float)[1]
    np.testing.assert_allclose(row, np.eye(len(row))[2], atol=1e-6)


def test_differing_outputs_are_compared_by_decoding_both_on_one(app):
    for sentence in (SENTENCE, "a big dog likes the small house .", "the cat sees the cat ."):
        type_sentence(app, sentence)
        app.radio(key=Key.VIEW).set_value("Bahdanau vs Luong").run()
        buttons = [b for b in app.button if b.label.startswith("Decode both on")]
        if buttons:
            break
    else:
        raise AssertionError("the two tiny models agreed on every sentence: pick others")
    buttons[1].click().run()
    assert not app.exception
    rows = [fig["data"][0]["y"] for fig in heatmaps_on(app)]
    assert rows[0] == rows[1]  # both decoded on the right model's output
    assert app.text_input(key=Key.REFERENCE).value


def test_a_word_given_that_the_model_grows_into_a_longer_one_is_said():
    from attnviz_ui.views.what_if_view import _grown_note

    from ..handmade import hand_trace

    outcome = hand_trace(np.full((3, 2), 0.5), ["done", "<eos>"], ["Il", "achevé", "<eos>"])
    assert "went on to write “achevé”" in _grown_note(outcome, 1, "ache")
    assert _grown_note(outcome, 1, "achevé") is None
