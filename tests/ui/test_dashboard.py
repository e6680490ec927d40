"""The dashboard driven through Streamlit's AppTest: widgets in, what is shown out."""

from __future__ import annotations

import gc
import json
import shutil

import numpy as np
import pytest

import attnviz
from attnviz.plots import beam_charts
from attnviz.plots.heatmaps import framed_step
from attnviz_ui.serving import process
from attnviz_ui.state.session_keys import Key, element_key
from attnviz_ui.widgets.page_style import CLOSE_WHEN_NARROW

from ..helpers import (
    SENTENCE,
    heatmaps_on,
    needs_int8,
    open_dashboard,
    paste_corpus,
    plotly_array,
    plotly_figures,
    run_corpus_with_gold,
    type_sentence,
)
from ..synthetic import corpus


def test_opens_on_bahdanau_left_and_luong_right_with_an_example_translated(app):
    assert [s.value for s in app.sidebar.selectbox] == ["bahdanau", "luong"]
    opening = app.text_input(key=Key.SENTENCE).value
    assert opening == app.selectbox(key=Key.EXAMPLE).value and opening.startswith("He bought")
    heatmaps = heatmaps_on(app)  # nothing typed yet
    assert len(heatmaps) == 2
    assert all(fig["data"][0]["x"][0] == "1:He" for fig in heatmaps)
    type_sentence(app, SENTENCE)  # typing replaces it, and it does not come back
    assert all(fig["data"][0]["x"][0] == "1:The" for fig in heatmaps_on(app))
    type_sentence(app, "")
    assert any("Type a sentence" in i.value for i in app.info) and not heatmaps_on(app)


def test_translating_shows_both_heatmaps_bars_and_candidates(app):
    type_sentence(app, SENTENCE)
    heatmaps = heatmaps_on(app)
    assert len(heatmaps) == 2
    for fig in heatmaps:
        assert fig["data"][0]["x"][:3] == ["1:The", "2:red", "3:cat"]  # as typed
        np.testing.assert_allclose(plotly_array(fig["data"][0]["z"])[0].sum(), 1, atol=1e-3)
        assert framed_step(fig) == len(fig["data"][0]["y"]) - 1  # shown whole
    steps = [body for body in _html(app) if 'class="attnviz-bars"' in body]
    assert len(steps) == 2  # each model's step: its bars and the words it weighed, one element
    for body in steps:
        assert body.count("raw score") == len(fig["data"][0]["x"])  # a bar per source token
        assert "<th" in body and ">probability</th>" in body
    assert app.slider[0].label == "Step"


def test_moving_the_step_slider_moves_the_framed_row_without_decoding_again(app, monkeypatch):
    type_sentence(app, SENTENCE)
    from attnviz_ui.serving import decoder_process

    def refuse(*args, **kwargs):
        raise AssertionError("decoded again")

    monkeypatch.setattr(decoder_process.decoder, "decode", refuse)
    app.slider[0].set_value(3).run()
    assert not app.exception
    assert all(framed_step(fig) == 2 for fig in heatmaps_on(app))
    assert any("Step 3" in body for body in _html(app))


def test_switching_models_swaps_the_columns(app):
    type_sentence(app, SENTENCE)
    app.sidebar.selectbox[0].set_value("luong").run()
    assert not app.exception
    titles = [fig["layout"]["title"]["text"] for fig in heatmaps_on(app)]
    assert titles == ["luong: alignment", "luong: alignment"]


def test_beam_search_draws_the_hypothesis_tree(app):
    type_sentence(app, SENTENCE)
    app.sidebar.radio[0].set_value("beam").run()
    app.radio(key=Key.VIEW).set_value("Beam search").run()
    assert not app.exception
    trees = plotly_figures(app, "scatter")
    assert len(trees) == 2
    # the winning path has one node at every step
    winner = beam_charts.beam_winner(trees[0])
    assert [t for t, _ in winner] == list(range(len(winner))) and len(winner) >= 2


def test_a_reference_aligns_both_models_on_it_and_compares_cell_by_cell(app):
    type_sentence(app, SENTENCE, "Le chat rouge voit un chien.")
    app.radio(key=Key.VIEW).set_value("Bahdanau vs Luong").run()
    heatmaps = heatmaps_on(app)
    outputs = [fig["data"][0]["y"] for fig in heatmaps]
    assert (
        outputs[0]
        == outputs[1]
        == ["1:Le", "2:chat", "3:rouge", "4:voit", "5:un", "6:chien", "7:.", "8:<eos>"]
    )
    (difference,) = [f for f in plotly_figures(app, "heatmap") if f not in heatmaps]
    assert difference["layout"]["title"]["text"] == "bahdanau minus luong"
    frames = [df.value for df in app.dataframe]
    comparison = next(f for f in frames if "JS divergence" in f.columns)
    assert len(comparison) == 8 and comparison["JS divergence"].between(0, 1).all()


