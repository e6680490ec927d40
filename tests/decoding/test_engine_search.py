"""A Transformer's greedy search in CTranslate2 (attnviz/decoding/engine_search.py): the words
torch's own search writes, and every number of the Trace from one teacher-forced pass that
equals decoding those words step by step."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attnviz.decoding import decode

from ..helpers import tiny_transformer

SENTENCES = ["the cat sees a dog .", "a big red house , the small cat", "dog", "the the the cat"]
RECORDED = ("probs", "weights", "scores", "query", "context", "heads")


def _stepwise(tr):
    """``tr`` decoding greedily step by step in torch, as before the engine."""
    tr._by_engine = lambda prefix, edits: False
    return tr


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_engine_writes_torchs_words_and_the_trace_holds_torchs_numbers(seed):
    engine, torch_only = tiny_transformer(seed), _stepwise(tiny_transformer(seed))
    for sentence in SENTENCES:
        found, expected = engine.translate(sentence), torch_only.translate(sentence)
        assert found.tgt_tokens == expected.tgt_tokens, sentence
        for ours, theirs in zip(found.candidates, expected.candidates, strict=True):
            assert [c.token for c in ours] == [c.token for c in theirs]
            assert [c.prob for c in ours] == pytest.approx([c.prob for c in theirs], abs=1e-5)
        for name in RECORDED:
            np.testing.assert_allclose(
                getattr(found, name), getattr(expected, name), atol=1e-5, err_msg=name
            )
    assert engine.engine is not None and torch_only.engine is None  # the engine did run


def test_one_pass_over_a_known_target_records_what_each_step_does():
    tr = tiny_transformer()
    src, lens = tr.source_batch([tr.pieces(s.split()) for s in SENTENCES[:3]])
    tgt = torch.randint(4, len(tr.tgt_vocab), (3, 6))
    tgt[0, 3], tgt[1, 5] = 3, 3  # <eos>: the first two end there
    at_once = decode.forced_at_once(tr.model, src, lens, tgt)
    stepped = decode.forced(tr.model, src, lens, tgt)
    for a, b in zip(at_once, stepped, strict=True):
        assert a.ids == b.ids and len(a.ids) in (4, 6)
        for name in ("probs", "top_ids", "top_probs", "weights", "scores", "heads"):
            np.testing.assert_allclose(getattr(a, name), getattr(b, name), atol=1e-5)


def test_the_engine_leaves_the_models_weights_as_they_were():
    """Its conversion quantizes the arrays it is given: they must be copies."""
    tr = tiny_transformer()
    before = {k: v.clone() for k, v in tr.model.state_dict().items()}
    tr.precision = "int8-output"  # the engine quantizes to int8
    tr.translate(SENTENCES[0])
    for name, value in tr.model.state_dict().items():
        assert torch.equal(value, before[name]), name


def test_a_steered_search_goes_on_step_by_step_in_torch():
    tr = tiny_transformer()
    tr.translate(SENTENCES[0], prefix="THE")
    tr.translate(SENTENCES[0], attention={0: [1.0] + [0.0] * 6}, head=0)
    assert tr.engine is None
