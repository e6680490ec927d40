"""Steering a decoding: a prefix the output starts with, and attention edited at a step."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import attnviz
from attnviz.decoding import steer
from attnviz.decoding.steer import Edit
from attnviz.decoding.trace import Candidate, Owners
from attnviz.errors import InputError

from ..handmade import hand_trace
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
    assert steer.word_prefix(trace, 1, "chien") == ("le", "chien")
    assert steer.word_prefix(trace, 0, "un") == ("un",)
    assert steer.word_prefix(trace, 9, "noir") == ("le", "chat", "noir")  # past the end: last


def test_the_words_offered_are_the_other_candidates_but_never_eos_or_unk():
    step = [Candidate(w, 0.2) for w in ("chat", "<eos>", "chien", "<unk>", "oiseau")]
    trace = _words(candidates=[[Candidate("le", 1.0)], step])
    assert steer.words_offered(trace, 1) == ["chien", "oiseau"]
    assert steer.words_offered(trace, 5) == ["chien", "oiseau"]  # past the end: the last step


def test_the_other_model_s_attention_is_offered_only_where_it_fits():
    trace, other = _words(), _words(tgt=("le", "chat", "<eos>"), weights=np.eye(3))
    assert steer.edits_offered(trace, other, 2) == [Edit.ALL_ON, Edit.WITHOUT, Edit.OTHER]
    assert steer.edits_offered(trace, other, 3) == [Edit.ALL_ON, Edit.WITHOUT]  # it ended
    elsewhere = hand_trace(np.eye(3), ["a", "dog", "<eos>"], ["le", "chat", "<eos>"])
    assert steer.edits_offered(trace, elsewhere, 0) == [Edit.ALL_ON, Edit.WITHOUT]


def test_a_word_model_s_edit_is_its_own_step_and_the_weights_asked_for():
    trace, other = _words(), _words(weights=((0.2, 0.2, 0.6), (0.0, 0.5, 0.5)))
    assert steer.attention_edit(trace, 1, Edit.ALL_ON, source=0) == (1, (1.0, 0.0, 0.0))
    step, weights = steer.attention_edit(trace, 1, Edit.WITHOUT, source=1)
    assert step == 1 and weights == pytest.approx((0.5, 0.0, 0.5))
    assert steer.attention_edit(trace, 0, Edit.OTHER, other=other) == (0, (0.2, 0.2, 0.6))
    assert steer.attention_edit(trace, 7, Edit.ALL_ON, source=2) == (1, (0.0, 0.0, 1.0))
    with pytest.raises(ValueError, match="other"):
        steer.attention_edit(trace, 0, Edit.OTHER)


def test_a_subword_model_s_edit_is_at_the_word_s_first_piece_shared_as_the_model_shared_it():
    trace = _words_over_pieces()
    step, weights = steer.attention_edit(trace, 1, Edit.ALL_ON, source=1)
    assert step == 1  # "chat" starts at the piece ▁ch
    assert weights == pytest.approx((0.0, 0.75, 0.25, 0.0))  # as 0.6 : 0.2 at that step
    step, weights = steer.attention_edit(trace, 2, Edit.WITHOUT, source=0)  # the <eos> step
    assert step == 3 and weights == pytest.approx((0.0, 1 / 9, 1 / 9, 7 / 9))


def test_the_what_if_edit_makes_the_model_attend_where_it_was_asked(model):
    own = model.translate(SENTENCE)
    j, t = 2, 1
    edit = steer.attention_edit(own, t, Edit.ALL_ON, source=j)
    trace = model.translate(SENTENCE, attention=dict([edit]))
    assert edit[0] == own.owners.tgt.index(t) and trace.pieces.edited == (edit[0],)
    owned = np.asarray(own.owners.src) == j  # the pieces of source word j
    assert trace.pieces.weights[edit[0]][owned].sum() == pytest.approx(1.0)
    given = model.translate(SENTENCE, prefix=steer.word_prefix(own, 2, "oiseau"))
    assert given.tgt_tokens[:3] == [*own.tgt_tokens[:2], "oiseau"] and given.prefix == 3