def test_one_model_on_both_sides_compares_with_itself(app):
    app.sidebar.selectbox(key=Key.RIGHT_MODEL).set_value("bahdanau").run()
    type_sentence(app, SENTENCE, "Le chat rouge voit un chien.")
    app.radio(key=Key.VIEW).set_value("Bahdanau vs Luong").run()
    assert not app.exception, app.exception
    comparison = next(d.value for d in app.dataframe if "JS divergence" in d.value.columns)
    assert list(comparison.columns[2:4]) == ["entropy left", "entropy right"]
    assert (comparison["JS divergence"] == 0).all() and comparison["same argmax"].all()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("word " * 400, "the limit is 200"),
        ("   ", "Type a sentence"),
    ],
)
def test_refused_input_gets_a_clear_message(app, text, expected):
    type_sentence(app, text)
    shown = [w.value for w in app.warning] + [i.value for i in app.info]
    assert any(expected in s for s in shown), shown
    assert not heatmaps_on(app)


@pytest.mark.parametrize(
    "text", ["<script>alert(1)</script>", "I ❤️ 🐈 cats!", "Где вокзал?", "**bold** [x](http://a)"]
)
def test_odd_input_gets_a_best_effort_translation_and_no_markup(app, text):
    type_sentence(app, text)
    assert len(heatmaps_on(app)) == 2
    ours = CLOSE_WHEN_NARROW  # the page's own script, no input in it
    html = " ".join([m.value for m in app.markdown] + [b for b in _html(app) if b != ours])
    assert "<script>" not in html  # escaped, never rendered
    assert any("never seen in training" in c.value for c in app.caption)  # read as bytes


def test_a_corrupt_checkpoint_is_reported_and_the_others_keep_working(
    checkpoints, tmp_path, monkeypatch
):
    folder = tmp_path / "ck"
    shutil.copytree(checkpoints, folder)
    (folder / "broken.safetensors").write_bytes(b"\x80\x04not a checkpoint")
    at = open_dashboard(folder, monkeypatch)
    assert any("broken could not be loaded" in e.value for e in at.sidebar.error)
    type_sentence(at, SENTENCE)
    assert len(heatmaps_on(at)) == 2


def test_export_offers_weights_and_alignments_for_both_models(app):
    type_sentence(app, SENTENCE)
    app.radio(key=Key.VIEW).set_value("Export").run()
    assert not app.exception
    labels = [b.label for b in app.get("download_button")]
    for label in ("Weights CSV", "Weights JSON", "Alignment (Pharaoh)"):
        assert labels.count(label) == 2


def test_the_corpus_view_scores_sentences_against_gold_and_opens_one(app):
    pairs = corpus(5, seed=11)
    run_corpus_with_gold(app, pairs)
    frame = app.dataframe[0].value
    assert sorted(frame["source"]) == sorted(en for en, _, _ in pairs)
    assert {"bahdanau AER", "luong AER", "bahdanau tau", "luong <eos> mass"} <= set(frame)
    gaps = frame["BLEU difference"].abs().tolist()
    assert gaps == sorted(gaps, reverse=True)  # where the models differ most comes first
    assert ((frame["bahdanau AER"] >= 0) & (frame["bahdanau AER"] <= 100)).all()
    labels = [m.label for m in app.metric]
    assert labels == ["bahdanau: corpus BLEU", "bahdanau: AER", "luong: corpus BLEU", "luong: AER"]
    specs = [c.proto.spec for c in app.get("vega_lite_chart")]
    assert any('"corpus BLEU"' in spec for spec in specs)  # BLEU by length

    app.button(key=Key.CORPUS_OPEN).click().run()  # the first row of the table
    assert not app.exception, app.exception
    assert app.radio(key=Key.PAGE).value == "One sentence"
    en, fr, links = next(p for p in pairs if p[0] == frame["source"][0])
    assert app.text_input(key=Key.SENTENCE).value == en
    assert app.text_input(key=Key.REFERENCE).value == fr  # force-decoded, to draw the gold
    for fig in heatmaps_on(app):  # step 1: only the gold links of the first output word
        (gold,) = [d for d in fig["data"] if d.get("name") == "gold link"]
        assert set(gold["y"]) == {f"1:{fr.split()[0]}"}
    app.toggle(key=Key.FINISHED).set_value(True).run()
    for fig in heatmaps_on(app):
        (gold,) = [d for d in fig["data"] if d.get("name") == "gold link"]
        x_labels, y_labels = fig["data"][0]["x"], fig["data"][0]["y"]
        drawn = {
            (x_labels.index(x), y_labels.index(y))
            for x, y in zip(gold["x"], gold["y"], strict=True)
        }
        assert drawn == set(links)  # the synthetic words are single tokens


def test_the_corpus_view_explains_gold_that_does_not_fit(app):
    paste_corpus(app, "the cat sees a dog .\tle chat voit un chien .\nhello", "0-0")
    assert any("2 sentences but 1 gold alignments" in e.value for e in app.error)
    assert not app.dataframe


