"""One translation per (model, sentence, search, precision): a sentence decoded alone and in
any batch, beside any other sentences, gives the same words, and in every precision the same
attention weights and probabilities within 1e-5 (issue 65)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnviz import load
from attnviz.tuning.decoding_precision import decoding_choices

from ..helpers import WORDS, needs_int8

pytestmark = pytest.mark.slow
SENTENCE = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)
MODELS = ("bahdanau", "general")


@pytest.fixture(scope="module")
def translators(trained):
    """Each tiny trained model at every precision this CPU decodes in."""
    return {
        (kind, precision): load(trained(kind)[0], precision=precision)
        for kind in MODELS
        for precision in decoding_choices("cpu")
    }


def assert_same(alone, batched) -> None:
    assert batched.tgt_tokens == alone.tgt_tokens
    np.testing.assert_allclose(batched.weights, alone.weights, atol=1e-5)
    np.testing.assert_allclose(batched.probs, alone.probs, atol=1e-5)


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    sentence=SENTENCE,
    mates=st.lists(SENTENCE, min_size=1, max_size=9),
    place=st.integers(0, 9),
    beam=st.sampled_from([1, 3]),
)
def test_a_sentence_gets_the_same_translation_alone_and_beside_any_others(
    translators, sentence, mates, place, beam
):
    batch = [*mates[:place], sentence, *mates[place:]]
    for tr in translators.values():
        alone = tr.translate(sentence, beam=beam)
        assert_same(alone, tr.translate_batch(batch, beam=beam)[min(place, len(mates))])


@needs_int8
def test_the_int8_batch_would_change_words_that_one_at_a_time_keeps(translators, monkeypatch):
    """The reason for decoding below fp32 one sentence at a time: int8 quantizes its inputs
    with one scale over the whole batch, so in a batch a sentence's numbers move."""
    tr = translators[("general", "int8")]
    sentences = ["the cat sees the dog .", "a big red house likes a small dog , the cat ."]
    assert tr.batch_rows(64) == 1 and translators[("general", "fp32")].batch_rows(64) == 64
    monkeypatch.setattr(tr, "batch_rows", lambda asked: asked)  # every row together, as it was
    alone = tr.translate(sentences[0])
    together = tr.translate_batch(sentences)[0]
    assert not np.allclose(together.probs, alone.probs, atol=1e-5)
