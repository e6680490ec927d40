"""The eflomal switch's numbers, built from a Trace, eflomal's links and gold links."""

from __future__ import annotations

import dataclasses

import pytest

from attnviz.analysis.eflomal_aligner import Alignment
from attnviz_ui.builders.eflomal_agreement import eflomal_agreement

from ..handmade import hand_trace

# "the cat" -> "le chat": attention links the <- le, cat <- chat (argmax of each output row)
TRACE = hand_trace(
    [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.1, 0.1, 0.8]],
    ["the", "cat", "<eos>"],
    ["le", "chat", "<eos>"],
)


def test_attention_that_draws_eflomal_s_links_agrees_fully():
    same = Alignment.of([(0, 0), (1, 1)], [(0, 0), (1, 1)])
    assert eflomal_agreement(TRACE, same, None) == (0.0, None)


def test_crossed_links_disagree_fully_and_gold_scores_both():
    crossed = Alignment.of([(0, 1), (1, 0)], [(0, 1), (1, 0)])
    found = eflomal_agreement(TRACE, crossed, [(0, 0), (1, 1)])
    assert found.attention == pytest.approx(100.0)
    assert found.gold == pytest.approx((0.0, 100.0))  # the attention is right, eflomal is not


def test_a_model_without_attention_has_nothing_to_set_beside_eflomal():
    fixed = dataclasses.replace(TRACE, weights=None, scores=None)
    assert eflomal_agreement(fixed, Alignment.of([(0, 0)], [(0, 0)]), [(0, 0)]) is None