def test_the_corpus_view_reads_the_held_out_split_of_a_corpus(
    checkpoints, corpus_file, monkeypatch
):
    from attnviz.data.corpus import DataConfig, held_out, read_corpus

    at = open_dashboard(checkpoints, monkeypatch, ATTNVIZ_CORPUS=str(corpus_file))
    at.radio(key=Key.PAGE).set_value("A corpus").run()
    at.radio(key=Key.CORPUS_SOURCE).set_value("Held-out split").run()
    at.button(key=Key.CORPUS_RUN).click().run()
    assert not at.exception, at.exception
    data = DataConfig()
    sources, _ = held_out(read_corpus(corpus_file), data.valid_percent, data.test_percent)
    frame = at.dataframe[0].value
    assert sorted(frame["source"]) == sorted(sources[:100])
    assert frame["bahdanau BLEU"].between(0, 100).all()
    assert "bahdanau AER" not in frame  # no gold for a corpus split


def test_words_by_default_and_subword_pieces_one_click_away(app):
    type_sentence(app, "The strangest horses sees a café.")
    words = heatmaps_on(app)[0]["data"][0]["x"]
    assert not any("\u2581" in str(label) for label in words)  # words, as typed
    assert "summed over the source word's pieces" in app.toggle(key=Key.PIECES).help
    app.toggle(key=Key.PIECES).set_value(True).run()
    assert not app.exception, app.exception
    pieces = heatmaps_on(app)[0]["data"][0]["x"]
    assert len(pieces) > len(words) and any("\u2581" in str(label) for label in pieces)


def test_after_its_first_page_the_server_leaves_its_heap_out_of_full_collections(
    checkpoints, monkeypatch
):
    # Streamlit collects every generation after each run; over torch, plotly and the models
    # that walk held the server 200 ms, before it sent a step's pictures.
    monkeypatch.setattr(process, "_modules_frozen", 0)  # as in a new server process
    gc.unfreeze()
    open_dashboard(checkpoints, monkeypatch)
    assert gc.get_freeze_count() > 5 * len(gc.get_objects())


def _html(at) -> list[str]:
    """The bodies of the page's st.html elements (the step view's shaded words and tables)."""
    return [element.proto.body for element in at.get("html")]


def test_the_model_cards_say_what_a_sink_is_and_how_often_each_model_sinks(app):
    app.radio(key=Key.VIEW).set_value("Model cards").run()
    assert not app.exception
    assert any("An attention sink is" in c.value for c in app.caption)
    lines = [m.value for m in app.markdown if "Attention sinks (test split" in m.value]
    assert len(lines) == 2 and all("first word's attention on the source" in s for s in lines)


def test_a_full_card_is_drawn_only_while_it_is_open(app, checkpoints):
    app.radio(key=Key.VIEW).set_value("Model cards").run()
    assert [e.label for e in app.expander] == ["Full card", "Full card"]
    assert not app.json  # a card's tree is only drawn when asked for: it is slow to draw
    app.session_state[element_key("full-card", 1)] = True  # the right model's, opened
    app.run()
    assert not app.exception, app.exception
    [card] = [json.loads(j.value) for j in app.json]
    assert card == attnviz.load(checkpoints / "luong.safetensors").card


@needs_int8
def test_with_an_int8_output_layer_the_page_shows_fp32s_attention_and_says_so(
    checkpoints, monkeypatch
):
    at = open_dashboard(checkpoints, monkeypatch, ATTNVIZ_DECODING="int8-output")
    reference = "Le chat rouge voit un chien."
    type_sentence(at, SENTENCE, reference)
    at.slider[0].set_value(at.slider[0].max).run()  # every row drawn
    for name, fig in zip(("bahdanau", "luong"), heatmaps_on(at), strict=True):
        path = checkpoints / f"{name}.safetensors"
        exact, moved = (attnviz.load(path, precision=p) for p in ("fp32", "int8"))
        shown = plotly_array(fig["data"][0]["z"])
        np.testing.assert_array_equal(shown, exact.align(SENTENCE, reference).weights)
        assert not np.array_equal(shown, moved.align(SENTENCE, reference).weights)
    at.toggle(key=Key.ATTRIBUTION_ON).set_value(True).run()  # gradients: an fp32 twin
    assert not at.exception and not at.warning, at.warning
    at.radio(key=Key.VIEW).set_value("Model cards").run()
    captions = [c.value for c in at.caption]
    assert any("output layer in int8-output" in c for c in captions), captions


def test_a_step_that_looks_most_at_a_sink_says_so_and_an_aligned_full_stop_does_not():
    from attnviz_ui.views.step_view import _sink_note

    from ..handmade import hand_trace

    weights = [[0.1, 0.1, 0.1, 0.7], [0.1, 0.1, 0.7, 0.1], [0.1, 0.1, 0.7, 0.1], [0, 0, 0, 1]]
    trace = hand_trace(weights, ["I", "am", ".", "<eos>"], ["Je", "suis", ".", "<eos>"])
    assert _sink_note(trace, 0).endswith("“&lt;eos&gt;”: an attention sink")  # escaped
    assert _sink_note(trace, 1).endswith("“.”: an attention sink")  # a word from the full stop
    assert _sink_note(trace, 2) == ""  # the full stop written from the full stop
    assert _sink_note(trace, 3) == ""  # the final <eos> step
