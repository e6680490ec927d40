"""What teaching changed: the distance between two models' attention rows, a sentence's shift
(difference, distance, the words that look elsewhere), the corpus ranking, and what the view
says of it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from attnviz.analysis.compare_models import Item
from attnviz.analysis.diagnostics import total_variation
from attnviz.analysis.teaching import (
    attention_shift,
    corpus_strays,
    forced_shift,
    shared_output,
    with_strays,
)
from attnviz.plots import heatmaps
from attnviz.plots.teaching_notes import no_partner_note, partner_command, teaching_note

from ..handmade import hand_trace
from ..helpers import tiny_translator

SRC = ["the", "cat", "<eos>"]
OUT = ["le", "chat", "<eos>"]
NATURAL = [[0.1, 0.1, 0.8], [0.2, 0.8, 0.0], [0.0, 0.0, 1.0]]  # "le" sinks on <eos>
TAUGHT = [[0.9, 0.1, 0.0], [0.2, 0.8, 0.0], [0.5, 0.5, 0.0]]  # ... and is taught to look at "the"


def test_total_variation_is_the_share_of_a_row_that_must_move():
    a = np.array([[1.0, 0.0], [0.5, 0.5], [0.3, 0.7]])
    b = np.array([[0.0, 1.0], [0.5, 0.5], [0.6, 0.4]])
    assert total_variation(a, b) == pytest.approx([1.0, 0.0, 0.3])
    with pytest.raises(ValueError, match="one shape"):
        total_variation(a, b[:2])


def test_a_shift_is_taught_minus_natural_over_the_rows_that_wrote_a_word():
    shift = attention_shift(hand_trace(NATURAL, SRC, OUT), hand_trace(TAUGHT, SRC, OUT))
    assert shift.difference == pytest.approx(np.subtract(TAUGHT, NATURAL))
    assert shift.distance == pytest.approx([0.8, 0.0])  # the final <eos> step wrote no word
    assert shift.mean_distance == pytest.approx(0.4)
    ((move),) = shift.moves
    assert (move.step, move.output, move.natural, move.taught) == (0, "le", "<eos>", "the")


def test_a_shift_needs_both_models_on_the_same_output():
    other = hand_trace(NATURAL, SRC, ["la", "chat", "<eos>"])
    with pytest.raises(ValueError, match="force-decode both models on one output"):
        attention_shift(hand_trace(NATURAL, SRC, OUT), other)


def test_a_model_beside_itself_has_not_moved():
    shift = attention_shift(hand_trace(NATURAL, SRC, OUT), hand_trace(NATURAL, SRC, OUT))
    assert shift.mean_distance == 0 and shift.moves == () and not shift.difference.any()


@pytest.fixture(scope="module")
def models():
    """Two untrained models over one vocabulary, fp32: a "natural" one and another."""
    return tiny_translator("general", seed=0), tiny_translator("general", seed=1)


def test_both_models_are_decoded_on_the_reference_else_on_the_natural_translation(models):
    natural, taught = models
    assert shared_output(natural, "the cat sees a dog .", " LE CHAT . ") == "LE CHAT ."
    own = natural.translate("the cat sees a dog .").text
    assert shared_output(natural, "the cat sees a dog .") == own
    shift = forced_shift(natural, taught, "the cat sees a dog .", own)
    assert shift.natural.mode == shift.taught.mode == "forced"
    assert shift.natural.tgt_tokens == shift.taught.tgt_tokens
    assert shift.mean_distance > 0  # other weights, other attention


def test_the_corpus_ranking_is_zero_for_a_model_beside_itself_and_none_where_refused(models):
    natural, other = models
    items = [Item("the cat sees a dog .", ("THE CAT SEES A DOG .",)), Item("a red house ."),
             Item("   ")]  # fmt: skip
    assert corpus_strays(natural, natural, items)[:2] == [0.0, 0.0]
    strays = corpus_strays(natural, other, items)
    assert strays[0] > 0 and strays[1] > 0
    assert strays[2] is None  # an empty sentence is refused


def test_the_table_is_ranked_by_how_far_attention_strays_largest_first():
    frame = pd.DataFrame({"#": [1, 2, 3], "source": ["a", "b", "c"], "words": [1, 1, 1]})
    ranked = with_strays(frame, {"n strays from t": [0.1, None, 0.5]})
    assert list(ranked["#"]) == [3, 1, 2]
    assert list(ranked.columns) == ["#", "source", "words", "n strays from t"]
    assert with_strays(frame, {}) is frame


def test_the_difference_is_drawn_on_a_diverging_scale_with_each_rows_distance():
    shift = attention_shift(hand_trace(NATURAL, SRC, OUT), hand_trace(TAUGHT, SRC, OUT))
    cells = heatmaps.shift_heatmap(shift, "taught minus natural").data[0]
    assert np.asarray(cells.z) == pytest.approx(np.subtract(TAUGHT, NATURAL))
    assert (cells.zmin, cells.zmax) == (-1, 1)  # diverging: 0 (no change) in the middle
    moved = np.asarray(cells.customdata, dtype=float)
    assert moved[0] == pytest.approx([0.8] * 3) and np.isnan(moved[2]).all()


CARD = {"test_bleu": {"beam1": 30.0}, "attention_sinks": {"first_eos": 80.0, "split": "test"}}


@pytest.mark.parametrize(("taught_bleu", "verdict"), [(29.6, "cost 0.4"), (30.5, "gained 0.5")])
def test_the_explanation_says_where_words_now_look_and_what_bleu_it_cost(taught_bleu, verdict):
    shift = attention_shift(hand_trace(NATURAL, SRC, OUT), hand_trace(TAUGHT, SRC, OUT))
    taught = {
        "test_bleu": {"beam1": taught_bleu},
        "attention_sinks": {"first_eos": 3.0, "split": "test"},
        "guide": {"teacher": "eflomal 2.0", "weight": 0.5},
    }
    note = teaching_note(CARD, taught, shift)
    assert "λ = 0.5" in note and "eflomal 2\\.0" in note
    assert "moved 40% of its weight" in note
    assert "“le” at “the” (was “\\<eos\\>”)" in note
    assert f"teaching {verdict} BLEU" in note
    assert "natural 80.0%, taught 3.0%" in note


def test_the_explanation_says_what_the_cards_do_not_tell():
    shift = attention_shift(hand_trace(NATURAL, SRC, OUT), hand_trace(NATURAL, SRC, OUT))
    note = teaching_note({}, {"guide": {}}, shift)
    assert "still looks most at the same source token" in note
    assert "not on both cards" in note and "not measured on both cards" in note


def test_without_a_partner_the_view_says_what_it_would_show_and_how_to_make_one():
    note = no_partner_note("luong", taught=False)
    assert "no taught partner" in note and "python" not in note  # plain words
    assert "--init-from checkpoints/luong.safetensors --guide eflomal" in partner_command(
        "checkpoints/luong.safetensors"
    )
    assert "is not among the checkpoints" in no_partner_note("t", taught=True)
