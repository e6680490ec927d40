"""A looping output is found by its longest run, and said so."""

from __future__ import annotations

from attnviz.decoding.trace import repetition
from attnviz.plots.model_notes import trace_warning

from ..handmade import hand_trace


def _words(text: str) -> list[str]:
    return text.split()


def test_the_longest_run_is_counted_not_the_first():
    tokens = _words("9 hript : : : 141 : 14 h : : : : : : : : : : : : : :")
    assert repetition(tokens) == (9, 1, 14)  # not the three colons at 2


def test_a_phrase_repeated_is_one_run_of_the_phrase():
    assert repetition(_words("de la source de la source de la source .")) == (0, 3, 3)
    assert repetition(_words(": : : :")) == (0, 1, 4)  # the most repeats over the same span
    assert repetition(_words("a b a b c")) is None  # twice is not a loop


def test_the_warning_names_the_longest_run():
    tokens = [*_words("a : : : b"), *[":"] * 7, "<eos>"]
    trace = hand_trace([[1.0]] * len(tokens), ["x"], tokens)
    assert "“:” 7 times in a row" in trace_warning(trace)
