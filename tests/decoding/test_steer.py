"""Steering a decoding: a prefix the output starts with, and attention edited at a step."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import attnviz
from attnviz.errors import InputError
from attnviz_ui.builders import what_if

from ..helpers import tiny_translator

SENTENCE = "the red cat sees a dog ."


@pytest.fixture(scope="module", params=["bahdanau", "general"])
def model(request, trained) -> attnviz.Translator:
    """A tiny trained subword model of each attention family, in fp32."""
    return attnviz.load(trained(request.param)[0], precision="fp32")


def _same(a: attnviz.Trace, b: attnviz.Trace, steps: slice = slice(None)) -> None:
    assert a.tgt_tokens[steps] == b.tgt_tokens[steps]
    for field in ("weights", "scores", "probs", "query", "context"):
        np.testing.assert_array_equal(getattr(a, field)[steps], getattr(b, field)[steps])


def test_a_prefix_comes_first_and_the_model_continues_with_its_own_choices(model):
    own = model.translate(SENTENCE)
    prefix = ["un", "oiseau"]
    trace = model.translate(SENTENCE, prefix=prefix)
    assert trace.tgt_tokens[:2] == prefix and trace.prefix == 2
    assert trace.tgt_tokens[:2] != own.tgt_tokens[:2]
    pieces = trace.pieces
    for t in range(pieces.prefix, len(pieces.tgt_tokens)):  # greedy from there: each its argmax
        assert pieces.tgt_tokens[t] == pieces.candidates[t][0].token


def test_the_model_s_own_words_as_a_prefix_change_nothing(model):
    own = model.translate(SENTENCE)
    trace = model.translate(SENTENCE, prefix=own.tgt_tokens[:3])
    _same(trace.pieces, own.pieces)
    assert trace.prefix == 3


def test_text_and_beam_search_take_a_prefix_too(model):
    trace = model.translate(SENTENCE, beam=4, prefix="la maison")
    assert trace.tgt_tokens[:2] == ["la", "maison"] and trace.mode == "beam"
    assert trace.prefix == 2


def test_an_edit_equal_to_the_model_s_own_weights_reproduces_the_trace_exactly(model):
    own = model.translate(SENTENCE)
    edits = {t: own.pieces.weights[t] for t in (0, 2)}
    trace = model.translate(SENTENCE, attention=edits)
    _same(trace.pieces, own.pieces)
    assert trace.pieces.edited == (0, 2)


def test_a_one_hot_edit_puts_the_context_on_that_word_s_encoder_output(model):
    own = model.translate(SENTENCE)
    n_src, j, t = len(own.pieces.src_tokens), 1, 2
    one_hot = np.eye(n_src)[j]
    trace = model.translate(SENTENCE, attention={t: one_hot})
    np.testing.assert_array_equal(trace.pieces.weights[t], one_hot)
    src, lens = model.source_batch([model.pieces(model.tokenize_source(SENTENCE))])
    with torch.inference_mode():
        memory, _ = model.model.encode(src, lens)
    np.testing.assert_array_equal(trace.pieces.context[t], memory.values[0, j].numpy())


def test_an_edit_at_step_t_leaves_the_steps_before_it_untouched(model):
    own = model.translate(SENTENCE)
    t = 3
    uniform = np.ones(len(own.pieces.src_tokens))  # normalized by the translator
    trace = model.translate(SENTENCE, attention={t: uniform})
    _same(trace.pieces, own.pieces, slice(0, t))
    np.testing.assert_allclose(trace.pieces.weights[t], uniform / uniform.sum(), rtol=1e-6)
    assert not np.allclose(trace.pieces.weights[t], own.pieces.weights[t])


def test_edited_steps_read_as_the_words_they_wrote(model):
    trace = model.translate(
        SENTENCE, attention={0: np.ones(len(model.pieces(SENTENCE.split())) + 1)}
    )
    assert trace.edited == (0,) and trace.pieces.edited == (0,)


@pytest.mark.parametrize(
    "edits,message",
    [
        ({0: [1.0, 0.0]}, "has 2 weights"),
        ({0: [-1.0] + [1.0] * 7}, "not negative"),
        ({0: [0.0] * 8}, "not all zero"),
        ({0: [float("nan")] * 8}, "not negative"),
        ({-1: [1.0] * 8}, "step number"),
    ],
)
def test_a_bad_edit_is_refused_with_what_is_wrong(edits, message):
    tr = tiny_translator("bahdanau")  # 7 words + <eos>
    with pytest.raises(InputError, match=message):
        tr.translate(SENTENCE, attention=edits)


def test_edits_need_greedy_search_and_prefixes_need_words_the_model_can_write():
    tr = tiny_translator("dot")
    with pytest.raises(InputError, match="greedy"):
        tr.translate(SENTENCE, beam=3, attention={0: [1.0] * 8})
    with pytest.raises(InputError, match="“zebra” is not in"):
        tr.translate(SENTENCE, prefix=["THE", "zebra"])
    with pytest.raises(InputError, match="<eos>"):
        tr.translate(SENTENCE, prefix=["THE", "<eos>"])
    assert tr.translate(SENTENCE, prefix=["THE", "CAT"]).tgt_tokens[:2] == ["THE", "CAT"]


def test_the_numbers_of_a_step_add_up_to_what_the_decoding_recorded(model):
    from attnviz.decoding.step_math import step_math

    trace = model.translate(SENTENCE).pieces
    for t in range(len(trace.tgt_tokens)):
        m = step_math(model, trace, t)
        np.testing.assert_allclose(m.weights, trace.weights[t], atol=1e-6)
        np.testing.assert_allclose(m.exp / m.exp.sum(), trace.weights[t], atol=1e-6)
        np.testing.assert_allclose(m.scores, trace.scores[t], rtol=1e-5)
        np.testing.assert_allclose(m.weights @ m.values, m.context, atol=1e-5)
        assert m.share.sum() == pytest.approx(1.0, abs=1e-4)
        assert m.top[0][0] == trace.tgt_tokens[t] and m.top[0][2] == pytest.approx(trace.probs[t])
        if "v" in m.parts:  # additive: e = v . tanh(W q + U h_j)
            np.testing.assert_allclose(
                m.parts["tanh(W q + U h_j)"] @ m.parts["v"], m.scores, rtol=1e-4, atol=1e-5
            )
        else:  # general: e = scale * q . W_a h_j
            np.testing.assert_allclose(
                m.scale * m.parts["W_a h_j"] @ m.query, m.scores, rtol=1e-4, atol=1e-5
            )


def test_the_numbers_of_an_edited_step_are_the_edit_s(model):
    from attnviz.decoding.step_math import step_math

    n_src = len(model.translate(SENTENCE).pieces.src_tokens)
    trace = model.translate(SENTENCE, attention={1: np.eye(n_src)[0]}).pieces
    m = step_math(model, trace, 1)
    assert m.edited and m.weights[0] == 1.0
    np.testing.assert_array_equal(m.context, m.values[0])
    after = step_math(model, trace, 2)  # the replay follows the edit
    np.testing.assert_allclose(after.weights, trace.weights[2], atol=1e-6)


# --- the dashboard's what-ifs, built without a page ----------------------------------------------


def test_the_what_if_edit_makes_the_model_attend_where_it_was_asked(model):
    own = model.translate(SENTENCE)
    j, t = 2, 1
    edit = what_if.attention_edit(own, t, what_if.Edit.ALL_ON, source=j)
    trace = model.translate(SENTENCE, attention=dict([edit]))
    assert edit[0] == own.owners.tgt.index(t) and trace.pieces.edited == (edit[0],)
    owned = np.asarray(own.owners.src) == j  # the pieces of source word j
    assert trace.pieces.weights[edit[0]][owned].sum() == pytest.approx(1.0)
    given = model.translate(SENTENCE, prefix=what_if.word_prefix(own, 2, "oiseau"))
    assert given.tgt_tokens[:3] == [*own.tgt_tokens[:2], "oiseau"] and given.prefix == 3
