"""Diagnostics on small matrices whose answers are worked out by hand."""

import math

import numpy as np
import pytest

from attnviz.analysis import diagnostics as d
from attnviz.decoding.trace import Owners

from ..handmade import hand_trace

ONE_HOT = np.eye(3)  # step t attends to word t only
UNIFORM = np.full((2, 4), 0.25)


def test_entropy_is_zero_for_one_word_and_log2_s_when_even():
    np.testing.assert_allclose(d.entropy(ONE_HOT), [0, 0, 0])
    np.testing.assert_allclose(d.entropy(UNIFORM), [2, 2])
    np.testing.assert_allclose(d.entropy([[0.5, 0.5, 0]]), [1])


def test_coverage_sums_the_columns():
    np.testing.assert_allclose(d.coverage([[0.5, 0.5, 0], [1, 0, 0]]), [1.5, 0.5, 0])


def test_js_divergence_is_zero_for_equal_rows_and_one_for_disjoint_rows():
    a = np.array([[1, 0], [0.5, 0.5], [0.5, 0.5]])
    b = np.array([[0, 1], [0.5, 0.5], [1, 0]])
    js = d.js_divergence(a, b)
    # third row: m = (.75, .25); KL(p||m) = .5 log2(.5/.75) + .5 log2(.5/.25); KL(q||m) = log2(4/3)
    kl_p = 0.5 * math.log2(0.5 / 0.75) + 0.5 * math.log2(2)
    expected = (kl_p + math.log2(1 / 0.75)) / 2
    np.testing.assert_allclose(js, [1, 0, expected])
    with pytest.raises(ValueError, match="one shape"):
        d.js_divergence(a, b[:2])


def test_same_argmax_per_step():
    a = np.array([[0.7, 0.3], [0.4, 0.6]])
    b = np.array([[0.6, 0.4], [0.9, 0.1]])
    assert d.same_argmax(a, b).tolist() == [True, False]


def test_monotonicity_is_kendalls_tau_of_the_argmax_positions():
    assert d.monotonicity(ONE_HOT) == 1
    assert d.monotonicity(ONE_HOT[::-1]) == -1
    # argmax 0, 2, 1: pairs (0,2)+, (0,1)+, (2,1)- -> (2 - 1) / 3
    assert d.monotonicity(ONE_HOT[[0, 2, 1]]) == pytest.approx(1 / 3)
    # argmax 0, 0, 1: one tie -> tau-b = (2 - 0) / sqrt(3 * 2)
    assert d.monotonicity(ONE_HOT[[0, 0, 1]]) == pytest.approx(2 / math.sqrt(6))
    assert math.isnan(d.monotonicity(ONE_HOT[:1]))


def test_eos_mass_is_the_share_of_each_step_on_the_source_eos():
    w = np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.0, 0.25, 0.25]])
    tokens = ["cat", ",", "«", "<eos>"]
    np.testing.assert_allclose(d.eos_mass(w, tokens), [0.4, 0.25])


# Two words, each attending to its own source word, then an <eos> step that looks back at the
# first word: counted, that step would add entropy and break the left-to-right order.
SRC = ["a", "b", "<eos>"]
WORDS_THEN_EOS = [[1, 0, 0], [0, 1, 0], [0.5, 0.3, 0.2]]


def test_a_sentence_summary_leaves_out_the_final_eos_step():
    s = d.summary(hand_trace(WORDS_THEN_EOS, SRC, ["x", "y", "<eos>"]))
    assert (s.entropy, s.monotonicity, s.eos_mass) == (0, 1, 0)


def test_a_sentence_cut_by_the_length_limit_counts_every_step():
    weights = [[0.5, 0.5, 0], [0, 0.5, 0.5]]
    s = d.summary(hand_trace(weights, SRC, ["x", "y"]))
    assert s.entropy == pytest.approx(1)
    assert s.eos_mass == pytest.approx(0.25)
    assert s.monotonicity == 1


def test_a_sentence_of_no_word_has_no_figures():
    s = d.summary(hand_trace([[0, 0, 1]], SRC, ["<eos>"]))
    assert all(math.isnan(x) for x in (s.entropy, s.monotonicity, s.eos_mass))


def test_traces_compare_cell_by_cell_only_with_the_same_tokens():
    a = hand_trace(WORDS_THEN_EOS, SRC, ["x", "y", "<eos>"])
    assert d.comparable(a, hand_trace(np.eye(3), SRC, ["x", "y", "<eos>"]))
    assert not d.comparable(a, hand_trace(np.eye(3), SRC, ["x", "z", "<eos>"]))
    assert not d.comparable(a, hand_trace(np.eye(3), ["a", "c", "<eos>"], ["x", "y", "<eos>"]))


def test_the_sinks_are_the_source_eos_and_a_final_punctuation():
    assert d.sink_positions(["Hello", "!", "<eos>"]) == (2, 1)
    assert d.sink_positions(["▁Hel", "lo", "▁!", "<eos>"]) == (3, 2)
    assert d.sink_positions(["Hello", "world", "<eos>"]) == (2, None)
    assert d.sink_positions(["Don't", "<eos>"]) == (1, None)  # an apostrophe inside a word
    assert d.sink_positions(["...", "<eos>"]) == (1, 0)


def test_sinks_count_first_tokens_and_written_steps_on_each_sink():
    src = ["I", "am", ".", "<eos>"]
    # First token on <eos>; the second on the full stop; the final <eos> step is not counted.
    parked = hand_trace(
        [[0.1, 0.1, 0.1, 0.7], [0.1, 0.1, 0.6, 0.2], [0, 0, 0, 1]], src, ["Je", "suis", "<eos>"]
    )
    # Looks at words; cut by the length limit, so its last step counts.
    reads = hand_trace([[0.8, 0.1, 0, 0.1], [0.1, 0.1, 0.1, 0.7]], src, ["Je", "suis"])
    # A full stop written while looking at the full stop is aligned, not sunk.
    aligned = hand_trace([[0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.7, 0.1]], src, ["suis", "."])
    sinks = d.sinks([parked, reads, aligned])
    assert (sinks.sentences, sinks.steps) == (3, 6)
    assert (sinks.first_eos, sinks.steps_eos) == (33.3, 33.3)
    assert (sinks.first_punct, sinks.steps_punct) == (0.0, 16.7)


def test_sinks_of_a_subword_model_are_counted_over_its_pieces():
    pieces = hand_trace([[0.1, 0.2, 0.7], [0.6, 0.2, 0.2]], ["▁Hel", "lo", "<eos>"], ["▁Sal", "ut"])
    words = hand_trace(
        [[0.3, 0.7]], ["Hello", "<eos>"], ["Salut"], pieces=pieces, owners=Owners((0, 0, 1), (0, 0))
    )
    sinks = d.sinks([words])  # over words the one step looks at "Hello"; over pieces, <eos> first
    assert (sinks.steps, sinks.first_eos, sinks.steps_eos) == (2, 100.0, 50.0)


def test_sinks_of_no_translation_are_zero():
    empty = hand_trace([[0, 1]], ["Hi", "<eos>"], ["<eos>"])
    assert d.sinks([empty]) == d.Sinks(0, 0, 0.0, 0.0, 0.0, 0.0)
