"""What if…'s offers and edits, built from Traces: the words a step could write instead, and
the attention edits that fit."""

from __future__ import annotations

import numpy as np
import pytest

import attnviz
from attnviz.decoding.trace import Candidate, Owners
from attnviz_ui.builders import what_if
from attnviz_ui.builders.what_if import Edit

from ..handmade import hand_trace

PIECE_WEIGHTS = [  # 4 steps over the pieces ▁the ▁ca t <eos>
    [0.7, 0.1, 0.1, 0.1],
    [0.1, 0.6, 0.2, 0.1],
    [0.2, 0.3, 0.4, 0.1],
    [0.1, 0.1, 0.1, 0.7],
]


def _words_over_pieces() -> attnviz.Trace:
    """ "le chat" for "the cat" by a subword model: "cat" and "chat" are two pieces each."""
    pieces = hand_trace(PIECE_WEIGHTS, ["▁the", "▁ca", "t", "<eos>"], ["▁le", "▁ch", "at", "<eos>"])
    words = [[0.7, 0.2, 0.1], [0.15, 0.75, 0.1], [0.1, 0.2, 0.7]]  # as words_trace reads them
    return hand_trace(
        words,
        ["the", "cat", "<eos>"],
        ["le", "chat", "<eos>"],
        pieces=pieces,
        owners=Owners(src=(0, 1, 1, 2), tgt=(0, 1, 1, 2)),
    )


def _words(weights=((0.5, 0.3, 0.2), (0.1, 0.8, 0.1)), tgt=("le", "chat"), **fields):
    return hand_trace(weights, ["the", "cat", "<eos>"], list(tgt), **fields)


def test_the_prefix_of_another_word_is_the_words_before_it_then_that_word():
    trace = _words([[0.5, 0.3, 0.2]] * 3, ("le", "chat", "<eos>"))
    assert what_if.word_prefix(trace, 1, "chien") == ("le", "chien")
    assert what_if.word_prefix(trace, 0, "un") == ("un",)
    assert what_if.word_prefix(trace, 9, "noir") == ("le", "chat", "noir")  # past the end: last


def test_the_words_offered_are_the_other_candidates_but_never_eos_or_unk():
    step = [Candidate(w, 0.2) for w in ("chat", "<eos>", "chien", "<unk>", "oiseau")]
    trace = _words(candidates=[[Candidate("le", 1.0)], step])
    assert what_if.words_offered(trace, 1) == ["chien", "oiseau"]
    assert what_if.words_offered(trace, 5) == ["chien", "oiseau"]  # past the end: the last step


def test_the_other_model_s_attention_is_offered_only_where_it_fits():
    trace, other = _words(), _words(tgt=("le", "chat", "<eos>"), weights=np.eye(3))
    assert what_if.edits_offered(trace, other, 2) == [Edit.ALL_ON, Edit.WITHOUT, Edit.OTHER]
    assert what_if.edits_offered(trace, other, 3) == [Edit.ALL_ON, Edit.WITHOUT]  # it ended
    elsewhere = hand_trace(np.eye(3), ["a", "dog", "<eos>"], ["le", "chat", "<eos>"])
    assert what_if.edits_offered(trace, elsewhere, 0) == [Edit.ALL_ON, Edit.WITHOUT]


def test_a_word_model_s_edit_is_its_own_step_and_the_weights_asked_for():
    trace, other = _words(), _words(weights=((0.2, 0.2, 0.6), (0.0, 0.5, 0.5)))
    assert what_if.attention_edit(trace, 1, Edit.ALL_ON, source=0) == (1, (1.0, 0.0, 0.0))
    step, weights = what_if.attention_edit(trace, 1, Edit.WITHOUT, source=1)
    assert step == 1 and weights == pytest.approx((0.5, 0.0, 0.5))
    assert what_if.attention_edit(trace, 0, Edit.OTHER, other=other) == (0, (0.2, 0.2, 0.6))
    assert what_if.attention_edit(trace, 7, Edit.ALL_ON, source=2) == (1, (0.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="other"):
        what_if.attention_edit(trace, 0, Edit.OTHER)


def test_a_subword_model_s_edit_is_at_the_word_s_first_piece_shared_as_the_model_shared_it():
    trace = _words_over_pieces()
    step, weights = what_if.attention_edit(trace, 1, Edit.ALL_ON, source=1)
    assert step == 1  # "chat" starts at the piece ▁ch
    assert weights == pytest.approx((0.0, 0.75, 0.25, 0.0))  # as 0.6 : 0.2 at that step
    step, weights = what_if.attention_edit(trace, 2, Edit.WITHOUT, source=0)  # the <eos> step
    assert step == 3 and weights == pytest.approx((0.0, 1 / 9, 1 / 9, 7 / 9))
